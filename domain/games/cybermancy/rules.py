"""Cybermancy, after rules/cybermancy.txt, in the rulebook's order: the five phases of a
round (Main, Discard, Draw, Refresh, Advance Power), summoning, attacking, and the
variants in play (Multiplayer, 4 Player Team, Draft). Set-up and the variants' options are
in rules_setup.py; the keywords and card effects in rules_keywords.py; constants and
reading the state in rules_state.py; a player leaving the match in rules_lifecycle.py; the
listing of legal actions and its cheapest payments in rules_legal.py.

State is plain JSON; `decide` writes facts through a Decision and `evolve` applies them.
Choices inside an effect (Call-to-arms and Last Gasp targets, Promote) are prompts,
answered with the `choose` action. Choices the rulebook leaves open are in README.md.
"""

from domain.kernel.decision import Decision
from domain.kernel.errors import IllegalAction

from .cards import CREATURES, POWER_VALUE
from .rules_keywords import act_choose, deaths, entry_area, run_pending
from .rules_setup import setup  # noqa: F401  (the Ruleset's setup)
from .rules_state import (DECK_SIZE, KINDS, OPENING_HAND, OPENING_POWER, QUIET_ROUNDS, creature_ids, living,
                          next_living, order_from, remaining_health, team_of, valid_targets)

# ---------------------------------------------------------------------------------------
# evolve
# ---------------------------------------------------------------------------------------

def evolve(state, fact):
    kind = fact["f"]
    players = state["players"]
    if kind == "draw":
        player = players[fact["seat"]]
        player["deck"].remove(fact["card"])
        player["hand"].append(fact["card"])
    elif kind == "to_deck":
        players[fact["seat"]]["hand"].remove(fact["card"])
        players[fact["seat"]]["deck"].append(fact["card"])
    elif kind == "deck_order":
        players[fact["seat"]]["deck"] = list(fact["order"])
    elif kind == "power":
        state[f"{fact['kind']}_deck"].remove(fact["card"])
        players[fact["seat"]][fact["kind"]].append(fact["card"])
    elif kind == "power_back":
        players[fact["seat"]][fact["kind"]].remove(fact["card"])
        state[f"{fact['kind']}_deck"].append(fact["card"])
    elif kind == "power_order":
        state[f"{fact['kind']}_deck"] = list(fact["order"])
        if fact.get("from_used"):
            state[f"{fact['kind']}_used"] = []
    elif kind == "spend":
        player = players[fact["seat"]]
        player[fact["kind"]].remove(fact["card"])
        state[f"{fact['kind']}_used"].append(fact["card"])
        player["pool"][fact["kind"]] += POWER_VALUE[fact["card"]]
    elif kind == "summon":
        player = players[fact["seat"]]
        player["hand"].remove(fact["card"])
        player[fact["area"]].append(fact["uid"])
        card = CREATURES[fact["card"]]
        for k in KINDS:
            player["pool"][k] -= card[k]
            player["summoned"][k] += card[k]
        state["creatures"][fact["uid"]] = {"card": fact["card"], "owner": fact["seat"], "attack": card["attack"],
                                           "health": card["health"], "damage": 0, "status": fact["status"],
                                           "crawler": False}
        state["next_uid"] += 1
    elif kind == "creature":
        state["creatures"][fact["uid"]].update(fact["set"])
    elif kind == "promote":
        player = players[state["creatures"][fact["uid"]]["owner"]]
        player["main"].remove(fact["uid"])
        player["frontline"].append(fact["uid"])
    elif kind == "destroyed":
        creature = state["creatures"].pop(fact["uid"])
        player = players[creature["owner"]]
        (player["frontline"] if fact["uid"] in player["frontline"] else player["main"]).remove(fact["uid"])
        player["graveyard"].append(creature["card"])
    elif kind == "health":
        players[fact["seat"]]["health"] += fact["delta"]
    elif kind == "out":
        players[fact["seat"]]["out"] = True
    elif kind == "drafted":
        state["draft_pool"].remove(fact["card"])
        players[fact["seat"]]["deck"].append(fact["card"])
    elif kind == "phase":
        state["phase"] = fact["phase"]
        state["queue"] = list(fact.get("queue", []))
    elif kind == "queue":
        state["queue"] = list(fact["queue"])
    elif kind == "turn":
        state.update(turn=fact["seat"], acted=False, attacked=False)
    elif kind == "acted":
        state.update(acted=True, passes=0, attacked=state["attacked"] or fact.get("attack", False))
        if fact.get("attack"):
            state["last_attacker"] = fact["seat"]
    elif kind == "pass":
        state["passes"] += 1
    elif kind == "passes":  # a player who left: their pass no longer counts (rules_lifecycle.py)
        state["passes"] = fact["count"]
    elif kind == "round":
        state.update(round=fact["number"], initiative=fact["initiative"], turn=fact["initiative"], passes=0,
                     quiet_rounds=fact.get("quiet", 0),
                     acted=False, attacked=False, last_attacker=None, phase="main", queue=[])
        for player in players:
            player["pool"] = {"cpu": 0, "ram": 0}
            player["summoned"] = {"cpu": 0, "ram": 0}
    elif kind == "refresh":
        for creature in state["creatures"].values():
            creature["status"] = "active"
    elif kind == "track":
        players[fact["seat"]]["track"][fact["kind"]] += 1
    elif kind == "prompt":
        state["prompt"] = fact["prompt"]
    elif kind == "pending":
        state["pending"] = list(fact["steps"])
    elif kind == "owed":
        state["owed"] = fact["owed"]
    elif kind == "over":
        state.update(over=fact["reason"], winners=fact["winners"], phase="over", prompt=None, pending=[])
    else:
        raise ValueError(f"unknown fact {kind!r}")
    return state


# ---------------------------------------------------------------------------------------
# Whose move; the end
# ---------------------------------------------------------------------------------------

def to_act(state):
    if state["over"]:
        return set()
    if state["prompt"]:
        return {state["prompt"]["seat"]}
    if state.get("owed"):  # set only after a player left the match (rules_lifecycle.py)
        return {state["owed"]["seat"]}
    if state["phase"] in ("draft", "mulligan", "last_summon", "advance"):
        return {state["queue"][0]} if state["queue"] else set()
    return {state["turn"]}


def outcome(state):
    if not state["over"]:
        return None
    return {"reason": state["over"], "winners": state["winners"],
            "health": [p["health"] for p in state["players"]], "rounds": state["round"],
            "out": [s for s in range(state["seats"]) if state["players"][s]["out"]]}


def _check_end(turn):
    """A Cybermancer at 0 is out; the game ends when one side is left (2 players: at once)."""
    st = turn.state
    for seat in living(st):
        if st["players"][seat]["health"] <= 0:
            turn.emit({"f": "out", "seat": seat})
            for uid in creature_ids(st, seat):  # an eliminated Cybermancer's creatures leave play
                turn.emit({"f": "destroyed", "uid": uid})
    sides = {team_of(st, s) for s in living(st)}
    if len(sides) <= 1 and not st["over"]:
        winners = living(st) if st["mode"] == "standard" else [s for s in range(st["seats"]) if team_of(st, s) in sides]
        turn.emit({"f": "over", "reason": "cybermancer_defeated", "winners": sorted(winners)})


# ---------------------------------------------------------------------------------------
# decide
# ---------------------------------------------------------------------------------------

class Turn(Decision):
    def __init__(self, state, rng):
        super().__init__(state, rng, evolve)


def decide(state, seat, action, rng):
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", 'an action is an object with a "type"')
    handler = ACTIONS.get(action["type"])
    if handler is None:
        raise IllegalAction("unknown_action", f"cybermancy has no action {action['type']!r}; known: {sorted(ACTIONS)}")
    turn = Turn(state, rng)
    if turn.state["over"]:
        raise IllegalAction("game_over", "the game is over")
    if seat not in to_act(turn.state):  # the rules refuse it themselves, not only Match.act
        raise IllegalAction("not_your_turn", f"seat {seat} is not to act; {sorted(to_act(turn.state))} is")
    if turn.state["prompt"] and action["type"] != "choose":
        raise IllegalAction("choice_pending", f"answer the pending {turn.state['prompt']['kind']} choice first")
    if turn.state.get("owed") and not turn.state["prompt"] and action["type"] != "proceed":
        raise IllegalAction("proceed_owed", "a player left the match: proceed with the game first")
    handler(turn, seat, action)
    return turn.facts


def _expect_phase(st, *phases):
    if st["phase"] not in phases:
        raise IllegalAction("wrong_phase", f"this action belongs to the {' or '.join(phases)} phase; "
                            f"it is the {st['phase']} phase")


def _ids(action, name):
    value = action.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(set(value)) != len(value):
        raise IllegalAction("malformed_action", f'"{name}" must be a list of distinct card ids')
    return value


# Draft Mode: "In turn order, each player selects any card ... until each has a deck of 30 cards."
def act_draft(turn, seat, action):
    st = turn.state
    _expect_phase(st, "draft")
    card = action.get("card")
    if card not in st["draft_pool"]:
        raise IllegalAction("not_available", f"{card!r} is not among the cards still available")
    if card in st["players"][seat]["deck"]:
        raise IllegalAction("one_copy_per_deck", f"your deck holds {card!r} already; at most ONE copy of any card")
    turn.emit({"f": "drafted", "seat": seat, "card": card})
    if all(len(st["players"][s]["deck"]) == DECK_SIZE for s in living(st)):
        end_of_draft(turn)
    else:  # players who left the match pick no more
        turn.emit({"f": "queue", "queue": [next_living(st, seat)]})


def end_of_draft(turn):
    """Every deck is built: shuffle them, deal, and the mulligans follow in turn order."""
    st = turn.state
    for s in living(st):
        turn.emit({"f": "deck_order", "seat": s, "order": turn.rng.shuffle(st["players"][s]["deck"])})
    _deal_with_facts(turn)
    turn.emit({"f": "phase", "phase": "mulligan", "queue": order_from(st, st["first"])})


def _deal_with_facts(turn):
    st = turn.state
    for seat in living(st):
        for _ in range(OPENING_HAND):
            _draw_creature(turn, seat)
        for kind in KINDS:
            for _ in range(OPENING_POWER):
                _draw_power(turn, seat, kind)


def _draw_creature(turn, seat):
    deck = turn.state["players"][seat]["deck"]
    if deck:
        turn.emit({"f": "draw", "seat": seat, "card": deck[-1]})


def _draw_power(turn, seat, kind):
    """A power deck that runs out is rebuilt by shuffling its used cards."""
    st = turn.state
    if not st[f"{kind}_deck"] and st[f"{kind}_used"]:
        turn.emit({"f": "power_order", "kind": kind, "order": turn.rng.shuffle(st[f"{kind}_used"]), "from_used": True})
    if st[f"{kind}_deck"]:
        turn.emit({"f": "power", "seat": seat, "kind": kind, "card": st[f"{kind}_deck"][-1]})


# Set-up: "each player may discard and redraw as many cards as desired (once only); if a player
# chose to redraw, shuffle the discarded cards back into the Summoning Deck", and once per power deck.
def act_mulligan(turn, seat, action):
    st = turn.state
    _expect_phase(st, "mulligan")
    player = st["players"][seat]
    creatures, cpu, ram = _ids(action, "creatures"), _ids(action, "cpu"), _ids(action, "ram")
    for name, chosen, held in (("creatures", creatures, player["hand"]), ("cpu", cpu, player["cpu"]),
                               ("ram", ram, player["ram"])):
        missing = [c for c in chosen if c not in held]
        if missing:
            raise IllegalAction("not_yours", f"{missing[0]!r} is not among your {name}")
    # Discard, redraw, and only then shuffle the discarded cards back: they cannot come straight back.
    if creatures:
        for _ in creatures:
            _draw_creature(turn, seat)
        for card in creatures:
            turn.emit({"f": "to_deck", "seat": seat, "card": card})
        turn.emit({"f": "deck_order", "seat": seat, "order": turn.rng.shuffle(player["deck"])})
    for kind, chosen in (("cpu", cpu), ("ram", ram)):
        if chosen:
            for _ in chosen:
                _draw_power(turn, seat, kind)
            for card in chosen:
                turn.emit({"f": "power_back", "seat": seat, "kind": kind, "card": card})
            turn.emit({"f": "power_order", "kind": kind, "order": turn.rng.shuffle(st[f"{kind}_deck"])})
    queue = st["queue"][1:]
    if queue:
        turn.emit({"f": "queue", "queue": queue})
    else:
        turn.emit({"f": "round", "number": 1, "initiative": order_from(st, st["first"])[0]})


# SUMMONING
def _track_refusal(player, creature):
    """Why the power tracks forbid this creature now, whatever is paid: its cost, alone or with
    what was summoned this round, is over a track."""
    for kind in KINDS:
        if creature[kind] > player["track"][kind]:
            return "over_power_track", (f"{creature['name']} costs {creature[kind]} {kind.upper()}; your "
                                        f"{kind.upper()} track is at {player['track'][kind]}")
        if player["summoned"][kind] + creature[kind] > player["track"][kind]:
            return "round_power_spent", (f"creatures summoned this round may not cost more than your "
                                         f"{kind.upper()} track ({player['track'][kind]}) together")
    return None


def summon_refusal(st, seat, card, pay_cpu, pay_ram):
    player = st["players"][seat]
    if card not in player["hand"]:
        return "card_not_in_hand", f"{card!r} is not in your hand"
    creature = CREATURES[card]
    refusal = _track_refusal(player, creature)
    if refusal:
        return refusal
    for kind, pay in (("cpu", pay_cpu), ("ram", pay_ram)):
        missing = [c for c in pay if c not in player[kind]]
        if missing:
            return "not_yours", f"{missing[0]!r} is not one of your face-up {kind.upper()} cards"
        if player["pool"][kind] + sum(POWER_VALUE[c] for c in pay) < creature[kind]:
            return "insufficient_power", (f"{creature['name']} needs {creature[kind]} {kind.upper()}; you have "
                                          f"{player['pool'][kind]} paid plus {sum(POWER_VALUE[c] for c in pay)} offered")
    return None


def act_summon(turn, seat, action):
    st = turn.state
    _expect_phase(st, "main", "last_summon")
    card = action.get("card")
    pay_cpu, pay_ram = _ids(action, "cpu"), _ids(action, "ram")
    reason = summon_refusal(st, seat, card, pay_cpu, pay_ram)
    if reason:
        raise IllegalAction(*reason)
    for kind, pay in (("cpu", pay_cpu), ("ram", pay_ram)):
        for power_card in pay:
            turn.emit({"f": "spend", "seat": seat, "kind": kind, "card": power_card})
    creature = CREATURES[card]
    uid = f"c{st['next_uid']}"
    keywords = creature["keywords"]
    turn.emit({"f": "summon", "seat": seat, "card": card, "uid": uid,
               "area": entry_area(keywords),
               "status": "active" if "battle_ready" in keywords else "buffered"})
    if st["phase"] == "main":
        turn.emit({"f": "acted", "seat": seat})
    steps = []
    if "promote" in keywords:
        steps.append({"op": "promote", "seat": seat, "source": uid})
    if creature.get("call_to_arms"):
        effect = creature["call_to_arms"]
        steps.append({"op": "assign", "seat": seat, "source": uid, "kind": effect["kind"], "points": effect["amount"]})
    run_pending(turn, steps)


# ATTACKING
def act_attack(turn, seat, action):
    st = turn.state
    _expect_phase(st, "main")
    if st["attacked"]:
        raise IllegalAction("one_attack_per_turn", "you have attacked with ONE creature this turn already")
    attacker_id, target = action.get("attacker"), action.get("target")
    if attacker_id not in creature_ids(st, seat):
        raise IllegalAction("not_your_creature", f"{attacker_id!r} is not one of your creatures in play")
    attacker = st["creatures"][attacker_id]
    if attacker["status"] != "active":
        raise IllegalAction("not_active", f"a {attacker['status']} creature cannot attack this round")
    if target not in valid_targets(st, seat):
        raise IllegalAction("blocked_or_invalid_target", "target an enemy creature or Cybermancer; while an enemy "
                            "has creatures in its Frontline, only those can be attacked")
    turn.emit({"f": "acted", "seat": seat, "attack": True})
    if target.startswith("cybermancer:"):
        enemy = int(target.split(":")[1])
        turn.emit({"f": "health", "seat": enemy, "delta": -attacker["attack"]})
        turn.emit({"f": "creature", "uid": attacker_id, "set": {"status": "exhausted"}})
        _check_end(turn)
        return
    defender = st["creatures"][target]
    # Both creatures do damage simultaneously.
    turn.emit({"f": "creature", "uid": target, "set": {"damage": defender["damage"] + attacker["attack"]}})
    turn.emit({"f": "creature", "uid": attacker_id, "set": {"damage": attacker["damage"] + defender["attack"]}})
    dead = [uid for uid in (attacker_id, target) if remaining_health(st["creatures"][uid]) <= 0]
    if attacker_id not in dead:
        turn.emit({"f": "creature", "uid": attacker_id, "set": {"status": "exhausted"}})
    run_pending(turn, deaths(turn, dead))


def act_end_turn(turn, seat, action):
    """Ends a turn; a turn with neither summon nor attack is a pass. When every player in
    a row has passed, attacks are over and each gets one last chance to summon."""
    st = turn.state
    if st["phase"] == "last_summon":
        _next_in_queue(turn)
        return
    _expect_phase(st, "main")
    if not st["acted"]:
        turn.emit({"f": "pass"})
        if st["passes"] >= len(living(st)):
            turn.emit({"f": "phase", "phase": "last_summon", "queue": order_from(st, st["initiative"])})
            return
    turn.emit({"f": "turn", "seat": next_living(st, seat)})


def _next_in_queue(turn):
    st = turn.state
    queue = st["queue"][1:]
    if queue:
        turn.emit({"f": "queue", "queue": queue})
        return
    if st["phase"] == "last_summon":
        end_of_round(turn)
    elif st["phase"] == "advance":
        new_round(turn)


def end_of_round(turn):
    """Discard (destroyed creatures are gone already; used power is set aside), Draw, Refresh,
    then Advance Power, one player at a time."""
    st = turn.state
    for seat in living(st):
        _draw_creature(turn, seat)
        for kind in KINDS:
            _draw_power(turn, seat, kind)
    turn.emit({"f": "refresh"})
    turn.emit({"f": "phase", "phase": "advance", "queue": order_from(st, st["initiative"])})


def new_round(turn):
    """Initiative goes to the player left of the last attacker (2 players: who did NOT attack last).
    Designed (the rulebook is silent): the game also ends when nobody can fight any more, or after
    QUIET_ROUNDS rounds in a row without an attack. Only a Cybermancer at 0 loses, so either
    end is a draw: no winners."""
    st = turn.state
    quiet = 0 if st["last_attacker"] is not None else st["quiet_rounds"] + 1
    armed = any(creature_ids(st, s) or st["players"][s]["hand"] or st["players"][s]["deck"] for s in living(st))
    if not armed or quiet >= QUIET_ROUNDS:
        turn.emit({"f": "over", "reason": "stalemate" if armed else "no_creatures_left", "winners": []})
        return
    basis = st["last_attacker"] if st["last_attacker"] is not None else st["initiative"]
    turn.emit({"f": "round", "number": st["round"] + 1, "initiative": next_living(st, basis), "quiet": quiet})


def act_advance(turn, seat, action):
    st = turn.state
    _expect_phase(st, "advance")
    kind = action.get("track")
    if kind not in KINDS:
        raise IllegalAction("unknown_track", 'advance "cpu" or "ram"')
    turn.emit({"f": "track", "seat": seat, "kind": kind})
    _next_in_queue(turn)


def act_proceed(turn, seat, action):
    """After a player left the match, the step the game owed (rules_lifecycle.py): the draft's
    end or the round's end. Both draw at random, which a resignation may not."""
    owed = turn.state.get("owed")
    if not owed:
        raise IllegalAction("nothing_owed", "proceed only follows a player leaving the match")
    turn.emit({"f": "owed", "owed": None})
    (end_of_draft if owed["step"] == "end_of_draft" else end_of_round)(turn)


ACTIONS = {
    "draft": act_draft,
    "mulligan": act_mulligan,
    "summon": act_summon,
    "attack": act_attack,
    "end_turn": act_end_turn,
    "advance": act_advance,
    "choose": act_choose,
    "proceed": act_proceed,
}
