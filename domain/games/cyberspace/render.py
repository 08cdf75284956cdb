"""Cyberspace's play area for terminals (`arbiter play`, `show`, `replay --boards`), drawn with
rich: the tile grid (connections, client ( ) and server [ ] nodes, Avatars by seat colour,
Links L<seat>, Firewalls #), the tiles to draw (the stack as backs), the networks and each
seat's tokens and points; with card duels, each Hero as HeroCard draws it (hidden cards as
backs)."""

from functools import lru_cache

from rich.table import Table
from rich.text import Text

from domain.games.herocard.render import hero_panel
from domain.kernel.terminal import backs, board, cards, data_table, header, seat_label, seat_list, seat_style, stats

from .board import SIDE_NAMES

CELL_WIDTH = 7
EMPTY = Text("       \n   ·   \n       ", style="dim")
LEGEND = Text.assemble(("( )", "bold"), " client  ", ("[ ]", "bold"), " server  digit: an Avatar's seat  ",
                       ("L1", "bold"), " Link of seat 1  ", ("#", "bold red"), " Firewall", style="dim")


def cell(tile: dict | None) -> Text:
    """Three lines of seven characters: connections as | and --, a Firewall as # in red, the
    node with the occupying Avatar's seat in its colour, a Link as L<seat>."""
    if tile is None:
        return EMPTY
    return _cell(frozenset(tile["connections"]), frozenset(w["side"] for w in tile["firewalls"]),
                 tile["avatar"]["seat"] if tile["avatar"] else None, tile["node"], tile["link"])


# A board redrawn after each action repeats almost all its cells, so each distinct cell is
# built once and shared (rich renders a Text without changing it, as the shared EMPTY shows).
@lru_cache(maxsize=4096)
def _cell(connections: frozenset, walled: frozenset, occupant: int | None, node: str, link: int | None) -> Text:
    def arm(side, line, blank):
        if side not in connections:
            return Text(blank)
        return Text("#" * len(line), style="bold red") if side in walled else Text(line, style="bright_white")

    left, right = ("(", ")") if node == "client" else ("[", "]")
    body = Text.assemble((left, "bold"), (" " if occupant is None else str(occupant),
                                          f"bold black on {seat_style(occupant)}"), (right, "bold"))
    mark = Text("  ") if link is None else Text(f"L{link}", style=f"bold {seat_style(link)}")
    return Text("\n").join([Text("   ") + arm(0, "|", " ") + Text("   "),
                            arm(3, "--", "  ") + body + arm(1, "--", "  "),
                            mark + Text(" ") + arm(2, "|", " ") + Text("   ")])


def span(values, size):
    """The squares from one before the first tile to one after the last, within the play area."""
    return range(max(0, min(values, default=size // 2) - 1), min(size, max(values, default=size // 2) + 2))


def grid(seen: dict) -> Table:
    """The play area around the tiles placed (empty rows and columns far from them left out)."""
    size, by_cell = seen["size"], {(t["x"], t["y"]): t for t in seen["tiles"]}
    xs, ys = span([x for x, _ in by_cell], size), span([y for _, y in by_cell], size)
    table = Table.grid()
    table.add_column(width=4, style="dim")
    for _ in xs:
        table.add_column(width=CELL_WIDTH, no_wrap=True)
    table.add_row("", *(Text(f"{x:^{CELL_WIDTH}}", style="dim") for x in xs))
    for y in ys:
        table.add_row(f"{y:>3}", *(cell(by_cell.get((x, y))) for x in xs))
    return table


def networks_table(seen: dict) -> Table:
    table = data_table("network", "tiles", "servers", "empty clients", "closed", "worth", "servers held",
                       title="Networks")
    for net in seen["networks"]:
        held = Text(", ").join(seat_label(int(s), f"seat {s}: {n}") for s, n in net["servers_held"].items())
        table.add_row(str(net["id"]), str(len(net["tiles"])), str(net["servers"]), str(net["empty_clients"]),
                      "closed" if net["closed"] else "open", Text(str(net["worth"]), style="bold"), held or cards([]))
    return table


def players_table(seen: dict) -> Table:
    table = data_table("seat", "Avatars", "reserve", "Links", "Firewalls", "tokens", "points", "tally",
                       title="Players (Avatars, Links and Firewalls by square x,y; tokens: Access Tokens left)")
    for p in seen["players"]:
        tally = p["tally"]
        table.add_row(seat_label(p["seat"]) + (Text(f" team {p['team']}") if p["team"] is not None else Text()),
                      cards(a for a in p["avatars"] if a), str(p["avatars_in_reserve"]), cards(p["links"]),
                      cards(f"{c} {SIDE_NAMES[s]}" for c, s in p["firewalls"]), str(p["access_tokens_left"]),
                      Text(str(p["network_points_now"]), style="bold") if p["network_points_now"] is not None else "-",
                      f"{tally['score']} ({tally['networks']}+{tally['bonus']} bonus)" if tally else "")
    return table


def turn_line(seen: dict) -> Text:
    if seen["over"]:
        return Text("")
    line = Text.assemble("turn of ", seat_label(seen["turn"]),
                         f", programs {seen['programs']}/3 {', '.join(seen['menu'])}".rstrip())
    if seen["hijack"]:
        line.append(f", hijacking seat {seen['hijack']['target']} ({seen['hijack']['programs']}/3)", style="red")
    if seen["final_round"]:
        line.append(", final round" + (" (this is a final turn)" if seen["final_turn"] else ""), style="bold yellow")
    last = seen["last_duel"]
    if last:
        outcome = "cancelled" if last.get("cancelled") else "succeeded" if last["success"] else "failed"
        line.append(f"\nlast hack: seat {last['seat']} on {last['target'].get('kind', 'a target')} — {outcome}",
                    style="dim")
    return line


def render(seen: dict, to_act=()):
    over, score = seen["over"], seen["puzzle_score"]
    if isinstance(score, dict):
        score = ", ".join(f"{key} {({True: 'yes', False: 'no'}).get(value, value)}" for key, value in score.items())
    duel = seen.get("cards")
    return board(
        header("HeroCard Cyberspace", "Engineering Puzzle" if seen["puzzle"] else f"turn {seen['turn_number']}",
               f"duels: {seen['duels']}" if seen["duels"] else None, "teams" if seen["teams"] else None,
               over=f"{over}, winners: {seat_list(seen['winners'])}" + (f"; puzzle score: {score}" if score else "")
               if over else None),
        grid(seen),
        LEGEND,
        stats(("stack", backs(seen["stack"], "tiles")), ("face up", ", ".join(seen["face_up"]) or "-"),
              ("waiting", ", ".join(seen["waiting"]) or None), ("drawn", seen["held"])),
        networks_table(seen) if seen["networks"] else None,
        players_table(seen),
        *((hero_panel(p, duel, f"seat {p['seat']}", active=p["seat"] in to_act, vp=False)
           for p in duel["players"]) if duel else ()),
        turn_line(seen),
    )
