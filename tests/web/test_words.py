"""Every line of the log the pages show has words (issue 30: "Roll, purpose Move…", "step ›
k = window" and "Duel: Phase, phase Draw" were key=value dumps): random matches of each game
(8 for `make test`, times ARBITER_LONG; ARBITER_WORDS_MATCHES sets it outright), read by a
spectator and by seat 0, each record worded as GET .../log words it."""

import os
import random
import re
import uuid

import pytest

from domain.kernel import ruleset as rulesets
from domain.kernel.match import Match
from domain.kernel.redaction import redact_data
from domain.kernel.rng import new_seed
from domain.kernel.words import reading, record_words

from ..sizing import sized

MATCHES = int(os.environ.get("ARBITER_WORDS_MATCHES", sized(8)))
# what a dump of keys and values leaves in a line: "k = window", "step › k", {...}, [...],
# snake_case keys, Python's None/True/False; and the kernel's stand-in for an unworded fact
RAW = re.compile(r"=|›|[{}\[\]]|[a-z]_[a-z]|\bNone\b|\bnull\b|\bTrue\b|\bFalse\b|no words for this kind")


def records_of(game, seed, max_actions=600):
    ruleset = rulesets.latest(game)
    match = Match.start(uuid.uuid4(), ruleset, ["ann", "bob"], {}, {}, new_seed())
    secret, rand = new_seed(), random.Random(seed)
    bot = ruleset.bots["random"]
    for _ in range(max_actions):
        if match.status != "running":
            break
        seat = sorted(match.to_act())[0]
        match.act(seat, bot(match.state, seat, rand), secret, listed=True)
    return [{"type": type(e).__name__, "data": e.data} for e in match.pending_events], ruleset


@pytest.mark.parametrize("game", sorted(r.name for r in rulesets.all_latest()))
def test_every_log_line_of_random_matches_has_words(game):
    raw = []
    for seed in range(MATCHES):
        records, ruleset = records_of(game, seed)
        for reader in (None, 0):
            shown = [{**r, "data": redact_data(ruleset, r["type"], r["data"], reader)} for r in records]
            ctx = reading(shown, reader)
            for record in shown:
                words = record_words(ruleset.words, record["type"], record["data"], ctx, ruleset.title)
                for text in [words["text"], *words["facts"]]:
                    if text is not None and (not text.strip() or RAW.search(text)):
                        raw.append(text)
    assert not raw, f"{len(raw)} lines of {game}'s log read as raw data, e.g. {sorted(set(raw))[:8]}"
