"""A player leaving the match, and the move of a player whose clock ran out: the kernel's
optional `resign` and `default_action` hooks (README 16, 17).

The rulebook eliminates a Cybermancer in one way, at 0 health; in Multiplayer and Team mode
play goes on "until one Team has had both players eliminated" (README 11: the player is out
at once and their creatures leave play with them). A player who resigns, or whose clock runs
out with the effect "elimination", is eliminated the same way, at once.
"""

from .rules import Turn, _check_end, new_round
from .rules_keywords import run_pending
from .rules_state import DECK_SIZE, creature_ids, living, next_living, order_from


class NoRandomness:
    """Leaving is decided from the state alone (the kernel gives `resign` no random stream).
    The two steps that draw at random (the draft's end, the round's end) are owed to the
    next player's `proceed` instead; should any other path ever draw, it fails loudly here
    rather than decide facts the audit could not re-derive."""

    def __getattr__(self, name):
        raise RuntimeError(f"a resignation may not draw at random (rng.{name})")


def resign(state, seat):
    """The facts that eliminate `seat` as a Cybermancer at 0 is eliminated, and pass play on."""
    if state["over"] or state["players"][seat]["out"]:
        return []
    turn = Turn(state, NoRandomness())
    st = turn.state
    pending = list(st["pending"])
    turn.emit({"f": "out", "seat": seat})
    for uid in creature_ids(st, seat):  # removed with the player: no Crawler, no Last Gasp
        turn.emit({"f": "destroyed", "uid": uid})
    if st["prompt"]:  # asked again below, with the options the board now offers
        turn.emit({"f": "prompt", "prompt": None})
        turn.emit({"f": "pending", "steps": []})
    _check_end(turn)
    if st["over"]:
        return turn.facts
    _pass_on(turn, seat)
    # Effects still to resolve go on, but the leaver's own (their Call-to-arms, Last Gasp,
    # Promote) lapse with them.
    run_pending(turn, [step for step in pending if step["seat"] != seat])
    return turn.facts


def _pass_on(turn, seat):
    """Play goes on as if the leaver had ended their turn, where it was theirs."""
    st = turn.state
    if st.get("owed") and st["owed"]["seat"] == seat:
        turn.emit({"f": "owed", "owed": {**st["owed"], "seat": next_living(st, seat)}})
        return
    if st["phase"] == "main":
        if st["turn"] != seat:
            if _passed_in_the_run(st, seat):  # only players still in count (README 2, 16)
                turn.emit({"f": "passes", "count": st["passes"] - 1})
            return
        if st["passes"] >= len(living(st)):  # everyone still in has passed in a row (README 2)
            turn.emit({"f": "phase", "phase": "last_summon", "queue": order_from(st, st["initiative"])})
        else:
            turn.emit({"f": "turn", "seat": next_living(st, seat)})
        return
    if seat not in st["queue"]:
        return
    queue = [s for s in st["queue"] if s != seat]
    if st["phase"] == "draft":
        queue = [] if _drafted(st) else [next_living(st, seat)]
    turn.emit({"f": "queue", "queue": queue})
    if queue:
        return
    if st["phase"] == "mulligan":
        turn.emit({"f": "round", "number": 1, "initiative": order_from(st, st["first"])[0]})
    elif st["phase"] == "advance":
        new_round(turn)
    else:  # the draft's end shuffles the decks; the round's end may shuffle the used power cards
        first = order_from(st, st["first"] if st["phase"] == "draft" else st["initiative"])[0]
        step = "end_of_draft" if st["phase"] == "draft" else "end_of_round"
        turn.emit({"f": "owed", "owed": {"seat": first, "step": step}})


def _passed_in_the_run(st, leaver):
    """Whether the leaver's last turn was one of the passes in a row before the current turn:
    the run is the last `passes` turns, taken by the players still in and the leaver."""
    current, left = st["turn"], st["passes"]
    while left:
        current = (current - 1) % st["seats"]
        if current == leaver:
            return True
        if not st["players"][current]["out"]:
            left -= 1
    return False


def _drafted(st):
    """Every deck of a player still in is complete (Draft Mode: "a deck of 30 cards")."""
    return all(len(st["players"][s]["deck"]) == DECK_SIZE for s in living(st))


def default_action(state, seat):
    """The least consequential legal move: the first option of a choice, keep the opening
    cards, the first card of the draft, the track the rulebook advises, or end the turn."""
    if state["prompt"]:
        return {"type": "choose", "option": state["prompt"]["options"][0]}
    if state.get("owed"):
        return {"type": "proceed"}
    phase = state["phase"]
    if phase == "draft":
        player = state["players"][seat]
        return {"type": "draft", "card": min(set(state["draft_pool"]) - set(player["deck"]))}
    if phase == "mulligan":
        return {"type": "mulligan", "creatures": [], "cpu": [], "ram": []}
    if phase == "advance":
        # "you should focus on advancing RAM first, then CPU": RAM, unless it is ahead of CPU.
        track = state["players"][seat]["track"]
        return {"type": "advance", "track": "ram" if track["ram"] <= track["cpu"] else "cpu"}
    return {"type": "end_turn"}

