"""Issue 13, Cybermancy part: each test quotes the rulebook and failed before its fix."""

import pytest

from domain.games.cybermancy import RULESET
from domain.games.cybermancy import rules, rules_legal
from domain.games.cybermancy.cards import CREATURES, POWER_VALUE
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream

from .arena import act, arena, card_with, choose, power_cards, put

ONE_ONE = card_with(cpu=1, ram=1, keyword="battle_ready")


def summons(state, seat, card):
    return [a for a in RULESET.legal_actions(state, seat) if a["type"] == "summon" and a["card"] == card]


def a_card(cpu, ram):
    """Any creature with exactly these costs (the payment rule does not care which)."""
    return next(c for c, v in sorted(CREATURES.items()) if v["cpu"] == cpu and v["ram"] == ram)


# 4. "discarding a 3 value CPU card to summon a creature with a CPU summoning cost of 2" is
# possible ("overpay"), but "the extra summoning power is lost": the listed payment is the
# cheapest one, fewest cards, then lowest value.
@pytest.mark.parametrize("cost, cpu_values, paid", [
    (1, [3, 1], [1]),            # a 1/1 with {3, 1} pays the 1
    (2, [3, 2], [2]),            # a 2/2 with {3, 2} pays the 2
    (2, [1, 1, 3], [3]),         # fewest cards first: one 3 rather than two 1s
    (3, [1, 1, 1, 2, 3], [3]),   # one card covers it
    (4, [1, 2, 3, 3], [1, 3]),   # two cards at least; of those the lowest total (4, not 5 or 6)
    (5, [3, 3, 2], [2, 3]),
    (4, [1, 2, 2, 3], [2, 2]),   # equal count and total: keep the 3 for later
    (3, [1, 1, 1, 1], [1, 1, 1]),
    (7, [1, 1, 2], [1, 1, 2]),   # not enough: everything is offered (and refused, below)
])
def test_listed_payment_is_the_cheapest_fewest_cards_then_lowest_value(cost, cpu_values, paid, monkeypatch):
    card = "test-costly"
    monkeypatch.setitem(CREATURES, card, {**CREATURES[ONE_ONE], "id": card, "cpu": cost, "ram": 1, "keywords": []})
    counts = {}
    cpu = []
    for value in cpu_values:
        cpu += power_cards("cpu", value, 1, skip=counts.get(value, 0))
        counts[value] = counts.get(value, 0) + 1
    state = arena(hands={0: [card]}, tracks={0: {"cpu": 7, "ram": 7}}, cpu={0: cpu}, ram={0: power_cards("ram", 1, 1)})
    pay = rules_legal.cheapest_payment(state, 0, card)
    assert sorted(POWER_VALUE[c] for c in pay["cpu"]) == paid and [POWER_VALUE[c] for c in pay["ram"]] == [1]
    if sum(paid) < cost:
        assert summons(state, 0, card) == []
        return
    (listed,) = summons(state, 0, card)
    assert (listed["cpu"], listed["ram"]) == (pay["cpu"], pay["ram"])
    act(state, 0, {k: v for k, v in listed.items() if k != "params"})  # and it is accepted


def test_summon_params_describe_every_accepted_payment():
    card = a_card(2, 1)
    cpu = power_cards("cpu", 1, 2) + power_cards("cpu", 3, 1)
    state = arena(hands={0: [card]}, tracks={0: {"cpu": 3, "ram": 3}}, cpu={0: cpu}, ram={0: power_cards("ram", 2, 1)})
    (listed,) = summons(state, 0, card)
    schema = listed["params"]["cpu"]
    assert sorted(schema["items"]["enum"]) == sorted(cpu) and schema["uniqueItems"]
    assert schema["worth_at_least"] == 2 and schema["worth"] == {c: POWER_VALUE[c] for c in cpu}
    assert schema["type"] == "array" and schema["description"] == (
        "any of your face-up CPU cards whose values, with the CPU already paid this round, cover the cost; "
        "overpay is lost")
    # every subset the schema admits is accepted, every other subset refused
    from itertools import combinations
    for size in range(len(cpu) + 1):
        for pay in combinations(cpu, size):
            admitted = sum(schema["worth"][c] for c in pay) >= schema["worth_at_least"]
            action = {"type": "summon", "card": card, "cpu": list(pay), "ram": listed["ram"]}
            if admitted:
                act(state, 0, action)
            else:
                with pytest.raises(IllegalAction):  # refused by the rules: a crash is not a refusal
                    act(state, 0, action)


def test_summon_params_count_the_pool_already_paid():
    cpu3, ram3 = power_cards("cpu", 3, 1), power_cards("ram", 3, 1)
    two_two, one_one = a_card(2, 2), ONE_ONE
    state = arena(hands={0: [two_two, one_one]}, tracks={0: {"cpu": 3, "ram": 3}},
                  cpu={0: cpu3 + power_cards("cpu", 1, 1)}, ram={0: ram3})
    state = act(state, 0, {"type": "summon", "card": two_two, "cpu": cpu3, "ram": ram3})
    (listed,) = summons(state, 0, one_one)
    assert listed["cpu"] == [] and listed["ram"] == []  # the pool covers it: nothing more to pay
    assert listed["params"]["cpu"]["worth_at_least"] == 0


# 5. "each player may discard and redraw as many cards as desired (once only); if a player
# chose to redraw, shuffle the discarded cards back into the Summoning Deck" -- and the same
# for CPU and RAM: discard, redraw, THEN shuffle back, so a discarded card cannot be redrawn.
@pytest.mark.parametrize("seed", [bytes([n]) * 32 for n in range(1, 9)], ids=range(1, 9))
def test_mulligan_redraws_before_the_discarded_cards_are_shuffled_back(seed):
    state = RULESET.setup({}, ["ann", "bob"], RandomStream(seed, "m", 1))
    first = state["first"]
    player = state["players"][first]
    back, cpu_back, ram_back = list(player["hand"]), list(player["cpu"]), list(player["ram"])
    deck_cards = sorted(player["deck"] + player["hand"])
    state = act(state, first, {"type": "mulligan", "creatures": back, "cpu": cpu_back, "ram": ram_back})
    player = state["players"][first]
    assert len(player["hand"]) == 7 and not set(player["hand"]) & set(back)
    assert len(player["cpu"]) == 5 and not set(player["cpu"]) & set(cpu_back)
    assert len(player["ram"]) == 5 and not set(player["ram"]) & set(ram_back)
    assert set(back) <= set(player["deck"]) and sorted(player["deck"] + player["hand"]) == deck_cards
    assert set(cpu_back) <= set(state["cpu_deck"]) and set(ram_back) <= set(state["ram_deck"])


# 6. Promote: "When you play such a card, summon it into the Main area, and select one of the
# other creatures already present in that area and move it to the Front line area". The
# Promote text names the area for "such a card", so a card with both Promote and Frontline
# is summoned into the Main area and pushes another creature forward.
@pytest.fixture
def frontline_promoter(monkeypatch):
    card = {"id": "test-promoter", "name": "Test Promoter", "faction": "human", "cpu": 1, "ram": 1, "attack": 1,
            "health": 3, "keywords": ["frontline", "promote"], "suggested": False}
    monkeypatch.setitem(CREATURES, card["id"], card)
    return card["id"]


def test_a_promote_card_with_frontline_is_summoned_into_the_main_area_and_promotes(frontline_promoter):
    pay = {"cpu": power_cards("cpu", 1, 1), "ram": power_cards("ram", 1, 1)}
    state = arena(hands={0: [frontline_promoter]}, cpu={0: pay["cpu"]}, ram={0: pay["ram"]})
    friend = put(state, 0, ONE_ONE)
    state = act(state, 0, {"type": "summon", "card": frontline_promoter, **pay})
    promoter = next(uid for uid, c in state["creatures"].items() if c["card"] == frontline_promoter)
    assert state["players"][0]["main"] == [promoter] and state["players"][0]["frontline"] == [friend]


def test_a_promote_card_with_frontline_alone_stays_in_the_main_area(frontline_promoter):
    pay = {"cpu": power_cards("cpu", 1, 1), "ram": power_cards("ram", 1, 1)}
    state = arena(hands={0: [frontline_promoter]}, cpu={0: pay["cpu"]}, ram={0: pay["ram"]})
    state = act(state, 0, {"type": "summon", "card": frontline_promoter, **pay})
    assert state["players"][0]["frontline"] == [] and len(state["players"][0]["main"]) == 1  # "this ability is lost"


def test_promote_choice_lists_only_other_creatures_of_the_main_area(frontline_promoter):
    pay = {"cpu": power_cards("cpu", 1, 1), "ram": power_cards("ram", 1, 1)}
    state = arena(hands={0: [frontline_promoter]}, cpu={0: pay["cpu"]}, ram={0: pay["ram"]})
    a, b = put(state, 0, ONE_ONE), put(state, 0, ONE_ONE)
    put(state, 0, ONE_ONE, area="frontline")
    put(state, 1, ONE_ONE)
    state = act(state, 0, {"type": "summon", "card": frontline_promoter, **pay})
    assert state["prompt"]["kind"] == "promote" and sorted(state["prompt"]["options"]) == sorted([a, b])
    state = choose(state, b)
    assert b in state["players"][0]["frontline"] and a in state["players"][0]["main"]


# 7. "If at any point a Cybermancer's health is reduced to zero, the game ends immediately and
# the surviving Cybermancer is the winner." Nothing else wins: a match stopped by the designed
# guard (no attack for QUIET_ROUNDS rounds) is a draw, whoever has more health.
def _finish_round(state, seats=2):
    for seat in range(seats):  # everyone passes: attacks are over
        state = act(state, (state["turn"]), {"type": "end_turn"})
    for _ in range(seats):  # last chance to summon
        state = act(state, RULESET.to_act(state).pop(), {"type": "end_turn"})
    for _ in range(seats):
        state = act(state, RULESET.to_act(state).pop(), {"type": "advance", "track": "cpu"})
    return state


def test_the_stalemate_guard_ends_in_a_draw_not_a_win_on_health():
    state = arena(health={0: 30, 1: 5})
    put(state, 0, ONE_ONE)
    state["quiet_rounds"] = rules.QUIET_ROUNDS - 1
    state = _finish_round(state)
    assert RULESET.outcome(state) == {"reason": "stalemate", "winners": [], "health": [30, 5], "rounds": 1, "out": []}
    assert RULESET.to_act(state) == set() and RULESET.legal_actions(state, 0) == []
    assert (state["phase"], state["prompt"], state["pending"]) == ("over", None, [])


def test_quiet_rounds_below_the_guard_play_on():
    state = arena(health={0: 30, 1: 5})
    put(state, 0, ONE_ONE)
    state["quiet_rounds"] = rules.QUIET_ROUNDS - 2
    state = _finish_round(state)
    assert RULESET.outcome(state) is None and state["quiet_rounds"] == rules.QUIET_ROUNDS - 1


def test_a_round_with_an_attack_resets_the_quiet_count():
    state = arena(turn=0)
    hitter = put(state, 0, ONE_ONE)
    state["quiet_rounds"] = rules.QUIET_ROUNDS - 1
    state = act(state, 0, {"type": "attack", "attacker": hitter, "target": "cybermancer:1"})
    state = act(state, 0, {"type": "end_turn"})
    state = _finish_round(state)
    assert RULESET.outcome(state) is None and state["quiet_rounds"] == 0 and state["round"] == 2


@pytest.mark.parametrize("where", ["hand", "deck", "in play"])
def test_one_creature_anywhere_keeps_the_game_going(where):
    state = arena()
    for player in state["players"]:
        player["deck"], player["hand"] = [], []
    if where == "in play":
        put(state, 1, ONE_ONE)
    else:
        state["players"][1][where] = [ONE_ONE]
    state = _finish_round(state)
    assert RULESET.outcome(state) is None and state["round"] == 2


def test_no_creatures_left_is_a_draw_too():
    state = arena(health={0: 30, 1: 5})
    for player in state["players"]:
        player["deck"] = []
    state = _finish_round(state)
    result = RULESET.outcome(state)
    assert result["reason"] == "no_creatures_left" and result["winners"] == []


# 8. "place Damage Markers (red) on the Creature to indicate how much Health it has lost": damage
# stays, so the greedy bot chips at a Frontline blocker it cannot kill in one hit, when its
# attacker survives the blow -- and not when it would die for nothing.
def _creature(state, seat, attack, health, area="main"):
    uid = put(state, seat, ONE_ONE, area=area)
    state["creatures"][uid].update(attack=attack, health=health)
    return uid


def test_greedy_bot_chips_at_a_frontline_blocker_it_cannot_kill():
    import random
    state = arena()
    attacker = _creature(state, 0, attack=2, health=5)
    wall = _creature(state, 1, attack=1, health=6, area="frontline")
    action = RULESET.bots["greedy"](state, 0, random.Random(1))
    assert action == {"type": "attack", "attacker": attacker, "target": wall}
    state = act(state, 0, action)
    assert state["creatures"][wall]["damage"] == 2  # and the marker stays


def test_greedy_bot_does_not_throw_away_an_attacker_that_would_die_without_killing():
    import random
    state = arena()
    _creature(state, 0, attack=1, health=1)
    _creature(state, 1, attack=3, health=6, area="frontline")
    assert RULESET.bots["greedy"](state, 0, random.Random(1)) == {"type": "end_turn"}


# 9. The factions' own character (Components: "50 of each Faction"; Humans: Promote; Undead:
# Crawlers), not one stat template card for card.
def test_the_designed_factions_are_not_a_mirror():
    keys = ("cpu", "ram", "attack", "health", "keywords", "call_to_arms", "last_gasp", "crawler")
    human = [c for c in CREATURES.values() if c["faction"] == "human"]
    undead = [c for c in CREATURES.values() if c["faction"] == "undead"]
    assert len(human) == len(undead) == 50
    same = sum({k: h.get(k) for k in keys} == {k: u.get(k) for k in keys} for h, u in zip(human, undead))
    assert same <= 5
    for suggested in (True, False):
        h = [c for c in human if c["suggested"] == suggested]
        u = [c for c in undead if c["suggested"] == suggested]
        assert sum("frontline" in c["keywords"] for c in h) > sum("frontline" in c["keywords"] for c in u)
        assert any("promote" in c["keywords"] for c in h) and not any("promote" in c["keywords"] for c in u)
        assert any("crawler" in c for c in u) and not any("crawler" in c for c in h)
        assert sum(c["health"] for c in h) / sum(c["attack"] for c in h) > \
            sum(c["health"] for c in u) / sum(c["attack"] for c in u)
