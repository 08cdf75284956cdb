"""The scratch pad every game's `decide` writes facts through.

It works on a copy of the state, applying each fact with the game's own `evolve` as it
is emitted, so later rules see earlier effects and the caller's state is never touched.
"""

from .canonical import json_copy


class Decision:
    def __init__(self, state, rng, evolve):
        self.state = json_copy(state)
        self.rng = rng
        self.facts = []
        self._evolve = evolve

    def emit(self, fact):
        self._evolve(self.state, fact)
        self.facts.append(fact)
