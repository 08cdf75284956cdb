"""The search bot (domain/kernel/search.py) and every game's determinization.

A determinization must agree with everything the seat sees and must not depend on which hidden
card is where: these properties are checked on states reached by random play in every game
that has the hook, so a game cannot hand the search bot hidden information unnoticed."""

import random

import pytest

import domain.games as games
from domain.kernel.canonical import canonical_json, json_copy
from domain.kernel.rng import RandomStream
from domain.kernel.ruleset import latest
from domain.kernel.search import SearchBot, refill_unseen

SEARCHABLE = [ruleset for ruleset in games.all_latest() if ruleset.determinize is not None]

# Each game at its smallest and largest table, and the variants that hide things differently.
TABLES = [(r.name, {}, seats) for r in SEARCHABLE for seats in sorted({max(r.min_seats, 2), r.max_seats})] + [
    ("algomancy", {"format": "live_draft"}, 2), ("algomancy", {"format": "cube_draft"}, 2),
    ("algomancy", {"format": "traditional_cube"}, 2), ("algomancy", {"format": "team_draft", "setup": "teams_split"}, 4),
    ("algomancy", {"setup": "ffa"}, 3), ("algomancy", {"setup": "archenemy"}, 3),
    ("cybermancy", {"mode": "teams"}, 4), ("cybermancy", {"draft": True}, 2),
    ("herocard", {"teams": True}, 4), ("cyberspace", {"assistance": True}, 3), ("cyberspace", {"duels": "bit"}, 2),
]


def states_along_a_random_match(ruleset, seats, seed, every=7, limit=400, options=None):
    """(state, seat to act) every few actions of one random match."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup(options or {}, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    for seq in range(2, limit):
        if ruleset.outcome(state) is not None:
            return
        seat = rand.choice(sorted(ruleset.to_act(state)))
        if seq % every == 0:
            yield json_copy(state), seat
        action = ruleset.bots["random"](state, seat, rand)
        for fact in ruleset.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = ruleset.evolve(state, fact)


def test_refill_keeps_sizes_and_cards_and_leaves_known_cards_in_place():
    zones = [["a", "b", "c"], ["d"], ["e", "f"]]
    refill_unseen(zones, random.Random(3), known=["d"])
    assert [len(z) for z in zones] == [3, 1, 2]
    assert sorted(c for z in zones for c in z) == list("abcdef")
    assert zones[1] == ["d"]


def test_refill_depends_on_the_unseen_multiset_not_on_where_each_card_was():
    one, other = [["a", "b"], ["c", "d", "e"]], [["e", "c"], ["b", "a", "d"]]
    refill_unseen(one, random.Random(9))
    refill_unseen(other, random.Random(9))
    assert one == other


@pytest.mark.parametrize("game, options, seats", TABLES, ids=lambda v: str(v))
def test_a_determinization_agrees_with_the_view_and_ignores_where_hidden_cards_are(game, options, seats):
    ruleset = latest(game)
    checked = redealt = 0
    for state, seat in states_along_a_random_match(ruleset, seats, seed=seats, options=options):
        before = canonical_json(state)
        sample = ruleset.determinize(state, seat, random.Random(1))
        assert canonical_json(state) == before, "determinize must not change the real state"
        assert ruleset.view(sample, seat) == ruleset.view(state, seat), "the sample contradicts what the seat sees"
        assert ruleset.legal_actions(sample, seat) == ruleset.legal_actions(state, seat)
        # Re-deal the hidden cards another way (a state the seat cannot tell apart from the real
        # one): the determinization drawn with the same randomness must be the same.
        other = ruleset.determinize(state, seat, random.Random(2))
        assert canonical_json(ruleset.determinize(other, seat, random.Random(1))) == canonical_json(sample)
        checked += 1
        redealt += canonical_json(sample) != before
    assert checked >= 5
    # A determinization that copied the state would pass the checks above and read everything.
    nothing_hidden = game == "cyberspace" and options.get("duels") == "bit"  # tiles drawn when drawn
    assert (redealt == 0) if nothing_hidden else (redealt > 0)


@pytest.mark.parametrize("ruleset", SEARCHABLE, ids=lambda r: r.name)
def test_the_search_bot_chooses_the_same_when_only_hidden_cards_differ(ruleset):
    bot = SearchBot(ruleset, playouts=12, depth=6, milliseconds=None)  # the same budget, not the clock's
    compared = 0
    for state, seat in states_along_a_random_match(ruleset, max(ruleset.min_seats, 2), seed=11, every=11):
        if len(ruleset.legal_actions(state, seat)) < 2:
            continue
        hidden_otherwise = ruleset.determinize(state, seat, random.Random(5))
        assert bot(state, seat, random.Random(7)) == bot(hidden_otherwise, seat, random.Random(7))
        compared += 1
        if compared == 4:
            break
    assert compared >= 2


def test_every_game_gets_the_search_bot():
    assert {r.name for r in SEARCHABLE} == {r.name for r in games.all_latest()}
    assert all("search" in r.bots for r in games.all_latest())


@pytest.mark.parametrize("form", ["cube_draft", "traditional_cube"])
def test_an_algomancy_cubes_unopened_packs_are_dealt_again(form):
    """The cube's pool is hidden from everyone; a sample that kept it would let the bot plan
    with the real packs to come."""
    ruleset = latest("algomancy")
    state = ruleset.setup({"format": form}, ["a", "b"], RandomStream(b"c" * 32, "m", 1))
    def unseen(st):  # the cube's pool, the other player's pack and hand (what it kept is hidden): one source
        return st["cube"]["pool"] + st["players"][1]["pack"] + st["players"][1]["hand"]

    samples = [ruleset.determinize(state, 0, random.Random(n)) for n in range(3)]
    assert len(state["cube"]["pool"]) > 1
    assert any(sample["cube"]["pool"] != state["cube"]["pool"] for sample in samples)
    assert all(sorted(unseen(sample)) == sorted(unseen(state)) for sample in samples), "the same cards, dealt otherwise"
