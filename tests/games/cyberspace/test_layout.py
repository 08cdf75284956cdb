"""The board's networks worked out once per layout of tiles (issue 32: a search weighs the same
boards again and again) are the networks as the rules define them, at every state of random
matches (tiles placed, remapped and turned; Firewalls and Links laid): each network's cells,
its worth and who holds its servers; and where an Avatar may step."""

import os
import random

import pytest

from domain.games.cyberspace import RULESET
from domain.games.cyberspace import board as B
from domain.games.cyberspace.scoring import network_table, network_worth, servers_held
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream

MODES = [({"duels": "bit"}, 2), ({"duels": "bit", "teams": True}, 4), ({}, 3), ({"size": 5}, 2)]


def states(options, seats, seed, bot):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    for seq in range(2, 3_000):
        if RULESET.outcome(state) is not None:
            return
        yield json_copy(state)
        seat = min(RULESET.to_act(state))
        for fact in RULESET.decide(state, seat, RULESET.bots[bot](state, seat, rand), RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)


def networks_by_the_rules(board):
    """'Tiles joined connection to connection' (board.joined), each sorted; by first cell."""
    found, seen = [], set()
    for start in sorted(board):
        if start not in seen:
            group, frontier = set(), [start]
            while frontier:
                cell = frontier.pop()
                if cell not in group:
                    group.add(cell)
                    frontier += [other for side in B.sides_of(board, cell) if (other := B.joined(board, cell, side))]
            seen |= group
            found.append(sorted(group))
    return found


def steps_by_the_rules(state, cell):
    """steps_from as the rulebook words it: connections with no Firewall on either half."""
    board = state["board"]
    found = [other for side in sorted(B.sides_of(board, cell))
             if (other := B.joined(board, cell, side)) and not B.firewalls_on(state, cell, side)]
    colour = B.link_at(state, cell)
    return found + ([port for port in B.links_of_colour(state, colour) if port != cell] if colour is not None else [])


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
def test_networks_worth_and_steps_are_the_rules_at_every_state(options, seats):
    boards = set()
    for bot in ("random", "greedy"):
        for state in states(options, seats, seed=seats, bot=bot):
            board = state["board"]
            groups = networks_by_the_rules(board)
            assert B.networks(board) == groups
            assert [(group, network_worth(state, group), servers_held(state, group)) for group in groups] == \
                network_table(state)
            assert [closed for _, _, _, closed in B.layout(board)] == [B.is_closed(board, g) for g in groups]
            for cell in board:
                assert B.steps_from(state, cell) == steps_by_the_rules(state, cell)
                assert B.network_of(board, cell) == next(g for g in groups if cell in g)
            boards.add(repr(sorted(board.items())))
    assert len(boards) >= 20


def test_each_caller_gets_networks_of_its_own():
    state = next(s for s in states({"duels": "bit"}, 2, seed=1, bot="random") if len(s["board"]) >= 3)
    first = B.networks(state["board"])
    kept = json_copy(first)
    first[0].append("9,9")
    first.append(["8,8"])
    assert B.networks(state["board"]) == kept
    cell = kept[0][0]
    B.network_of(state["board"], cell).clear()
    assert B.network_of(state["board"], cell) == kept[0]


def test_a_turned_tile_changes_the_networks_found():
    """The layout is told apart by every tile's rotation, not only by the cells taken."""
    from .boards import E, W, new_state, put
    state = new_state()
    put(state, 3, 3, "server", [E])
    put(state, 4, 3, "client", [W])
    assert B.networks(state["board"]) == [["3,3", "4,3"]]
    state["board"]["3,3"]["rot"] = (state["board"]["3,3"]["rot"] + 2) % 4  # now facing west, away
    assert B.networks(state["board"]) == [["3,3"], ["4,3"]]


def test_a_forked_child_starts_without_the_remembered_layouts():
    """As herocard/test_listing.py's: mutation testing forks from a process that ran the tests."""
    B.networks({"3,3": {"tile": sorted(B.TILES)[0], "rot": 0}})
    assert B._LAYOUTS
    child = os.fork()
    if child == 0:
        os._exit(1 if B._LAYOUTS else 0)
    assert os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0


def destinations_by_the_rules(state, start):
    """'Every empty node reachable through connected, empty nodes', a step at a time."""
    taken = B.occupants(state)
    seen, frontier = {start}, [start]
    while frontier:
        for other in steps_by_the_rules(state, frontier.pop()):
            if other not in seen and other not in taken:
                seen.add(other)
                frontier.append(other)
    return sorted(seen - {start})


@pytest.mark.parametrize("options, seats", MODES, ids=[f"{o}-{s}" for o, s in MODES])
def test_login_destinations_are_the_walk_step_by_step_at_every_state(options, seats):
    """login_destinations looks the Firewalls and Links up once for its whole walk."""
    walked = 0
    for bot in ("random", "greedy"):
        for state in states(options, seats, seed=seats + 1, bot=bot):
            for cell in state["board"]:
                found = B.login_destinations(state, cell)
                assert found == destinations_by_the_rules(state, cell), cell
                walked += len(found) > 0
    assert walked >= 100


def test_a_connection_facing_no_connection_joins_nothing_either_way():
    """A tile's connection against a neighbour's blank side: no network joined, no step taken,
    whichever of the two cells comes first (random play seldom lays such a pair)."""
    from .boards import E, W, avatar, new_state, put
    for turned_cell in ("3,3", "4,3"):
        state = new_state()
        put(state, 3, 3, "server", [E, W])
        put(state, 4, 3, "client", [W, E])
        state["board"][turned_cell]["rot"] = (state["board"][turned_cell]["rot"] + 1) % 4  # now north-south
        groups = B.networks(state["board"])
        assert groups == networks_by_the_rules(state["board"]) == [["3,3"], ["4,3"]]
        avatar(state, 0, 3, 3)
        assert B.login_destinations(state, "3,3") == destinations_by_the_rules(state, "3,3") == []
        assert B.login_destinations(state, "4,3") == destinations_by_the_rules(state, "4,3") == []
