"""Building positions for rule tests: a fresh match, figures placed by hand, dice scripted."""

from domain.games.cybermen import RULESET
from domain.kernel.rng import RandomStream

PARKING = [[11, 1], [11, 2], [11, 3], [11, 4], [11, 6], [11, 8]]


class Dice:
    """A random stream whose six-sided rolls are scripted (1-6); any other draw takes index 0."""

    def __init__(self, *rolls):
        self.rolls = list(rolls)

    def randbelow(self, n):
        if n == 6 and self.rolls:
            return self.rolls.pop(0) - 1
        return 0


def fresh(seats=3):
    return RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(b"k" * 32, "m", 1))


def place(state, groups=None, cybermen=(), turn=0, phase="cyber_move", tech=1):
    """Clear the map of Cybermen, put groups where asked (the rest parked in the bottom row),
    add the given Cybermen and stand at the start of `phase` of seat `turn`'s turn."""
    state["cybermen"] = {}
    state["deck"] = sorted(state["deck"] + [c for g in state["groups"] for c in g["hand"]])
    for seat, group in enumerate(state["groups"]):
        group["pos"] = list((groups or {}).get(seat, PARKING[seat]))
        group["hand"] = []
    for spec in cybermen:
        cid = spec["id"]
        state["cybermen"][cid] = {"pos": list(spec["pos"]), "facing": spec.get("facing", "N"),
                                  "mark": spec.get("mark", tech), "role": spec.get("role", "normal"),
                                  "seat": spec.get("seat"), "origin": None, "carrying": list(spec.get("carrying", []))}
    state.update(turn=turn, phase=phase, tech=tech, roll=None, count=None, used=0, moved=[], queue=[], active=None,
                 prompt=None, next_id=100)
    return state


def give(state, seat, *cards):
    for card in cards:
        state["deck"].remove(card)
        state["groups"][seat]["hand"].append(card)


def act(state, seat, action, *rolls):
    facts = RULESET.decide(state, seat, action, Dice(*rolls))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    return state, facts


def refused(state, seat, action):
    from domain.kernel.errors import IllegalAction
    try:
        RULESET.decide(state, seat, action, Dice())
    except IllegalAction as error:
        return error.code
    raise AssertionError(f"{action} was accepted")


def with_cyberleader(state, mark):
    """Seat 1 has become the Cyberleader: its group gone, its figure (Mark `mark`) at (0, 0)."""
    state["leader"] = 1
    state["groups"][1].update(status="leader", members=[])
    state["cybermen"]["c9"] = {"pos": [0, 0], "facing": "N", "mark": mark, "role": "leader", "seat": 1,
                               "origin": None, "carrying": []}
    return state


def with_lieutenants(state, seats=(2, 3)):
    """These seats' players have become Cyberlieutenants, oldest first (each converted one of its
    group); their figures are placed by the caller."""
    state["lieutenants"] = list(seats)
    for seat in seats:
        state["groups"][seat].update(status="lieutenant", members=[], converted=[f"{seat}.x"])
    return state
