"""Call-to-arms, Last Gasp, Crawlers and the choices they ask for, each from the rulebook's
Keywords section, on cards made for the test (so the designed data may change freely)."""

import pytest

from domain.games.cybermancy import RULESET
from domain.games.cybermancy.cards import CREATURES
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

from .arena import act, arena, card_with, choose, power_cards, put, refused

ONE_ONE = card_with(cpu=1, ram=1, keyword="battle_ready")
PAY = {"cpu": power_cards("cpu", 1, 1), "ram": power_cards("ram", 1, 1)}


@pytest.fixture
def make_card(monkeypatch):
    def make(card_id, attack=1, health=3, keywords=(), **extra):
        card = {"id": card_id, "name": card_id, "faction": "undead", "cpu": 1, "ram": 1, "attack": attack,
                "health": health, "keywords": list(keywords), "suggested": False, **extra}
        monkeypatch.setitem(CREATURES, card_id, card)
        return card_id
    return make


def summoned(state, card):
    return next(uid for uid, c in state["creatures"].items() if c["card"] == card)


def creature(state, seat, attack=1, health=5, area="main"):
    uid = put(state, seat, ONE_ONE, area=area)
    state["creatures"][uid].update(attack=attack, health=health)
    return uid


def refusal(state, action):
    with pytest.raises(IllegalAction) as caught:
        RULESET.decide(state, 0, action, RandomStream(b"\x02" * 32, "arena", 9))
    return caught.value.code, caught.value.message


def summon(state, card):
    return act(state, 0, {"type": "summon", "card": card, **PAY})


def test_a_health_buff_of_2_is_assigned_one_point_at_a_time_to_creatures_or_cybermancers(make_card):
    """"Health buffs can target Cybermancers or other creatures ... If the amount of the buff is
    greater than 1, the effect can be used on multiple targets.\""""
    healer = make_card("t-healer", call_to_arms={"kind": "health", "amount": 2})
    state = arena(hands={0: [healer]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]}, health={0: 20})
    friend, foe = creature(state, 0, attack=2, health=3), creature(state, 1)
    state = summon(state, healer)
    prompt = state["prompt"]
    assert (prompt["seat"], prompt["kind"], prompt["source"]) == (0, "health", summoned(state, healer))
    assert sorted(prompt["options"]) == sorted([friend, foe, "cybermancer:0", "cybermancer:1"])
    state = choose(state, friend)
    assert state["creatures"][friend] | {} == {**state["creatures"][friend], "health": 4, "attack": 2, "damage": 0}
    assert state["prompt"] and state["prompt"]["kind"] == "health"  # one point left
    state = choose(state, "cybermancer:0")
    assert state["players"][0]["health"] == 21 and state["players"][1]["health"] == 30
    assert state["prompt"] is None and state["pending"] == []
    assert state["creatures"][friend]["health"] == 4


def test_an_attack_buff_applies_to_creatures_only_and_may_go_twice_to_one(make_card):
    """"while all other effects apply to creatures only\""""
    rallier = make_card("t-rally", call_to_arms={"kind": "attack", "amount": 2})
    state = arena(hands={0: [rallier]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    friend, other = creature(state, 0, attack=2, health=3), creature(state, 0)
    state = summon(state, rallier)
    assert sorted(state["prompt"]["options"]) == sorted([friend, other])  # no Cybermancer, not itself
    state = choose(choose(state, friend), friend)
    assert (state["creatures"][friend]["attack"], state["creatures"][friend]["health"]) == (4, 3)
    assert state["prompt"] is None


def test_damage_points_stay_and_the_second_destroys(make_card):
    striker = make_card("t-striker", call_to_arms={"kind": "damage", "amount": 2})
    state = arena(hands={0: [striker]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    victim, bystander = creature(state, 1, attack=3, health=2), creature(state, 1, health=9)
    state = summon(state, striker)
    state = choose(state, victim)
    assert state["creatures"][victim]["damage"] == 1 and state["creatures"][victim]["attack"] == 3
    state = choose(state, victim)
    assert victim not in state["creatures"] and state["players"][1]["graveyard"] == [ONE_ONE]
    assert state["creatures"][bystander]["damage"] == 0 and state["prompt"] is None


def test_a_single_possible_target_is_taken_without_asking(make_card):
    rallier = make_card("t-rally1", call_to_arms={"kind": "attack", "amount": 1})
    state = arena(hands={0: [rallier]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    friend = creature(state, 0, attack=2)
    state = summon(state, rallier)
    assert state["prompt"] is None and state["creatures"][friend]["attack"] == 3


def test_an_effect_with_no_target_is_lost(make_card):
    rallier = make_card("t-rally0", call_to_arms={"kind": "attack", "amount": 2})
    state = summon(arena(hands={0: [rallier]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]}), rallier)
    assert state["prompt"] is None and state["pending"] == [] and state["creatures"][summoned(state, rallier)]["attack"] == 1


def test_choose_is_refused_without_a_choice_or_off_the_list_and_nothing_else_is_allowed_meanwhile(make_card):
    healer = make_card("t-healer2", call_to_arms={"kind": "health", "amount": 1})
    state = arena(hands={0: [healer]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    assert refusal(state, {"type": "choose", "option": "cybermancer:0"}) == \
        ("no_choice_pending", "there is no choice to make now")
    friend = creature(state, 0)
    state = summon(state, healer)
    assert refusal(state, {"type": "choose", "option": "c999"}) == ("not_an_option", "'c999' is not one of the options")
    refused(state, 0, {"type": "end_turn"}, "choice_pending")
    assert RULESET.legal_actions(state, 0) == [{"type": "choose", "option": o} for o in state["prompt"]["options"]]
    state = choose(state, friend)
    assert state["creatures"][friend]["health"] == 6


def test_last_gasp_of_a_crawler_card_fires_once_and_the_crawler_then_dies_for_good(make_card):
    """Crawlers: "as soon as the card is destroyed ... turn it over. It is now considered to be a
    Creature ... When a crawler is destroyed, it is removed from the game like any other Creature.\""""
    corpse = make_card("t-corpse", attack=1, health=1, crawler={"attack": 2, "health": 2},
                       last_gasp={"kind": "attack", "amount": 1})
    state = arena()
    attacker = creature(state, 0, attack=5, health=20)
    uid = put(state, 1, corpse, area="frontline")
    ally = creature(state, 1, attack=1)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": uid})
    assert state["creatures"][uid]["crawler"] and uid in state["players"][1]["frontline"]
    assert (state["creatures"][uid]["attack"], state["creatures"][uid]["health"]) == (2, 2)
    assert state["prompt"]["seat"] == 1 and sorted(state["prompt"]["options"]) == sorted([attacker, ally])
    state = choose(state, ally)
    assert state["creatures"][ally]["attack"] == 2
    state["attacked"] = False
    state["creatures"][attacker]["status"] = "active"
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": uid})
    assert uid not in state["creatures"] and state["prompt"] is None  # no second Last Gasp
    assert state["players"][1]["graveyard"] == [corpse] and state["creatures"][ally]["attack"] == 2


def test_a_creature_killed_by_damage_points_triggers_its_own_last_gasp(make_card):
    striker = make_card("t-striker1", call_to_arms={"kind": "damage", "amount": 1})
    dying = make_card("t-dying", attack=1, health=1, last_gasp={"kind": "health", "amount": 1})
    state = arena(hands={0: [striker]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]}, health={1: 10})
    victim = put(state, 1, dying)
    state = summon(state, striker)  # its only target: destroyed at once
    assert victim not in state["creatures"]
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "health"
    state = choose(state, "cybermancer:1")
    assert state["players"][1]["health"] == 11


def test_a_last_gasp_applies_the_moment_its_creature_is_killed_before_the_killing_effects_next_point(make_card):
    """Last Gasp: "it applies the listed effect the moment it is killed". A Call-to-arms of 2
    damage kills a creature with its first point: that creature's Last Gasp (+1 health) is its
    owner's to give at once, so it can save the next creature the second point is aimed at."""
    striker = make_card("t-striker2", call_to_arms={"kind": "damage", "amount": 2})
    dying = make_card("t-dying2", attack=1, health=1, last_gasp={"kind": "health", "amount": 1})
    state = arena(hands={0: [striker]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    victim = put(state, 1, dying)
    saved = creature(state, 1, attack=1, health=1)
    creature(state, 0, attack=1, health=5)  # the second point has a choice too
    state = summon(state, striker)
    state = choose(state, victim)  # the first point kills it
    assert victim not in state["creatures"]
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "health", "the Last Gasp comes first"
    state = choose(state, saved)
    assert state["creatures"][saved]["health"] == 2
    assert state["prompt"]["seat"] == 0 and state["prompt"]["kind"] == "damage"
    state = choose(state, saved)  # the second point: 1 damage on 2 health
    assert saved in state["creatures"] and state["creatures"][saved]["damage"] == 1


def test_an_effect_of_0_points_does_nothing(make_card):
    dud = make_card("t-dud", call_to_arms={"kind": "attack", "amount": 0})
    state = arena(hands={0: [dud]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    friend = creature(state, 0, attack=2)
    creature(state, 1, attack=2)
    state = summon(state, dud)
    assert state["prompt"] is None and state["creatures"][friend]["attack"] == 2


def test_a_lost_promote_does_not_cancel_the_call_to_arms_after_it(make_card):
    """Promote: "if there are no other creatures in the Main area, this ability is lost" -- only it."""
    captain = make_card("t-captain", keywords=["promote"], call_to_arms={"kind": "damage", "amount": 1})
    state = arena(hands={0: [captain]}, cpu={0: PAY["cpu"]}, ram={0: PAY["ram"]})
    foe = creature(state, 1, health=3)
    state = summon(state, captain)
    assert state["creatures"][foe]["damage"] == 1 and state["players"][0]["frontline"] == []


def test_follow_up_points_come_before_the_next_creatures_last_gasp(make_card):
    """Both creatures die at once; the attacker's Last Gasp (2 points, one possible target) is
    finished before the defender's Last Gasp asks its owner."""
    rallier = make_card("t-lg-rally", attack=3, health=1, last_gasp={"kind": "attack", "amount": 2})
    healer = make_card("t-lg-heal", attack=3, health=1, last_gasp={"kind": "health", "amount": 1})
    state = arena()
    attacker, defender = put(state, 0, rallier), put(state, 1, healer)
    other = creature(state, 1, attack=1, health=9, area="frontline")
    state["players"][1]["frontline"].remove(other)
    state["players"][1]["main"].append(other)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": defender})
    assert attacker not in state["creatures"] and defender not in state["creatures"]
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "health"
    assert state["creatures"][other]["attack"] == 3  # both points, before the prompt


def test_a_last_gasp_of_damage_is_dealt_point_by_point_to_creatures_chosen_by_the_owner(make_card):
    """Last Gasp: "the effect happens ... the moment the creature is killed"; damage targets
    creatures only (never a Cybermancer), and an effect above 1 point is split point by point."""
    gasper = make_card("t-lg-damage", attack=1, health=1, last_gasp={"kind": "damage", "amount": 2})
    state = arena()
    attacker = creature(state, 0, attack=3, health=20)
    other = creature(state, 0, attack=1, health=5)
    dying = put(state, 1, gasper)
    state = act(state, 0, {"type": "attack", "attacker": attacker, "target": dying})
    assert dying not in state["creatures"]
    assert state["prompt"]["seat"] == 1 and state["prompt"]["kind"] == "damage"
    assert not any(option.startswith("cybermancer") for option in state["prompt"]["options"])
    state = choose(state, attacker)
    assert state["creatures"][attacker]["damage"] == 1 + 1  # the defender's blow, then one point
    state = choose(state, other)
    assert state["creatures"][other]["damage"] == 1 and state["prompt"] is None
