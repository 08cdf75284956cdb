"""Bots for any Algomancy seat: a random one and a greedy one. Both pick from
`legal_actions`, so they only ever play legal moves."""

from .cards import data_of, name_of
from .rules import legal_actions
from .state import enemies, stats

HARMFUL = {"damage", "delete", "recall", "negate"}


def random_bot(state, seat, rand):
    return rand.choice(legal_actions(state, seat))


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
    def score(action):
        total = 0.0
        for formation in action["formations"]:
            blockers = [u for u, unit in state["units"].items() if unit["controller"] == formation["target"]
                        and unit["region"] == state["home"][formation["target"]]]
            block_power = sorted((stats(state, u)[0] for u in blockers), reverse=True)
            for i, column in enumerate(formation["columns"]):
                power = sum(max(0, stats(state, u)[0]) for u in column)
                defense = sum(stats(state, u)[1] for u in column)
                threat = block_power[i] if i < len(block_power) else 0
                total += power - (3 if threat >= defense else 0)
        return total
    return max(options, key=lambda a: (score(a), -len(str(a))))


def _block(state, seat, options):
    with_blocks = [a for a in options if a["blocks"]]
    return with_blocks[0] if with_blocks and len(with_blocks) > 0 and state["players"][seat]["life"] < 25 \
        else (options[1] if len(options) > 1 else options[0])


def _play_score(state, seat, action):
    kind = action["type"]
    if kind == "play":
        data = data_of(action["card"])
        targets = action.get("targets", [])
        for effect in data.get("effects", []):
            if "t" in effect and effect["t"] < len(targets):
                harmful = effect["do"] in HARMFUL or (effect["do"] == "counters" and effect["n"] < 0)
                if _friendly(state, seat, targets[effect["t"]]) == harmful:
                    return 0
        if data.get("type") == "spell_token" and name_of(action["card"]) == "Spark" and not targets:
            return 0
        return 1 + card_value(action["card"])
    if kind == "mod":
        unit = state["units"].get(action["onto"])
        harmful = data_of(action["card"]).get("timing") == "virus" and name_of(action["card"]) in (
            "Smouldering Inferno", "Blightspore", "Pathogenic Enclave")
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
