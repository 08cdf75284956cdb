"""Bots for any HeroCard seat: a random one and a greedy one. Both choose among
`legal_actions`, so they only ever make legal moves; the greedy bot scores each action by the
position it leads to, judged from what its seat may see (its own hand, public counts): the
trial moves run on `visible_copy`, where hidden hands and decks are a shuffle of the unseen
cards, so hidden information never steers the choice."""

import random

from domain.kernel.decision import advance
from domain.kernel.errors import IllegalAction

from . import engine
from .cards import CARDS, HEROES
from .trial import trial_copy as _trial_copy

WIN_SEQUENCE = 30  # being ahead in an Attack Sequence that can still score (or be stopped) ...
CONTESTED = 10  # ... but only this much while the side behind holds the cards to turn it round
PREPARATIONS = ("special_attack", "action")  # played alone before an attack (One More Round, Forfeiture)


def random_bot(state, seat, rand):
    return rand.choice(engine.legal_actions(state["duel"], seat))


def greedy_bot(state, seat, rand):
    duel = state["duel"]
    if duel["turn"]["phase"] in ("draw", "discard") and not duel["pending"]:
        if duel["turn"]["phase"] == "draw":
            actions = [a for a in engine.legal_actions(duel, seat) if a["type"] not in ("refresh", "prefer")]
            return max(actions, key=lambda a: a.get("count", -1))
        return {"type": "discard", "cards": _dead_cards(duel, seat)}
    seen = visible_copy(duel, seat, random.Random(rand.random()))
    # Each candidate play is decided once, on `seen`: that trial both lists it (a play is legal
    # on the seat's view as on the duel) and gives the position it leads to.
    trials = {}
    listed = engine.legal_actions(duel, seat, accept=lambda action: _tried(seen, seat, action, trials))
    actions = [a for a in listed if a["type"] not in ("refresh", "prefer")]
    best, best_score, passing = None, None, None
    for action in actions:
        score = _plan(seen, seat, action, trials.get(id(action))) + rand.random() * 0.01
        if action["type"] == "pass":
            passing = score
        if best_score is None or score > best_score:
            best, best_score = action, score
    if {"type": "refresh"} in listed and best["type"] == "pass" and _dead_hand(duel, seat) and best_score - passing < 1:
        return {"type": "refresh"}
    return best


def _live_attack(duel, seat, card, free=None):
    """Could this Base Attack of `seat`'s hurt anyone? Its cost within the Attribute's score
    (or, given `free`, its free points now), the Attribute untwisted; a variable value (Weakness
    Analysis) only while some opponent has cards in play (face up) to count."""
    player = duel["players"][seat]
    rule = CARDS[card]
    budget = player["scores"] if free is None else free
    if rule["cost"] > budget[rule["attribute"]] or any(t["attribute"] == rule["attribute"] for t in player["twisted"]):
        return False
    if rule.get("effect", {}).get("variable"):
        return any(e["face"] == "up" for o in engine.opponents(duel, seat)
                   for stack in duel["players"][o]["stacks"].values() for e in stack)
    return True


def _dead_cards(duel, seat):
    """Without a Base Attack in hand that could hurt anyone, Attack Mods cannot stand alone and
    a hand of blocks and tricks draws nothing new: keep the three strongest blocks, discard the
    rest to dig (a Weakness Analysis against nothing in play is no attack)."""
    hand = duel["players"][seat]["hand"]
    if any(CARDS[c]["kind"] == "base_attack" and _live_attack(duel, seat, c) for c in hand):
        return []
    rest = sorted(hand, key=lambda c: (CARDS[c]["kind"] not in ("base_block", "block_mod"), -CARDS[c].get("value", 0), c))
    return sorted(rest[3:])


def _dead_hand(duel, seat):
    """A hand worth trading whole for as many new cards (refresh foregoes the Action Phase):
    at least four cards, no Base Attack that fits its free points now, and (the caller checks)
    no play better than a pass."""
    player = duel["players"][seat]
    free = {a: engine.free_points(player, a) for a in player["scores"]}
    return len(player["hand"]) >= 4 and not any(
        CARDS[c]["kind"] == "base_attack" and _live_attack(duel, seat, c, free) for c in player["hand"])


def visible_copy(duel, seat, shuffler):
    """The duel as `seat` may know it: every other seat's hand, deck and face-down Secret
    Cards, and this seat's own deck, become a shuffle of the cards this seat cannot see there
    (per player, so a Hero's hand holds that Hero's cards; hand sizes and the face-down cards'
    places, costs and turns kept). What the seat cannot see thus never steers its choice: the
    result depends only on its own view and `shuffler`."""
    copy = _trial_copy(duel)  # its own lists, which this and the trials change
    for other, player in enumerate(copy["players"]):
        if other == seat:
            unseen = sorted(player["deck"])
            shuffler.shuffle(unseen)
            player["deck"] = unseen
            continue
        secrets = []
        for stack in player["stacks"].values():
            for index, entry in enumerate(stack):
                if entry["face"] == "down":  # an entry of its own to re-deal (trial_copy shares them with `duel`)
                    stack[index] = entry = dict(entry)
                    secrets.append(entry)
        unseen = sorted(player["hand"] + player["deck"] + [e["card"] for e in secrets])
        shuffler.shuffle(unseen)
        hand, rest = len(player["hand"]), len(player["hand"]) + len(secrets)
        for entry, card in zip(secrets, unseen[hand:rest]):
            entry["card"] = card
        player["hand"], player["deck"] = unseen[:hand], unseen[rest:]
    return copy


class _FirstOrder:
    """Trial moves: a reshuffle's order is unknown to the bot, so it keeps the cards as they lie."""

    @staticmethod
    def shuffle(items):
        return list(items)


def _tried(duel, seat, action, trials) -> bool:
    """Whether `action` is legal on `duel`; if so the position it leads to goes to `trials`
    (by the action's id), to be weighed once."""
    try:
        engine.precheck(duel, seat, action)  # most refusals come before any fact: no copy for them
        trials[id(action)] = _apply(duel, seat, action)
    except IllegalAction:
        return False
    return True


def _after(duel, seat, action, tried=None):
    """The trial position after `action` (`tried`: that position, when `_tried` has reached it
    already); a forced discard it makes another seat choose is settled by that seat's own
    choice (else the effect would look like nothing at all)."""
    after = _apply(duel, seat, action) if tried is None else tried
    while after["pending"] and after["pending"]["seat"] != seat and not after["over"]:
        chooser = after["pending"]["seat"]
        options = engine.legal_actions(after, chooser)
        choice = max(options, key=lambda a: evaluate(_apply(after, chooser, a), chooser))
        after = _apply(after, chooser, choice)
    return after


def _apply(duel, seat, action):
    after, _ = advance(engine, _trial_copy(duel), seat, action, _FirstOrder())
    return after


def _plan(duel, seat, action, tried=None):
    """A card that only prepares an attack (One More Round's extra Base Attack, Forfeiture's
    discard, a Tissue Sample's draw), played on your own turn with no Attack Sequence open, is
    worth the best move it leads to once the others let it pass: judged alone it never pays."""
    after = _after(duel, seat, action, tried)
    score = evaluate(after, seat)
    if not _preparation(duel, seat, action):
        return score
    for _ in range(duel["seats"]):
        if after["over"] or after["turn"]["phase"] != "action" or after["sequence"] or after["pending"] \
                or after["priority"] == seat:
            break
        after = _apply(after, after["priority"], {"type": "pass"})
    if after["over"] or after["priority"] != seat or after["turn"]["phase"] != "action" or after["pending"]:
        return score
    trials = {}  # each follow-up play decided once: to list it and to weigh it
    for follow in engine.legal_actions(after, seat, accept=lambda play: _tried(after, seat, play, trials)):
        if follow["type"] in ("play", "reveal") and not _preparation(after, seat, follow):
            score = max(score, evaluate(_after(after, seat, follow, trials.get(id(follow))), seat))
    return score


def _preparation(duel, seat, action):
    if duel["sequence"] or duel["turn"]["active"] != seat or duel["turn"]["phase"] != "action":
        return False
    if action["type"] == "play" and len(action["cards"]) == 1:
        card = action["cards"][0]
    elif action["type"] == "reveal":
        card = next((e["card"] for stack in duel["players"][seat]["stacks"].values() for e in stack
                     if e["uid"] == action["uid"]), None)
    else:
        return False
    return card is not None and CARDS[card]["kind"] in PREPARATIONS


def evaluate(duel, seat):
    players = duel["players"]
    if duel["over"]:
        return 10_000 if seat in duel["winners"] else -10_000
    mine = engine.side_seats(duel, seat) if duel["config"]["teams"] else (seat,)
    # Every term is a whole number, so one sum in any order is the same float at the end.
    score = 0
    for i, p in enumerate(players):
        if i in mine:
            score += 100 * p["vp"]
        else:  # engine.opponents
            score += -100 * p["vp"] - len(p["hand"]) * 3 + len(p["twisted"]) * 6
    sequence = duel["sequence"]
    if sequence and (seat in sequence["attack"] or seat in sequence["block"]):
        attack, block = engine.attack_values(duel)
        can_score = (players[sequence["owner"]]["vp_turn"] != duel["turn"]["number"]
                     and sequence["target"] not in engine.side_seats(duel, sequence["owner"]))
        ahead = (attack > block) == (seat in sequence["attack"])
        if can_score:
            behind = "block" if attack > block else "attack"
            margin = attack - block if attack > block else block - attack + 1
            swing = CONTESTED if _reserve(duel, sequence[behind], behind, seat) >= margin else WIN_SEQUENCE
            score += swing if ahead else -swing
    me = players[seat]
    stacks = me["stacks"]
    free = {}  # engine.free_points
    for attribute, points in me["scores"].items():
        stack = stacks[attribute]
        if stack:
            for entry in stack:
                points -= entry["cost"]
        free[attribute] = points
    score += sum(free.values()) + len(me["hand"]) * 2 + _secrets(duel, seat, free) - me["skip_turns"] * 40
    if duel["turn"]["active"] == seat:
        score += 3 * duel["turn"]["allowance"]
    for d in duel["duplicates"]:  # a duplicate aimed at its own side scores nothing
        if d["target"] not in engine.side_seats(duel, d["owner"]):
            score += 10 if d["owner"] in mine else -10
    return score * 1.0


def _reserve(duel, seats, side, judge):
    """How much `seats` could still add to their side of the open Attack Sequence from their
    hands (and, for the judging seat itself, its own playable face-down Secret Cards), within
    their free points: mods only on a base of that side, untwisted Attributes. Another seat's
    hand is the judge's guess (`visible_copy`); its face-down cards are unknown and not counted."""
    played = duel["sequence"]["played"]
    total = 0
    for s in seats:
        player = duel["players"][s]
        twisted = {t["attribute"] for t in player["twisted"]}
        kinds = ("base_attack", "attack_mod") if side == "attack" else ("base_block", "block_mod")
        cards = [c for c in player["hand"] if CARDS[c]["kind"] in kinds[1:] or (side == "block" and CARDS[c]["kind"] == kinds[0])]
        cards = [c for c in cards if not CARDS[c].get("secret") and CARDS[c]["attribute"] not in twisted]
        free = {a: engine.free_points(player, a) for a in player["scores"]}
        has_base = any(e["kind"] == kinds[0] for e in played)
        gained = 0
        for card in sorted(cards, key=lambda c: (CARDS[c]["kind"] != kinds[0], -CARDS[c]["value"])):
            if CARDS[card]["kind"] == kinds[1] and not has_base:
                continue
            if CARDS[card]["cost"] <= free[CARDS[card]["attribute"]]:
                free[CARDS[card]["attribute"]] -= CARDS[card]["cost"]
                gained += CARDS[card]["value"]
                has_base = has_base or CARDS[card]["kind"] == kinds[0]
        if s == judge:
            for attribute, stack in player["stacks"].items():
                for e in stack:
                    card = CARDS[e["card"]]
                    if (e["face"] == "down" and card["kind"] in kinds and card["attribute"] == attribute
                            and attribute not in twisted and e["turn"] < duel["turn"]["number"]
                            and (card["kind"] == kinds[0] or has_base)):
                        gained += card["value"]
        total += gained
    return total


def _secrets(duel, seat, free):
    """Two Secret Cards deployed on their own Attribute are a plan worth its points; more only
    lock points away; one on another Attribute is a trap. A face-down Attack Mod is a plan only
    while one of the Hero's Base Attacks still fits the free points beside it: Zero-Day
    Exploits filling the Mind stack that Cipher Lance needs lock the Cryptomancer out of
    attacking (the stall of issue 29), so they are worth clearing."""
    me = duel["players"][seat]  # `free`: its free points by Attribute
    score, kept = 0, 0
    for attribute, stack in me["stacks"].items():
        for entry in stack:
            if entry["face"] == "down":
                card = CARDS[entry["card"]]
                if card["attribute"] != attribute:
                    score -= entry["cost"] + 5
                elif kept < 2 and (card["kind"] != "attack_mod" or _can_attack(me["hero"], free)):
                    score += entry["cost"] + 2
                    kept += 1
    return score


def _can_attack(hero, free):
    """Whether one of the Hero's Base Attacks fits the free points (True for a Hero unknown here)."""
    costs = _BASE_ATTACK_COSTS.get(hero)
    return costs is None or any(cost <= free[attribute] for attribute, cost in costs)


# (Attribute, cost) of each Base Attack in a Hero's deck: evaluate asks for them at every trial move.
_BASE_ATTACK_COSTS = {hero: [(CARDS[c]["attribute"], CARDS[c]["cost"]) for c in HEROES[hero]["deck"]
                             if CARDS[c]["kind"] == "base_attack"] for hero in HEROES}

BOTS = {"random": random_bot, "greedy": greedy_bot}
