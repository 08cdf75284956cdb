"""Cybermen (rules/cybermen.txt) on a designed host game: set-up, the facts and how they change
the state, whose move it is and the end. A turn: draw item cards, move the group (die roll),
move partial conversions, the Cyberman movement phase, the Cyberman special abilities phase.
The turn flow is in flow.py, the legal actions' listing in legal.py, decide and its checks in
actions.py, the expansion's effects in effects.py. Choices the rulebook leaves open are
numbered in README.md."""

from domain.kernel.decision import Decision
from domain.kernel.errors import InvalidSetup

from .actions import decide  # noqa: F401  (part of the ruleset)
from .data import CONST, DATA, ITEMS, MARKS
from .facts import evolve
from .flow import advance, start_turn
from .legal import legal_actions  # noqa: F401  (part of the ruleset)
from .state import to_act  # noqa: F401  (part of the ruleset)


def setup(options, seat_names, rng):
    if options:
        raise InvalidSetup(f"Cybermen takes no options, not {sorted(options)}")
    seats = len(seat_names)
    if not 2 <= seats <= len(DATA["groups"]):
        raise InvalidSetup(f"Cybermen is for 2 to {len(DATA['groups'])} players")
    groups = []
    for seat in range(seats):
        group = DATA["groups"][seat]
        groups.append({"name": group["name"], "members": [f"{seat}.{key}" for key, _, _ in group["characters"]],
                       "pos": list(DATA["start_squares"][seat]), "escaped": [], "converted": [], "lost": [], "tried": [],
                       "fatigue": CONST["tokens"], "escape": CONST["tokens"], "stunned": False, "injured": 0,
                       "mind": False, "hand": [], "status": "human", "vp": 0})
    units = {f"u{i + 1}": list(pos) for i, pos in enumerate(DATA["units"])}
    state = {
        "seats": seats, "round": 1, "turn": 0, "phase": "start", "roll": None, "count": None, "used": 0,
        "moved": [], "queue": [], "active": None, "prompt": None,
        "tech": 1, "supply": {str(m): CONST["supply_per_mark"] for m in MARKS},
        "groups": groups, "cybermen": {}, "units": units, "next_id": len(units) + 1,
        "deck": sorted(card for card, n in ITEMS.items() for _ in range(n)), "discard": [],
        "leader": None, "lieutenants": [], "over": None, "winners": None,
    }
    for start in DATA["start_cybermen"][:2 + seats // 3]:
        evolve(state, {"f": "spawn", "id": f"c{state['next_id']}", "pos": start["pos"], "facing": start["facing"],
                       "mark": 1, "role": "normal", "seat": None, "origin": None})
    d = Decision(state, rng, evolve)  # the first turn's draw needs no fact: set-up is not logged
    start_turn(d, 0, 1)
    advance(d)
    return d.state


def outcome(state):
    """Winners and figures; an out player ('out of the game') keeps its points on record but wins nothing."""
    if not state["over"]:
        return None
    return {"reason": state["over"], "winners": state["winners"], "rounds": state["round"],
            "victory_points": [g["vp"] for g in state["groups"]], "mark": MARKS[state["tech"]]["name"],
            "cyberleader": state["leader"], "escaped": [len(g["escaped"]) for g in state["groups"]],
            "converted": [len(g["converted"]) for g in state["groups"]]}
