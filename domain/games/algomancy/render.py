"""Algomancy's battlefield for terminals (`arbiter play`, `show`, `replay --boards`), drawn with
rich: the turn and step, a table of the players (life, resources, what each holds: names for
the holder, backs for everyone else), then each region's units, spell tokens and formations
(defenders' rows facing the attackers'), and the stack."""

from collections import Counter

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from domain.kernel.terminal import (backs, board, cards, count_of, data_table, grid, header, seat_label, seat_panel,
                                    seat_style, stats)

from .cards import name_of


def held(zone, noun="cards") -> Text:
    """A zone of cards: their names for the seat who may see them, else backs and a count."""
    if isinstance(zone, list):
        return cards(name_of(c if isinstance(c, str) else c["id"]) for c in zone)
    return backs(zone, noun)


def grouped(kinds, spent=()) -> Text:
    """'Molten Caldera ×3 (1 expended), Shard'."""
    counts, spent = Counter(kinds), Counter(spent)
    return cards(f"{kind}" + (f" ×{n}" if n > 1 else "") + (f" ({spent[kind]} expended)" if spent[kind] else "")
                 for kind, n in sorted(counts.items()))


def player_panel(seen: dict, seat: int, player: dict):
    """Life, resources in play (public), dormant resources, hand and pack (seen by their holder
    only), deck and bin."""
    deck = seen["decks"].get(player["deck"]) if isinstance(player["deck"], str) else None
    dormant = player["dormant"]
    rows = [("resources", grouped([r["kind"] for r in player["resources"]],
                                  [r["kind"] for r in player["resources"] if r["expended"]])),
            ("dormant", grouped(r["kind"] for r in dormant) if isinstance(dormant, list) else backs(dormant)),
            ("hand", held(player["hand"]))]
    if count_of(player["pack"]):
        rows.append(("pack", held(player["pack"])))
    rows.append(("", stats(("deck", deck["count"] if deck else None), ("bin", len(player["bin"])),
                           ("activations", player.get("activations")))))
    life = Text("OUT", style="bold red") if player["out"] else Text(f"{player['life']} life", style="bold")
    title = Text.assemble(seat_label(seat, f"p{seat}"), f" · team {seen['team'][seat]} · home {seen['home'][seat]} · ",
                          life)
    acting = seat in (seen["step"] or {}).get("seats", []) and not seen["over"]
    return seat_panel(seat, grid(*rows), title, active=acting)


def unit(uid: str, u: dict) -> Text:
    number = uid[len(u["name"]):] if uid.startswith(u["name"]) else ""
    text = Text.assemble((u["name"], f"bold {seat_style(u['controller'])}"), (number, "dim"), " ",
                         (f"{u['power']}/{u['defense']}", "bold"))
    if u["damage"]:
        text.append(f" dmg {u['damage']}", style="red")
    if u["attributes"]:
        text.append(" " + " ".join(u["attributes"]), style="italic")
    if u["mods"]:
        text.append(f" mods[{', '.join(u['mods'])}]", style="magenta")
    if u["token"]:
        text.append(" token", style="dim")
    return text


def formation(f: dict, units: dict) -> Table:
    """The defenders' back and front rows facing the attackers' front and back rows, one
    column per attacking column."""
    blocks = f["blocks"] or []
    width = max(len(f["columns"]), len(blocks), 1)
    table = Table(show_header=False, expand=False)
    table.add_column(style="dim")
    for _ in range(width):
        table.add_column(min_width=12)

    def row(side, index):
        side = side + [[]] * (width - len(side))
        return [unit(c[index], units[c[index]]) if index < len(c) and c[index] in units else Text("·", style="dim")
                for c in side]
    for label, side, index in (("def back", blocks, 1), ("def front", blocks, 0), ("att front", f["columns"], 0),
                               ("att back", f["columns"], 1)):
        table.add_row(label, *row(side, index))
    return table


def region_panel(seen: dict, region: str | None):
    units = seen["shown_units"]
    here = [unit(uid, u) for uid, u in units.items() if u["region"] == region]
    tokens = [f"{t} (p{v['controller']}, X={v['x']})" for t, v in seen["spell_tokens"].items() if v["region"] == region]
    parts = [Text("\n").join(here) if here else Text("no units", style="dim")]
    if tokens:
        parts.append(Text("spell tokens: " + ", ".join(tokens), style="cyan"))
    for f in (seen["battle"] or {}).get("formations", []):
        if f["region"] == region:
            parts += [Text(f"formation {f['id']}: p{f['attacker']} attacks p{f['defender']}"
                           + ("" if f["blocks"] is not None else " (blocks not declared)"), style="bold"),
                      formation(f, units)]
    owners = [f"p{s}" for s, home in enumerate(seen["home"]) if home == region]
    title = f"region {region} ({', '.join(owners)})" if region else "in transit"
    window = seen["window"]
    active = window is not None and window["region"] == region
    return Panel(board(*parts), title=title, title_align="left", border_style="bold yellow" if active else "dim")


def targets(chosen) -> str:
    if isinstance(chosen, dict):
        return ", ".join(f"{key} {targets(value)}" for key, value in chosen.items()) or "-"
    if isinstance(chosen, list):
        return ", ".join(targets(value) for value in chosen) or "-"
    return "-" if chosen is None else str(chosen)


def stack_table(seen: dict) -> Table:
    table = data_table("id", "what", "by", "targets", title="Stack (top first)")
    for item in reversed(seen["stack"]):
        what = name_of(item["card"]) if item["card"] else f"{item['kind']} of {item['source']}"
        table.add_row(item["id"], what, seat_label(item["controller"], f"p{item['controller']}"),
                      targets(item["targets"]))
    return table


def choice_line(choice: dict) -> Text:
    """An effect resolving, or combat damage, waits for a player's choice: who, what, among what."""
    what = choice["kind"] + (f" on {choice['key']}" if choice.get("key") else "")
    options = ", ".join(str(o) for o in choice.get("options") or [])
    who = f"p{choice['queue'][0]}" if choice.get("queue") else "a player"
    return Text(f"waiting for {who} to choose ({what})" + (f": {options}" if options else ""),
                style="bold yellow")


def render(seen: dict, to_act=()):
    step, window, choice = seen["step"] or {}, seen["window"], seen.get("choice")
    where = f" in {window['region']} ({window['stage']})" if window else ""
    regions = sorted(set(seen["home"]))
    if any(u["region"] is None for u in seen["shown_units"].values()):
        regions.append(None)
    return board(
        header("Algomancy", seen["setup"], seen["format"], f"turn {seen['turn']}/{seen['turn_limit']}",
               f"initiative p{seen['initiative']}", over=seen["over"]),
        Text.assemble(("step ", "dim"), (f"{step.get('k', '-')}{where}", "bold"), ("  then ", "dim"),
                      " › ".join(seen["script"][:6]) or "-"),
        stats(("elements", ", ".join(seen["elements"]) or None),
              ("cube round", f"{seen['cube']['round']}/{seen['cube']['rounds']}" if seen["cube"] else None)),
        *(player_panel(seen, seat, player) for seat, player in enumerate(seen["players"])),
        *(region_panel(seen, region) for region in regions),
        stack_table(seen) if seen["stack"] else None,
        choice_line(choice) if choice else None,
    )
