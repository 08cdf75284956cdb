"""HeroCard Cyberspace, after the Board Game section of rules/herocard-cyberspace.txt, in
the rulebook's order: the turn (its Action Phase: up to three programs, hacks, or Rebooting
instead), the final round and scoring, and the variants (Teams, Handicap, Bit Duels, the
one-player Engineering Puzzle), with HeroCard card duels (the default): one HeroCard engine
duel in `state["cards"]` for the whole match, each Cyberspace turn being that seat's
HeroCard turn. Set-up and the options are in rules_setup.py; what a hack may target and
what a successful one does in rules_hacking.py; the card duel's integration (its phases,
hacks as Attack Sequences, Assistance, Secret Cards, Rebooting's clears) in rules_cards.py.
Tile geometry is in board.py, the six programs in programs.py, the Bit Duel and the card
duel's set-up in duels.py, scoring in scoring.py.

State is plain JSON. The board holds no secret: the face-down stack is kept as a sorted
list and each draw from it is a fresh fair pick from the match's random stream, written
into the fact, which is the same as drawing the top of a shuffled stack. The card duel's
hands, deck order and face-down Secret Cards are hidden by view.py through the engine's
own redaction. Choices the rulebook leaves open are numbered in README.md.
"""

from types import SimpleNamespace

from domain.kernel.canonical import json_copy
from domain.kernel.decision import Decision, advance
from domain.kernel.errors import IllegalAction

from domain.games.herocard import engine as hc

from . import duels as D
from . import programs as P
from . import rules_cards as C
from .board import key
from .duels import ENGINES
from .rules_hacking import attack_options, attack_target, partner, resolve
from .rules_setup import DEFAULT_SIZE, setup  # noqa: F401  (DEFAULT_SIZE: the options schema; setup: the Ruleset's)
from .scoring import PROGRAMS_PER_TURN, puzzle_score, tally, winners

PROGRAM_ACTIONS = ("draw", "place", "probe", "spawn", "login", "link", "firewall", "remap")
PUZZLE_ACTIONS = ("draw", "place", "probe", "remap", "done")

# ---------------------------------------------------------------------------------------
# evolve
# ---------------------------------------------------------------------------------------

def evolve(state, fact):
    kind = fact["f"]
    players = state["players"]
    if kind == "draw":
        state["stack"].remove(fact["tile"])
        state["held"] = fact["tile"]
    elif kind == "set_aside":
        state["waiting"].append(state["held"])
        state["held"] = None
    elif kind == "place":
        if fact["from"] == "held":
            state["held"] = None
        else:
            state[fact["from"]].remove(fact["tile"])
        state["board"][fact["at"]] = {"tile": fact["tile"], "rot": fact["rot"]}
    elif kind == "refill":
        state["stack"].remove(fact["tile"])
        state["face_up"].append(fact["tile"])
    elif kind == "program":
        menu = state["hijack"] if state["hijack"] else state
        menu["programs"] += 1
        menu["menu"].append(fact["program"])
        state["acted"] = True
    elif kind in ("spawn", "login"):
        players[fact["seat"]]["avatars"][fact["avatar"]] = fact["at"]
    elif kind in ("link", "firewall"):
        pieces = players[fact["seat"]][f"{kind}s"]
        if fact["from"] is not None:
            pieces.remove(fact["from"])
        pieces.append(fact["at"])
    elif kind == "remap":
        _remap(state, fact["from"], fact["at"], fact["rot"])
    elif kind == "attack":
        state.update(attacked=True, acted=True, attack={"seat": fact["seat"], "target": fact["target"],
                                                          "defenders": fact["defenders"]})
    elif kind == "duel":
        if state["cards"] is not None:
            hc.evolve(state["cards"], fact["fact"])
        else:
            state["duel"] = ENGINES[state["duels"]].evolve(state["duel"], fact["fact"])
    elif kind == "attack_result":
        duel = state["cards"]["last_result"] if state["cards"] is not None else state["duel"]
        state["last_duel"] = {**state["attack"], "success": fact["success"], "duel": duel}
        state.update(attack=None, duel=None)
    elif kind == "attack_cancelled":
        state["last_duel"] = {**state["attack"], "success": False, "duel": None, "cancelled": True}
        state["attack"] = None
    elif kind == "duplicate_result":
        state["last_duel"] = {"seat": fact["seat"], "target": {"kind": "session", "seat": fact["target"]},
                              "defenders": [fact["target"]], "success": fact["success"],
                              "duel": state["cards"]["last_result"], "duplicate": True}
    elif kind == "firewall_destroyed":
        players[fact["seat"]]["firewalls"].remove(fact["at"])
    elif kind == "link_destroyed":
        players[fact["seat"]]["links"].remove(fact["at"])
    elif kind == "hijack":
        state["hijack"] = {"target": fact["target"], "by": fact.get("by", state["turn"]), "programs": 0, "menu": []}
    elif kind == "hijack_end":
        state["hijack"] = None
    elif kind == "reboot":
        for index in fact["avatars"]:
            players[fact["seat"]]["avatars"][index] = None
    elif kind == "final_round":
        state.update(final_round=True, last_seat=fact["last"])
    elif kind == "tally":
        state["tallies"][fact["seat"]] = {k: fact[k] for k in ("networks", "bonus", "score")}
    elif kind == "closing":
        state["closing"] = fact["on"]
    elif kind == "turn":
        state.update(turn=fact["seat"], final_turn=fact["final"], turn_number=state["turn_number"] + 1,
                     programs=0, menu=[], attacked=False, acted=False, closing=False)
    elif kind == "over":
        state.update(over=fact["reason"], winners=fact["winners"], puzzle_score=fact.get("puzzle"))
    else:
        raise ValueError(f"unknown fact {kind!r}")
    return state


def _remap(state, cell, target, rot):
    """The pendant tile moves; 'any game pieces occupying the tile you move (Avatars, Links,
    or Firewalls) remain on the moved tile', the Firewalls turning with it."""
    placed = state["board"].pop(cell)
    turn_by = (rot - placed["rot"]) % 4
    state["board"][target] = {"tile": placed["tile"], "rot": rot}
    for player in state["players"]:
        player["avatars"] = [target if c == cell else c for c in player["avatars"]]
        player["links"] = [target if c == cell else c for c in player["links"]]
        player["firewalls"] = [P.remapped_firewall(w, cell, target, turn_by) for w in player["firewalls"]]


# ---------------------------------------------------------------------------------------
# Whose move; the end
# ---------------------------------------------------------------------------------------

def to_act(state):
    if state["over"]:
        return set()
    if state["hijack"]:
        return {state["hijack"]["by"]}
    if state["held"] is not None or state["cards"] is None and state["duel"] is None:
        return {state["turn"]}
    if state["cards"] is not None:
        return hc.to_act(state["cards"])
    engine = ENGINES[state["duels"]]
    return {seat for seat in state["duel"]["seats"] if engine.legal_actions(state["duel"], seat)}


def outcome(state):
    if not state["over"]:
        return None
    if state["puzzle"]:
        return {"reason": state["over"], "winners": [0], "scores": [state["puzzle_score"]["score"]],
                "puzzle": state["puzzle_score"]}
    result = {"reason": state["over"], "winners": state["winners"],
              "scores": [t["score"] for t in state["tallies"]], "bonus": [t["bonus"] for t in state["tallies"]]}
    if state["teams"]:
        result["team_scores"] = [result["scores"][0] + result["scores"][2], result["scores"][1] + result["scores"][3]]
    return result


class Turn(Decision):
    def __init__(self, state, rng):
        super().__init__(state, rng, evolve)


def _end_turn(turn, seat):
    """'On each player's last turn, he or she tallies their score'; the final round ends
    with the final turn of whoever emptied the stack. 'When a player empties the face-down
    stack of tiles, the next player starts the last round': the final turns begin with the
    player after the one who emptied it, so that player's is the last (README 23) -- the
    turn's seat, or a duplicate's owner who emptied it in its hijacked session."""
    st = turn.state
    if st["final_turn"]:
        turn.emit({"f": "tally", "seat": seat, **tally(st, seat)})
        if seat == st["last_seat"]:
            turn.emit({"f": "over", "reason": "final_round_scored", "winners": winners(st)})
            return
    following = (seat + 1) % st["seats"]
    final = st["final_turn"] or (st["final_round"] and seat == st["last_seat"])
    turn.emit({"f": "turn", "seat": following, "final": final})
    if st["cards"] is not None:
        # The four phases: the new seat's HeroCard turn begins (Discard, Draw, Clear ...).
        C.emit_cards(turn, hc.start_turn(st["cards"], following, turn.rng))
        if st["cards"]["turn"]["phase"] == "ended":
            # "you lose the remainder of your turn as well as the entirety of your next turn"
            _end_turn(turn, following)


def _after_action(turn, seat):
    st = turn.state
    if st["hijack"] and st["hijack"]["programs"] >= PROGRAMS_PER_TURN and st["held"] is None:
        turn.emit({"f": "hijack_end"})
    if not st["puzzle"] and not st["stack"] and not st["final_round"] and not st["over"]:
        # "When someone draws the last Network Tile from the face-down stack, the scoring round
        # starts ... if you empty the face-down stack of tiles, there will be one final round, in
        # which you will get the final turn": the acting seat drew it (in a hijacked session,
        # the hijacker, not the target nor the turn's seat).
        turn.emit({"f": "final_round", "last": seat})


# ---------------------------------------------------------------------------------------
# decide
# ---------------------------------------------------------------------------------------

def decide(state, seat, action, rng):
    return _decided(state, seat, action, rng).facts


def lookahead(state, seat, action, rng):
    """The state after a legal `action`, for a bot's what-ifs (one copy, not two). A program
    emits no duel fact, so its what-if shares the card duel with `state` instead of copying
    it (two thirds of a state's JSON; the greedy bot tries some 20 programs an action)."""
    if state["cards"] is not None and isinstance(action, dict) and action.get("type") in PROGRAM_ACTIONS:
        board_copy = json_copy({**state, "cards": None})
        board_copy["cards"] = state["cards"]  # read (whether the seat is at home), never changed
        return advance(_THIS_GAME, board_copy, seat, action, rng)[0]
    return _decided(state, seat, action, rng).state


def _decided(state, seat, action, rng):
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", 'an action is an object with a "type"')
    kind = action["type"]
    handler = ACTIONS.get(kind)
    if handler is None:
        raise IllegalAction("unknown_action", f"cyberspace has no action {kind!r}; known: {sorted(ACTIONS)}")
    turn = Turn(state, rng)
    st = turn.state
    if st["over"]:
        raise IllegalAction("game_over", "the game is over")
    if seat not in to_act(st):
        raise IllegalAction("not_your_turn", f"seat {seat} is not to act")
    if st["duel"] is not None and kind != "duel":
        raise IllegalAction("duel_pending", "the duel under way must be resolved first")
    if st["held"] is not None and kind != "place":
        raise IllegalAction("place_drawn_tile", "the Probe is not over: place the tile you drew first")
    if st["cards"] is not None and not st["hijack"] and st["held"] is None and kind != "duel" \
            and not D.at_home(st["cards"], seat):
        raise IllegalAction("cards_first", C.cards_first(st["cards"]))
    if st["puzzle"] and kind not in PUZZLE_ACTIONS:
        raise IllegalAction("puzzle_probe_remap_only", "the Engineering Puzzle uses probe and remap programs only")
    if st["hijack"] and kind not in PROGRAM_ACTIONS + ("end_session",):
        raise IllegalAction("hijacked_session", "you must execute your target's programs (or end the session) "
                            "before playing on: no attacks, no own programs, no end of turn meanwhile")
    handler(turn, seat, action)
    _after_action(turn, seat)
    return turn


def _program(turn, seat, name):
    st = turn.state
    if not st["puzzle"]:
        used = st["hijack"]["programs"] if st["hijack"] else st["programs"]
        if used >= PROGRAMS_PER_TURN:
            raise IllegalAction("three_programs", "you can execute up to three programs per turn"
                                + (" (three hijacked programs)" if st["hijack"] else ""))
    turn.emit({"f": "program", "program": name, "seat": st["hijack"]["target"] if st["hijack"] else seat})


def _owner(st, seat):
    return st["hijack"]["target"] if st["hijack"] else seat


def _refuse(refusal):
    if refusal:
        raise IllegalAction(*refusal)


def act_draw(turn, seat, action):
    if not turn.state["stack"]:
        raise IllegalAction("stack_empty", "the face-down stack is empty: probe with a face-up tile")
    _program(turn, seat, "probe")
    P.draw(turn)


def act_place(turn, seat, action):
    st = turn.state
    if st["held"] is None:
        raise IllegalAction("no_drawn_tile", "place follows a Probe that drew from the face-down stack")
    _refuse(P.place_refusal(st, st["held"], action))
    P.place(turn, st["held"], "held", action)


def act_probe(turn, seat, action):
    st = turn.state
    source = P.probe_source(st, action.get("tile"))
    if source is None:
        raise IllegalAction("tile_not_face_up", "probe takes one of the face-up tiles beside the stack "
                            "(or draw from the stack)")
    _refuse(P.place_refusal(st, action["tile"], action))
    _program(turn, seat, "probe")
    P.place(turn, action["tile"], source, action)


def act_spawn(turn, seat, action):
    st = turn.state
    owner = _owner(st, seat)
    cell = key(action.get("x"), action.get("y"))
    _refuse(P.spawn_refusal(st, owner, cell))
    _program(turn, seat, "spawn")
    index = st["players"][owner]["avatars"].index(None)
    turn.emit({"f": "spawn", "seat": owner, "avatar": index, "at": cell})


def act_login(turn, seat, action):
    st = turn.state
    owner = _owner(st, seat)
    cell = key(action.get("x"), action.get("y"))
    index = P.integer(action, "avatar")
    _refuse(P.login_refusal(st, owner, index, cell))
    _program(turn, seat, "login")
    turn.emit({"f": "login", "seat": owner, "avatar": index, "at": cell})


def act_link(turn, seat, action):
    st = turn.state
    owner = _owner(st, seat)
    cell, moved = key(action.get("x"), action.get("y")), action.get("from")
    _refuse(P.link_refusal(st, owner, cell, moved))
    _program(turn, seat, "link")
    turn.emit({"f": "link", "seat": owner, "at": cell, "from": moved})


def act_firewall(turn, seat, action):
    st = turn.state
    owner = _owner(st, seat)
    cell, side, moved = key(action.get("x"), action.get("y")), P.integer(action, "side"), action.get("from")
    _refuse(P.firewall_refusal(st, owner, cell, side, moved))
    _program(turn, seat, "firewall")
    turn.emit({"f": "firewall", "seat": owner, "at": [cell, side], "from": moved})


def act_remap(turn, seat, action):
    st = turn.state
    cell = action.get("from")
    _refuse(P.remap_refusal(st, cell, action))  # an impossible remap is cancelled: it costs no program
    _program(turn, seat, "remap")
    turn.emit({"f": "remap", "from": cell, "at": key(action["x"], action["y"]), "rot": action["rot"]})


def act_end_session(turn, seat, action):
    if not turn.state["hijack"]:
        raise IllegalAction("no_hijacked_session", "there is no hijacked session to end")
    turn.emit({"f": "hijack_end"})


def act_end_turn(turn, seat, action):
    """With card duels, ending the turn is the active seat's pass: 'Fast: ... on any player's
    turn, during the Action Phase', so before the Action Phase closes every other seat, in
    turn order, gets priority once to play a Fast card or pass (README 32). The engine's pass
    would count passes made before the programs executed since, so the priority is handed on
    here with this pass as the first of the round."""
    st = turn.state
    if st["cards"] is None:
        _end_turn(turn, seat)
        return
    order = hc.participants(st["cards"])  # everyone, in turn order from the active seat
    if not st["cards"]["turn"]["acted"]:
        # the Action Phase has run: a Fast card that reopens it leaves no Refresh or Reboot,
        # which forego the phase ("you can not play any cards or take any other Actions")
        turn.emit({"f": "duel", "fact": {"f": "hc.acted"}})
    turn.emit({"f": "closing", "on": True})
    turn.emit({"f": "duel", "fact": {"f": "hc.priority", "seat": order[1], "passes": 1}})


def act_done(turn, seat, action):
    if not turn.state["puzzle"]:
        raise IllegalAction("puzzle_only", "only the Engineering Puzzle player declares being done; end your turn")
    turn.emit({"f": "over", "reason": "puzzle_done", "winners": [0], "puzzle": puzzle_score(turn.state)})


def act_reboot(turn, seat, action):
    """'You can skip the Action phase in your turn to reboot ... remove any number of your
    Avatars from the board. You may not remove Links or Firewalls.'"""
    st = turn.state
    if st["acted"] or st["cards"] is not None and st["cards"]["turn"]["acted"]:
        raise IllegalAction("reboot_instead_of_acting", "rebooting replaces the whole Action Phase: "
                            "you have already executed a program, played a card or attacked this turn")
    chosen = action.get("avatars")
    avatars = st["players"][seat]["avatars"]
    if not isinstance(chosen, list) or len(set(map(str, chosen))) != len(chosen) or \
            any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(avatars) or avatars[i] is None for i in chosen):
        raise IllegalAction("reboot_avatars", '"avatars" lists distinct indexes of your Avatars on the board')
    cards = C.reboot_choice(st, seat, action) if st["cards"] is not None else None
    turn.emit({"f": "reboot", "seat": seat, "avatars": sorted(chosen)})
    if cards is not None:
        C.reboot_cards(turn, seat, *cards)
    _end_turn(turn, seat)


# ---------------------------------------------------------------------------------------
# Hacking (its targets and results: rules_hacking.py; card duels: rules_cards.py)
# ---------------------------------------------------------------------------------------

def act_attack(turn, seat, action):
    st = turn.state
    if st["attacked"] and st["cards"] is None:
        raise IllegalAction("one_bit_duel_per_turn", "a player may only initiate one bit duel per turn")
    target, defenders = attack_target(st, seat, action)
    if st["teams"] and partner(st, seat) in ([target["seat"]] if target["kind"] == "avatar" else target["owners"]):
        raise IllegalAction("no_attack_on_partner", "partners can not voluntarily attack each other")
    if st["cards"] is not None:
        C.card_attack(turn, seat, action, target, defenders)
        return
    turn.emit({"f": "attack", "seat": seat, "target": target, "defenders": defenders})
    if not defenders:
        # "To destroy your own Firewall or Link, simply play a Base Attack and decline to defend."
        resolve(turn, success=True)
        return
    _duel, facts = ENGINES[st["duels"]].start({"target": target}, seat, defenders, turn.rng)
    for fact in facts:
        turn.emit({"f": "duel", "fact": fact})
    _resolve_if_decided(turn)


def act_duel(turn, seat, action):
    st = turn.state
    if st["cards"] is not None:
        C.card_duel(turn, seat, action.get("duel"))
        if st["cards"]["turn"]["phase"] == "ended":
            if st["hijack"]:
                turn.emit({"f": "hijack_end"})  # the remainder of the turn is lost, the session with it
            _end_turn(turn, st["turn"])
        elif st["closing"]:
            _closing(turn, action["duel"])
        return
    if st["duel"] is None:
        raise IllegalAction("no_duel", "there is no duel under way")
    engine = ENGINES[st["duels"]]
    for fact in engine.decide(st["duel"], seat, action.get("duel"), turn.rng):
        turn.emit({"f": "duel", "fact": fact})
    _resolve_if_decided(turn)


def _closing(turn, played):
    """The others' window before the turn ends: when all of them passed, the turn ends; a card
    played in it reopens the Action Phase (priority comes back to the active seat once all
    pass on that card, and the turn ends only when it ends the turn again)."""
    st = turn.state
    if played.get("type") not in ("pass", "prefer"):
        turn.emit({"f": "closing", "on": False})
    elif D.at_home(st["cards"], st["turn"]):
        _end_turn(turn, st["turn"])


def _resolve_if_decided(turn):
    st = turn.state
    side = ENGINES[st["duels"]].result(st["duel"])
    if side is not None:
        resolve(turn, success=side == "attacker")


# What `advance` needs of a game: the lookahead's copy is decided in place.
_THIS_GAME = SimpleNamespace(decide=decide, evolve=evolve)

ACTIONS = {
    "draw": act_draw, "place": act_place, "probe": act_probe, "spawn": act_spawn, "login": act_login,
    "link": act_link, "firewall": act_firewall, "remap": act_remap, "attack": act_attack, "duel": act_duel,
    "reboot": act_reboot, "end_session": act_end_session, "end_turn": act_end_turn, "done": act_done,
}


# ---------------------------------------------------------------------------------------
# legal_actions
# ---------------------------------------------------------------------------------------

def legal_actions(state, seat):
    if seat not in to_act(state):
        return []
    if state["duel"] is not None:
        return [{"type": "duel", "duel": a} for a in ENGINES[state["duels"]].legal_actions(state["duel"], seat)]
    if state["held"] is not None:
        return P.options_place(state)
    card_actions, engine_listed = [], []
    if state["cards"] is not None and not state["hijack"]:
        engine_listed = hc.legal_actions(state["cards"], seat)
        card_actions, home = C.card_options(state, seat, engine_listed)
        if not home:
            return card_actions
    owner = _owner(state, seat)
    actions = []
    used = state["hijack"]["programs"] if state["hijack"] else state["programs"]
    if state["puzzle"] or used < PROGRAMS_PER_TURN:
        if state["stack"]:
            actions.append({"type": "draw"})
        actions += P.options_probe(state)
        if not state["puzzle"]:
            actions += P.options_spawn(state, owner) + P.options_login(state, owner) + \
                P.options_link(state, owner) + P.options_firewall(state, owner)
        actions += P.options_remap(state)
    if state["puzzle"]:
        return actions + [{"type": "done"}]
    if state["hijack"]:
        return actions + [{"type": "end_session"}]
    if state["cards"] is not None:
        actions += C.card_attack_options(state, seat, engine_listed)
        if not state["acted"] and not state["cards"]["turn"]["acted"]:
            actions += reboot_options(state, seat)
        return actions + card_actions + [{"type": "end_turn"}]
    if not state["attacked"]:
        actions += attack_options(state, seat)
    if not state["acted"]:
        actions += reboot_options(state, seat)
    return actions + [{"type": "end_turn"}]


def default_action(state, seat):
    """The least a seat can do when it must move and does not (a clock ran out): end the
    turn (or the hijacked session, or the puzzle); a drawn tile is placed first."""
    legal = legal_actions(state, seat)
    for kind in ("end_session", "end_turn", "done"):
        if {"type": kind} in legal:
            return {"type": kind}
    return legal[0]


def reboot_options(state, seat):
    placed = [i for i, cell in enumerate(state["players"][seat]["avatars"]) if cell is not None]
    subsets = [[]]
    for index in placed:
        subsets += [s + [index] for s in subsets]
    found = [{"type": "reboot", "avatars": s} for s in sorted(subsets, key=lambda s: (len(s), s))]
    if state["cards"] is None:
        return found
    return C.reboot_card_options(state, seat, found)
