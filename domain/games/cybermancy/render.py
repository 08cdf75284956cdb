"""Cybermancy's arena for terminals (`arbiter play`, `show`, `replay --boards`), drawn with rich:
a panel per Cybermancer with health, the CPU and RAM tracks, the Frontline and Main Area
creatures, and the Creature Hand (names for its owner, backs for everyone else)."""

from rich.text import Text

from domain.kernel.terminal import backs, board, cards, grid, header, seat_list, seat_panel, stats

from .cards import CREATURES


def name(card: str) -> str:
    return CREATURES[card]["name"] if card in CREATURES else card


def creature(c: dict) -> Text:
    """'Running Eagle 3/4' — health left in red when damaged, a status other than active dim."""
    left = c["health"] - c.get("damage", 0)
    text = Text.assemble((name(c["card"]), "bold"), " ", (str(c["attack"]), "yellow"), "/",
                         (str(left), "red" if c.get("damage") else "green"))
    if c.get("crawler"):
        text.append(" crawler", style="magenta")
    if c["status"] != "active":
        text.append(f" ({c['status']})", style="dim")
    return text


def row(creatures) -> Text:
    return Text(" │ ").join(creature(c) for c in creatures) if creatures else cards([])


def player_panel(player: dict, to_act):
    seat, hand = player["seat"], player["hand"]
    health = Text(str(player["health"]), style="bold red" if player["health"] <= 5 else "bold")
    body = grid(
        ("", stats(("health", health), ("CPU", f"{player['track']['cpu']} (pool {player['pool']['cpu']})"),
                   ("RAM", f"{player['track']['ram']} (pool {player['pool']['ram']})"),
                   ("deck", player["deck"]), ("graveyard", len(player["graveyard"])))),
        ("frontline", row(player["frontline"])),
        ("main", row(player["main"])),
        (f"hand {len(hand) if isinstance(hand, list) else hand}",
         cards(name(c) for c in hand) if isinstance(hand, list) else backs(hand)),
    )
    team = f" · team {player['team']}" if player.get("team") is not None else ""
    return seat_panel(seat, body, f"seat {seat}{team}", active=seat in to_act,
                      subtitle="OUT" if player["out"] else None)


def render(view: dict, to_act=()):
    prompt = view.get("prompt")
    winners = view.get("winners")
    return board(
        header(f"Cybermancy {view['mode']}", f"round {view['round']}", view["phase"],
               f"initiative seat {view['initiative']}", None if view.get("over") else f"seat {view['turn']}'s turn",
               over=f"{view['over']}, winners: {seat_list(winners)}" if view.get("over") else None),
        stats(("CPU deck", view["cpu_deck"]), ("RAM deck", view["ram_deck"]),
              ("draft pool", len(view["draft_pool"]) if view["draft_pool"] else None)),
        *(player_panel(player, to_act) for player in view["players"]),
        Text(f"waiting on seat {prompt['seat']}: {prompt['kind']}", style="bold yellow") if prompt else None,
    )
