"""The map: who may stand where, distances by shortest legal route, lines of fire."""

from domain.kernel.memo import Memo

from .data import COLS, DIRECTIONS, MAP, ROWS
from .state import in_play


def terrain(pos):
    return MAP[pos[0]][pos[1]]


def on_map(pos):
    return 0 <= pos[0] < ROWS and 0 <= pos[1] < COLS


def _on_map_neighbours(pos):
    return tuple(nxt for nxt in ((pos[0] + dr, pos[1] + dc) for dr, dc in DIRECTIONS.values()) if on_map(nxt))


# Read once: the map never changes, and a search reads every square's neighbours thousands of
# times a decision (the breadth-first searches below were a third of a playout's time).
NEIGHBOURS = {(r, c): _on_map_neighbours((r, c)) for r in range(ROWS) for c in range(COLS)}
OPEN_GROUND = frozenset((r, c) for r in range(ROWS) for c in range(COLS) if MAP[r][c] in ".E")


def neighbours(pos):
    return NEIGHBOURS[(pos[0], pos[1])]


def manhattan(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def open_ground(pos):
    return (pos[0], pos[1]) in OPEN_GROUND


def unit_squares(state):
    return {tuple(p) for p in state["units"].values()}


def cyberman_squares(state, exclude=None):
    return {tuple(c["pos"]) for cid, c in state["cybermen"].items() if cid != exclude}


def group_squares(state):
    """Squares of the group counters still in play. A group whose members are all carried keeps
    its counter on the map: its captives rejoin it there if their Cyberman is destroyed, so no
    Cyberman, Unit or arrival may take that square meanwhile."""
    return {tuple(g["pos"]) for seat, g in enumerate(state["groups"]) if in_play(state, seat)}


def human_passable(state):
    """Humans cross open ground and other groups, never Cybermen or Cyberconversion Units."""
    return _human_free(human_blocked(state))


def human_blocked(state) -> frozenset:
    """The squares `human_passable(state)` refuses off the map's own obstacles."""
    return frozenset(cyberman_squares(state) | unit_squares(state))


def _human_free(blocked):
    return lambda pos: pos in OPEN_GROUND and pos not in blocked


# Each square's neighbours on open ground: a human's breadth-first search then asks of a
# neighbour only whether a figure blocks it (calling `_human_free`'s test for every neighbour
# was a third of that search's time, 59 against 39 us over the whole map, which every group
# move's choice reckons).
OPEN_NEIGHBOURS = {square: tuple(n for n in near if n in OPEN_GROUND) for square, near in NEIGHBOURS.items()}


def _human_distances(starts, blocked, limit=None) -> dict:
    """`distances(starts, _human_free(blocked), limit)`, in the same order."""
    return distances(starts, None, limit, OPEN_NEIGHBOURS, blocked)


def human_reach(start, blocked, limit) -> dict:
    """`distances([start], human_passable(state), limit)`, `blocked` being `human_blocked(state)`;
    not to be changed (it is kept). Kept by what it reads: the figures' squares within `limit`
    of the start (the greedy bot lists a group's moves, then the rules list them again to
    check its choice; the breadth-first search was a fifth of a group move's time)."""
    start = (start[0], start[1])
    key = (start, limit, blocked & _within(start, limit))
    found = _HUMAN_REACH.get(key)
    if found is None:
        found = _HUMAN_REACH.keep(key, _human_distances([start], blocked, limit))
    return found


def human_map(starts: tuple, blocked) -> dict:
    """`distances(starts, human_passable(state))` over the whole map, `blocked` being
    `human_blocked(state)`; not to be changed (it is kept, by the starts and the figures'
    squares: every playout that reaches a group's move with the Cybermen where another left
    them reads the same map)."""
    key = (starts, blocked)
    found = _HUMAN_MAPS.get(key)
    if found is None:
        found = _HUMAN_MAPS.keep(key, _human_distances(starts, blocked))
    return found


def human_toward(start, goals: tuple, blocked, steps) -> tuple:
    """`toward(start, goals, human_passable(state), steps, True)` (a Mind Controlled group's
    move), `blocked` being `human_blocked(state)`; `goals` are squares. Kept by what it reads:
    the bot lists the move and the rules list it again to check it, and each time reckoned the
    whole map twice (a fifth of a group move's time, choice and check)."""
    key = ((start[0], start[1]), goals, blocked, steps)
    found = _HUMAN_TOWARD.get(key)
    if found is None:
        found = _HUMAN_TOWARD.keep(key, tuple(toward(start, goals, _human_free(blocked), steps, True)))
    return found


_HUMAN_REACH: Memo = Memo(20_000)
_HUMAN_MAPS: Memo = Memo(2_000)  # each holds a distance per open square
_HUMAN_TOWARD: Memo = Memo(20_000)


class CybermanGround:
    """Where Cybermen may go in one state: open ground free of other figures; any number may
    share a Unit's square. The figures' squares are read once for every mover of a listing (a
    Cyberman phase lists every move of every Cyberman, and reading the squares again for each
    Cyberman was a fifth of a playout's time). A mover's own square is free to it unless
    another figure shares it."""

    def __init__(self, state):
        self.state = state
        self.units = unit_squares(state)
        self.groups = group_squares(state)
        held = self.held = {}  # Cybermen on each square (a plain dict: making a Counter cost more than counting)
        for cyberman in state["cybermen"].values():
            pos = cyberman["pos"]
            square = (pos[0], pos[1])
            held[square] = held.get(square, 0) + 1
        self.others = (held.keys() | self.groups) - self.units  # the figures' squares off the Units

    def passable(self, mover):
        """Whether Cyberman `mover` may cross a square."""
        own = tuple(self.state["cybermen"][mover]["pos"])
        units = self.units
        blocked = self.others - {own} if self.held[own] == 1 and own not in self.groups else self.others
        return lambda pos: pos in units or (pos in OPEN_GROUND and pos not in blocked)

    def moves(self, mover, speed):
        """The squares Cyberman `mover` reaches in up to `speed` squares (its own among them),
        sorted: `sorted(distances([its square], self.passable(mover), limit=speed))`.

        Kept by what it depends on: the search lists the same Cyberman's moves again after
        every other Cyberman's move, and nearly always finds the same figures around it (98 % of
        a decision's lists; their breadth-first searches were a tenth of its time). Within
        `speed` squares of the start (every square the search asks about) that is the Units'
        squares and the other figures'; its own square is never asked about, and the map
        (OPEN_GROUND) never changes."""
        pos = self.state["cybermen"][mover]["pos"]
        start = (pos[0], pos[1])
        near = _within(start, speed)
        key = (start, speed, near & self.others, near & self.units)
        found = _MOVES.get(key)
        if found is None:
            found = _MOVES.keep(key, tuple(sorted(distances([start], self.passable(mover), limit=speed))))
        return list(found)


_MOVES: Memo = Memo(100_000)
_WITHIN: dict[tuple, frozenset] = {}


def _within(start, steps) -> frozenset:
    """The squares at most `steps` squares from `start` (Manhattan distance, on the map or off)."""
    near = _WITHIN.get((start, steps))
    if near is None:
        near = _WITHIN[start, steps] = frozenset((start[0] + dr, start[1] + dc) for dr in range(-steps, steps + 1)
                                                  for dc in range(abs(dr) - steps, steps - abs(dr) + 1))
    return near


def distances(starts, passable, limit=None, neighbours=NEIGHBOURS, barred=None):
    """Breadth-first distances from `starts` over squares that are passable: those `passable`
    accepts, or (with `barred`) the squares of the `neighbours` table not in `barred`."""
    dist = {tuple(s): 0 for s in starts}
    # Ring by ring (the order a queue would reach them in): a playout runs this breadth-first
    # search a hundred thousand times a decision, and a ring needs no distance read back.
    ring, steps = list(dist), 0
    while ring and (limit is None or steps < limit):
        steps += 1
        next_ring = []
        for here in ring:
            for nxt in neighbours[here]:
                if nxt not in dist and (nxt not in barred if barred is not None else passable(nxt)):
                    dist[nxt] = steps
                    next_ring.append(nxt)
        ring = next_ring
    return dist


def toward(start, goals, passable, steps, stop_short):
    """Squares reached by moving `steps` squares along a shortest legal route toward the nearest
    goal (stop_short: the goal itself cannot be entered, so stop next to it). Empty when no
    goal can be reached."""
    start = tuple(start)
    to_goal = distances(goals, lambda p: p == start or passable(p))
    if start not in to_goal:
        return []
    far = to_goal[start] - (1 if stop_short else 0)
    walk = min(steps, far)
    if walk <= 0:
        return [start]
    from_start = distances([start], passable, limit=walk)
    return sorted(p for p, d in from_start.items() if d == walk and to_goal.get(p) == to_goal[start] - walk)


def fire_stops(state):
    """The figures' squares a line of fire cannot pass: the Cybermen's and the Units'."""
    return cyberman_squares(state) | unit_squares(state)


def line_of_fire(state, pos, facing, reach, stops=None):
    """The squares an attack straight ahead reaches: it stops at a hedge or building and cannot
    pass through another Cyberman or a Cyberconversion Unit (`stops`: `fire_stops(state)`, when
    read already)."""
    stops = fire_stops(state) if stops is None else stops
    squares = []
    for here in open_ray(pos, facing, reach):
        if here in stops:
            break
        squares.append(here)
    return squares


# {(terrain, row, column, facing, reach): the squares ahead}. The abilities phase looks down
# the same lines again at every step of every playout. Kept by the terrain function as well:
# two tests open the whole map by replacing it.
_RAYS: Memo = Memo(10_000)  # each map and reach holds four rays a square


def open_ray(pos, facing, reach) -> tuple:
    """The squares straight ahead of `pos`, up to `reach`, before the map's edge or the first
    hedge or building (what the figures on the map do not change)."""
    key = (terrain, pos[0], pos[1], facing, reach)
    ray = _RAYS.get(key)
    if ray is None:
        dr, dc = DIRECTIONS[facing]
        squares, here = [], (pos[0], pos[1])
        for _ in range(reach):
            here = (here[0] + dr, here[1] + dc)
            if not on_map(here) or terrain(here) in "BH":
                break
            squares.append(here)
        ray = _RAYS.keep(key, tuple(squares))
    return ray
