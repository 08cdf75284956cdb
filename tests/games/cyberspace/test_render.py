"""The terminal board (render.py), drawn as its legend says: '( )' a client, '[ ]' a server,
the digit inside the seat of the Avatar there, '|' and '--' connections, '#' a Firewall on
that side, 'L<n>' a Link of seat n; the stack as a count, the networks and the players with
what they score, and whose turn it is."""

from domain.games.cyberspace import RULESET
from domain.kernel.terminal import plain_text

from .boards import E, N, S, W, act, avatar, new_state, put, rng
from .test_hacking import face_off


def drawn(state, seat=None):
    return [line.rstrip() for line in plain_text(RULESET.render(RULESET.view(state, seat))).splitlines()]


def test_the_grid_draws_nodes_connections_avatars_links_and_firewalls():
    state = face_off()  # client, server, client, client, client along row 3; seat 0 on 2,3, seat 1 on 3,3
    state["players"][1]["links"] = ["1,3"]
    state["players"][0]["firewalls"] = [["2,3", E]]
    avatar(state, 0, 4, 3)
    lines = drawn(state)
    assert lines[0] == "HeroCard Cyberspace · turn 1 · duels: bit"
    assert lines[1:8] == ["       0      1      2      3      4      5      6",  # one empty column each side
                          "  2",
                          "       ·      ·      ·      ·      ·      ·      ·",
                          "",
                          "  3",
                          "       ·     ( )----[0]##--(1)----(0)----( )     ·",
                          "           L1"]
    assert "( ) client  [ ] server  digit: an Avatar's seat  L1 Link of seat 1  # Firewall" in lines
    assert "stack ▒▒▒▒▒▒▒▒▒▒… 17 tiles  face up t01, t03" in lines
    assert "  0         5       1         2               closed   5       seat 0: 1" in lines
    assert "  seat 0   2,3, 4,3   1         -       2,3 east    2        5" in lines
    assert "  seat 1   3,3        2         1,3     -           2        0" in lines
    assert lines[-1] == "turn of seat 0, programs 0/3"


def test_vertical_connections_a_firewall_on_one_and_the_final_round_turn_line():
    state = new_state(seats=4, options={"teams": True})
    put(state, 3, 3, "server", [E]), put(state, 4, 3, "client", [W, S]), put(state, 4, 4, "server", [N])
    avatar(state, 0, 3, 3), avatar(state, 1, 4, 3)
    state["players"][2]["firewalls"] = [["4,4", N]]
    state.update(final_round=True, final_turn=True, stack=[], last_seat=3, turn=1, programs=1, menu=["login"])
    state["hijack"] = {"target": 0, "by": 1, "programs": 2, "menu": ["login", "spawn"]}
    state["last_duel"] = {"seat": 1, "target": {"kind": "avatar"}, "success": True}
    state["tallies"][0] = {"networks": 4, "bonus": 2, "score": 6}
    lines = drawn(state)
    assert lines[0] == "HeroCard Cyberspace · turn 1 · duels: bit · teams"
    assert lines[6:11] == ["       ·     [0]----(1)     ·", "                     |", "  4                  #",
                           "       ·      ·     [ ]     ·", ""]
    assert "stack 0 tiles  face up t01, t03" in lines
    assert "  seat 0 team 0   3,3       2         -       -           3        3        6 (4+2 bonus)" in lines
    assert "  seat 2 team 0   -         3         -       4,4 north   2        0" in lines
    assert lines[-2:] == ["turn of seat 1, programs 1/3 login, hijacking seat 0 (2/3), final round (this is a final turn)",
                          "last hack: seat 1 on avatar — succeeded"]
    state["final_turn"] = False
    state["last_duel"] = {"seat": 0, "target": {"kind": "link"}, "success": False, "cancelled": True}
    assert drawn(state)[-2:] == ["turn of seat 1, programs 1/3 login, hijacking seat 0 (2/3), final round",
                                 "last hack: seat 0 on link — cancelled"]
    state["last_duel"] = {"seat": 0, "target": {}, "success": False}
    assert drawn(state)[-1] == "last hack: seat 0 on a target — failed"


def test_a_finished_puzzle_shows_its_score_and_no_turn():
    state = new_state(seats=1)
    put(state, 3, 3, "server", [E]), put(state, 4, 3, "client", [W])
    state, _ = act(state, 0, {"type": "done"})
    text = " ".join(drawn(state))
    assert text.startswith("HeroCard Cyberspace · Engineering Puzzle  GAME OVER  puzzle_done, winners: seat 0; "
                           "puzzle score: nodes 2, closed yes, score 5")
    assert "       ·     [ ]----( )     ·" in drawn(state)
    assert "  0         2       1         1               closed   4       -" in drawn(state)
    assert "turn of" not in text


def test_with_card_duels_each_hero_is_drawn_and_an_empty_board_draws_the_centre():
    state = RULESET.setup({"heroes": ["sinner", "bouncer"]}, ["a", "b"], rng(1))
    lines = drawn(state, 0)
    assert lines[1:6] == ["       2      3      4", "  2", "       ·      ·      ·", "", "  3"]  # around the centre
    text = "\n".join(lines)
    assert "Sinner" in text and "Bouncer" in text and "duels: cards" in lines[0]
    assert N == 0 and S == 2 and W == 3
