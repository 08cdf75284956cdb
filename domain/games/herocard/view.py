"""What each seat may see in HeroCard (the board drawn for terminals is render.py); the hiding itself is the
engine's (engine.view / redact / redact_action), shared with hosts such as Cyberspace."""

from . import engine


def view(state, seat):
    # to_act: who acts now, as the rules say (a pending discard's seat, the priority in the
    # Action Phase, else the active player); the boards mark this seat
    return {"names": list(state["names"]), **engine.view(state["duel"], seat),
            "to_act": sorted(engine.to_act(state["duel"]))}


def redact(fact, seat):
    return engine.redact(fact, seat)


def redact_action(action, actor, seat):
    return engine.redact_action(action, actor, seat)
