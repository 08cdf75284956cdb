"""The terminal board (render.py), drawn as its legend says: '( )' a client, '[ ]' a server,
the digit inside the seat of the Avatar there, '|' and '--' connections, '#' a Firewall on
that side, 'L<n>' a Link of seat n; the stack as a count, the networks and the players with
what they score, and whose turn it is."""

import io

from rich.console import Console
from rich.text import Text

from domain.games.cyberspace import RULESET
from domain.kernel.terminal import plain_text, seat_style

from .boards import E, N, S, W, act, avatar, new_state, put, rng
from .test_hacking import face_off


def drawn(state, seat=None):
    """The board as the terminal draws it: the seat's view, whom the rules ask marked."""
    board = RULESET.render(RULESET.view(state, seat), sorted(RULESET.to_act(state)))
    return [line.rstrip() for line in plain_text(board).splitlines()]


def ansi(renderable, width=120):
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=True, color_system="standard")
    console.print(renderable)
    return console.export_text(styles=True)


def styled(text, style):
    """How a terminal starts showing `text` in `style` (the style may run on after it)."""
    return ansi(Text(text, style=style)).rstrip("\n").removesuffix("\x1b[0m")


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


def test_the_tables_headers_titles_and_the_stack_line():
    state = face_off()
    state["waiting"] = [state["stack"].pop()]
    state["held"] = state["stack"].pop()
    state["menu"], state["programs"] = ["login", "link"], 2
    put(state, 5, 5, "server", [E])  # an open network of its own
    lines = drawn(state)
    assert "Networks" in lines and "  network   tiles   servers   empty clients   closed   worth   servers held" in lines
    assert any(line.startswith("  1         1       1         0               open     0       -") for line in lines)
    assert any(line.startswith("Players (Avatars, Links and Firewalls by square x,y; tokens: Access Tokens") for line in lines)
    assert "  seat     Avatars   reserve   Links   Firewalls   tokens   points   tally" in lines
    assert f"stack ▒▒▒▒▒▒▒▒▒▒… {len(state['stack'])} tiles  face up t01, t03  waiting {state['waiting'][0]}  " \
        f"drawn {state['held']}" in lines
    assert lines[-1] == "turn of seat 0, programs 2/3 login, link"
    state["menu"], state["programs"] = [], 0
    assert "\nturn of seat 0, programs 0/3\n" in plain_text(RULESET.render(RULESET.view(state, None)))
    state["waiting"].append(state["stack"].pop())
    state["face_up"] = []
    line = next(line for line in drawn(state) if line.startswith("stack"))
    assert line.endswith(f"face up -  waiting {state['waiting'][0]}, {state['waiting'][1]}  drawn {state['held']}")
    empty = drawn(new_state())
    assert "Networks" not in empty and not any("network   tiles" in line for line in empty)


def test_colours_firewalls_red_connections_white_avatars_and_links_in_their_seats_colour():
    """The legend's '#' a Firewall (red); each Avatar's digit and each Link in its seat's colour;
    the coordinates, the legend and the record of the last hack dim; what a player scores bold."""
    state = face_off()
    state["players"][1]["links"] = ["1,3"]
    state["players"][0]["firewalls"] = [["2,3", E]]
    state["last_duel"] = {"seat": 0, "target": {"kind": "link"}, "success": False}
    text = ansi(RULESET.render(RULESET.view(state, None)))
    assert styled("##", "bold red") in text and styled("--", "bright_white") in text
    assert styled("0", f"bold black on {seat_style(0)}") in text and styled("1", f"bold black on {seat_style(1)}") in text
    assert styled("(", "bold") in text and styled("L1", f"bold {seat_style(1)}") in text
    assert styled(" )", "bold").replace(" ", "") in text
    assert styled("   3   ", "dim") in text and styled("  3 ", "dim") in text
    assert styled("last hack: seat 0 on link — failed", "dim") in text
    worth = RULESET.view(state, None)["networks"][0]["worth"]
    assert f"closed   {styled(str(worth), 'bold')}" in text  # the network's worth in bold (and seat 0's points)
    assert f"2        {styled(str(worth), 'bold')}" in text
    state.update(final_round=True, final_turn=False, stack=[])
    state["hijack"] = {"target": 1, "by": 0, "programs": 1, "menu": ["login"]}
    text = ansi(RULESET.render(RULESET.view(state, None)))
    assert styled(", hijacking seat 1 (1/3)", "red") in text and styled(", final round", "bold yellow") in text


def test_each_hero_is_drawn_by_seat_the_one_to_act_marked_and_none_once_over():
    from .test_card_duels import home
    state = RULESET.setup({"heroes": ["sinner", "bouncer"]}, ["a", "b"], rng(1))
    acting = state["turn"]
    state = home(state, acting)  # its Action Phase: it holds priority
    lines = " ".join(drawn(state, acting))
    other = 1 - acting
    names = {0: "Sinner", 1: "Bouncer"}
    assert f"▶ seat {acting} · {names[acting]}" in lines and f"▶ seat {other}" not in lines
    assert f"seat {other} · {names[other]}" in lines and " VP" not in lines
    state["over"], state["winners"] = "final_round_scored", [0]
    state["tallies"] = [{"networks": 0, "bonus": 3, "score": 3}] * 2
    board = drawn(state, acting)
    lines = " ".join(board)
    assert "▶" not in lines and board[0].endswith("GAME OVER  final_round_scored, winners: seat 0")
    assert board[-1].startswith("╰")  # the last Hero's panel closes the board: no turn line
    assert "puzzle score" not in lines and "turn of" not in lines


def test_an_unfinished_puzzle_and_one_closed_without_points():
    state = new_state(seats=1)
    put(state, 3, 3, "server", [E]), put(state, 4, 3, "client", [W, E])
    lines = drawn(state)
    assert "  seat 0   -         3         -       -           3        -" in lines  # no points outside the puzzle
    state, _ = act(state, 0, {"type": "done"})
    assert "puzzle score: nodes 2, closed no, score 2" in " ".join(drawn(state))


def test_two_holders_of_a_network_are_listed_together():
    state = new_state()
    put(state, 2, 3, "server", [E]), put(state, 3, 3, "client", [W, E]), put(state, 4, 3, "server", [W])
    avatar(state, 0, 2, 3), avatar(state, 1, 4, 3)
    assert "  0         3       2         1               closed   4       seat 0: 1, seat 1: 1" in drawn(state)
