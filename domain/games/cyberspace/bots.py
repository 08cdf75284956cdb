"""Bots for any Cyberspace seat: a random one and a greedy one. Both pick from
`legal_actions`, so they only ever play legal moves, and see only what the view shows."""

from domain.kernel.rng import RandomStream

from .board import firewalls_on, node_of, sides_of
from .rules import legal_actions, lookahead
from .scoring import network_points, network_table, puzzle_score

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
    if attacks and not state["final_turn"]:
        return rand.choice(attacks)
    if state["puzzle"]:
        return next((a for a in actions if a["type"] == "draw"), {"type": "done"})
    if state["hijack"]:
        return {"type": "end_session"}
    if "draw" in kinds and not state["final_turn"] and state["programs"] < 3:
        return {"type": "draw"}
    return {"type": "end_turn"}


BOTS = {"random": random_bot, "greedy": greedy_bot}
