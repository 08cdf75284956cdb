"""A match stored by an earlier build audits under this one while its rules version stands.

tests/kernel/stored/<game>.ndjson holds one finished match of each game, recorded by
bench/stored_matches.py. The audit re-decides every action and recomputes every public form
(a set-up's view, each fact's redaction) and hash: a change to any of them made without a
rules version bump would leave every match players have stored failing its audit. (A `to_act`
key added to four games' views did exactly that, caught only for Cyberiad, by the worked
example.) After a deliberate bump the old file is refused, as every stored match of the old
version is: re-record it."""

import orjson
import pytest

import domain.games as games
from domain.kernel.audit import audit

from .test_verification_doc import DOCS

STORED = DOCS.parent / "tests" / "kernel" / "stored"
GAMES = sorted(ruleset.name for ruleset in games.all_latest())


@pytest.mark.parametrize("game", GAMES)
def test_the_stored_match_audits_under_this_build(game):
    path = STORED / f"{game}.ndjson"
    assert path.is_file(), f"no stored match of {game}: python bench/stored_matches.py {game}"
    records = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    recorded, current = records[0]["data"]["ruleset_version"], games.latest(game).version
    assert recorded == current, (
        f"{path.name} was recorded under {game} {recorded}, this build has {current}: matches stored under "
        f"{recorded} are now refused. If the bump is deliberate, re-record: python bench/stored_matches.py {game}")
    report = audit(records)
    assert report.ok, report.to_dict()
    assert records[-1]["type"] == "MatchEnded" and len(records) > 20
