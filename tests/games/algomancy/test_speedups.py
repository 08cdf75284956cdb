"""What the search bot's speed-ups (issue 32) may not change: the death check's memory of
the last board it found no unit dying on (effects._board) holds everything the check reads,
and stats read through the attributes that change numbers (state._stat_attributes) give
what the whole attribute list gives."""

import random

from domain.games.algomancy import RULESET
from domain.games.algomancy.cards import data_of
from domain.games.algomancy.battle import combat, place_attack
from domain.games.algomancy.effects import check_deaths
from domain.games.algomancy.rules import _hidden, diff
from domain.games.algomancy.state import abilities, attributes, columns_by_unit, enemies, present, stats, units_in
from domain.games.algomancy.view import hidden_prefix
from domain.kernel.canonical import json_copy
from tests.sizing import sized

from ..replay import random_play
from .arena import act, at, battle, game, put
from .test_review import attacking


def test_a_death_check_sees_a_change_of_formation_alone():
    """Tough is shared in a column, and a column is in the formations, not in the unit: a
    Boulder Golem (3/5) with 6 damage behind a Mesa Sentry (Tough) is 3/10 and lives; moved
    out of the Sentry's column, no unit changed, it is 3/5 and dies."""
    state = battle(game())
    sentry, golem = put(state, 0, "Mesa Sentry", region="r1"), put(state, 0, "Boulder Golem", region="r1")
    attacking(state, 0, 1, [[sentry, golem]])
    state["units"][golem]["damage"] = 6
    check_deaths(state)
    assert golem in state["units"] and stats(state, golem) == (3, 10)
    state["battle"]["formations"][0]["columns"] = [[sentry], [golem]]
    check_deaths(state)
    assert golem not in state["units"]


def test_a_death_check_sees_other_teams_around_the_same_units():
    """Prickly Protector (1/1, +1/+1 for each other allied unit) beside a partner's Jelly in a
    joint team game is 2/2 and lives with 1 damage; the very same units at a free-for-all
    table, where that Jelly is an enemy's, leave it 1/1: it dies."""
    teams, ffa = game("teams_joint", 4), game("ffa", 4)  # set up first: set-up checks deaths too
    prickly = put(teams, 0, "Prickly Protector")
    put(teams, 2, "Jelly")
    teams["units"][prickly]["damage"] = 1
    ffa["units"] = json_copy(teams["units"])
    check_deaths(teams)
    assert prickly in teams["units"]
    check_deaths(ffa)
    assert prickly not in ffa["units"]


def test_a_board_on_which_a_unit_died_is_checked_again():
    """A search decides on the same state once for each candidate: the second check of a
    board on which a unit died must kill it again."""
    state = game()
    jelly = put(state, 0, "Jelly")
    state["units"][jelly]["counters"] = -1
    twin = json_copy(state)
    check_deaths(state)
    check_deaths(twin)
    assert jelly not in state["units"] and jelly not in twin["units"]


def test_the_greedy_attack_reads_each_positions_own_stats():
    """The greedy bot reads each unit's stats once for all its attack options, never from an
    earlier decision: a Boulder Golem (3/5) attacks past a Jelly (1/1), not past the same
    Jelly with four +1/+1 counters (5/5, enough to kill it)."""
    state = battle(at(game(), "attack", seats=[0]))
    golem, jelly = put(state, 0, "Boulder Golem"), put(state, 1, "Jelly")
    greedy = RULESET.bots["greedy"]
    assert greedy(state, 0, random.Random(1))["formations"] == [{"target": 1, "columns": [[golem]], "tokens": []}]
    state["units"][jelly]["counters"] = 4
    assert greedy(state, 0, random.Random(1))["formations"] == []


def layered_stats(state, uid):
    """stats() as the rulebook's layers read it, from the whole attribute list (the way the
    rules computed it before issue 32)."""
    unit = state["units"][uid]
    card = data_of(unit["card"])
    power, defense = card["power"], card["defense"]
    if power == "X":
        power = defense = unit["x"]
    change_p, change_d = unit["counters"] + unit["temp"][0], unit["counters"] + unit["temp"][1]
    for part in abilities(state, uid):
        static = part.get("static", {})
        change_p, change_d = change_p + static.get("stats", [0, 0])[0], change_d + static.get("stats", [0, 0])[1]
        if "per_ally" in static:
            others = len([u for u in units_in(state, unit["region"]) if u != uid
                          and not enemies(state, unit["controller"], state["units"][u]["controller"])])
            change_p, change_d = change_p + static["per_ally"][0] * others, change_d + static["per_ally"][1] * others
    power, defense = power + change_p, defense + change_d
    shown = attributes(state, uid)
    for attribute in shown:
        if attribute == "tough":
            defense *= 2
        elif attribute == "balanced":
            power = defense = -(-(power + defense) // 2)
    if "inverted" in shown:
        power, defense = power - 2 * change_p, defense - 2 * change_d
    return power, defense


def test_stats_read_as_the_whole_attribute_list_reads_them_in_greedy_play():
    """At every step of greedy matches, every unit's stats, read alone or with the state's
    columns found once, are the layers read from its whole attribute list. Drafted decks
    (every element, every card in the cube) bring Tough, Balanced and Inverted units into
    columns together, and Prickly Protector beside team-mates."""
    units_seen = []

    def stats_as_layered(step):
        columns = columns_by_unit(step.state)
        for uid in step.state["units"]:
            assert stats(step.state, uid) == stats(step.state, uid, columns) == layered_stats(step.state, uid), \
                (step.seq, uid)
            units_seen.append(uid)
    tables = [({"format": "live_draft"}, 2), ({"setup": "teams_joint", "format": "live_draft"}, 4),
              ({"setup": "ffa", "format": "cube_draft"}, 3)]
    for seed, (options, seats) in enumerate(tables * sized(1)):
        random_play(RULESET, options, seats, seed, bots=("greedy",), checks=lambda setup: stats_as_layered)
    assert len(units_seen) > 1000


def test_an_attribute_given_until_regroup_counts_in_stats_and_in_its_column():
    """An effect's attribute (temp_attributes) is read like a printed one: a Boulder Golem
    (3/5) given Tough is 3/10, and so is a Jelly (1/1: 1/2) in front of it in a column."""
    state = battle(game())
    jelly, golem = put(state, 0, "Jelly", region="r1"), put(state, 0, "Boulder Golem", region="r1")
    state["units"][golem]["temp_attributes"] = ["tough"]
    assert stats(state, golem) == (3, 10)
    attacking(state, 0, 1, [[jelly, golem]])
    assert stats(state, jelly) == (1, 2) and stats(state, jelly, columns_by_unit(state)) == (1, 2)


def test_a_fact_is_only_a_place_that_changed():
    """decide's facts are the differences of the state (rules.diff): no fact sets a place to
    the value it already held, in random and greedy play at every table size."""
    facts_seen = []

    def no_fact_sets_what_is_held(step):
        state = step.before  # a copy of its own, read by nothing after this check
        for fact in step.facts:
            *parents, last = fact["path"]
            node = state
            for key in parents:
                node = node[key]
            held = node.get(last, fact) if isinstance(node, dict) else node[last]  # `fact`: nothing held
            assert fact["f"] == "del" or held != fact["value"], (step.seq, fact["path"])
            state = RULESET.evolve(state, fact)
            facts_seen.append(fact)
    for seed, (options, seats, bot) in enumerate([({}, 2, "random"), ({"setup": "ffa"}, 3, "greedy"),
                                                  ({"setup": "teams_split", "format": "team_draft"}, 4, "greedy")]
                                                 * sized(1)):
        random_play(RULESET, options, seats, seed, bots=(bot,), checks=lambda setup: no_fact_sets_what_is_held)
    assert len(facts_seen) > 1000


def test_present_is_the_living_owners_and_attackers_clockwise_from_the_initiative():
    """present() read in one pass: a region's own living players and those attacking into it,
    clockwise from the initiative player; an eliminated partner is no longer present."""
    state = battle(game("teams_joint", 4, initiative=1))
    attacking(state, 1, 0, [[put(state, 1, "Jelly", region="r0")]])
    assert present(state, "r0") == [1, 2, 0]
    state["players"][2]["out"] = True
    assert present(state, "r0") == [1, 0] and present(state, "r1") == [1, 3]


def test_evolve_copies_a_facts_list_or_dict_and_shares_only_scalars():
    """A fact kept (in the store, in a replay) is never changed by play on the state it built."""
    state = game()
    hand = {"f": "set", "path": ["players", 0, "hand"], "value": ["Jelly#1"]}
    life = {"f": "set", "path": ["players", 0, "life"], "value": 7}
    state = RULESET.evolve(RULESET.evolve(state, hand), life)
    state["players"][0]["hand"].append("Jelly#2")
    assert hand["value"] == ["Jelly#1"] and state["players"][0]["life"] == 7


def test_a_player_put_out_by_a_decision_is_followed_by_a_second_death_check():
    """A decision's own check puts a player out and their units leave; the next check (advance's
    first, skipped only when nobody went out) sees what that did: in a joint team game a
    Prickly Protector (1/1, +1/+1 for each other allied unit) with 1 damage lives while its
    partner's Jelly is beside it, and dies once the partner, at 0 life, is out with the Jelly."""
    state = at(game("teams_joint", 4), "resources")
    prickly = put(state, 0, "Prickly Protector")
    put(state, 2, "Jelly")
    state["units"][prickly]["damage"] = 1
    check_deaths(state)
    assert prickly in state["units"]
    state["players"][2]["life"] = 0
    after = act(state, 0, {"type": "end_planning"})
    assert after["players"][2]["out"] and after["step"]["k"] == "resources"  # still waiting for the others
    assert prickly not in after["units"]


def test_a_decisions_facts_stay_as_decided_while_play_goes_on():
    """A fact kept (in the store, in a replay) is still what was decided when the match is over,
    however the state it built changed since: no fact shares a part with a state (rules.diff
    and evolve copy what is not a scalar, and a speed-up that drops a copy must keep this)."""
    kept = []

    def keep_facts(step):
        kept.extend((fact, json_copy(fact)) for fact in step.facts)

    for seed, (options, seats) in enumerate([({"setup": "ffa"}, 3), ({"format": "cube_draft"}, 2)] * sized(1)):
        random_play(RULESET, options, seats, seed, bots=("greedy", "random"), checks=lambda setup: keep_facts)
    assert sum(not isinstance(fact.get("value"), (str, int, float, type(None))) for fact, _ in kept) > 100
    assert all(fact == as_decided for fact, as_decided in kept)


def part_by_part_diff(before, after, path):
    """rules.diff as the facts are defined, one call for every part, each compared again on the
    way down (the way diff worked before issue 32's third round): what the faster diff must give."""
    hidden = bool(path) and hidden_prefix(path, None) == len(path)
    if isinstance(before, dict) and isinstance(after, dict) and not hidden:
        facts = []
        for key, value in after.items():
            if key not in before:
                facts.append({"f": "set", "path": path + [key], "value": value})
            elif before[key] != value:
                facts += part_by_part_diff(before[key], value, path + [key])
        return facts + [{"f": "del", "path": path + [key]} for key in before if key not in after]
    if before == after:
        return []
    if not hidden and isinstance(before, list) and isinstance(after, list) and len(before) == len(after) and \
            all(isinstance(x, (dict, list)) for x in before + after):
        facts = []
        for index, (old, new) in enumerate(zip(before, after)):
            facts += part_by_part_diff(old, new, path + [index]) if old != new else []
        return facts
    return [{"f": "set", "path": path, "value": json_copy(after)}]


def test_diff_gives_the_facts_a_part_by_part_comparison_gives():
    """rules.diff compares only the keys that differ when two dicts hold the same keys in the same
    order, sets a changed scalar without a call of its own, and reads hidden zones by their path
    length: the same facts, in the same order, as comparing every part on the way down - for
    dicts whose keys moved, came or went, lists that grew, a part that changed its type, hidden
    zones (a player's hand and face-down resources, a deck, the cube's pool) and nested lists."""
    state = game("ffa", 3, "cube_draft")
    cases = []
    moved = json_copy(state)
    moved["units"] = {"b": {"x": 1, "y": [1]}, "a": {"y": [2], "x": 1}}
    before = json_copy(moved)
    before["units"] = {"a": {"x": 1, "y": [1]}, "b": {"x": 1, "y": [1]}, "c": {"x": 0}}
    cases.append((before, moved))
    changed = json_copy(state)
    changed["players"][1]["hand"].append("Jelly#1")
    changed["players"][2]["dormant"] = [{"id": "Shard#9", "kind": "Shard", "element": None}]
    changed["players"][0]["resources"] = [{"id": "Prismite#1", "expended": True}]
    changed["decks"]["p0"] = ["Jelly#2"]
    changed["cube"]["pool"] = changed["cube"]["pool"][1:]
    changed["cube"]["round"] = {"now": 2}
    changed["battle"] = {"formations": [[1, [2]], {"a": None}], "next": 1}
    changed["stack"] = [[1], [2, 3]]
    changed["window"] = "text"
    changed["turn"] = 7
    changed["extra"] = [1]
    del changed["erased"]
    later = json_copy(changed)
    later["battle"]["formations"] = [[1, [3]], {"a": 1, "b": [1]}]
    later["stack"] = [[1], [2, 4], []]
    later["players"][0]["resources"][0]["expended"] = False
    cases += [(state, changed), (changed, later), (later, state)]
    for before, after in cases:
        assert diff(before, after, []) == part_by_part_diff(before, after, []), (before, after)

    pairs = []
    for seed, (options, seats, bot) in enumerate([({}, 2, "random"), ({"setup": "ffa", "format": "live_draft"}, 3,
                                                                          "greedy"),
                                                  ({"setup": "teams_joint", "format": "traditional_cube"}, 4,
                                                   "random")] * sized(1)):
        random_play(RULESET, options, seats, seed, bots=(bot,),
                    checks=lambda setup: lambda step: pairs.append((step.before, json_copy(step.state))))
    for before, after in pairs:  # `after` evolved: its dicts' keys in another order now and then
        assert diff(before, after, []) == part_by_part_diff(before, after, [])
    assert len(pairs) > 500


def test_a_hidden_zone_is_read_by_its_path_as_hidden_prefix_reads_it():
    """diff's own reading of a whole hidden zone (rules._hidden) is view.hidden_prefix's, for
    every path a fact can hold and the paths just beside them."""
    state = game("teams_split", 4, "team_draft")
    paths = [[], ["decks"], ["cube"], ["cube", "pool"], ["cube", "round"], ["cube", "pool", 0], ["players"],
             ["players", 0], ["units", "decks"], ["decks", "team0", 0], ["players", 0, "life"],
             ["players", 3, "hand", 0], ["x", "players", 0, "hand"], ["players", 0, "hand", "pack"]]
    paths += [["decks", key] for key in state["decks"]]
    paths += [["players", seat, field] for seat in range(4) for field in list(state["players"][seat]) + ["intent"]]
    for path in paths:
        assert _hidden(path) == (bool(path) and hidden_prefix(path, None) == len(path)), path


def test_a_flying_column_lists_only_flying_blockers():
    """The block listing reads once whether each column flies and each blocker flies: before
    a flying column (Bloodwind Revenant in front of a Jelly) only Chrome Hawk is listed as a
    blocker, alone and in the greedy blocks; the Coral Guard blocks the column without flying."""
    state = game()
    revenant, jelly = put(state, 0, "Bloodwind Revenant"), put(state, 0, "Jelly")
    golem = put(state, 0, "Boulder Golem")
    guard, hawk = put(state, 1, "Coral Guard"), put(state, 1, "Chrome Hawk")
    battle(state)
    place_attack(state, 0, [{"target": 1, "columns": [[revenant, jelly], [golem]]}])
    at(state, "block", seats=[1], region="r1")
    blocks = [a["blocks"] for a in RULESET.legal_actions(state, 1)]
    assert {"f1": [[hawk]]} in blocks and {"f1": [[guard]]} not in blocks
    assert {"f1": [[], [guard]]} in blocks and {"f1": [[], [hawk]]} in blocks
    assert blocks[1] == {"f1": [[hawk], [guard]]}


def test_each_combat_reads_its_units_stats_afresh():
    """A moment's hits read each unit's stats once (battle._Reads), never from an earlier
    combat: a Boulder Golem (3/5) unblocked deals 3, and with two +1/+1 counters 5."""
    state = battle(game())
    golem = put(state, 0, "Boulder Golem", region="r1")
    attacking(state, 0, 1, [[golem]])
    life = state["players"][1]["life"]
    combat(state, "r1")
    assert state["players"][1]["life"] == life - 3
    state["units"][golem]["counters"] = 2
    combat(state, "r1")
    assert state["players"][1]["life"] == life - 3 - 5
