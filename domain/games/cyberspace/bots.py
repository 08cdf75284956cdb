"""Bots for any Cyberspace seat: a random one and a greedy one. Both pick from
`legal_actions`, so they only ever play legal moves, and see only what the view shows."""

import random

import orjson

from domain.games.herocard import engine as hc
from domain.games.herocard.bots import visible_copy
from domain.games.herocard.cards import CARDS
from domain.kernel.canonical import json_copy
from domain.kernel.decision import advance
from domain.kernel.memo import Memo

from .board import (firewalls_on, is_closed, layout, login_destinations, network_of, networks, node_of,
                    occupants, open_connections, sides_of)
from .programs import probe_source
from .rules import legal_actions, lookahead
from .scoring import CLOSED_BONUS, network_points, network_table, share

STRONG_HACK = 7  # attack value from which the greedy bot hacks a rival off a server too
# Before the final round an Avatar is worth more than its place now: "Spawn early in the game.
# With more avatars you can score more networks." One on a client that can log in to an empty
# server is nearly as good as one there (it also blocks further spawns until it does); a Link
# in a network of one's Avatars is a way out ("use links ... preemptively").
PRESENCE, REACH, LINK = 0.5, 0.9, 0.15
OPEN_END = 0.1  # the Engineering Puzzle: an open connection of the largest network while tiles remain


class _FirstPick:
    """The random stream of the greedy bot's what-ifs: every draw takes the first item. The
    value the bot weighs (`_value`) reads no draw's result: not which tile a probe's refill
    turns face up (only whether the stack is empty), nor a card duel's hands and decks. A
    real stream's HMAC per draw cost a tenth of the bot's time (issue 32)."""

    @staticmethod
    def randbelow(n):
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        return 0

    @staticmethod
    def shuffle(items):
        return list(items)


SIMULATED = _FirstPick()  # only for the bot's own what-ifs


def random_bot(state, seat, rand):
    """A random kind of action (probe, login, attack, end turn...), then a random one of it,
    so the many tile placements do not crowd out everything else."""
    actions = legal_actions(state, seat)
    kinds = sorted({a["type"] for a in actions})
    kind = rand.choice(kinds)
    return rand.choice([a for a in actions if a["type"] == kind])


def _value(state, seat):
    """What the bot wants: the points it would tally now, Avatars on servers, Firewalls
    guarding those servers; a partner's points count as its own; opponents' count against.
    Before the final round also what its pieces promise: Avatars on the board, one on a
    client that can log in to an empty server, its Links where its Avatars are. The networks
    are found once (in the table), for the points and for each Avatar's own network."""
    if state["puzzle"]:
        return _puzzle_value(state)
    own = {seat, (seat + 2) % 4} if state["teams"] else {seat}
    board, later = state["board"], not state["final_round"]
    value, table = 0.0, _worth_table(state)
    for s, player in enumerate(state["players"]):
        points = sum(share(worth, held, s) for _, worth, held in table if s in held)  # network_points
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
                homes.update(next(group for group, _, _ in table if cell in group))  # board.network_of
        if later and s == seat:
            value += LINK * min(2, sum(1 for port in player["links"] if port in homes))
    return value


def _worth_table(state):
    """scoring.network_table with each network's worth as a number: [(cells, worth, servers
    held by seat)], the cells a tuple (layout's own, not a copy: only read here)."""
    taken = occupants(state)
    table = []
    for cells, servers, clients, closed in layout(state["board"]):
        held = {}
        for cell in servers:
            if cell in taken:
                holder = taken[cell][0]
                held[holder] = held.get(holder, 0) + 1
        worth = sum(1 for cell in clients if cell not in taken) + (CLOSED_BONUS if closed else 0) if servers else 0
        table.append((cells, worth, held))
    return table


def _server_in_reach(state, cell):
    """Can the Avatar at `cell` log in to an empty server (one Login program)?"""
    board = state["board"]
    return any(node_of(board, other) == "server" for other in login_destinations(state, cell))


def _puzzle_value(state):
    """The Engineering Puzzle's score once the stack is empty. While tiles are still to come,
    the largest network's size, and a little for each of its open connections (where the
    next tiles attach) instead of the +3 for closing it, which would stop its growth early:
    a greedy step closes a network as soon as it can (mean score 12.0 in 60 puzzles; this way
    14.0)."""
    board = state["board"]
    if not board:
        return 0
    nodes, closed, group = max((len(g), is_closed(board, g), g) for g in networks(board))
    if not state["stack"]:
        return nodes + CLOSED_BONUS * closed
    return nodes + OPEN_END * sum(len(open_connections(board, cell)) for cell in group)


def _after(state, seat, action):
    return lookahead(state, seat, action, SIMULATED)


# Programs whose value afterwards (`_value` of `_after`) reads no more of the state than
# `_board_values` keys it by: neither the card duel, nor which tiles lie face up or in the
# stack (`_value` reads only whether the stack is empty), nor the turn's program count
# (the action is legal: it comes from legal_actions).
BOARD_PROGRAMS = frozenset(("probe", "place", "spawn", "login", "link", "firewall", "remap"))


def _board_values(state, seat):
    """{a BOARD_PROGRAMS action's `_action_key`, or b"" for none: `_value` after it} for this
    position, kept across calls: a search's samples differ in the duel's hidden cards and in
    the tiles their dice turned face up, and their playouts weigh every tile placement on
    the same boards again and again. The key is what `_value` reads (the board, the pieces,
    the round, the options) and what decides a program's effect on it: whose pieces it moves
    (a hijacked session's target), the drawn tile a place puts down, and how many tiles are
    left (a probe that empties the stack starts the final round)."""
    hijack = state["hijack"]
    position = [seat, state["puzzle"], state["teams"], state["size"], state["board"], state["players"],
                state["final_round"], state["over"], hijack and hijack["target"], len(state["stack"]),
                state["held"]]
    board_key = orjson.dumps(position)
    values = _VALUES.get(board_key)
    if values is None:
        values = _VALUES.keep(board_key, {})
    return values


_VALUES: Memo = Memo(4096)  # a board's key -> {a program's key: its value}


def _action_key(state, action):
    """A BOARD_PROGRAMS action, and for a probe where its tile comes from (a face-up tile is
    replaced from the stack, a set-aside one is not: the stack's size after it differs)."""
    if action["type"] == "probe":
        return orjson.dumps([action, probe_source(state, action.get("tile"))])
    return orjson.dumps(action)


def _value_after(state, seat, action, values):
    """`_value` of the state after a legal `action` (None: the what-if failed), from `values`
    (`_board_values`) when the action is a BOARD_PROGRAMS one."""
    if action["type"] not in BOARD_PROGRAMS:
        after = _after(state, seat, action)
        return None if after is None else _value(after, seat)
    action_key = _action_key(state, action)
    value = values.get(action_key)
    if value is None:
        after = _after(state, seat, action)
        if after is None:
            return None
        value = values[action_key] = _value(after, seat)
    return value


def _candidates(state, seat, actions, rand):
    """Every action but the few the heuristics ignore (Links away from its Avatars' networks,
    Firewalls away from its servers, moved ones); long lists of tile placements are sampled."""
    mine = {c for c in state["players"][seat]["avatars"] if c is not None}
    homes = {cell for c in mine for cell in network_of(state["board"], c)} if not state["hijack"] else set()
    picked = []
    for action in actions:
        kind = action["type"]
        if kind in ("reboot", "end_turn", "end_session", "done", "draw", "attack"):
            continue
        if kind == "firewall" and (action["from"] is not None or f"{action['x']},{action['y']}" not in mine):
            continue
        if kind == "link" and (action["from"] is not None or f"{action['x']},{action['y']}" not in homes):
            continue
        picked.append(action)
    tiles = [a for a in picked if a["type"] in ("probe", "place", "remap")]
    if len(tiles) > 60:  # placements are many and alike: a sample; every other program is weighed
        kept = rand.sample(tiles, 60)
        picked = [a for a in picked if a["type"] not in ("probe", "place", "remap")] + kept
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
    reboot = _hopeless_reboot(state, seat, actions)
    if reboot is not None:
        return reboot
    values = _board_values(state, seat)
    now = values.get(b"")
    if now is None:
        now = values[b""] = _value(state, seat)
    best, best_gain, top, top_gain = None, 0.05, None, None
    for action in _candidates(state, seat, actions, rand):
        value = _value_after(state, seat, action, values)
        if value is None:
            continue
        gain = value - now + rand.random() * 0.01
        if gain > best_gain:
            best, best_gain = action, gain
        if top_gain is None or gain > top_gain:
            top, top_gain = action, gain
    if "place" in kinds:
        return top or rand.choice(actions)  # the drawn tile must go somewhere: where it does least harm
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
            attack = max(attacks, key=lambda a: (_strength(state, a), rand.random()))
            return _preparation(state, seat, actions, attack["seat"]) or attack
        return rand.choice(attacks)
    if state["cards"] is not None:
        deploy = [a for a in actions if a["type"] == "duel" and a["duel"]["type"] == "deploy"
                  and CARDS[a["duel"]["card"]]["attribute"] == a["duel"]["attribute"]]
        if deploy and not state["final_turn"]:
            return rand.choice(deploy)  # a Secret Card on its own Attribute, for a later turn
        spare = _spare_play(state, seat, [a["duel"] for a in actions if a["type"] == "duel"])
        if spare is not None:
            return {"type": "duel", "duel": spare}
    if state["puzzle"]:
        return next((a for a in actions if a["type"] == "draw"), {"type": "done"})
    if state["hijack"]:
        return {"type": "end_session"}
    if "draw" in kinds and not state["final_turn"] and state["programs"] < 3:
        return {"type": "draw"}
    return {"type": "end_turn"}


def _hopeless_reboot(state, seat, actions):
    """'If your position is hopeless in the midgame, reboot and spawn somewhere else on the next
    turn': no network points, no Avatar on a server nor able to log in to an empty one (and so
    no further spawn), while another network has an empty server to start again by. Every
    Avatar is removed (the next one may then go 'on any empty client in any network'); with
    cards every card is cleared and a hand without a Base Attack (or short) is refreshed."""
    reboots = [a for a in actions if a["type"] == "reboot"]
    placed = [cell for cell in state["players"][seat]["avatars"] if cell is not None]
    if not reboots or not placed or state["final_round"] or network_points(state, seat) > 0:
        return None
    board = state["board"]
    if any(node_of(board, cell) == "server" or _server_in_reach(state, cell) for cell in placed):
        return None
    taken = {c for p in state["players"] for c in p["avatars"] if c is not None}
    mine = {c for cell in placed for c in network_of(board, cell)}
    elsewhere = [g for g in networks(board) if not mine & set(g)
                 and any(node_of(board, c) == "server" and c not in taken for c in g)
                 and any(node_of(board, c) == "client" and c not in taken for c in g)]
    if not elsewhere:
        return None
    every = sorted(i for i, cell in enumerate(state["players"][seat]["avatars"]) if cell is not None)
    chosen = [a for a in reboots if a["avatars"] == every]
    if state["cards"] is None:
        return chosen[0]
    hand = state["cards"]["players"][seat]["hand"]
    refresh = len(hand) < 5 or not any(CARDS[c]["kind"] == "base_attack" for c in hand)
    return max((a for a in chosen if a["refresh"] == refresh), key=lambda a: len(a["clear"]))


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
    queue = cards["config"]["discard_queue"]
    if phase == "discard":
        hand = cards["players"][seat]["hand"]
        if any(CARDS[c]["kind"] == "base_attack" for c in hand):
            return {"type": "discard", "cards": []}
        rest = sorted(hand, key=lambda c: (CARDS[c]["kind"] not in ("base_block", "block_mod"), -CARDS[c].get("value", 0), c))
        dropped = sorted(rest[3:], key=_comeback) if queue else sorted(rest[3:])
        for wanted in ({"type": "discard", "cards": dropped}, {"type": "discard", "cards": sorted(dropped)}):
            if wanted in moves:
                return wanted
        return moves[0]
    if phase == "draw":
        return max((m for m in moves if m["type"] == "draw"), key=lambda m: m["count"])
    if phase == "clear":
        clears = [m for m in moves if m["type"] == "clear"]
        most = max(len(m["stacks"]) for m in clears)
        if queue:  # the Discard Queue turns the pile over: what is cleared first comes back first
            stacks = cards["players"][seat]["stacks"]
            return min((m for m in clears if len(m["stacks"]) == most),
                       key=lambda m: ([_comeback(c) for c in _cleared(stacks, m["stacks"])], m["stacks"]))
        return max(clears, key=lambda m: (len(m["stacks"]), m["stacks"]))
    passing = {"type": "pass"}
    sequence = cards["sequence"]
    if sequence is None:
        # outside an Attack Sequence: the others' window before a turn ends (or a card's answer)
        return _spare_play(state, seat, moves) or (passing if passing in moves else rand.choice(moves))
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


def _spare_play(state, seat, moves):
    """A card worth playing outside an Attack Sequence, on its own turn or in another's window
    ('Fast: ... on any player's turn'): a card draw while its hand is short; a forced discard of
    attack cards by a rival whose Avatar is next to one of its own (the likeliest hacker)."""
    if state["final_round"]:
        return None
    cards = state["cards"]
    hand = cards["players"][seat]["hand"]
    for move in moves:
        if move["type"] != "play" or len(move["cards"]) != 1:
            continue
        effect = CARDS[move["cards"][0]].get("effect", {})
        if effect.get("draw") and len(hand) <= 5:
            return move
        if effect.get("discard", {}).get("of") == "attack" and move.get("target") in _hackers(state, seat) \
                and len(cards["players"][move["target"]]["hand"]) >= 3:
            return move
    return None


def _hackers(state, seat):
    """Rivals with an Avatar next to one of this seat's (they may hack it)."""
    from .board import steps_from
    mine = [c for c in state["players"][seat]["avatars"] if c is not None]
    near = {other for cell in mine for other in steps_from(state, cell)}
    partner = (seat + 2) % 4 if state["teams"] else seat
    return {s for s, p in enumerate(state["players"]) if s not in (seat, partner)
            and any(c in near for c in p["avatars"] if c is not None)}


def _preparation(state, seat, actions, victim):
    """Before hacking `victim`: a card that weakens its defence, played first (Forfeiture's or
    a Logic Bomb's block discard, Neural Twist on the Attribute with most points free)."""
    player = state["cards"]["players"][victim]
    free = {a: hc.free_points(player, a) for a in player["scores"]}
    best, best_key = None, None
    for action in actions:
        move = action.get("duel") if action["type"] == "duel" else None
        if move is None or move["type"] not in ("play", "reveal") or move.get("target") != victim:
            continue
        card = move["cards"][0] if move["type"] == "play" and len(move["cards"]) == 1 else _stacked(state, seat, move)
        effect = CARDS[card].get("effect", {}) if card else {}
        if effect.get("discard", {}).get("of") == "block" and player["hand"]:
            key = (1, effect["discard"]["count"])
        elif effect.get("twist") and move.get("attribute") == max(free, key=lambda a: (free[a], a)) \
                and not player["twisted"]:
            key = (0, free[move["attribute"]])
        else:
            continue
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def _stacked(state, seat, move):
    """The card of a face-down Secret Card revealed by `move` (its own, so it may know it)."""
    for stack in state["cards"]["players"][seat]["stacks"].values():
        for entry in stack:
            if entry["uid"] == move.get("uid"):
                return entry["card"]
    return None


def _comeback(card_id):
    """Discard Queue order: 'instead of shuffling the Discard pile, simply turn it over and
    continue drawing from the top', so the first card discarded is drawn first: Base Attacks
    first (strongest first), then blocks, then the rest."""
    card = CARDS[card_id]
    rank = {"base_attack": 0, "attack_mod": 2, "base_block": 1, "block_mod": 3}.get(card["kind"], 4)
    return rank, -card.get("value", 0), card_id


def _cleared(stacks, order):
    """The cards a clear in this stack order puts on the discard pile, in order (top first)."""
    left = {a: list(stack) for a, stack in stacks.items()}
    return [left[a].pop()["card"] for a in order]


class _Kept:
    @staticmethod
    def shuffle(items):
        return list(items)


def _trial(duel, seat, move):
    try:
        after, _ = advance(hc, json_copy(duel), seat, move, _Kept())
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
