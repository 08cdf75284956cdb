"""Card effects, the stack and what happens when things leave play. Every effect is limited
to the region it takes place in: targets, "each opponent", "allied units" all mean those
in that region. These functions change the (copied) state; legality is checked before."""

import orjson

from domain.kernel.canonical import json_copy
from domain.kernel.memo import Memo

from .cards import TOKENS, data_of, name_of
from .state import (abilities, columns_by_unit, enemies, formation_column, parts_of, present, priority_groups,
                    stats, units_in)


def new_id(state, name):
    state["next_id"] += 1
    return f"{name}#{state['next_id']}"


def make_item(state, seat, region, kind, card, source, kinds, targets, effects, x=0, bounded=()):
    """An effect for the stack: a card being played, an ability, a trigger or a virus mod. Its
    effects are copies of the catalogue's: a search's playout keeps its state from step to step
    (advance's facts=False), and must share no part with the catalogue a served match reads."""
    return {"id": new_id(state, "effect"), "kind": kind, "card": card, "source": source, "controller": seat,
            "owner": seat, "region": region, "target_kinds": list(kinds), "targets": list(targets),
            "effects": json_copy(list(effects)), "x": x, "bounded": list(bounded)}


# --- mana --------------------------------------------------------------------------------

def pay_mana(state, seat, amount):
    """Expend un-expended resources for mana, shards first, then Prismites, then elemental
    resources (any resource gives 1 mana; affinity only needs them present)."""
    rank = {"Shard": 0, "Prismite": 1}
    resources = sorted((r for r in state["players"][seat]["resources"] if not r["expended"]),
                       key=lambda r: (rank.get(r["kind"], 2), r["id"]))
    for resource in resources[:amount]:
        resource["expended"] = True


# --- cards moving ------------------------------------------------------------------------

def draw(state, seat, count):
    """Draw from the top of the deck the seat draws from (its own, its team's or the shared
    deck); an empty deck gives nothing."""
    deck = state["decks"][state["players"][seat]["deck"]]
    for _ in range(count):
        if deck:
            state["players"][seat]["hand"].append(deck.pop(0))


def recycle(state, seat, card):
    """Put a card from hand on the bottom of the deck."""
    state["players"][seat]["hand"].remove(card)
    state["decks"][state["players"][seat]["deck"]].append(card)


def to_bin(state, card, owner):
    if name_of(card) in TOKENS:
        return  # tokens are erased and go back to the token pile
    state["players"][owner]["bin"].append(card)


def leave_play(state, uid, how):
    """A unit leaves play: it dies (damage, deletion, sacrifice) into the bin, is erased, or
    returns to its owner's hand. Tokens are erased; a modded or Unstable card is erased with
    all its mods; a modded card returned to hand sends its mods to the bin. Its "when I
    despawn" abilities trigger (`despawned`)."""
    unit = state["units"].get(uid)
    if unit is None:
        return
    where = formation_column(state, uid)
    region = where[0]["destination"] if unit["region"] is None and where else unit["region"]
    _leave_formation(where, uid)
    del state["units"][uid]
    modded = bool(unit["mods"]) or unit["unstable"]
    if how == "recall":
        if not unit["token"]:
            state["players"][unit["owner"]]["hand"].append(unit["card"])
        for mod in unit["mods"]:
            state["players"][mod["owner"]]["bin"].append(mod["card"])
    elif modded or how == "erase":
        if not unit["token"]:
            state["erased"].append(unit["card"])
        state["erased"] += [mod["card"] for mod in unit["mods"]]
    elif not unit["token"]:
        state["players"][unit["owner"]]["bin"].append(unit["card"])
    despawned(state, uid, unit, region)


def despawned(state, uid, unit, region):
    """"When I despawn" abilities. In battle "whenever ... an ability is ... triggered, it is
    added to the stack as an 'effect'. This means it does not resolve immediately, giving
    other players in the region a chance to respond": each waits in the battle's `triggered`
    until it enters the stack of its region's priority window - at once if that window is
    open, after the action or the resolving effect that caused it; otherwise when the
    region's next window opens (flow.put_triggered). A counter-attacking unit lost on its way
    (region None) triggers in the region it was sent to. Outside battle its controller is
    alone in the region and it resolves at once (README I15)."""
    for part in parts_of(unit):
        effects = part.get("triggers", {}).get("on_despawn")
        if not effects:
            continue
        if state["battle"] is not None:
            state["battle"]["triggered"].append(make_item(state, unit["controller"], region, "trigger", None, uid,
                                                          [], [], effects))
            continue
        for effect in effects:
            run_effect(state, {"controller": unit["controller"], "region": region, "source": None,
                               "targets": [], "x": 0}, effect)


def _leave_formation(where, uid):
    """Hold the line: units behind move up; an emptied attacking column closes up only
    while blocks are not yet declared (after blocks, columns keep their places). `where`:
    the unit's place (formation_column), if it has one."""
    if not where:
        return
    formation, side, index = where
    formation[side][index].remove(uid)
    if not formation[side][index] and side == "columns" and formation["blocks"] is None:
        del formation[side][index]


def spawn_unit(state, card, controller, region, owner=None, token=False, x=0, unstable=False):
    uid = card if not token else new_id(state, card)
    state["units"][uid] = {"card": uid if not token else card, "owner": controller if owner is None else owner,
                           "controller": controller, "region": region, "token": token, "x": x, "counters": 0,
                           "temp": [0, 0], "damage": 0, "deadly_hit": False, "temp_attributes": [], "mods": [],
                           "unstable": unstable, "protected": False, "used": []}
    return uid


def check_deaths(state):
    """A unit with damage at least its defense, or defense 0 or less, dies at once."""
    global _clean_board
    while True:
        board = _board(state)
        if board == _clean_board:
            return
        if board in _CLEAN_BOARDS:
            _clean_board = board
            return
        dead = []
        columns = columns_by_unit(state)
        for uid, unit in sorted(state["units"].items()):
            _, defense = stats(state, uid, columns)
            if defense <= 0 or unit["damage"] >= defense or unit["deadly_hit"]:
                dead.append(uid)
        if not dead:
            _clean_board = _CLEAN_BOARDS.keep(board, board)
            return
        for uid in dead:
            leave_play(state, uid, "die")


# The last board (`_board`) on which check_deaths found no unit dying. The rules check after
# every action and at every step, and nine checks in ten of a search's playouts look at the
# same board as the check before (a draw, a pass, a step beginning touch no unit): the
# answer is the same, so the stats of every unit are not read again (bench/search_speed.py,
# issue 32). Any board seen clean is clean whatever state, match or thread it came from.
_clean_board = None
# And the boards found clean before it (bounded: a search meets ever new boards). A search
# plays each candidate on the same samples, and a third of the boards the last one misses
# were found clean earlier in the decision, by another candidate's playout: each unit's stats
# read again for them were a few per cent of the search bot's time (issue 32). The board is
# public (units, formations, teams) and the whole of what the check reads.
_CLEAN_BOARDS: Memo = Memo(2048)


def _board(state) -> bytes:
    """All a death check reads, as JSON bytes: the units, the formations (combat
    attributes are shared in a column) and the teams (a unit counting its allies)."""
    battle = state["battle"]
    return orjson.dumps([state["units"], battle["formations"] if battle else None, state["team"]])


# --- effects -----------------------------------------------------------------------------

def target_valid(state, item, index):
    targets = item["targets"]
    if index >= len(targets) or targets[index] is None:
        return False
    target, kind = targets[index], item["target_kinds"][index]
    return target_ok(state, item["controller"], item["region"], kind, target, exclude=item.get("id"))


def target_ok(state, seat, region, kind, target, exclude=None):
    if kind in ("unit", "enemy_unit", "ally_unit", "any") and target in state["units"]:
        unit = state["units"][target]
        if unit["region"] != region:
            return False
        if kind == "enemy_unit":
            return enemies(state, seat, unit["controller"])
        if kind == "ally_unit":
            return not enemies(state, seat, unit["controller"])
        return True
    if kind in ("player", "any") and isinstance(target, str) and target.startswith("player:"):
        who = int(target.split(":")[1])
        return 0 <= who < state["n"] and who in present(state, region)
    if kind == "effect":
        return any(item["id"] == target for item in state["stack"]) and target != exclude
    if kind == "bin_unit":
        return target in state["players"][seat]["bin"] and data_of(target).get("type") in ("unit", "spell_unit")
    return False


def damage(state, target, amount, deadly=False):
    if amount <= 0:
        return
    if target.startswith("player:"):
        state["players"][int(target.split(":")[1])]["life"] -= amount
        return
    unit = state["units"][target]
    if unit["protected"]:
        return
    unit["damage"] += amount
    unit["deadly_hit"] = unit["deadly_hit"] or deadly


def place_counters(state, uid, count):
    """+1/+1 counters may be increased by Flux Resonator's replacement effect (allied, same region)."""
    unit = state["units"][uid]
    if count > 0:
        for other in units_in(state, unit["region"]):
            if not enemies(state, state["units"][other]["controller"], unit["controller"]):
                count += sum(part.get("static", {}).get("counter_bonus", 0) for part in abilities(state, other))
    unit["counters"] += count


def run_effect(state, item, effect):
    do = effect["do"]
    seat, region = item["controller"], item["region"]
    targets = item["targets"]
    amount = effect.get("n", 0)
    if amount == "X":
        amount = item["x"]
    if "t" in effect and not target_valid(state, item, effect["t"]):
        return  # that target is gone: the rest resolves as best it can
    target = targets[effect["t"]] if "t" in effect else None
    if do == "damage":
        damage(state, target, amount)
    elif do == "damage_each_enemy":
        for uid in units_in(state, region):
            if enemies(state, seat, state["units"][uid]["controller"]):
                damage(state, uid, amount)
    elif do == "fight":
        if target_valid(state, item, effect["u"]):
            other = targets[effect["u"]]
            power_a, power_b = stats(state, target)[0], stats(state, other)[0]
            damage(state, other, max(0, power_a))
            damage(state, target, max(0, power_b))
    elif do == "delete":
        leave_play(state, target, "die")
    elif do == "recall":
        leave_play(state, target, "recall")
    elif do == "buff":
        state["units"][target]["temp"] = [state["units"][target]["temp"][0] + effect["p"],
                                          state["units"][target]["temp"][1] + effect["d"]]
    elif do == "buff_allies":
        for uid in units_in(state, region):
            if not enemies(state, seat, state["units"][uid]["controller"]):
                unit = state["units"][uid]
                unit["temp"] = [unit["temp"][0] + effect["p"], unit["temp"][1] + effect["d"]]
    elif do == "counters":
        place_counters(state, target, amount)
    elif do == "counters_me":
        if item["source"] in state["units"]:
            place_counters(state, item["source"], amount)
    elif do == "create_units":
        for _ in range(effect["count"]):
            spawn_unit(state, effect["token"], seat, region, token=True, x=effect.get("x", 0))
    elif do == "spell_token":
        for _ in range(effect.get("count", 1)):
            token = new_id(state, effect["token"])
            state["spell_tokens"][token] = {"controller": seat, "region": region, "x": effect.get("x", 0)}
    elif do == "draw":
        draw(state, seat, amount)
    elif do == "gain_life":
        state["players"][seat]["life"] += amount
    elif do == "drain":
        for other in present(state, region):
            if enemies(state, seat, other):
                state["players"][other]["life"] -= amount
    elif do == "negate":
        negate(state, target)
    elif do == "protect":
        state["units"][target]["protected"] = True
    elif do == "give_attribute":
        if effect["attribute"] not in state["units"][target]["temp_attributes"]:
            state["units"][target]["temp_attributes"].append(effect["attribute"])
    elif do == "reanimate":
        state["players"][seat]["bin"].remove(target)
        spawn_unit(state, target, seat, region, unstable=True)
    elif do == "sacrifice_me":
        if item["source"] in state["units"]:
            leave_play(state, item["source"], "die")
    elif do == "delete_my_tokens":
        for uid in units_in(state, region, seat):
            # A token deleted earlier in this loop may have deleted others on its own despawn.
            if uid in state["units"] and state["units"][uid]["token"]:
                leave_play(state, uid, "die")
    else:
        raise AssertionError(f"unknown effect {do}")


def negate(state, item_id):
    """A negated effect leaves the stack; a negated card goes to the bin (a token is erased)."""
    for item in state["stack"]:
        if item["id"] == item_id:
            state["stack"].remove(item)
            if item["card"] and item["kind"] in ("card", "virus", "ambush"):
                _card_to_bin_or_token(state, item)
            return


def _card_to_bin_or_token(state, item):
    to_bin(state, item["card"], item["owner"])


def resolve(state, item, start=0):
    """An effect resolves: it fizzles into the bin if it had targets and all are gone;
    otherwise its effects happen top to bottom, and a unit or spell unit spawns. An effect
    that asks players to choose pauses the resolution until they have (state["choice"])."""
    if start == 0:
        if item in state["stack"]:
            state["stack"].remove(item)
        if item["targets"] and not any(target_valid(state, item, i) for i in range(len(item["targets"]))):
            if item["card"] and item["kind"] in ("card", "virus", "ambush"):
                _card_to_bin_or_token(state, item)
            return
        if item["kind"] == "virus":
            mods = state["units"][item["targets"][0]]["mods"]  # at the place chosen when it was applied
            mods.insert(min(item.get("position", len(mods)), len(mods)),
                        {"card": item["card"], "kind": "augment", "owner": item["owner"]})
            return
        if item["kind"] == "ambush":
            _ambush(state, item)
            return
    for index in range(start, len(item["effects"])):
        effect = item["effects"][index]
        if index in item.get("bounded", []):
            source = state["units"].get(item["source"])
            key = f"graft:{index}"
            if source is not None:
                if key in source["used"]:
                    continue
                source["used"].append(key)
        if effect["do"] in CHOICES:
            state["choice"] = {"item": item, "index": index, "kind": effect["do"],
                               "queue": _choosers(state, item, effect)}
            if not settle_choice(state):
                return
            continue
        run_effect(state, item, effect)
    if item["kind"] == "card":
        card = item["card"]
        kind = data_of(card).get("type")
        if kind in ("unit", "spell_unit"):
            spawn_unit(state, card, item["controller"], item["region"], owner=item["owner"])
        else:
            to_bin(state, card, item["owner"])
    check_deaths(state)


def _ambush(state, item):
    """The ambushing unit spawns directly into the recalled unit's place (its formation
    position, if it had one); the recalled unit returns to its owner's hand."""
    target = item["targets"][0]
    region = state["units"][target]["region"]
    where = formation_column(state, target)
    uid = spawn_unit(state, item["card"], item["controller"], region, owner=item["owner"])
    if where:
        formation, side, index = where
        column = formation[side][index]
        column[column.index(target)] = uid
    leave_play(state, target, "recall")


# --- choices players make while an effect resolves ---------------------------------------

CHOICES = ("each_sacrifice", "give_control")


def _choosers(state, item, effect):
    """Each player in the region sacrifices (in priority order), each deciding which of
    their own units; Corrupting Blight's controller picks the player who gains it."""
    if effect["do"] == "each_sacrifice":
        return [seat for group in priority_groups(state, item["region"]) for seat in group]
    source = state["units"].get(item["source"])
    return [source["controller"]] if source else []


def choice_options(state):
    choice = state["choice"]
    if choice["kind"] == "assign":  # combat damage beyond lethal to a front unit (battle.combat)
        return list(choice["options"])
    seat, item = choice["queue"][0], choice["item"]
    if choice["kind"] == "each_sacrifice":
        return units_in(state, item["region"], seat)
    source = state["units"].get(item["source"])
    if source is None:
        return []
    return [f"player:{p}" for p in present(state, item["region"]) if p != source["controller"]]


def make_choice(state, option):
    """Apply the head chooser's pick, then settle the rest; resume the resolution when done."""
    choice = state["choice"]
    make_choice_now(state, option)
    choice["queue"].pop(0)
    if settle_choice(state):
        item, index = choice["item"], choice["index"]
        resolve(state, item, start=index + 1)


def settle_choice(state):
    """Players with one option or none need not decide; True once nobody has to."""
    choice = state["choice"]
    while choice["queue"]:
        options = choice_options(state)
        if len(options) > 1:
            return False
        if options:
            make_choice_now(state, options[0])
        choice["queue"].pop(0)
    state["choice"] = None
    return True


def make_choice_now(state, option):
    if state["choice"]["kind"] == "each_sacrifice":
        leave_play(state, option, "die")
    else:
        state["units"][state["choice"]["item"]["source"]]["controller"] = int(option.split(":")[1])
