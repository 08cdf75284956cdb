"""Cybermancy's arena as text for terminals (`arbiter play`, `show`, `replay --boards`)."""


def creature(c: dict) -> str:
    damage = f"-{c['damage']}" if c.get("damage") else ""
    return f"{c['card']} {c['attack']}/{c['health']}{damage}" + ("" if c["status"] == "active" else f" ({c['status']})")


def render(view: dict) -> str:
    lines = [f"Cybermancy {view['mode']} — round {view['round']}, {view['phase']}, initiative seat "
             f"{view['initiative']}, seat {view['turn']} to act"]
    for player in view["players"]:
        marker = ">" if player["seat"] == view["turn"] else " "
        team = f" team {player['team']}" if player.get("team") is not None else ""
        hand = player["hand"]
        lines.append(f"{marker} seat {player['seat']}{team}: health {player['health']}"
                     f"{'  OUT' if player['out'] else ''}   CPU {player['track']['cpu']} (pool {player['pool']['cpu']})"
                     f"  RAM {player['track']['ram']} (pool {player['pool']['ram']})   deck {player['deck']}"
                     f"  graveyard {len(player['graveyard'])}")
        lines.append(f"    frontline: {' | '.join(creature(c) for c in player['frontline']) or '-'}")
        lines.append(f"    main:      {' | '.join(creature(c) for c in player['main']) or '-'}")
        lines.append(f"    hand ({len(hand) if isinstance(hand, list) else hand}): "
                     + (", ".join(hand) if isinstance(hand, list) else "hidden"))
    if view.get("over"):
        lines.append(f"  game over: {view['over']}")
    return "\n".join(lines)
