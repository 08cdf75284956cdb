"""Bots for any Cyberspace seat: a random one and a greedy one. Both pick from
`legal_actions`, so they only ever play legal moves, and see only what the view shows."""

import random

from domain.games.herocard import engine as hc
from domain.games.herocard.bots import visible_copy
from domain.games.herocard.cards import CARDS
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream

from .board import firewalls_on, node_of, sides_of
from .rules import legal_actions, lookahead
from .scoring import network_points, network_table, puzzle_score

STRONG_HACK = 7  # attack value from which the greedy bot hacks a rival off a server too
SIMULATED = RandomStream(b"cyberspace greedy bot", "lookahead", 0)  # only for the bot's own what-ifs


def random_bot(state, seat, rand):
    """A random kind of action (probe, login, attack, end turn...), then a random one of it,
    so the many tile placements do not crowd out everything else."""
    actions = legal_actions(state, seat)
    kinds = sorted({a["type"] for a in actions})
    kind = rand.choice(kinds)
    return rand.choice([a for a in actions if a["type"] == kind])


def _value(state, seat):
    """What the bot wants: the points it would tally now, Avatars on servers, Firewalls
    guarding those servers; a partner's points count as its own; opponents' count against."""
    if state["puzzle"]:
        return puzzle_score(state)["score"]
    own = {seat, (seat + 2) % 4} if state["teams"] else {seat}
    value, table = 0.0, network_table(state)
    for s, player in enumerate(state["players"]):
        points = network_points(state, s, table)
        sign = 1 if s in own else -0.5
        value += sign * points
        if s in own:
            for cell in player["avatars"]:
                if cell is None:
                    continue
                on_server = node_of(state["board"], cell) == "server"
                value += 0.3 + 0.8 * on_server
                if on_server:
                    value += 0.2 * sum(bool(firewalls_on(state, cell, side)) for side in sides_of(state["board"], cell))
    return value


def _after(state, seat, action):
    return lookahead(state, seat, action, SIMULATED)


def _candidates(state, seat, actions, rand):
    """Every action but the few the heuristics ignore (Links; Firewalls away from its
    servers); long lists of placements are sampled."""
    mine = {c for c in state["players"][seat]["avatars"] if c is not None}
    picked = []
    for action in actions:
        kind = action["type"]
        if kind in ("link", "reboot", "end_turn", "end_session", "done", "draw", "attack"):
            continue
        if kind == "firewall" and (action["from"] is not None or f"{action['x']},{action['y']}" not in mine):
            continue
        picked.append(action)
    if len(picked) > 60:
        picked = rand.sample(picked, 60)
    return picked


def greedy_bot(state, seat, rand):
    """Takes the program that most raises its value (an Avatar to an empty server, a tile
    that grows or closes its network, a Firewall by its server), hacks an adjacent rival
    sitting on a server, probes while nothing better is left, and in its final turn keeps
    programs unexecuted unless one gains more than the bonus point it costs."""
    actions = legal_actions(state, seat)
    kinds = {a["type"] for a in actions}
    if kinds <= {"duel"}:
        if state["cards"] is not None:
            return {"type": "duel", "duel": card_move(state, seat, [a["duel"] for a in actions], rand)}
        return rand.choice(actions)
    now = _value(state, seat)
    best, best_gain = None, 0.05
    for action in _candidates(state, seat, actions, rand):
        after = _after(state, seat, action)
        if after is None:
            continue
        gain = _value(after, seat) - now + rand.random() * 0.01
        if gain > best_gain:
            best, best_gain = action, gain
    if "place" in kinds:
        return best or rand.choice(actions)
    threshold = 1.0 if state["final_turn"] else 0.05
    if best is not None and best_gain > threshold:
        return best
    attacks = [a for a in actions if a["type"] == "attack" and a["target"] == "avatar"
               and node_of(state["board"], state["players"][a["seat"]]["avatars"][a["avatar"]]) == "server"]
    if state["cards"] is not None and not attacks:
        # with cards a strong hand hacks any adjacent rival (its programs are worth taking)
        attacks = [a for a in actions if a["type"] == "attack" and a["target"] == "avatar"
                   and _strength(state, a) >= STRONG_HACK]
    if attacks and not state["final_turn"]:
        if state["cards"] is not None:
            return max(attacks, key=lambda a: (_strength(state, a), rand.random()))
        return rand.choice(attacks)
    if state["cards"] is not None:
        deploy = [a for a in actions if a["type"] == "duel" and a["duel"]["type"] == "deploy"
                  and CARDS[a["duel"]["card"]]["attribute"] == a["duel"]["attribute"]]
        if deploy and not state["final_turn"]:
            return rand.choice(deploy)  # a Secret Card on its own Attribute, for a later turn
    if state["puzzle"]:
        return next((a for a in actions if a["type"] == "draw"), {"type": "done"})
    if state["hijack"]:
        return {"type": "end_session"}
    if "draw" in kinds and not state["final_turn"] and state["programs"] < 3:
        return {"type": "draw"}
    return {"type": "end_turn"}


# ---------------------------------------------------------------------------------------
# Card duels: how the greedy bot plays its HeroCard cards in Cyberspace
# ---------------------------------------------------------------------------------------

def _strength(state, action):
    """The attack value a hack's cards show (a variable Base Attack counted by its target's
    stack now), so the bot hacks with its strongest affordable play."""
    total = 0
    for card_id in action["cards"]:
        card = CARDS[card_id]
        total += card.get("value", 0)
        if card.get("effect", {}).get("variable") and action.get("attribute"):
            victim = action.get("seat", 0) if action["target"] == "avatar" else 0
            stack = state["cards"]["players"][victim]["stacks"][action["attribute"]]
            total += sum(e["cost"] for e in stack if e["face"] != "down")
    return total


def card_move(state, seat, moves, rand):
    """Phases: discard nothing unless no Base Attack is in hand (then keep the three best
    blocks), draw all it may, clear as much as it may (top cards, costliest stacks first).
    In an Attack Sequence it takes part in: the cheapest play that puts its side ahead, or
    pass when ahead or when nothing helps. Assisting (3-4 players): it helps the losing side
    only against the seat that would otherwise gain most on the board. Trial plays run on
    `visible_copy` (hidden cards reshuffled), so hidden information never steers it."""
    cards = state["cards"]
    kinds = {m["type"] for m in moves}
    if "choose" in kinds:
        return min((m for m in moves if m["type"] == "choose"),
                   key=lambda m: (sum(CARDS[c].get("value", 0) for c in m["cards"]), m["cards"]))
    phase = cards["turn"]["phase"]
    if phase == "discard":
        hand = cards["players"][seat]["hand"]
        if any(CARDS[c]["kind"] == "base_attack" for c in hand):
            return {"type": "discard", "cards": []}
        rest = sorted(hand, key=lambda c: (CARDS[c]["kind"] not in ("base_block", "block_mod"), -CARDS[c].get("value", 0), c))
        wanted = {"type": "discard", "cards": sorted(rest[3:])}
        return wanted if wanted in moves else moves[0]
    if phase == "draw":
        return max((m for m in moves if m["type"] == "draw"), key=lambda m: m["count"])
    if phase == "clear":
        return max((m for m in moves if m["type"] == "clear"), key=lambda m: (len(m["stacks"]), m["stacks"]))
    passing = {"type": "pass"}
    sequence = cards["sequence"]
    if sequence is None:
        return passing if passing in moves else rand.choice(moves)
    side = "attack" if seat in sequence["attack"] else "block" if seat in sequence["block"] else None
    if side is None and not _worth_assisting(state, seat):
        return passing
    seen = visible_copy(cards, seat, random.Random(rand.random()))
    best, best_score = passing, _card_score(seen, seat, side, seen)
    for move in moves:
        if move["type"] not in ("play", "reveal"):
            continue
        after = _trial(seen, seat, move)
        if after is None:
            continue
        score = _card_score(after, seat, side, seen) + rand.random() * 0.01
        if score > best_score:
            best, best_score = move, score
    return best


class _Kept:
    @staticmethod
    def shuffle(items):
        return list(items)


def _trial(duel, seat, move):
    after = json_copy(duel)
    try:
        for fact in hc.decide(duel, seat, move, _Kept()):
            hc.evolve(after, fact)
    except Exception:  # a move legal in the real duel may not be in the reshuffled copy
        return None
    return after


def _card_score(duel, seat, side, before):
    """Being ahead in the sequence for its side (an assistant: for the side it helps) is worth
    far more than the points and cards it costs."""
    sequence = duel["sequence"]
    me, was = duel["players"][seat], before["players"][seat]
    spent = sum(hc.free_points(was, a) - hc.free_points(me, a) for a in me["scores"])
    score = -spent - 0.5 * (len(was["hand"]) - len(me["hand"]))
    if sequence is not None:
        attack, block = hc.attack_values(duel)
        mine = side or duel["assist"].get(str(seat))
        if mine is not None:
            score += 50 if (attack > block) == (mine == "attack") else -50
    return score


def _worth_assisting(state, seat):
    """Assist only against a rival leading on the board (the attacker, or the defender)."""
    attack = state["attack"]
    if attack is None:
        return False
    table = network_table(state)
    points = {s: network_points(state, s, table) for s in range(state["seats"])}
    rivals = [attack["seat"]] + list(attack["defenders"])
    return max(points[r] for r in rivals) > points[seat]


BOTS = {"random": random_bot, "greedy": greedy_bot}
