"""Bots that can fill a Cyberiad seat: they see only that seat's legal actions."""

from .rules import legal_actions


def random_bot(state, seat, rand):
    """Any legal action, uniformly."""
    return rand.choice(legal_actions(state, seat))


BOTS = {"random": random_bot}
