"""A player leaving the match, and the move of a player whose clock ran out: the kernel's
optional `resign` and `default_action` hooks (README 26, 27).

The rulebook puts a player out in one way: "Any player that accumulates 20 or more Trouble
points automatically loses"; their turns are skipped, their cards stay, and play goes on
until one player is left (README 21). A player who resigns, or whose clock runs out with
the effect "elimination", is put out the same way, at once.
"""

from .cards import CONSTRUCTORS
from .rules import Turn, _next_picker, first_turn_seat, next_turn, run_steps, settle, start_turn

# Prompts whose options are players: a player who left can no longer be chosen.
SEAT_CHOICES = ("target_opponent", "target_player")


class NoRandomness:
    """Leaving is decided from the state alone (the kernel gives `resign` no random stream).
    Every path below is deterministic; should one ever draw at random, it fails loudly here
    instead of deciding facts the audit could not re-derive."""

    def __getattr__(self, name):
        raise RuntimeError(f"a resignation may not draw at random (rng.{name})")


def resign(state, seat):
    """The facts that put `seat` out of the game as if it had lost, and pass play on."""
    if state["over"] or state["out"][seat]:
        return []  # already out by the rules (20+ TP): nothing more to do
    turn = Turn(state, NoRandomness())
    st = turn.state
    prompt = st["prompt"]
    turn.emit({"f": "out", "seat": seat})
    settle(turn)  # one player left wins (README 21)
    if st["over"]:
        return turn.facts
    if st["phase"] == "pick":
        if _next_picker(st) is None:  # the player who left was the last to pick
            start_turn(turn, first_turn_seat(st))
    elif st["turn"]["seat"] == seat:
        # Like a player who goes out on their own turn (README 21): the rest of any effect
        # lapses and the next turn begins. The shuffle owed to a deck search is not made:
        # the search showed its cards in id order, never the deck's order, and the only
        # player who saw them has left.
        if prompt:
            turn.emit({"f": "prompt", "prompt": None})
        next_turn(turn)
    elif prompt and prompt["seat"] == seat:
        # Another player's effect asked the leaver (a discard, a Council of War offer): it
        # goes on without them, as it does for a player out (README 16, 21). A shuffle owed to
        # a deck search cannot be made here, as above (an Electroknight's Sally asking the
        # leaver to discard, with no one after them to ask, raised); README 26 says what that
        # leaves known.
        turn.emit({"f": "prompt", "prompt": None})
        rest = [step for step in prompt["then"] if step["op"] != "shuffle_deck"]
        run_steps(turn, prompt["actor"], rest, dict(prompt["vars"]))
        if len(rest) < len(prompt["then"]) and st["prompt"] and not st["over"]:
            # the effect asks another player next: the shuffle stays owed, made when they
            # answer (the last step of a search's effect, so it goes last)
            asked = st["prompt"]
            turn.emit({"f": "prompt", "prompt": {**asked, "then": [*asked["then"], {"op": "shuffle_deck"}]}})
    elif prompt and prompt["kind"] in SEAT_CHOICES and seat in prompt["options"]:
        # "Target Opponent" names a player still in. A single option left stays a prompt:
        # making it automatically could run the rest of the effect, which may draw at random.
        options = [option for option in prompt["options"] if option != seat]
        turn.emit({"f": "prompt", "prompt": {**prompt, "options": options}})
    return turn.facts


def default_action(state, seat):
    """The least consequential legal move: decline an offer or take the first option of a
    choice, pick the rulebook's own Constructor, or end the turn."""
    prompt = state["prompt"]
    if prompt:
        return {"type": "choose", "option": "no" if "no" in prompt["options"] else prompt["options"][0]}
    if state["phase"] == "pick":
        return {"type": "pick", "constructor": next(iter(CONSTRUCTORS))}
    return {"type": "end_turn"}

