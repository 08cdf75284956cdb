"""HeroCard Cyberspace, after the Board Game section of rules/herocard-cyberspace.txt, in
the rulebook's order: set-up, the turn (its Action Phase: up to three programs, hacks,
or Rebooting instead), hacking and every result of a successful attack, the final round
and scoring, and the variants (Teams, Handicap, Assistance, Bit Duels, the one-player
Engineering Puzzle), and HeroCard card duels (the default): one HeroCard engine duel in
`state["cards"]` for the whole match, each Cyberspace turn being that seat's HeroCard turn.
Tile geometry is in board.py, the six programs in programs.py, the Bit Duel and the card
duel's set-up in duels.py, scoring in scoring.py.

State is plain JSON. The board holds no secret: the face-down stack is kept as a sorted
list and each draw from it is a fresh fair pick from the match's random stream, written
into the fact, which is the same as drawing the top of a shuffled stack. The card duel's
hands, deck order and face-down Secret Cards are hidden by view.py through the engine's
own redaction. Choices the rulebook leaves open are numbered in README.md.
"""

from domain.kernel.decision import Decision
from domain.kernel.errors import IllegalAction, InvalidSetup

from . import programs as P
from .board import (adjacent_firewall_connections, adjacent_links, firewalls_on, joined, key, link_at,
                    occupants, steps_from)
from domain.games.herocard import engine as hc
from domain.games.herocard.cards import CARDS, HEROES

from . import duels as D
from .duels import ENGINES
from .scoring import PROGRAMS_PER_TURN, puzzle_score, tally, winners
from .tiles import TILES

AVATARS, HANDICAP_AVATARS = 3, 2
FACE_UP = 2
DEFAULT_SIZE = 7
OPTIONS = ("duels", "teams", "assistance", "handicap", "size", "heroes", "fair_start", "discard_queue")
DUELS = ("cards", "bit")  # "cards" (HeroCard card duels) is the default; "bit" is the Bit Duels variant
PROGRAM_ACTIONS = ("draw", "place", "probe", "spawn", "login", "link", "firewall", "remap")
PUZZLE_ACTIONS = ("draw", "place", "probe", "remap", "done")

# ---------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------


def _validate_options(options, seat_names):
    seats = len(seat_names)
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise InvalidSetup(f"unknown Cyberspace options {sorted(unknown)}; known: {', '.join(OPTIONS)}")
    duels = options.get("duels", "cards")
    if duels not in DUELS:
        raise InvalidSetup(f"duels must be one of {list(DUELS)} ('cards' = HeroCard card duels, the default; "
                           f"'bit' = the Bit Duels variant), not {duels!r}")
    teams, assistance = options.get("teams", False), options.get("assistance", False)
    fair_start, discard_queue = options.get("fair_start", False), options.get("discard_queue", False)
    if not all(isinstance(flag, bool) for flag in (teams, assistance, fair_start, discard_queue)):
        raise InvalidSetup("teams, assistance, fair_start and discard_queue are true or false")
    if (fair_start or discard_queue) and (duels != "cards" or seats == 1):
        raise InvalidSetup("Fair Start and Discard Queue are Cyberspace Dueling Variants: they need card duels")
    size = options.get("size", DEFAULT_SIZE)
    if not isinstance(size, int) or isinstance(size, bool) or size % 2 == 0 or not 5 <= size <= 15:
        raise InvalidSetup("size (squares on a side of the play area) is an odd number from 5 to 15")
    handicap = options.get("handicap", [])
    if not isinstance(handicap, list):
        raise InvalidSetup("handicap lists the seats (names or numbers) of the expert players")
    experts = []
    for entry in handicap:
        seat = seat_names.index(entry) if entry in seat_names else entry if isinstance(entry, int) else None
        if seat is None or isinstance(seat, bool) or not 0 <= seat < seats:
            raise InvalidSetup(f"handicap: {entry!r} is neither a seat name nor a seat number")
        experts.append(seat)
    if seats == 1 and (teams or assistance or experts):
        raise InvalidSetup("one player plays the Engineering Puzzle: tiles only, no teams, assistance or handicap")
    if teams and seats != 4:
        raise InvalidSetup("Teams is for exactly 4 players (partners sit opposite: seats 0+2 and 1+3)")
    if assistance and seats not in (3, 4):
        raise InvalidSetup("Assistance is for a three or four person game")
    if assistance and duels == "bit":
        raise InvalidSetup("Assistance is playing a Fast Action Card for the losing side of an attack; Bit Duels "
                           "remove the Action Decks, so there is nothing to assist with: assistance needs card "
                           "duels (duels 'cards'), not duels 'bit'")
    if assistance and teams:
        raise InvalidSetup("Assistance is for players outside the conflict; in Teams every player is on a side")
    heroes = options.get("heroes")
    if heroes is not None:
        if seats == 1 or duels != "cards":
            raise InvalidSetup("heroes are picked for card duels only (not with duels 'bit' or the puzzle)")
        if not isinstance(heroes, list) or len(heroes) != seats or any(h not in HEROES for h in heroes):
            raise InvalidSetup(f"heroes lists one Hero per seat among {sorted(HEROES)}")
    return {"duels": None if seats == 1 else duels, "teams": teams, "assistance": assistance, "size": size,
            "handicap": sorted(set(experts)), "heroes": heroes, "fair_start": fair_start,
            "discard_queue": discard_queue}


def setup(options, seat_names, rng):
    chosen = _validate_options(options, seat_names)
    seats = len(seat_names)
    stack = sorted(TILES)
    face_up = []
    for _ in range(FACE_UP):  # "Draw the top two tiles, and place them face up on either side of the stack."
        face_up.append(stack.pop(rng.randbelow(len(stack))))
    first = rng.randbelow(seats)  # "Randomly determine who starts."
    heroes = chosen.pop("heroes")
    cards = None
    if chosen["duels"] == "cards":
        # "Pick a Hero and corresponding Action Deck ... Shuffle your Action Deck and draw 7 cards."
        heroes = D.heroes_for(heroes, seats, rng)
        cards = D.new_card_duel(heroes, first, rng, teams=chosen["teams"], assistance=chosen["assistance"],
                                fair_start=chosen["fair_start"], discard_queue=chosen["discard_queue"])
    players = [{"avatars": [None] * (HANDICAP_AVATARS if seat in chosen["handicap"] else AVATARS),
                "links": [], "firewalls": []} for seat in range(seats)]
    return {
        "seats": seats, "puzzle": seats == 1, **chosen,
        "board": {}, "stack": stack, "face_up": face_up, "waiting": [], "held": None,
        "players": players, "first": first, "turn": first, "turn_number": 1,
        "programs": 0, "menu": [], "attacked": False, "acted": False,
        "hijack": None, "attack": None, "duel": None, "last_duel": None,
        "final_round": False, "last_seat": None, "final_turn": False,
        "tallies": [None] * seats, "over": None, "winners": None, "puzzle_score": None,
        "cards": cards,
    }


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
    elif kind == "turn":
        state.update(turn=fact["seat"], final_turn=fact["final"], turn_number=state["turn_number"] + 1,
                     programs=0, menu=[], attacked=False, acted=False)
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


def partner(state, seat):
    return (seat + 2) % 4 if state["teams"] else None


class Turn(Decision):
    def __init__(self, state, rng):
        super().__init__(state, rng, evolve)


def _end_turn(turn, seat):
    """'On each player's last turn, he or she tallies their score'; the final round ends
    with the final turn of whoever emptied the stack."""
    st = turn.state
    if st["final_turn"]:
        turn.emit({"f": "tally", "seat": seat, **tally(st, seat)})
        if seat == st["last_seat"]:
            turn.emit({"f": "over", "reason": "final_round_scored", "winners": winners(st)})
            return
    following = (seat + 1) % st["seats"]
    turn.emit({"f": "turn", "seat": following, "final": st["final_round"]})
    if st["cards"] is not None:
        # The four phases: the new seat's HeroCard turn begins (Discard, Draw, Clear ...).
        _emit_cards(turn, hc.start_turn(st["cards"], following, turn.rng))
        if st["cards"]["turn"]["phase"] == "ended":
            # "you lose the remainder of your turn as well as the entirety of your next turn"
            _end_turn(turn, following)


def _emit_cards(turn, facts):
    """Record the engine's facts in order; then give the board what the duel decided: each
    resolved Attack Sequence hacks its target (or destroys it), a purged Base Attack cancels
    the hack, a turn the engine gave up (a refresh, a wrongly played Secret Card) ends."""
    st = turn.state
    resolved = []
    for fact in facts:
        duplicate = fact["f"] == "hc.resolved" and st["cards"]["sequence"]["duplicate"]
        turn.emit({"f": "duel", "fact": fact})
        if fact["f"] == "hc.resolved":
            resolved.append((duplicate, fact))
        elif fact["f"] == "hc.cancel" and st["attack"] is not None:
            turn.emit({"f": "attack_cancelled"})
    for duplicate, fact in resolved:
        if not duplicate:
            _resolve(turn, success=fact["success"])
            continue
        # A duplicate: "you are the owner of this attack, and you gain the benefits if the
        # duplicate attack succeeds" -- its owner hacks the target player's session.
        turn.emit({"f": "duplicate_result", "seat": fact["owner"], "target": fact["target"], "success": fact["success"]})
        if fact["success"] and fact["target"] != fact["owner"] and not st["hijack"]:
            turn.emit({"f": "hijack", "target": fact["target"], "by": fact["owner"]})


def _after_action(turn):
    st = turn.state
    if st["hijack"] and st["hijack"]["programs"] >= PROGRAMS_PER_TURN and st["held"] is None:
        turn.emit({"f": "hijack_end"})
    if not st["puzzle"] and not st["stack"] and not st["final_round"] and not st["over"]:
        # "When someone draws the last Network Tile from the face-down stack, the scoring round starts."
        turn.emit({"f": "final_round", "last": st["turn"]})


# ---------------------------------------------------------------------------------------
# decide
# ---------------------------------------------------------------------------------------

def decide(state, seat, action, rng):
    return _decided(state, seat, action, rng).facts


def lookahead(state, seat, action, rng):
    """The state after a legal `action`, for a bot's what-ifs (one copy, not two)."""
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
        raise IllegalAction("cards_first", _cards_first(st["cards"]))
    if st["puzzle"] and kind not in PUZZLE_ACTIONS:
        raise IllegalAction("puzzle_probe_remap_only", "the Engineering Puzzle uses probe and remap programs only")
    if st["hijack"] and kind not in PROGRAM_ACTIONS + ("end_session",):
        raise IllegalAction("hijacked_session", "you must execute your target's programs (or end the session) "
                            "before playing on: no attacks, no own programs, no end of turn meanwhile")
    handler(turn, seat, action)
    _after_action(turn)
    return turn


def _cards_first(cards):
    phase = cards["turn"]["phase"]
    if phase in ("discard", "draw", "clear"):
        return (f"the turn's phases go Discard, Draw, Clear, Action: this is the {phase} phase "
                '(play it with {"type": "duel", "duel": {...}})')
    if cards["pending"] is not None:
        return "a forced discard must be chosen first"
    if cards["sequence"] is not None or cards["duplicates"]:
        return "an Attack Sequence is open: play cards or pass until all players pass"
    if cards["turn"]["forfeit"]:
        return "a wrongly played Secret Card lost the remainder of this turn"
    return "other players are responding to the last card played: the duel's priority must come back to you"


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
    _end_turn(turn, seat)


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
    cards = _reboot_cards(st, seat, action) if st["cards"] is not None else None
    turn.emit({"f": "reboot", "seat": seat, "avatars": sorted(chosen)})
    if cards is not None:
        # "You may clear some or all of the Action Cards from your Attribute Stacks. Each card
        # that is cleared must be at the top of its Attribute Stack. In addition, you may
        # discard your entire hand and draw a new hand of seven cards."
        clears, refresh = cards
        step = hc.Turn(st["cards"], turn.rng)
        for attribute in clears:
            hc.clear_top(step, seat, attribute)
        hand = list(step.state["players"][seat]["hand"])
        if refresh and hand:
            step.emit({"f": "hc.discard", "seat": seat, "cards": hand})
        if refresh:
            hc.draw(step, seat, hc.HAND_LIMIT - len(step.state["players"][seat]["hand"]))
        _emit_cards(turn, step.facts)
    _end_turn(turn, seat)


def _reboot_cards(st, seat, action):
    clears, refresh = action.get("clear"), action.get("refresh")
    stacks = st["cards"]["players"][seat]["stacks"]
    if not isinstance(clears, list) or any(a not in stacks for a in clears) or \
            any(clears.count(a) > len(stacks[a]) for a in stacks):
        raise IllegalAction("reboot_clear", '"clear" names Attribute Stacks (body, mind, x), once per top card '
                            "cleared from it (at most every card on it)")
    if not isinstance(refresh, bool):
        raise IllegalAction("reboot_refresh", '"refresh" is true (discard your entire hand and draw seven) or false')
    return sorted(clears, key=list(stacks).index), refresh


# ---------------------------------------------------------------------------------------
# Hacking
# ---------------------------------------------------------------------------------------

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
        if not any(_same_connection(st, wall, [cell, side]) for m in mine
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


def _same_connection(st, a, b):
    return a == b or joined(st["board"], a[0], a[1]) == b[0] and (a[1] + 2) % 4 == b[1]


def act_attack(turn, seat, action):
    st = turn.state
    if st["attacked"] and st["cards"] is None:
        raise IllegalAction("one_bit_duel_per_turn", "a player may only initiate one bit duel per turn")
    target, defenders = attack_target(st, seat, action)
    if st["teams"] and partner(st, seat) in ([target["seat"]] if target["kind"] == "avatar" else target["owners"]):
        raise IllegalAction("no_attack_on_partner", "partners can not voluntarily attack each other")
    if st["cards"] is not None:
        _card_attack(turn, seat, action, target, defenders)
        return
    turn.emit({"f": "attack", "seat": seat, "target": target, "defenders": defenders})
    if not defenders:
        # "To destroy your own Firewall or Link, simply play a Base Attack and decline to defend."
        _resolve(turn, success=True)
        return
    _duel, facts = ENGINES[st["duels"]].start({"target": target}, seat, defenders, turn.rng)
    for fact in facts:
        turn.emit({"f": "duel", "fact": fact})
    _resolve_if_decided(turn)


def _card_attack(turn, seat, action, target, defenders):
    """'To attack, play your Base Attack (and Attack Mods, if desired). Your opponent can play
    cards to defend, and the duel proceeds as described in the HeroCard Core Rules.' The
    attack names its board target and the cards (a Base Attack, alone or in a set with Attack
    Mods); the target's owner(s) defend; no defender (your own Firewall or Link) means you
    'decline to defend'."""
    st = turn.state
    played = action.get("cards")
    if not isinstance(played, list) or not any(isinstance(c, str) and CARDS.get(c, {}).get("kind") == "base_attack"
                                               for c in played):
        raise IllegalAction("attack_needs_base_attack", 'a hack is played with a Base Attack: "cards" lists a '
                            "Base Attack from your hand (and any Attack Mods played with it as a set)")
    play = {"type": "play", "cards": list(played)}
    if "attribute" in action:
        play["attribute"] = action["attribute"]
    turn.emit({"f": "attack", "seat": seat, "target": target, "defenders": defenders})
    _emit_cards(turn, hc.decide(st["cards"], seat, play, turn.rng, defenders=defenders))


def _card_duel(turn, seat, action):
    st = turn.state
    if st["hijack"]:
        raise IllegalAction("hijacked_session", "you must execute your target's programs before playing cards")
    if not isinstance(action, dict):
        raise IllegalAction("malformed_action", '"duel" is a HeroCard action object')
    if D.opens_base_attack(st["cards"], seat, action):
        raise IllegalAction("base_attack_needs_board_target", "in Cyberspace a Base Attack hacks an Avatar, a Firewall "
                            'or a Link adjacent to one of yours: play it with {"type": "attack", "target": ..., '
                            '"cards": [...]}')
    if action.get("type") == "pass" and D.at_home(st["cards"], seat):
        raise IllegalAction("nothing_to_pass", "nothing is open to pass on: execute programs, play cards, "
                            "attack, or end your turn")
    if action.get("type") == "refresh":
        if st["acted"]:
            raise IllegalAction("refresh_forgoes_action_phase", "refreshing foregoes your whole Action Phase: "
                                "you have already executed a program or attacked this turn")
    facts = hc.decide(st["cards"], seat, action, turn.rng)
    if any(f["f"] == "hc.open" and not f["duplicate"] for f in facts):
        raise IllegalAction("base_attack_needs_board_target", "in Cyberspace a Base Attack needs a board target")
    _emit_cards(turn, facts)
    if st["cards"]["turn"]["phase"] == "ended":
        if st["hijack"]:
            turn.emit({"f": "hijack_end"})  # the remainder of the turn is lost, the session with it
        _end_turn(turn, st["turn"])


def act_duel(turn, seat, action):
    st = turn.state
    if st["cards"] is not None:
        _card_duel(turn, seat, action.get("duel"))
        return
    if st["duel"] is None:
        raise IllegalAction("no_duel", "there is no duel under way")
    engine = ENGINES[st["duels"]]
    for fact in engine.decide(st["duel"], seat, action.get("duel"), turn.rng):
        turn.emit({"f": "duel", "fact": fact})
    _resolve_if_decided(turn)


def _resolve_if_decided(turn):
    st = turn.state
    side = ENGINES[st["duels"]].result(st["duel"])
    if side is not None:
        _resolve(turn, success=side == "attacker")


def _resolve(turn, success):
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
        card_actions, home = _card_options(state, seat, engine_listed)
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
        actions += card_attack_options(state, seat, engine_listed)
        if not state["acted"] and not state["cards"]["turn"]["acted"]:
            actions += reboot_options(state, seat)
        return actions + card_actions + [{"type": "end_turn"}]
    if not state["attacked"]:
        actions += attack_options(state, seat)
    if not state["acted"]:
        actions += reboot_options(state, seat)
    return actions + [{"type": "end_turn"}]


def _card_options(state, seat, engine_listed):
    """The duel's own actions for `seat` (phases, cards, passes), without Base Attacks (they
    go with a board target, in `attack`), and whether the seat is 'at home'."""
    cards = state["cards"]
    home = D.at_home(cards, seat)
    listed = []
    for action in engine_listed:
        if D.opens_base_attack(cards, seat, action) or (home and action["type"] == "pass") or \
                (action["type"] == "refresh" and state["acted"]):
            continue
        listed.append({"type": "duel", "duel": action})
    return listed, home


def card_attack_options(state, seat, engine_listed=None):
    """Every board target (as with Bit Duels, less the one-a-turn limit: the Base Attack is
    an Exclusive action) with every Base Attack play the duel allows now."""
    cards = state["cards"]
    plays, seen = [], set()
    for action in hc.legal_actions(cards, seat) if engine_listed is None else engine_listed:
        if action["type"] == "play" and action.get("uid") is None and D.opens_base_attack(cards, seat, action):
            play = {"cards": sorted(action["cards"])}
            if "attribute" in action:
                play["attribute"] = action["attribute"]
            marker = repr(sorted(play.items()))
            if marker not in seen:
                seen.add(marker)
                plays.append(play)
    if not plays:
        return []
    return [{**target, **play} for target in attack_options(state, seat) for play in plays]


def default_action(state, seat):
    """The least a seat can do when it must move and does not (a clock ran out): end the
    turn (or the hijacked session, or the puzzle); a drawn tile is placed first."""
    legal = legal_actions(state, seat)
    for kind in ("end_session", "end_turn", "done"):
        if {"type": kind} in legal:
            return {"type": kind}
    return legal[0]


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


def reboot_options(state, seat):
    placed = [i for i, cell in enumerate(state["players"][seat]["avatars"]) if cell is not None]
    subsets = [[]]
    for index in placed:
        subsets += [s + [index] for s in subsets]
    found = [{"type": "reboot", "avatars": s} for s in sorted(subsets, key=lambda s: (len(s), s))]
    if state["cards"] is None:
        return found
    # Listed: clear nothing or every card, refresh or not (any top cards may be named)
    stacks = state["cards"]["players"][seat]["stacks"]
    everything = [a for a, stack in stacks.items() for _ in stack]
    clears = [[]] + ([everything] if everything else [])
    return [{**r, "clear": c, "refresh": f} for r in found for c in clears for f in (False, True)]
