"""Cyberiad, after rules/cyberiad.txt, read top to bottom in the rulebook's order.

State is plain JSON. Every change is a fact applied by `evolve`; `decide` validates an
action and returns the facts it causes, working on a scratch copy so the caller's state
is never touched. Card effects are data (cards.json): short lists of steps such as
`gain`, `draw` or `choose_opponent`. A step that needs a choice puts a prompt in the
state, holding the steps still to run; the `choose` action answers it. Every choice this
file makes where the rulebook is silent is listed in README.md.
"""

from .cards import CARDS, CONSTRUCTORS, card_of

from domain.kernel.decision import Decision
from domain.kernel.errors import IllegalAction, InvalidSetup

# VICTORY / GAME END
FAME_TO_WIN = 50
TROUBLE_TO_LOSE = 20
SALLIES_TO_END = 7
# SETUP / TERMINAL PHASE / PRIMARY ACTION PHASE
OPENING_HAND = 5
MAX_HAND = 10
GENIUS_PER_CONVERSION = 5
CONVERSIONS = ("fame", "draw", "remove_trouble")

# ---------------------------------------------------------------------------------------
# Derived values: the state stores tokens and cards; points are counted from them.
# ---------------------------------------------------------------------------------------


def passive(state, seat, name, default=0):
    """Sum (or any) of one passive ability over the cards a seat has in play."""
    total = default
    for instance in state["play"][seat]:
        value = CARDS[card_of(instance)].get("passive", {}).get(name)
        if value is True:
            return True
        if value:
            total += value
    return total


def is_sally(card) -> bool:
    return card["type"] == "sally" or card.get("passive", {}).get("counts_as_sally", False)


def sallies(state, seat) -> int:
    return sum(1 for i in state["play"][seat] if is_sally(CARDS[card_of(i)]))


def sallies_for_game_end(state, seat) -> int:
    return sum(CARDS[card_of(i)].get("passive", {}).get("sallies_for_game_end", 1)
               for i in state["play"][seat] if is_sally(CARDS[card_of(i)]))


def machines(state, seat) -> int:
    return sum(1 for i in state["play"][seat] if CARDS[card_of(i)]["type"] == "machine")


def card_points(state, seat, card, kind) -> int:
    value = card[kind]
    if value != "X":
        return value
    rule = card.get(f"{kind}_x")
    if rule == "sallies":
        return sallies(state, seat)
    if rule == "machines_half":
        return machines(state, seat) // 2
    return 0


def fame(state, seat) -> int:
    """Fame tokens plus the Fame of every card the seat has in play."""
    return state["fame"][seat] + sum(card_points(state, seat, CARDS[card_of(i)], "fame") for i in state["play"][seat])


def trouble(state, seat) -> int:
    return state["trouble"][seat] + sum(card_points(state, seat, CARDS[card_of(i)], "trouble")
                                        for i in state["play"][seat])


def hand_limit(state, seat) -> int:
    return MAX_HAND + passive(state, seat, "hand_size")


def shielded(state, seat) -> bool:
    return passive(state, seat, "shielded", False) is True


def living(state) -> list[int]:
    return [s for s in range(state["seats"]) if not state["out"][s]]


def opponents(state, seat) -> list[int]:
    return [s for s in living(state) if s != seat]


def card_losing_targets(state, seat) -> list[int]:
    """Opponents that an effect may make lose cards (Probability Proof Shields protect)."""
    return [s for s in opponents(state, seat) if not shielded(state, s)]


def owner_in_play(state, instance) -> int | None:
    for seat in range(state["seats"]):
        if instance in state["play"][seat]:
            return seat
    return None


def machines_in_play(state, seat, scope) -> list[str]:
    """Machines `seat` may pick: its own ('mine'), or any not protected by Shields ('any')."""
    found = []
    for owner in range(state["seats"]):
        if scope == "mine" and owner != seat:
            continue
        if owner != seat and shielded(state, owner):
            continue
        found += [i for i in state["play"][owner] if CARDS[card_of(i)]["type"] == "machine"]
    return sorted(found)


def machine_just_played(state, seat) -> str | None:
    """The Machine another player put into play during the turn just before this one."""
    last = state["last_machine"]
    if not last or last["seat"] == seat or last["turn"] != state["turn"]["number"] - 1:
        return None
    if last["card"] not in state["play"][last["seat"]] or shielded(state, last["seat"]):
        return None
    return last["card"]


def cost_of(state, seat, card) -> int | None:
    """What it costs `seat` to play `card` now; None for X costs (chosen by paying)."""
    if card["cost"] == "X":
        return None
    discount = 0
    for instance in state["play"][seat]:
        discount += CARDS[card_of(instance)].get("passive", {}).get("discount", {}).get(card["type"], 0)
    return max(0, card["cost"] - discount)


def worth(instance, paying_for_type) -> int:
    """A discarded card pays 1, or more when its note says so for this kind of card."""
    rule = CARDS[card_of(instance)].get("worth")
    if rule and paying_for_type in rule["for"]:
        return rule["cards"]
    return 1


def requirement_unmet(state, seat, requirement) -> str | None:
    """None when the requirement holds, else the reason it does not."""
    kind, *args = requirement
    if kind == "hand":
        return None if len(state["hands"][seat]) >= args[0] else "you have no card in hand to discard"
    if kind == "deck":
        return None if len(state["deck"]) >= args[0] else "the deck is empty"
    if kind == "deck_or_hand":
        return None if state["deck"] or state["hands"][seat] else "the deck and your hand are empty"
    if kind == "genius":
        return None if state["genius"][seat] >= args[0] else f"it needs {args[0]} GP; you have {state['genius'][seat]}"
    if kind == "fame_tokens":
        return None if state["fame"][seat] >= args[0] else "you have no Fame token to lose"
    if kind == "fame_total":
        return None if fame(state, seat) >= args[0] else f"it needs {args[0]}+ FP; you have {fame(state, seat)}"
    if kind == "sallies":
        return None if sallies(state, seat) >= args[0] else f"it needs {args[0]}+ Sallies in play"
    if kind == "machine":
        return None if machines_in_play(state, seat, args[0]) else "there is no Machine it can target"
    if kind == "machine_just_played":
        return None if machine_just_played(state, seat) else "no opponent put a Machine into play last turn"
    if kind == "opponent":
        targets = card_losing_targets(state, seat) if args[0] == "unshielded" else opponents(state, seat)
        return None if targets else "no opponent can be targeted (Probability Proof Shields)"
    raise ValueError(f"unknown requirement {kind!r} in the card data")


def first_unmet(state, seat, requirements) -> str | None:
    for requirement in requirements:
        reason = requirement_unmet(state, seat, requirement)
        if reason:
            return reason
    return None


# ---------------------------------------------------------------------------------------
# SETUP: a shared shuffled deck, 5 random cards each; then each player picks a Constructor.
# ---------------------------------------------------------------------------------------

def setup(options, seat_names, rng):
    if options:
        raise InvalidSetup(f"cyberiad takes no options (got {sorted(options)})")
    seats = len(seat_names)
    deck = rng.shuffle(instance for card in CARDS.values() for instance in card["instances"])
    hands = []
    for _ in range(seats):
        hands.append(deck[-OPENING_HAND:][::-1])
        del deck[-OPENING_HAND:]
    first = rng.randbelow(seats)
    return {
        "seats": seats,
        "deck": deck,  # the top of the deck is the end of the list
        "discard": [],
        "hands": hands,
        "play": [[] for _ in range(seats)],
        "fame": [0] * seats,
        "trouble": [0] * seats,
        "genius": [0] * seats,
        "constructors": [None] * seats,
        "imprisoned": [0] * seats,
        "out": [False] * seats,
        "out_order": [],
        "first": first,
        "phase": "pick",
        "turn": {"seat": first, "number": 0, "played": False, "used": []},
        "prompt": None,
        "last_machine": None,
        "over": None,
    }


# ---------------------------------------------------------------------------------------
# evolve: one fact at a time, no checks, no randomness.
# ---------------------------------------------------------------------------------------

def _zone(state, name):
    if name in ("deck", "discard"):
        return state[name]
    kind, seat = name.split(":")
    return state["hands" if kind == "hand" else "play"][int(seat)]


def evolve(state, fact):
    kind = fact["f"]
    if kind == "move":
        _zone(state, fact["from"]).remove(fact["card"])
        _zone(state, fact["to"]).append(fact["card"])
    elif kind == "tokens":
        state[fact["kind"]][fact["seat"]] += fact["delta"]
    elif kind == "prompt":
        state["prompt"] = fact["prompt"]
    elif kind == "turn":
        state["turn"] = {"seat": fact["seat"], "number": fact["number"], "played": False, "used": []}
        state["phase"] = "play"
    elif kind == "used":
        state["turn"]["used"].append(fact["what"])
    elif kind == "played":
        state["turn"]["played"] = True
    elif kind == "last_machine":
        state["last_machine"] = {"card": fact["card"], "seat": fact["seat"], "turn": fact["turn"]}
    elif kind == "constructor":
        state["constructors"][fact["seat"]] = fact["name"]
    elif kind == "imprisoned":
        state["imprisoned"][fact["seat"]] += fact["delta"]
    elif kind == "shuffle":
        state["deck"] = list(fact["order"])
    elif kind == "swap_hands":
        a, b = fact["seats"]
        state["hands"][a], state["hands"][b] = state["hands"][b], state["hands"][a]
    elif kind == "out":
        state["out"][fact["seat"]] = True
        state["out_order"].append(fact["seat"])
    elif kind == "over":
        state["over"] = fact["reason"]
        state["ranked"] = fact.get("ranked", [])
        state["phase"] = "over"
        state["prompt"] = None
    elif kind in ("peek", "revealed", "skipped"):
        pass  # information for the log only
    else:
        raise ValueError(f"unknown fact {kind!r}")
    return state


# ---------------------------------------------------------------------------------------
# Whose move, and the end of the game.
# ---------------------------------------------------------------------------------------

def _next_picker(state):
    n = state["seats"]
    for i in range(n):
        seat = (state["first"] + i) % n
        if state["constructors"][seat] is None:
            return seat
    return None


def to_act(state):
    if state["over"]:
        return set()
    if state["prompt"]:
        return {state["prompt"]["seat"]}
    if state["phase"] == "pick":
        return {_next_picker(state)}
    return {state["turn"]["seat"]}


def _ranking_key(state, seat):
    # Most FP wins; ties go to fewer TP, then more Sallies in play (README: tie-break).
    return (fame(state, seat), -trouble(state, seat), sallies(state, seat))


def outcome(state):
    reason = state["over"]
    if not reason:
        return None
    candidates = living(state)
    if reason == "fame_50":
        candidates = [s for s in candidates if fame(state, s) >= FAME_TO_WIN]
    if not candidates:  # everyone left went out in the same step: they are ranked
        candidates = state["ranked"]  # set with the "over" fact (matches set up before it lack it)
    best = max(_ranking_key(state, s) for s in candidates)
    return {
        "reason": reason,
        "winners": [s for s in candidates if _ranking_key(state, s) == best],
        "fame": [fame(state, s) for s in range(state["seats"])],
        "trouble": [trouble(state, s) for s in range(state["seats"])],
        "sallies": [sallies(state, s) for s in range(state["seats"])],
        "out": [s for s in state["out_order"]],
    }


# ---------------------------------------------------------------------------------------
# decide: the scratch context every rule writes facts through.
# ---------------------------------------------------------------------------------------

class Turn(Decision):
    """One decision's facts, with Cyberiad's two most common kinds of fact."""

    def __init__(self, state, rng):
        super().__init__(state, rng, evolve)

    def move(self, card, source, target):
        self.emit({"f": "move", "card": card, "from": source, "to": target})

    def tokens(self, seat, kind, delta):
        if delta < 0:  # tokens never go below zero; cards in play keep their points
            delta = -min(-delta, self.state[kind][seat])
        if delta:
            self.emit({"f": "tokens", "seat": seat, "kind": kind, "delta": delta})


def decide(state, seat, action, rng):
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", 'an action is an object with a "type"')
    handler = ACTIONS.get(action["type"])
    if handler is None:
        raise IllegalAction("unknown_action", f"cyberiad has no action {action['type']!r}; "
                            f"known: {sorted(ACTIONS)}")
    turn = Turn(state, rng)
    handler(turn, seat, action)
    return turn.facts


def _field(action, name, kind):
    value = action.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise IllegalAction("malformed_action", f'"{name}" must be a {kind.__name__} for a {action["type"]} action')
    return value


def _expect_phase(st, phase):
    if st["over"]:
        raise IllegalAction("game_over", "the game is over")
    if st["prompt"]:
        raise IllegalAction("choice_pending", f"answer the pending {st['prompt']['kind']} choice first")
    if st["phase"] != phase:
        raise IllegalAction("wrong_phase", f"this action belongs to the {phase} phase; it is the {st['phase']} phase")


# SETUP: "Each player picks one of the Constructors from the Constructor List."
def act_pick(turn, seat, action):
    st = turn.state
    _expect_phase(st, "pick")
    name = _field(action, "constructor", str)
    if name not in CONSTRUCTORS:
        raise IllegalAction("unknown_constructor", f"no Constructor {name!r}; pick one of {sorted(CONSTRUCTORS)}")
    turn.emit({"f": "constructor", "seat": seat, "name": name})
    if _next_picker(st) is None:
        start_turn(turn, st["first"])


# PRIMARY ACTION PHASE: put 1 Sally, Machine or Effect into play, and any Action cards.
def act_play(turn, seat, action):
    st = turn.state
    _expect_phase(st, "play")
    instance = _field(action, "card", str)
    pay = action.get("pay", [])
    if not isinstance(pay, list) or not all(isinstance(p, str) for p in pay):
        raise IllegalAction("malformed_action", '"pay" must be a list of card ids from your hand')
    reason = play_refusal(st, seat, instance, pay)
    if reason:
        raise IllegalAction(*reason)
    card = CARDS[card_of(instance)]
    hand = f"hand:{seat}"
    for paid in pay:
        turn.move(paid, hand, "discard")
    x = len(pay)
    if card["type"] == "action":
        # "Action cards when played are discarded"; their F/T are gained as tokens.
        turn.move(instance, hand, "discard")
        turn.tokens(seat, "fame", x if card["fame"] == "X" else card["fame"])
        turn.tokens(seat, "trouble", x if card["trouble"] == "X" else card["trouble"])
    else:
        turn.move(instance, hand, f"play:{seat}")
        turn.emit({"f": "played"})
        if card["type"] == "machine":
            turn.emit({"f": "last_machine", "card": instance, "seat": seat, "turn": st["turn"]["number"]})
            bonus = sum(CARDS[card_of(i)].get("passive", {}).get("fame_per_machine_played", 0)
                        for i in st["play"][seat] if i != instance)
            turn.tokens(seat, "fame", bonus)
    run_steps(turn, seat, card.get("on_play", []), {"X": x, "self": instance})


def play_refusal(st, seat, instance, pay) -> tuple[str, str] | None:
    """Why `seat` may not play `instance` paying with `pay`, as (rule code, message)."""
    if instance not in st["hands"][seat]:
        return "card_not_in_hand", f"{instance!r} is not in your hand"
    card = CARDS[card_of(instance)]
    if card["type"] != "action":
        if st["turn"]["played"]:
            return "one_card_per_turn", "you already put a Sally, Machine or Effect into play this turn"
        if card["type"] == "effect":
            effects = sum(1 for i in st["play"][seat] if CARDS[card_of(i)]["type"] == "effect")
            others = sum(1 for i in st["play"][seat] if CARDS[card_of(i)]["type"] in ("sally", "machine"))
            if effects + 1 > others:
                return "effect_limit", "you cannot have more Effect cards in play than Sally or Machine cards"
    unmet = first_unmet(st, seat, card.get("requires", []))
    if unmet:
        return "requirement", f"{card['name']} cannot be played: {unmet}"
    if len(set(pay)) != len(pay) or instance in pay or not all(p in st["hands"][seat] for p in pay):
        return "bad_payment", "pay with distinct cards from your hand, other than the card you play"
    cost = cost_of(st, seat, card)
    if cost is None:
        if not pay:
            return "bad_payment", f"{card['name']} costs X: discard at least one card (X = cards discarded)"
    elif sum(worth(p, card["type"]) for p in pay) < cost:
        return "insufficient_payment", f"{card['name']} costs {cost} card(s); the cards offered are worth " \
                                       f"{sum(worth(p, card['type']) for p in pay)}"
    return None


# "Y> You may do this once on your turn"; "Z> as many times as you want on your turn".
# A Constructor's power is an ability too: once a turn.
def act_use(turn, seat, action):
    _expect_phase(turn.state, "play")
    instance = _field(action, "card", str)
    reason = use_refusal(turn.state, seat, instance)
    if reason:
        raise IllegalAction(*reason)
    _activate(turn, seat, CARDS[card_of(instance)]["ability"], instance)


def act_power(turn, seat, action):
    _expect_phase(turn.state, "play")
    reason = power_refusal(turn.state, seat)
    if reason:
        raise IllegalAction(*reason)
    _activate(turn, seat, CONSTRUCTORS[turn.state["constructors"][seat]]["power"], "power")


def _activate(turn, seat, ability, used_key):
    if ability["limit"] == "once":
        turn.emit({"f": "used", "what": used_key})
    run_steps(turn, seat, ability["steps"], {"self": used_key})


def use_refusal(st, seat, instance):
    if instance not in st["play"][seat]:
        return "card_not_in_play", f"you have no {instance!r} in play"
    card = CARDS[card_of(instance)]
    if not card.get("ability"):
        return "no_ability", f"{card['name']} has no ability to use"
    return ability_refusal(st, seat, card["name"], card["ability"], instance)


def power_refusal(st, seat):
    constructor = CONSTRUCTORS[st["constructors"][seat]]
    return ability_refusal(st, seat, f"{constructor['name']}'s power", constructor["power"], "power")


def ability_refusal(st, seat, name, ability, used_key):
    if ability["limit"] == "once" and used_key in st["turn"]["used"]:
        return "once_per_turn", f"{name} was used this turn already (once a turn)"
    unmet = first_unmet(st, seat, ability.get("requires", []))
    if unmet:
        return "requirement", f"{name} cannot be used: {unmet}"
    return None


# "During Primary Phase, you may discard 5 Genius points to gain 1FP or To draw 1 card,
# or to remove 1 TP."
def act_convert(turn, seat, action):
    st = turn.state
    _expect_phase(st, "play")
    into = _field(action, "into", str)
    if into not in CONVERSIONS:
        raise IllegalAction("unknown_conversion", f"convert into one of {list(CONVERSIONS)}")
    if st["genius"][seat] < GENIUS_PER_CONVERSION:
        raise IllegalAction("not_enough_genius", f"a conversion costs {GENIUS_PER_CONVERSION} GP; "
                            f"you have {st['genius'][seat]}")
    if into == "draw" and not st["deck"]:
        raise IllegalAction("requirement", "the deck is empty")
    turn.tokens(seat, "genius", -GENIUS_PER_CONVERSION)
    run_steps(turn, seat, [CONVERTED[into]], {})


CONVERTED = {
    "fame": {"op": "gain", "what": "fame", "n": 1, "who": "me"},
    "draw": {"op": "draw", "n": 1, "who": "me"},
    "remove_trouble": {"op": "gain", "what": "trouble", "n": -1, "who": "me"},
}


# TERMINAL PHASE: "Max hand size is 10 cards. Discard excess cards." Then the next turn.
def act_end_turn(turn, seat, action):
    st = turn.state
    _expect_phase(st, "play")
    excess = len(st["hands"][seat]) - hand_limit(st, seat)
    steps = [{"op": "discard_chosen", "n": excess, "who": "me"}] if excess > 0 else []
    run_steps(turn, seat, steps + [{"op": "next_turn"}], {})


def act_choose(turn, seat, action):
    st = turn.state
    prompt = st["prompt"]
    if not prompt:
        raise IllegalAction("no_choice_pending", "there is no choice to make now")
    if "option" not in action:
        raise IllegalAction("malformed_action", 'a choose action needs an "option"')
    option = action["option"]
    if option not in prompt["options"]:
        raise IllegalAction("not_an_option", f"{option!r} is not one of the options of this "
                            f"{prompt['kind']} choice")
    turn.emit({"f": "prompt", "prompt": None})
    actor, variables, remaining = prompt["actor"], dict(prompt["vars"]), list(prompt["then"])
    resolve_choice(turn, actor, prompt["step"], prompt["seat"], option, variables, remaining)
    run_steps(turn, actor, remaining, variables)


ACTIONS = {
    "pick": act_pick,
    "play": act_play,
    "use": act_use,
    "convert": act_convert,
    "power": act_power,
    "end_turn": act_end_turn,
    "choose": act_choose,
}


# ---------------------------------------------------------------------------------------
# TURN SEQUENCE: Randomization (draw 1, gain 1 GP), X> effects, then Primary Action.
# ---------------------------------------------------------------------------------------

def start_turn(turn, seat):
    st = turn.state
    turn.emit({"f": "turn", "seat": seat, "number": st["turn"]["number"] + 1})
    steps = [{"op": "draw", "n": 1, "who": "me"}, {"op": "gain", "what": "genius", "n": 1, "who": "me"}]
    for instance in st["play"][seat]:  # "X> You must do this once on your turn"
        steps += CARDS[card_of(instance)].get("each_turn", [])
    run_steps(turn, seat, steps, {})


def next_turn(turn):
    """Pass the turn on, skipping players who are out or imprisoned; end on an empty deck."""
    st = turn.state
    seat = st["turn"]["seat"]
    while True:
        seat = (seat + 1) % st["seats"]
        if st["out"][seat]:
            continue
        if st["imprisoned"][seat] > 0:  # Imprisonment: "misses his next turn"
            turn.emit({"f": "imprisoned", "seat": seat, "delta": -1})
            turn.emit({"f": "skipped", "seat": seat})
            continue
        break
    if not st["deck"]:  # "...or the Deck is empty when a player starts his turn"
        turn.emit({"f": "over", "reason": "deck_empty"})
        return
    start_turn(turn, seat)


def settle(turn):
    """VICTORY: 50+ FP wins at once; 20+ TP puts a player out; 7 Sallies end the game."""
    st = turn.state
    if st["over"]:
        return
    if any(fame(st, s) >= FAME_TO_WIN for s in living(st)):
        turn.emit({"f": "over", "reason": "fame_50"})
        return
    going_out = [s for s in living(st) if trouble(st, s) >= TROUBLE_TO_LOSE]
    for s in going_out:
        turn.emit({"f": "out", "seat": s})
    if not living(st):  # everyone still in went out in the same step: they are ranked
        turn.emit({"f": "over", "reason": "last_standing", "ranked": going_out})
        return
    if len(living(st)) == 1:
        turn.emit({"f": "over", "reason": "last_standing"})
        return
    if any(sallies_for_game_end(st, s) >= SALLIES_TO_END for s in living(st)):
        turn.emit({"f": "over", "reason": "seven_sallies"})


# ---------------------------------------------------------------------------------------
# Steps: the vocabulary card effects are written in (cards.json).
# ---------------------------------------------------------------------------------------

def run_steps(turn, actor, steps, variables):
    st = turn.state
    queue = list(steps)
    while queue and not st["over"]:
        step = queue.pop(0)
        if step["op"] == "next_turn":
            next_turn(turn)
            return
        if step["op"] in ASKS and _settled_out(turn, queue):
            return  # a player who has lost makes no more choices (nor does anyone after a win)
        choice = STEPS[step["op"]](turn, actor, step, variables, queue)
        if choice is not None:
            chooser, kind, options = choice
            if len(options) == 1:  # a choice with one option is made for the player
                resolve_choice(turn, actor, step, chooser, options[0], variables, queue)
            elif options:
                turn.emit({"f": "prompt", "prompt": {
                    "seat": chooser, "kind": kind, "options": options, "actor": actor,
                    "step": step, "vars": variables, "then": queue}})
                return
        if _settled_out(turn, queue):
            return
    _settled_out(turn, queue)


def _settled_out(turn, queue) -> bool:
    """Act on the thresholds now; True when the game ended or the current player went out.

    A player who goes out on their own turn loses the rest of the effect and the next turn
    begins; only a shuffle owed to a deck search already shown still happens (README 12, 21).
    """
    st = turn.state
    settle(turn)
    if st["over"]:
        return True
    if not st["out"][st["turn"]["seat"]]:
        return False
    for step in queue:
        if step["op"] == "shuffle_deck":
            step_shuffle_deck(turn, None, step, {}, [])
    next_turn(turn)
    return True


def _who(turn, actor, step, variables) -> list[int]:
    who = step["who"]
    if who == "me":
        return [actor]
    if who == "target":
        return [variables["target"]]
    if who == "each_opponent":
        return opponents(turn.state, actor)
    return [who]


def _amount(step, variables) -> int:
    n = step["n"]
    if isinstance(n, str):  # "X" or "-X": the number of cards paid
        return -variables["X"] if n.startswith("-") else variables["X"]
    return n


def step_gain(turn, actor, step, variables, queue):
    for seat in _who(turn, actor, step, variables):
        turn.tokens(seat, step["what"], _amount(step, variables))


def step_draw(turn, actor, step, variables, queue):
    for seat in _who(turn, actor, step, variables):
        n = step["n"]
        if passive(turn.state, seat, "draw_extra_then_discard", False):
            # The Perfect Advisor: "When drawing cards draw 2 & discard 1".
            n += 1
            queue.insert(0, {"op": "discard_chosen", "n": 1, "who": seat})
        for _ in range(min(n, len(turn.state["deck"]))):
            turn.move(turn.state["deck"][-1], "deck", f"hand:{seat}")


def step_discard_random(turn, actor, step, variables, queue):
    for seat in _who(turn, actor, step, variables):
        hand = turn.state["hands"][seat]
        if hand and not (seat != actor and shielded(turn.state, seat)):
            turn.move(hand[turn.rng.randbelow(len(hand))], f"hand:{seat}", "discard")


def step_discard_chosen(turn, actor, step, variables, queue):
    seats = _who(turn, actor, step, variables)
    if len(seats) > 1:  # one prompt after another, in seat order
        queue[0:0] = [{**step, "who": s} for s in seats]
        return None
    seat = seats[0]
    st = turn.state
    if step["n"] <= 0 or st["out"][seat] or (seat != actor and shielded(st, seat)):
        return None
    if step["n"] > 1:
        queue.insert(0, {**step, "n": step["n"] - 1, "who": seat})
    return seat, "discard", sorted(st["hands"][seat])


def step_choose_opponent(turn, actor, step, variables, queue):
    st = turn.state
    options = card_losing_targets(st, actor) if step["purpose"] == "take_cards" else opponents(st, actor)
    return actor, "target_opponent", options


def step_choose_player(turn, actor, step, variables, queue):
    return actor, "target_player", living(turn.state)


def step_steal_chosen(turn, actor, step, variables, queue):
    # Spies: the thief sees the hand (the options) and takes one card.
    return actor, "steal", sorted(turn.state["hands"][variables["target"]])


def step_steal_random(turn, actor, step, variables, queue):
    hand = turn.state["hands"][variables["target"]]
    if hand:
        turn.move(hand[turn.rng.randbelow(len(hand))], f"hand:{variables['target']}", f"hand:{actor}")


def step_peek_hand(turn, actor, step, variables, queue):
    target = variables["target"]
    turn.emit({"f": "peek", "seat": actor, "zone": f"hand:{target}", "cards": sorted(turn.state["hands"][target])})


def step_peek_deck(turn, actor, step, variables, queue):
    turn.emit({"f": "peek", "seat": actor, "zone": "deck", "cards": turn.state["deck"][::-1][:step["n"]]})


def step_trade_hands(turn, actor, step, variables, queue):
    turn.emit({"f": "swap_hands", "seats": [actor, variables["target"]]})


def step_search_deck(turn, actor, step, variables, queue):
    deck = turn.state["deck"]
    options = sorted(i for i in deck if step["filter"] == "any" or is_sally(CARDS[card_of(i)]))
    # The searched deck is shuffled afterwards, so the search reveals no order.
    queue.insert(0, {"op": "shuffle_deck"})
    return actor, "search_deck", options


def step_shuffle_deck(turn, actor, step, variables, queue):
    turn.emit({"f": "shuffle", "order": turn.rng.shuffle(turn.state["deck"])})


def step_search_discard(turn, actor, step, variables, queue):
    return actor, "search_discard", sorted(set(turn.state["discard"]) - {variables.get("self")})


def step_choose_machine(turn, actor, step, variables, queue):
    return actor, "machine", machines_in_play(turn.state, actor, step["scope"])


def step_steal_machine_just_played(turn, actor, step, variables, queue):
    instance = machine_just_played(turn.state, actor)
    if instance:
        turn.move(instance, f"play:{owner_in_play(turn.state, instance)}", f"play:{actor}")


def step_discard_in_play(turn, actor, step, variables, queue):
    return actor, "discard_in_play", sorted(turn.state["play"][actor])


def step_draw_keep_if_sally(turn, actor, step, variables, queue):
    deck = turn.state["deck"]
    if not deck:
        return
    instance = deck[-1]
    turn.move(instance, "deck", f"hand:{actor}")
    if not is_sally(CARDS[card_of(instance)]):
        turn.move(instance, f"hand:{actor}", "discard")


def step_imprison(turn, actor, step, variables, queue):
    turn.emit({"f": "imprisoned", "seat": variables["target"], "delta": 1})


def step_fill_hands(turn, actor, step, variables, queue):
    # Council of War: "All players may fill their hands": each says yes or no, in turn order.
    st = turn.state
    order = [(actor + i) % st["seats"] for i in range(st["seats"])]
    queue[0:0] = [{"op": "offer_fill", "who": s, "to": step["to"]} for s in order if not st["out"][s]]


def step_offer_fill(turn, actor, step, variables, queue):
    seat = step["who"]
    if len(turn.state["hands"][seat]) >= step["to"] or not turn.state["deck"]:
        return None
    return seat, "fill_hand", ["no", "yes"]


STEPS = {
    "gain": step_gain,
    "draw": step_draw,
    "discard_random": step_discard_random,
    "discard_chosen": step_discard_chosen,
    "choose_opponent": step_choose_opponent,
    "choose_player": step_choose_player,
    "steal_chosen": step_steal_chosen,
    "steal_random": step_steal_random,
    "peek_hand": step_peek_hand,
    "peek_deck": step_peek_deck,
    "trade_hands": step_trade_hands,
    "search_deck": step_search_deck,
    "shuffle_deck": step_shuffle_deck,
    "search_discard": step_search_discard,
    "choose_machine": step_choose_machine,
    "steal_machine_just_played": step_steal_machine_just_played,
    "discard_in_play": step_discard_in_play,
    "draw_keep_if_sally": step_draw_keep_if_sally,
    "imprison": step_imprison,
    "fill_hands": step_fill_hands,
    "offer_fill": step_offer_fill,
}


# The steps that may ask for a choice: thresholds are acted on before each of them.
ASKS = {"discard_chosen", "choose_opponent", "choose_player", "steal_chosen", "search_deck",
        "search_discard", "choose_machine", "discard_in_play", "offer_fill"}


def resolve_choice(turn, actor, step, chooser, option, variables, queue):
    """Carry out the choice `chooser` made for `step`."""
    st = turn.state
    op = step["op"]
    if op in ("choose_opponent", "choose_player"):
        variables["target"] = option
    elif op == "discard_chosen":
        turn.move(option, f"hand:{chooser}", "discard")
    elif op == "steal_chosen":
        turn.move(option, f"hand:{variables['target']}", f"hand:{actor}")
    elif op == "search_deck":
        if step["to"] == "hand":
            turn.move(option, "deck", f"hand:{actor}")
        else:  # put into play: "A>" effects happen "when the card is put into play"
            turn.move(option, "deck", f"play:{actor}")
            queue[0:0] = CARDS[card_of(option)].get("on_play", [])
    elif op == "search_discard":
        turn.move(option, "discard", f"hand:{actor}")
    elif op == "choose_machine":
        owner = owner_in_play(st, option)
        turn.move(option, f"play:{owner}", "discard" if step["to"] == "discard" else f"hand:{owner}")
    elif op == "discard_in_play":
        turn.move(option, f"play:{actor}", "discard")
    elif op == "offer_fill":
        if option == "yes":
            need = step["to"] - len(st["hands"][chooser])
            queue.insert(0, {"op": "draw", "n": need, "who": chooser})
    else:
        raise ValueError(f"step {op!r} offers no choice")


# ---------------------------------------------------------------------------------------
# legal_actions: every action listed can be posted back as it is.
# ---------------------------------------------------------------------------------------

def legal_actions(state, seat):
    if seat not in to_act(state):
        return []
    if state["prompt"]:
        prompt = state["prompt"]
        return [{"type": "choose", "option": option} for option in prompt["options"]]
    if state["phase"] == "pick":
        return [{"type": "pick", "constructor": name} for name in CONSTRUCTORS]
    actions = []
    hand = state["hands"][seat]
    for instance in hand:
        actions += _play_actions(state, seat, instance)
    for instance in state["play"][seat]:
        if CARDS[card_of(instance)].get("ability") and not use_refusal(state, seat, instance):
            actions.append({"type": "use", "card": instance})
    if state["genius"][seat] >= GENIUS_PER_CONVERSION:
        actions += [{"type": "convert", "into": into} for into in CONVERSIONS if into != "draw" or state["deck"]]
    if not power_refusal(state, seat):
        actions.append({"type": "power"})
    actions.append({"type": "end_turn"})
    return actions


def _play_actions(state, seat, instance):
    card = CARDS[card_of(instance)]
    others = [i for i in state["hands"][seat] if i != instance]
    cost = cost_of(state, seat, card)
    if cost is None:  # X costs: one listing per X, paying with the first X other cards
        payments = [others[:x] for x in range(1, len(others) + 1)]
    else:
        payments = [_cheapest_payment(others, card["type"], cost)]
    # The listing pays one way; `params` describes every other payment that is accepted.
    pay_schema = {"type": "array", "uniqueItems": True, "items": {"enum": others}}
    if cost is None:
        pay_schema.update(minItems=1, description="X = the number of cards discarded")
    else:
        pay_schema.update(worth_at_least=cost, worth={i: worth(i, card["type"]) for i in others
                                                      if worth(i, card["type"]) > 1})
    listed = []
    for pay in payments:
        if pay is not None and not play_refusal(state, seat, instance, pay):
            listed.append({"type": "play", "card": instance, "pay": pay, "params": {"pay": pay_schema}})
    return listed


def _cheapest_payment(others, card_type, cost):
    """Fewest cards that cover the cost: high-worth cards first, then hand order."""
    ranked = sorted(others, key=lambda i: -worth(i, card_type))
    pay, total = [], 0
    for instance in ranked:
        if total >= cost:
            break
        pay.append(instance)
        total += worth(instance, card_type)
    return pay if total >= cost else None
