"""Cyberiad, after rules/cyberiad.txt: set-up, the turn sequence, the actions, victory.

Three modules tell the game: this one (the rulebook's order: SETUP, TURN SEQUENCE, the
phases, VICTORY / GAME END, and the Ruleset's functions but the listing of legal actions, which
is legal.py's), effects.py (the CARD LIST: the steps card notes are written in) and board.py
(points and targets counted from the state).

State is plain JSON. Every change is a fact applied by `evolve`; `decide` validates an
action and returns the facts it causes, working on a scratch copy so the caller's state
is never touched. Card effects are data (cards.json): short lists of steps such as
`gain`, `draw` or `choose_opponent`. A step that needs a choice puts a prompt in the
state, holding the steps still to run; the `choose` action answers it. Every choice this
file makes where the rulebook is silent is listed in README.md.
"""

from .board import (cost_of, fame, first_unmet, hand_limit, living, play_area, puts_into_play, sallies,
                    sallies_for_game_end, trouble, worth)
from .cards import CARDS, CONSTRUCTORS, card_for
from .effects import ASKS, STEPS, put_into_play, resolve_choice, step_shuffle_deck

from domain.kernel.decision import Decision
from domain.kernel.errors import IllegalAction, InvalidSetup

# VICTORY / GAME END
FAME_TO_WIN = 50
TROUBLE_TO_LOSE = 20
SALLIES_TO_END = 7
# SETUP / TERMINAL PHASE / PRIMARY ACTION PHASE
OPENING_HAND = 5
GENIUS_PER_CONVERSION = 5
CONVERSIONS = ("fame", "draw", "remove_trouble")

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
    where = _SEAT_ZONES.get(name)
    if where is None:  # parsed once a name: every card moved names two zones
        kind, seat = name.split(":")
        where = _SEAT_ZONES[name] = ("hands" if kind == "hand" else "play", int(seat))
    return state[where[0]][where[1]]


_SEAT_ZONES: dict[str, tuple[str, int]] = {}  # "hand:1" -> ("hands", 1): a few names a seat


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

def _seats_from_first(state):
    """Seats in turn order from the first player, leaving out players who are out (who left)."""
    n = state["seats"]
    return [seat for seat in ((state["first"] + i) % n for i in range(n)) if not state["out"][seat]]


def _next_picker(state):
    for seat in _seats_from_first(state):
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
        self.settled_at = None  # len(self.facts) when the thresholds were last checked and play went on

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
    if not state["over"] and seat not in to_act(state):  # the rules refuse it themselves, not only Match.act
        raise IllegalAction("not_your_turn", f"seat {seat} is not to act; {sorted(to_act(state))} is")
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
        start_turn(turn, first_turn_seat(st))


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
    card = card_for(instance)
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
        put_into_play(turn, seat, instance, hand)
    run_steps(turn, seat, card.get("on_play", []), {"X": x, "self": instance})


def play_refusal(st, seat, instance, pay) -> tuple[str, str] | None:
    """Why `seat` may not play `instance` paying with `pay`, as (rule code, message)."""
    return card_refusal(st, seat, instance) or payment_refusal(st, seat, instance, pay)


def card_refusal(st, seat, instance) -> tuple[str, str] | None:
    """Why `seat` may not play `instance` however it pays (the checks before the payment's)."""
    if instance not in st["hands"][seat]:
        return "card_not_in_hand", f"{instance!r} is not in your hand"
    card = card_for(instance)
    if card["type"] != "action" or card["id"] in PUTTING_INTO_PLAY:  # Electroknight's Sally is the turn's one card
        if st["turn"]["played"]:
            return "one_card_per_turn", "you already put a Sally, Machine or Effect into play this turn"
        if card["type"] == "effect":
            effects = sum(1 for i in st["play"][seat] if card_for(i)["type"] == "effect")
            others = sum(1 for i in st["play"][seat] if card_for(i)["type"] in ("sally", "machine"))
            if effects + 1 > others:
                return "effect_limit", "you cannot have more Effect cards in play than Sally or Machine cards"
    unmet = first_unmet(st, seat, card.get("requires", []))
    if unmet:
        return "requirement", f"{card['name']} cannot be played: {unmet}"
    return None


# The Actions that put a card into play (board.puts_into_play), found once: every play listed
# or tried asks whether its card is one.
PUTTING_INTO_PLAY = frozenset(card["id"] for card in CARDS.values() if puts_into_play(card))


def payment_refusal(st, seat, instance, pay) -> tuple[str, str] | None:
    """Why paying with `pay` does not play `instance`, once `card_refusal` has none."""
    card = card_for(instance)
    if len(set(pay)) != len(pay) or instance in pay or not all(p in st["hands"][seat] for p in pay):
        return "bad_payment", "pay with distinct cards from your hand, other than the card you play"
    cost = cost_of(st, seat, card)
    if cost is None:
        if not pay:
            return "bad_payment", f"{card['name']} costs X: discard at least one card (X = cards discarded)"
    else:
        worths = [worth(p, card["type"]) for p in pay]
        if sum(worths) < cost:
            return "insufficient_payment", f"{card['name']} costs {cost} card(s); the cards offered are worth " \
                                           f"{sum(worths)}"
        # "discard a number of Cards equal to the cost": no card beyond what the cost needs (a
        # card worth more than the rest of the cost still pays it: a card is not split)
        if worths and sum(worths) - min(worths) >= cost:
            return "overpayment", f"{card['name']} costs {cost} card(s): the cards offered are worth " \
                                  f"{sum(worths)}, and the cost is paid without one of them"
    return None


# "Y> You may do this once on your turn"; "Z> as many times as you want on your turn".
# A Constructor's power is an ability too: once a turn.
def act_use(turn, seat, action):
    _expect_phase(turn.state, "play")
    instance = _field(action, "card", str)
    reason = use_refusal(turn.state, seat, instance)
    if reason:
        raise IllegalAction(*reason)
    _activate(turn, seat, card_for(instance)["ability"], instance)


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
    card = card_for(instance)
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

def first_turn_seat(state):
    """The first player opens play; if they left during the picks, the next player still in."""
    return _seats_from_first(state)[0]


def start_turn(turn, seat):
    st = turn.state
    turn.emit({"f": "turn", "seat": seat, "number": st["turn"]["number"] + 1})
    steps = [{"op": "draw", "n": 1, "who": "me"}, {"op": "gain", "what": "genius", "n": 1, "who": "me"}]
    for instance in st["play"][seat]:  # "X> You must do this once on your turn"
        steps += card_for(instance).get("each_turn", [])
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
    # One pass over the players still in, each play area's counts read once: this runs after
    # every step of every simulated action (no fact below moves a card). A win on Fame is
    # found before anyone is put out, as the rulebook's order asks.
    out, fame_tokens, trouble_tokens = st["out"], st["fame"], st["trouble"]
    going_out, staying, seven_sallies = [], 0, False
    for s in range(st["seats"]):
        if out[s]:
            continue
        area = play_area(st, s)
        if fame_tokens[s] + area.fame >= FAME_TO_WIN:  # fame(st, s)
            turn.emit({"f": "over", "reason": "fame_50"})
            return
        if trouble_tokens[s] + area.trouble >= TROUBLE_TO_LOSE:  # trouble(st, s)
            going_out.append(s)
        else:
            staying += 1
            seven_sallies = seven_sallies or area.sallies_for_game_end >= SALLIES_TO_END
    for s in going_out:
        turn.emit({"f": "out", "seat": s})
    if not staying:  # everyone still in went out in the same step: they are ranked
        turn.emit({"f": "over", "reason": "last_standing", "ranked": going_out})
        return
    if staying == 1:
        turn.emit({"f": "over", "reason": "last_standing"})
        return
    if seven_sallies:  # sallies_for_game_end(st, s) of a player still in
        turn.emit({"f": "over", "reason": "seven_sallies"})


# ---------------------------------------------------------------------------------------
# Running the steps of an effect (effects.py), acting on thresholds between them.
# ---------------------------------------------------------------------------------------

# Choices whose options are drawn from a hidden zone: always asked, even with one option, so
# that the public prompt does not tell how many matching cards the deck holds (README 8).
HIDDEN_COUNT_CHOICES = {"search_deck"}


def run_steps(turn, actor, steps, variables):
    st = turn.state
    queue = list(steps)
    while queue and not st["over"]:
        step = queue.pop(0)
        op = step["op"]
        if op == "next_turn":
            next_turn(turn)
            return
        if op in ASKS and _settled_out(turn, queue):
            return  # a player who has lost makes no more choices (nor does anyone after a win)
        choice = STEPS[op](turn, actor, step, variables, queue)
        if choice is not None:
            chooser, kind, options = choice
            if len(options) == 1 and kind not in HIDDEN_COUNT_CHOICES:  # one option: made for the player
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
    # Every change is a fact: with none since the last check that found play going on, this
    # one would find the same (checked after every step and before every choice, it was a
    # fifth of a search's time).
    if turn.settled_at == len(turn.facts):
        return False
    settle(turn)
    if st["over"]:
        return True
    if not st["out"][st["turn"]["seat"]]:
        turn.settled_at = len(turn.facts)
        return False
    for step in queue:
        if step["op"] == "shuffle_deck":
            step_shuffle_deck(turn, None, step, {}, [])
    next_turn(turn)
    return True
