"""The menu a person reads (service/terminal/menu.py): every listed action of every game in
the game's words, grouped by type; subsets picked item by item against what the rules accept."""

import random
import uuid

import pytest

from domain.kernel import ruleset as rulesets
from domain.kernel.store import MatchStore
from domain.kernel.words import Context
from service.matches import Arbiter
from service.terminal import menu as menus
from service.terminal.details import Catalog

SMALL = {"algomancy": {"turn_limit": 3}, "cyberspace": {"size": 5}}
GAMES = ["algomancy", "cyberiad", "cybermancy", "cybermen", "cyberspace", "herocard"]


def listings(arbiter, game, seats, seed, most=300):
    """Every (legal-actions answer, view) met in a random match."""
    created = arbiter.create_match(game, [f"p{i}" for i in range(seats)], SMALL.get(game, {}))
    match_id, rand = uuid.UUID(created["match_id"]), random.Random(seed)
    for _ in range(most):
        summary = arbiter.summary(match_id)
        if summary["status"] != "running":
            return
        seat = summary["to_act"][0]
        listed = arbiter.legal_actions(match_id, seat)
        yield listed, arbiter.board(match_id, seat)["board"], summary
        arbiter.submit_action(match_id, seat, rand.choice(listed["actions"]))


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_action_type_has_the_games_words_never_raw_json(game, sqlite_env):
    arbiter = Arbiter(MatchStore(sqlite_env))
    ruleset = rulesets.latest(game)
    catalog = Catalog(ruleset.words.catalog())
    types = set()
    for seats, seed in ((2, 1), (3, 2)):
        if seats > ruleset.max_seats:
            continue
        for listed, view, summary in listings(arbiter, game, seats, seed):
            ctx = Context([s["name"] for s in summary["seats"]], viewer=listed["seat"], view=view)
            for action, said in zip(listed["actions"], listed["words"]):
                types.add(action["type"])
                assert action["type"] in ruleset.words.actions, f"{game}: no words for {action['type']}"
                assert ruleset.words.action(action, ctx, strict=True) == said  # the game's own words, unchanged
            for entry in menus.build(listed["actions"], listed["words"], catalog.name_of):
                assert entry.label and "{" not in entry.label and '"' not in entry.label, entry.label
                assert not entry.label.startswith("make a move ("), entry.label
                for item in entry.choice.items if entry.choice else []:
                    assert "{" not in item.label and item.label.strip(), item.label
    assert len(types) >= 3, f"{game}: the random matches met only {sorted(types)}"


def discard_family(hand):
    """HeroCard's discard as listed: one action a subset of the hand (here up to 2 cards)."""
    subsets = [[]] + [[c] for c in hand] + [[a, b] for i, a in enumerate(hand) for b in hand[i + 1:]]
    return [{"type": "discard", "cards": s} for s in subsets], [f"discard {len(s)} cards" for s in subsets]


def test_a_family_of_listed_subsets_is_one_entry_picked_item_by_item():
    actions, words = discard_family(["a", "b", "c", "d"])
    actions.append({"type": "pass"})
    words.append("pass")
    entries = menus.build(actions, words, {"a": "Alpha", "b": "Bravo"}.get)
    assert [e.kind for e in entries] == ["discard", "pass"], "11 subsets are one line, not eleven"
    choice = entries[0].choice
    assert [item.label for item in choice.items][:2] == ["discard 1 cards", "discard 1 cards"]
    assert choice.problem() is None and choice.action() == {"type": "discard", "cards": []}
    for index in (0, 1, 2):
        choice.toggle(index)
    assert "not one of the listed choices" in choice.problem() and "0, 1 or 2 items" in choice.problem()
    choice.toggle(0)
    assert choice.problem() is None and choice.action() == {"type": "discard", "cards": ["b", "c"]}


def test_a_listing_with_a_payment_schema_is_picked_with_a_running_total():
    pay = {"type": "array", "uniqueItems": True, "items": {"enum": ["x", "y", "z"]}, "worth_at_least": 3,
           "worth": {"z": 2}}
    listed = {"type": "play", "card": "k", "pay": ["x", "z"], "params": {"pay": pay}}
    [entry] = menus.build([listed], ["play K, paying with X and Z — or any of X, Y or Z worth at least 3"])
    assert entry.label == "play K, paying with X and Z" and entry.action is listed
    choice = entry.choice
    assert [choice.items[i].value for i in choice.chosen] == ["x", "z"] and choice.total(("pay",)) == 3
    choice.chosen.clear()
    choice.toggle(1)
    assert choice.total(("pay",)) == 1 and choice.problem() == "pay worth 1 of at least 3"
    choice.toggle(2)
    assert choice.problem() is None and choice.action() == {"type": "play", "card": "k", "pay": ["y", "z"]}


def test_a_payment_with_no_card_to_spare_says_so_when_one_is_not_needed():
    """Cyberiad's `no_spare`: "discard a number of Cards equal to the cost" - X, Y and Z (worth
    1, 1 and 2) for a cost of 3 leave a card the cost does not need; Y and Z do not."""
    pay = {"type": "array", "uniqueItems": True, "items": {"enum": ["x", "y", "z"]}, "worth_at_least": 3,
           "no_spare": True, "worth": {"z": 2}}
    listed = {"type": "play", "card": "k", "pay": ["y", "z"], "params": {"pay": pay}}
    [entry] = menus.build([listed], ["play K, paying with Y and Z — or any of X, Y or Z worth at least 3"])
    choice = entry.choice
    assert choice.problem() is None
    choice.toggle(0)
    assert choice.total(("pay",)) == 4 and choice.problem() == "pay worth 4: one fewer still pays 3"


def test_a_long_menu_is_shown_by_type():
    actions = [{"type": "place", "x": x} for x in range(40)] + [{"type": "end_turn"}]
    words = [f"place at {x}" for x in range(40)] + ["end the turn"]
    lines = menus.top_level(menus.build(actions, words))
    assert [label for _, label, _ in lines] == ["place … (40 choices)", "end the turn"]
    assert len(lines[0][2]) == 40


def test_moves_to_squares_are_entries_of_their_own_never_numbers_ticked_one_by_one():
    """A square is [row, column]: two numbers whose order matters, where a set of items to tick
    would make (2, 3) and (3, 2) one choice. Cybermen lists a group's move as such a square."""
    for squares in ([[2, 3], [3, 2], [0, 0], [11, 7], [5, 10], [7, 11]],  # two of them the same set
                    [[2, 3], [0, 0], [11, 7], [5, 10], [6, 1], [4, 4]]):  # every one a set of its own
        actions = [{"type": "move", "to": square, "fatigue": 0} for square in squares]
        entries = menus.build(actions, [f"move the group to ({r}, {c})" for r, c in squares])
        assert [entry.action for entry in entries] == actions
        assert all(entry.choice is None for entry in entries)


def test_listed_lists_that_tick_as_the_same_items_are_entries_of_their_own():
    """Lists of the same items in another order (a path from one square to another, named by
    strings) would tick alike, so a family picked item by item could not tell which was meant."""
    paths = [["a1", "b2"], ["b2", "a1"], ["a1", "c3"], ["c3", "b2"], ["d4", "a1"]]
    actions = [{"type": "route", "squares": listed} for listed in paths]
    entries = menus.build(actions, [f"route {' to '.join(listed)}" for listed in paths])
    assert [entry.action for entry in entries] == actions


def test_two_copies_of_a_card_are_two_items_to_tick():
    """A hand may hold a card twice (cards are named): a discard of both copies is listed, and
    the family is still one entry, with an item for each copy."""
    actions, words = discard_family(["a", "a", "b", "c"])
    unique = list({tuple(sorted(a["cards"])): a for a in actions}.values())  # the rules list each multiset once
    entries = menus.build(unique, [f"discard {len(a['cards'])} cards" for a in unique])
    assert len(entries) == 1, "eight listed discards are one line"
    choice = entries[0].choice
    assert [item.value for item in choice.items] == ["a", "a", "b", "c"]
    choice.toggle(0)
    choice.toggle(1)
    assert choice.problem() is None and choice.action() == {"type": "discard", "cards": ["a", "a"]}


def test_a_family_folds_when_its_items_are_ids_or_its_lists_differ_in_length():
    """A discard of exactly two of four cards (ids, every list of two) and a pick of any of
    three avatars by seat number (numbers, lists of different lengths) are sets of items."""
    pairs = [["a", "b"], ["a", "c"], ["a", "d"], ["b", "c"], ["b", "d"], ["c", "d"]]
    avatars = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2]]
    for field, lists in (("cards", pairs), ("avatars", avatars)):
        actions = [{"type": "pick", field: listed} for listed in lists]
        entries = menus.build(actions, [f"pick {listed}" for listed in lists])
        assert len(entries) == 1 and entries[0].choice is not None, field
