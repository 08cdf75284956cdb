"""The two readers a game's words tests use: a fact as a reader sees it, and an action as
listed to a seat (or, without a view, as the log shows seat 0's)."""

from domain.kernel.words import Context


def readers(words, names):
    """(said, phrase) for a game's Words and its seats' names, both strict (an unknown fact or
    action kind fails the test instead of reading as a placeholder)."""

    def said(fact, viewer=None, known=None):
        return words.fact(fact, Context(names, viewer=viewer, known=known), strict=True)

    def phrase(action, viewer=0, view=None, known=None):
        return words.action(action, Context(names, viewer=viewer, view=view, known=known, actor=0), strict=True)

    return said, phrase
