"""Cyberiad's board for terminals (`arbiter play`, `show`, `replay --boards`), drawn with rich:
the deck and discard, then a panel per Constructor with Fame, Trouble, tokens, cards in play
and the hand (names for its owner, backs for everyone else)."""

from rich.text import Text

from domain.kernel.terminal import backs, board, cards, grid, header, seat_panel, stats

from .cards import CARDS, CONSTRUCTORS, card_of

TYPE_STYLE = {"sally": "green", "machine": "cyan", "effect": "magenta", "action": "yellow"}


def card(instance: str) -> Text:
    data = CARDS[card_of(instance)]
    return Text.assemble((data["name"], TYPE_STYLE[data["type"]]), (f" ({data['cost']})", "dim"))


def card_list(instances) -> Text:
    return Text(", ").join(card(i) for i in instances) if instances else cards([])


def player_panel(player: dict, to_act: list):
    seat = player["seat"]
    constructor = CONSTRUCTORS[player["constructor"]]["name"] if player["constructor"] else "(no Constructor yet)"
    status = [label for label, on in (("OUT", player["out"]), ("shielded", player["shielded"]),
                                      (f"imprisoned {player['imprisoned']}", player["imprisoned"])) if on]
    hand = player["hand"]
    body = grid(
        ("score", stats(("FP", player["fame"]), ("TP", player["trouble"]), ("Sallies", player["sallies"]),
                        ("  tokens: fame", player["tokens"]["fame"]), ("trouble", player["tokens"]["trouble"]),
                        ("genius", player["tokens"]["genius"]))),
        ("in play", card_list(player["in_play"])),
        (f"hand {len(hand) if isinstance(hand, list) else hand}/{player['hand_limit']}",
         card_list(hand) if isinstance(hand, list) else backs(hand)),
    )
    return seat_panel(seat, body, f"seat {seat} · {constructor}", active=seat in to_act,
                      subtitle=", ".join(status) or None)


def render(view: dict, to_act=()):
    turn = view.get("turn") or {}
    top = view["discard"][-1] if view["discard"] else None
    prompt = view.get("prompt")
    return board(
        header("Cyberiad", view["phase"], f"turn {turn.get('number', '-')}",
               # whose turn it is, not who is asked: a prompt may ask another seat (line below)
               None if view.get("over") else f"seat {turn.get('seat', '-')}'s turn",
               over=view.get("over")),
        stats(("deck", backs(view["deck"])), ("discard", len(view["discard"])),
              ("top", card(top) if top else None)),
        *(player_panel(player, to_act) for player in view["players"]),
        Text(f"waiting on seat {prompt.get('seat')}: {prompt.get('kind', 'a choice')}", style="bold yellow")
        if prompt else None,
    )
