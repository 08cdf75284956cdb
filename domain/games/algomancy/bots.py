"""Bots for any Algomancy seat: a random one and a greedy one. Both pick from
`legal_actions`, so they only ever play legal moves."""

from .cards import data_of, name_of
from .plays import ability_of
from .rules import legal_actions
from .state import columns_by_unit, enemies, formation_column, parts_of, present, stats, units_in

HARMFUL = {"damage", "delete", "recall", "negate"}
HARMFUL_VIRUSES = ("Smouldering Inferno", "Blightspore", "Pathogenic Enclave")  # augmented onto enemies
LIFE = 1.5  # a point of an opponent's life, against a point of a unit's power or defense


def random_bot(state, seat, rand):
    """A random kind of action, then a random action of that kind: drawn uniformly from the
    whole listing, the many `create_resource` choices (each hand card times five elements)
    crowded out everything else, and random play recycled its hand into resources."""
    actions = legal_actions(state, seat)
    kind = rand.choice(sorted({a["type"] for a in actions}))
    return rand.choice([a for a in actions if a["type"] == kind])


def card_value(card):
    data = data_of(card)
    value = data.get("cost", 0) * 2.0
    if isinstance(data.get("power"), int):
        value += data["power"] + data["defense"] + 1.5 * len(data.get("attributes", []))
    return value


def _playable_soon(state, seat, card):
    data = data_of(card)
    resources = state["players"][seat]["resources"]
    total = len(resources) + len(state["players"][seat]["dormant"])
    return data.get("cost", 0) <= total + 1


def greedy_bot(state, seat, rand):
    """Keep strong cards it can soon pay for; build two resources a turn in the elements its
    hand needs; play the most valuable card it can; attack when its columns outmatch the
    blockers; block the biggest columns; answer in battle with removal on enemy units."""
    actions = legal_actions(state, seat)
    kinds = {a["type"] for a in actions}
    step = state["step"]["k"]
    if "choose" in kinds and state["choice"]["kind"] == "assign":
        return actions[0]  # combat damage: exactly lethal to the front unit, the rest behind
    if "choose" in kinds:  # sacrifice the weakest unit; give Corrupting Blight to the first choice
        return min(actions, key=lambda a: (sum(stats(state, a["option"])) if a["option"] in state["units"] else 0,
                                           a["option"]))
    if "pick" in kinds:  # traditional cube draft: the most valuable card
        return max(actions, key=lambda a: (card_value(a["card"]), a["card"]))
    if "cut" in kinds:
        return min(actions, key=lambda a: (card_value(a["card"]), a["card"]))
    if "exchange" in kinds or step in ("draft", "cube") and "end_draft" in kinds:
        return _draft(state, seat, actions)
    if "recycle" in kinds:
        return min(actions, key=lambda a: (_keep_value(state, seat, a["card"]), a["card"]))
    if step == "resources":
        return _resources(state, seat, actions)
    if step == "attack" or (step == "block" and "declare_blocks" not in kinds):
        return _attack(state, seat, [a for a in actions if a["type"] == "declare_attack"])
    if step == "block":
        return _block(state, seat, [a for a in actions if a["type"] == "declare_blocks"])
    if step == "form":
        return actions[0]  # keep the formation it chose when sending the units
    best, best_score = None, 0.0
    for action in actions:
        score = _play_score(state, seat, action)
        if score > best_score:
            best, best_score = action, score
    if best:
        return best
    return next(a for a in actions if a["type"] in ("end_haste", "end_deployment", "pass_priority"))


def _keep_value(state, seat, card):
    return card_value(card) + (5 if _playable_soon(state, seat, card) else 0)


def _draft(state, seat, actions):
    best, gain = None, 0.5
    for action in actions:
        if action["type"] != "exchange":
            continue
        delta = _keep_value(state, seat, action["pack_card"]) - _keep_value(state, seat, action["hand_card"])
        if delta > gain:
            best, gain = action, delta
    return best or {"type": "end_draft"}


def _needed_element(state, seat):
    counts = {}
    for card in state["players"][seat]["hand"]:
        for element, need in data_of(card).get("affinity", {}).items():
            counts[element] = counts.get(element, 0) + need
    have = {}
    for resource in state["players"][seat]["resources"] + state["players"][seat]["dormant"]:
        if resource["element"]:
            have[resource["element"]] = have.get(resource["element"], 0) + 1
    if not counts:
        return "fire"
    return max(sorted(counts), key=lambda e: counts[e] - have.get(e, 0))


def _resources(state, seat, actions):
    player = state["players"][seat]
    element = _needed_element(state, seat)
    for action in actions:
        if action["type"] == "exchange_prismite" and action["element"] == element:
            return action
    activations = [a for a in actions if a["type"] == "activate_resource"]
    if activations:
        return max(activations, key=lambda a: (not a["resource"].startswith("Prismite"), a["resource"]))
    can_still = 2 - player["activations"] - len(player["dormant"])
    if can_still > 0 and len(player["hand"]) >= 3:
        creates = [a for a in actions if a["type"] == "create_resource" and a["element"] == element]
        if creates:
            return min(creates, key=lambda a: (_keep_value(state, seat, a["card"]), a["card"]))
    return {"type": "end_planning"}


def _attack(state, seat, options):
    columns, known = columns_by_unit(state), {}

    def unit_stats(uid):
        """stats(state, uid), read once for all the options (a dozen of them read each unit)."""
        if uid not in known:
            known[uid] = stats(state, uid, columns)
        return known[uid]

    def score(action):
        total = 0.0
        for formation in action["formations"]:
            blockers = [u for u, unit in state["units"].items() if unit["controller"] == formation["target"]
                        and unit["region"] == state["home"][formation["target"]]]
            block_power = sorted((unit_stats(u)[0] for u in blockers), reverse=True)
            for i, column in enumerate(formation["columns"]):
                power = sum(max(0, unit_stats(u)[0]) for u in column)
                defense = sum(unit_stats(u)[1] for u in column)
                threat = block_power[i] if i < len(block_power) else 0
                total += power - (3 if threat >= defense else 0)
        return total
    return max(options, key=lambda a: (score(a), -len(str(a))))


def _block(state, seat, options):
    with_blocks = [a for a in options if a["blocks"]]
    return with_blocks[0] if with_blocks and len(with_blocks) > 0 and state["players"][seat]["life"] < 25 \
        else (options[1] if len(options) > 1 else options[0])


def _harmful(effect):
    return effect["do"] in HARMFUL or (effect["do"] == "counters" and effect["n"] < 0) or (
        effect["do"] == "buff" and effect["p"] + effect["d"] < 0)


def _aimed_well(state, seat, effects, targets):
    """Harmful effects at enemies, the others at friends."""
    return all(_friendly(state, seat, targets[e["t"]]) != _harmful(e) for e in effects
               if "t" in e and e["t"] < len(targets))


def _play_score(state, seat, action):
    kind = action["type"]
    if kind == "play":
        data = data_of(action["card"])
        targets = action.get("targets", [])
        if not _aimed_well(state, seat, data.get("effects", []), targets):
            return 0
        if data.get("type") == "spell_token" and name_of(action["card"]) == "Spark" and not targets:
            return 0
        if data.get("type") in ("unit", "spell_unit") and _printed_defense(action["card"]) <= 0:
            return 0  # Blightspore's own "I have -2/-2" kills it at once: a virus for enemies
        if data.get("ambush") and state["step"]["k"] == "deploy" and len(units_in(
                state, state["home"][seat], seat)) >= 2:
            return 0  # kept in hand to ambush in battle
        return 1 + card_value(action["card"])
    if kind == "activate":
        return _activate_score(state, seat, action)
    if kind == "ambush":
        return _ambush_score(state, seat, action)
    if kind == "mod":
        unit = state["units"].get(action["onto"])
        harmful = data_of(action["card"]).get("timing") == "virus" and name_of(action["card"]) in HARMFUL_VIRUSES
        if unit is None or (unit["controller"] == seat) == harmful:
            return 0
        return 0.5 + card_value(action["card"]) / 4
    return 0


def _friendly(state, seat, target):
    if target.startswith("player:"):
        return not enemies(state, seat, int(target.split(":")[1]))
    if target in state["units"]:
        return not enemies(state, seat, state["units"][target]["controller"])
    for item in state["stack"]:
        if item["id"] == target:
            return not enemies(state, seat, item["controller"])
    return True


BOTS = {"random": random_bot, "greedy": greedy_bot}


# --- activated abilities and ambush -------------------------------------------------------

def _printed_defense(card):
    unit = {"card": card, "mods": []}
    return data_of(card)["defense"] + sum(part.get("static", {}).get("stats", [0, 0])[1] for part in parts_of(unit))


def _unit_value(state, uid):
    power, defense = stats(state, uid)
    return max(0, power) + max(0, defense - state["units"][uid]["damage"]) + 2 * len(state["units"][uid]["mods"])


def _stage(state):
    return state["window"]["stage"] if state["step"]["k"] == "window" and state["window"] else None


def _doomed(state, seat, uid):
    """A unit of ours about to leave us: an enemy's harmful effect on the stack targets it, or
    its own trigger on the stack sacrifices it or hands it to another player."""
    for item in state["stack"]:
        if item["source"] == uid and any(e["do"] in ("sacrifice_me", "give_control") for e in item["effects"]):
            return True
        if enemies(state, seat, item["controller"]) and any(
                _harmful(e) and e.get("t") is not None and e["t"] < len(item["targets"])
                and item["targets"][e["t"]] == uid for e in item["effects"]):
            return True
    return False


def _dies_in_combat(state, uid):
    """Blocks are declared and the column facing this front unit deals it lethal damage."""
    return (_stage(state) == "block" and formation_column(state, uid) is not None
            and not state["units"][uid]["protected"]
            and stats(state, uid)[1] - state["units"][uid]["damage"] <= _opposing_power(state, uid))


def _in_combat_ahead(state, uid):
    """In a formation whose combat has not happened yet (its damage is still to be dealt)."""
    return formation_column(state, uid) is not None and _stage(state) in ("attack", "block")


def _effects_gain(state, seat, region, effects, targets):
    gain = 0.0
    rivals = [p for p in present(state, region) if enemies(state, seat, p)]
    for effect in effects:
        do, n = effect["do"], effect.get("n", 0)
        target = targets[effect["t"]] if "t" in effect and effect["t"] < len(targets) else None
        if do == "drain":
            gain += sum(100 if state["players"][p]["life"] <= n else LIFE * n for p in rivals)
        elif do == "spell_token":  # played in battle: at a player, or to finish a damaged unit now
            x = effect.get("x", 1)
            kills = [_unit_value(state, u) for u in units_in(state, region) if state["step"]["k"] == "window"
                     and enemies(state, seat, state["units"][u]["controller"]) and not state["units"][u]["protected"]
                     and stats(state, u)[1] - state["units"][u]["damage"] <= x]
            gain += max([LIFE * x] + kills) * effect.get("count", 1)
        elif do == "damage" and target in state["units"] and not state["units"][target]["protected"]:
            left = stats(state, target)[1] - state["units"][target]["damage"]
            gain += _unit_value(state, target) if n >= left else 0
        elif do in ("counters", "counters_me"):
            gain += 2 * n
        elif do == "create_units":
            gain += 2 * effect["count"]
    return gain


def _activate_score(state, seat, action):
    """Use an ability when what it gives is worth more than what it costs: a unit sacrificed
    (nothing, if it is leaving anyway), or a mana left over at the end of deployment."""
    uid, targets = action["unit"], action.get("targets", [])
    cost, _, effects, _ = ability_of(state, uid)
    if not _aimed_well(state, seat, effects, targets):
        return 0
    region = state["units"][uid]["region"]
    gain = _effects_gain(state, seat, region, effects, targets)
    if cost == "mana_1":
        if state["step"]["k"] != "deploy":
            return 0  # mana in battle is kept for battle cards
        target = targets[0] if targets else uid
        return 0.3 + 0.01 * max(0, stats(state, target)[0]) if gain > 0 else 0
    victim = uid if cost == "sacrifice_me" else action.get("sacrifice")
    if _doomed(state, seat, victim):
        loss = 0.0
    elif _dies_in_combat(state, victim):
        loss = max(0, stats(state, victim)[0])  # only the damage it would deal before it dies
    elif _in_combat_ahead(state, victim):
        return 0  # let it deal its combat damage first
    else:
        loss = _unit_value(state, victim)
    return gain - loss if gain > loss else 0


def _ambush_score(state, seat, action):
    """Ambush to save a unit an enemy effect is about to remove (the effect then fizzles),
    or a front unit that would die in the coming combat where the ambusher would not."""
    recalled, ambusher = action["recall"], data_of(action["card"])
    if _doomed(state, seat, recalled):
        return 2 + _unit_value(state, recalled)
    if _dies_in_combat(state, recalled):
        if _opposing_power(state, recalled) < ambusher["defense"]:
            return 1 + _unit_value(state, recalled)  # the ambusher holds where the unit would fall
        return max(0, _unit_value(state, recalled) - ambusher["power"] - ambusher["defense"])
    return 0


def _opposing_power(state, uid):
    """The power of the column facing this unit's column, if it is blocked (or blocking)."""
    formation, side, index = formation_column(state, uid)
    if formation[side][index][:1] != [uid]:
        return 0  # only the front unit takes the damage first
    if side == "columns":
        if not (index < len(formation["blocked"]) and formation["blocked"][index]):
            return 0
        facing = (formation["blocks"] or [])[index] if index < len(formation["blocks"] or []) else []
    else:
        facing = formation["columns"][index] if index < len(formation["columns"]) else []
    return sum(max(0, stats(state, u)[0]) for u in facing if u in state["units"])
