"""Cybermen's words (the log and the listed actions for a person), its terminal map and its
search hooks: each test says what a reader or the search bot must be told, and fails when the
words or the sample say otherwise. The wording is the game's own (words.py), never the
rulebook's; the search hooks follow domain/kernel/search.py's contract."""

import random
from collections import Counter

from domain.games.cybermen import RULESET
from domain.games.cybermen.data import DATA, ITEMS, MAP
from domain.games.cybermen.render import TERRAIN
from domain.games.cybermen.search import determinize, evaluate
from domain.kernel.rng import RandomStream
from domain.kernel.terminal import plain_text
from domain.kernel.words import Context

from .helpers import fresh, give, place

WORDS = RULESET.words
NAMES = ["ann", "bob", "cat"]


def said(fact, viewer=None, known=None):
    return WORDS.fact(fact, Context(NAMES, viewer=viewer, known=known), strict=True)


def offered(action, view, viewer=0):
    return WORDS.action(action, Context(NAMES, viewer=viewer, view=view), strict=True)


def test_every_fact_and_listed_action_of_greedy_matches_has_words():
    """Two- and three-seat greedy matches to the end: every fact of the log, as each seat reads
    it (redacted), and every action listed to the seat to act, is worded without a fallback."""
    for seats, seed in ((2, 1), (3, 2)):
        rand = random.Random(seed)
        key = rand.randbytes(32)
        state = RULESET.setup({}, NAMES[:seats], RandomStream(key, "words", 1))
        readers = [Context(NAMES[:seats], viewer=s) for s in range(seats)]
        kinds, seq = Counter(), 2
        while RULESET.outcome(state) is None:
            seat = min(RULESET.to_act(state))
            view = RULESET.view(state, seat)
            for action in RULESET.legal_actions(state, seat):
                assert WORDS.action(action, Context(NAMES[:seats], viewer=seat, view=view), strict=True)
            action = RULESET.bots["greedy"](state, seat, rand)
            for fact in RULESET.decide(state, seat, action, RandomStream(key, "words", seq)):
                kinds[fact["f"]] += 1
                for reader in range(seats):
                    WORDS.fact(RULESET.redact(fact, reader), readers[reader], strict=True)
                state = RULESET.evolve(state, fact)
            seq += 1
        assert {"roll", "move_group", "attack", "hit", "over"} <= set(kinds)


def test_people_and_cybermen_are_named_by_their_parts():
    assert said({"f": "convert", "id": "c9", "char": "0.bride"}) == "The Bride of The Happy Couple was converted"
    assert said({"f": "move", "id": "x", "to": [1, 2]}) == "a Cyberman moved to (1, 2)"
    known = {}
    said({"f": "spawn", "id": "c7", "pos": [3, 4], "facing": "S", "mark": 2, "role": "partial", "seat": 1,
          "origin": "1.usher"}, known=known)
    assert said({"f": "move", "id": "c7", "to": [3, 5]}, known=known) == "bob's partial conversion (Cyberman 7) moved to (3, 5)"
    said({"f": "cyberman", "id": "c7", "set": {"role": "leader", "seat": 1}}, known=known)
    assert said({"f": "face", "id": "c7", "facing": "W"}, known=known) == "the Cyberleader (Cyberman 7) turned to face west"


def test_the_dice_are_read_with_their_counts():
    assert said({"f": "roll", "purpose": "cybermen", "value": 1}) == "The die rolled 1: up to 1 Cyberman move"
    assert said({"f": "roll", "purpose": "cybermen", "value": 3}) == "The die rolled 3: up to 3 Cybermen move"


def test_a_groups_status_reads_for_the_reader_and_for_others():
    escaped = {"f": "group", "seat": 1, "set": {"status": "escaped"}}
    assert said(escaped) == "The Best Man's Lot (bob) is done: no member of the group is left to save"
    assert said(escaped, viewer=1) == "The Best Man's Lot (you) are done: no member of the group is left to save"
    lieutenant = {"f": "group", "seat": 1, "set": {"status": "lieutenant"}}
    assert said(lieutenant) == "bob now plays a Cyberlieutenant"
    assert said(lieutenant, viewer=1) == "you now play a Cyberlieutenant"
    assert said({"f": "group", "seat": 0, "set": {"fatigue": 2}}) == "The Happy Couple (ann): 2 Fatigue tokens left"


def test_an_attack_reads_its_roll_and_the_tokens_spent():
    plain = {"f": "attack", "id": "c5", "target": "group1", "roll": 4}
    assert said(plain) == "Cyberman 5 attacked The Best Man's Lot (bob): rolled 4"
    assert said({**plain, "fatigue": 2}) == "Cyberman 5 attacked The Best Man's Lot (bob): rolled 4, spending 2 Fatigue tokens"


def test_prompts_say_who_must_choose_what():
    capture = {"kind": "capture", "seat": 1, "attacker": "c5", "victim": 1, "options": ["1.geek"]}
    assert said({"f": "prompt", "prompt": capture}) == ("bob must choose whom Cyberman 5 captures from "
                                                         "The Best Man's Lot (bob)")
    offer = {"kind": "offer", "seat": 2, "options": ["c8"], "carrier": "c5"}
    assert said({"f": "prompt", "prompt": offer}) == ("cat may play Cyberman 8, the Cyberman of their last human, "
                                                      "as a Cyberlieutenant, or stand down")
    assert said({"f": "prompt", "prompt": offer}, viewer=2) == ("you may play Cyberman 8, the Cyberman of your "
                                                                "last human, as a Cyberlieutenant, or stand down")


def test_sabotage_and_the_cyberleader_read_plainly():
    known = {("unit", "u1"): [2, 3]}
    success = {"f": "sabotage", "seat": 0, "unit": "u1", "roll": 5, "success": True}
    assert said(success, known=known) == (f"The Happy Couple (ann) sabotaged the Cyberconversion Unit at (2, 3): "
                                          f"rolled 5, {DATA['sabotage']['vp']} Victory Points")
    assert said({"f": "leader", "seat": None}) == "There is no Cyberleader now"


def test_the_arrival_die_is_named_in_the_log():
    """End of round: 'a Cyberman of the current Mark arrives on a square chosen by a die' (the
    designed stand-in for the reveal tile phase); the log names that die."""
    from domain.games.cybermen.facts import evolve
    from domain.games.cybermen.flow import arrivals
    from domain.kernel.decision import Decision
    d = Decision(place(fresh(2)), RandomStream(b"k" * 32, "arrival", 1), evolve)
    arrivals(d)
    roll = next(f for f in d.facts if f["f"] == "roll")
    assert said(roll) == f"The arrival die rolled {roll['value']}"


def test_the_words_remember_the_cyberman_that_must_face():
    """'the moving player determines which of the four possible directions it faces': the log's
    face action names the Cyberman the last `active` fact set."""
    ctx = Context(NAMES, viewer=None)
    WORDS.fact({"f": "spawn", "id": "c6", "pos": [1, 1], "facing": "N", "mark": 1, "role": "normal", "seat": None,
                "origin": None}, ctx, strict=True)
    WORDS.fact({"f": "active", "active": {"id": "c6", "seat": 0, "stage": "face", "attack": True}}, ctx, strict=True)
    assert WORDS.action({"type": "face", "facing": "E"}, ctx, strict=True) == "turn Cyberman 6 to face east"


def test_listed_actions_name_the_weakness_card_the_tokens_and_the_abilities():
    state = place(fresh(), groups={0: [4, 4]}, cybermen=[{"id": "c5", "pos": [4, 5], "mark": 3},
                                                          {"id": "c6", "pos": [8, 8], "mark": 4, "role": "leader",
                                                           "seat": 1}])
    state["prompt"] = {"kind": "defend", "seat": 0, "attacker": "c5", "roll": 5, "needs": 4}
    view = RULESET.view(state, 0)
    assert offered({"type": "weakness"}, view) == "discard Gold to drive the Cyberman off"
    state["prompt"], state["active"] = None, {"id": "c5", "seat": 0, "stage": "attack", "attack": True}
    view = RULESET.view(state, 0)
    assert offered({"type": "attack", "target": "c6", "fatigue": 1}, view) == (
        "attack the Cyberleader (Cyberman 6) with Cyberman 5, spending 1 Fatigue token")
    assert offered({"type": "use_ability", "id": "c5"}, view) == "use Cyberman 5's Energy Beam and Cyberguns"
    assert offered({"type": "use_ability", "id": "c6"}, view) == "use the Cyberleader (Cyberman 6)'s Mind Control"


def test_the_catalog_lists_every_item_and_each_marks_speed():
    catalog = WORDS.catalog()
    assert [entry["name"] for entry in catalog[:len(ITEMS)]] == [DATA["item_names"][card] for card in ITEMS]
    marks = {entry["id"]: entry for entry in catalog if entry["kind"] == "Cyberman Mark"}
    assert marks["mark-5"]["name"] == "Mark V" and marks["mark-5"]["speed"] == 3
    assert marks["mark-1"]["speed"] == 1 and marks["mark-1"]["designed"] is False  # the expansion's table


def test_the_terminal_map_shows_the_turn_points_squares_discards_and_prompt():
    state = place(fresh(), groups={0: [4, 4]}, cybermen=[{"id": "c5", "pos": [6, 7], "facing": "E"}])
    state["groups"][0]["vp"] = 47
    state["discard"] = ["gold"]
    state["prompt"] = {"kind": "defend", "seat": 0, "attacker": "c5", "roll": 5, "needs": 4}
    text = plain_text(RULESET.render(RULESET.view(state, 0)))
    assert "seat 0's turn" in text
    group_row = next(line for line in text.splitlines() if "The Happy Couple" in line)
    assert "at 4,4" in group_row and "47" in group_row  # its square and its Victory Points
    assert "6,7" in text
    assert "Gold" in text
    assert "waiting on seat 0: defend" in text
    assert "  0 " + " ".join(TERRAIN[t][0] for t in MAP[0]) in text  # the map's first row, a glyph a square


def test_determinize_deals_only_what_the_seat_cannot_see():
    """The sample keeps the seat's own hand and the public figures, deals the other hands and the
    draw pile from the same cards, keeps the pile sorted, and leaves the real state untouched."""
    state = fresh(2)
    for group in state["groups"]:
        state["deck"] += group["hand"]
        group["hand"] = []
    state["deck"].sort()
    give(state, 0, "gold")
    give(state, 1, "solvents", "hacking")
    before = RULESET.view(state, 0)
    dealt = Counter()
    for seed in range(40):
        sample = determinize(state, 0, random.Random(seed))
        assert sample["groups"][0]["hand"] == ["gold"]
        assert len(sample["groups"][1]["hand"]) == 2
        assert sample["deck"] == sorted(sample["deck"])
        assert Counter(sample["deck"] + sample["groups"][1]["hand"]) == Counter(state["deck"] + ["solvents", "hacking"])
        dealt[tuple(sorted(sample["groups"][1]["hand"]))] += 1
    assert RULESET.view(state, 0) == before and state["groups"][1]["hand"] == ["solvents", "hacking"]
    assert len(dealt) > 1  # the hidden hand is dealt anew, not copied


def test_evaluate_ranks_points_and_puts_an_out_player_last():
    state = fresh(2)
    assert evaluate(state) == [0.5, 0.5]
    state["groups"][0]["vp"] = 3
    ahead, behind = evaluate(state)
    assert ahead > 0.5 > behind and ahead < 1
    state["groups"][1].update(status="out", members=[], vp=0)  # its Cyberlieutenant destroyed
    state["groups"][0].update(status="converted", members=[], vp=0)  # stood down: nothing left to bring
    assert evaluate(state)[0] > 0.5 > evaluate(state)[1]  # an out player wins nothing, not even a tie
