"""The global turn: Planning (draw, draft, resources, haste), Battle (attack, priority
windows, blocks, combat, after combat; two phases in 1v1 and teams, intent cards in FFA),
Regroup, Deployment and End of turn. state["step"] is what is being done now and
state["script"] what follows; automatic steps run at once, the others wait for actions."""

from .battle import arrive, combat, incoming, place_attack
from .cards import name_of
from .effects import check_deaths, draw, leave_play, make_item, resolve, to_bin
from .state import (PACK_SIZE, abilities, clockwise_from, home, living, next_living,
                    priority_groups, region_order, team_of, units_in)

OPENING_HAND = 6  # 4 cards plus the 2 draws of the first turn, dealt together
WAITING = ("draft", "resources", "haste", "attack", "block", "form", "deploy", "cube", "pick", "build")


def active_seats(state):
    """Everyone living, except that in the Archenemy's opening turns only the Archenemy plays."""
    if state["turn"] <= state["solo_turns"]:
        return [0]
    return living(state)


def initiative_team(state):
    return team_of(state, state["initiative"])


def turn_script(state):
    seats = active_seats(state)
    # each step its own list: a search's playout keeps its state from step to step, so no two
    # places in it may share one
    script = [{"k": "turn_start"}, {"k": "draft", "seats": list(seats)}, {"k": "resources", "seats": list(seats)},
              {"k": "haste", "seats": list(seats)}]
    if state["turn"] > state["solo_turns"]:
        script.append({"k": "battle"})
    script.append({"k": "regroup"})
    if state["setup"] == "ffa":
        script.append({"k": "deploy", "seats": list(seats)})
    else:  # the Initiative team deploys first, then the other team
        it = [s for s in clockwise_from(state, state["initiative"])
              if s in seats and team_of(state, s) == initiative_team(state)]
        script.append({"k": "deploy", "seats": it})
        rest = [s for s in clockwise_from(state, state["initiative"]) if s in seats and s not in it]
        if rest:
            script.append({"k": "deploy", "seats": rest})
    script.append({"k": "end_of_turn"})
    return script


def advance(state, rng, checked=False):
    """Run automatic steps until one waits for players (or the game is over). `checked`: the
    caller has just run `eliminate` and it put nobody out, so a check now would change nothing
    (its death check found the board clean; no life, team or window has changed since): every
    decision checked the same state twice (issue 32)."""
    while not state["over"]:
        if not checked:
            eliminate(state)
        checked = False
        if state["over"] or state["choice"]:
            return  # a choice pauses whatever is happening (an effect resolving, combat damage)
        step = state["step"]
        if step is None:
            if not state["script"]:
                state["script"] = turn_script(state)
            state["step"] = state["script"].pop(0)
            _begin(state, state["step"])
            continue
        if step["k"] == "window":
            if state["window"] and not priority_groups(state, state["window"]["region"]):
                state["window"] = None  # nobody is left in that region
            if state["window"] is None:
                state["step"] = None
                continue
            # triggered by the action or the effect resolving just now: on top of the stack (each
            # has started priority again already: an action keeps it, a resolution restarts it)
            put_triggered(state, state["window"]["region"])
            return
        if step["k"] in WAITING:
            if any(s in living(state) for s in waiting_seats(state)):
                return
            _finish(state, step, rng)
        state["step"] = None


def waiting_seats(state):
    step = state["step"]
    if state["over"] or not step:
        return []
    if state["choice"]:
        return state["choice"]["queue"][:1]
    if step["k"] == "window":
        groups = priority_groups(state, state["window"]["region"])
        if not groups:
            return []
        return groups[state["window"]["holder"] % len(groups)]
    return [s for s in step["seats"] if s not in state["done"] and not state["players"][s]["out"]]


def _begin(state, step):
    kind = step["k"]
    state["done"] = []
    if kind == "turn_start":
        _turn_start(state)
    elif kind == "draft":
        _draft_start(state, step)
    elif kind == "cube":
        cube_round_start(state)
    elif kind == "build":
        state["done"] = [s for s in step["seats"] if len(state["players"][s]["hand"]) <= 30]
    elif kind == "battle":
        _battle_start(state)
    elif kind == "window":
        state["window"] = {"region": step["region"], "stage": step["stage"], "holder": 0, "passes": 0}
        put_triggered(state, step["region"])  # triggered earlier (in combat, say): beneath "After combat"
        if step["stage"] == "after_combat":
            _after_combat_triggers(state, step["region"])
    elif kind == "block":
        for seat in step["seats"]:
            if not any(incoming(state, seat, r) for r in _defended(state, seat, step)):
                state["done"].append(f"blocks:{seat}")
        if not step.get("counter"):
            state["done"] += [f"attack:{s}" for s in step["seats"]]
        state["done"] += [s for s in step["seats"] if {f"blocks:{s}", f"attack:{s}"} <= set(state["done"])]
    elif kind == "combat":
        combat(state, step["region"])
    elif kind == "phase2":
        _phase2(state)
    elif kind == "regroup":
        _regroup(state)
    elif kind == "end_of_turn":
        _end_of_turn(state)


def _defended(state, seat, step):
    return [step["region"]] if step.get("region") else [home(state, seat)]


def _finish(state, step, rng):
    kind = step["k"]
    if kind == "draft":
        _draft_end(state)
    elif kind == "cube":
        _cube_round_end(state, rng)
    elif kind == "pick":
        _picked(state)
    elif kind == "build":
        _decks_drafted(state, rng)
    elif kind == "attack":
        _attacks_declared(state, step)
    elif kind == "block" and step.get("counter"):
        _blocks_declared(state)


# --- planning -------------------------------------------------------------------------------

def _turn_start(state):
    """Refresh resources; draw 2 (not on the first turn: those draws were dealt)."""
    for seat in active_seats(state):
        player = state["players"][seat]
        for resource in player["resources"]:
            resource["expended"] = False
        player["activations"] = 0
    for unit in state["units"].values():
        unit["used"] = []
    for seat in clockwise_from(state, state["initiative"]):
        if seat in active_seats(state) and not _first_turn_of(state, seat):
            draw(state, seat, 2)


def _first_turn_of(state, seat):
    """A player's first turn: their first draws came with the opening deal."""
    return state["turn"] == (1 if seat == 0 or state["solo_turns"] == 0 else state["solo_turns"] + 1)


def _draft_start(state, step):
    if state["format"] in ("constructed", "cube_draft", "traditional_cube"):
        for seat in step["seats"]:
            draw(state, seat, 2)  # drafting in constructed: draw 2, then recycle 2
            state["players"][seat]["recycle_owed"] = min(2, len(state["players"][seat]["hand"]))
            if not state["players"][seat]["recycle_owed"]:
                state["done"].append(seat)
        return
    for deck, seats in _pack_groups(state).items():
        turns = state["pack_turns"].get(deck, 0)
        if turns >= len(seats) + 1:
            _refresh_packs(state, deck, seats)
        elif turns:
            _pass_packs(state, seats)
    for seat in step["seats"]:
        player = state["players"][seat]
        player["exchanges_left"] = min(len(player["hand"]), len(player["pack"]))


def _pack_groups(state):
    """The living players drafting from each deck: everyone from the shared deck in a live
    draft, each team from its own deck in team draft. "After each cycle of N+1 turns, where N
    is the number of players" the packs drawn from a deck are refreshed: N counts the players
    passing them, so a team of one (the Archenemy) refreshes every 2 turns (README I6)."""
    groups = {}
    for seat in living(state):
        if seat in active_seats(state):
            groups.setdefault(state["players"][seat]["deck"], []).append(seat)
    return groups


def _refresh_packs(state, deck, seats):
    for seat in seats:
        player = state["players"][seat]
        state["decks"][deck] += player["pack"]
        player["pack"] = []
    for seat in clockwise_from(state, state["initiative"]):
        if seat in seats:
            state["players"][seat]["pack"] = state["decks"][deck][:PACK_SIZE]
            del state["decks"][deck][:PACK_SIZE]
    state["pack_turns"][deck] = 0


def pack_receiver(state, seat):
    """Packs pass clockwise; in team draft they stay within the team."""
    for other in clockwise_from(state, seat, include=False) + [seat]:
        if state["format"] != "team_draft" or team_of(state, other) == team_of(state, seat):
            return other
    return seat


def _draft_end(state):
    """Each player has drafted from their pack and passes it on, face down: "Packs may only be
    interacted with and looked at during the draft step", so the pack passed to a player
    reaches their hands (and their view) when the next draft step begins (_pass_packs)."""
    if state["format"] not in ("live_draft", "team_draft") or state["turn"] <= state["solo_turns"]:
        return  # the Archenemy's opening turns: nobody to pass a pack to yet
    for deck in _pack_groups(state):
        state["pack_turns"][deck] = state["pack_turns"].get(deck, 0) + 1


def _pass_packs(state, seats):
    """Each pack of these players (who draft from one deck) passes to the next of them."""
    packs = {pack_receiver(state, s): state["players"][s]["pack"] for s in seats}
    for seat in seats:
        state["players"][seat]["pack"] = packs.get(seat, [])


def _cube_round_end(state, rng):
    """Cube draft: after each round the packs pass clockwise; after 15 rounds the hands are
    the 30-card decks and the constructed match begins."""
    cube = state["cube"]
    seats = living(state)
    packs = {next_living(state, s): state["players"][s]["pack"] for s in seats}
    for seat in seats:
        state["players"][seat]["pack"] = packs[seat]
    cube["round"] += 1
    if cube["round"] <= cube["rounds"]:
        state["script"].insert(0, {"k": "cube", "seats": seats})
        return
    for seat in seats:
        cube["pool"] += state["players"][seat]["pack"]
        state["players"][seat]["pack"] = []
    _decks_drafted(state, rng)


def _decks_drafted(state, rng):
    """The drafted 30-card decks are shuffled and the opening hands dealt."""
    for seat in living(state):
        player = state["players"][seat]
        player["deck_list"] = sorted(name_of(c) for c in player["hand"])
        state["decks"][player["deck"]] = rng.shuffle(player["hand"])
        player["hand"] = []
        draw(state, seat, OPENING_HAND)


def deal_traditional_packs(state):
    """Traditional cube draft: each player is dealt the next of their three packs."""
    cube = state["cube"]
    for seat in clockwise_from(state, state["initiative"]):
        state["players"][seat]["pack"] = cube["pool"][:cube["pack_size"]]
        del cube["pool"][:cube["pack_size"]]


def _picked(state):
    """Everyone took a card: the packs pass - left, right, left for the three packs (left is
    clockwise) - until the pack is empty; then the next pack, and after the third the decks
    are built."""
    cube, seats = state["cube"], living(state)
    if any(state["players"][s]["pack"] for s in seats):
        if cube["round"] % 2:
            packs = {next_living(state, s): state["players"][s]["pack"] for s in seats}
        else:
            packs = {s: state["players"][next_living(state, s)]["pack"] for s in seats}
        for seat in seats:
            state["players"][seat]["pack"] = packs[seat]
        state["script"].insert(0, {"k": "pick", "seats": seats})
        return
    cube["round"] += 1
    if cube["round"] <= cube["rounds"]:
        deal_traditional_packs(state)
        state["script"].insert(0, {"k": "pick", "seats": seats})
        return
    state["script"].insert(0, {"k": "build", "seats": seats})


def cube_round_start(state):
    for seat in living(state):
        player = state["players"][seat]
        player["hand"] += state["cube"]["pool"][:2]
        del state["cube"]["pool"][:2]
        player["exchanges_left"] = min(len(player["hand"]), len(player["pack"]))


# --- battle ---------------------------------------------------------------------------------

def _battle_start(state):
    state["battle"] = {"phase": 1, "formations": [], "next": 0, "triggered": []}
    seats = living(state)
    if state["setup"] == "ffa":
        state["script"][0:0] = [{"k": "attack", "seats": seats, "intent": True}]
    else:
        it = [s for s in seats if team_of(state, s) == initiative_team(state)]
        state["script"][0:0] = [{"k": "attack", "seats": it}]


def _attacked_regions(state, seats=None):
    regions = {f["region"] for f in state["battle"]["formations"] if f["region"] is not None
               and (seats is None or f["defender"] in seats)}
    return [r for r in region_order(state) if r in regions]


def _region_battle(state, region, with_attack_window=True):
    steps = [{"k": "window", "region": region, "stage": "attack"}] if with_attack_window else []
    defenders = sorted({f["defender"] for f in state["battle"]["formations"] if f["region"] == region})
    return steps + [{"k": "block", "seats": defenders, "region": region},
                    {"k": "window", "region": region, "stage": "block"},
                    {"k": "combat", "region": region},
                    {"k": "window", "region": region, "stage": "after_combat"}]


def _attacks_declared(state, step):
    if step.get("intent"):
        # All intent cards flip at once and the chosen attacks take place instantly.
        for seat in step["seats"]:
            player = state["players"][seat]
            if player["intent"] is not None and not player["out"]:
                place_attack(state, seat, player["intent"])
            player["intent"] = None
        # FFA: "each region follows the steps of: The attacker sets their units into
        # Formation. There is a priority window ..." - arranged now that the intents are known.
        script = []
        for region in _attacked_regions(state):
            attackers = sorted({f["attacker"] for f in state["battle"]["formations"] if f["region"] == region})
            script += [{"k": "form", "seats": attackers, "region": region}] + _region_battle(state, region)
        state["script"][0:0] = script
        return
    nit = [s for s in living(state) if team_of(state, s) != initiative_team(state)]
    attacked = _attacked_regions(state, nit)
    script = [{"k": "window", "region": r, "stage": "attack"} for r in attacked]
    script.append({"k": "block", "seats": nit, "counter": True})
    state["script"][0:0] = script


def _blocks_declared(state):
    nit = [s for s in living(state) if team_of(state, s) != initiative_team(state)]
    script = []
    for region in _attacked_regions(state, nit):
        script += _region_battle(state, region)[2:]  # blocks are already declared
    script.append({"k": "phase2"})
    state["script"][0:0] = script


def _phase2(state):
    state["battle"]["phase"] = 2
    arrive(state)
    it = [s for s in living(state) if team_of(state, s) == initiative_team(state)]
    # "The NIT puts their attacking units into formation" before the first window.
    counter = sorted({f["attacker"] for f in state["battle"]["formations"] if f["defender"] in it})
    script = [{"k": "form", "seats": counter}] if counter else []
    for region in _attacked_regions(state, it):
        script += _region_battle(state, region)
    state["script"][0:0] = script


def _stack_order(state):
    """Where a player's simultaneous triggers go on the stack: "NIT effects will enter the
    stack last and resolve before IT effects" (Q&A). The whole Initiative team is IT (a
    partner of the initiative player too), then each side's players clockwise from the
    initiative player; a player's own in the order they triggered (README L1)."""
    order = clockwise_from(state, state["initiative"])
    it = initiative_team(state)
    return lambda controller: (team_of(state, controller) != it, order.index(controller))


def _after_combat_triggers(state, region):
    """After combat abilities go on the stack; the Initiative side's first, so the others'
    (entering last) resolve first."""
    side = _stack_order(state)
    triggered = []
    for uid in units_in(state, region):
        unit = state["units"][uid]
        for part in abilities(state, uid):
            effects = part.get("triggers", {}).get("after_combat")
            if effects:
                triggered.append((side(unit["controller"]), uid, effects))
    for _, uid, effects in sorted(triggered, key=lambda t: t[:2]):
        state["stack"].append(make_item(state, state["units"][uid]["controller"], region, "trigger", None, uid, [], [],
                                    effects))


def put_triggered(state, region):
    """The effects triggered in this region that wait for its priority window (a "when I
    despawn", effects.despawned) enter its stack together, as simultaneous triggers (the Q&A's
    order, `_stack_order`); those of other regions wait for their own ("There is zero
    interaction between regions")."""
    battle = state["battle"]
    if not battle or not battle["triggered"]:  # nearly always: read at every step of a window
        return
    waiting = [item for item in battle["triggered"] if item["region"] == region]
    if not waiting:  # those of another region only: read at every step of this window
        return
    battle["triggered"] = [item for item in battle["triggered"] if item["region"] != region]
    state["stack"] += _in_stack_order(state, waiting)


def _in_stack_order(state, items):
    """Simultaneous triggered items, bottom of the stack first (`_stack_order`)."""
    side = _stack_order(state)
    return sorted(items, key=lambda item: side(item["controller"]))


def _triggered_at_battle_end(state):
    """Effects still waiting when the battle ends triggered in a region with no window left
    (one nobody attacked: its owners are alone there): they resolve as regroup begins, before
    anyone returns home, as outside battle (README I15, I30); the Q&A's order, the top first."""
    battle = state["battle"]
    while battle and battle["triggered"]:  # no battle in the Archenemy's solo turns
        waiting, battle["triggered"] = battle["triggered"], []
        for item in reversed(_in_stack_order(state, waiting)):
            state["stack"].append(item)
            resolve(state, item)


def window_passed(state):
    """Priority passes on; when every group has passed in a row, the top effect resolves
    and priority starts again from the first group; with an empty stack the window ends."""
    window = state["window"]
    groups = priority_groups(state, window["region"])
    window["passes"] += 1
    if window["passes"] < len(groups):
        window["holder"] = (window["holder"] + 1) % len(groups)
        return
    if state["stack"]:
        resolve(state, state["stack"][-1])
        window["holder"], window["passes"] = 0, 0
        return
    state["window"] = None


# --- regroup, end of turn -------------------------------------------------------------------

def _regroup(state):
    """Units and players return to their regions; damage, temporary stat changes and
    formations go; spell tokens are erased. Unit tokens persist."""
    _triggered_at_battle_end(state)
    state["battle"] = None
    state["window"] = None
    for unit in state["units"].values():
        unit["region"] = home(state, unit["controller"])
        unit.update(damage=0, deadly_hit=False, temp=[0, 0], temp_attributes=[], protected=False)
    state["spell_tokens"] = {}
    check_deaths(state)


def _end_of_turn(state):
    """End of turn abilities resolve as special actions; then the initiative passes clockwise."""
    for uid in sorted(state["units"]):
        if uid not in state["units"]:
            continue
        unit = state["units"][uid]
        for part in abilities(state, uid):
            effects = part.get("triggers", {}).get("end_of_turn")
            if effects and uid in state["units"]:
                item = make_item(state, unit["controller"], unit["region"], "trigger", None, uid, [], [], effects)
                state["stack"].append(item)
                resolve(state, item)
    if state["turn"] >= state["turn_limit"]:
        state["over"] = "turn_limit"
        return
    if state["turn"] > state["solo_turns"]:
        state["initiative"] = next_living(state, state["initiative"])
    state["turn"] += 1


def eliminate(state):
    """A player at 0 life is out: their permanents leave, their pack is recycled, and the
    neighbouring regions close up. One team left ends the game. Whether a player went out."""
    check_deaths(state)
    someone_out = False
    seats = living(state)
    for seat in seats:
        player = state["players"][seat]
        if player["life"] > 0:
            continue
        player["out"] = someone_out = True
        for uid in sorted(u for u, unit in state["units"].items() if unit["controller"] == seat):
            leave_play(state, uid, "die")
        state["spell_tokens"] = {t: v for t, v in state["spell_tokens"].items() if v["controller"] != seat}
        state["decks"][player["deck"]] += player["pack"]
        player["pack"] = []
        for item in [item for item in state["stack"] if item["controller"] == seat]:
            state["stack"].remove(item)
            if item["card"]:
                to_bin(state, item["card"], item["owner"])
        if state["battle"]:
            state["battle"]["formations"] = [f for f in state["battle"]["formations"] if f["attacker"] != seat]
            state["battle"]["triggered"] = [i for i in state["battle"]["triggered"] if i["controller"] != seat]
    if someone_out:
        seats = living(state)  # else the loop changed nothing: read once, as at every check (issue 32)
    team = state["team"]
    if len({team[s] for s in seats}) <= 1:  # team_of, read without a call: at every check (issue 32)
        state["over"] = "eliminated"
    elif state["window"] and not priority_groups(state, state["window"]["region"]):
        state["window"] = None
    return someone_out
