"""Reading the state: who controls the Cybermen, what a group can do, whose turn comes next."""

from .data import CHARACTERS, MARKS


def controller(state):
    """'The player whose turn it is chooses ... unless there is a Cyberleader.'"""
    return state["leader"] if state["leader"] is not None else state["turn"]


def mover(state, cid):
    """Who moves a Cyberman: a Cyberlieutenant's player, else whoever controls the Cybermen."""
    cyb = state["cybermen"][cid]
    return cyb["seat"] if cyb["role"] in ("lieutenant", "partial") else controller(state)


def abilities(state, seat):
    """Abilities of the characters still in the group. 'This character's ability can no longer be
    used': a captured character's ability is lost for good, even if a partial conversion frees it."""
    group = state["groups"][seat]
    return {CHARACTERS[c]["ability"] for c in group["members"] if c not in group["lost"]}


def carried_of(state, seat):
    return sorted(c for cyb in state["cybermen"].values() for c in cyb["carrying"] if CHARACTERS[c]["seat"] == seat)


def partials_of(state, seat):
    return sorted((cid for cid, c in state["cybermen"].items() if c["role"] == "partial" and c["seat"] == seat),
                  key=order_key)


def order_key(cid):
    return int(cid[1:])


def in_play(state, seat):
    """A group is on the map while it has members; its captured members are still humans."""
    group = state["groups"][seat]
    return bool(group["members"]) or bool(carried_of(state, seat))


def takes_turns(state, seat):
    """'If a Cyberlieutenant is destroyed, the player is out of the game': an out player plays no
    more. A player whose group escaped, or that lost every member and did not take up its
    Cyberlieutenant ('converted'), still moves its partial conversions in its turns."""
    status = state["groups"][seat]["status"]
    return status in ("human", "leader", "lieutenant") or (status in ("escaped", "converted")
                                                             and bool(partials_of(state, seat)))


def uses_tokens(state, seat):
    """'Cyberlieutenants and the Cyberleader may never use items or tokens.'"""
    return state["groups"][seat]["status"] not in ("leader", "lieutenant")


def humans_left(state):
    return any(in_play(state, s) for s in range(state["seats"]))


def cyberman_abilities(state, cid):
    return list(abilities_of(state["cybermen"][cid]))


def abilities_of(cyb) -> tuple:
    """A Cyberman's abilities: its Mark's, a Cyberleader's own column; none for a partial
    conversion (moved by its player, it never captures)."""
    return _ABILITIES[cyb["mark"], cyb["role"]]


# Read once: the abilities phase asks every Cyberman's abilities again at every step.
_ABILITIES = {(mark, role): () if role == "partial" else tuple(MARKS[mark]["leader_abilities" if role == "leader"
                                                                            else "abilities"])
              for mark in MARKS for role in ("normal", "leader", "lieutenant", "partial")}


def next_turn(state):
    """The next seat that still takes turns, and whether a new round begins; None when none does."""
    seats = state["seats"]
    for step in range(1, seats + 1):
        seat = (state["turn"] + step) % seats
        if takes_turns(state, seat):
            return seat, seat <= state["turn"]
    return None


def slot_seat(state, slot):
    """Who acts for a queued Cyberman: a Cyberlieutenant's own player; a carrier is moved by whoever
    controls the Cybermen now ('no other player moves Cybermen': a Cyberleader arising mid-phase
    takes over the carriers still queued)."""
    return slot["seat"] if slot["kind"] == "lieutenant" else controller(state)


def to_act(state):
    if state["over"]:
        return set()
    if state["prompt"]:
        return {state["prompt"]["seat"]}
    if state["active"]:
        return {state["active"]["seat"]}
    if state["phase"] in ("cyber_move", "abilities"):
        if state["queue"]:
            return {slot_seat(state, state["queue"][0])}
        if state["phase"] == "cyber_move" and state["count"] is None:
            return {state["turn"]}  # 'no other player ... moves Cybermen, they may roll as normal'
        return {controller(state)}
    return {state["turn"]}
