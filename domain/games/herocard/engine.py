"""The HeroCard dueling engine: pure functions over a duel sub-state, shared by the standalone
`herocard` game and by hosts such as Cyberspace (rulebook: "HeroCard Dueling Rules").

API (everything is plain JSON; nothing here mutates its inputs except `evolve`):

- `config(**overrides) -> dict` — what differs between hosts:
    `attribute_names` ({"body", "mind", "x"} -> shown name; Cyberspace: x = "Gene X"),
    `victory_points` (goal per side, or None: the host counts successful attacks itself and
    reads `duel["last_result"]`), `secret_cost` (None: a deployed Secret Card expends its own
    cost; 4 in Cyberspace), `teams` (seats s and s+2 are partners), `assistance` (3-4 players:
    others assist the losing side), `fair_start`, `discard_queue`, `host_turns` (True: the host
    owns the turn, so an all-pass outside an Attack Sequence hands priority back to the active
    player instead of ending the turn), `turn_limit` (a designed safety end; None for none).
- `new_duel(config, heroes, first, rng, decks=None) -> duel` — shuffles each Action Deck, deals seven
  cards, and starts `first`'s turn (its Discard Phase).
- `legal_actions(duel, seat) -> [action]`, `to_act(duel) -> set[seat]`.
- `decide(duel, seat, action, rng, defenders=None) -> [fact]` — raises IllegalAction(code
  naming the rule); a host may name the seats defending against the Base Attack it plays.
- `evolve(duel, fact) -> duel` — every fact's "f" starts with "hc."; a host routes those here.
- `start_turn(duel, seat, rng) -> [fact]` — for hosts that run their own turn order.
- `attack_values(duel) -> (attack, block)` of the open Attack Sequence.
- `view(duel, seat)`, `redact(fact, seat)`, `redact_action(action, actor, seat)` — hidden
  information: hands, deck order and face-down Secret Cards (their expended points show).
- `duel["last_result"]`: {"owner", "target", "attack", "block", "success"} of the last
  resolved Attack Sequence; `duel["over"]`/`duel["winners"]` once a side reaches the goal.

Actions: discard {cards}, draw {count}, clear {stacks}, refresh, play {cards, target?,
attribute?, uid?}, deploy {card, attribute}, reveal {uid, target?, attribute?}, pass,
choose {cards} (a forced discard), prefer {preference} (a Teams partner's stated preference).
"""

from types import SimpleNamespace

import orjson

from domain.kernel.decision import Decision, advance as advance_in_place
from domain.kernel.errors import IllegalAction
from domain.kernel.memo import Memo

from . import listing, plays, takeback
from .hidden import redact, redact_action, view  # noqa: F401  (the API)
from .plays import HAND_LIMIT, attack_values, clear_top, draw, free_points, opponents, side_seats  # noqa: F401  (the API)
from .cards import ATTRIBUTES, HEROES, deck_list
from .trial import trial_copy

DRAW_LIMIT, CLEAR_LIMIT = 3, 3  # "Draw up to three cards"; "Remove up to three cards"

DEFAULTS = {
    "attribute_names": {"body": "Body", "mind": "Mind", "x": "Attribute X"},
    "victory_points": 3, "secret_cost": None, "teams": False, "assistance": False,
    "fair_start": False, "discard_queue": False, "host_turns": False, "turn_limit": 400,
}


def config(**overrides):
    unknown = set(overrides) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown duel settings {sorted(unknown)}")
    return {**DEFAULTS, **overrides}


# ---------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------

def new_duel(cfg, heroes, first, rng, decks=None):
    """`decks` (a host's own Action Decks, one list of card ids per seat) defaults to each
    Hero's deck."""
    players = []
    for index, hero_id in enumerate(heroes):
        deck = rng.shuffle(list(decks[index]) if decks is not None else deck_list(hero_id))
        players.append({
            "hero": hero_id, "scores": {a: HEROES[hero_id]["attributes"][a]["score"] for a in ATTRIBUTES},
            "deck": deck[HAND_LIMIT:], "hand": deck[:HAND_LIMIT], "discard": [],
            "stacks": {a: [] for a in ATTRIBUTES}, "twisted": [], "vp": 0, "vp_turn": None,
            "skip_turns": 0, "preference": None,
        })
    duel = {"config": cfg, "seats": len(heroes), "players": players, "first": first,
            "turn": {"number": 0, "active": first, "phase": "discard", "exclusives": 0, "allowance": 0,
                     "acted": False, "forfeit": []},
            "priority": None, "passes": 0, "sequence": None, "pending": None, "duplicates": [],
            "assist": {}, "next_uid": 1, "last_result": None, "results": 0, "over": None, "winners": []}
    turn = Decision(duel, rng, evolve)
    begin_turn(turn, first)
    return turn.state


# ---------------------------------------------------------------------------------------
# evolve: one fact at a time, no checks, no randomness
# ---------------------------------------------------------------------------------------

def evolve(duel, fact):
    kind = fact["f"]
    players = duel["players"]
    if kind == "hc.turn":
        duel["turn"] = {"number": fact["number"], "active": fact["active"], "phase": "discard", "exclusives": 0,
                        "allowance": 0, "acted": False, "forfeit": []}
        duel.update(priority=None, passes=0, assist={})
        for player in players:
            player["preference"] = None
    elif kind == "hc.skip":
        players[fact["seat"]]["skip_turns"] -= 1
    elif kind == "hc.phase":
        duel["turn"]["phase"] = fact["phase"]
        if fact["phase"] == "action":
            duel.update(priority=duel["turn"]["active"], passes=0)
    elif kind == "hc.discard":
        hand = players[fact["seat"]]["hand"]
        for card in fact["cards"]:
            hand.remove(card)
        players[fact["seat"]]["discard"].extend(fact["cards"])
        takeback.note(duel, fact)
    elif kind in takeback.FACTS:
        takeback.evolve(duel, fact)
    elif kind == "hc.reshuffle":
        players[fact["seat"]].update(deck=list(fact["order"]), discard=[])
    elif kind == "hc.draw":
        player = players[fact["seat"]]
        del player["deck"][:len(fact["cards"])]
        player["hand"].extend(fact["cards"])
        takeback.note(duel, fact)
    elif kind == "hc.clear":
        player = players[fact["seat"]]
        takeback.note(duel, fact)  # before the card leaves its stack: where it stood
        entry = player["stacks"][fact["attribute"]].pop()
        player["discard"].append(fact.get("card") or entry["card"])
        _forget_active(duel, entry["uid"])
    elif kind == "hc.unwind":
        for player in players:
            player["twisted"] = [t for t in player["twisted"] if t["by"] != fact["by"]]
    elif kind == "hc.place":
        player = players[fact["seat"]]
        if fact["from"] == "hand":
            player["hand"].remove(fact["card"])
        player["stacks"][fact["attribute"]].append(
            {"uid": fact["uid"], "card": fact["card"], "face": fact["face"], "cost": fact["cost"], "turn": fact["turn"]})
        duel["next_uid"] = fact["uid"] + 1
    elif kind == "hc.reveal":  # a new entry, not the old one changed: a trial copy shares entries (trial.py)
        stack = players[fact["seat"]]["stacks"][fact["attribute"]]
        for index, entry in enumerate(stack):
            if entry["uid"] == fact["uid"]:
                stack[index] = {**entry, "face": "up", "card": fact["card"], "dud": fact["dud"]}
    elif kind == "hc.open":
        duel["sequence"] = {"owner": fact["owner"], "target": fact["target"], "attack": fact["attack"],
                            "block": fact["block"], "played": [], "duplicate": fact["duplicate"],
                            "defenders": fact.get("defenders", [fact["target"]])}
        duel["assist"] = {}
    elif kind == "hc.active":
        duel["sequence"]["played"].append(dict(fact["entry"]))
    elif kind == "hc.exclusive":
        duel["turn"]["exclusives"] += fact["delta"]
    elif kind == "hc.allowance":
        duel["turn"]["allowance"] += fact["delta"]
    elif kind == "hc.acted":
        duel["turn"]["acted"] = True
    elif kind == "hc.twist":
        players[fact["seat"]]["twisted"].append({"attribute": fact["attribute"], "by": fact["by"], "uid": fact["uid"]})
    elif kind == "hc.untwist":
        for player in players:
            player["twisted"] = [t for t in player["twisted"] if t["uid"] != fact["uid"]]
    elif kind == "hc.purge":
        entry = duel["sequence"]["played"].pop()
        if fact["to_discard"]:
            player = players[entry["seat"]]
            stack_entry = player["stacks"][fact["attribute"]].pop()
            player["discard"].append(stack_entry["card"])
    elif kind == "hc.queue_duplicate":
        duel["duplicates"].append(dict(fact["duplicate"]))
    elif kind == "hc.unqueue_duplicate":
        duel["duplicates"] = [d for d in duel["duplicates"] if d["source"] != fact["source"]]
    elif kind == "hc.next_duplicate":
        duel["duplicates"].pop(0)
    elif kind == "hc.cancel":
        duel.update(sequence=None, assist={})
    elif kind == "hc.resolved":
        duel["last_result"] = {k: fact[k] for k in ("owner", "target", "attack", "block", "success")}
        duel["results"] += 1
        if fact["vp"]:
            players[fact["owner"]]["vp"] += 1
            players[fact["owner"]]["vp_turn"] = duel["turn"]["number"]
        duel.update(sequence=None, assist={})
    elif kind == "hc.priority":
        duel.update(priority=fact["seat"], passes=fact["passes"])
    elif kind == "hc.pending":
        duel["pending"] = fact["pending"]
    elif kind == "hc.commit":
        duel["assist"][str(fact["seat"])] = fact["side"]
    elif kind == "hc.penalty":
        players[fact["seat"]]["skip_turns"] += 1
        if fact["forfeit"]:
            duel["turn"]["forfeit"].append(fact["seat"])
    elif kind == "hc.prefer":
        players[fact["seat"]]["preference"] = fact["preference"]
    elif kind == "hc.over":
        duel.update(over=fact["reason"], winners=fact["winners"], priority=None, pending=None)
        duel["turn"]["phase"] = "over"
    else:
        raise ValueError(f"unknown duel fact {kind!r}")
    return duel


def _forget_active(duel, uid):
    """Glossary, Clear: clearing a card that affects the current attack or block value cancels it."""
    if duel["sequence"]:
        duel["sequence"]["played"] = [e for e in duel["sequence"]["played"] if e.get("uid") != uid]


# ---------------------------------------------------------------------------------------
# Whose move
# ---------------------------------------------------------------------------------------

def to_act(duel):
    if duel["over"]:
        return set()
    if duel["pending"]:
        return {duel["pending"]["seat"]}
    if duel["turn"]["phase"] == "action":
        return {duel["priority"]}
    return {duel["turn"]["active"]}


def participants(duel):
    """Who takes part in the current round of responses, in turn order from the active player.

    In an Attack Sequence: the attacking and blocking sides, plus with Assistance everyone.
    Outside one: every player ("Fast: ... on any player's Action Phase")."""
    sequence = duel["sequence"]
    everyone = [(duel["turn"]["active"] + i) % duel["seats"] for i in range(duel["seats"])]
    if sequence is None or duel["config"]["assistance"]:
        return everyone
    return [s for s in everyone if s in sequence["attack"] or s in sequence["block"]]


# ---------------------------------------------------------------------------------------
# decide
# ---------------------------------------------------------------------------------------

class Turn(Decision):
    def __init__(self, duel, rng):
        super().__init__(duel, rng, evolve)


ACTIONS = ("discard", "draw", "clear", "refresh", "play", "deploy", "reveal", "pass", "choose", "prefer")


def decide(duel, seat, action, rng, defenders=None):
    """`defenders` (hosts only): the seats defending against a Base Attack played by this
    action, instead of the action's `target` and its side (see plays.play_card)."""
    if not isinstance(action, dict) or action.get("type") not in ACTIONS:
        raise IllegalAction("unknown_action", f"a HeroCard action is an object whose type is one of {list(ACTIONS)}")
    turn = Turn(duel, rng)
    turn.defenders = None if defenders is None else list(defenders)
    st = turn.state
    if st["over"]:
        raise IllegalAction("game_over", "the duel is over")
    kind = action["type"]
    if seat not in to_act(st):
        raise IllegalAction("not_your_move", f"it is seat {sorted(to_act(st))}'s move, not seat {seat}'s")
    if kind == "prefer":
        plays.act_prefer(turn, seat, action)
        return turn.facts
    if st["pending"]:
        if kind != "choose" or seat != st["pending"]["seat"]:
            raise IllegalAction("choice_pending", f"seat {st['pending']['seat']} must first choose the cards to discard")
        source = st["pending"]["source"]
        plays.act_choose(turn, seat, action)
        _after_play(turn, source)
        return turn.facts
    phase = st["turn"]["phase"]
    if kind in ("discard", "draw", "clear"):
        if phase != kind:
            raise IllegalAction("phase_order", f"the turn's phases go Discard, Draw, Clear, Action; this is the {phase} phase")
        {"discard": _act_discard, "draw": _act_draw, "clear": _act_clear}[kind](turn, seat, action)
        advance(turn)
        return turn.facts
    if phase != "action":
        raise IllegalAction("phase_order", f"cards are played in the Action Phase; this is the {phase} phase")
    if kind == "pass":
        _pass(turn, seat)
    elif seat in st["turn"]["forfeit"]:
        raise IllegalAction("secret_penalty", "a wrongly played Secret Card loses the remainder of this turn: only pass")
    elif kind == "refresh":
        _act_refresh(turn, seat)
    else:
        {"play": plays.act_play, "deploy": plays.act_deploy, "reveal": plays.act_reveal,
         "choose": _no_choice}[kind](turn, seat, action)
        _after_play(turn, seat)
    return turn.facts


def _no_choice(turn, seat, action):
    raise IllegalAction("no_choice_pending", "there is no forced discard to choose")


def _cards_in_hand(player, cards):
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalAction("malformed_action", '"cards" is a list of card ids')
    hand = list(player["hand"])
    for card in cards:
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{card!r} is not in your hand")
        hand.remove(card)


def _act_discard(turn, seat, action):
    """Discard Phase: "Discard as many cards as you wish, placing them face up on your discard stack."
    With the Discard Queue, whose order matters, a card may be discarded one at a time
    (`{"card": id}`: the phase goes on) before `{"cards": [...]}` ends it."""
    if "card" in action:
        if not turn.state["config"]["discard_queue"]:
            raise IllegalAction("discard_queue_only", "one card at a time is the Discard Queue's way to order "
                                'the discard stack; discard {"cards": [...]} at once')
        if "cards" in action:
            raise IllegalAction("malformed_action", 'discard either one "card" or the "cards" that end the phase')
        _cards_in_hand(turn.state["players"][seat], [action["card"]])
        turn.emit({"f": "hc.discard", "seat": seat, "cards": [action["card"]]})
        return
    cards = action.get("cards", [])
    _cards_in_hand(turn.state["players"][seat], cards)
    if cards:
        turn.emit({"f": "hc.discard", "seat": seat, "cards": list(cards)})
    turn.emit({"f": "hc.phase", "phase": "draw"})


def draw_limit(player):
    return max(0, min(DRAW_LIMIT, HAND_LIMIT - len(player["hand"])))


def _act_draw(turn, seat, action):
    """Draw Phase: "Draw up to three cards ... Do not exceed seven cards in your hand." """
    count = action.get("count")
    limit = draw_limit(turn.state["players"][seat])
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= limit:
        raise IllegalAction("draw_limit", f"draw from 0 to {limit} cards: up to three, never above seven in hand")
    draw(turn, seat, count)
    turn.emit({"f": "hc.phase", "phase": "clear"})


def _act_clear(turn, seat, action):
    """Clear Phase: remove up to three cards, always the top card of a stack first."""
    stacks = action.get("stacks", [])
    if not isinstance(stacks, list) or len(stacks) > CLEAR_LIMIT or any(a not in ATTRIBUTES for a in stacks):
        raise IllegalAction("clear_limit", f"clear up to three cards, naming stacks among {list(ATTRIBUTES)}")
    sizes = {a: len(s) for a, s in turn.state["players"][seat]["stacks"].items()}
    for attribute in stacks:
        if sizes[attribute] == 0:
            raise IllegalAction("clear_empty_stack", f"your {attribute} Attribute Stack has no card left to clear")
        sizes[attribute] -= 1
    for attribute in stacks:
        clear_top(turn, seat, attribute)
    turn.emit({"f": "hc.phase", "phase": "action"})


def _act_refresh(turn, seat):
    """Refreshing your Hand: forego the Action Phase, discard the whole hand, draw as many."""
    st = turn.state
    if seat != st["turn"]["active"] or st["turn"]["acted"] or st["sequence"] or st["passes"]:
        raise IllegalAction("refresh_forgoes_action_phase",
                            "refreshing foregoes your whole Action Phase: only before you play anything on your own turn")
    hand = list(st["players"][seat]["hand"])
    if hand:
        turn.emit({"f": "hc.discard", "seat": seat, "cards": hand})
        draw(turn, seat, len(hand))
    end_turn(turn)


def _after_play(turn, seat):
    """Sets: "you must let your opponent respond before playing more cards"."""
    st = turn.state
    if st["over"] or st["pending"] or st["turn"]["phase"] != "action" or st["priority"] is None:
        return
    order = participants(st)
    turn.emit({"f": "hc.priority", "seat": _next_in(order, seat), "passes": 0})
    if seat in st["turn"]["forfeit"] and seat == st["turn"]["active"] and not st["sequence"]:
        end_turn(turn)  # the penalty took the remainder of the turn and nothing is left open


def _next_in(order, seat):
    if seat in order:
        return order[(order.index(seat) + 1) % len(order)]
    return order[0]


def _pass(turn, seat):
    st = turn.state
    if seat == st["turn"]["active"] and not st["turn"]["acted"]:
        turn.emit({"f": "hc.acted"})  # a pass is the active player's action: no refresh after it (README 7)
    order = participants(st)
    passes = st["passes"] + 1
    if passes < len(order):
        turn.emit({"f": "hc.priority", "seat": _next_in(order, seat), "passes": passes})
        return
    if st["sequence"]:
        resolve(turn)
    elif st["config"]["host_turns"]:
        turn.emit({"f": "hc.priority", "seat": st["turn"]["active"], "passes": 0})
    else:
        end_turn(turn)


def resolve(turn):
    """"If your total attack value is higher than your opponent's total block value, your attack
    succeeds"; a successful attack earns one Victory Point, and only one a turn."""
    st = turn.state
    sequence = st["sequence"]
    attack, block = attack_values(st)
    success = attack > block
    owner = sequence["owner"]
    goal = st["config"]["victory_points"]
    # A successful attack on yourself (or, in Teams, your side) earns no Victory Point.
    vp = bool(success and goal is not None and st["players"][owner]["vp_turn"] != st["turn"]["number"]
              and sequence["target"] not in side_seats(st, owner))
    turn.emit({"f": "hc.resolved", "owner": owner, "target": sequence["target"], "attack": attack, "block": block,
               "success": success, "vp": vp})
    if vp and sum(st["players"][s]["vp"] for s in side_seats(st, owner)) >= goal:
        turn.emit({"f": "hc.over", "reason": "victory_points", "winners": side_seats(st, owner)})
        return
    if st["duplicates"]:
        start_duplicate(turn)
    elif st["turn"]["active"] in st["turn"]["forfeit"]:
        end_turn(turn)  # a wrongly played Secret Card lost the remainder of the turn
    else:
        turn.emit({"f": "hc.priority", "seat": st["turn"]["active"], "passes": 0})


def start_duplicate(turn):
    """Duplicating a Base Attack: "The original Attack Sequence is resolved first, and then the
    duplicate Attack Sequence is resolved ... you are the owner of this attack"."""
    st = turn.state
    duplicate = st["duplicates"][0]
    turn.emit({"f": "hc.next_duplicate"})
    owner, target = duplicate["owner"], duplicate["target"]
    turn.emit({"f": "hc.open", "owner": owner, "target": target, "attack": side_seats(st, owner),
               "block": side_seats(st, target), "duplicate": True})
    turn.emit({"f": "hc.active", "entry": {"uid": None, "seat": owner, "card": duplicate["card"], "kind": "base_attack",
                                           "value": duplicate["value"], "variable": duplicate["variable"],
                                           "replay": False, "effects": {}}})
    turn.emit({"f": "hc.priority", "seat": _next_in(participants(st), owner), "passes": 0})


def end_turn(turn):
    st = turn.state
    limit = st["config"]["turn_limit"]
    if limit is not None and st["turn"]["number"] >= limit:
        turn.emit({"f": "hc.over", "reason": "turn_limit", "winners": []})
        return
    if st["config"]["host_turns"]:
        turn.emit({"f": "hc.phase", "phase": "ended"})
        return
    begin_turn(turn, (st["turn"]["active"] + 1) % st["seats"])  # "Play then proceeds to the left."


def begin_turn(turn, seat):
    """A new turn; a seat owing a skipped turn (a wrongly played Secret Card) loses it whole."""
    st = turn.state
    while True:
        turn.emit({"f": "hc.turn", "active": seat, "number": st["turn"]["number"] + 1})
        if st["players"][seat]["skip_turns"] <= 0:
            break
        turn.emit({"f": "hc.skip", "seat": seat})
        if not st["config"]["host_turns"]:
            seat = (seat + 1) % st["seats"]
        else:
            turn.emit({"f": "hc.phase", "phase": "ended"})
            return
    if st["config"]["fair_start"] and seat == st["first"] and st["turn"]["number"] == 1:
        turn.emit({"f": "hc.phase", "phase": "clear"})  # Fair Start: skip the first Discard and Draw
    advance(turn)


def start_turn(duel, seat, rng):
    """For hosts that own the turn order: the facts that begin `seat`'s duel turn."""
    turn = Turn(duel, rng)
    begin_turn(turn, seat)
    return turn.facts


def advance(turn):
    """Skip phases that offer no choice: Discard with an empty hand, Draw with nothing to draw
    or a full hand, Clear with empty stacks. Twists made by the active player unwind as its
    Clear Phase begins (uncleared cards "have no further effect on the game")."""
    st = turn.state
    seat = st["turn"]["active"]
    player = st["players"][seat]
    if st["turn"]["phase"] == "discard" and not player["hand"]:
        turn.emit({"f": "hc.phase", "phase": "draw"})
    if st["turn"]["phase"] == "draw" and (draw_limit(player) == 0 or not (player["deck"] or player["discard"])):
        turn.emit({"f": "hc.phase", "phase": "clear"})
    if st["turn"]["phase"] == "clear":
        if any(t["by"] == seat for p in st["players"] for t in p["twisted"]):
            turn.emit({"f": "hc.unwind", "by": seat})
        if not any(player["stacks"].values()):
            turn.emit({"f": "hc.phase", "phase": "action"})


# ---------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------

def legal_actions(duel, seat, accept=None):
    """The seat's legal actions. A candidate play is listed when `accept(action)` says so: by
    default a trial decide on `duel`; a caller that decides every play anyway on the seat's
    view of the duel (the greedy bot) passes its own, and the listing is the same (legality
    reads only what the seat sees: tests/kernel/test_search.py)."""
    if seat not in to_act(duel):
        return []
    actions = plays.preferences(duel, seat)
    if duel["pending"]:
        return listing.choices(duel, seat) + actions
    player = duel["players"][seat]
    phase = duel["turn"]["phase"]
    if phase == "discard":
        singles = [{"type": "discard", "card": card} for card in sorted(set(player["hand"]))] \
            if duel["config"]["discard_queue"] else []
        return [{"type": "discard", "cards": list(cards)} for cards in listing.sub_multisets(player["hand"])] + \
            singles + actions
    if phase == "draw":
        return [{"type": "draw", "count": n} for n in range(draw_limit(player), -1, -1)] + actions
    if phase == "clear":
        return [{"type": "clear", "stacks": stacks}
                for stacks in _clear_orders(player, ordered=duel["config"]["discard_queue"])] + actions
    if phase != "action":
        return actions
    actions = [{"type": "pass"}] + actions
    if seat in duel["turn"]["forfeit"]:
        return actions
    st = duel
    if seat == st["turn"]["active"] and not (st["turn"]["acted"] or st["sequence"] or st["passes"]):
        actions.append({"type": "refresh"})
    if accept is not None:
        return actions + [a for a in listing.candidates(duel, seat) if accept(a)]
    return actions + _accepted_plays(duel, seat)


def _accepted_plays(duel, seat):
    """The candidate plays a trial decide on `duel` accepts: a function of the duel alone, so
    remembered by its JSON (a host lists the same duel again and again: Cyberspace's stays as
    it is while a seat executes programs, in play and in a search's playouts). Each call gets
    a copy of its own."""
    duel_json = orjson.dumps(duel)
    found = _ACCEPTED.get((seat, duel_json))
    if found is None:
        found = _ACCEPTED.keep((seat, duel_json), orjson.dumps(
            [a for a in listing.candidates(duel, seat) if _accepted(duel, seat, a)]))
    return orjson.loads(found)


_ACCEPTED: Memo = Memo(2048)  # (seat, the duel's JSON) -> _accepted_plays' JSON (a few MB at most)


def _accepted(duel, seat, action):
    """A trial decide: on a trial copy given up to it (decision.advance), not a JSON copy."""
    try:
        precheck(duel, seat, action)
        advance_in_place(_THIS_GAME, trial_copy(duel), seat, action, _NO_RANDOMNESS)
    except IllegalAction:
        return False
    return True


def precheck(duel, seat, action, defenders=None):
    """Raises what `decide` raises of a play or a deployment before its first fact (most
    candidates a listing tries fall there: a block with no attack, an Exclusive card on
    another's turn, too few free points...), reading `duel` as it is, where `decide` first
    copies it. Passing promises nothing: `decide` checks the rest. (Outside the Action Phase,
    or with a forced discard pending, `decide` refuses earlier, for another rule.)"""
    kind = action.get("type")
    if kind == "play":
        plays.check_play(duel, seat, action, defenders)
    elif kind == "deploy":
        plays.check_deploy(duel, seat, action)


class _NoRandomness:
    """Trial decisions only check legality; a shuffle's order does not matter there."""

    @staticmethod
    def shuffle(items):
        return list(items)


_NO_RANDOMNESS = _NoRandomness()
# What `advance` needs of a game (as Cyberspace's lookahead hands it): the trial copy is decided in place.
_THIS_GAME = SimpleNamespace(decide=decide, evolve=evolve)


def _clear_orders(player, ordered=False):
    """Every distinct way to clear up to three top cards, as stack names: normalised (sorted),
    or with the Discard Queue, where the order cleared is the discard stack's order, every
    order (at most 3 + 9 + 27)."""
    orders = [[]]
    sizes = {a: len(s) for a, s in player["stacks"].items()}

    def extend(prefix, left):
        if len(prefix) == CLEAR_LIMIT:
            return
        for attribute in ATTRIBUTES:
            if left[attribute] and (ordered or not prefix or attribute >= prefix[-1]):
                orders.append(prefix + [attribute])
                extend(prefix + [attribute], {**left, attribute: left[attribute] - 1})
    extend([], sizes)
    return orders
