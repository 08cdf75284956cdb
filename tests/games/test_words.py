"""Every fact and every listed action of every game in words (domain/kernel/words.py, each
game's words.py), for every reader, and never a word the reader could not read.

Random matches of every game, every player count and main variant: after every action each
reader (the spectator and every seat) words the log record as it may read it (its redacted
action and facts, in order, with its own memory of earlier facts, as a client reading the log
from the start); the seat to act words every listed action with its own view. A line fails
on a fact kind the game does not list (or a None where the kind is not declared
bookkeeping), on raw JSON or code (`{`, `[`, `=`, None, snake_case), on an id where the game
knows a name, and on the name of a card the redaction hid from that reader.

ARBITER_WORDS_MATCHES sets the matches per game (default 6, times ARBITER_LONG: tests/sizing.py)."""

import ast
import os
import random
import re
from pathlib import Path

import pytest

import domain.games as games
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream
from domain.kernel.words import Context, record_words
from tests.sizing import sized

MATCHES = int(os.environ.get("ARBITER_WORDS_MATCHES", sized(6)))
MAX_ACTIONS = 4000  # per match: random play of the longest games ends well before
VARIANTS = {
    "cyberiad": [(2, {}), (3, {}), (4, {})],
    "cybermancy": [(2, {}), (3, {}), (4, {}), (4, {"mode": "teams"}), (2, {"draft": True})],
    "herocard": [(2, {}), (3, {}), (4, {}), (4, {"teams": True}), (3, {"assistance": True}),
                 (2, {"fair_start": True, "discard_queue": True})],
    "cyberspace": [(2, {}), (1, {}), (3, {}), (4, {}), (2, {"duels": "bit"}), (4, {"teams": True}),
                   (3, {"assistance": True}), (2, {"fair_start": True, "discard_queue": True})],
    "cybermen": [(2, {}), (3, {}), (4, {}), (5, {}), (6, {})],
    "algomancy": [(2, {}), (3, {}), (4, {"setup": "teams_split"}), (4, {"setup": "teams_joint"}),
                  (3, {"setup": "archenemy"}), (2, {"format": "live_draft"}), (3, {"format": "cube_draft"}),
                  (4, {"setup": "teams_split", "format": "team_draft"}), (2, {"format": "traditional_cube"})],
}
# Ids as facts and actions hold them, which a line must never show where a name is known.
ID_SHAPES = {
    "cyberiad": r"\b[a-z0-9]+(?:-[a-z0-9]+){2,}\b",
    "cybermancy": r"\b(?:c\d+|cpu-\d+|ram-\d+|cybermancer:\d)\b",
    "herocard": r"\buid\b",
    "cyberspace": r"\b(?:t\d\d|\d+,\d+)\b",
    "cybermen": r"\b(?:[cu]\d+|group\d|\d\.[a-z_]+)\b",
    "algomancy": r"#\d|\b(?:effect|f)\d+\b|\br\d\b",
}
CODE = re.compile(r"[{}\[\]=]|\bNone\b|\bTrue\b|\bFalse\b|\bnull\b|\b[a-z0-9]+_[a-z0-9_]+\b")


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def names_in(words, value) -> set[str]:
    return {name for name in map(words.name, strings(value)) if name}


def check_line(game, words, text, source, where):
    """One line of words: plain text, no code, no id where the game knows its name."""
    assert isinstance(text, str) and text.strip(), f"{where}: no words for {source}"
    assert not CODE.search(text), f"{where}: code in {text!r} (from {source})"
    assert not re.search(ID_SHAPES[game], text), f"{where}: an id in {text!r} (from {source})"
    for raw in strings(source):
        # the substring test first (an id not in the text at all is not in it as a word), then
        # whether the game names it: the name lookup and the regex are dear
        if len(raw) > 2 and raw in text and (name := words.name(raw)) and name != raw:
            assert not re.search(rf"(?<![\w-]){re.escape(raw)}(?![\w-])", text), f"{where}: id {raw!r} in {text!r}"


def check_hidden(words, text, full, shown, where):
    """Names the redaction took away from this reader are not in its words."""
    if full == shown:  # the reader was shown it all: nothing was taken away
        return 0
    hidden = names_in(words, full) - names_in(words, shown)
    leaked = [name for name in hidden if name in text and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)]
    assert not leaked, f"{where}: {text!r} names hidden {leaked} (the fact was {full}, the reader read {shown})"
    return len(hidden)


class Reader:
    """One reader of the log (a seat, or None: the spectator) with its memory of earlier facts."""

    def __init__(self, names, seat):
        self.seat = seat
        self.ctx = Context(names, viewer=seat)


def word_step(game, ruleset, readers, seat, action, facts, seq, counts):
    words = ruleset.words
    data = {"seat": seat, "action": action, "facts": facts}
    for reader in readers:
        where = f"{game} seq {seq}, reader {reader.seat}"
        shown_action = ruleset.redact_action(action, seat, reader.seat)
        shown_facts = [ruleset.redact(fact, reader.seat) for fact in facts]
        read = json_copy([shown_action, shown_facts])
        said = record_words(words, "ActionTaken", {**data, "action": shown_action, "facts": shown_facts}, reader.ctx,
                            strict=True)
        assert [shown_action, shown_facts] == read, f"{where}: wording changed the record it read"
        check_line(game, words, said["text"], shown_action, where)
        counts["hidden"] += check_hidden(words, said["text"], action, shown_action, where)
        for full, shown, text in zip(facts, shown_facts, said["facts"]):
            kind = words.kind_of(shown)
            counts["kinds"].add(kind)
            if text is None:
                assert kind in words.facts and (words.facts[kind] is None or kind in words.sometimes_quiet), \
                    f"{where}: the fact kind {kind!r} is not declared bookkeeping, yet {shown} has no words"
                continue
            counts["lines"] += 1
            check_line(game, words, text, shown, f"{where} fact {kind}")
            counts["hidden"] += check_hidden(words, text, full, shown, f"{where} fact {kind}")


def word_listing(game, ruleset, state, seat, names, counts):
    listing = ruleset.legal_actions(state, seat)
    before = json_copy(listing)
    ctx = Context(names, viewer=seat, view=ruleset.view(state, seat))
    for action in listing:
        text = ruleset.words.action(action, ctx, strict=True)
        counts["types"].add(action["type"])
        check_line(game, ruleset.words, text, {k: v for k, v in action.items() if k != "params"},
                   f"{game} listed action {action}")
        # the log puts a phrase in the past tense by its first word ("bob refresh:ed ..." was seen)
        assert re.fullmatch(r"[a-z]+", text.partition(" ")[0]), f"{game}: {text!r} does not start with a verb"
    assert listing == before, "wording changed a listed action: it must post back unchanged"


def play_in_words(game, seats, options, seed, counts):
    ruleset = games.latest(game)
    rand = random.Random(seed)
    key = rand.randbytes(32)
    names = [f"p{i}" for i in range(seats)]
    state = ruleset.setup(options, names, RandomStream(key, "m", 1))
    readers = [Reader(names, None)] + [Reader(names, s) for s in range(seats)]
    for reader in readers:  # the log's first record: the set-up as the reader may see it
        said = record_words(ruleset.words, "MatchCreated", {"seats": names, "game": game,
                                                             "setup": ruleset.view(state, reader.seat)}, reader.ctx)
        check_line(game, ruleset.words, said["text"], names, f"{game} set-up")
    bot_kinds = ("random",) if seed % 2 == 0 or "greedy" not in ruleset.bots else ("greedy", "random")
    for seq in range(2, MAX_ACTIONS):
        if ruleset.outcome(state) is not None:
            return
        acting = sorted(ruleset.to_act(state))
        seat = acting[0] if len(acting) == 1 else rand.choice(acting)
        word_listing(game, ruleset, state, seat, names, counts)
        action = ruleset.bots[bot_kinds[seat % len(bot_kinds)]](state, seat, rand)
        facts = ruleset.decide(state, seat, action, RandomStream(key, "m", seq))
        word_step(game, ruleset, readers, seat, action, facts, seq, counts)
        for fact in facts:
            state = ruleset.evolve(state, fact)
    raise AssertionError(f"{game} {options}: no end in {MAX_ACTIONS} actions")


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_fact_and_listed_action_of_random_play_reads_as_words_for_every_reader(game):
    counts = {"lines": 0, "hidden": 0, "kinds": set(), "types": set()}
    variants = VARIANTS[game]
    for match in range(MATCHES):
        seats, options = variants[match % len(variants)]
        play_in_words(game, seats, options, match, counts)
    assert counts["lines"] > 100, "random play worded hardly anything: the test proved nothing"
    assert counts["hidden"] > 0 or game == "cybermen" and MATCHES < 3, "no hidden card was ever checked"
    listed = set(games.latest(game).words.actions)
    assert counts["types"] <= listed


def emitted_kinds(package: str) -> set[str]:
    """Every `{"f": "<kind>", ...}` literal a game's modules write: the kinds its facts have."""
    kinds = set()
    for path in Path(games.__file__).parent.joinpath(package).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "f" and isinstance(value, ast.Constant):
                        kinds.add(value.value)
    return kinds


@pytest.mark.parametrize("game", ["cyberiad", "cybermancy", "herocard", "cybermen"])
def test_every_fact_kind_a_game_writes_is_listed_in_its_words(game):
    """A fact kind the rules write but the words do not list (a new one) fails here, even
    before random play meets it."""
    listed = set(games.latest(game).words.facts)
    assert emitted_kinds(game) - listed == set()


def test_every_fact_kind_cyberspace_writes_is_listed_in_its_words():
    words = games.latest("cyberspace").words
    own = {kind for kind in emitted_kinds("cyberspace") if not kind.startswith("hc.")} - {"duel"}  # the wrapper
    duel = {f"duel {kind}" for kind in emitted_kinds("herocard") | emitted_kinds("cyberspace") if kind.startswith("hc.")}
    assert (own | duel | {"duel bit"}) - set(words.facts) == set()
