"""Small shared pieces for drawing a game's view in a terminal with rich (each game's
render.py builds its own board from them): seat colours, card backs for what the view hides,
a seat's panel and a line of labelled numbers.

A renderer receives only a view, so it can never draw more than the seat may see: anything
hidden reaches it as a count (an int, or {"count": n}) and is drawn as backs."""

import io

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SEAT_COLOURS = ("cyan", "magenta", "yellow", "green", "blue", "red")
CARD_BACK = "▒"
MAX_BACKS = 10  # more hidden cards than this are drawn as ten backs and "…"


def seat_style(seat: int | None) -> str:
    return "white" if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_label(seat: int | None, name: str | None = None) -> Text:
    """'seat 2' (or a name) in the seat's colour; a spectator is 'spectator'."""
    label = "spectator" if seat is None else (name or f"seat {seat}")
    return Text(label, style=f"bold {seat_style(seat)}")


def seat_list(seats, none: str = "none") -> str:
    """'seat 1, seat 3' (or `none`) for a list of seats, such as the winners."""
    return ", ".join(f"seat {seat}" for seat in seats or []) or none


def count_of(hidden) -> int:
    """How many things a view holds in a zone, whether shown (a list) or hidden (an int or {"count": n})."""
    if isinstance(hidden, dict):
        return int(hidden.get("count", 0))
    return len(hidden) if isinstance(hidden, list) else int(hidden or 0)


def backs(hidden, noun: str = "cards") -> Text:
    """A hidden zone as card backs and its size: '▒▒▒ 3 cards' (or '▒▒▒▒▒▒▒▒▒▒… 14 cards')."""
    n = count_of(hidden)
    drawn = CARD_BACK * min(n, MAX_BACKS) + ("…" if n > MAX_BACKS else "")
    noun = noun[:-1] if n == 1 and noun.endswith("s") else noun
    return Text.assemble((drawn, "dim"), " " if n else "", (f"{n} {noun}", "italic dim"))


def cards(names, empty: str = "-", style: str = "") -> Text:
    """Names shown to this seat, comma separated (or `empty`)."""
    names = list(names)
    return Text(", ".join(names), style=style) if names else Text(empty, style="dim")


def stats(*pairs, sep: str = "  ") -> Text:
    """'life 23  deck 18': labels dim, values bold; a pair whose value is None is left out."""
    text = Text()
    for label, value in pairs:
        if value is None:
            continue
        if text:
            text.append(sep)
        text.append(f"{label} ", style="dim")
        text.append(value if isinstance(value, Text) else Text(str(value), style="bold"))
    return text


def seat_panel(seat: int, body: RenderableType, title: Text | str, active: bool = False,
               subtitle: str | None = None) -> Panel:
    """One seat's area, bordered in its colour; the seat to act gets a heavy border and '▶'."""
    heading = Text.assemble(("▶ " if active else "", "bold"),
                            title if isinstance(title, Text) else Text(title, style=f"bold {seat_style(seat)}"))
    return Panel(body, title=heading, title_align="left", subtitle=subtitle, subtitle_align="right",
                 border_style=("bold " if active else "") + seat_style(seat),
                 box=box.HEAVY if active else box.ROUNDED, expand=True)


def grid(*rows, pad: int = 2) -> Table:
    """Rows of cells without borders (a label column then values), for a panel's body."""
    table = Table.grid(padding=(0, pad))
    width = max((len(row) for row in rows), default=1)
    for index in range(width):
        table.add_column(style="dim" if index == 0 else None, no_wrap=index == 0)
    for row in rows:
        table.add_row(*row)
    return table


def data_table(*columns: str, title: str | None = None) -> Table:
    """A table of rows of data (groups, networks, the stack): a header line, no boxes, and
    long cells folded rather than cut, so it reads on an 80-column terminal."""
    table = Table(*columns, title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD)
    for column in table.columns:
        column.overflow = "fold"
    return table


def header(*parts, over=None) -> Text:
    """The board's first line: parts joined by ' · ', and 'GAME OVER …' in red when over."""
    text = Text(" · ").join(part if isinstance(part, Text) else Text(str(part)) for part in parts if part)
    text.stylize("bold")
    if over:
        text.append("  GAME OVER ", style="bold white on red")
        text.append(f" {over}", style="bold red")
    return text


def board(*parts) -> Group:
    """A whole board: the parts one under another (None and empty lines are left out)."""
    return Group(*(part for part in parts if part is not None and not (isinstance(part, Text) and not part.plain)))


def plain_text(renderable: RenderableType, width: int = 120) -> str:
    """A drawn board as the plain text a terminal of `width` columns would show (for tests,
    logs and piping)."""
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


# A tile's connections as one box-drawing character: the sides it is open to, after rotation.
SIDES = ("north", "east", "south", "west")
GLYPHS = {frozenset(): "·", frozenset({"north"}): "╵", frozenset({"east"}): "╶", frozenset({"south"}): "╷",
          frozenset({"west"}): "╴", frozenset({"north", "south"}): "│", frozenset({"east", "west"}): "─",
          frozenset({"north", "east"}): "└", frozenset({"east", "south"}): "┌", frozenset({"south", "west"}): "┐",
          frozenset({"north", "west"}): "┘", frozenset({"north", "east", "south"}): "├",
          frozenset({"east", "south", "west"}): "┬", frozenset({"north", "south", "west"}): "┤",
          frozenset({"north", "east", "west"}): "┴", frozenset(SIDES): "┼"}


def connections_glyph(connections) -> str:
    """'└' for a tile open to the north and east: the sides (names, or their first letters
    N/E/S/W) drawn as one box-drawing character, so a tile's shape reads at a glance."""
    sides = set()
    for side in connections or []:
        side = str(side).lower()
        sides |= {name for name in SIDES if name == side or name[0] == side}
    return GLYPHS[frozenset(sides)]


def rotated(connections, quarter_turns: int) -> list[str]:
    """The sides a tile is open to after turning it clockwise `quarter_turns` times."""
    sides = [name for name in SIDES for side in connections or [] if str(side).lower() in (name, name[0])]
    return [SIDES[(SIDES.index(side) + quarter_turns) % 4] for side in sides]
