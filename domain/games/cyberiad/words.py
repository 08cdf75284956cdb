"""Cyberiad in words: each fact of the log and each listed action for a person, and each
card's and Constructor's details (from cards.json), in the rulebook's terms: Fame, Trouble and
Genius points, Sallies, Machines, Effects and Actions, Constructors. See domain/kernel/words.py."""

from domain.kernel.words import Context, Words, listing, plural

from .cards import CARDS, CONSTRUCTORS, card_of

POINTS = {"fame": ("Fame point", "Fame points"), "trouble": ("Trouble point", "Trouble points"),
          "genius": ("Genius point", "Genius points")}
TIMING = {"A>": "When it enters play:", "X>": "Once on each of your turns (must):",
          "Y>": "Once on your turn (may):", "Z>": "Any number of times on your turn:"}
ASKED = {
    "discard": "a card to discard", "target_opponent": "an opponent to target", "target_player": "a player to target",
    "steal": "a card to steal", "search_deck": "a card from the deck", "search_discard": "a card from the discard pile",
    "machine": "a Machine", "discard_in_play": "one of their cards in play to discard",
    "fill_hand": "whether to fill their hand to 10 cards",
}
ENDS = {"deck_empty": "the deck ran out", "fame_50": "a player reached 50 Fame points",
        "last_standing": "one player was left", "seven_sallies": "a player claimed 7 Sallies"}


def card_name(instance) -> str:
    card = CARDS.get(card_of(instance)) if isinstance(instance, str) else None
    return card["name"] if card else "a card"


def cards(instances) -> str:
    return listing([card_name(i) for i in instances])


def points(kind, n) -> str:
    one, many = POINTS.get(kind, (kind, kind))
    return f"{n} {one if n == 1 else many}"


def zone(name: str, ctx: Context) -> str:
    if name == "deck":
        return "the deck"
    if name == "discard":
        return "the discard pile"
    kind, _, seat = name.partition(":")
    return f"{ctx.whose(int(seat))} {'hand' if kind == 'hand' else 'cards in play'}"


def _owner(name: str) -> int | None:
    return int(name.split(":")[1]) if ":" in name else None


# ---------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------

def _move(fact, ctx):
    source, target, card = fact["from"], fact["to"], fact.get("card")
    shown = card_name(card) if card else "a card"
    src, dst = _owner(source), _owner(target)
    if source == "deck" and target.startswith("hand:"):
        return f"{ctx.who(dst)} drew {shown}"
    if source.startswith("hand:") and target == "discard":
        return f"{ctx.who(src)} discarded {shown}"
    if source.startswith("hand:") and target.startswith("play:") and src == dst:
        return f"{ctx.who(dst)} put {shown} into play"
    if target.startswith("play:") and source in ("deck", "discard"):
        return f"{shown} went from {zone(source, ctx)} into play for {ctx.whom(dst)}"
    if source.startswith("play:") and target == "discard":
        return f"{ctx.whose(src)} {shown} was discarded from play"
    if source.startswith("play:") and target.startswith("hand:"):
        return f"{ctx.whose(src)} {shown} went back to {zone(target, ctx)}"
    if source.startswith("play:") and target.startswith("play:"):
        return f"{ctx.who(dst)} took {ctx.whose(src)} {shown}"
    if source.startswith("hand:") and target.startswith("hand:"):
        return f"{ctx.who(dst)} took {shown} from {zone(source, ctx)}"
    if source == "discard" and target.startswith("hand:"):
        return f"{ctx.who(dst)} took {shown} from the discard pile"
    return f"{shown} went from {zone(source, ctx)} to {zone(target, ctx)}"


def _tokens(fact, ctx):
    delta = fact["delta"]
    return f"{ctx.who(fact['seat'])} {'gained' if delta > 0 else 'lost'} {points(fact['kind'], abs(delta))}"


def _prompt(fact, ctx):
    prompt = fact["prompt"]
    if prompt is None:
        return None  # the choice was made: the action that made it says so
    return f"{ctx.who(prompt['seat'])} must choose {ASKED.get(prompt['kind'], 'an option')}"


def _imprisoned(fact, ctx):
    if fact["delta"] < 0:
        return None  # a turn served: the "skipped" fact beside it says so
    return f"{ctx.who(fact['seat'])} will miss a turn (imprisoned)"


def _peek(fact, ctx):
    seen, where = fact["cards"], fact["zone"]
    place = (f"the top {plural(seen if isinstance(seen, int) else len(seen), 'card')} of the deck" if where == "deck"
             else zone(where, ctx))
    if isinstance(seen, list):
        return f"{ctx.who(fact['seat'])} looked at {place}: {cards(seen) if seen else 'no card'}"
    return f"{ctx.who(fact['seat'])} looked at {place}"


def _over(fact, ctx):
    return f"The game ended: {ENDS.get(fact['reason'], 'it is over')}"


FACTS = {
    "move": _move,
    "tokens": _tokens,
    "turn": lambda f, ctx: f"Turn {f['number']}: {ctx.whose(f['seat'])} turn began",
    "prompt": _prompt,
    "imprisoned": _imprisoned,
    "skipped": lambda f, ctx: f"{ctx.who(f['seat'])} missed the turn (imprisoned)",
    "out": lambda f, ctx: f"{ctx.verb(f['seat'], 'is', 'are')} out of the game",
    "over": _over,
    "peek": _peek,
    "swap_hands": lambda f, ctx: f"{ctx.seats(f['seats'])} traded hands",
    "shuffle": lambda f, ctx: "The deck was shuffled",
    "constructor": None,  # the "pick" action names it
    "played": None,  # the turn's one Sally, Machine or Effect is spent: the play says so
    "used": None,  # a once-a-turn ability is spent: the "use" action says so
    "last_machine": None,  # remembered for Invent it First
}
SOMETIMES_QUIET = frozenset({"prompt", "imprisoned"})


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

def _play(action, ctx):
    card = CARDS.get(card_of(action.get("card", "")))
    text = f"play {card_name(action.get('card'))}"
    if card:
        text += f" ({card['type'].capitalize()}, cost {card['cost']})"
    pay = action.get("pay") or []
    if pay:
        text += f", paying with {cards(pay)}" + (f" (so X is {len(pay)})" if card and card["cost"] == "X" else "")
    return text + _other_payments((action.get("params") or {}).get("pay"))


def _other_payments(schema) -> str:
    """A listed play's `params`: which other payments the rules accept."""
    if not isinstance(schema, dict) or schema.get("worth_at_least") == 0:
        return ""  # free: nothing else need be paid
    hand = [card_name(i) for i in schema.get("items", {}).get("enum", [])]
    if "worth_at_least" not in schema:
        return f" — or discard any one or more of {listing(hand, 'or')} (X is how many)"
    counted = [f"{card_name(i)} counts {n}" for i, n in (schema.get("worth") or {}).items()]
    return (f" — or any of {listing(hand, 'or')} worth at least {schema['worth_at_least']}"
            + (f" ({listing(counted)})" if counted else "") + (", no card to spare" if schema.get("no_spare") else ""))


def _constructor_of(ctx) -> str | None:
    seat = ctx.actor
    if ctx.view and seat is not None:
        return ctx.view["players"][seat]["constructor"]
    return ctx.known.get(("constructor", seat))


def _power(action, ctx):
    constructor = CONSTRUCTORS.get(_constructor_of(ctx) or "")
    if not constructor:
        return "use the Constructor's power"
    return f"use {constructor['name']}'s power" + (f" ({constructor['text'].rstrip('.')})" if ctx.offered else "")


def _use(action, ctx):
    card = CARDS.get(card_of(action.get("card", "")))
    text = f"use {card_name(action.get('card'))}"
    return text + (f" ({rules_text(card['text'])})" if card and ctx.offered else "")


CONVERT = {"fame": "convert 5 Genius points into 1 Fame point", "draw": "convert 5 Genius points into a card",
           "remove_trouble": "convert 5 Genius points to remove 1 Trouble point"}


def _choose(action, ctx):
    if "option" not in action:
        return "make a choice"
    option = action["option"]
    prompt = (ctx.view or {}).get("prompt") or {}
    kind = prompt.get("kind")
    if isinstance(option, int) and not isinstance(option, bool):
        return f"choose {ctx.whom(option)}" + (" as the target" if kind in ("target_opponent", "target_player") else "")
    if option in ("yes", "no"):
        return f"answer {option}" + (" (fill your hand to 10 cards)" if kind == "fill_hand" else "")
    verb = {"discard": "discard", "steal": "steal", "discard_in_play": "discard"}.get(kind, "choose")
    return f"{verb} {card_name(option)}"


ACTIONS = {
    "pick": lambda a, ctx: f"pick {CONSTRUCTORS[a['constructor']]['name']} as Constructor",
    "play": _play,
    "use": _use,
    "power": _power,
    "convert": lambda a, ctx: CONVERT.get(a.get("into"), "convert 5 Genius points"),
    "end_turn": lambda a, ctx: "end the turn",
    "choose": _choose,
}


def learn(fact, known):
    if fact.get("f") == "constructor":
        known[("constructor", fact["seat"])] = fact["name"]


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def rules_text(text: str) -> str:
    """The rulebook's notation spelled out: "Y> Remove 1 TP" -> "Once on your turn (may): Remove 1 TP"."""
    for mark, said in TIMING.items():
        text = text.replace(mark, said)
    return text


def details(card_id):
    card = CARDS.get(card_of(card_id)) if isinstance(card_id, str) else None
    if card:
        return {"id": card["id"], "name": card["name"], "kind": card["type"], "cost": card["cost"],
                "fame": card["fame"], "trouble": card["trouble"], "text": rules_text(card["text"]),
                "copies": card.get("copies", 1), "designed": "designed" in card}
    constructor = CONSTRUCTORS.get(card_id) if isinstance(card_id, str) else None
    if constructor:
        return {"id": constructor["id"], "name": constructor["name"], "kind": "constructor",
                "text": constructor["text"], "designed": constructor.get("designed", False)}
    return None


def catalog():
    return [details(card_id) for card_id in CARDS] + [details(c) for c in CONSTRUCTORS]


WORDS = Words(facts=FACTS, actions=ACTIONS, details=details, catalog=catalog, learn=learn, reasons=ENDS,
              sometimes_quiet=SOMETIMES_QUIET)
