"""Bots for any seat: a random one and a greedy one. Both pick from `legal_actions`, so they
only ever play legal moves."""

from domain.kernel.memo import Memo

from .board import human_blocked, human_map, manhattan, neighbours
from .data import CONST, DATA, DIRECTIONS, SABOTAGE
from .effects import ability_hits
from .flow import ability_users
from .legal import FACINGS, allowance_moves, can_break_free, free_cyber_moves, legal_actions, listing

EXITS = tuple((r, c) for r, row in enumerate(DATA["map"]) for c, t in enumerate(row) if t == "E")


def random_bot(state, seat, rand):
    return rand.choice(legal_actions(state, seat))


def greedy_bot(state, seat, rand):
    """Humans run for the nearest exit (keeping clear of Cybermen until the exits open), break
    a Mind Control with an Escape token when the free move is clearly better, and spend weakness
    cards, then Escape, then Fatigue tokens against a capture; the Cybermen a seat
    moves close in on the nearest rival group (never the seat's own), face it, attack it and use
    the abilities that hit rival groups hardest, sparing its own; with no rival left on the
    map they are driven away from the seat's own group and faced away from it."""
    # The listings a decision meets most, weighed without making their actions (made and scored
    # in turn, a group's moves, the facings and the abilities cost a twentieth of a search more).
    kind = listing(state, seat)
    if kind == "free_cyber_moves":
        return _best_free_cyber_move(state, seat)
    if kind == "facings":
        return _best_facing(state, seat)
    if kind == "group_moves":
        return _best_group_move(state, seat)
    users = ability_users(state) if kind == "ability_users" else None
    if users:
        return _best_ability_user(state, seat, users)
    actions = legal_actions(state, seat)
    # What this decision reads again for every action, read once: the distance maps (every
    # group move reads them) and the rival groups' squares (every Cyberman move reads them).
    memo = {}
    scores = [score_action(state, seat, action, memo) for action in actions]
    return actions[scores.index(max(scores))]  # the first of the best


def _best_free_cyber_move(state, seat):
    """The first of the best-scored actions of a movement phase's listing (every Cyberman's
    moves, then end_cyber), scored as `score_action` scores them without making the listing's 30-odd
    actions: a Cyberman's own distance is read once for all its squares (making and scoring
    each action was a quarter of a search's time)."""
    memo = {}
    hunting = _rival_groups(state, seat, memo)
    own = state["groups"][seat]["pos"]
    best, best_score = None, None
    for cid, squares in free_cyber_moves(state):
        pos = state["cybermen"][cid]["pos"]  # a Cyberman the controller moves: never a partial conversion
        if hunting:  # how much nearer the nearest rival group it ends
            start = _nearest_group(state, seat, pos, memo)
            nearest = memo["nearest"]
            for to in squares:
                distance = nearest.get((to[0], to[1]))
                score = start - (_nearest_group(state, seat, to, memo) if distance is None else distance)
                if best_score is None or score > best_score:
                    best, best_score = (cid, to), score
        else:  # alone on the map: how much further from the seat's own group
            start = manhattan(pos, own)
            for to in squares:
                score = manhattan(to, own) - start
                if best_score is None or score > best_score:
                    best, best_score = (cid, to), score
    end = {"type": "end_cyber"}  # listed last: chosen only over strictly worse moves
    if best_score is None or score_action(state, seat, end, memo) > best_score:
        return end
    return {"type": "cyber_move", "id": best[0], "to": list(best[1])}


def _best_facing(state, seat):
    """The first of the best-scored of the four facings listed, scored as `score_action` scores
    them (max keeps the first of equals)."""
    pos = state["cybermen"][state["active"]["id"]]["pos"]
    rivals = _rival_groups(state, seat, {})
    own = [state["groups"][seat]["pos"]] if state["groups"][seat]["members"] else []
    best = max(FACINGS, key=lambda facing: _hits_facing(rivals, pos, facing) - _hits_facing(own, pos, facing))
    return {"type": "face", "facing": best}


def _best_group_move(state, seat):
    """The first of the best-scored of a group's listed moves (then break_free), scored as
    `score_action` scores them without making the listing's 20-odd actions."""
    memo = {}
    moves = [(_human_square(state, seat, to, memo) - 0.3 * fatigue, to, fatigue)
             for to, fatigue in sorted(allowance_moves(state, seat).items())]
    best = max(moves, key=lambda move: move[0], default=None)
    if can_break_free(state, seat):
        free = {"type": "break_free"}
        if best is None or score_action(state, seat, free, memo) > best[0]:
            return free
    return {"type": "move", "to": list(best[1]), "fatigue": best[2]}


def _best_ability_user(state, seat, users):
    """The first of the best-scored of an abilities phase's use_ability actions (one for each
    of `users`, in order), scored as `score_action` scores them without making the listing."""
    memo = {}
    return {"type": "use_ability", "id": max(users, key=lambda cid: _ability_score(state, seat, cid, memo))}


def _ability_score(state, seat, cid, memo):
    """What Cyberman `cid`'s abilities are worth to `seat` now: the hits on rival groups less
    those on its own."""
    return sum(HIT_WEIGHT[effect] * (-1 if hit == seat else 1) for hit, effect in ability_hits(state, cid, memo))


def _rival_groups(state, seat, memo):
    """Where the groups the seat's Cybermen should hunt stand: every group in play but its own
    (a seat steering the Cybermen onto its own group was the greedy bot's old blind spot)."""
    # Kept in `memo` without a closure to make again for each of a listing's 30-odd Cyberman moves.
    rivals = memo.get("rivals")
    if rivals is None:
        rivals = memo["rivals"] = [g["pos"] for s, g in enumerate(state["groups"]) if g["members"] and s != seat]
    return rivals


def _nearest_group(state, seat, pos, memo):
    """Squares from `pos` to the nearest rival group (0 when there is none)."""
    nearest = memo.get("nearest")
    if nearest is None:
        nearest = memo["nearest"] = _nearest_by_square(_rival_groups(state, seat, memo))
    square = (pos[0], pos[1])
    distance = nearest.get(square)
    if distance is None:
        targets = _rival_groups(state, seat, memo)
        distance = nearest[square] = min(manhattan(pos, t) for t in targets) if targets else 0
    return distance


# {the rival groups' squares: {a square: its distance to the nearest of them}}. The groups move
# once a turn, the Cybermen every action: every decision of a Cyberman phase, in every playout
# of a search, weighs the Cybermen's squares against the same groups (reckoned afresh for each
# decision, the distances were a tenth of a search's time).
_NEAREST: Memo = Memo(10_000)  # each holds at most a distance per square of the map


def _nearest_by_square(rivals) -> dict:
    """The distances to the nearest of `rivals` reckoned so far, shared by every decision that
    hunts the groups on these squares."""
    key = tuple((pos[0], pos[1]) for pos in rivals)
    nearest = _NEAREST.get(key)
    if nearest is None:
        nearest = _NEAREST.keep(key, {})
    return nearest


def score_action(state, seat, action, memo):
    """The greedy bot's worth of one listed action for `seat` (higher is better); the search bot
    ranks its candidate moves by it too."""
    kind = action["type"]
    if kind == "move":
        return _human_square(state, seat, action["to"], memo) - 0.3 * action["fatigue"]
    if kind == "break_free":  # worth a token only when the free move beats the forced one by enough
        free = {**state, "groups": [*state["groups"]]}
        free["groups"][seat] = {**state["groups"][seat], "mind": False}
        return max(score_action(free, seat, a, memo) for a in legal_actions(free, seat)) - BREAK_FREE_COST
    if kind in ("cyber_move", "partial_move"):
        cyb = state["cybermen"][action["id"]]
        if cyb["role"] == "partial":
            others = [c["pos"] for cid, c in state["cybermen"].items() if cid != action["id"]]
            return -min((manhattan(action["to"], p) for p in others), default=0)
        if not _rival_groups(state, seat, memo):  # alone: every Cyberman near it is only a threat
            own = state["groups"][seat]["pos"]
            return manhattan(action["to"], own) - manhattan(cyb["pos"], own)
        return _nearest_group(state, seat, cyb["pos"], memo) - _nearest_group(state, seat, action["to"], memo)
    if kind == "face":
        cyb = state["cybermen"][state["active"]["id"]]
        own = [state["groups"][seat]["pos"]] if state["groups"][seat]["members"] else []
        return (_hits_facing(_rival_groups(state, seat, memo), cyb["pos"], action["facing"])
                - _hits_facing(own, cyb["pos"], action["facing"]))
    if kind == "attack":
        return -10 if action["target"] == f"group{seat}" else 10 + action.get("fatigue", 0)
    if kind == "use_ability":
        return _ability_score(state, seat, action["id"], memo)
    if kind in ("weakness", "escape", "fatigue"):
        return {"weakness": 3, "escape": 2, "fatigue": 1}[kind]
    if kind == "glitch":  # a partial conversion stays the player's own piece
        return 2
    if kind == "upgrade_tech":
        return 4
    if kind == "teleport":
        return 3 - _nearest_group(state, seat, action["to"], memo)
    return {"roll": 1, "done": -5, "end_cyber": -5, "end_partials": -5}.get(kind, 0)


# An Escape token kept is one capture averted later; spent on a Mind Control it must buy about
# three squares (of exit distance or distance from the Cybermen) over the forced move.
BREAK_FREE_COST = 3

# What a hit costs the group it lands on: a stun takes its next move, Mind Control steers it
# toward a Cyberman, an injury halves two movement rolls.
HIT_WEIGHT = {"stunned": 3, "mind": 2, "injured": 2}


def _human_square(state, seat, to, memo):
    """The group's square: nearer the next Unit to try (two players) or the exit, clear of Cybermen.
    `memo` keeps the decision's distance maps (the squares' map is the same for every move)."""
    untried = memo.get("untried")
    if untried is None:  # read once a decision (without a closure: this runs for every square listed)
        untried = memo["untried"] = _untried_units(state, seat)
    goal = memo.get("goal")
    if goal is None:  # the Units' neighbours while there are Units to try, else the exits
        starts = tuple(n for pos in untried for n in neighbours(pos)) if untried else EXITS
        goal = memo["goal"] = human_map(starts, human_blocked(state))
    square = (to[0], to[1])
    distance = goal.get(square, 30)
    if untried:  # two players: try every Unit first, keeping clear of the Cybermen, then run
        return -distance + _danger(state, square, memo) * 2 + (SABOTAGE_PULL if distance == 0 else 0)
    if state["round"] >= CONST["exits_open_round"] - 1:  # the exits are open: the danger counts for nothing
        return -distance + (100 if distance == 0 else 0)
    return -distance + _danger(state, square, memo) * 2


DANGER_CAP = 4  # a Cyberman this many squares away or further is no more a danger than none


def _danger(state, square, memo):
    """Squares from `square` to the nearest Cyberman, DANGER_CAP at most (with none on the map too)."""
    near = memo.get("danger")
    if near is None:  # read once a decision (a group's move weighs 20-odd squares)
        cybermen = tuple((c["pos"][0], c["pos"][1]) for c in state["cybermen"].values())
        near = memo["danger"] = _DANGER.get(cybermen)
        if near is None:
            near = memo["danger"] = _DANGER.keep(cybermen, _danger_by_square(cybermen))
    return near.get(square, DANGER_CAP)


# {the Cybermen's squares: {each square nearer than DANGER_CAP to one: its distance to the
# nearest}}: a map made once for the Cybermen where they stand, rather than every square's
# distance to each Cyberman reckoned afresh (that was a third of a group move's choice).
_DANGER: Memo = Memo(10_000)
_DANGER_STEPS = [(dr, dc, abs(dr) + abs(dc)) for dr in range(1 - DANGER_CAP, DANGER_CAP)
                 for dc in range(abs(dr) + 1 - DANGER_CAP, DANGER_CAP - abs(dr))]


def _danger_by_square(cybermen) -> dict:
    near = {}
    for row, col in cybermen:
        for dr, dc, distance in _DANGER_STEPS:
            square = (row + dr, col + dc)
            if distance < near.get(square, DANGER_CAP):
                near[square] = distance
    return near


# An attempt on a Unit is worth about +0.5 Victory Point (half 3 points, half a member lost):
# worth standing next to a Cyberman for.
SABOTAGE_PULL = 10
# Rounds a group needs, from its last Unit, to reach an exit before the round limit.
SABOTAGE_LAST_ROUND = CONST["round_limit"] - 3


def _untried_units(state, seat):
    """Designed two-player sabotage: the Units this seat's group has not tried, while there is time."""
    group = state["groups"][seat]
    if state["seats"] not in SABOTAGE["players"] or state["round"] > SABOTAGE_LAST_ROUND:
        return []
    return [pos for uid, pos in state["units"].items() if uid not in group["tried"]]


def _hits_facing(targets, pos, facing):
    """How squarely a Cyberman at `pos` facing `facing` looks at the nearest of `targets`."""
    dr, dc = DIRECTIONS[facing]
    best = 0
    for target in targets:
        ahead = (target[0] - pos[0]) * dr + (target[1] - pos[1]) * dc
        if ahead > 0:
            best = max(best, 10 - ahead - abs((target[0] - pos[0]) * dc) - abs((target[1] - pos[1]) * dr))
    return best


BOTS = {"random": random_bot, "greedy": greedy_bot}
