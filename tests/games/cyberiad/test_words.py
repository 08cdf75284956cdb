"""Cyberiad's words (domain/games/cyberiad/words.py) and terminal board (render.py), line by line.

The cross-game tests (tests/games/test_words.py, test_renderers.py) check that every line of
random play is plain text that names no hidden card; these pin what each line says: the
rulebook's terms (Fame, Trouble and Genius points, Sallies, Machines, Constructors), who did
it ("you" for the reader), which card, from where to where, and each card's details."""

import pytest

from domain.games.cyberiad.cards import CARDS, CONSTRUCTORS
from domain.games.cyberiad.render import render
from domain.games.cyberiad import RULESET
from domain.games.cyberiad.words import WORDS
from domain.kernel.terminal import plain_text

from ..reading import readers
from .table import table

NAMES = ["ann", "bob", "cat"]


said, phrase = readers(WORDS, NAMES)


# ---------------------------------------------------------------------------------------
# Details: what a hover or the catalog shows of a card or a Constructor
# ---------------------------------------------------------------------------------------

def test_a_cards_details_are_its_data_with_the_timing_marks_spelled_out():
    assert WORDS.details("nothing-machine") == {
        "id": "nothing-machine", "name": "Nothing Machine", "kind": "machine", "cost": 5, "fame": 5,
        "trouble": 5, "text": "Once on your turn (may): Gain 5TP + discard 1 card in play", "copies": 1,
        "designed": False}
    assert WORDS.details("idiot-machine")["text"] == "When it enters play: Opponent discards 1 random card"


def test_a_constructors_details_are_its_name_power_and_whether_it_was_designed():
    assert WORDS.details("turl") == {"id": "turl", "name": "Turl the Constructor", "kind": "constructor",
                                     "text": "Once on your turn you may gain 1 TP to draw 1 card.",
                                     "designed": False}
    assert WORDS.details("klapaucius")["designed"] is True


def test_unknown_ids_have_no_details_and_the_catalog_lists_every_card_and_constructor():
    assert WORDS.details("no-such-card") is None and WORDS.details(None) is None
    assert [d["id"] for d in WORDS.catalog()] == [*CARDS, *CONSTRUCTORS]


# ---------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("source,target,spectator,seat_one", [
    ("deck", "hand:1", "bob drew Thinking Machine", "you drew Thinking Machine"),
    ("hand:1", "discard", "bob discarded Thinking Machine", "you discarded Thinking Machine"),
    ("hand:1", "play:1", "bob put Thinking Machine into play", "you put Thinking Machine into play"),
    ("deck", "play:1", "Thinking Machine went from the deck into play for bob",
     "Thinking Machine went from the deck into play for you"),
    ("discard", "play:2", "Thinking Machine went from the discard pile into play for cat",
     "Thinking Machine went from the discard pile into play for cat"),
    ("play:1", "discard", "bob's Thinking Machine was discarded from play",
     "your Thinking Machine was discarded from play"),
    ("play:1", "hand:1", "bob's Thinking Machine went back to bob's hand",
     "your Thinking Machine went back to your hand"),
    ("play:2", "play:1", "bob took cat's Thinking Machine", "you took cat's Thinking Machine"),
    ("hand:2", "hand:1", "bob took Thinking Machine from cat's hand", "you took Thinking Machine from cat's hand"),
    ("discard", "hand:1", "bob took Thinking Machine from the discard pile",
     "you took Thinking Machine from the discard pile"),
    ("hand:1", "play:2", "Thinking Machine went from bob's hand to cat's cards in play",
     "Thinking Machine went from your hand to cat's cards in play"),
    ("deck", "discard", "Thinking Machine went from the deck to the discard pile",
     "Thinking Machine went from the deck to the discard pile"),
])
def test_a_card_moving_reads_as_who_moved_which_card_from_where_to_where(source, target, spectator, seat_one):
    fact = {"f": "move", "from": source, "to": target, "card": "thinking-machine"}
    assert said(fact) == spectator
    assert said(fact, viewer=1) == seat_one


def test_a_card_the_reader_may_not_see_is_a_card():
    assert said({"f": "move", "from": "deck", "to": "hand:1"}) == "bob drew a card"
    assert said({"f": "move", "from": "deck", "to": "hand:1", "card": None}) == "bob drew a card"
    assert said({"f": "move", "from": "deck", "to": "hand:1", "card": "no-such-card"}) == "bob drew a card"


def test_points_gained_and_lost_are_counted_in_the_rulebooks_terms():
    assert said({"f": "tokens", "seat": 0, "kind": "fame", "delta": 3}) == "ann gained 3 Fame points"
    assert said({"f": "tokens", "seat": 0, "kind": "fame", "delta": 1}, viewer=0) == "you gained 1 Fame point"
    assert said({"f": "tokens", "seat": 2, "kind": "trouble", "delta": -1}) == "cat lost 1 Trouble point"
    assert said({"f": "tokens", "seat": 2, "kind": "genius", "delta": -5}) == "cat lost 5 Genius points"
    assert said({"f": "tokens", "seat": 2, "kind": "luck", "delta": 2}) == "cat gained 2 luck"


def test_turns_imprisonment_and_leaving_the_game():
    assert said({"f": "turn", "number": 7, "seat": 1}) == "Turn 7: bob's turn began"
    assert said({"f": "turn", "number": 7, "seat": 1}, viewer=1) == "Turn 7: your turn began"
    assert said({"f": "imprisoned", "seat": 2, "delta": 1}) == "cat will miss a turn (imprisoned)"
    assert said({"f": "imprisoned", "seat": 2, "delta": -1}) is None  # the "skipped" fact says it
    assert said({"f": "skipped", "seat": 2}) == "cat missed the turn (imprisoned)"
    assert said({"f": "out", "seat": 2}) == "cat is out of the game"
    assert said({"f": "out", "seat": 2}, viewer=2) == "you are out of the game"


@pytest.mark.parametrize("kind,asked", [
    ("discard", "a card to discard"), ("target_opponent", "an opponent to target"),
    ("target_player", "a player to target"), ("steal", "a card to steal"), ("search_deck", "a card from the deck"),
    ("search_discard", "a card from the discard pile"), ("machine", "a Machine"),
    ("discard_in_play", "one of their cards in play to discard"),
    ("fill_hand", "whether to fill their hand to 10 cards"), ("something_new", "an option"),
])
def test_a_choice_asked_names_who_must_choose_what(kind, asked):
    assert said({"f": "prompt", "prompt": {"seat": 1, "kind": kind}}) == f"bob must choose {asked}"
    assert said({"f": "prompt", "prompt": None}) is None  # made: the choose action says so


@pytest.mark.parametrize("reason,words", [
    ("deck_empty", "the deck ran out"), ("fame_50", "a player reached 50 Fame points"),
    ("last_standing", "one player was left"), ("seven_sallies", "a player claimed 7 Sallies"),
    ("something_else", "it is over"),
])
def test_the_end_of_the_game_says_why(reason, words):
    assert said({"f": "over", "reason": reason}) == f"The game ended: {words}"
    assert WORDS.reason(reason) == (words if reason != "something_else" else "something else")


def test_looking_at_cards_names_them_only_when_the_reader_saw_them():
    cards = ["thinking-machine", "nothing-machine"]
    assert said({"f": "peek", "seat": 0, "zone": "deck", "cards": cards}) == \
        "ann looked at the top 2 cards of the deck: Thinking Machine and Nothing Machine"
    assert said({"f": "peek", "seat": 0, "zone": "deck", "cards": 1}) == "ann looked at the top 1 card of the deck"
    assert said({"f": "peek", "seat": 0, "zone": "hand:1", "cards": []}, viewer=1) == \
        "ann looked at your hand: no card"
    assert said({"f": "peek", "seat": 0, "zone": "hand:1", "cards": 3}) == "ann looked at bob's hand"


def test_trading_hands_shuffling_and_bookkeeping():
    assert said({"f": "swap_hands", "seats": [0, 2]}) == "ann and cat traded hands"
    assert said({"f": "swap_hands", "seats": [0, 2]}, viewer=0) == "you and cat traded hands"
    assert said({"f": "shuffle"}) == "The deck was shuffled"
    for kind in ("constructor", "played", "used", "last_machine"):
        assert said({"f": kind, "seat": 0, "name": "turl"}) is None


def test_a_constructor_picked_is_remembered_for_the_power_used_later():
    known = {}
    said({"f": "constructor", "seat": 0, "name": "cerebron"}, known=known)
    assert known == {("constructor", 0): "cerebron"}
    assert phrase({"type": "power"}, known=known) == f"use {CONSTRUCTORS['cerebron']['name']}'s power"
    said({"f": "played", "seat": 1}, known=known)
    assert known == {("constructor", 0): "cerebron"}


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

def test_picking_a_constructor_and_the_plain_actions():
    assert phrase({"type": "pick", "constructor": "turl"}) == "pick Turl the Constructor as Constructor"
    assert phrase({"type": "end_turn"}) == "end the turn"
    assert phrase({"type": "convert", "into": "fame"}) == "convert 5 Genius points into 1 Fame point"
    assert phrase({"type": "convert", "into": "draw"}) == "convert 5 Genius points into a card"
    assert phrase({"type": "convert", "into": "remove_trouble"}) == "convert 5 Genius points to remove 1 Trouble point"
    assert phrase({"type": "convert"}) == "convert 5 Genius points"


def test_a_play_names_the_card_its_type_cost_and_payment():
    assert phrase({"type": "play", "card": "thinking-machine", "pay": ["nothing-machine", "idiot-machine"]}) == \
        "play Thinking Machine (Machine, cost 4), paying with Nothing Machine and Idiot Machine"
    assert phrase({"type": "play", "card": "thinking-machine"}) == "play Thinking Machine (Machine, cost 4)"
    assert phrase({"type": "play", "card": "negotiations", "pay": ["idiot-machine", "nothing-machine"]}) == \
        "play Negotiations (Action, cost X), paying with Idiot Machine and Nothing Machine (so X is 2)"
    assert phrase({"type": "play", "card": "no-such-card", "pay": []}) == "play a card"


def test_a_listed_play_says_which_other_payments_the_rules_accept():
    hand = ["nothing-machine", "idiot-machine"]
    worth = {"type": "array", "items": {"enum": hand}, "worth_at_least": 4, "worth": {"nothing-machine": 2}}
    play = {"type": "play", "card": "thinking-machine", "pay": hand, "params": {"pay": worth}}
    assert phrase(play) == ("play Thinking Machine (Machine, cost 4), paying with Nothing Machine and Idiot Machine"
                            " — or any of Nothing Machine or Idiot Machine worth at least 4"
                            " (Nothing Machine counts 2)")
    plain = {**worth, "worth": {}}
    assert phrase({**play, "params": {"pay": plain}}).endswith(
        " — or any of Nothing Machine or Idiot Machine worth at least 4")
    free = {**worth, "worth_at_least": 0}
    assert phrase({**play, "params": {"pay": free}}).endswith("paying with Nothing Machine and Idiot Machine")
    x = {"type": "array", "items": {"enum": hand}, "minItems": 1}
    assert phrase({"type": "play", "card": "negotiations", "pay": hand[:1], "params": {"pay": x}}) == (
        "play Negotiations (Action, cost X), paying with Nothing Machine (so X is 1)"
        " — or discard any one or more of Nothing Machine or Idiot Machine (X is how many)")


def test_an_ability_or_power_offered_says_what_it_does_and_in_the_log_only_its_name():
    view = {"players": [{"constructor": "turl"}]}
    assert phrase({"type": "use", "card": "thinking-machine"}, view=view) == \
        "use Thinking Machine (Once on your turn (may): Remove 1 TP)"
    assert phrase({"type": "use", "card": "thinking-machine"}) == "use Thinking Machine"
    assert phrase({"type": "power"}, view=view) == \
        "use Turl the Constructor's power (Once on your turn you may gain 1 TP to draw 1 card)"
    assert phrase({"type": "power"}) == "use the Constructor's power"  # nobody named a Constructor yet


@pytest.mark.parametrize("option,kind,words", [
    (2, "target_opponent", "choose cat as the target"),
    (2, "target_player", "choose cat as the target"),
    (2, "machine", "choose cat"),
    ("yes", "fill_hand", "answer yes (fill your hand to 10 cards)"),
    ("no", "fill_hand", "answer no (fill your hand to 10 cards)"),
    ("no", "other", "answer no"),
    ("thinking-machine", "discard", "discard Thinking Machine"),
    ("thinking-machine", "steal", "steal Thinking Machine"),
    ("thinking-machine", "discard_in_play", "discard Thinking Machine"),
    ("thinking-machine", "search_deck", "choose Thinking Machine"),
])
def test_a_choice_made_says_what_was_chosen_for_the_question_asked(option, kind, words):
    view = {"players": [{"constructor": "turl"}], "prompt": {"seat": 0, "kind": kind}}
    assert phrase({"type": "choose", "option": option}, view=view) == words


def test_a_choice_without_an_option_or_a_view():
    assert phrase({"type": "choose"}) == "make a choice"
    assert phrase({"type": "choose", "option": 1}) == "choose bob"
    assert phrase({"type": "choose", "option": True}) == "choose a card"


# ---------------------------------------------------------------------------------------
# The terminal board
# ---------------------------------------------------------------------------------------

def board_of(state, seat=0):
    return plain_text(render(RULESET.view(state, seat), sorted(RULESET.to_act(state))))  # as the terminal draws it


def test_the_board_heads_with_the_game_phase_turn_and_whose_turn():
    text = board_of(table(seats=2, turn=1, number=9, discard=["idiot-machine", "thinking-machine"], deck=["x"] * 3))
    assert text.splitlines()[0].strip() == "Cyberiad · play · turn 9 · seat 1's turn"
    assert "deck ▒▒▒ 3 cards  discard 2" in text and "top Thinking Machine (4)" in text


def marked(text: str) -> list[str]:
    """The panel titles drawn as the seat to act (a ▶ in the top border)."""
    return [line.split("·")[0].split("▶")[1].strip() for line in text.splitlines() if "▶" in line]


def test_the_panel_of_the_seat_whose_turn_it_is_is_marked_until_the_game_ends():
    state = table(seats=3, turn=1)
    assert marked(board_of(state)) == ["seat 1"]
    state["over"] = {"reason": "deck_empty"}
    assert marked(board_of(state)) == []


def test_a_finished_game_names_no_turn_and_a_pending_choice_names_who_is_asked():
    state = table(seats=2, turn=1)
    state["over"] = {"reason": "deck_empty"}
    assert "seat 1's turn" not in board_of(state)
    asked = table(seats=2, turn=1)
    asked["prompt"] = {"seat": 0, "kind": "discard", "actor": 1, "options": ["x"]}
    assert board_of(asked).splitlines()[-1].strip() == "waiting on seat 0: discard"
    assert "waiting on" not in board_of(table(seats=2))


def test_a_panel_lists_cards_in_play_by_name_and_cost_and_shows_each_status():
    state = table(seats=3, play=[["thinking-machine", "nothing-machine"], ["probability-proof-shields"], []])
    state["out"][2] = True
    state["imprisoned"][1] = 1
    text = board_of(state)
    assert "in play    Thinking Machine (4), Nothing Machine (5)" in text
    assert "shielded, imprisoned 1" in text  # seat 1's panel: Probability Proof Shields and a turn to miss
    assert "OUT" in text
