"""Reading an Algomancy state: seats, teams, regions and who is present in them, units'
stats through the rulebook's six layers, formations. Nothing here changes the state."""

import functools

from .cards import COMBAT_ATTRIBUTES, data_of

START_LIFE = 30
ACTIVATIONS_PER_TURN = 2
PACK_SIZE = 10
SHARD_AFFINITY = 3


def living(state):
    return [seat for seat in range(state["n"]) if not state["players"][seat]["out"]]


def team_of(state, seat):
    return state["team"][seat]


def enemies(state, a, b):
    return state["team"][a] != state["team"][b]


def clockwise_from(state, seat, include=True):
    """Living seats clockwise starting at `seat` (or just after it)."""
    n = state["n"]
    order = [(seat + i) % n for i in range(0 if include else 1, n + (0 if include else 1))]
    return [s for s in order if not state["players"][s]["out"]]


def next_living(state, seat):
    return clockwise_from(state, seat, include=False)[0]


def home(state, seat):
    return state["home"][seat]


def regions(state):
    """Living regions in seat order around the circle (eliminated players' regions close up)."""
    seen = []
    for seat in living(state):
        if home(state, seat) not in seen:
            seen.append(home(state, seat))
    return seen


def neighbours(state, region):
    ring = regions(state)
    if region not in ring or len(ring) < 2:
        return []
    i = ring.index(region)
    return sorted({ring[(i - 1) % len(ring)], ring[(i + 1) % len(ring)]} - {region})


def region_order(state):
    """Battle resolves clockwise starting to the left of the initiative player, whose region is last."""
    order = []
    for seat in clockwise_from(state, state["initiative"], include=False) + [state["initiative"]]:
        if not state["players"][seat]["out"] and home(state, seat) not in order:
            order.append(home(state, seat))
    return order


def owners(state, region):
    return [seat for seat in living(state) if home(state, seat) == region]


def present(state, region):
    """The region's own players plus everyone who sent an attack into it this battle: the
    living ones, clockwise from the initiative player. (Read at every priority check and
    listing, so read in one pass over the seats, not through owners and clockwise_from.)"""
    battle = state["battle"]
    attackers = {f["attacker"] for f in battle["formations"] if f["region"] == region} if battle else ()
    n, first, players, homes = state["n"], state["initiative"], state["players"], state["home"]
    return [seat for seat in [(first + i) % n for i in range(n)]
            if not players[seat]["out"] and (homes[seat] == region or seat in attackers)]


def current_region(state, seat):
    """Where a seat acts now: the region of the running priority window, else its own."""
    window = state["window"]
    if window and seat in present(state, window["region"]):
        return window["region"]
    return home(state, seat)


def priority_groups(state, region):
    """Priority starts with the initiative player (or the nearest present clockwise) and goes
    clockwise; teammates share priority, so a team is one group. The initiative team's group
    comes first whenever any of its players is present, the initiative player or not ("Teams
    always act together in all situations and phases of the game. The Initiative-Team (IT)
    must make all of their plays first"; "Teams pass priority and receive priority
    collectively"): the nearest player clockwise may be on another team."""
    groups, by_team, team = [], {}, state["team"]  # a group is one team's: found by its team
    for seat in present(state, region):
        group = by_team.get(team[seat])
        if group is None:
            group = by_team[team[seat]] = []
            groups.append(group)
        group.append(seat)
    initiative_team = team[state["initiative"]]
    groups.sort(key=lambda group: team[group[0]] != initiative_team)  # stable: the rest stay clockwise
    return groups


# --- units -----------------------------------------------------------------------------

def units_in(state, region, controller=None):
    return sorted(uid for uid, unit in state["units"].items()
                  if unit["region"] == region and (controller is None or unit["controller"] == controller))


def abilities(state, uid):
    return parts_of(state["units"][uid])


def parts_of(unit):
    """A unit's text, top to bottom: its card, the card's own augment paragraph ("Cards with
    the augment and graft abilities still function as written, even if they are not applied
    as mods"; Q&A: the text "is active on cards played normally"), then the augment text of
    each of its mods in their order beneath it (an augmented card is read as one card)."""
    return _parts(*_text_key(unit))


def _text_key(unit) -> tuple:
    """What a unit's text depends on: its card and its augment mods' cards, in order."""
    mods = unit["mods"]
    return unit["card"], tuple([mod["card"] for mod in mods if mod["kind"] == "augment"]) if mods else ()


# A unit's parts and printed attributes follow from the catalog alone, yet the rules read
# them for every unit after every action (check_deaths reads every unit's stats): remembered,
# the search bot decides 1.1 times as fast (bench/search_speed.py, issue 32). The card data
# they hold is the catalog's own, never changed.
@functools.lru_cache(maxsize=8192)
def _parts(card_id: str, augments: tuple) -> tuple:
    card = data_of(card_id)
    parts = [card] + ([card["augment"]] if card.get("augment") else [])
    return tuple(parts + [data_of(mod)["augment"] for mod in augments])


def activated_of(unit):
    """The unit's activated ability before grafts (its card's own or an augment's), or None."""
    return _activated(*_text_key(unit))


# It follows from the card and augments alone, as the parts do: the listing asks it of every
# unit of the seat at every deployment and priority step, and finding it in the parts again was
# a per cent of the search bot's time (issue 32). The card data is the catalog's own, never changed.
@functools.lru_cache(maxsize=8192)
def _activated(card_id: str, augments: tuple):
    return next((part["activated"] for part in _parts(card_id, augments) if part.get("activated")), None)


@functools.lru_cache(maxsize=8192)
def _printed_attributes(card_id: str, augments: tuple) -> tuple:
    attributes = []
    for part in _parts(card_id, augments):
        attributes += [a for a in part.get("attributes", []) if a not in attributes]
    return tuple(attributes)


def own_attributes(state, uid):
    unit = state["units"][uid]
    attributes = list(_printed_attributes(*_text_key(unit)))
    attributes += [a for a in unit["temp_attributes"] if a not in attributes]
    if (unit["unstable"] or unit["mods"]) and "unstable" not in attributes:
        attributes.append("unstable")  # a modded card is unstable (Permadeath)
    return attributes


def formation_column(state, uid):
    """(formation, side, column index) for a unit in a formation, else None."""
    battle = state["battle"]
    if not battle:
        return None
    for formation in battle["formations"]:
        for side in ("columns", "blocks"):
            for index, column in enumerate(formation.get(side) or []):
                if uid in column:
                    return formation, side, index
    return None


def attributes(state, uid):
    """Own attributes, plus the combat attributes of every unit in the same column, front
    to back (combat attributes are shared in columns, never left or right)."""
    where = formation_column(state, uid)
    result = own_attributes(state, uid)
    if where:
        formation, side, index = where
        result = []
        for other in formation[side][index]:
            for attribute in own_attributes(state, other):
                if attribute in COMBAT_ATTRIBUTES and attribute not in result:
                    result.append(attribute)
        result += [a for a in own_attributes(state, uid) if a not in result]
    return result


# The attributes a unit's stats read (layers 4 and 5); the others change no number.
STAT_ATTRIBUTES = ("tough", "balanced", "inverted")


@functools.lru_cache(maxsize=8192)
def _printed_stat_attributes(card_id: str, augments: tuple) -> tuple:
    return tuple(a for a in _printed_attributes(card_id, augments) if a in STAT_ATTRIBUTES)


@functools.lru_cache(maxsize=8192)
def _static_changes(card_id: str, augments: tuple) -> tuple:
    """(power, defense) the text's static `stats` add, and the per-ally (power, defense) it
    adds for each other allied unit in the region (None when no part has one)."""
    statics = [part.get("static", {}) for part in _parts(card_id, augments)]
    changes = [static["stats"] for static in statics if "stats" in static]
    per_ally = [static["per_ally"] for static in statics if "per_ally" in static]
    return (sum(c[0] for c in changes), sum(c[1] for c in changes),
            (sum(c[0] for c in per_ally), sum(c[1] for c in per_ally)) if per_ally else None)


def _own_stat_attributes(unit) -> tuple:
    """own_attributes(...) less those no stat reads, in the same order (repeats and all)."""
    printed = _printed_stat_attributes(*_text_key(unit))
    if not unit["temp_attributes"]:
        return printed
    return printed + tuple(a for a in unit["temp_attributes"] if a in STAT_ATTRIBUTES and a not in printed)


def _stat_attributes(state, uid, column) -> list | tuple:
    """attributes(state, uid) less those no stat reads, in the same order: a unit in a
    formation (`column`, the one holding it) shows its column's, front to back."""
    if column is None:
        return _own_stat_attributes(state["units"][uid])
    shown = []
    for other in column:
        for attribute in _own_stat_attributes(state["units"][other]):
            if attribute not in shown:
                shown.append(attribute)
    return shown


def column_of(state, uid):
    """The formation column holding a unit, else None (as formation_column finds it)."""
    where = formation_column(state, uid)
    return where[0][where[1]][where[2]] if where else None


def columns_by_unit(state) -> dict:
    """column_of(state, uid) for every unit in a formation, found in one pass over the
    formations (the first column holding a unit, in formation_column's order)."""
    found = {}
    battle = state["battle"]
    if battle:
        for formation in battle["formations"]:
            for side in ("columns", "blocks"):
                for column in formation.get(side) or []:
                    for uid in column:
                        found.setdefault(uid, column)
    return found


def stats(state, uid, columns=None):
    """Layers: 1 printed, 2 base (tokens' X), 3 stat changes (counters, until-regroup changes,
    static abilities), 4 attributes (Tough, Balanced, top to bottom), 5 Inverted.

    A reader of many units of one state passes `columns` (columns_by_unit(state)): the
    rules read every unit's stats after every action (check_deaths), and finding each one's
    column afresh, with its whole attribute list, was two fifths of the search bot's time
    (bench/search_speed.py, issue 32)."""
    unit = state["units"][uid]
    card_id, augments = _text_key(unit)
    card = data_of(card_id)
    power, defense = card["power"], card["defense"]
    if power == "X":
        power = defense = unit["x"]
    static_power, static_defense, per_ally = _static_changes(card_id, augments)
    change_p = unit["counters"] + unit["temp"][0] + static_power
    change_d = unit["counters"] + unit["temp"][1] + static_defense
    if per_ally is not None:  # "each other allied unit": a team-mate's units are allied too
        others = len([u for u in units_in(state, unit["region"]) if u != uid
                      and not enemies(state, unit["controller"], state["units"][u]["controller"])])
        change_p += per_ally[0] * others
        change_d += per_ally[1] * others
    power, defense = power + change_p, defense + change_d
    shown = _stat_attributes(state, uid, columns.get(uid) if columns is not None else column_of(state, uid))
    for attribute in shown:
        if attribute == "tough":
            defense *= 2
        elif attribute == "balanced":
            power = defense = -(-(power + defense) // 2)
    if "inverted" in shown:
        power, defense = power - 2 * change_p, defense - 2 * change_d
    return power, defense


def affinity(state, seat, element):
    return sum(1 for r in state["players"][seat]["resources"] if r["element"] == element)


def mana(state, seat):
    return sum(1 for r in state["players"][seat]["resources"] if not r["expended"])


def can_afford(state, seat, card):
    return mana(state, seat) >= card.get("cost", 0) and all(
        affinity(state, seat, element) >= need for element, need in card.get("affinity", {}).items())
