"""Random play to the end for the puzzle, 2, 3 and 4 players and every variant, with what the
rulebook implies checked after every action (24 tiles neither created nor lost, every
touching pair of sides matching inside the play area, three programs a turn, one bit duel
a turn, three Access Tokens, Avatars on distinct nodes, the final round and the tallies
consistent); replay equals live play; views show nothing of the face-down stack; actions
that are not legal are refused with a code naming the rule, never a crash."""

import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.board import (centre, coords, firewalls_on, in_area, is_pendant, is_port, joined, neighbour,
                                           opposite, placements, sides_of)
from domain.games.cyberspace.scoring import winners
from domain.games.cyberspace.tiles import TILES
from domain.kernel.canonical import json_copy
from domain.kernel.errors import IllegalAction
from domain.kernel.rng import RandomStream
from tests.games.replay import play_and_replay, random_play
from tests.sizing import examples

BIT = {"duels": "bit"}
BIT_MODES = [({}, 1), (BIT, 2), (BIT, 3), (BIT, 4), ({**BIT, "teams": True}, 4), ({**BIT, "handicap": [0, 2]}, 3),
             ({**BIT, "size": 5}, 2), ({**BIT, "teams": True, "handicap": [1]}, 4)]
# card duels, the default: 2, 3 and 4 players, with and without Assistance; Teams; the dueling variants
CARD_MODES = [({}, 2), ({}, 3), ({"assistance": True}, 3), ({}, 4), ({"assistance": True}, 4),
              ({"teams": True, "fair_start": True}, 4), ({"discard_queue": True, "handicap": [1]}, 2)]
MODES = BIT_MODES + CARD_MODES
MAX_ACTIONS = 5_000
DRAWN_EVERY = 5  # random play draws the views for the terminal every few steps (assert_nothing_hidden_leaks)


class Invariants:
    def __init__(self, state):
        self.attacks = 0
        self.turn_number = state["turn_number"]

    def after(self, state, action, facts):
        self.turns_and_limits(state, action, facts)
        self.tiles_neither_created_nor_lost(state)
        self.board_is_valid(state)
        self.pieces_in_bounds(state)
        self.unplayable_tiles_set_aside(state, facts)
        self.end_consistent(state)

    def turns_and_limits(self, state, action, facts):
        if state["turn_number"] != self.turn_number:
            self.turn_number, self.attacks = state["turn_number"], 0
        if action["type"] == "attack" and state["duels"] == "bit":
            self.attacks += 1
            assert self.attacks == 1, "two bit duels initiated in one turn"
        if not state["puzzle"]:
            assert state["programs"] <= 3 and len(state["menu"]) == state["programs"], "more than three programs"
            if state["hijack"]:
                # the session ends after its third program (once a drawn tile is placed)
                assert state["hijack"]["programs"] < 3 or state["held"], "a hijacked session past three programs"
        else:
            assert all(p["avatars"] == [None] * 3 and not p["links"] and not p["firewalls"] for p in state["players"])
        assert state["duel"] is None, "a bit duel resolves as it starts"
        if state["cards"] is not None:
            self.cards_consistent(state)

    def cards_consistent(self, state):
        """Every Hero's 20 Action Cards are somewhere (deck, hand, discard, stacks); hands hold
        at most seven; no stack expends more points than its Attribute score; the duel's turn
        is the game's turn; a hack under way has its Attack Sequence open (or queued)."""
        cards = state["cards"]
        for player in cards["players"]:
            held = player["deck"] + player["hand"] + player["discard"] + \
                [e["card"] for stack in player["stacks"].values() for e in stack]
            assert len(held) == 20, "Action Cards created or lost"
            assert len(player["hand"]) <= 7, "more than seven cards in hand"
            for attribute, stack in player["stacks"].items():
                assert sum(e["cost"] for e in stack) <= player["scores"][attribute], "points over the score"
                assert all(e["cost"] == 4 for e in stack if e["face"] == "down"), "a Secret Card not at four points"
        if RULESET.outcome(state) is None:
            assert cards["turn"]["active"] == state["turn"] and cards["turn"]["phase"] != "ended"
        if state["attack"] is not None and not state["over"]:
            assert cards["sequence"] is not None and cards["sequence"]["owner"] == state["attack"]["seat"]

    def tiles_neither_created_nor_lost(self, state):
        held = [state["held"]] if state["held"] else []
        every = [p["tile"] for p in state["board"].values()] + state["stack"] + state["face_up"] + state["waiting"] + held
        assert sorted(every) == sorted(TILES), "tiles created or lost"
        assert len(state["face_up"]) <= 2

    def board_is_valid(self, state):
        board, size = state["board"], state["size"]
        if board:
            assert centre(size) in board or len(board) > 1, "the first tile is in the centre"
        for cell in board:
            assert in_area(size, *coords(cell)), "a tile beyond the edge of the play area"
            for side in range(4):
                other = neighbour(cell, side)
                if other in board:
                    assert (side in sides_of(board, cell)) == (opposite(side) in sides_of(board, other)), \
                        f"touching sides of {cell} and {other} do not match"
        if len(board) > 1:  # every tile touches another: the tiles form one connected area
            seen, frontier = set(), [next(iter(board))]
            while frontier:
                cell = frontier.pop()
                seen.add(cell)
                frontier += [neighbour(cell, s) for s in range(4) if neighbour(cell, s) in board and neighbour(cell, s) not in seen]
            assert seen == set(board), "tiles not attached to the rest"

    def pieces_in_bounds(self, state):
        board = state["board"]
        nodes = []
        for seat, player in enumerate(state["players"]):
            assert len(player["avatars"]) == (2 if seat in state["handicap"] else 3)
            nodes += [c for c in player["avatars"] if c is not None]
            assert len(player["links"]) + len(player["firewalls"]) <= 3, "more than three Access Tokens"
            for port in player["links"]:
                assert port in board and is_port(board, port), "a Link off a port"
            for cell, side in player["firewalls"]:
                assert cell in board and side in sides_of(board, cell), "a Firewall off a connection"
        assert all(c in board for c in nodes) and len(nodes) == len(set(nodes)), "two Avatars on one node"
        links = [port for p in state["players"] for port in p["links"]]
        assert len(links) == len(set(links)), "two Links on one port"
        for player in state["players"]:
            for cell, side in player["firewalls"]:
                walls = firewalls_on(state, cell, side)
                assert len(walls) <= 2 and (len(walls) == 1 or joined(board, cell, side)), "stacked Firewalls"

    def unplayable_tiles_set_aside(self, state, facts):
        """A drawn tile waits beside the stack only if it cannot be played (a draw changes
        no tile on the board, so the board after it is the board it was tried against)."""
        for fact in facts:
            if fact["f"] == "set_aside":
                assert placements(state["board"], state["size"], fact["tile"]) == [], "a playable tile set aside"
                assert fact["tile"] in state["waiting"]

    def end_consistent(self, state):
        result = RULESET.outcome(state)
        if state["puzzle"]:
            assert not state["final_round"]
            if result:
                assert result["scores"] == [state["puzzle_score"]["score"]]
            return
        assert state["final_round"] == (not state["stack"]), "the final round starts when the stack empties"
        if result is None:
            if state["cards"] is None or state["held"] is not None:
                assert RULESET.to_act(state) == ({state["hijack"]["by"]} if state["hijack"] else {state["turn"]})
            else:
                assert len(RULESET.to_act(state)) == 1
            return
        assert RULESET.to_act(state) == set() and all(state["tallies"])
        assert result["winners"] == winners(state)
        for tally in state["tallies"]:
            assert 0 <= tally["bonus"] <= 3 and tally["score"] == tally["networks"] + tally["bonus"]


def assert_nothing_hidden_leaks(state, facts, actor, action, drawn=True):
    """The face-down stack is hidden from all; with card duels, hands, deck order and
    face-down Secret Cards from other seats (test_card_duels.py swaps them to prove it).
    With `drawn`, each view is also drawn for the terminal (that it draws at all: what a board
    shows is tests/games/test_renderers.py's; drawing every view of every step was a third of
    these tests' time, so random play draws every few steps and the last)."""
    if state["cards"] is not None:
        assert_cards_hidden(state, facts, actor, action, drawn)
        return
    public = set(state["face_up"]) | set(state["waiting"]) | {p["tile"] for p in state["board"].values()}
    if state["held"]:
        public.add(state["held"])
    spectator = RULESET.view(state, None)
    assert isinstance(spectator["stack"], int)
    text = orjson.dumps(spectator).decode()
    assert not [tile for tile in set(TILES) - public if f'"{tile}"' in text], "a face-down tile shows"
    for seat in range(state["seats"]):
        assert RULESET.view(state, seat) == spectator
        assert [RULESET.redact(f, seat) for f in facts] == facts
        assert RULESET.redact_action(action, actor, seat) == action
    assert not drawn or RULESET.render(spectator)


def assert_cards_hidden(state, facts, actor, action, drawn=True):
    for seat in list(range(state["seats"])) + [None]:
        seen = RULESET.view(state, seat)
        assert isinstance(seen["stack"], int)
        for player in seen["cards"]["players"]:
            own = player["seat"] == seat
            assert isinstance(player["hand"], list) == own and isinstance(player["deck"], int)
            for stack in player["stacks"].values():
                assert all(e["card"] is None for e in stack if e["face"] == "down") or own, "a Secret Card shows"
        for fact in (RULESET.redact(f, seat) for f in facts):
            inner = fact.get("fact", {}) if fact["f"] == "duel" else {}
            if inner.get("f") == "hc.draw" and inner["seat"] != seat:
                assert isinstance(inner["cards"], int), "another seat's draw shows"
            if inner.get("f") == "hc.place" and inner["face"] == "down" and inner["seat"] != seat:
                assert inner["card"] is None, "a deployed Secret Card shows in a fact"
            if inner.get("f") == "hc.reshuffle":
                assert isinstance(inner["order"], int), "a deck order shows"
        shown = RULESET.redact_action(action, actor, seat)
        if action["type"] == "duel" and action["duel"].get("type") == "deploy" and seat != actor:
            assert "card" not in shown["duel"], "a deploy names its card to another seat"
        assert not drawn or RULESET.render(seen)


def mangled(action, rand):
    """An action a player might send that the rules may refuse: coordinates shifted,
    sides and indexes off by one, the wrong type, missing fields."""
    wrong = dict(action)
    choice = rand.randrange(5)
    if choice == 0 and "x" in wrong:
        wrong["x"] += rand.choice([-1, 1, 7])
    elif choice == 1:
        for field in ("side", "avatar", "rot", "seat"):
            if field in wrong:
                wrong[field] = wrong[field] + rand.choice([1, 4]) if isinstance(wrong[field], int) else 9
    elif choice == 2:
        wrong["type"] = rand.choice(["spawn", "login", "link", "firewall", "remap", "attack", "place", "reboot",
                                     "end_session", "done", "draw", "probe", "duel"])
    elif choice == 3 and len(wrong) > 1:
        wrong.pop(rand.choice(sorted(set(wrong) - {"type"})))
    else:
        wrong = {"type": "login", "avatar": rand.randrange(-1, 4), "x": rand.randrange(-1, 9), "y": rand.randrange(-1, 9)}
    return wrong


def play(options, seats, seed, bots=("random",), check=True):
    def checks(initial):
        invariants = Invariants(initial)

        def after(step):
            if check:
                probe_refusals(step.before, step.seat, step.action, step.rand, step.key, step.seq)
            invariants.after(step.state, step.action, step.facts)
            if check:
                assert_nothing_hidden_leaks(step.state, step.facts, step.seat, step.action,
                                            drawn=step.seq % DRAWN_EVERY == 0 or RULESET.outcome(step.state) is not None)
        return after
    return random_play(RULESET, options, seats, seed, bots, checks)


def same_shape(action):
    """Placements are listed once per shape: a straight tile turned twice looks the same."""
    if action["type"] in ("probe", "place", "remap") and isinstance(action.get("rot"), int):
        return {**action, "rot": None}
    return action


def probe_refusals(state, seat, action, rand, key, seq):
    """A mangled action is either legal or refused with a code that names a rule."""
    wrong = mangled(action, rand)
    legal = RULESET.legal_actions(state, seat)
    try:
        RULESET.decide(state, seat, wrong, RandomStream(key, "probe", seq))
    except IllegalAction as refusal:
        assert refusal.code not in ("illegal_action", "domain_error") and refusal.message
        assert wrong not in legal, f"a listed action was refused: {wrong} ({refusal.code})"
    else:
        # it agrees with a listed action on every field that action has (extra fields are ignored)
        assert any(same_shape({k: wrong.get(k) for k in a}) == same_shape(a) for a in legal), \
            f"an unlisted action was accepted: {wrong}"
    other = (seat + 1) % state["seats"]
    if other != seat:
        with pytest.raises(IllegalAction) as refused:
            RULESET.decide(state, other, action, RandomStream(key, "probe", seq))
        assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize("options, seats", BIT_MODES, ids=[f"{o}-{s}" for o, s in BIT_MODES])
@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_reaches_an_outcome_in_every_mode(options, seats, seed):
    played_to_the_end(options, seats, seed)


def played_to_the_end(options, seats, seed):
    state = play(options, seats, seed)  # the invariants are checked after every action
    result = RULESET.outcome(state)
    assert set(result["winners"]) <= set(range(seats)) and result["winners"]
    if options.get("teams"):
        assert {w % 2 for w in result["winners"]} in ({0}, {1}, {0, 1})


@pytest.mark.parametrize("options, seats", CARD_MODES, ids=[f"cards{o}-{s}" for o, s in CARD_MODES])
@settings(max_examples=examples(1), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_with_card_duels_reaches_an_outcome(options, seats, seed):
    """Every action is checked as above, plus the cards' invariants (20 cards a Hero, seven in
    hand at most, stacks within their scores, Secret Cards at four) and what each seat may
    see of the others' cards."""
    played_to_the_end(options, seats, seed)


@pytest.mark.parametrize("options, seats", CARD_MODES, ids=[f"cards{o}-{s}" for o, s in CARD_MODES])
def test_a_card_duel_match_replays_to_its_live_state_at_every_version(tmp_path, options, seats):
    match = play_and_replay(RULESET, tmp_path, options, seats, 100 + seats, RULESET.bots["random"])
    assert match.state["cards"]["results"] >= 0 and match.state["duels"] == "cards"


@settings(max_examples=examples(2), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_greedy_and_random_bots_mixed_play_legally_to_the_end(seed, mode):
    options, seats = mode
    assert RULESET.outcome(play(options, seats, seed, bots=("greedy", "random"), check=False)) is not None


@settings(max_examples=examples(2), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(MODES))
def test_replayed_state_equals_live_state_at_every_version(tmp_path_factory, seed, mode):
    options, seats = mode
    play_and_replay(RULESET, tmp_path_factory.mktemp("cs"), options, seats, seed, RULESET.bots["random"])


def test_every_listed_action_is_accepted_in_a_long_game():
    rand = random.Random(11)
    key = rand.randbytes(32)
    state = RULESET.setup({}, ["a", "b", "c"], RandomStream(key, "m", 1))
    seq = 2
    while RULESET.outcome(state) is None and seq < 400:
        (seat,) = RULESET.to_act(state)
        for action in rand.sample(RULESET.legal_actions(state, seat), k=min(8, len(RULESET.legal_actions(state, seat)))):
            RULESET.decide(state, seat, action, RandomStream(key, "m", seq))  # none raises
        action = RULESET.bots["greedy"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
        seq += 1
    assert len(state["board"]) > 5


def position(state):
    """What the board shows: each tile's square and connections, and where every piece is."""
    return (sorted((cell, placed["tile"], sorted(sides_of(state["board"], cell))) for cell, placed in state["board"].items()),
            [(p["avatars"], sorted(p["links"]), sorted(p["firewalls"])) for p in state["players"]])


def remap_results(state, seat, actions, key, seq):
    """The positions the accepted ones among `actions` lead to."""
    found = []
    for action in actions:
        try:
            facts = RULESET.decide(state, seat, action, RandomStream(key, "remap", seq))
        except IllegalAction:
            continue
        after = json_copy(state)  # evolve changes the state it is given
        for fact in facts:
            after = RULESET.evolve(after, fact)
        found.append((action, position(after)))
    return found


def every_remap_tried(state):
    """Every pendant tile to every square next to the board (or its own) in all four turns."""
    board = state["board"]
    targets = sorted({neighbour(cell, side) for cell in board for side in range(4)} | set(board))
    return [{"type": "remap", "from": cell, "x": x, "y": y, "rot": rot}
            for cell in sorted(board) if is_pendant(board, cell)
            for x, y in map(coords, targets) if in_area(state["size"], x, y) for rot in range(4)]


@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_remap_decide_accepts_is_listed(seed):
    """Remap moves 'any pendant tile to any other valid position', Firewalls turning with it:
    whatever remap `decide` accepts, a listed remap leads to the same position (listed
    remaps differ only in a rotation nothing on the board shows). Positions come from random
    play, with a Firewall of the player's put on a pendant tile when one may go there."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup({}, ["a", "b"], RandomStream(key, "m", 1))
    checked = 0
    for seq in range(2, MAX_ACTIONS):
        if RULESET.outcome(state) is not None:
            break
        (seat,) = RULESET.to_act(state)
        if seq % 12 == 0 and state["programs"] < 2 and not state["hijack"] and not state["held"]:
            at = json_copy(state)
            walls = [a for a in RULESET.legal_actions(at, seat) if a["type"] == "firewall"
                     and is_pendant(at["board"], f"{a['x']},{a['y']}")]
            if walls:
                for fact in RULESET.decide(at, seat, rand.choice(walls), RandomStream(key, "wall", seq)):
                    at = RULESET.evolve(at, fact)
            remaps = [a for a in RULESET.legal_actions(at, seat) if a["type"] == "remap"]
            listed_positions = [result for _, result in remap_results(at, seat, remaps, key, seq)]
            assert len(listed_positions) == len(remaps), "a listed remap was refused"
            for action, result in remap_results(at, seat, every_remap_tried(at), key, seq):
                assert result in listed_positions, f"an accepted remap is not listed: {action}"
            checked += 1
        action = RULESET.bots["random"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
    assert checked > 0
