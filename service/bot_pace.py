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
recorded with `at` = asked + k * step and saved no earlier than that: `step` is the bot's own
(STEP_MS for the random and greedy bots, whose slowest of 24,000 measured choices took 20 ms;
the search bot's wall-time budget plus STEP_MS), and k the fewest whole steps its thinking fit
in, 1 unless it overran. An overrun shows as a later step: it says the bot thought long, not
what about. `asked` is when the bot was asked, right after the event it answers was saved,
so the gap between the two events' `at` is k steps plus that save.

A bots-only match is not paced: no seat in it can use what timing would tell, and the seed
revealed at its end shows every card anyway. `ARBITER_BOT_STEP_MS` sets STEP_MS (the test
suite's matches use 1 ms steps: their bots' timing is nobody's secret, and a move's cost is
what those tests measure).
"""

import math
from dataclasses import dataclass

from domain.kernel.search import SearchBot

STEP_MS = 200


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

    def step_of(self, bot) -> int:
        """The bot's step in milliseconds: its wall-time budget, if it has one, plus STEP_MS."""
        budget = bot.milliseconds if isinstance(bot, SearchBot) else None
        return self.step_ms + (math.ceil(budget) if budget else 0)

    def reply_at(self, bot, asked: float, thought_until: float) -> float:
        """When a bot asked at `asked` (seconds since the epoch, a wall clock), whose thinking
        ended at `thought_until`, makes its move public: a whole number of its steps after
        `asked`, to the millisecond."""
        step = self.step_of(bot)
        asked_ms = math.floor(asked * 1000)
        steps = max(1, math.ceil((thought_until * 1000 - asked_ms) / step))
        return (asked_ms + steps * step) / 1000
