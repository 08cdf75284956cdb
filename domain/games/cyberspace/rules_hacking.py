"""Hacking on the board (rules/herocard-cyberspace.txt, "Hacking"), whichever duel decides it:
what an attack may target (an adjacent Avatar, Firewall or Link; never a partner's in Teams),
the targets a seat can attack now, and what a successful attack does to the board. Shared by
rules.py (Bit Duels) and rules_cards.py (HeroCard card duels)."""

from domain.kernel.errors import IllegalAction

from . import programs as P
from .board import (adjacent_firewall_connections, adjacent_links, firewalls_on, joined, key, link_at, occupants,
                    steps_from)


def partner(state, seat):
    return (seat + 2) % 4 if state["teams"] else None


def attack_target(st, seat, action):
    """(target, defending owners) of a legal attack by `seat`, or IllegalAction naming the rule."""
    mine = [cell for cell in st["players"][seat]["avatars"] if cell is not None]
    kind = action.get("target")
    if kind == "avatar":
        victim, index = P.integer(action, "seat"), P.integer(action, "avatar")
        if victim is None or not 0 <= victim < st["seats"] or index is None or \
                not 0 <= index < len(st["players"][victim]["avatars"]) or st["players"][victim]["avatars"][index] is None:
            raise IllegalAction("no_such_avatar", "name an Avatar on the board by its seat and index")
        if victim == seat:
            raise IllegalAction("hack_opponent_only", "you can hack an opponent's Avatar, not your own")
        cell = st["players"][victim]["avatars"][index]
        if not any(cell in steps_from(st, m) for m in mine):
            raise IllegalAction("target_not_adjacent", "hackers must be adjacent: the target Avatar must occupy a "
                                "node connected to one of yours (not through a Firewall), or a Linked node of the "
                                "same colour as yours")
        return {"kind": "avatar", "seat": victim, "avatar": index, "at": cell}, [victim]
    if kind == "firewall":
        cell, side = key(action.get("x"), action.get("y")), P.integer(action, "side")
        walls = firewalls_on(st, cell, side) if cell in st["board"] and side in (0, 1, 2, 3) else []
        if not any(wall == [cell, side] for _, wall in walls):
            raise IllegalAction("no_such_firewall", f"there is no Firewall at {cell} side {side}")
        if not any(same_connection(st, wall, [cell, side]) for m in mine
                   for wall in adjacent_firewall_connections(st, m)):
            raise IllegalAction("target_not_adjacent", "you can attack a Firewall on a connection of a node "
                                "one of your Avatars occupies")
        owners = sorted({owner for owner, _ in walls})
        return {"kind": "firewall", "at": [cell, side], "owners": owners}, [o for o in owners if o != seat]
    if kind == "link":
        cell = key(action.get("x"), action.get("y"))
        owner = link_at(st, cell)
        if owner is None:
            raise IllegalAction("no_such_link", f"there is no Link at {cell}")
        if not any(cell in adjacent_links(st, m) for m in mine):
            raise IllegalAction("target_not_adjacent", "you can attack a Link adjacent to one of your Avatars, "
                                "or any Link of the same colour as one adjacent to it")
        return {"kind": "link", "at": cell, "owners": [owner]}, [o for o in [owner] if o != seat]
    raise IllegalAction("malformed_action", 'an attack\'s "target" is "avatar", "firewall" or "link"')


def same_connection(st, a, b):
    return a == b or joined(st["board"], a[0], a[1]) == b[0] and (a[1] + 2) % 4 == b[1]


def resolve(turn, success):
    """'A successful attack hacks an Avatar, destroys a firewall, or destroys a link.'"""
    st = turn.state
    target = st["attack"]["target"]
    turn.emit({"f": "attack_result", "success": success})
    if not success:
        return
    if target["kind"] == "avatar":
        turn.emit({"f": "hijack", "target": target["seat"]})  # "you hijack your target's session"
    elif target["kind"] == "firewall":
        # "If two Firewalls occupy a single connection, an attack on either Firewall affects both."
        for owner, wall in firewalls_on(st, *target["at"]):
            turn.emit({"f": "firewall_destroyed", "seat": owner, "at": wall})
    else:
        turn.emit({"f": "link_destroyed", "seat": target["owners"][0], "at": target["at"]})



def attack_options(state, seat):
    found = []
    mine = [cell for cell in state["players"][seat]["avatars"] if cell is not None]
    taken = occupants(state)
    for victim, index in sorted({tuple(taken[c]) for m in mine for c in steps_from(state, m)
                                 if c in taken and taken[c][0] != seat}):
        found.append({"type": "attack", "target": "avatar", "seat": victim, "avatar": index})
    walls = {tuple(w) for m in mine for c in adjacent_firewall_connections(state, m)
             for _, w in firewalls_on(state, *c)[:1]}
    found += [{"type": "attack", "target": "firewall", "x": int(c.split(",")[0]), "y": int(c.split(",")[1]),
               "side": s} for c, s in sorted(walls)]
    ports = sorted({port for m in mine for port in adjacent_links(state, m)})
    found += [{"type": "attack", "target": "link", "x": int(c.split(",")[0]), "y": int(c.split(",")[1])} for c in ports]
    legal = []
    for action in found:
        target, _ = attack_target(state, seat, action)
        owners = [target["seat"]] if target["kind"] == "avatar" else target["owners"]
        if not (state["teams"] and partner(state, seat) in owners):
            legal.append(action)
    return legal

