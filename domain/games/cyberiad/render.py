"""Cyberiad's board as text for terminals (`arbiter play`, `show`, `replay --boards`)."""


def render(view: dict) -> str:
    turn = view.get("turn") or {}
    lines = [f"Cyberiad — {view['phase']}, turn {turn.get('number', '-')} (seat {turn.get('seat', '-')} to play), "
             f"deck {view['deck']}, discard {len(view['discard'])}"
             + (f", top: {view['discard'][-1]}" if view["discard"] else "")]
    for player in view["players"]:
        marker = ">" if player["seat"] == turn.get("seat") else " "
        hand = player["hand"]
        status = ", ".join(label for label, on in (("OUT", player["out"]), ("shielded", player["shielded"]),
                                                   (f"imprisoned {player['imprisoned']}", player["imprisoned"])) if on)
        lines.append(f"{marker} seat {player['seat']} {player['constructor'] or '(no Constructor)'}: "
                     f"FP {player['fame']}  TP {player['trouble']}  Sallies {player['sallies']}  "
                     f"tokens F{player['tokens']['fame']} T{player['tokens']['trouble']} G{player['tokens']['genius']}"
                     + (f"  [{status}]" if status else ""))
        lines.append(f"    in play: {', '.join(player['in_play']) or '-'}")
        lines.append(f"    hand ({len(hand) if isinstance(hand, list) else hand}/{player['hand_limit']}): "
                     + (", ".join(hand) if isinstance(hand, list) else "hidden"))
    if view.get("prompt"):
        lines.append(f"  waiting on seat {view['prompt'].get('seat')}: {view['prompt'].get('kind', 'a choice')}")
    if view.get("over"):
        lines.append(f"  game over: {view['over']}")
    return "\n".join(lines)
