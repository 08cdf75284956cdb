"""Ending the Game: what a network is worth, what each player earns for it, the program
bonus, the winner and its tie-breaks; and the Engineering Puzzle's score."""

from .board import is_closed, layout, networks, node_of, occupants

CLOSED_BONUS = 3
PROGRAMS_PER_TURN = 3


def network_worth(state, group, taken=None):
    """Step 1: disregard Access Tokens; no server -> 0; else the empty clients (servers not
    counted) plus three if the network is closed."""
    board = state["board"]
    taken = occupants(state) if taken is None else taken
    return _worth([cell for cell in group if node_of(board, cell) == "server"],
                  [cell for cell in group if node_of(board, cell) == "client"], is_closed(board, group), taken)


def _worth(servers, clients, closed, taken):
    if not servers:
        return {"servers": 0, "empty_clients": 0, "closed": closed, "worth": 0}
    empty_clients = sum(1 for cell in clients if cell not in taken)
    return {"servers": len(servers), "empty_clients": empty_clients, "closed": closed,
            "worth": empty_clients + (CLOSED_BONUS if closed else 0)}


def servers_held(state, group, taken=None):
    """seat -> servers of `group` its Avatars occupy."""
    taken = occupants(state) if taken is None else taken
    return _held([cell for cell in group if node_of(state["board"], cell) == "server"], taken)


def _held(servers, taken):
    held = {}
    for cell in servers:
        if cell in taken:
            seat = taken[cell][0]
            held[seat] = held.get(seat, 0) + 1
    return held


def share(worth, held, seat):
    """Step 2: no server held -> 0; as many as any other player -> the full worth (so all
    tied players score a tied network); fewer than some player -> half, rounded down."""
    mine = held.get(seat, 0)
    if mine == 0:
        return 0
    best_other = max((n for s, n in held.items() if s != seat), default=0)
    return worth if mine >= best_other else worth // 2


def network_table(state):
    """[(network, its worth, servers held by seat)] for every network on the board."""
    taken = occupants(state)
    return [(list(cells), _worth(servers, clients, closed, taken), _held(servers, taken))
            for cells, servers, clients, closed in layout(state["board"])]


def earned(state, seat, group):
    return share(network_worth(state, group)["worth"], servers_held(state, group), seat)


def network_points(state, seat, table=None):
    # (no share of a network where the seat holds no server)
    return sum(share(worth["worth"], held, seat) for _, worth, held in (table or network_table(state)) if seat in held)


def tally(state, seat):
    """Steps 3 and 4, at the end of `seat`'s final turn: network points plus one bonus point
    per program not executed during that turn."""
    points = network_points(state, seat)
    bonus = PROGRAMS_PER_TURN - state["programs"]
    return {"networks": points, "bonus": bonus, "score": points + bonus}


def winners(state):
    """Most points; then most unexecuted programs at the end of the final turns; then the
    fewest expended Attribute Points (the cards on a player's Attribute Stacks when the
    last final turn ends; Bit Duels expend none, so there it never separates anyone):
    still tied is a draw among the tied. Teams add partners' scores, programs and points."""
    tallies = state["tallies"]
    sides = [[0, 2], [1, 3]] if state["teams"] else [[seat] for seat in range(state["seats"])]
    cards = state.get("cards")

    def spent(seat):
        if cards is None:
            return 0
        return sum(entry["cost"] for stack in cards["players"][seat]["stacks"].values() for entry in stack)

    def rank(side):
        return (sum(tallies[s]["score"] for s in side), sum(tallies[s]["bonus"] for s in side),
                -sum(spent(s) for s in side))

    best = max(rank(side) for side in sides)
    return sorted(seat for side in sides if rank(side) == best for seat in side)


def puzzle_score(state):
    """'Score one point for each client and server in the largest network. If the largest
    network is closed, then add three points.' Of equally large networks, a closed one
    counts (the player's best reading)."""
    board = state["board"]
    if not board:
        return {"nodes": 0, "closed": False, "score": 0}
    nodes, closed = max((len(group), is_closed(board, group)) for group in networks(board))
    return {"nodes": nodes, "closed": closed, "score": nodes + (CLOSED_BONUS if closed else 0)}
