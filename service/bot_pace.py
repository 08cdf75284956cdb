"""When a served bot's move is made public, so that how long the bot thought tells no one what
it holds.

A bot thinks longer with more to choose from, and what it may choose comes from its hidden
cards: the search bot answers at once when it has one legal move and searches up to its
budget otherwise, and the greedy bot's time grows with its listing. Every action carries the
time it was recorded (`at`, to the millisecond, in the public log), reaches a watcher's stream
when it is saved, and a seat can time its own request, inside which the bots answer. Measured
before this pacing (HeroCard, the search bot): a pass recorded 0-2 ms after the move it
answered meant nothing playable in the hidden hand, 160-570 ms a choice.

So while a person is in the match, a bot asked to act at wall time `asked` has its move
recorded with `at` = asked + k * step, and saved then: `step` is the bot's own (STEP_MS for the
random and greedy bots, whose slowest of 24,000 measured choices took 20 ms; the search bot's
wall-time budget plus STEP_MS), and k the fewest whole steps by which the move is ready, 1
unless the bot overran or its runner was busy with other matches (then a later whole step: the
move is never stamped earlier than it is seen, so nobody's clock is charged for a move not yet
there). `asked` is when the bot was asked, right after the event it answers was saved, so the
gap between the two events' `at` is k steps plus that save.

The time is not all a watcher can measure: a bot thinks in the server's process, and while it
thinks every other request there is slower (a spectator polling every 4 ms told the search
bot's forced moves from its searched ones 97 % of the time by its own requests' times). So a
bot with a budget keeps busy for the same time whatever it had to choose from (`think`): its
budget plus half a step, then it waits idle for the rest. The random and greedy bots think
20 ms at most and are not kept busy: a busy window for them would cost each move of theirs
tens of times its thinking.

A bots-only match is not paced: no seat in it can use what timing would tell, and the seed
revealed at its end shows every card anyway. `ARBITER_BOT_STEP_MS` sets STEP_MS (the test
suite's matches use 1 ms steps: their bots' timing is nobody's secret, and a move's cost is
what those tests measure).
"""

import math
import time
from dataclasses import dataclass

from domain.kernel.search import SearchBot

STEP_MS = 200
# A move ready this little after a step is still that step's (the runner's wake-up, a save):
# it is stamped at the step, which is then at most this much before it is seen.
LATE_MS = 50


@dataclass(frozen=True)
class BotPace:
    step_ms: int = STEP_MS

    @classmethod
    def from_environ(cls, environ) -> "BotPace":
        text = environ.get("ARBITER_BOT_STEP_MS")
        if text in (None, ""):
            return cls()
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"ARBITER_BOT_STEP_MS must be a whole number of milliseconds, 1 or more: {text!r}")
        return cls(int(text))

    @staticmethod
    def budget_of(bot) -> int:
        """A bot's wall-time budget in milliseconds: the search bot's; 0 for the others."""
        budget = bot.milliseconds if isinstance(bot, SearchBot) else None
        return math.ceil(budget) if budget else 0

    def step_of(self, bot) -> int:
        """The bot's step in milliseconds: its wall-time budget, if it has one, plus STEP_MS."""
        return self.step_ms + self.budget_of(bot)

    def think(self, bot, choose, asked: float):
        """`choose()` (the bot's move), keeping the CPU busy until `asked` plus the bot's budget
        and half a step, for a bot with a budget: it uses the process the same whatever it had
        to choose from."""
        move = choose()
        budget = self.budget_of(bot)
        if budget:
            busy_until = asked + (budget + self.step_ms / 2) / 1000
            while time.time() < busy_until:
                pass
        return move

    def reply_at(self, bot, asked: float, ready: float) -> float:
        """When a bot asked at `asked` (seconds since the epoch, a wall clock), whose move is
        ready at `ready`, makes its move public: a whole number of its steps after `asked`, to
        the millisecond, the first that is not more than LATE_MS before `ready`."""
        step = self.step_of(bot)
        asked_ms = math.floor(asked * 1000)
        steps = max(1, math.ceil((ready * 1000 - LATE_MS - asked_ms) / step))
        return (asked_ms + steps * step) / 1000
