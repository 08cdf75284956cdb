"""Playing cards, spell tokens, modifications and activated abilities: when each may be
played (timing), affinity and mana, targets, and whether it goes on the stack (battle) or
resolves at once (a player alone in their region during haste and deployment)."""

from itertools import permutations

from domain.kernel.errors import IllegalAction

from .cards import data_of, name_of
from .effects import leave_play, make_item, pay_mana, resolve, target_ok
from .state import abilities, activated_of, can_afford, current_region, present, units_in

TIMING_BY_STEP = {"deploy": ("normal", "haste", "virus"), "haste": ("haste",), "window": ("battle",)}


def step_kind(state):
    return state["step"]["k"] if state["step"] else None


def candidates(state, seat, region, kind):
    if kind in ("unit", "enemy_unit", "ally_unit"):
        pool = units_in(state, region)
    elif kind == "player":
        pool = [f"player:{p}" for p in present(state, region)]
    elif kind == "any":
        pool = units_in(state, region) + [f"player:{p}" for p in present(state, region)]
    elif kind == "effect":
        pool = [item["id"] for item in state["stack"]]
    else:
        pool = sorted(set(state["players"][seat]["bin"]))
    return [t for t in pool if target_ok(state, seat, region, kind, t)]


def target_choices(state, seat, region, kinds):
    """Every list of distinct targets, one per kind the card names."""
    if not kinds:
        return [[]]
    pools = [candidates(state, seat, region, kind) for kind in kinds]
    if any(not pool for pool in pools):
        return []
    union = sorted(set().union(*pools))
    return [list(choice) for choice in permutations(union, len(kinds))
            if all(choice[i] in pools[i] for i in range(len(kinds)))]


def check_targets(state, seat, region, kinds, targets):
    if not isinstance(targets, list) or len(targets) != len(kinds) or len(set(map(str, targets))) != len(targets):
        raise IllegalAction("targets_chosen_on_play", f"choose {len(kinds)} distinct targets as the card is played "
                            "(Playing a card: Targets)")
    for kind, target in zip(kinds, targets):
        if not isinstance(target, str) or not target_ok(state, seat, region, kind, target):
            raise IllegalAction("target_in_region", f"{target!r} is not a valid {kind} target in this region "
                                "(everything is region limited)")


# --- playing a card or a spell token ----------------------------------------------------

def playable_sources(state, seat, region=None):
    """Cards in hand and spell tokens that the current step's timing allows."""
    kind = step_kind(state)
    if kind not in TIMING_BY_STEP:
        return []
    region = current_region(state, seat) if region is None else region
    allowed = TIMING_BY_STEP[kind]
    sources = [c for c in sorted(set(state["players"][seat]["hand"])) if data_of(c).get("timing", "normal") in allowed
               and can_afford(state, seat, data_of(c))]
    if kind == "window":
        sources += [t for t, token in sorted(state["spell_tokens"].items())
                    if token["controller"] == seat and token["region"] == region
                    and not _burst_follower(state, seat, t)]
    return sources


def _burst_follower(state, seat, token):
    """Only the first of a seat's burst tokens of one name is listed: playing it plays all."""
    if "burst" not in data_of(token)["attributes"]:
        return False
    same = sorted(t for t, v in state["spell_tokens"].items() if name_of(t) == name_of(token)
                  and v["controller"] == seat and v["region"] == state["spell_tokens"][token]["region"])
    return same[0] != token


def play_actions(state, seat, region=None):
    region = current_region(state, seat) if region is None else region
    actions = []
    for source in playable_sources(state, seat, region):
        others = len(_burst_others(state, seat, region, source)) if source in state["spell_tokens"] else None
        for targets in target_choices(state, seat, region, data_of(source).get("targets", [])):
            action = {"type": "play", "card": source, "targets": targets}
            if others is not None and "burst" in data_of(source)["attributes"]:
                # listed with its field (the kernel refuses a field no listed play carries): by
                # default the other tokens share these targets; any valid lists may be posted
                action["burst_targets"] = [list(targets) for _ in range(others)]
                action["params"] = BURST_PARAMS
            actions.append(action)
    return actions


BURST_PARAMS = {"burst_targets": "the targets of each other token of this name played with it (burst), one list "
                "per token in id order, each chosen like `targets` (any valid targets, not only those listed); "
                "listed with the named token's targets, which is also the default when it is left out"}


def _burst_others(state, seat, region, token):
    """The seat's other spell tokens of this token's name in the region, in id order."""
    return sorted(t for t, v in state["spell_tokens"].items() if name_of(t) == name_of(token)
                  and t != token and v["controller"] == seat and v["region"] == region)


def do_play(state, seat, action):
    kind = step_kind(state)
    if kind not in TIMING_BY_STEP:
        raise IllegalAction("play_timing", "cards are played in the haste step, in battle priority windows and "
                            "during deployment")
    card = action.get("card")
    region = current_region(state, seat)
    is_token = card in state["spell_tokens"]
    if is_token:
        token = state["spell_tokens"][card]
        if token["controller"] != seat or token["region"] != region:
            raise IllegalAction("spell_token_region", "spell tokens may only be played in the region they are in, "
                                "by their controller")
    elif card not in state["players"][seat]["hand"]:
        raise IllegalAction("card_in_hand", f"{card!r} is not in your hand")
    data = data_of(card)
    timing = data.get("timing", "normal")
    if timing not in TIMING_BY_STEP[kind]:
        raise IllegalAction(f"timing_{timing}", {
            "battle": "battle cards can only be played while in battle with another player",
            "normal": "cards with no icon can only be played during deployment",
            "haste": "haste cards are played in the haste step or during deployment",
            "virus": "a virus is played during deployment; in battle it is applied as a mod (type mod)",
        }[timing])
    if not is_token:
        _check_cost(state, seat, data)
    kinds = data.get("targets", [])
    check_targets(state, seat, region, kinds, action.get("targets", []))
    played, chosen = [card], [list(action.get("targets", []))]
    if is_token and "burst" in data["attributes"]:
        # "Requires the player to play all tokens with the same name at once"; "multiple spell
        # tokens played with burst are still individual spells": each has its own targets.
        played = [card] + _burst_others(state, seat, region, card)
        chosen += _burst_targets(state, seat, region, kinds, action, len(played) - 1)
    elif "burst_targets" in action:
        raise IllegalAction("burst_targets", "burst_targets are the targets of the other spell tokens played with "
                            "a burst token")
    if not is_token:
        pay_mana(state, seat, data.get("cost", 0))
        state["players"][seat]["hand"].remove(card)
    items = []
    for each, targets in zip(played, chosen):
        x = state["spell_tokens"].pop(each)["x"] if is_token else 0
        items.append(make_item(state, seat, region, "card", each, None, kinds, targets, data.get("effects", []), x))
    if data.get("type") in ("spell", "spell_unit", "spell_token"):
        for _ in played:  # each spell played triggers "whenever you play a spell"
            items += _spell_triggers(state, seat, region)
    _put(state, items)


def _burst_targets(state, seat, region, kinds, action, others):
    """The other burst tokens' targets: `burst_targets` (one list per token, in id order),
    by default (no such field: a null is a value of the wrong type) the same targets as the
    token named."""
    if "burst_targets" not in action:
        return [list(action.get("targets", [])) for _ in range(others)]
    given = action["burst_targets"]
    if not isinstance(given, list) or len(given) != others:
        raise IllegalAction("burst_targets", f"burst_targets lists the targets of each of the {others} other "
                            "tokens played with this one, in id order")
    for targets in given:
        check_targets(state, seat, region, kinds, targets)
    return [list(targets) for targets in given]


def _check_cost(state, seat, data):
    for element, need in data.get("affinity", {}).items():
        if sum(1 for r in state["players"][seat]["resources"] if r["element"] == element) < need:
            raise IllegalAction("affinity", f"this needs {need} {element} affinity among your active resources")
    if sum(1 for r in state["players"][seat]["resources"] if not r["expended"]) < data.get("cost", 0):
        raise IllegalAction("mana_cost", f"this costs {data.get('cost', 0)} mana: expend that many un-expended "
                            "resources")


def _spell_triggers(state, seat, region):
    """"Whenever you play a spell" abilities of the player's units in this region."""
    items = []
    for uid in units_in(state, region, seat):
        for effect_list in [part.get("triggers", {}).get("on_spell", []) for part in abilities(state, uid)]:
            if effect_list:
                items.append(make_item(state, seat, region, "trigger", None, uid, [], [], effect_list))
    return items


def _put(state, items):
    """In a battle priority window effects go on the stack; elsewhere the player is alone
    in their region, so each resolves at once."""
    if step_kind(state) == "window":
        state["stack"] += items
        state["window"]["passes"] = 0
    else:
        for item in items:
            state["stack"].append(item)
            resolve(state, item)


# --- ambush ------------------------------------------------------------------------------

def ambush_actions(state, seat, region=None):
    """In battle a card with Ambush may be played, whatever its own timing, to recall an
    allied unit (a team-mate's too) and take its place."""
    if step_kind(state) != "window":
        return []
    region = current_region(state, seat) if region is None else region
    actions, allies = [], None
    for card in sorted(set(state["players"][seat]["hand"])):
        if data_of(card).get("ambush") and can_afford(state, seat, data_of(card)):
            if allies is None:
                allies = candidates(state, seat, region, "ally_unit")
            actions += [{"type": "ambush", "card": card, "recall": uid} for uid in allies]
    return actions


def do_ambush(state, seat, action):
    if step_kind(state) != "window":
        raise IllegalAction("ambush_in_battle", "ambush is played during battle")
    card, target = action.get("card"), action.get("recall")
    player = state["players"][seat]
    if card not in player["hand"] or not data_of(card).get("ambush"):
        raise IllegalAction("ambush_card", "play a card with Ambush from your hand")
    region = current_region(state, seat)
    if not isinstance(target, str) or not target_ok(state, seat, region, "ally_unit", target):
        raise IllegalAction("target_in_region", "ambush recalls an allied unit in this region (yours or a "
                            "team-mate's)")
    _check_cost(state, seat, data_of(card))
    pay_mana(state, seat, data_of(card).get("cost", 0))
    player["hand"].remove(card)
    _put(state, [make_item(state, seat, region, "ambush", card, None, ["ally_unit"], [target], [])])


# --- modifications ------------------------------------------------------------------------

def mod_actions(state, seat, region=None):
    """Each mod the seat may apply, onto each unit, at each place among the unit's mods (Q&A:
    "you can place new mods in-between old ones")."""
    kind = step_kind(state)
    region = current_region(state, seat) if region is None else region
    player = state["players"][seat]
    actions = []
    if kind == "deploy":
        sources = sorted(set(player["hand"])) + sorted(set(player["bin"]))
        for card in sources:
            data = data_of(card)
            if not (data.get("augment") or data.get("graft")) or not can_afford(state, seat, data):
                continue
            for uid in units_in(state, region, seat):
                if _is_graft(data) and not data_of(state["units"][uid]["card"]).get("graft"):
                    continue
                actions += _placed(card, uid, state["units"][uid])
    elif kind == "window":
        for card in sorted(set(player["hand"])):
            data = data_of(card)
            if data.get("timing") == "virus" and data.get("augment") and can_afford(state, seat, data):
                for uid in units_in(state, region):
                    actions += _placed(card, uid, state["units"][uid])
    return actions


def _placed(card, uid, unit):
    return [{"type": "mod", "card": card, "onto": uid, "position": p, "params": POSITION_PARAMS}
            for p in range(len(unit["mods"]) + 1)]


POSITION_PARAMS = {"position": "optional: where the new mod goes among the unit's mods, from 0 (right beneath the "
                   "card) to the number of its mods (the bottom, the default); the old mods keep their order"}


def _is_graft(data):
    return bool(data.get("graft")) and not data.get("augment")


def do_mod(state, seat, action):
    kind = step_kind(state)
    card, onto = action.get("card"), action.get("onto")
    region = current_region(state, seat)
    player = state["players"][seat]
    if kind not in ("deploy", "window"):
        raise IllegalAction("mod_timing", "modification is a special action of the deployment phase (viruses "
                            "also from hand during battle)")
    if kind == "window":
        if card not in player["hand"] or data_of(card).get("timing") != "virus":
            raise IllegalAction("virus_from_hand", "in battle only a virus card from your hand can be applied as "
                                "an augment (a virus in the bin cannot)")
    elif card not in player["hand"] and card not in player["bin"]:
        raise IllegalAction("mod_from_hand_or_bin", "modifications are applied from your hand or your bin")
    data = data_of(card)
    if not data.get("augment") and not data.get("graft"):
        raise IllegalAction("not_a_mod", f"{name_of(card)} has no augment or graft symbol")
    if onto not in state["units"] or state["units"][onto]["region"] != region:
        raise IllegalAction("target_in_region", "the modified unit must be in your region")
    if kind == "deploy" and state["units"][onto]["controller"] != seat:
        raise IllegalAction("mod_own_unit", "during deployment you can only modify your own units")
    graft = _is_graft(data)
    if graft and not data_of(state["units"][onto]["card"]).get("graft"):
        raise IllegalAction("graft_both_cards", "both cards must have the graft symbol to apply a graft")
    if kind == "window" and not data.get("augment"):
        raise IllegalAction("virus_augment", "a virus is applied as an augment")
    mods = len(state["units"][onto]["mods"])
    position = action.get("position", mods)
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= mods:
        raise IllegalAction("mod_position", f"a new mod goes at a position from 0 (right beneath the card) to "
                            f"{mods} (the bottom); the old mods cannot be re-ordered")
    _check_cost(state, seat, data)
    pay_mana(state, seat, data.get("cost", 0))
    (player["hand"] if card in player["hand"] else player["bin"]).remove(card)
    if kind == "window":
        item = make_item(state, seat, region, "virus", card, None, ["unit"], [onto], [])
        item["position"] = position
        _put(state, [item])
    else:
        mod = {"card": card, "kind": "graft" if graft else "augment", "owner": seat}
        state["units"][onto]["mods"].insert(position, mod)


# --- activated abilities ------------------------------------------------------------------

def ability_of(state, uid):
    """The unit's activated ability (its own or an augment's) with grafted effects added
    beneath it: (cost, target kinds, effects, indexes of effects limited once a turn)."""
    unit = state["units"][uid]
    ability = activated_of(unit)
    if not ability:
        return None
    kinds, effects, bounded = list(ability.get("targets", [])), list(ability["effects"]), []
    for mod in unit["mods"]:
        if mod["kind"] != "graft":
            continue
        graft = data_of(mod["card"])
        extra = graft["activated"] if graft.get("activated") else graft
        offset = len(kinds)
        kinds += extra.get("targets", [])
        for effect in extra.get("effects", []):
            effect = dict(effect)
            for key in ("t", "u"):
                if key in effect:
                    effect[key] += offset
            if graft["graft"]["bounded"]:
                bounded.append(len(effects))
            effects.append(effect)
    return ability["cost"], kinds, effects, bounded


def activate_actions(state, seat, region=None):
    if step_kind(state) not in ("deploy", "window"):
        return []
    region = current_region(state, seat) if region is None else region
    actions = []
    for uid in units_in(state, region, seat):
        ability = ability_of(state, uid)
        if not ability or _used_up(state, uid):
            continue
        cost, kinds, _, _ = ability
        sacrifices = [None]
        if cost == "sacrifice_ally":
            sacrifices = [u for u in units_in(state, region, seat) if u != uid]
        if cost == "mana_1" and sum(1 for r in state["players"][seat]["resources"] if not r["expended"]) < 1:
            continue
        for sacrifice in sacrifices:
            for targets in target_choices(state, seat, region, kinds):
                if sacrifice in targets or (cost == "sacrifice_me" and uid in targets):
                    continue
                action = {"type": "activate", "unit": uid, "targets": targets}
                if sacrifice:
                    action["sacrifice"] = sacrifice
                actions.append(action)
    return actions


def _used_up(state, uid):
    """A bounded graft cause triggers once per turn."""
    graft = data_of(state["units"][uid]["card"]).get("graft")
    return bool(graft and graft["bounded"] and "cause" in state["units"][uid]["used"])


def do_activate(state, seat, action):
    if step_kind(state) not in ("deploy", "window"):
        raise IllegalAction("ability_timing", "activated abilities are used when you have priority during battle "
                            "and during deployment")
    uid = action.get("unit")
    region = current_region(state, seat)
    if uid not in units_in(state, region, seat):
        raise IllegalAction("ability_own_unit", "activate abilities of your own units in this region")
    ability = ability_of(state, uid)
    if not ability:
        raise IllegalAction("no_ability", "that unit has no activated ability (a colon ':')")
    if _used_up(state, uid):
        raise IllegalAction("graft_bounded", "a bounded graft triggers only once per turn")
    cost, kinds, effects, bounded = ability
    targets = action.get("targets", [])
    check_targets(state, seat, region, kinds, targets)
    if cost != "sacrifice_ally" and "sacrifice" in action:
        raise IllegalAction("sacrifice_own_here", "only an ability whose cost sacrifices another unit names one "
                            "to sacrifice")
    if cost == "sacrifice_ally":
        victim = action.get("sacrifice")
        if victim == uid or victim not in units_in(state, region, seat) or victim in targets:
            raise IllegalAction("sacrifice_own_here", "sacrifice another unit you control in this region "
                                "(you cannot sacrifice what you don't control or what is in another region)")
    if cost == "sacrifice_me" and uid in targets:
        raise IllegalAction("targets_chosen_on_play", "a unit sacrificed as the cost cannot be a target")
    if cost == "mana_1":
        _check_cost(state, seat, {"cost": 1})
        pay_mana(state, seat, 1)
    item = make_item(state, seat, region, "ability", None, uid, kinds, targets, effects, bounded=bounded)
    graft = data_of(state["units"][uid]["card"]).get("graft")
    if graft and graft["bounded"]:
        state["units"][uid]["used"].append("cause")
    if cost == "sacrifice_me":
        leave_play(state, uid, "die")
    elif cost == "sacrifice_ally":
        leave_play(state, action["sacrifice"], "die")
    _put(state, [item])
