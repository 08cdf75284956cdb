"""A process-wide memo of a pure function's results, for what a search recomputes.

The bots' searches ask the same questions of the same positions thousands of times a
decision (a card's sort key, a board's networks, a figure's reach), so the games keep the
answers by everything an answer depends on. `Memo` is that dict, with the two rules every
such memo needs:

- **Bounded.** A long search meets ever new keys: at `size` entries it is emptied and starts
  again (cheaper than tracking which entries are old, and a search refills what it uses).
- **Emptied in a forked child.** Mutation testing forks its workers from a process that ran
  the tests: an answer remembered there, from the unmutated code, would hide a mutant.

Reading is a plain `dict.get` (the hot path); `keep` stores an answer under the bound:

    found = _MOVES.get(key)
    if found is None:
        found = _MOVES.keep(key, compute(...))
"""

import os


class Memo(dict):
    def __init__(self, size: int):
        super().__init__()
        self.size = size
        os.register_at_fork(after_in_child=self.clear)

    def keep(self, key, value):
        """Store `value` under `key` (emptying the memo first when it is full); `value`."""
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value
