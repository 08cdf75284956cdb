"""Bots for any Cybermancy seat: a random one and a greedy one. Both pick from
`legal_actions`, so they can only ever play legal moves and see only their own view."""

from .cards import CREATURES
from .rules_legal import attack_actions, legal_actions, on_turn, summon_action, summon_options
from .rules_state import opponents, team_of


def random_bot(state, seat, rand):
    return rand.choice(legal_actions(state, seat))


def _value(state, uid):
    creature = state["creatures"][uid]
    return creature["attack"] + creature["health"] - creature["damage"]


def greedy_bot(state, seat, rand):
    """Sensible heuristics: keep a cheap opening hand, summon the strongest creature it can
    (paying the cheapest listed way, so power is left for more), take lethal, trade up, chip
    at creatures (above all Frontline blockers) when the attacker survives, hit the
    Cybermancer when unblocked, advance the track that opens up more of the hand."""
    if on_turn(state, seat):
        return _turn_move(state, seat)
    actions = legal_actions(state, seat)
    kinds = {a["type"] for a in actions}
    if "choose" in kinds:
        return _choose(state, seat, actions)
    if "proceed" in kinds:  # the only move after a player left at a round's or the draft's end
        return actions[0]
    if "mulligan" in kinds:
        expensive = [c for c in state["players"][seat]["hand"] if CREATURES[c]["cpu"] + CREATURES[c]["ram"] > 5]
        return {**actions[0], "creatures": expensive}
    if "advance" in kinds:
        return {"type": "advance", "track": _track_to_advance(state, seat)}
    if "draft" in kinds:
        return max(actions, key=lambda a: (_card_value(a["card"]), a["card"]))
    return {"type": "end_turn"}  # not this seat's move: nothing is listed


def _turn_move(state, seat):
    """The greedy move from the listing of a seat on_turn, built from its parts: the chosen
    summon's payment schema is the only one worked out (the search bot's playouts ask this
    at nearly every step)."""
    options = summon_options(state, seat)
    if options:
        card, pay = max(options, key=lambda option: (_card_value(option[0]),
                                                     -len(option[1]["cpu"]) - len(option[1]["ram"])))
        return summon_action(state, seat, card, pay)
    return _best_attack(state, seat, attack_actions(state, seat)) or {"type": "end_turn"}


def _card_value(card):
    c = CREATURES[card]
    bonus = 1.5 * ("battle_ready" in c["keywords"]) + ("crawler" in c) * 2 + bool(c.get("call_to_arms")) + \
        bool(c.get("last_gasp")) + 0.5 * ("promote" in c["keywords"])
    return c["attack"] + c["health"] + bonus


def _track_to_advance(state, seat):
    """The track that lets more of the hand be summoned; on a tie RAM first, then CPU (the
    rulebook's advice for the suggested decks)."""
    player = state["players"][seat]
    track = player["track"]

    def playable(kind):
        raised = {**track, kind: track[kind] + 1}
        return sum(all(CREATURES[c][k] <= raised[k] for k in ("cpu", "ram")) for c in player["hand"])

    ram, cpu = playable("ram"), playable("cpu")
    if ram != cpu:
        return "ram" if ram > cpu else "cpu"
    return "ram" if track["ram"] <= track["cpu"] else "cpu"


def _best_attack(state, seat, attacks):
    best, best_score = None, 0.0
    for action in attacks:
        attacker = state["creatures"][action["attacker"]]
        target = action["target"]
        if target.startswith("cybermancer:"):
            health = state["players"][int(target.split(":")[1])]["health"]
            score = 1000 if attacker["attack"] >= health else attacker["attack"] * 1.2
        else:
            defender = state["creatures"][target]
            kills = attacker["attack"] >= defender["health"] - defender["damage"]
            dies = defender["attack"] >= attacker["health"] - attacker["damage"]
            score = (_value(state, target) if kills else 0) - (_value(state, action["attacker"]) if dies else 0)
            if kills and not dies:
                score += 2
            elif not kills and not dies:  # chip: damage markers stay, so the next hit finishes it
                score += 0.6 * attacker["attack"]
            if target in state["players"][defender["owner"]]["frontline"] and not dies:
                score += 1  # a blocker: clearing the Frontline opens the Main Area and the Cybermancer
        if score > best_score:
            best, best_score = action, score
    return best


def _choose(state, seat, actions):
    prompt = state["prompt"]
    mine = [o for o in prompt["options"] if _owner(state, o) is not None and team_of(state, _owner(state, o)) == team_of(state, seat)]
    theirs = [o for o in prompt["options"] if _owner(state, o) in opponents(state, seat)]
    if prompt["kind"] == "damage" and theirs:
        pick = min(theirs, key=lambda o: state["creatures"][o]["health"] - state["creatures"][o]["damage"])
    elif prompt["kind"] == "promote":
        pick = max(prompt["options"], key=lambda o: state["creatures"][o]["health"] - state["creatures"][o]["damage"])
    elif mine:
        pick = max(mine, key=lambda o: -1 if o.startswith("cybermancer:") else state["creatures"][o]["attack"])
    else:
        pick = prompt["options"][0]
    return {"type": "choose", "option": pick}


def _owner(state, option):
    if option.startswith("cybermancer:"):
        return int(option.split(":")[1])
    return state["creatures"][option]["owner"]


BOTS = {"random": random_bot, "greedy": greedy_bot}
