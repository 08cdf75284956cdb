"""What each seat may see in HeroCard (the board drawn for terminals is render.py); the hiding itself is the
engine's (engine.view / redact / redact_action), shared with hosts such as Cyberspace."""

from . import engine


def view(state, seat):
    return {"names": list(state["names"]), **engine.view(state["duel"], seat)}


def redact(fact, seat):
    return engine.redact(fact, seat)


def redact_action(action, actor, seat):
    return engine.redact_action(action, actor, seat)
