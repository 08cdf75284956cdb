"""Issue 32 made the search bot cheaper, not different: with the code it replaced swapped back
in (tests/kernel/search_reference.py), every game's greedy bot and search bot choose exactly
the same moves on the same (state, seat, rand), at states of random and greedy matches.

bench/search_speed.py holds the whole search to the same at the games' own budgets, against a
run of the code before the change (`--against`)."""

import random

import pytest

import domain.games as games
import domain.games.cyberspace.bots as cyberspace_bots
import domain.games.herocard.bots as herocard_bots
import domain.games.herocard.engine as herocard_engine
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream
from domain.kernel.ruleset import latest
from domain.kernel.search import SearchBot, refill_unseen
from tests.kernel import search_reference as old

SEARCHABLE = [ruleset for ruleset in games.all_latest() if ruleset.determinize is not None]
# The game modules that deal with refill_unseen (each imported it by name).
REFILLING = [module for name, module in sorted(vars(games).items())
             if hasattr(module, "search") and hasattr(module.search, "refill_unseen")]


def replaced_code_back(patch) -> None:
    """Swap the code issue 32 replaced back in, with `patch` (a monkeypatch context)."""
    for game in REFILLING:
        patch.setattr(game.search, "refill_unseen", old.refill_unseen)
    for name in ("greedy_bot", "_plan", "evaluate", "_secrets"):
        patch.setattr(herocard_bots, name, getattr(old, name))
    patch.setitem(latest("herocard").bots, "greedy", old.greedy_bot)  # the search's playout policy
    patch.setattr(cyberspace_bots, "_value", old._value)


def states_of(ruleset, policy: str, seed: int, every: int, limit: int = 600):
    """(state, seat to act with a choice) every few actions of one match of `policy` bots."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = ruleset.setup({}, [f"p{i}" for i in range(max(ruleset.min_seats, 2))], RandomStream(key, "m", 1))
    for seq in range(2, limit):
        if ruleset.outcome(state) is not None:
            return
        seat = rand.choice(sorted(ruleset.to_act(state)))
        if seq % every == 0 and len(ruleset.legal_actions(state, seat)) > 1:
            yield json_copy(state), seat
        for fact in ruleset.decide(state, seat, ruleset.bots[policy](state, seat, rand), RandomStream(key, "m", seq)):
            state = ruleset.evolve(state, fact)


def choices_now_and_before(monkeypatch, bot, states) -> tuple[list, list]:
    now = [bot(json_copy(state), seat, random.Random(n)) for n, (state, seat) in enumerate(states)]
    with monkeypatch.context() as patch:
        replaced_code_back(patch)
        before = [bot(json_copy(state), seat, random.Random(n)) for n, (state, seat) in enumerate(states)]
    return now, before


def test_the_old_code_is_what_runs_when_swapped_back(monkeypatch):
    """Otherwise the comparisons below would compare the new code with itself."""
    with monkeypatch.context() as patch:
        replaced_code_back(patch)
        assert herocard_bots.evaluate is old.evaluate and cyberspace_bots._value is old._value
        assert latest("herocard").bots["greedy"] is old.greedy_bot
        assert all(game.search.refill_unseen is old.refill_unseen for game in REFILLING)
    assert herocard_bots.evaluate is not old.evaluate and latest("herocard").bots["greedy"] is herocard_bots.greedy_bot
    assert len(REFILLING) >= 5, "cyberiad, cybermancy, herocard, algomancy and cybermen deal with refill_unseen"


CARDS = ["Zap", "Zap", "a", "a b", "a!", 'say "hi"', "back\\slash", "ünï", "ab", "", "#7", "Name#1000000000001",
         7, 3, {"card": "x", "id": 2}, {"id": 1}, ["nested", 1], None, True]


@pytest.mark.parametrize("seed", range(300))
def test_refill_unseen_deals_as_the_code_it_replaced(seed):
    """Names that sort otherwise as text than as JSON (a space or "!" after a shared start, a
    quote, a backslash), numbers, objects, and cards known to stay put."""
    rand = random.Random(seed)
    names = CARDS if seed % 3 else [card for card in CARDS if isinstance(card, str)]  # the usual case: names only
    deal_as_the_code_it_replaced(rand, names, seed)


# Names only, as most games deal them, some of which sort otherwise as text than as JSON, which
# the deal sorts by ("!" sorts before the closing quote, '"a!"' < '"a"'; a quote is written \",
# which sorts after "#": 'x"y' < "x#y" as text, not as JSON).
NAMES = ["Zap", "a", "a!", "ab", 'x"y', "x#y", "ünï", "#7", "Name#12", ""]


@pytest.mark.parametrize("seed", range(100))
def test_refill_unseen_deals_names_as_the_code_it_replaced(seed):
    rand = random.Random(seed)
    names = NAMES if seed % 2 else [name for name in NAMES if '"' not in name and "!" not in name]
    deal_as_the_code_it_replaced(rand, names, seed)


def deal_as_the_code_it_replaced(rand, names, seed):
    cards = [rand.choice(names) for _ in range(rand.randrange(1, 30))]
    sizes = [rand.randrange(0, 8) for _ in range(rand.randrange(1, 5))]
    zones, left = [], list(cards)
    for size in sizes:
        zones.append(left[:size])
        left = left[size:]
    known = rand.sample(cards, min(len(cards), rand.randrange(0, 3))) if seed % 2 else []
    new, reference = json_copy(zones), json_copy(zones)
    refill_unseen(new, random.Random(seed), known=known)
    old.refill_unseen(reference, random.Random(seed), known=known)
    assert new == reference


@pytest.mark.parametrize("ruleset", [r for r in SEARCHABLE if "greedy" in r.bots], ids=lambda r: r.name)
def test_the_greedy_bot_chooses_as_before(monkeypatch, ruleset):
    """The playout policy of every search: many decisions, as it is cheap."""
    states = [state for policy in ("random", "greedy") for seed in (1, 2)
              for state in states_of(ruleset, policy, seed, every=3)]
    def greedy(state, seat, rand):  # looked up when called: the old code swaps the bot itself back
        return ruleset.bots["greedy"](state, seat, rand)
    now, before = choices_now_and_before(monkeypatch, greedy, states)
    assert len(states) >= 20
    assert now == before


@pytest.mark.parametrize("ruleset", SEARCHABLE, ids=lambda r: r.name)
def test_the_search_bot_chooses_as_before(monkeypatch, ruleset):
    """A fixed budget (the clock lifted), a small one so that a few decisions are quick: 12
    playouts cut at 12 actions (scored by the game's evaluate, which is then exercised too)."""
    settings = {**ruleset.search_settings, "playouts": 12, "depth": 12, "milliseconds": None}
    states = [state for policy in ("random", "greedy") if policy in ruleset.bots
              for state in list(states_of(ruleset, policy, seed=3, every=9))[:3]]
    now, before = choices_now_and_before(monkeypatch, SearchBot(ruleset, **settings), states)
    assert len(states) >= 3
    assert now == before


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_herocard_lists_the_same_plays_when_each_is_tried_on_the_seats_view(policy):
    """The greedy bot lists its plays by deciding each on its view of the duel (visible_copy,
    the hidden cards shuffled), not on the duel: the listing must be the same."""
    ruleset, compared = latest("herocard"), 0
    for seed in range(3):
        for state, seat in states_of(ruleset, policy, seed, every=2):
            duel = state["duel"]
            seen = herocard_bots.visible_copy(duel, seat, random.Random(seed))
            on_view = herocard_engine.legal_actions(duel, seat, accept=lambda action: herocard_bots._tried(
                seen, seat, action, {}))
            assert on_view == herocard_engine.legal_actions(duel, seat)
            compared += duel["turn"]["phase"] == "action" and not duel["pending"]
    assert compared >= 50
