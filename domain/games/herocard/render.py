"""HeroCard's play area for terminals (`arbiter play`, `show`, `replay --boards`), drawn with rich:
a panel per Hero with VP, each Attribute's free/score and its stack (a face-down Secret Card
another seat may not see is a back with its points), the hand (names for its owner, backs for
everyone else), deck and discard; then the Attack Sequence. Cyberspace's card duels reuse
`hero_panel`."""

from rich.console import Group
from rich.table import Table
from rich.text import Text

from domain.kernel.terminal import CARD_BACK, backs, board, cards, header, seat_panel, stats

from .cards import ATTRIBUTES, CARDS, HEROES

KIND_STYLE = {"attack": "red", "block": "blue", "action": "yellow"}


def card(card_id: str) -> Text:
    """'Cipher Lance [E base attack 5 · 3M]': the name coloured by kind (attack, block, action)."""
    c = CARDS[card_id]
    value = f" {c['value']:+d}" if c["kind"].endswith("mod") else f" {c['value']}" if "value" in c else ""
    style = next((s for k, s in KIND_STYLE.items() if k in c["kind"]), "")
    return Text.assemble((c["name"], f"bold {style}"),
                         (f" [{c['timing'][0].upper()} {c['kind'].replace('_', ' ')}{value} · "
                          f"{c['cost']}{c['attribute'][0].upper()}]", "dim"))


def stack_entry(entry: dict) -> Text:
    if not entry["card"]:
        return Text(f"{CARD_BACK} secret ({entry['cost']})", style="dim italic")
    return card(entry["card"]) + (Text(" face down", style="italic") if entry["face"] == "down" else Text())


def hero_panel(p: dict, seen: dict, name: str, active: bool = False, vp: bool = True):
    """One Hero: Attributes (title, free/score, stack, top last), then hand, deck and discard."""
    hero = HEROES[p["hero"]]
    table = Table.grid(padding=(0, 2))
    for column in ("attribute", "title", "free/score", "stack"):
        table.add_column(column, style="dim" if column == "attribute" else None, no_wrap=column != "stack")
    for attribute in ATTRIBUTES:
        free, score = p["free"][attribute], p["scores"][attribute]
        points = Text(f"{free}/{score}", style="bold green" if free == score else "bold yellow")
        if attribute in p["twisted"]:
            points.append(" TWISTED", style="bold red")
        stack = p["stacks"][attribute]
        table.add_row(seen["attribute_names"][attribute], hero["attributes"][attribute]["title"], points,
                      Text(" | ").join(stack_entry(e) for e in stack) if stack else cards([]))
    hand = p["hand"]
    held = Text(", ").join(card(c) for c in hand) if isinstance(hand, list) and hand else \
        backs(hand) if not isinstance(hand, list) else cards([])
    zones = Text.assemble(("hand  ", "dim"), held, "\n", stats(("deck", p["deck"]), ("discard", len(p["discard"]))))
    notes = [f"skips {p['skip_turns']} turn" if p.get("skip_turns") else "",
             f"prefers {p['preference']}" if p.get("preference") else ""]
    title = f"{name} · {hero['name']}" + (f" · {p['vp']} VP" if vp else "")
    return seat_panel(p["seat"], Group(table, zones), title, active=active,
                      subtitle=", ".join(n for n in notes if n) or None)


def sequence_line(seen: dict, names: list[str]) -> Text | None:
    sequence, result = seen["sequence"], seen.get("last_result")
    if sequence:
        played = Text(", ").join(Text(f"{names[e['seat']]}: ") + card(e["card"]) if e.get("card")
                                 else Text(f"{names[e['seat']]}: {CARD_BACK}") for e in sequence["played"])
        return Text.assemble(("Attack Sequence ", "bold red"),
                             f"{names[sequence['owner']]} attacks {names[sequence['target']]}: ",
                             stats(("attack", sequence["attack_value"]), ("block", sequence["block_value"])),
                             (" (duplicate)" if sequence.get("duplicate") else ""), "\n  active cards: ",
                             played or cards([]))
    if result:
        return Text(f"Last attack: {names[result['owner']]} {result['attack']} vs {result['block']} — "
                    + ("succeeded" if result["success"] else "failed"), style="dim")
    return None


def render(seen: dict, to_act=()):
    names, turn = seen["names"], seen["turn"]
    pending, over = seen["pending"], seen["over"]
    return board(
        header("HeroCard", f"turn {turn['number']}", f"{names[turn['active']]}'s {turn['phase']} phase",
               f"goal {seen['goal']} VP", "teams" if seen["teams"] else None,
               over=f"{over}: " + (", ".join(names[w] for w in seen["winners"]) or "no winner") if over else None),
        *(hero_panel(p, seen, names[p["seat"]], active=p["seat"] in to_act)
          for p in seen["players"]),
        sequence_line(seen, names),
        Text(f"{names[pending['seat']]} must discard {pending['count']} {pending['of']} card(s)", style="bold yellow")
        if pending else None,
    )
