"""The scratch pad every game's `decide` writes facts through.

It works on a copy of the state, applying each fact with the game's own `evolve` as it
is emitted, so later rules see earlier effects and the caller's state is never touched.

A simulation that gives its state up (a search's playout, a bot's trial move on its own
copy) calls `advance` instead of `decide` and then `evolve` fact by fact: the outermost
Decision then works on that state itself, so the state is neither copied nor the facts
applied twice. A playout step used to pay for both: a tenth to a fifth of the search bot's
time (bench/search_speed.py, issue 32). So a game's decide makes its first Decision on the
state it is given (or the part of it its evolve changes, as HeroCard's duel), before any
other; tests/kernel/test_advance.py holds every game to `advance` giving what `decide` and
`evolve` give.

A caller that reads no facts at all (the search's playout) says so (`advance(...,
facts=False)`): a game that works its facts out as a separate step (Algomancy diffs a copy
against the state) may then act on the state itself and skip them (`state_only_claimed`).
That diff, its copy and the evolve of its facts were a quarter of Algomancy's search time.
"""

from contextvars import ContextVar

from .canonical import json_copy


class _Claim:
    """One `advance` call's offer of its state to the first Decision made under it."""

    __slots__ = ("taken", "facts_wanted")

    def __init__(self, facts_wanted: bool):
        self.taken = False
        self.facts_wanted = facts_wanted


_OFFERED: ContextVar[_Claim | None] = ContextVar("arbiter_decision_in_place", default=None)


class Decision:
    def __init__(self, state, rng, evolve):
        claim = _OFFERED.get()
        if claim is not None and not claim.taken:
            # The outermost Decision of an `advance` call: the caller gave this state up.
            claim.taken = True
            self.state = state
        else:
            self.state = json_copy(state)
        self.rng = rng
        self.facts = []
        self._evolve = evolve

    def emit(self, fact):
        self._evolve(self.state, fact)
        self.facts.append(fact)


def state_only_claimed() -> bool:
    """For a game's decide that does not go through a Decision: True when the caller is an
    `advance(..., facts=False)` that gave its state up and reads no facts. The claim is then
    taken: decide acts on the state it was given and may return no facts."""
    claim = _OFFERED.get()
    if claim is None or claim.taken or claim.facts_wanted:
        return False
    claim.taken = True
    return True


def advance(ruleset, state, seat, action, rng, facts: bool = True):
    """The state after `action` and its facts: `ruleset.decide` then `ruleset.evolve` of each
    fact, as one step, on `state` itself, which the caller gives up (it is changed in place and
    is worthless after an IllegalAction). A game whose decide goes through a Decision evolves
    the state as it decides; any other game (Algomancy's decide diffs a copy) gets its facts
    evolved here. With `facts=False` the caller reads only the state: the facts returned may
    be none (see `state_only_claimed`)."""
    claim = _Claim(facts)
    token = _OFFERED.set(claim)
    try:
        facts = ruleset.decide(state, seat, action, rng)
    finally:
        _OFFERED.reset(token)
    if not claim.taken:
        for fact in facts:
            state = ruleset.evolve(state, fact)
    return state, facts
