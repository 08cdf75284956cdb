"""Ending the Game and its scoring, with the rulebook's worked examples; Teams; the
Engineering Puzzle."""

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.board import networks
from domain.games.cyberspace.scoring import earned, network_points, network_worth

from .boards import E, N, S, W, act, avatar, legal_of, new_state, put, refused, rng


def example_board():
    """The five situations of the rulebook's scoring figure, on one board.
    A) no server; B) a server but no Avatar on one; C) an open network, two empty clients,
    its server held; D) a closed network, two empty clients, its two servers held by two
    players, the second of whom is E ('All tied players score a tied network')."""
    state = new_state(seats=4)
    put(state, 0, 0, "client", [E]), put(state, 1, 0, "client", [W])  # A
    avatar(state, 0, 0, 0)
    put(state, 0, 2, "server", [E]), put(state, 1, 2, "client", [W, E]), put(state, 2, 2, "client", [W])  # B
    avatar(state, 1, 1, 2)
    put(state, 0, 4, "client", [E]), put(state, 1, 4, "server", [W, E, S]), put(state, 2, 4, "client", [W])  # C
    avatar(state, 1, 1, 4)
    put(state, 4, 4, "server", [E, S]), put(state, 5, 4, "client", [W, S])  # D, a closed square
    put(state, 4, 5, "server", [N, E]), put(state, 5, 5, "client", [N, W])
    avatar(state, 2, 4, 4)
    avatar(state, 3, 4, 5)  # E
    return state


def group(state, cell):
    return next(g for g in networks(state["board"]) if cell in g)


def test_the_rulebooks_scoring_example_a_to_e():
    state = example_board()
    a, b, c, d = (group(state, cell) for cell in ("0,0", "0,2", "0,4", "4,4"))
    # "A network with no server scores zero points."
    assert network_worth(state, a) == {"servers": 0, "empty_clients": 0, "closed": True, "worth": 0}
    assert network_worth(state, b)["worth"] == 4  # closed, one empty client: but "no Avatar on a server scores zero points"
    assert [earned(state, seat, b) for seat in range(4)] == [0, 0, 0, 0]
    assert network_worth(state, c) == {"servers": 1, "empty_clients": 2, "closed": False, "worth": 2}
    assert network_worth(state, d) == {"servers": 2, "empty_clients": 2, "closed": True, "worth": 5}
    assert [network_points(state, seat) for seat in range(4)] == [0, 2, 5, 5]  # A 0, B 0, C 2, D 5, E 5


def test_the_bouncer_example_full_points_for_as_many_servers_as_any_other_player():
    """'A closed network has four empty clients and two servers, one occupied by Bouncer and
    another occupied by Cryptomancer ... he scores the full seven points.'"""
    state = new_state(seats=2)
    put(state, 2, 2, "server", [E, S]), put(state, 3, 2, "client", [W, E]), put(state, 4, 2, "client", [W, S])
    put(state, 2, 3, "server", [N, S]), put(state, 4, 3, "client", [N, S])
    put(state, 2, 4, "client", [N, E]), put(state, 3, 4, "client", [W, E]), put(state, 4, 4, "client", [N, W])
    avatar(state, 0, 2, 2)
    avatar(state, 1, 2, 3)
    assert network_worth(state, group(state, "2,2")) == {"servers": 2, "empty_clients": 6, "closed": True, "worth": 9}
    avatar(state, 1, 3, 4)  # two Avatars on clients: four empty clients are left
    avatar(state, 0, 4, 4)
    assert network_worth(state, group(state, "2,2"))["worth"] == 7
    assert network_points(state, 0) == network_points(state, 1) == 7


def test_fewer_servers_than_another_player_earns_half_rounded_down():
    state = new_state(seats=2)
    put(state, 1, 1, "server", [E, S]), put(state, 2, 1, "server", [W, E, S]), put(state, 3, 1, "client", [W])
    put(state, 1, 2, "client", [N]), put(state, 2, 2, "server", [N, E]), put(state, 3, 2, "client", [W])
    state["players"][0]["avatars"] = ["1,1", "2,1", None]
    state["players"][1]["avatars"] = ["2,2", None, None]
    worth = network_worth(state, group(state, "1,1"))
    assert worth == {"servers": 3, "empty_clients": 3, "closed": True, "worth": 6}
    state["players"][0]["avatars"][2] = "3,1"  # now 2 empty clients: worth 5
    assert earned(state, 0, group(state, "1,1")) == 5 and earned(state, 1, group(state, "1,1")) == 2


def final_round_table():
    """Three players; one tile left in the face-down stack; seat 0 holds a scoring server."""
    state = new_state(seats=3)
    put(state, 3, 3, "server", [E]), put(state, 4, 3, "client", [W, E])
    avatar(state, 0, 3, 3)
    keep = state["stack"][0]
    state["face_up"] += state["stack"][1:]
    state["stack"] = [keep]
    return state


def test_drawing_the_last_tile_starts_one_final_round_ending_with_the_drawers_final_turn():
    state = final_round_table()
    state, facts = act(state, 0, {"type": "draw"})
    assert {"f": "final_round", "last": 0} in facts
    if state["held"]:
        state, _ = act(state, 0, legal_of(state, 0, "place")[0])
    assert not state["final_turn"]  # the drawer's current turn goes on as usual
    state, _ = act(state, 0, {"type": "end_turn"})
    assert state["turn"] == 1 and state["final_turn"]
    state, _ = act(state, 1, {"type": "end_turn"})  # no program executed: three bonus points
    assert state["tallies"][1] == {"networks": 0, "bonus": 3, "score": 3}
    state, _ = act(state, 2, {"type": "reboot", "avatars": []})
    assert state["tallies"][2]["bonus"] == 3 and RULESET.outcome(state) is None
    worth_before = network_points(state, 0)
    state, facts = act(state, 0, {"type": "firewall", "x": 3, "y": 3, "side": E, "from": None})
    state, facts = act(state, 0, {"type": "end_turn"})
    assert state["tallies"][0] == {"networks": worth_before, "bonus": 2, "score": worth_before + 2}
    result = RULESET.outcome(state)
    assert result["reason"] == "final_round_scored" and result["scores"] == [worth_before + 2, 3, 3]
    assert result["bonus"] == [2, 3, 3] and result["winners"] == state["winners"] == [1, 2]  # tied: most bonus
    assert RULESET.to_act(state) == set()


def test_a_hacker_who_empties_the_stack_in_a_hijacked_session_gets_the_last_final_turn_not_its_target():
    """'If you empty the face-down stack of tiles, there will be one final round, in which you
    will get the final turn': the hacker draws the target's Probe, so the hacker emptied it."""
    from .test_hacking import HEADS
    state = final_round_table()
    avatar(state, 1, 4, 3)
    state, _ = act(state, 0, {"type": "attack", "target": "avatar", "seat": 1, "avatar": 0}, seq=HEADS)
    assert state["hijack"] == {"target": 1, "by": 0, "programs": 0, "menu": []}
    state, facts = act(state, 0, {"type": "draw"})
    assert {"f": "final_round", "last": 0} in facts
    if state["held"]:
        state, _ = act(state, 0, legal_of(state, 0, "place")[0])
    state, _ = act(state, 0, {"type": "end_session"})
    order = []
    while not state["over"]:
        order.append((state["turn"], state["final_turn"]))
        state, _ = act(state, state["turn"], {"type": "end_turn"})
    assert order == [(0, False), (1, True), (2, True), (0, True)]


def test_a_score_is_tallied_at_the_end_of_the_players_own_final_turn():
    state = final_round_table()
    state["stack"], state["final_round"], state["last_seat"] = [], True, 2
    state["turn"], state["final_turn"] = 0, True
    state, _ = act(state, 0, {"type": "end_turn"})
    tallied = state["tallies"][0]["score"]
    state, _ = act(state, 1, {"type": "spawn", "x": 4, "y": 3})
    state, _ = act(state, 1, {"type": "end_turn"})
    state["players"][0]["avatars"] = [None, None, None]  # whatever happens after does not change it
    state, _ = act(state, 2, {"type": "end_turn"})
    assert RULESET.outcome(state)["scores"][0] == tallied


def test_ties_go_to_more_unexecuted_programs_then_are_a_draw():
    state = new_state(seats=3)
    state.update(final_round=True, last_seat=2, final_turn=True, stack=[])
    state["tallies"] = [{"networks": 4, "bonus": 1, "score": 5}, {"networks": 2, "bonus": 3, "score": 5}, None]
    state["turn"] = 2
    state, _ = act(state, 2, {"type": "reboot", "avatars": []})  # seat 2 scores 3
    assert RULESET.outcome(state)["winners"] == [1]
    state = new_state(seats=2)
    state.update(final_round=True, last_seat=1, final_turn=True, stack=[], turn=1)
    state["tallies"] = [{"networks": 0, "bonus": 3, "score": 3}, None]
    state, _ = act(state, 1, {"type": "end_turn"})
    assert RULESET.outcome(state)["winners"] == [0, 1]  # still tied: a draw


def test_a_probe_in_the_final_turn_costs_its_bonus_point_like_any_program():
    """'You also receive bonus points for any programs you do not execute during your final
    turn': a Probe is one of the programs."""
    state = final_round_table()
    state["stack"], state["final_round"], state["last_seat"] = [], True, 0
    state["turn"], state["final_turn"] = 0, True
    state["tallies"] = [None] + [{"networks": 0, "bonus": 3, "score": 3}] * 2
    tile = state["face_up"][0]
    probe = next(a for a in legal_of(state, 0, "probe") if a["tile"] == tile)
    state, _ = act(state, 0, probe)
    state, _ = act(state, 0, {"type": "end_turn"})
    assert state["tallies"][0]["bonus"] == 2


def test_the_tie_break_asks_unexecuted_programs_before_expended_attribute_points():
    """'The tied player with the most unexecuted programs at the end of all final turns wins.
    If there is still a tie, the tied player with the fewest expended Attribute Points wins.'"""
    from domain.games.cyberspace.scoring import winners
    state = RULESET.setup({}, ["a", "b"], rng(1))  # card duels
    state["tallies"] = [{"networks": 3, "bonus": 3, "score": 6}, {"networks": 4, "bonus": 2, "score": 6}]
    state["cards"]["players"][0]["stacks"]["body"] = [{"uid": 1, "card": "x", "face": "up", "cost": 8, "turn": 1}]
    assert winners(state) == [0]  # more unexecuted programs, though more points expended
    state["tallies"][1] = {"networks": 3, "bonus": 3, "score": 6}
    assert winners(state) == [1]  # then the fewest expended points


def test_teams_add_partners_scores():
    state = new_state(seats=4, options={"teams": True})
    state.update(final_round=True, last_seat=3, final_turn=True, stack=[], turn=3)
    state["tallies"] = [{"networks": 4, "bonus": 0, "score": 4}, {"networks": 5, "bonus": 0, "score": 5},
                        {"networks": 1, "bonus": 0, "score": 1}, None]
    state, _ = act(state, 3, {"type": "reboot", "avatars": []})  # seat 3: 3 bonus points
    result = RULESET.outcome(state)
    assert result["team_scores"] == [5, 8] and result["winners"] == [1, 3]
    state = new_state(seats=4, options={"teams": True})
    state.update(final_round=True, last_seat=3, final_turn=True, stack=[], turn=3)
    state["tallies"] = [{"networks": 4, "bonus": 0, "score": 4}, {"networks": 1, "bonus": 0, "score": 1},
                        {"networks": 5, "bonus": 0, "score": 5}, None]
    state, _ = act(state, 3, {"type": "reboot", "avatars": []})
    assert RULESET.outcome(state)["team_scores"] == [9, 4] and RULESET.outcome(state)["winners"] == [0, 2]
    state = new_state(seats=4, options={"teams": True})  # the summed score, not the best partner's
    state.update(final_round=True, last_seat=3, final_turn=True, stack=[], turn=3)
    state["tallies"] = [{"networks": 7, "bonus": 0, "score": 7}, {"networks": 3, "bonus": 0, "score": 3},
                        {"networks": 0, "bonus": 0, "score": 0}, None]
    state, _ = act(state, 3, {"type": "reboot", "avatars": []})  # seat 3: 3 bonus points; team 1 sums 6
    assert RULESET.outcome(state)["team_scores"] == [7, 6] and RULESET.outcome(state)["winners"] == [0, 2]
    state = new_state(seats=4, options={"teams": True})
    state.update(final_round=True, last_seat=3, final_turn=True, stack=[], turn=3)
    state["tallies"] = [{"networks": 5, "bonus": 0, "score": 5}, {"networks": 3, "bonus": 0, "score": 3},
                        {"networks": 0, "bonus": 0, "score": 0}, None]
    state, _ = act(state, 3, {"type": "reboot", "avatars": []})
    assert RULESET.outcome(state)["team_scores"] == [5, 6] and RULESET.outcome(state)["winners"] == [1, 3]


# ---------------------------------------------------------------------------------------
# The Engineering Puzzle
# ---------------------------------------------------------------------------------------

def test_the_engineering_puzzle_uses_tiles_only_as_many_probes_and_remaps_as_you_like():
    state = new_state(seats=1)
    assert state["players"][0]["avatars"] == [None, None, None] and state["puzzle"]
    for _ in range(5):  # more than three programs: no limit in the puzzle
        state, _ = act(state, 0, {"type": "draw"})
        if state["held"]:
            state, _ = act(state, 0, legal_of(state, 0, "place")[0])
    assert len(state["board"]) == 5
    assert {a["type"] for a in RULESET.legal_actions(state, 0)} <= {"draw", "probe", "remap", "done", "place"}
    refused(state, 0, {"type": "spawn", "x": 3, "y": 3}, "puzzle_probe_remap_only")
    refused(state, 0, {"type": "end_turn"}, "puzzle_probe_remap_only")


def test_the_puzzle_scores_each_client_and_server_of_the_largest_network_plus_three_if_closed():
    state = new_state(seats=1)
    put(state, 2, 2, "server", [E, S]), put(state, 3, 2, "client", [W, S])
    put(state, 2, 3, "client", [N, E]), put(state, 3, 3, "client", [N, W])
    put(state, 5, 5, "client", [E]), put(state, 6, 5, "client", [W, E])
    state, _ = act(state, 0, {"type": "done"})
    assert RULESET.outcome(state) == {"reason": "puzzle_done", "winners": [0], "scores": [7],
                                      "puzzle": {"nodes": 4, "closed": True, "score": 7}}
    assert state["winners"] == [0] and state["over"] == "puzzle_done"


def test_of_two_equally_large_networks_the_closed_one_counts_for_the_puzzle():
    """'Score one point for each client and server in the largest network. If the largest
    network is closed, then add three points': of two largest networks, the closed one
    (README 27)."""
    for order in (0, 1):
        state = new_state(seats=1)
        open_first = [(1, 1, "client", [E]), (2, 1, "client", [W, E])]  # open to the east
        closed = [(1, 4, "client", [E]), (2, 4, "server", [W])]
        for x, y, node, sides in (open_first + closed if order else closed + open_first):
            put(state, x, y, node, sides)
        state, _ = act(state, 0, {"type": "done"})
        assert RULESET.outcome(state)["puzzle"] == {"nodes": 2, "closed": True, "score": 5}


def test_an_open_largest_network_scores_its_nodes_only_and_an_empty_table_nothing():
    state = new_state(seats=1)
    assert RULESET.outcome(act(new_state(seats=1), 0, {"type": "done"})[0])["puzzle"] == \
        {"nodes": 0, "closed": False, "score": 0}
    put(state, 2, 2, "server", [E, S]), put(state, 3, 2, "client", [W])
    put(state, 2, 3, "client", [N, E, S])  # open to the south
    state, _ = act(state, 0, {"type": "done"})
    assert RULESET.outcome(state)["puzzle"] == {"nodes": 3, "closed": False, "score": 3}


def test_emptying_the_stack_in_the_puzzle_starts_no_final_round():
    state = new_state(seats=1)
    state["face_up"] += state["stack"][1:]
    state["stack"] = state["stack"][:1]
    state, facts = act(state, 0, {"type": "draw"})
    assert not state["final_round"] and all(f["f"] != "final_round" for f in facts)
