"""HeroCard in words: each fact of the log and each listed action for a person, and each Action
Card's and Hero's details (from heroes.json), in the rulebook's terms: Heroes, Attribute
Stacks and points, Action Cards (Base Attack, Attack Mod, Base Block...), Fast, Restricted and
Exclusive, Attack Sequences, Victory Points, Secret Cards, purge, replay, duplicate, twist.
See domain/kernel/words.py.

The dueling engine serves Cyberspace too: `duel_facts` and `duel_actions` word the engine's
facts and actions for either game, with that game's Attribute names ("Attribute X", "Gene X").
A card on a stack is known by an instance id (uid); the words learn it from the fact that put
it there face up or revealed it (`learn`), or read it in the reader's view."""

from domain.kernel.words import Context, Words, listing, plural

from .cards import CARDS, HEROES
from .engine import DEFAULTS

KINDS = {"base_attack": "Base Attack", "attack_mod": "Attack Mod", "special_attack": "Special Attack",
         "base_block": "Base Block", "block_mod": "Block Mod", "special_block": "Special Block", "action": "Action"}
TIMINGS = {"fast": "Fast", "restricted": "Restricted", "exclusive": "Exclusive"}
PHASES = {"discard": "Discard Phase", "draw": "Draw Phase", "clear": "Clear Phase", "action": "Action Phase"}
ENDS = {"victory_points": "a side earned the Victory Points it needed", "turn_limit": "the turn limit was reached"}
HERO_ATTRIBUTES = DEFAULTS["attribute_names"]


def card_name(card_id) -> str:
    card = CARDS.get(card_id) if isinstance(card_id, str) else None
    return card["name"] if card else "a card"


def cards(card_ids) -> str:
    """"Jab, Jab and Brace" for a list; "3 cards" for the count another reader sees."""
    if isinstance(card_ids, int):
        return "a card" if card_ids == 1 else plural(card_ids, "card")
    return listing([card_name(c) for c in card_ids], empty="no card")


def value_text(card: dict) -> str:
    kind = KINDS.get(card["kind"], card["kind"])
    if card["kind"] in ("attack_mod", "block_mod"):
        return f"{kind} +{card.get('value', 0)}"
    if card["kind"] in ("base_attack", "base_block"):
        return f"{kind} {card.get('value', 0)}"
    return kind


def card_summary(card_id, names) -> str:
    """"Attack from Above (Base Attack 4, Exclusive, costs 3 Body)"."""
    card = CARDS.get(card_id)
    if not card:
        return "a card"
    return (f"{card['name']} ({value_text(card)}, {TIMINGS[card['timing']]}, costs {card['cost']} "
            f"{names[card['attribute']]})")


def on_stack(uid, ctx: Context) -> dict | None:
    """A card on an Attribute Stack by its uid: learned from earlier facts, or in the reader's view."""
    if ("uid", uid) in ctx.known:
        return ctx.known[("uid", uid)]
    view = ctx.view or {}
    duel = view.get("cards") if "cards" in view else view  # Cyberspace holds the duel's view under "cards"
    for seat, player in enumerate((duel or {}).get("players", [])):
        for attribute, stack in player.get("stacks", {}).items():
            for entry in stack:
                if entry["uid"] == uid:
                    return {"card": entry["card"], "seat": seat, "attribute": attribute}
    return None


def duel_facts(names: dict) -> dict:
    """Words for the engine's facts, with a game's Attribute names."""

    def stack(seat, attribute, ctx):
        return f"{ctx.whose(seat)} {names.get(attribute, attribute)} stack"

    def place(f, ctx):
        if f["face"] == "down":
            what = f"{card_name(f['card'])}, a Secret Card," if f["card"] else "a Secret Card"
            return (f"{ctx.who(f['seat'])} deployed {what} face down on {stack(f['seat'], f['attribute'], ctx)}, "
                    f"expending {f['cost']} points")
        return f"{ctx.who(f['seat'])} played {card_summary(f['card'], names)}"

    def active(f, ctx):
        entry = f["entry"]
        card = CARDS.get(entry["card"])
        value = entry.get("value")
        shown = value_text({**card, "value": value}) if card else "a card"
        how = " (replayed)" if entry.get("replay") else " (a duplicate)" if entry.get("uid") is None else ""
        return f"{ctx.whose(entry['seat'])} {card_name(entry['card'])}{how} joined the Attack Sequence: {shown}"

    def opened(f, ctx):
        defenders = f.get("defenders") or [f["target"]]
        against = ctx.seats(defenders) if len(defenders) > 1 else ctx.whom(f["target"])
        if f["owner"] == f["target"]:
            against = "their own side" if ctx.viewer != f["owner"] else "your own side"
        return f"Attack Sequence: {ctx.who(f['owner'])} attacked {against}" + (" (a duplicate)" if f["duplicate"] else "")

    def resolved(f, ctx):
        head = "The attack succeeded" if f["success"] else "The attack failed"
        tail = f"; {ctx.who(f['owner'])} scored a Victory Point" if f["vp"] else ""
        return f"{head}: attack {f['attack']} against block {f['block']}{tail}"

    def reveal(f, ctx):
        text = (f"{ctx.who(f['seat'])} revealed {card_name(f['card'])}, a Secret Card, on "
                f"{stack(f['seat'], f['attribute'], ctx)}")
        return text + (": played wrongly, it has no effect" if f["dud"] else "")

    def penalty(f, ctx):
        if f["forfeit"]:
            return f"{ctx.who(f['seat'])} lost the rest of this turn and will skip the next"
        return f"{ctx.who(f['seat'])} will skip the next turn"

    def pending(f, ctx):
        owed = f["pending"]
        if owed is None:
            return None  # the forced discard was made: the discard fact beside it says which
        of = {"any": "", "attack": " attack", "block": " block"}.get(owed["of"], "")
        return (f"{ctx.who(owed['seat'])} must discard {plural(owed['count'], of.strip() + ' card' if of else 'card')}"
                " (all such cards held, if fewer)")

    def duplicate(f, ctx):
        d = f["duplicate"]
        return f"{ctx.who(d['owner'])} will duplicate {card_name(d['card'])} against {ctx.whom(d['target'])}"

    def phase(f, ctx):
        if f["phase"] == "ended":
            return "The turn ended"
        return f"The {PHASES.get(f['phase'], f['phase'])} began"

    def cleared(f, ctx):
        return f"{ctx.who(f['seat'])} cleared {card_name(f.get('card'))} from {stack(f['seat'], f['attribute'], ctx)}"

    def purged(f, ctx):
        return f"{ctx.whose(f['seat'])} {card_name(f['card'])} was purged: as if never played"

    return {
        "hc.turn": lambda f, ctx: f"Turn {f['number']}: {ctx.whose(f['active'])} turn",
        "hc.phase": phase,
        "hc.discard": lambda f, ctx: f"{ctx.who(f['seat'])} discarded {cards(f['cards'])}",
        "hc.draw": lambda f, ctx: f"{ctx.who(f['seat'])} drew {cards(f['cards'])}",
        "hc.undraw": lambda f, ctx: f"{ctx.who(f['seat'])} put {cards(f['cards'])} back on top of the Action Deck",
        "hc.undiscard": lambda f, ctx: f"{ctx.who(f['seat'])} took {cards(f['cards'])} back from the discard stack",
        "hc.unclear": lambda f, ctx: f"{card_name(f['entry']['card'])} went back on {stack(f['seat'], f['attribute'], ctx)}",
        "hc.reshuffle": lambda f, ctx: f"{ctx.whose(f['seat'])} discard stack became a new Action Deck",
        "hc.clear": cleared,
        "hc.unwind": lambda f, ctx: f"{ctx.whose(f['by'])} twists unwound",
        "hc.place": place,
        "hc.reveal": reveal,
        "hc.open": opened,
        "hc.active": active,
        "hc.twist": lambda f, ctx: (f"{ctx.who(f['by'])} twisted {ctx.whose(f['seat'])} "
                                    f"{names.get(f['attribute'])} Attribute"),
        "hc.untwist": lambda f, ctx: "The twist was undone",
        "hc.purge": purged,
        "hc.queue_duplicate": duplicate,
        "hc.unqueue_duplicate": lambda f, ctx: "The duplicate was called off",
        "hc.cancel": lambda f, ctx: "The Attack Sequence was cancelled",
        "hc.resolved": resolved,
        "hc.pending": pending,
        "hc.commit": lambda f, ctx: f"{ctx.who(f['seat'])} joined the {f['side']}ing side",
        "hc.penalty": penalty,
        "hc.prefer": lambda f, ctx: f"{ctx.who(f['seat'])} would rather {f['preference']}",
        "hc.skip": lambda f, ctx: f"{ctx.whose(f['seat'])} turn was skipped (a penalty)",
        "hc.over": lambda f, ctx: f"The duel ended: {ENDS.get(f['reason'], 'it is over')}",
        "hc.priority": None,  # whose response it is: the next action shows it
        "hc.exclusive": None,  # the turn's Exclusive count: the play says which card
        "hc.allowance": None,  # one more Base Attack allowed: the card's text says so
        "hc.acted": None,  # the active player has acted this turn
        "hc.next_duplicate": None,  # the duplicate's own Attack Sequence follows
    }


DUEL_QUIET = frozenset({"hc.pending"})


def duel_learn(fact, known):
    """A card on a stack by its uid, once a fact shows it (played face up, revealed, or the
    reader's own deployed Secret Card)."""
    kind = fact.get("f")
    if kind == "hc.place" and fact.get("card"):
        known[("uid", fact["uid"])] = {"card": fact["card"], "seat": fact["seat"], "attribute": fact["attribute"]}
    elif kind == "hc.reveal":
        known[("uid", fact["uid"])] = {"card": fact["card"], "seat": fact["seat"], "attribute": fact["attribute"]}


def duel_actions(names: dict) -> dict:
    """Words for the engine's actions (HeroCard's own, and Cyberspace's `duel` and `attack`)."""

    def target(action, ctx):
        said = []
        if "target" in action:
            aim = action["target"]
            said.append(f"on {'your' if aim == ctx.viewer else 'their'} own side" if aim == ctx.actor
                        else f"at {ctx.whom(aim)}")
        if "attribute" in action:
            said.append(f"naming {names.get(action['attribute'], action['attribute'])}")
        if "uid" in action:
            entry = on_stack(action["uid"], ctx)
            said.append(f"replaying {card_name(entry['card']) if entry else 'a card on your stacks'}")
        return (" " + " ".join(said)) if said else ""

    def play(action, ctx):
        played = action.get("cards") or []
        shown = [card_summary(c, names) if ctx.offered else card_name(c) for c in played]
        text = f"play {listing(shown)}" + (" as a set" if len(played) > 1 else "")
        return text + target(action, ctx)

    def deploy(action, ctx):
        what = card_name(action["card"]) if action.get("card") else "a Secret Card"
        cost = f" (expends {CARDS[action['card']]['cost']} points)" if ctx.offered and action.get("card") in CARDS else ""
        return f"deploy {what} face down on the {names.get(action.get('attribute'), 'chosen')} stack{cost}"

    def reveal(action, ctx):
        entry = on_stack(action.get("uid"), ctx)
        what = card_name(entry["card"]) if entry and entry.get("card") else "a Secret Card"
        return f"reveal {what} and play it" + target({k: v for k, v in action.items() if k != "uid"}, ctx)

    def clear(action, ctx):
        stacks = action.get("stacks") or []
        if not stacks:
            return "clear no card"
        return f"clear the top card of {listing([f'the {names.get(s, s)} stack' for s in stacks])}"

    return {
        "discard": lambda a, ctx: (f"discard {cards([a['card']])} and go on discarding" if a.get("card")
                                   else f"discard {cards(a.get('cards') or [])}" if a.get("cards") else "discard no card"),
        "draw": lambda a, ctx: f"draw {plural(a.get('count', 0), 'card')}",
        "clear": clear,
        "play": play,
        "deploy": deploy,
        "reveal": reveal,
        "pass": lambda a, ctx: "pass",
        "refresh": lambda a, ctx: "refresh the hand, discarding it for a new one and ending the turn",
        "choose": lambda a, ctx: (f"discard {cards(a.get('cards'))} as forced" if a.get("cards")
                                  else "discard nothing: no card of the kind forced"),
        "prefer": lambda a, ctx: f"tell your partner you would rather {a.get('preference')}",
    }


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def card_details(card_id, names=HERO_ATTRIBUTES):
    card = CARDS.get(card_id) if isinstance(card_id, str) else None
    if not card:
        return None
    return {"id": card["id"], "name": card["name"], "kind": KINDS[card["kind"]], "timing": TIMINGS[card["timing"]],
            "attribute": names[card["attribute"]], "cost": card["cost"],
            **({"value": card["value"]} if "value" in card else {}), "secret": bool(card.get("secret")),
            "text": card["text"], "designed": not card.get("printed", False)}


def hero_details(hero_id, names=HERO_ATTRIBUTES):
    hero = HEROES.get(hero_id) if isinstance(hero_id, str) else None
    if not hero:
        return None
    scores = {names[a]: hero["attributes"][a]["score"] for a in ("body", "mind", "x")}
    titles = ", ".join(f"{names[a]}: {hero['attributes'][a]['title']} {hero['attributes'][a]['score']}"
                       for a in ("body", "mind", "x"))
    return {"id": hero_id, "name": hero["name"], "kind": "Hero", "level": hero["level"], "scores": scores,
            "deck": {card_name(c): n for c, n in hero["deck"].items()},
            "text": f"{hero['style']} Attributes: {titles}."}


def details(card_id):
    return card_details(card_id) or hero_details(card_id)


def catalog():
    return [card_details(c) for c in CARDS] + [hero_details(h) for h in HEROES]


WORDS = Words(facts=duel_facts(HERO_ATTRIBUTES), actions=duel_actions(HERO_ATTRIBUTES), details=details,
              catalog=catalog, learn=duel_learn, reasons=ENDS, sometimes_quiet=DUEL_QUIET)
