"""The code issue 32's speed-ups replaced, kept verbatim so that tests can hold the new code to
choosing exactly what the old one chose (tests/kernel/test_search_speedups.py). Each function
is the one of commit ceab14a; the helpers they call that did not change come from the game."""

import random

from domain.games.cyberspace.board import firewalls_on, network_of, node_of, sides_of
from domain.games.cyberspace.bots import LINK, PRESENCE, REACH, _puzzle_value, _server_in_reach
from domain.games.cyberspace.scoring import network_points, network_table
from domain.games.herocard import engine
from domain.games.herocard.bots import (CONTESTED, WIN_SEQUENCE, _after, _apply, _dead_cards, _dead_hand,
                                        _preparation, _reserve, visible_copy)
from domain.games.herocard.cards import CARDS, HEROES
from domain.kernel.canonical import canonical_json


# domain/kernel/search.py

def refill_unseen(zones: list[list], rand, known=()) -> None:
    """Deal the cards of `zones` (lists in a copied state, each hidden from the searching seat)
    back into them at random, each zone keeping its size: what a determinization does to the
    cards a seat cannot see. Cards in `known` (say, the options of the seat's own prompt) stay
    where they are. The pool is sorted first, so the result depends on the multiset of unseen
    cards and the zones' sizes only, never on which hidden card was where."""
    known = set(map(canonical_json, known))
    pool = sorted((card for zone in zones for card in zone if canonical_json(card) not in known), key=canonical_json)
    rand.shuffle(pool)
    for zone in zones:
        zone[:] = [card if canonical_json(card) in known else pool.pop() for card in zone]


# domain/games/herocard/bots.py

def greedy_bot(state, seat, rand):
    duel = state["duel"]
    listed = engine.legal_actions(duel, seat)
    actions = [a for a in listed if a["type"] not in ("refresh", "prefer")]
    if duel["turn"]["phase"] == "draw" and not duel["pending"]:
        return max(actions, key=lambda a: a.get("count", -1))
    if duel["turn"]["phase"] == "discard" and not duel["pending"]:
        return {"type": "discard", "cards": _dead_cards(duel, seat)}
    seen = visible_copy(duel, seat, random.Random(rand.random()))
    best, best_score, passing = None, None, None
    for action in actions:
        score = _plan(seen, seat, action) + rand.random() * 0.01
        if action["type"] == "pass":
            passing = score
        if best_score is None or score > best_score:
            best, best_score = action, score
    if {"type": "refresh"} in listed and best["type"] == "pass" and _dead_hand(duel, seat) and best_score - passing < 1:
        return {"type": "refresh"}
    return best


def _score(duel, seat, action):
    return evaluate(_after(duel, seat, action), seat)


def _plan(duel, seat, action):
    """A card that only prepares an attack (One More Round's extra Base Attack, Forfeiture's
    discard, a Tissue Sample's draw), played on your own turn with no Attack Sequence open, is
    worth the best move it leads to once the others let it pass: judged alone it never pays."""
    score = _score(duel, seat, action)
    if not _preparation(duel, seat, action):
        return score
    after = _after(duel, seat, action)
    for _ in range(duel["seats"]):
        if after["over"] or after["turn"]["phase"] != "action" or after["sequence"] or after["pending"] \
                or after["priority"] == seat:
            break
        after = _apply(after, after["priority"], {"type": "pass"})
    if after["over"] or after["priority"] != seat or after["turn"]["phase"] != "action" or after["pending"]:
        return score
    for follow in engine.legal_actions(after, seat):
        if follow["type"] in ("play", "reveal") and not _preparation(after, seat, follow):
            score = max(score, _score(after, seat, follow))
    return score


def evaluate(duel, seat):
    mine = engine.side_seats(duel, seat)
    players = duel["players"]
    if duel["over"]:
        return 10_000 if seat in duel["winners"] else -10_000
    score = 100 * (sum(players[s]["vp"] for s in mine) - sum(p["vp"] for i, p in enumerate(players) if i not in mine))
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
    score += sum(engine.free_points(me, a) for a in me["scores"]) * 1.0
    score += len(me["hand"]) * 2
    score += _secrets(duel, seat)
    score -= me["skip_turns"] * 40
    for other in engine.opponents(duel, seat):
        score -= len(players[other]["hand"]) * 3
        score += len(players[other]["twisted"]) * 6
    score += 3 * duel["turn"]["allowance"] if duel["turn"]["active"] == seat else 0
    for d in duel["duplicates"]:  # a duplicate aimed at its own side scores nothing
        if d["target"] not in engine.side_seats(duel, d["owner"]):
            score += 10 if d["owner"] in mine else -10
    return score


def _secrets(duel, seat):
    """Two Secret Cards deployed on their own Attribute are a plan worth its points; more only
    lock points away; one on another Attribute is a trap. A face-down Attack Mod is a plan only
    while one of the Hero's Base Attacks still fits the free points beside it: Zero-Day
    Exploits filling the Mind stack that Cipher Lance needs lock the Cryptomancer out of
    attacking (the stall of issue 29), so they are worth clearing."""
    me = duel["players"][seat]
    free = {a: engine.free_points(me, a) for a in me["scores"]}
    can_attack = any(CARDS[c]["kind"] == "base_attack" and CARDS[c]["cost"] <= free[CARDS[c]["attribute"]]
                     for c in HEROES[me["hero"]]["deck"]) if me["hero"] in HEROES else True
    score, kept = 0, 0
    for attribute, stack in me["stacks"].items():
        for entry in stack:
            if entry["face"] == "down":
                card = CARDS[entry["card"]]
                if card["attribute"] != attribute:
                    score -= entry["cost"] + 5
                elif kept < 2 and (card["kind"] != "attack_mod" or can_attack):
                    score += entry["cost"] + 2
                    kept += 1
    return score



# domain/games/cyberspace/bots.py

def _value(state, seat):
    """What the bot wants: the points it would tally now, Avatars on servers, Firewalls
    guarding those servers; a partner's points count as its own; opponents' count against.
    Before the final round also what its pieces promise: Avatars on the board, one on a
    client that can log in to an empty server, its Links where its Avatars are."""
    if state["puzzle"]:
        return _puzzle_value(state)
    own = {seat, (seat + 2) % 4} if state["teams"] else {seat}
    value, table = 0.0, network_table(state)
    board, later = state["board"], not state["final_round"]
    for s, player in enumerate(state["players"]):
        points = network_points(state, s, table)
        sign = 1 if s in own else -0.5
        value += sign * points
        if s not in own:
            continue
        homes = set()
        for cell in player["avatars"]:
            if cell is None:
                continue
            on_server = node_of(board, cell) == "server"
            value += 0.3 + 0.8 * on_server
            if on_server:
                value += 0.2 * sum(bool(firewalls_on(state, cell, side)) for side in sides_of(board, cell))
            if later:
                value += PRESENCE + REACH * (not on_server and _server_in_reach(state, cell))
                homes.update(network_of(board, cell))
        if later and s == seat:
            value += LINK * min(2, sum(1 for port in player["links"] if port in homes))
    return value
