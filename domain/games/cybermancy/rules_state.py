"""Cybermancy: the constants of the rulebook and reading the state (who is alive, whose
creatures, whom one may attack). Shared by the turn structure (rules.py), the card
effects and keywords (rules_keywords.py) and the listing (rules_legal.py)."""

START_HEALTH = 30
DECK_SIZE = 30
OPENING_HAND = 7
OPENING_POWER = 5
KINDS = ("cpu", "ram")
MODES = ("standard", "teams")
QUIET_ROUNDS = 10

# ---------------------------------------------------------------------------------------
# Reading the state
# ---------------------------------------------------------------------------------------


def living(state):
    return [s for s in range(state["seats"]) if not state["players"][s]["out"]]


def team_of(state, seat):
    return seat % 2 if state["mode"] == "teams" else seat  # teams sit across: 0 & 2 against 1 & 3


def opponents(state, seat):
    return [s for s in living(state) if team_of(state, s) != team_of(state, seat)]


def creature_ids(state, seat):
    player = state["players"][seat]
    return player["frontline"] + player["main"]


def all_creatures(state):
    return [uid for s in range(state["seats"]) for uid in creature_ids(state, s)]


def remaining_health(creature):
    return creature["health"] - creature["damage"]


def valid_targets(state, seat):
    """Whom `seat` may attack: a living Frontline blocks the Main Area and its Cybermancer."""
    targets = []
    for enemy in opponents(state, seat):
        frontline = state["players"][enemy]["frontline"]
        targets += frontline if frontline else state["players"][enemy]["main"] + [f"cybermancer:{enemy}"]
    return targets


def next_living(state, seat):
    n = state["seats"]
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if not state["players"][candidate]["out"]:
            return candidate
    return seat


def order_from(state, seat):
    """Living seats in turn order, starting with `seat` (or the next living one)."""
    first = seat if not state["players"][seat]["out"] else next_living(state, seat)
    order, current = [first], first
    while (current := next_living(state, current)) != first:
        order.append(current)
    return order
