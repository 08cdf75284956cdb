"""Write tests/kernel/stored/<game>.ndjson: one finished match of every game, recorded by this
build, which tests/kernel/test_stored_matches.py audits with every later build. A match
stored today must audit tomorrow while its rules version stands: a change to what a game
decides, shows everyone (a view, a redaction) or hashes, made without a rules version bump,
fails that test. Re-record after a deliberate bump (the old files are then refused, as every
stored match of the old version is):

    python bench/stored_matches.py            # every game
    python bench/stored_matches.py herocard   # one

Random bots from a fixed seed and match id, on each game's shortest set-up."""

import random
import sys
import tempfile
import uuid
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import domain.games  # noqa: E402,F401
from domain.kernel import ruleset as rulesets  # noqa: E402
from domain.kernel.match import Match  # noqa: E402
from domain.kernel.store import MatchStore  # noqa: E402

FOLDER = ROOT / "tests" / "kernel" / "stored"
SEED = bytes.fromhex("5e7a2c1b0d9f8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a")
# each game's set-up: short matches (the files are read by every test run)
SETUPS = {
    "algomancy": ({"turn_limit": 2}, 2),
    "cyberiad": ({}, 2),
    "cybermancy": ({}, 2),
    "cybermen": ({}, 2),
    "cyberspace": ({"duels": "bit", "size": 5}, 2),
    "herocard": ({"victory_points": 1}, 2),
}


def record(game: str) -> Path:
    ruleset = rulesets.latest(game)
    options, seats = SETUPS[game]
    match_id = uuid.uuid5(uuid.NAMESPACE_URL, f"arbiter-stored-{game}")
    store = MatchStore({"ARBITER_DATA_DIR": tempfile.mkdtemp()})
    match = Match.start(match_id, ruleset, [f"bot{s}" for s in range(seats)], options, {}, SEED)
    rand = random.Random(game)
    while match.status == "running":
        seat = rand.choice(match.to_act())
        match.act(seat, ruleset.bots["random"](match.state, seat, rand), SEED, listed=True)
    store.save_match(match)
    path = FOLDER / f"{game}.ndjson"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in store.stored_events(match_id)))
    store.close()
    return path


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for game in sys.argv[1:] or sorted(SETUPS):
        path = record(game)
        print(f"{game} {rulesets.latest(game).version}: {path.relative_to(ROOT)} "
              f"{len(path.read_bytes().splitlines())} events, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
