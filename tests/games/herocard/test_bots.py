"""The greedy bot decides from what its seat can see (review D5): changing only what the seat
cannot see — the other seats' hand contents (same sizes), every deck's order — never changes
its choice."""

import random

import pytest

from domain.games.herocard import RULESET, engine
from domain.games.herocard.bots import _trial_copy, greedy_bot, visible_copy
from domain.games.herocard.cards import CARDS
from domain.kernel.canonical import json_copy
from domain.kernel.rng import RandomStream
# bots.evaluate as it was written term by term, before its single pass over the players
from tests.kernel.search_reference import evaluate as evaluate_term_by_term

from .arena import duel, pass_, play, put


def positions(options, seats, seed, every=2, limit=120):
    """States met in random play (the seat to act with each)."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    found = []
    for seq in range(2, 5_000):
        if RULESET.outcome(state) is not None or len(found) >= limit:
            break
        (seat,) = RULESET.to_act(state)
        if seq % every == 0:
            found.append((json_copy(state), seat))
        action = RULESET.bots["random"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
    return found


def unseen_changed(state, seat, rand):
    """Same view for `seat`: other hands and face-down Secret Cards redrawn (same sizes, same
    places) from hand + deck + face-down cards, decks reordered."""
    state = json_copy(state)
    for other, player in enumerate(state["duel"]["players"]):
        if other == seat:
            rand.shuffle(player["deck"])
            continue
        secrets = [e for stack in player["stacks"].values() for e in stack if e["face"] == "down"]
        pool = player["hand"] + player["deck"] + [e["card"] for e in secrets]
        rand.shuffle(pool)
        hand, rest = len(player["hand"]), len(player["hand"]) + len(secrets)
        for entry, card in zip(secrets, pool[hand:rest]):
            entry["card"] = card
        player["hand"], player["deck"] = pool[:hand], pool[rest:]
    return state


@pytest.mark.parametrize("options, seats, seed", [({}, 2, 1), ({}, 2, 2), ({}, 3, 3), ({"teams": True}, 4, 4),
                                                   ({"heroes": ["cryptomancer", "cryptomancer"]}, 2, 5)])
def test_the_greedy_bot_choice_ignores_what_its_seat_cannot_see(options, seats, seed):
    changed_hidden = 0
    for state, seat in positions(options, seats, seed):
        choice = greedy_bot(state, seat, random.Random(7))
        for variant in range(3):
            other = unseen_changed(state, seat, random.Random(seed * 100 + variant))
            assert RULESET.view(other, seat) == RULESET.view(state, seat)
            changed_hidden += other != state
            assert greedy_bot(other, seat, random.Random(7)) == choice
    assert changed_hidden > 0


def test_the_greedy_bot_never_reads_an_opponents_face_down_secret_card():
    """Two duels that differ only in which card an opponent deployed face down (the other one
    lies in its deck) look the same to the seat (its view), so the bot's trial copy and its
    choice are the same (red team: `visible_copy` kept the opponent's face-down cards)."""
    boards = []
    for down, kept in (("backdoor", "zero_day_exploit"), ("zero_day_exploit", "backdoor")):
        d = duel(heroes=("bouncer", "cryptomancer"), hands={0: ["attack_from_above", "jab", "stone_falls_through_water"],
                                                           1: ["firewall_glyph"]}, decks={1: [kept, "cipher_lance"]})
        put(d, 1, down, attribute="x", face="down", turn=0)
        boards.append({"seats": 2, "names": ["a", "b"], "duel": d})
    assert RULESET.view(boards[0], 0) == RULESET.view(boards[1], 0)
    copies = [visible_copy(b["duel"], 0, random.Random(5)) for b in boards]
    assert copies[0] == copies[1]
    assert greedy_bot(boards[0], 0, random.Random(9)) == greedy_bot(boards[1], 0, random.Random(9))


# The greedy bot plays the cards that only prepare an attack (balance review): judged alone,
# One More Round and Forfeiture never paid, so the Bouncer and the Sinner never played them.

def _greedy(d, seat):
    return greedy_bot({"duel": d}, seat, random.Random(3))


def test_the_greedy_bot_plays_one_more_round_after_a_failed_attack_and_attacks_again():
    d = duel(heroes=("bouncer", "sinner"), hands={0: ["one_more_round", "knuckle_duster"], 1: []}, decks={1: []})
    d["turn"]["exclusives"] = 1  # its Base Attack this turn was blocked
    assert _greedy(d, 0) == {"type": "play", "cards": ["one_more_round"]}
    d = play(d, 0, "one_more_round")
    d = pass_(d, 1)
    assert _greedy(d, 0)["cards"] == ["knuckle_duster"]


def test_the_greedy_bot_keeps_one_more_round_when_it_cannot_score_again_this_turn():
    d = duel(heroes=("bouncer", "sinner"), hands={0: ["one_more_round", "knuckle_duster"], 1: []}, decks={1: []})
    d["turn"]["exclusives"] = 1
    d["players"][0].update(vp=1, vp_turn=1)  # "separate, successful attacks on separate turns"
    assert _greedy(d, 0) == {"type": "pass"}


def test_the_greedy_bot_strips_a_block_with_forfeiture_before_attacking():
    hands = {0: ["forfeiture", "kiss_off"], 1: ["forearm_block", "brace"]}  # Block 5 + 3 would stop Attack 6
    d = duel(heroes=("sinner", "bouncer"), hands=hands, decks={1: []})
    assert _greedy(d, 0) == {"type": "play", "cards": ["forfeiture"], "target": 1}
    d = duel(heroes=("sinner", "bouncer"), hands={0: ["forfeiture", "kiss_off"], 1: ["jab"]}, decks={1: []})
    assert _greedy(d, 0)["cards"] == ["kiss_off"]  # nothing to strip: attack at once


# The greedy stall of issue 29 (Cryptomancer v Bioengineer, 400 turns of passes): face-down
# Zero-Day Exploits kept Cipher Lance from fitting, a Weakness Analysis against nothing in play
# kept a dead hand from being discarded, and greedy never refreshed.

def test_the_greedy_bot_clears_a_zero_day_exploit_that_keeps_its_base_attack_from_fitting():
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "backdoor", "firewall_glyph"]},
             phase="clear")
    put(d, 0, "zero_day_exploit", face="down")
    put(d, 0, "zero_day_exploit", face="down")
    assert engine.free_points(d["players"][0], "mind") < CARDS["cipher_lance"]["cost"]
    assert _greedy(d, 0) == {"type": "clear", "stacks": ["mind"]}


def test_the_greedy_bot_does_not_deploy_a_zero_day_exploit_where_its_base_attack_would_not_fit():
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "zero_day_exploit"]})
    put(d, 0, "zero_day_exploit", face="down")
    d["turn"]["exclusives"] = 1  # its Base Attack this turn is played: deploy now, or keep the card
    assert {"type": "deploy", "card": "zero_day_exploit", "attribute": "mind"} in engine.legal_actions(d, 0)
    assert _greedy(d, 0) == {"type": "pass"}


def test_the_greedy_bot_discards_a_hand_whose_only_attack_counts_nothing():
    """Weakness Analysis counts the target's cards in play; face-down Secret Cards are not in
    play, so against them it attacks for 0: the hand is dead and is dug through."""
    hand = ["weakness_analysis", "mimic_gene", "cross_block", "unbroken_defense", "efficient_block", "cross_block",
            "efficient_block"]
    d = duel(heroes=("bioengineer", "cryptomancer"), hands={0: hand}, phase="discard")
    put(d, 1, "zero_day_exploit", face="down")
    chosen = _greedy(d, 0)
    assert chosen["type"] == "discard" and "weakness_analysis" in chosen["cards"] and len(chosen["cards"]) == 4
    put(d, 1, "cipher_lance")  # a card in play gives it something to count: the hand is kept
    assert _greedy(d, 0) == {"type": "discard", "cards": []}


def test_the_greedy_bot_refreshes_a_dead_hand_instead_of_passing():
    d = duel(heroes=("cryptomancer", "bioengineer"), hands={0: ["cipher_lance", "packet_storm", "checksum", "recursion"]})
    put(d, 0, "firewall_glyph")
    put(d, 0, "firewall_glyph")  # Mind 10, 6 spent: Cipher Lance (3) still fits
    assert _greedy(d, 0)["type"] != "refresh"
    put(d, 0, "firewall_glyph")  # 9 spent: nothing in hand can attack this turn
    assert _greedy(d, 0) == {"type": "refresh"}


def test_a_face_down_attack_mod_counts_as_a_plan_while_a_base_attack_just_fits_beside_it():
    """evaluate's Secret Cards: a face-down Zero-Day Exploit on Mind is worth its cost and two
    while Cipher Lance (3 Mind) still fits the free Mind points, exactly 3 included; with 2
    free it locks the attack out and is worth nothing (only the free point differs)."""
    from domain.games.herocard.bots import evaluate
    worth = {}
    for mind in (7, 6):  # Zero-Day Exploit expends 4: 3 free, then 2
        d = duel(heroes=("cryptomancer", "bioengineer"))
        d["players"][0]["scores"]["mind"] = mind
        put(d, 0, "zero_day_exploit", face="down")
        worth[mind] = evaluate(d, 0)
    assert worth[7] - worth[6] == 1 + CARDS["zero_day_exploit"]["cost"] + 2


@pytest.mark.parametrize("options, seats, seed", [
    ({}, 2, 31), ({"assistance": True}, 3, 32), ({"teams": True, "discard_queue": True}, 4, 133),
    ({"discard_queue": True, "fair_start": True}, 2, 34), ({}, 4, 35), ({"teams": True}, 4, 36), ({}, 3, 137)])
def test_a_trial_copy_takes_every_fact_and_leaves_the_duel_it_copies_as_it_was(options, seats, seed):
    """The greedy bot's trial moves run on `_trial_copy`, which shares what evolve never changes
    in place: every fact of random play (every action a seat may take, each tried) evolves the
    copy as it does a JSON copy, and the duel copied stays as it was."""
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "m", 1))
    kinds = set()
    for seq in range(2, 600):
        if RULESET.outcome(state) is not None:
            break
        duel_ = state["duel"]
        before = json_copy(duel_)
        (seat,) = RULESET.to_act(state)
        for action in engine.legal_actions(duel_, seat):
            facts = engine.decide(duel_, seat, action, RandomStream(key, "t", seq))
            trial, reference = _trial_copy(duel_), json_copy(duel_)
            assert trial == reference
            for fact in facts:
                engine.evolve(trial, fact)
                engine.evolve(reference, fact)
                kinds.add(fact["f"])
            assert trial == reference and duel_ == before, (action, facts)
        action = RULESET.bots["random"](state, seat, rand)
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "m", seq)):
            state = RULESET.evolve(state, fact)
    assert {"hc.place", "hc.clear", "hc.active", "hc.resolved", "hc.draw", "hc.discard", "hc.twist"} <= kinds


@pytest.mark.parametrize("options, seats, seed", [({}, 2, 41), ({}, 3, 42), ({"teams": True}, 4, 43),
                                                   ({"assistance": True}, 4, 44)])
def test_evaluate_is_its_terms_summed_one_by_one(options, seats, seed):
    from domain.games.herocard.bots import evaluate
    judged = set()
    for state, _ in positions(options, seats, seed, every=1, limit=400):
        twisted = json_copy(state["duel"])  # random play twists rarely: each player twisted once more
        for number, player in enumerate(twisted["players"]):
            player["twisted"].append({"attribute": ("body", "mind", "x")[number % 3], "by": 0, "uid": 0})
        for d in (state["duel"], twisted):
            for seat in range(seats):
                worth = evaluate(d, seat)
                assert worth == evaluate_term_by_term(d, seat) and type(worth) is type(evaluate_term_by_term(d, seat))
                judged.add((bool(d["sequence"]), any(p["twisted"] for p in d["players"])))
    assert judged == {(False, False), (True, False), (False, True), (True, True)}
