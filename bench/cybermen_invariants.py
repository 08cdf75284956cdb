"""Long random play of Cybermen with what the rulebook implies checked after every action.

    nice -n 10 .venv/bin/python bench/cybermen_invariants.py [matches] [--first-seed N] [--seconds S]

Match i plays seed first_seed + i at 2 + i % 5 seats (or --seats), the seats' bots drawn from the seed
(random, greedy, and "ducks": random play whose groups never run nor defend, so that captures,
conversions, Cyberleaders, Cyberlieutenants and partial conversions come often). Every check
is written from cybermen.txt and the README's designed host, independently of the game's own
code where that is cheap (own breadth-first search for Mind Control; Victory Points recomputed
from what happened, not from the `vp` facts). Prints each violation with its seed and action
number, then a summary."""

import argparse
import random
import sys
import time
from collections import Counter, deque

from domain.games.cybermen import RULESET
from domain.games.cybermen.data import CONST, DATA, FIRST_TAKEN, ITEMS, MAP, SABOTAGE, character
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream

ALL_CARDS = sorted(card for card, n in ITEMS.items() for _ in range(n))
ROWS, COLS = len(MAP), len(MAP[0])
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def ducks(state, seat, rand):
    actions = RULESET.legal_actions(state, seat)
    if state["prompt"] and state["prompt"]["kind"] == "defend":
        return {"type": "submit"}
    if state["phase"] == "group_move" and not state["prompt"] and not state["active"]:
        here = state["groups"][seat]["pos"]
        return next((a for a in actions if a.get("to") == here), actions[0])
    return rand.choice(actions)


def hunters(state, seat, rand):
    """Sitting ducks whose partial conversions hunt the other players' figures (the Cyberleader's
    and Cyberlieutenants' first), so that destroyed Cyberleaders and Cyberlieutenants come often."""
    actions = RULESET.legal_actions(state, seat)
    glitch = [a for a in actions if a["type"] == "glitch"]
    if glitch:
        return glitch[0]
    if state["active"] and state["cybermen"][state["active"]["id"]]["role"] == "partial":
        attacks = [a for a in actions if a["type"] == "attack"]
        if attacks:
            return max(attacks, key=lambda a: (a["target"] in state["cybermen"]
                                               and state["cybermen"][a["target"]]["role"] in ("leader", "lieutenant"),
                                               a["fatigue"]))
    moves = [a for a in actions if a["type"] == "partial_move"]
    if moves:
        def prey(a):
            own = state["cybermen"][a["id"]]["seat"]
            targets = [c["pos"] for c in state["cybermen"].values() if c["seat"] != own]
            ranked = [c["pos"] for c in state["cybermen"].values()
                      if c["seat"] != own and c["role"] in ("leader", "lieutenant")] or targets
            return min((abs(a["to"][0] - p[0]) + abs(a["to"][1] - p[1]) for p in ranked), default=0)
        return min(moves, key=prey)
    return ducks(state, seat, rand)


BOTS = {**RULESET.bots, "ducks": ducks, "hunters": hunters}


def carried(state, seat):
    return [c for cyb in state["cybermen"].values() for c in cyb["carrying"] if character(c)["seat"] == seat]


def in_play(state, seat):
    return bool(state["groups"][seat]["members"]) or bool(carried(state, seat))


def bfs(starts, passable):
    dist = {tuple(s): 0 for s in starts}
    queue = deque(dist)
    while queue:
        r, c = queue.popleft()
        for dr, dc in STEPS:
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < ROWS and 0 <= nxt[1] < COLS and nxt not in dist and passable(nxt):
                dist[nxt] = dist[(r, c)] + 1
                queue.append(nxt)
    return dist


def human_open(state):
    blocked = {tuple(c["pos"]) for c in state["cybermen"].values()} | {tuple(p) for p in state["units"].values()}
    return lambda p: MAP[p[0]][p[1]] in ".E" and p not in blocked


class Checker:
    def __init__(self, state, seed):
        self.seed = seed
        self.seats = state["seats"]
        self.problems = []
        self.vp = [0] * self.seats  # Victory Points recomputed from events
        self.lieutenant_order = list(state["lieutenants"])
        self.lost = [set() for _ in range(self.seats)]
        self.tried = [set() for _ in range(self.seats)]
        self.stun_pending = [False] * self.seats
        self.stunned_now = None
        self.mind_pending = [False] * self.seats
        self.broke_free = False
        self.spawned_origin = Counter()
        self.tech = state["tech"]
        self.units_count = len(state["units"])
        self.step = 0
        self.counts = Counter()
        self.draws = Counter()
        self.check_state(state)

    def fail(self, text):
        self.problems.append(f"seed {self.seed} seats {self.seats} action {self.step}: {text}")

    # -- after every action -------------------------------------------------------------
    def after(self, before, state, seat, action, facts):
        self.step += 1
        if before["groups"][seat]["status"] == "out":
            self.fail(f"out seat {seat} acted {action}")
        self.check_actor(before, seat, action)
        self.walk_facts(before, state, seat, action, facts)
        self.check_state(state)
        self.check_end(state)

    def check_actor(self, before, seat, action):
        """Who moves Cybermen: with a Cyberleader nobody else moves normal Cybermen."""
        if action["type"] == "cyber_move" and not before["queue"] and before["leader"] is not None:
            if seat != before["leader"]:
                self.fail(f"seat {seat} moved a Cyberman while {before['leader']} is Cyberleader")
        if action["type"] == "use_ability" and not before["queue"] and before["leader"] is not None:
            if seat != before["leader"]:
                self.fail(f"seat {seat} chose an ability user while {before['leader']} is Cyberleader")
        if action["type"] in ("teleport", "unit", "upgrade_tech"):
            self.counts[action["type"]] += 1
            if before["groups"][seat]["status"] != "leader":
                self.fail(f"{action['type']} by a non-leader")
        if action["type"] == "move" and before["groups"][seat]["mind"] and action.get("fatigue"):
            self.fail("a mind-controlled group spent Fatigue")

    def walk_facts(self, before, state, seat, action, facts):
        """Apply the facts one by one to a copy, checking each against the state it meets."""
        now = json_copy(before)
        phase_moves = Counter()
        if action["type"] == "break_free":
            self.broke_free = True
        for fact in facts:
            kind = fact["f"]
            if kind == "turn":
                s = fact["seat"]
                self.check_turn_order(now, s, fact["round"])
                self.stunned_now = s if self.stun_pending[s] else None
                self.stun_pending[s] = False
                self.broke_free = False
                status = now["groups"][s]["status"]
                if status == "out":
                    self.fail(f"out seat {s} given a turn")
            elif kind == "roll" and fact["purpose"] == "move":
                group = now["groups"][now["turn"]]
                plus = any(character(c)["ability"] == "move_plus" for c in group["members"] if c not in self.lost[now["turn"]])
                want = (fact["value"] // 2 if group["injured"] else fact["value"]) + plus
                if fact["allowance"] != want:
                    self.fail(f"movement allowance {fact['allowance']} for roll {fact['value']}, want {want}")
            elif kind == "draw":
                self.draws[fact["seat"]] += 1
            elif kind == "move_group":
                s = fact["seat"]
                if self.stunned_now == s:
                    self.fail(f"stunned group {s} moved")
                group = now["groups"][s]
                if group["mind"] and not self.broke_free:
                    self.check_mind_move(now, s, fact["to"])
                if fact["fatigue"] and group["status"] in ("leader", "lieutenant"):
                    self.fail("leader/lieutenant spent tokens")
            elif kind == "hit":
                s = fact["seat"]
                if fact["effect"] == "stunned":
                    self.stun_pending[s] = True
                abil = {character(c)["ability"] for c in now["groups"][s]["members"] if c not in self.lost[s]}
                immune = {"stunned": "no_stun", "injured": "no_injury", "mind": "mind_shield"}[fact["effect"]]
                if immune in abil:
                    self.fail(f"group {s} hit by {fact['effect']} though immune")
                if not now["groups"][s]["members"]:
                    self.fail(f"hit on an empty group {s}")
                if now["cybermen"][fact["by"]]["role"] == "partial":
                    self.fail("a partial conversion used abilities")
            elif kind == "capture":
                s = character(fact["char"])["seat"]
                members = now["groups"][s]["members"]
                first = [c for c in members if character(c)["key"] in FIRST_TAKEN]
                if first and fact["char"] not in first:
                    self.fail(f"captured {fact['char']} though {first} come first")
                if fact["char"] not in members:
                    self.fail(f"captured {fact['char']} not a free member")
                if now["cybermen"][fact["id"]]["role"] == "partial":
                    self.fail("a partial conversion captured")
                self.lost[s].add(fact["char"])
            elif kind == "attack":
                attacker = now["cybermen"].get(fact["id"])
                target = fact["target"]
                if attacker is None:
                    self.fail(f"attack by missing {fact['id']}")
                elif attacker["role"] == "partial":
                    if target.startswith("group"):
                        self.fail("a partial conversion attacked a human")
                    elif target in now["cybermen"] and now["cybermen"][target]["seat"] == attacker["seat"]:
                        self.fail("a partial conversion attacked its own player's figure")
                else:
                    if target in now["cybermen"] and now["cybermen"][target]["role"] != "partial":
                        self.fail("a Cyberman attacked a non-partial Cyberman")
                    if target in now["units"]:
                        self.fail("a Cyberman attacked a Unit")
                self.pending_attack = (fact, attacker)
            elif kind == "remove_cyberman":
                gone = now["cybermen"][fact["id"]]
                self.score_destroyed(now, fact["id"], gone, facts)
            elif kind == "remove_unit":
                self.units_count -= 1
                self.score_destroyed(now, fact["id"], None, facts)
            elif kind == "unit":
                self.units_count += 1
            elif kind == "escape":
                s = fact["seat"]
                self.vp[s] += CONST["escape_vp"] * len(now["groups"][s]["members"])
                pos = now["groups"][s]["pos"]
                if MAP[pos[0]][pos[1]] != "E" or now["round"] < CONST["exits_open_round"]:
                    self.fail(f"group {s} escaped off an open exit")
            elif kind == "sabotage":
                s = fact["seat"]
                if self.seats not in SABOTAGE["players"]:
                    self.fail("sabotage at a seat count without it")
                if fact["unit"] in self.tried[s]:
                    self.fail(f"group {s} tried {fact['unit']} twice")
                self.tried[s].add(fact["unit"])
                upos, gpos = now["units"][fact["unit"]], now["groups"][s]["pos"]
                if abs(upos[0] - gpos[0]) + abs(upos[1] - gpos[1]) != 1:
                    self.fail("sabotage on a Unit not next to the group")
                if (fact["roll"] >= SABOTAGE["wins_on"]) != fact["success"]:
                    self.fail("sabotage roll and success disagree")
                if fact["success"] and now["groups"][s]["status"] != "lieutenant":
                    self.vp[s] += SABOTAGE["vp"]
            elif kind == "convert":
                pass
            elif kind == "spawn":
                if fact["mark"] != now["tech"]:
                    self.fail(f"spawned {fact['id']} at Mark {fact['mark']}, tech {now['tech']}")
                if fact["id"] in now["cybermen"]:
                    self.fail("spawn over an existing id")
                if fact["origin"]:
                    self.spawned_origin[fact["origin"]] += 1
                    if fact["role"] != "partial" and now["leader"] is not None:
                        leader = now["leader"]
                        if now["groups"][leader]["status"] != "lieutenant":
                            self.vp[leader] += 1
            elif kind == "move":
                phase_moves[fact["id"]] += 1
                cyb = now["cybermen"][fact["id"]]
                if cyb["carrying"] and cyb["role"] != "partial":
                    self.check_carrier_move(now, fact["id"], fact["to"])
                if cyb["role"] == "partial" and now["groups"][cyb["seat"]]["status"] == "out":
                    self.fail("an out player's partial moved")
            elif kind == "phase":
                phase_moves.clear()
                if getattr(self, "expect_draws", None):
                    seat_, want = self.expect_draws
                    if self.draws[seat_] != want or sum(self.draws.values()) != want:
                        self.fail(f"seat {seat_} drew {dict(self.draws)}, want {want}")
                    self.expect_draws = None
            elif kind == "lieutenants":
                new = fact["order"]
                old = now["lieutenants"]
                if new[:len(old)] != old and not set(new) <= set(old):
                    self.fail(f"lieutenant order {old} -> {new}")
            elif kind == "tech":
                if fact["mark"] != now["tech"] + 1:
                    self.fail(f"tech {now['tech']} -> {fact['mark']}")
            now = RULESET.evolve(now, fact)
            if any(n > 1 for n in phase_moves.values()):
                self.fail(f"a Cyberman moved twice in one phase: {phase_moves}")
                phase_moves.clear()
        if now != state:
            self.fail("facts replayed one by one differ from the state")

    def check_turn_order(self, now, seat, round_number):
        """Seats play in order; a seat is skipped only when it takes no more turns (an out
        player, or an escaped or stood-down one without a partial conversion)."""
        def plays(s):
            status = now["groups"][s]["status"]
            partials = any(c["role"] == "partial" and c["seat"] == s for c in now["cybermen"].values())
            return status in ("human", "leader", "lieutenant") or (status in ("escaped", "converted") and partials)
        if not plays(seat):
            self.fail(f"seat {seat} given a turn but plays no more")
        if self.step > 0:
            prev = now["turn"]
            s = (prev + 1) % self.seats
            while s != seat:
                if plays(s):
                    self.fail(f"seat {s} skipped between {prev} and {seat}")
                s = (s + 1) % self.seats
            want_round = now["round"] + (1 if seat <= prev else 0)
            if round_number != want_round:
                self.fail(f"round {now['round']} -> {round_number}")
        # Humans draw 1 (2 with a usable Geek), the Cyberleader 3 (designed), a Cyberlieutenant 1
        group = now["groups"][seat]
        geek = any(character(c)["ability"] == "extra_item" for c in group["members"] if c not in self.lost[seat])
        want = {"human": 2 if geek else 1, "leader": CONST["leader_draw"], "lieutenant": 1}.get(group["status"], 0)
        self.expect_draws = (seat, min(want, len(now["deck"]) + len(now["discard"])))
        self.draws = Counter()

    def score_destroyed(self, now, target, gone, facts):
        """'A destroyed Cyberman, Cyberlieutenant or Cyberconversion Unit is worth 1 Victory Point
        A destroyed Cyberleader is worth 2' to the partial conversion's player; nothing when
        Cybermen destroy a partial, or when an out player's partials leave."""
        attack = getattr(self, "pending_attack", None)
        if attack is None:
            if gone is None or gone["role"] != "partial":
                self.fail(f"{target} removed without an attack")
            return
        fact, attacker = attack
        if gone is not None and gone["role"] == "partial" and fact["target"] != target and fact["id"] != target:
            return  # an out player's partials leaving
        if fact["target"] == target:
            if attacker["role"] == "partial":
                if fact["roll"] + fact.get("fatigue", 0) < CONST["attack_wins_on"]:
                    self.fail("destroyed on a losing roll")
                by = attacker["seat"]
                if now["groups"][by]["status"] != "lieutenant":
                    self.vp[by] += 2 if gone is not None and gone["role"] == "leader" else 1
            elif fact["roll"] < CONST["attack_wins_on"]:
                self.fail("partial destroyed on a losing roll")
        elif fact["id"] == target:
            if attacker["role"] != "partial" or fact["roll"] + fact.get("fatigue", 0) >= CONST["attack_wins_on"]:
                self.fail("attacker destroyed though it won")
        else:
            self.fail(f"{target} removed, not the attack's target or attacker")

    def check_mind_move(self, now, s, to):
        """"Move towards the nearest Cyberman" (in squares) "by the shortest legal route", the
        unobstructed one first among equals (README 37), the whole roll, stopping next to it."""
        group = now["groups"][s]
        passable = human_open(now)
        start = tuple(group["pos"])
        routes = []  # (squares, its route's distances to start, Cyberman)
        for c in now["cybermen"].values():
            dist = bfs([c["pos"]], lambda p: p == start or passable(p))
            if c["role"] != "partial" and start in dist:
                routes.append((abs(c["pos"][0] - start[0]) + abs(c["pos"][1] - start[1]), dist))
        if not routes:
            if list(to) != list(start):
                self.fail("mind-controlled group with no reachable Cyberman moved")
            return
        nearest = min(squares for squares, _ in routes)
        tied = [dist for squares, dist in routes if squares == nearest]
        goals = [dist for dist in tied if dist[start] == nearest] or tied
        from_start = bfs([start], passable).get(tuple(to))
        for dist in goals:
            want = min(now["roll"], dist[start] - 1)
            if dist.get(tuple(to)) == dist[start] - want and from_start == want:
                return
        self.fail(f"mind-controlled group {s} moved {start}->{to}, roll {now['roll']}, not toward a nearest Cyberman")

    def check_carrier_move(self, now, cid, to):
        cyb = now["cybermen"][cid]
        units = [p for p in now["units"].values()]
        if not units:
            return
        start = tuple(cyb["pos"])
        held = Counter(tuple(c["pos"]) for c in now["cybermen"].values())
        groups = {tuple(g["pos"]) for s, g in enumerate(now["groups"]) if in_play(now, s)}
        unit_sq = {tuple(p) for p in units}

        def passable(p):
            if p in unit_sq:
                return True
            return MAP[p[0]][p[1]] in ".E" and p not in groups and (held[p] == 0 or p == start)
        dist = bfs(units, lambda p: p == start or passable(p))
        speed = DATA["marks"][str(cyb["mark"])]["speed"]
        if start not in dist:
            return
        want = min(speed, dist[start])
        if dist.get(tuple(to)) != dist[start] - want:
            self.fail(f"carrier {cid} moved {start}->{to}, speed {speed}, distance {dist[start]}")

    def check_state(self, state):
        seats = self.seats
        for seat, group in enumerate(state["groups"]):
            mine = carried(state, seat)
            held = sorted(group["members"] + group["escaped"] + group["converted"] + mine)
            if held != sorted(f"{seat}.{k}" for k, _, _ in DATA["groups"][seat]["characters"]):
                self.fail(f"characters of {seat} not conserved: {held}")
            if not (0 <= group["escape"] <= 3 and 0 <= group["fatigue"] <= 3 and 0 <= group["injured"] <= 2):
                self.fail(f"tokens out of bounds {seat}")
            if not self.lost[seat] <= set(group["lost"]):
                self.fail(f"a captured character's ability came back: {self.lost[seat]} vs {group['lost']}")
            usable = {character(c)["ability"] for c in group["members"] if c not in self.lost[seat]}
            if RULESET_STATE.abilities(state, seat) != usable:
                self.fail(f"abilities of {seat}: {RULESET_STATE.abilities(state, seat)} vs {usable}")
            for c in group["converted"]:
                if self.spawned_origin[c] != 1:
                    self.fail(f"converted {c} made {self.spawned_origin[c]} Cybermen")
            status = group["status"]
            if (status == "human") != in_play(state, seat):
                self.fail(f"seat {seat} status {status} but in play {in_play(state, seat)}")
            if status in ("leader", "lieutenant", "out"):
                if group["members"] or mine:
                    self.fail(f"{status} with humans")
            if status == "out":
                if any(c["seat"] == seat for c in state["cybermen"].values()):
                    self.fail("an out player still has figures")
            # A Cyberleader's cards are this turn's draw only; a Cyberlieutenant's only its trade phase
            own_phase = state["turn"] == seat and not state["over"]
            if status == "leader" and group["hand"] and not (own_phase and state["phase"] == "leader"):
                self.fail(f"Cyberleader {seat} holds {group['hand']} outside its spending phase")
            if status == "leader" and len(group["hand"]) > CONST["leader_draw"]:
                self.fail("Cyberleader holds more than one turn's draw")
            if status == "lieutenant" and group["hand"] and not (own_phase and state["phase"] == "trade"):
                self.fail(f"Cyberlieutenant {seat} holds {group['hand']}")
            if status == "lieutenant" and len(group["hand"]) > 1:
                self.fail("Cyberlieutenant holds more than one card")
            if in_play(state, seat):
                pos = tuple(group["pos"])
                figures = {tuple(c["pos"]) for c in state["cybermen"].values()} | {tuple(p) for p in state["units"].values()}
                if MAP[pos[0]][pos[1]] not in ".E" or pos in figures:
                    self.fail(f"group {seat} counter on {pos}")
        held = state["deck"] + state["discard"] + [c for g in state["groups"] for c in g["hand"]]
        if sorted(held) != ALL_CARDS:
            self.fail("item cards created or lost")
        if self.units_count != len(state["units"]):
            self.fail(f"units {len(state['units'])} vs counted {self.units_count}")
        if not (self.tech <= state["tech"] <= 5):
            self.fail("tech fell or passed V")
        self.tech = state["tech"]
        squares = Counter(tuple(c["pos"]) for c in state["cybermen"].values())
        units = {tuple(p) for p in state["units"].values()}
        for pos, n in squares.items():
            if MAP[pos[0]][pos[1]] not in ".E":
                self.fail(f"Cyberman on terrain {pos}")
        for cid, c in state["cybermen"].items():
            if not 1 <= c["mark"] <= state["tech"]:
                self.fail(f"{cid} Mark {c['mark']} vs tech {state['tech']}")
            if c["role"] == "partial" and c["carrying"]:
                self.fail("a partial carries")
            if c["role"] in ("leader", "lieutenant", "partial") and c["seat"] is None:
                self.fail("a player's figure without a seat")
            if c["role"] == "normal" and c["seat"] is not None:
                self.fail("a normal Cyberman with a seat")
        leaders = [c["seat"] for c in state["cybermen"].values() if c["role"] == "leader"]
        if state["leader"] is None:
            if leaders:
                self.fail("a leader figure without a Cyberleader")
        else:
            if leaders != [state["leader"]] or state["tech"] < 2:
                self.fail(f"Cyberleader {state['leader']} figures {leaders} tech {state['tech']}")
            if state["groups"][state["leader"]]["status"] != "leader" and not state["prompt"]:
                self.fail("Cyberleader's status")
        lts = sorted(c["seat"] for c in state["cybermen"].values() if c["role"] == "lieutenant")
        if lts != sorted(state["lieutenants"]) or len(set(lts)) != len(lts):
            self.fail(f"lieutenant figures {lts} vs {state['lieutenants']}")
        for seat, group in enumerate(state["groups"]):
            if (group["status"] == "lieutenant") != (seat in state["lieutenants"]):
                self.fail(f"lieutenant status of {seat}")
        # Oldest first: the order only ever appends new ones and drops from anywhere
        order = state["lieutenants"]
        kept = [s for s in self.lieutenant_order if s in order]
        if order[:len(kept)] != kept:
            self.fail(f"lieutenant order changed {self.lieutenant_order} -> {order}")
        self.lieutenant_order = list(order)
        if state["prompt"] and state["groups"][state["prompt"]["seat"]]["status"] == "out":
            self.fail("a prompt to an out player")
        if not state["over"]:
            acting = RULESET.to_act(state)
            if len(acting) != 1:
                self.fail(f"to_act {acting}")
            for s in acting:
                if state["groups"][s]["status"] == "out":
                    self.fail(f"out seat {s} is to act")
        for seat in range(seats):
            if state["groups"][seat]["vp"] != self.vp[seat]:
                self.fail(f"VP of {seat}: {state['groups'][seat]['vp']}, recomputed {self.vp[seat]}")
                self.vp[seat] = state["groups"][seat]["vp"]
        self.pending_attack = None

    def check_end(self, state):
        result = RULESET.outcome(state)
        humans = any(in_play(state, s) for s in range(self.seats))
        if result is None:
            if not humans:
                self.fail("no human left but the game goes on")
            if state["round"] > CONST["round_limit"]:
                self.fail("past the round limit")
            return
        playing = [s for s in range(self.seats) if state["groups"][s]["status"] != "out"]
        points = result["victory_points"]
        best = max((points[s] for s in playing), default=None)
        if result["winners"] != [s for s in playing if points[s] == best]:
            self.fail(f"winners {result['winners']} vs points {points} playing {playing}")
        if result["reason"] == "round_limit":
            if state["round"] != CONST["round_limit"] or not humans:
                self.fail(f"round_limit at round {state['round']} humans {humans}")
        elif result["reason"] == "no_humans_left":
            if humans:
                self.fail("no_humans_left with humans in play")
        else:
            self.fail(f"reason {result['reason']}")


from domain.games.cybermen import state as RULESET_STATE  # noqa: E402


def play(seed, seats, bots):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    checker = Checker(state, seed)
    for seq in range(2, 20_000):
        if RULESET.outcome(state) is not None:
            return checker, state
        acting = sorted(RULESET.to_act(state))
        seat = acting[0] if len(acting) == 1 else rand.choice(acting)
        action = BOTS[bots[seat]](state, seat, rand)
        before = json_copy(state)
        facts = RULESET.decide(state, seat, action, RandomStream(key, "m", seq))
        for fact in facts:
            state = RULESET.evolve(state, fact)
        checker.after(before, state, seat, action, facts)
    checker.fail("no end in 20,000 actions")
    return checker, state


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("matches", type=int, nargs="?", default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=540)
    parser.add_argument("--bots", default="random,greedy,ducks,hunters", help="drawn from for every seat")
    parser.add_argument("--seats", type=int, default=None, help="every match at this many seats")
    args = parser.parse_args()
    start = time.process_time()
    totals, reasons, roles = Counter(), Counter(), Counter()
    problems = []
    played = 0
    for i in range(args.matches):
        seed = args.first_seed + i
        seats = args.seats or 2 + i % 5
        rand = random.Random(seed * 7919)
        bots = [rand.choice(args.bots.split(",")) for _ in range(seats)]
        checker, state = play(seed, seats, bots)
        played += 1
        reasons[state["over"]] += 1
        totals["actions"] += checker.step
        totals.update(checker.counts)
        for g in state["groups"]:
            roles[g["status"]] += 1
        roles["partials_left"] += sum(c["role"] == "partial" for c in state["cybermen"].values())
        totals["sabotage_tries"] += sum(len(t) for t in checker.tried)
        for p in checker.problems[:5]:
            print(p, flush=True)
        problems += checker.problems
        if time.process_time() - start > args.seconds:
            break
    print(f"matches {played} (seeds {args.first_seed}-{args.first_seed + played - 1}), "
          f"actions {totals['actions']}, CPU {time.process_time() - start:.0f} s")
    print("end reasons", dict(reasons))
    print("final statuses", dict(roles))
    print("leader spends / sabotage tries", {k: totals[k] for k in ("teleport", "unit", "upgrade_tech", "sabotage_tries")})
    print(f"violations {len(problems)}")
    kinds = Counter(p.split(": ", 1)[1].split(" ")[0:4].__str__() for p in problems)
    for k, n in kinds.most_common(20):
        print(n, k)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
