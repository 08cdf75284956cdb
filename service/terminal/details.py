"""Cards and tiles as a player needs them to decide: the game's catalog (`details`, from
domain/games/<game>/words.py, or GET /v1/games/{game}/catalog) as one line each — cost, stats,
rules text — and tiles drawn with their connections at each rotation."""

import re

from rich.table import Table
from rich.text import Text

from domain.kernel.terminal import connections_glyph, data_table

STATS = ("cost", "cpu", "ram", "attack", "health", "power", "defense", "fame", "trouble", "value", "speed",
         "attribute", "timing", "element", "faction", "level", "node")
LABELS = {"cpu": "CPU", "ram": "RAM", "fame": "FP", "trouble": "TP"}
INSTANCE = re.compile(r"^(.+?)[#:~][^#:~]*$")  # "Rift Dryad#23", "gnostotron:2": a card's copy


class Catalog:
    def __init__(self, entries: list[dict]):
        self.entries = {entry["id"]: entry for entry in entries if isinstance(entry, dict) and "id" in entry}

    def lookup(self, value) -> dict | None:
        if not isinstance(value, str):
            return None
        if value in self.entries:
            return self.entries[value]
        copy = INSTANCE.match(value)
        return self.entries.get(copy.group(1)) if copy else None

    def name_of(self, value) -> str | None:
        found = self.lookup(value)
        return found["name"] if found else None

    def named_in(self, value, found: dict | None = None) -> dict:
        """Every catalog entry a value (a view, an action) names, by id, in the order met."""
        found = {} if found is None else found
        if isinstance(value, dict):
            for inner in value.values():
                self.named_in(inner, found)
        elif isinstance(value, list):
            for inner in value:
                self.named_in(inner, found)
        else:
            entry = self.lookup(value)
            if entry:
                found.setdefault(entry["id"], entry)
        return found


def stats_line(entry: dict) -> str:
    """'creature · CPU 1 · RAM 1 · attack 1 · health 1' for one entry."""
    parts = [str(entry.get("kind", ""))]
    for name in STATS:
        if entry.get(name) not in (None, "", []):
            parts.append(f"{LABELS.get(name, name)} {entry[name]}")
    if isinstance(entry.get("scores"), dict):
        parts.append(", ".join(f"{k} {v}" for k, v in entry["scores"].items()))
    return " · ".join(part for part in parts if part)


def tile_shapes(entry: dict) -> str:
    """A tile at each rotation: '0 ╵  1 ╶  2 ╷  3 ╴' (only the distinct shapes)."""
    rotations = entry.get("rotations")
    if not isinstance(rotations, dict):
        return connections_glyph(entry.get("connections"))
    shapes, seen = [], set()
    for rotation, sides in sorted(rotations.items(), key=lambda pair: str(pair[0])):
        glyph = connections_glyph(sides)
        if glyph not in seen:
            seen.add(glyph)
            shapes.append(f"rot {rotation} {glyph}")
    return "  ".join(shapes)


def table(entries, title: str) -> Table:
    shown = data_table("name", "what", "text", title=title)
    for entry in entries:
        what = stats_line(entry)
        if "rotations" in entry or "connections" in entry:
            what += f" · {tile_shapes(entry)}"
        shown.add_row(Text(entry["name"], style="bold"), what, entry.get("text", ""))
    return shown


def brief(entries) -> list[Text]:
    """One line a card or tile: 'Airswipe  Base Block · cost 4 · value 5 — Block 5.'"""
    lines, seen = [], set()
    for entry in entries:
        what = stats_line(entry)
        name = entry["name"]
        if "rotations" in entry or "connections" in entry:
            what += f" · {tile_shapes(entry)}"
            name = f"{entry['id']} {name}"  # boards name tiles by id ("face up t04")
        if (name, what) in seen:
            continue  # two copies of one card (two "2 CPU card"s) read as one line
        seen.add((name, what))
        lines.append(Text.assemble(("  " + name, "bold"), "  ", (what, "dim"), " — ", entry.get("text", "")))
    return lines
