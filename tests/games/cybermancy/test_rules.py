"""Cybermancy rules, each from the rulebook's wording, including its own examples."""

import pytest

from domain.games.cybermancy import RULESET
from domain.games.cybermancy.cards import CREATURES, POWER_VALUE, SUGGESTED
from domain.kernel.errors import IllegalAction, InvalidSetup
from domain.kernel.rng import RandomStream

from .arena import act, arena, card_with, choose, power_cards, put, refused

ONE_ONE = card_with(cpu=1, ram=1, keyword="battle_ready")  # the designed data has no 1/1 without a keyword
PLAIN_SMALL = card_with(cpu=2, ram=1, plain=True)
TWO_TWO = card_with(cpu=2, ram=2, plain=True)
BIG = card_with(cpu=6, ram=6, plain=True)


def test_setup_as_the_rulebook_says():
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    for player in state["players"]:
        assert len(player["hand"]) == 7 and len(player["deck"]) == 23
        assert len(player["cpu"]) == len(player["ram"]) == 5
        assert player["health"] == 30 and player["track"] == {"cpu": 1, "ram": 1}
    assert sorted(state["players"][0]["hand"] + state["players"][0]["deck"]) == sorted(SUGGESTED["human"])
    assert sorted(state["players"][1]["hand"] + state["players"][1]["deck"]) == sorted(SUGGESTED["undead"])
    assert state["phase"] == "mulligan" and RULESET.to_act(state) == {state["first"]}


def test_one_mulligan_of_any_number_of_cards_reshuffled_into_their_decks():
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    first = state["first"]
    player = state["players"][first]
    back = player["hand"][:3]
    state = act(state, first, {"type": "mulligan", "creatures": back, "cpu": player["cpu"][:2], "ram": []})
    player = state["players"][first]
    assert len(player["hand"]) == 7 and len(player["cpu"]) == 5 and len(player["deck"]) == 23
    assert sorted(player["hand"] + player["deck"]) == sorted(SUGGESTED["human" if first == 0 else "undead"])
    assert RULESET.to_act(state) == {1 - first}
    refused(state, 1 - first, {"type": "mulligan", "creatures": ["not-a-card"]}, "not_yours")
    state = act(state, 1 - first, {"type": "mulligan"})
    assert state["phase"] == "main" and state["turn"] == first  # each mulligans once, then round 1 begins


def test_the_rulebooks_3_3_example_power_paid_earlier_covers_later_summons():
    cpu3, ram3 = power_cards("cpu", 3, 1), power_cards("ram", 3, 1)
    state = arena(hands={0: [TWO_TWO, ONE_ONE]}, tracks={0: {"cpu": 3, "ram": 3}}, cpu={0: cpu3}, ram={0: ram3})
    state = act(state, 0, {"type": "summon", "card": TWO_TWO, "cpu": cpu3, "ram": ram3})
    assert state["players"][0]["pool"] == {"cpu": 1, "ram": 1}
    state = act(state, 0, {"type": "summon", "card": ONE_ONE, "cpu": [], "ram": []})
    assert state["players"][0]["pool"] == {"cpu": 0, "ram": 0}
    assert state["players"][0]["summoned"] == {"cpu": 3, "ram": 3}


def test_costs_are_capped_by_the_power_track_and_so_is_the_rounds_total():
    state = arena(hands={0: [TWO_TWO, ONE_ONE, card_with(cpu=1, ram=1, keyword="frontline")]},
                  cpu={0: power_cards("cpu", 2, 1)}, ram={0: power_cards("ram", 2, 1)})
    refused(state, 0, {"type": "summon", "card": TWO_TWO, "cpu": power_cards("cpu", 2, 1),
                       "ram": power_cards("ram", 2, 1)}, "over_power_track")  # "on the first round, only a 1/1"
    state = act(state, 0, {"type": "summon", "card": ONE_ONE, "cpu": power_cards("cpu", 2, 1),
                           "ram": power_cards("ram", 2, 1)})
    assert state["players"][0]["pool"] == {"cpu": 1, "ram": 1}  # overpaid
    refused(state, 0, {"type": "summon", "card": card_with(cpu=1, ram=1, keyword="frontline")}, "round_power_spent")


def test_several_cards_may_pay_one_cost_and_overpay_is_lost_at_the_round_end():
    ones = power_cards("cpu", 1, 2)
    state = arena(hands={0: [TWO_TWO]}, tracks={0: {"cpu": 2, "ram": 2}}, cpu={0: ones},
                  ram={0: power_cards("ram", 3, 1)})
    refused(state, 0, {"type": "summon", "card": TWO_TWO, "cpu": ones[:1], "ram": power_cards("ram", 3, 1)},
            "insufficient_power")
    state = act(state, 0, {"type": "summon", "card": TWO_TWO, "cpu": ones, "ram": power_cards("ram", 3, 1)})
    assert state["players"][0]["pool"] == {"cpu": 0, "ram": 1}
    state = act(state, 0, {"type": "end_turn"})
    for seat in (1, 0):  # both pass: attacks are over
        state = act(state, seat, {"type": "end_turn"})
    for seat in (0, 1):  # one last chance to summon each
        state = act(state, seat, {"type": "end_turn"})
    for seat in (0, 1):
        state = act(state, seat, {"type": "advance", "track": "ram"})
    assert state["round"] == 2 and state["players"][0]["pool"] == {"cpu": 0, "ram": 0}
    assert state["players"][0]["summoned"] == {"cpu": 0, "ram": 0}  # a new round's summons start at 0
    assert (state["turn"], state["passes"], state["acted"], state["attacked"], state["phase"]) == \
        (state["initiative"], 0, False, False, "main")


def test_buffered_active_exhausted():
    battle_ready = card_with(keyword="battle_ready", cpu=1, ram=1)
    state = arena(hands={0: [PLAIN_SMALL, battle_ready]}, tracks={0: {"cpu": 3, "ram": 2}},
                  cpu={0: power_cards("cpu", 3, 1)}, ram={0: power_cards("ram", 2, 1)})
    state = act(state, 0, {"type": "summon", "card": PLAIN_SMALL, "cpu": power_cards("cpu", 3, 1),
                           "ram": power_cards("ram", 2, 1)})
    buffered = state["players"][0]["main"][0]
    refused(state, 0, {"type": "attack", "attacker": buffered, "target": "cybermancer:1"}, "not_active")
    state = act(state, 0, {"type": "summon", "card": battle_ready})
    ready = state["players"][0]["main"][1]
    state = act(state, 0, {"type": "attack", "attacker": ready, "target": "cybermancer:1"})  # summon, then attack
    assert state["creatures"][ready]["status"] == "exhausted"
    assert state["players"][1]["health"] == 30 - CREATURES[battle_ready]["attack"]
    refused(state, 0, {"type": "attack", "attacker": ready, "target": "cybermancer:1"}, "one_attack_per_turn")


def test_simultaneous_damage_markers_stay_and_being_attacked_does_not_exhaust():
    state = arena()
    big = put(state, 0, BIG)
    small = put(state, 1, TWO_TWO)
    state = act(state, 0, {"type": "attack", "attacker": big, "target": small})
    assert small not in state["creatures"]  # destroyed: removed from play, to the graveyard
    assert TWO_TWO in state["players"][1]["graveyard"]
    assert state["creatures"][big]["damage"] == CREATURES[TWO_TWO]["attack"]  # its damage marker stays
    state = arena()
    attacker = put(state, 0, ONE_ONE)
    tough = put(state, 1, BIG)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": tough})
    assert attacker not in state["creatures"]  # both strike at once: the attacker dies too
    assert state["creatures"][tough]["damage"] == CREATURES[ONE_ONE]["attack"]
    assert state["creatures"][tough]["status"] == "active"  # attacked, not exhausted


def attack_targets(state, seat, attacker):
    return {a["target"] for a in RULESET.legal_actions(state, seat)
            if a["type"] == "attack" and a["attacker"] == attacker}


def test_frontline_blocks_the_main_area_and_the_cybermancer():
    """"the opposing Cybermancer may not attack any cards in the Main Area or their Cybermancer
    until all cards in the Frontline area have been destroyed" -- asserted while attacks are legal."""
    state = arena()
    attacker, second = put(state, 0, BIG), put(state, 0, BIG)
    wall = put(state, 1, card_with(keyword="frontline", cpu=1, ram=1), area="frontline")
    other_wall = put(state, 1, card_with(keyword="frontline", cpu=1, ram=1), area="frontline")
    behind = put(state, 1, ONE_ONE)
    assert attack_targets(state, 0, attacker) == {wall, other_wall}  # attacking is legal, but only the wall
    for target in (behind, "cybermancer:1"):
        refused(state, 0, {"type": "attack", "attacker": attacker, "target": target}, "blocked_or_invalid_target")
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": wall})
    assert wall not in state["creatures"]
    state["attacked"] = False  # the next turn: one Frontline card is left, and it still blocks
    assert attack_targets(state, 0, second) == {other_wall}
    refused(state, 0, {"type": "attack", "attacker": second, "target": "cybermancer:1"}, "blocked_or_invalid_target")
    state = act(state, 0, {"type": "attack", "attacker": second, "target": other_wall})
    state["attacked"] = False
    state["creatures"][second]["status"] = "active"
    assert attack_targets(state, 0, second) == {behind, "cybermancer:1"}  # the Frontline is gone


def test_frontline_keyword_enters_the_frontline():
    wall = card_with(keyword="frontline", cpu=1, ram=1)
    state = act(arena(hands={0: [wall]}, cpu={0: power_cards("cpu", 1, 1)}, ram={0: power_cards("ram", 1, 1)}), 0,
                {"type": "summon", "card": wall, "cpu": power_cards("cpu", 1, 1), "ram": power_cards("ram", 1, 1)})
    assert len(state["players"][0]["frontline"]) == 1 and state["players"][0]["main"] == []
    (uid,) = state["players"][0]["frontline"]
    card = CREATURES[wall]
    assert state["creatures"][uid] == {"card": wall, "owner": 0, "attack": card["attack"], "health": card["health"],
                                       "damage": 0, "status": "buffered", "crawler": False}
    assert uid == f"c{state['next_uid'] - 1}"


def test_the_game_ends_at_once_when_a_cybermancer_reaches_0():
    state = arena(health={1: 3})
    attacker = put(state, 0, BIG)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": "cybermancer:1"})
    assert RULESET.outcome(state) == {"reason": "cybermancer_defeated", "winners": [0],
                                      "health": [30, 3 - CREATURES[BIG]["attack"]], "rounds": 1, "out": [1]}
    assert RULESET.to_act(state) == set()


def test_call_to_arms_health_buff_may_target_cybermancers_and_split_among_targets():
    healer = next(card_id for card_id, card in sorted(CREATURES.items())  # one whose buff splits in two
                  if card.get("call_to_arms", {}).get("kind") == "health" and card["call_to_arms"]["amount"] == 2)
    card = CREATURES[healer]
    state = arena(hands={0: [healer]}, tracks={0: {"cpu": card["cpu"], "ram": card["ram"]}}, health={0: 20},
                  cpu={0: power_cards("cpu", 3, 2)}, ram={0: power_cards("ram", 3, 2)})
    friend = put(state, 0, ONE_ONE)
    state = act(state, 0, {"type": "summon", "card": healer, "cpu": power_cards("cpu", 3, 2),
                           "ram": power_cards("ram", 3, 2)})
    assert state["prompt"]["kind"] == "health" and "cybermancer:0" in state["prompt"]["options"]
    assert f"c{state['next_uid'] - 1}" not in state["prompt"]["options"]  # not itself
    state = choose(state, "cybermancer:0")
    state = choose(state, friend)
    assert state["creatures"][friend]["health"] == CREATURES[ONE_ONE]["health"] + 1
    assert state["players"][0]["health"] == 21 and state["prompt"] is None


def test_call_to_arms_other_effects_apply_to_creatures_only():
    striker = card_with(keyword="call_to_arms", call_to_arms="damage")
    card = CREATURES[striker]
    state = arena(hands={0: [striker]}, tracks={0: {"cpu": card["cpu"], "ram": card["ram"]}},
                  cpu={0: power_cards("cpu", 3, 2)}, ram={0: power_cards("ram", 3, 2)})
    victim = put(state, 1, ONE_ONE)
    other = put(state, 1, BIG)
    state = act(state, 0, {"type": "summon", "card": striker, "cpu": power_cards("cpu", 3, 2),
                           "ram": power_cards("ram", 3, 2)})
    assert not any(o.startswith("cybermancer") for o in state["prompt"]["options"])
    state = choose(state, victim)
    assert victim not in state["creatures"] and other in state["creatures"]


def test_last_gasp_happens_the_moment_the_creature_is_killed():
    dying = card_with(keyword="last_gasp", last_gasp="health")
    state = arena(health={1: 20})
    attacker = put(state, 0, BIG)
    victim = put(state, 1, dying)
    put(state, 1, ONE_ONE)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": victim})
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "health"  # its owner chooses
    state = choose(state, "cybermancer:1")
    assert state["players"][1]["health"] == 21


def test_undead_crawlers_rise_buffered_in_the_same_area_and_die_for_good():
    undead = card_with(keyword="crawler")
    crawler_stats = CREATURES[undead]["crawler"]
    state = arena()
    attacker = put(state, 0, BIG)
    corpse = put(state, 1, undead, area="frontline")
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": corpse})
    crawler = state["creatures"][corpse]
    assert corpse in state["players"][1]["frontline"]
    assert (crawler["attack"], crawler["health"], crawler["damage"], crawler["status"], crawler["crawler"]) == \
        (crawler_stats["attack"], crawler_stats["health"], 0, "buffered", True)
    state["attacked"] = False
    second = put(state, 0, BIG)
    state = act(state, 0, {"type": "attack", "attacker": second, "target": corpse})
    assert corpse not in state["creatures"] and state["players"][1]["graveyard"] == [undead]


def test_promote_moves_another_main_creature_to_the_frontline_or_is_lost():
    promoter = card_with(keyword="promote", cpu=1, ram=2)
    card = CREATURES[promoter]
    setup = dict(hands={0: [promoter]}, tracks={0: {"cpu": card["cpu"], "ram": card["ram"]}},
                 cpu={0: power_cards("cpu", 3, 1)}, ram={0: power_cards("ram", 3, 1)})
    summon = {"type": "summon", "card": promoter, "cpu": power_cards("cpu", 3, 1), "ram": power_cards("ram", 3, 1)}
    state = arena(**setup)
    friend = put(state, 0, ONE_ONE)
    state = act(state, 0, summon)  # one other creature: promoted without asking
    assert state["players"][0]["frontline"] == [friend]
    alone = act(arena(**setup), 0, summon)  # "if there are no other creatures in the Main area, this ability is lost"
    assert alone["players"][0]["frontline"] == [] and len(alone["players"][0]["main"]) == 1
    assert alone["prompt"] is None


def test_a_power_deck_that_runs_out_reshuffles_its_used_cards():
    state = arena()
    used = state["cpu_deck"]
    state["cpu_used"], state["cpu_deck"] = used, []
    for seat in (0, 1):
        state = act(state, seat, {"type": "end_turn"})
    for seat in (0, 1):
        state = act(state, seat, {"type": "end_turn"})
    assert len(state["players"][0]["cpu"]) == 1 and state["cpu_used"] == []
    assert len(state["cpu_deck"]) == len(used) - 2


def test_round_order_and_initiative_to_the_player_who_did_not_attack_last():
    state = arena(turn=0)
    hitter = put(state, 1, ONE_ONE)
    deck_sizes = [len(p["deck"]) for p in state["players"]]
    state = act(state, 0, {"type": "end_turn"})  # pass
    state = act(state, 1, {"type": "attack", "attacker": hitter, "target": "cybermancer:0"})
    state = act(state, 1, {"type": "end_turn"})
    state = act(state, 0, {"type": "end_turn"})  # pass
    assert state["phase"] == "main"
    state = act(state, 1, {"type": "end_turn"})  # pass: two passes in a row end attacks
    assert state["phase"] == "last_summon" and RULESET.to_act(state) == {0}
    refused(state, 0, {"type": "attack", "attacker": hitter, "target": "cybermancer:0"}, "wrong_phase")
    state = act(act(state, 0, {"type": "end_turn"}), 1, {"type": "end_turn"})
    # Draw (1 creature, 1 CPU, 1 RAM each), Refresh, then Advance Power.
    assert [len(p["deck"]) for p in state["players"]] == [n - 1 for n in deck_sizes]
    assert all(len(p["cpu"]) == 1 and len(p["ram"]) == 1 for p in state["players"])
    assert state["creatures"][hitter]["status"] == "active" and state["phase"] == "advance"
    refused(state, 0, {"type": "advance", "track": "gpu"}, "unknown_track")
    state = act(act(state, 0, {"type": "advance", "track": "cpu"}), 1, {"type": "advance", "track": "ram"})
    assert state["players"][0]["track"] == {"cpu": 2, "ram": 1}
    assert state["round"] == 2 and state["initiative"] == 0  # seat 1 attacked last


def test_multiplayer_initiative_goes_left_of_the_last_attacker_and_last_standing_wins():
    state = arena(seats=3, turn=0, health={1: 1})
    hitter = put(state, 2, BIG)
    state = act(state, 0, {"type": "end_turn"})
    state = act(state, 1, {"type": "end_turn"})
    state = act(state, 2, {"type": "attack", "attacker": hitter, "target": "cybermancer:1"})
    assert state["players"][1]["out"] and not state["over"]
    state = act(state, 2, {"type": "end_turn"})
    assert state["turn"] == 0  # the eliminated seat is skipped
    state["players"][0]["health"] = 1
    state["creatures"][hitter]["status"] = "active"
    state = act(act(state, 0, {"type": "end_turn"}), 2, {"type": "attack", "attacker": hitter, "target": "cybermancer:0"})
    assert RULESET.outcome(state)["winners"] == [2]


def test_multiplayer_round_passes_initiative_left_of_the_last_attacker():
    state = arena(seats=3, turn=0)
    hitter = put(state, 1, ONE_ONE)
    state = act(state, 0, {"type": "end_turn"})
    state = act(state, 1, {"type": "attack", "attacker": hitter, "target": "cybermancer:2"})
    state = act(state, 1, {"type": "end_turn"})
    for seat in (2, 0, 1):  # three passes in a row
        state = act(state, seat, {"type": "end_turn"})
    for seat in (0, 1, 2):
        state = act(state, seat, {"type": "end_turn"})
    for seat in (0, 1, 2):
        state = act(state, seat, {"type": "advance", "track": "cpu"})
    assert state["initiative"] == 2


def test_teams_sit_across_cannot_attack_teammates_and_lose_when_both_are_out():
    state = arena(seats=4, mode="teams", health={1: 1, 3: 1})
    hitter = put(state, 0, BIG)
    assert "cybermancer:2" not in {a.get("target") for a in RULESET.legal_actions(state, 0)}
    refused(state, 0, {"type": "attack", "attacker": hitter, "target": "cybermancer:2"}, "blocked_or_invalid_target")
    state = act(state, 0, {"type": "attack", "attacker": hitter, "target": "cybermancer:1"})
    assert state["players"][1]["out"] and not state["over"]
    state["attacked"] = False
    state["creatures"][hitter]["status"] = "active"
    state = act(state, 0, {"type": "attack", "attacker": hitter, "target": "cybermancer:3"})
    assert RULESET.outcome(state)["winners"] == [0, 2]


def test_draft_alternating_picks_until_each_has_30_distinct_cards():
    state = RULESET.setup({"draft": True}, ["ann", "bob"], RandomStream(b"d" * 32, "m", 1))
    first = state["first"]
    seq = 2
    while state["phase"] == "draft":
        (seat,) = RULESET.to_act(state)
        card = RULESET.legal_actions(state, seat)[0]["card"]
        facts = RULESET.decide(state, seat, {"type": "draft", "card": card}, RandomStream(b"d" * 32, "m", seq))
        for fact in facts:
            state = RULESET.evolve(state, fact)
        seq += 1
    decks = [p["hand"] + p["deck"] for p in state["players"]]
    assert [len(d) for d in decks] == [30, 30] and not set(decks[0]) & set(decks[1])
    assert state["phase"] == "mulligan" and RULESET.to_act(state) == {first}


@pytest.mark.parametrize("deck, message", [
    (["no-such-creature"] + SUGGESTED["human"][:29], "'no-such-creature' is not a Cybermancy creature"),
    (SUGGESTED["human"][:29] + SUGGESTED["human"][:1], "appears twice; a Summoning Deck holds at most ONE copy"),
    (SUGGESTED["human"][:29], "exactly 30 cards, not 29"),
    ([{"id": "x"}] * 30, "deck of ann: a deck is a list of creature ids"),
    ("zizni", "deck of ann: a deck is a list of creature ids"),
])
def test_constructed_decks_are_checked_card_by_card(deck, message):
    with pytest.raises(InvalidSetup, match=message):
        RULESET.setup({"decks": {"ann": deck}}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))


def test_constructed_decks_may_mix_factions():
    mixed = SUGGESTED["human"][:15] + SUGGESTED["undead"][:15]
    state = RULESET.setup({"decks": {"1": mixed}}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    assert sorted(state["players"][1]["hand"] + state["players"][1]["deck"]) == sorted(mixed)


@pytest.mark.parametrize("options, message", [
    ({"mode": "chaos"}, "mode must be one of ['standard', 'teams'], not 'chaos'"),
    ({"mode": "teams"}, "teams mode is for exactly 4 players (two teams sitting across)"),
    ({"draft": "yes"}, "draft must be true or false"),
    ({"colour": 1}, "unknown Cybermancy options ['colour']; known: mode, draft, decks"),
    ({"decks": []}, "decks must map a seat name (or number) to a list of 30 creature ids"),
    ({"draft": True, "decks": {"0": SUGGESTED["human"]}},
     "draft and constructed decks exclude each other: drafted decks are built in play"),
    ({"decks": {"2": SUGGESTED["human"]}}, "decks: '2' is neither a seat name nor a seat number"),
    ({"decks": {"zed": SUGGESTED["human"]}}, "decks: 'zed' is neither a seat name nor a seat number"),
    ({"decks": {"bob": SUGGESTED["human"][:29]}}, "deck of bob: a Summoning Deck has exactly 30 cards, not 29"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(InvalidSetup) as caught:
        RULESET.setup(options, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    assert str(caught.value) == message


def test_without_decks_even_seats_play_human_and_odd_seats_undead_and_there_is_no_draft_pool():
    state = RULESET.setup({}, ["a", "b", "c", "d"], RandomStream(b"s" * 32, "m", 1))
    for seat, player in enumerate(state["players"]):
        assert sorted(player["hand"] + player["deck"]) == sorted(SUGGESTED["human" if seat % 2 == 0 else "undead"])
    assert state["draft_pool"] == [] and RULESET.view(state, 0)["draft_pool"] == []


@pytest.mark.parametrize("name", ["creatures", "cpu", "ram"])
def test_a_mulligan_of_cards_you_do_not_hold_is_refused_naming_the_card_and_the_pile(name):
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, state["first"], {"type": "mulligan", name: ["nope"]}, RandomStream(b"s" * 32, "m", 2))
    assert (caught.value.code, caught.value.message) == ("not_yours", f"'nope' is not among your {name}")


def test_attack_refusals_name_the_rule():
    state = arena()
    mine, resting = put(state, 0, BIG), put(state, 0, BIG, status="buffered")
    theirs = put(state, 1, TWO_TWO)
    wall = put(state, 1, card_with(keyword="frontline", cpu=1, ram=1), area="frontline")
    cases = [
        ({"attacker": theirs, "target": "cybermancer:1"}, "not_your_creature",
         f"{theirs!r} is not one of your creatures in play"),
        ({"attacker": "c999", "target": wall}, "not_your_creature", "'c999' is not one of your creatures in play"),
        ({"attacker": resting, "target": wall}, "not_active", "a buffered creature cannot attack this round"),
        ({"attacker": mine, "target": theirs}, "blocked_or_invalid_target",
         "target an enemy creature or Cybermancer; while an enemy has creatures in its Frontline, only those can be "
         "attacked"),
        ({"attacker": mine, "target": resting}, "blocked_or_invalid_target", None),  # not an enemy
    ]
    for action, code, message in cases:
        with pytest.raises(IllegalAction) as caught:
            RULESET.decide(state, 0, {"type": "attack", **action}, RandomStream(b"\x02" * 32, "arena", 9))
        assert caught.value.code == code and (message is None or caught.value.message == message)
    state = act(state, 0, {"type": "attack", "attacker": mine, "target": wall})
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, 0, {"type": "attack", "attacker": mine, "target": theirs}, RandomStream(b"\x02" * 32, "a", 9))
    assert (caught.value.code, caught.value.message) == ("one_attack_per_turn",
                                                         "you have attacked with ONE creature this turn already")


def test_a_creature_left_with_1_health_survives_and_the_attacker_is_exhausted():
    """"If a Creature's Attack Value is less than its opponent's Health Value, then the Creature
    survives the attack" -- on both sides at once."""
    state = arena()
    attacker, defender = put(state, 0, ONE_ONE), put(state, 1, ONE_ONE)
    state["creatures"][attacker].update(attack=2, health=3)
    state["creatures"][defender].update(attack=2, health=3)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": defender})
    assert state["creatures"][attacker]["damage"] == 2 and state["creatures"][defender]["damage"] == 2
    assert state["creatures"][attacker]["status"] == "exhausted" and state["creatures"][defender]["status"] == "active"


def test_mulligan_listing_keeps_all_returns_the_hand_or_the_ones_and_describes_any_choice():
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    first = state["first"]
    player = state["players"][first]
    keep, hand, ones = RULESET.legal_actions(state, first)
    assert keep["creatures"] == keep["cpu"] == keep["ram"] == [] and hand["creatures"] == player["hand"]
    assert ones["cpu"] == [c for c in player["cpu"] if POWER_VALUE[c] == 1]
    assert ones["ram"] == [c for c in player["ram"] if POWER_VALUE[c] == 1]
    assert ones["creatures"] == [] and hand["cpu"] == hand["ram"] == []
    assert keep["params"] == {"creatures": "any of your creature cards", "cpu": "any of your CPU cards",
                              "ram": "any of your RAM cards"}


def test_summon_refusals_name_the_rule_and_the_numbers(monkeypatch):
    card = "t-two-one"
    monkeypatch.setitem(CREATURES, card, {**CREATURES[ONE_ONE], "id": card, "name": "Tee", "cpu": 2, "ram": 1,
                                          "keywords": []})
    cpu2, ram1 = power_cards("cpu", 2, 1), power_cards("ram", 1, 1)
    state = arena(hands={0: [card]}, tracks={0: {"cpu": 1, "ram": 1}}, cpu={0: cpu2}, ram={0: ram1})

    def refusal(action):
        with pytest.raises(IllegalAction) as caught:
            RULESET.decide(state, 0, {"type": "summon", **action}, RandomStream(b"\x02" * 32, "arena", 9))
        return caught.value.code, caught.value.message

    assert refusal({"card": ONE_ONE, "cpu": [], "ram": []}) == ("card_not_in_hand", f"{ONE_ONE!r} is not in your hand")
    assert refusal({"card": card, "cpu": cpu2, "ram": ram1}) == ("over_power_track", "Tee costs 2 CPU; your CPU track is at 1")
    state["players"][0]["track"] = {"cpu": 3, "ram": 3}
    others = power_cards("cpu", 3, 2)
    assert refusal({"card": card, "cpu": [cpu2[0], others[1]], "ram": ram1}) == \
        ("not_yours", f"{others[1]!r} is not one of your face-up CPU cards")
    assert refusal({"card": card, "cpu": [], "ram": ram1}) == \
        ("insufficient_power", "Tee needs 2 CPU; you have 0 paid plus 0 offered")
    state["players"][0]["summoned"] = {"cpu": 2, "ram": 0}
    assert refusal({"card": card, "cpu": cpu2, "ram": ram1}) == \
        ("round_power_spent", "creatures summoned this round may not cost more than your CPU track (3) together")


def test_advance_refuses_an_unknown_track_by_name():
    state = arena()
    state.update(phase="advance", queue=[0])
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, 0, {"type": "advance", "track": "gpu"}, RandomStream(b"\x02" * 32, "arena", 9))
    assert (caught.value.code, caught.value.message) == ("unknown_track", 'advance "cpu" or "ram"')


@pytest.mark.parametrize("creatures", ["abc", [1], ["x", "x"], None])
def test_a_malformed_mulligan_is_refused(creatures):
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(b"s" * 32, "m", 1))
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, state["first"], {"type": "mulligan", "creatures": creatures}, RandomStream(b"s" * 32, "m", 2))
    assert (caught.value.code, caught.value.message) == ("malformed_action",
                                                         '"creatures" must be a list of distinct card ids')


def test_draft_refuses_a_card_gone_or_already_in_your_deck_and_goes_round_the_table():
    state = RULESET.setup({"draft": True}, ["a", "b", "c", "d"], RandomStream(b"d" * 32, "m", 1))
    first = state["first"]
    order = []
    for n in range(4):
        (seat,) = RULESET.to_act(state)
        order.append(seat)
        state = act(state, seat, {"type": "draft", "card": ["ogg", "zizni", "zizni", "aegea"][n]}, seq=n + 2)
    assert order == [(first + i) % 4 for i in range(4)]  # in turn order
    (seat,) = RULESET.to_act(state)
    for card, code, message in [
        ("zizni", "not_available", "'zizni' is not among the cards still available"),  # both copies taken
        ("nope", "not_available", "'nope' is not among the cards still available"),
    ]:
        with pytest.raises(IllegalAction) as caught:
            RULESET.decide(state, seat, {"type": "draft", "card": card}, RandomStream(b"d" * 32, "m", 9))
        assert (caught.value.code, caught.value.message) == (code, message)
    mine = state["players"][seat]["deck"][0]
    assert mine == "ogg" and "ogg" in state["draft_pool"]  # a copy is left, but not for this deck
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, seat, {"type": "draft", "card": mine}, RandomStream(b"d" * 32, "m", 9))
    assert (caught.value.code, caught.value.message) == (
        "one_copy_per_deck", f"your deck holds {mine!r} already; at most ONE copy of any card")


def test_decide_refuses_malformed_unknown_and_after_the_end():
    state = arena()

    def refusal(action, st=state):
        with pytest.raises(IllegalAction) as caught:
            RULESET.decide(st, 0, action, RandomStream(b"\x02" * 32, "arena", 9))
        return caught.value.code, caught.value.message

    for action in (["end_turn"], {"kind": "end_turn"}, {"type": 3}):
        assert refusal(action) == ("malformed_action", 'an action is an object with a "type"')
    assert refusal({"type": "fly"}) == (
        "unknown_action", "cybermancy has no action 'fly'; known: ['advance', 'attack', 'choose', 'draft', "
        "'end_turn', 'mulligan', 'proceed', 'summon']")
    state["over"] = "stalemate"
    assert refusal({"type": "end_turn"}) == ("game_over", "the game is over")
    state["over"] = None
    assert refusal({"type": "advance", "track": "cpu"}) == (
        "wrong_phase", "this action belongs to the advance phase; it is the main phase")
