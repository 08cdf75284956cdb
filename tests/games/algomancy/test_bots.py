"""The bots use the game's mechanics (REVIEW.md 7): the greedy bot activates abilities and
ambushes where they pay; the random bot draws a kind of action first, so it does not spend
its hand on resources because that kind has the most listed choices."""

import random
from collections import Counter

from domain.games.algomancy import RULESET
from domain.games.algomancy.flow import _begin

from .arena import act, at, game, give, put, resources, window
from .test_examples import pass_all
from .test_review import attacking

GREEDY = RULESET.bots["greedy"]


def test_greedy_sacrifices_pyre_cultist_after_combat_for_two_life():
    """Pyre Cultist ("Sacrifice me: Each opponent loses 2 life") after combat, in the
    opponent's region: two life for a 1/1 that has already dealt its damage."""
    state = game()
    cultist = put(state, 0, "Pyre Cultist", region="r1")
    attacking(state, 0, 1, [[cultist]])
    state["battle"]["formations"][0].update(blocks=[], blocked=[False])
    state = at(state, "window", region="r1", stage="after_combat")
    _begin(state, state["step"])
    assert GREEDY(state, 0, random.Random(1)) == {"type": "activate", "unit": cultist, "targets": []}


def test_greedy_keeps_an_attacking_pyre_cultist_until_combat_is_over():
    state = game()
    cultist = put(state, 0, "Pyre Cultist", region="r1")
    attacking(state, 0, 1, [[cultist]])
    window(state, "r1")
    assert GREEDY(state, 0, random.Random(1)) == {"type": "pass_priority"}


def test_greedy_spends_mana_left_after_deployment_on_servo_mechanic_counters():
    """Servo Mechanic ("1 mana: Place a +1/+1 counter on target allied unit"): mana left at
    the end of deployment becomes counters, on the strongest unit."""
    state = at(game(), "deploy", seats=[0])
    state["players"][0]["hand"] = []
    servo, golem = put(state, 0, "Servo Mechanic"), put(state, 0, "Boulder Golem")
    resources(state, 0, "metal", 2)
    for _ in range(2):
        action = GREEDY(state, 0, random.Random(1))
        assert action == {"type": "activate", "unit": servo, "targets": [golem]}
        state = act(state, 0, action)
    assert state["units"][golem]["counters"] == 2
    assert GREEDY(state, 0, random.Random(1))["type"] == "end_deployment"


def test_greedy_ambushes_to_save_a_unit_from_removal():
    """"If a unit is the target of an effect, like a removal spell, a player can use ambush to
    recall the targeted unit and save it. The spell ... will fail to resolve (fizzle)."""
    state = game(initiative=1)
    hound = put(state, 1, "Cinder Hound", region="r0")
    attacking(state, 1, 0, [[hound]])
    golem = put(state, 0, "Boulder Golem")
    window(state, "r0")
    resources(state, 1, "fire", 2)
    state = act(state, 1, {"type": "play", "card": give(state, 1, "Flame of History"), "targets": [golem]})
    state = act(state, 1, {"type": "pass_priority"})
    resources(state, 0, "water", 2)
    give(state, 0, "Reef Ambusher")
    action = GREEDY(state, 0, random.Random(1))
    assert action["type"] == "ambush" and action["recall"] == golem
    state = pass_all(act(state, 0, action), 4)
    assert golem in state["players"][0]["hand"] and action["card"] in state["units"] and not state["stack"]


def test_greedy_sacrifices_arc_welder_to_kill_a_bigger_damaged_enemy():
    """Arc Welder ("Sacrifice me: Deal 2 damage to target unit") after combat: a damaged
    Boulder Golem (3/5 with 3 damage) is worth more than the 2/2 Welder."""
    state = game()
    welder = put(state, 0, "Arc Welder", region="r1")
    golem = put(state, 1, "Boulder Golem")
    state["units"][golem]["damage"] = 3
    attacking(state, 0, 1, [[welder]])
    state["battle"]["formations"][0].update(blocks=[], blocked=[False])
    state = at(state, "window", region="r1", stage="after_combat")
    _begin(state, state["step"])
    assert GREEDY(state, 0, random.Random(1)) == {"type": "activate", "unit": welder, "targets": [golem]}


def test_greedy_does_not_play_blightspore_as_a_unit_that_dies_at_once():
    state = at(game(), "deploy", seats=[0])
    state["players"][0]["hand"] = []
    resources(state, 0, "wood", 1)
    give(state, 0, "Blightspore")
    assert GREEDY(state, 0, random.Random(1)) == {"type": "end_deployment"}


def test_random_bot_draws_a_kind_of_action_before_an_action():
    """In the resource step with a hand of eight, 40 of the 43 listed actions create a
    resource; drawn kind first, creating is about a quarter of the choices, not 93 %."""
    state = at(game(), "resources", seats=[0])
    listed = Counter(a["type"] for a in RULESET.legal_actions(state, 0))
    assert listed["create_resource"] / sum(listed.values()) > 0.9
    rand = random.Random(3)
    chosen = Counter(RULESET.bots["random"](state, 0, rand)["type"] for _ in range(400))
    assert set(chosen) == set(listed) and chosen["create_resource"] < 400 * 0.4


def test_greedy_sacrifices_oracle_of_the_flame_that_would_die_in_combat_for_its_fireball():
    """Oracle of the Flame ("Sacrifice me: Create a Fireball 1"), blocked by a Boulder Golem
    that would kill it: sacrificed before combat, it leaves a Fireball instead of nothing."""
    state = game()
    oracle = put(state, 0, "Oracle of the Flame", region="r1")
    golem = put(state, 1, "Boulder Golem")
    fid = attacking(state, 0, 1, [[oracle]])
    from domain.games.algomancy.battle import place_blocks
    place_blocks(state, 1, "r1", {fid: [[golem]]})
    window(state, "r1", stage="block")
    assert GREEDY(state, 0, random.Random(1)) == {"type": "activate", "unit": oracle, "targets": []}
    state = act(state, 0, {"type": "activate", "unit": oracle, "targets": []})
    state = act(state, 0, {"type": "pass_priority"})
    state = act(state, 1, {"type": "pass_priority"})
    assert [t.split("#")[0] for t in state["spell_tokens"]] == ["Fireball"]
