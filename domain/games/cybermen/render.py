"""Cybermen's map for terminals (`arbiter play`, `show`, `replay --boards`), drawn with rich:
the map in colour (buildings, hedges, exits, Cyberconversion Units, each human group by its
seat's digit and colour, each Cyberman an arrow where it faces), then a table of the groups
(item cards named for their holder, backs for everyone else) and one of the Cybermen."""

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from domain.kernel.terminal import backs, board, cards, data_table, header, seat_list, seat_style, stats

from .data import COLS, DATA, MARKS, ROWS, character

ARROWS = {"N": "▲", "E": "▶", "S": "▼", "W": "◀"}
TERRAIN = {".": ("·", "dim"), "B": ("█", "grey50"), "H": ("♣", "green"), "E": ("E", "bold bright_white on blue")}
ROLE_STYLE = {"normal": "bold bright_white", "leader": "bold red", "lieutenant": "bold yellow",
              "partial": "bold orange3"}
LEGEND = Text.assemble(("█", "grey50"), " building  ", ("♣", "green"), " hedge  ", ("E", "bold"), " exit  ",
                       ("U", "bold red"), " Cyberconversion Unit  ", ("0-5", "bold"), " human group  ",
                       ("▲▶▼◀", "bold"), " Cyberman facing (", ("leader", "red"), ", ", ("lieutenant", "yellow"), ")")


def map_text(seen: dict) -> Text:
    cells = [[TERRAIN[seen["map"][r][c]] for c in range(COLS)] for r in range(ROWS)]
    for pos in seen["units"].values():
        cells[pos[0]][pos[1]] = ("U", "bold red")
    for s, group in enumerate(seen["groups"]):
        if group["members"]:
            cells[group["pos"][0]][group["pos"][1]] = (str(s), f"bold black on {seat_style(s)}")
    for cyb in seen["cybermen"].values():
        r, c = cyb["pos"]
        if cells[r][c][0] != "U":
            cells[r][c] = (ARROWS[cyb["facing"]], ROLE_STYLE[cyb["role"]])
    text = Text("    " + " ".join(f"{c % 10}" for c in range(COLS)) + "\n", style="dim")
    for r, row in enumerate(cells):
        text.append(f"{r:>3} ", style="dim")
        text.append_text(Text(" ").join(Text(glyph, style=style) for glyph, style in row))
        text.append("\n")
    text.rstrip()
    return text


def groups_table(seen: dict) -> Table:
    table = data_table("group", "status", "members", "escape", "fatigue", "VP", "items", "flags", title="Human groups")
    for s, g in enumerate(seen["groups"]):
        hand = g["hand"]
        items = cards(DATA["item_names"].get(c, c) for c in hand) if isinstance(hand, list) else backs(hand)
        flags = [f for f in ("stunned", "mind") if g[f]] + ([f"injured {g['injured']}"] if g["injured"] else [])
        table.add_row(Text.assemble((f"{s} ", f"bold black on {seat_style(s)}"), " ", (g["name"], seat_style(s))),
                      f"{g['status']} at {g['pos'][0]},{g['pos'][1]}",
                      cards(character(c)["name"] for c in g["members"]), str(g["escape"]), str(g["fatigue"]),
                      Text(str(g["vp"]), style="bold"), items, ", ".join(flags))
    return table


def cybermen_table(seen: dict) -> Table:
    table = data_table("id", "mark", "at", "facing", "role", "carrying", title="Cybermen")
    for cid, cyb in sorted(seen["cybermen"].items(), key=lambda kv: int(kv[0][1:])):
        role = "" if cyb["role"] == "normal" else f"{cyb['role']} of seat {cyb['seat']}"
        table.add_row(cid, MARKS[cyb["mark"]]["name"], f"{cyb['pos'][0]},{cyb['pos'][1]}", ARROWS[cyb["facing"]],
                      Text(role, style=ROLE_STYLE[cyb["role"]]),
                      cards(f"{character(c)['name']} of seat {character(c)['seat']}" for c in cyb["carrying"]))
    return table


def side_by_side(left, right) -> Table:
    layout = Table.grid(padding=(0, 2))
    layout.add_row(left, right)
    return layout


def render(seen: dict, to_act=()):
    prompt, over = seen["prompt"], seen["over"]
    return board(
        header("Cybermen", f"round {seen['round']}", None if over else f"seat {seen['turn']}'s turn", seen["phase"],
               over=f"{over}, winners: {seat_list(seen['winners'])}" if over else None),
        stats(("Cybermen", MARKS[seen["mark"]]["name"]), ("leader", seen["leader"] or "-"),
              ("lieutenants", ", ".join(seen["lieutenants"]) or "-"), ("roll", seen["roll"]),
              ("item deck", backs(seen["deck"])),
              ("discard", ", ".join(DATA["item_names"].get(c, c) for c in seen["discard"]) or "-")),
        side_by_side(Panel(map_text(seen), title="map", title_align="left", expand=False),
                     cybermen_table(seen) if seen["cybermen"] else Text("no Cybermen on the map", style="dim")),
        LEGEND,
        groups_table(seen),
        Text(f"waiting on seat {prompt.get('seat')}: {prompt.get('kind')}", style="bold yellow") if prompt else None,
    )
