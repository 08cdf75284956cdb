"""Independent review of the Assistance variant (rules/herocard-cyberspace.txt, "Variants",
"Assistance (3 or 4 players)"), sentence by sentence, against the HeroCard engine
(domain/games/herocard/plays.py, engine.py) and Cyberspace's card duels (rules_cards.py).
Each test quotes the sentence it checks. The review found one defect (an attack on your own
side was open to assistance), fixed in HeroCard 1.2; its test fails on 1.1."""

import pytest

from domain.games.herocard import engine
from domain.games.herocard.cards import CARDS
from domain.kernel.errors import IllegalAction

from .arena import act, duel, pass_, pass_all, play, refused, values


def value(card):
    return CARDS[card]["value"]


def test_the_four_player_example_turn_order_and_the_losing_side_at_each_turn():
    """"Example: In a four-person game, player one attacks player three, who is seated across
    the table. Before player three responds, player two, seated immediately to the left of
    player one, can assist player three (who is losing at this point) or pass. Player three
    then plays defense cards. Player four can then assist whoever is losing at this time, as
    determined by whether player three's defense is stronger or weaker than player one's
    attack. Play then returns to player one, and the cycle is repeated until the Attack
    Sequence ends." """
    d = duel(heroes=("bouncer", "cryptomancer", "sinner", "bouncer"),
             hands={0: ["attack_from_above"], 1: ["jab", "bar_stool"], 2: ["forearm_block"], 3: ["jab", "bar_stool"]},
             assistance=True, victory_points=7)
    d = play(d, 0, "attack_from_above", target=2)           # player one attacks player three
    assert d["priority"] == 1                               # player two, before player three responds
    refused(d, 1, {"type": "play", "cards": ["jab"]}, "assist_losing_side")  # the defender is losing
    assert {"type": "play", "cards": ["bar_stool"]} in engine.legal_actions(d, 1)
    d = pass_(d)                                            # ... or pass
    assert d["priority"] == 2 and d["assist"] == {}
    d = play(d, 2, "forearm_block")                         # player three defends: 5 against 4
    assert d["priority"] == 3 and values(d) == (4, 5)
    refused(d, 3, {"type": "play", "cards": ["bar_stool"]}, "assist_losing_side")  # now the attack is losing
    d = play(d, 3, "jab")                                   # player four assists the attacker: 6 against 5
    assert d["assist"] == {"3": "attack"} and values(d) == (6, 5)
    assert d["priority"] == 0                               # "Play then returns to player one"
    d = pass_(d)
    assert d["priority"] == 1                               # the cycle repeats: player two, having passed,
    refused(d, 1, {"type": "play", "cards": ["jab"]}, "assist_losing_side")  # may now help the defender only
    d = play(d, 1, "bar_stool")
    assert d["assist"] == {"3": "attack", "1": "block"} and values(d) == (6, 9)
    for seat in (2, 3, 0):                                  # three passes in a row do not end it ...
        d = pass_(d, seat)
    assert d["sequence"] is not None and d["priority"] == 1
    d = pass_(d, 1)                                         # ... all four do
    assert d["sequence"] is None and d["last_result"]["success"] is False
    assert [p["vp"] for p in d["players"]] == [0, 0, 0, 0]  # the assistants earn nothing


def blocked_before_the_assistant(assistant_hand, block):
    """Three Heroes with Assistance: seat 0 attacks seat 2 with Attack from Above, seat 1 (the
    assistant) passes, seat 2 blocks with `block`, seat 0 passes: seat 1 to play."""
    d = duel(heroes=("bouncer", "cryptomancer", "sinner"),
             hands={0: ["attack_from_above"], 1: assistant_hand, 2: [block]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=2)
    d = pass_(d, 1)
    d = play(d, 2, block)
    return pass_(d, 0)


def test_at_a_tie_the_attack_is_the_losing_side():
    """"Player four can then assist whoever is losing at this time, as determined by whether
    player three's defense is stronger or weaker than player one's attack", with the Core
    Rules: "If your total block value equals or exceeds your opponent's total attack value,
    the attack fails." At a tie the attacker is losing: an assistant may help it, not the
    defender."""
    d = blocked_before_the_assistant(["jab", "bar_stool"], "bar_stool")
    assert values(d) == (4, 4) and d["priority"] == 1
    refused(d, 1, {"type": "play", "cards": ["bar_stool"]}, "assist_losing_side")
    d = play(d, 1, "jab")
    assert d["assist"] == {"1": "attack"} and values(d) == (6, 4)


def test_an_assistants_attack_set_is_judged_by_who_was_losing_when_it_was_played():
    """"The player may assist the losing side at the time their turn comes up": two Attack Mods
    played as one set to help a losing attacker stand whole, although the first alone already
    puts the attack ahead (the Attack side of the 1.1 fix; the existing test covers a Block set)."""
    d = blocked_before_the_assistant(["jab", "flirt"], "forearm_block")
    assert values(d) == (4, 5)
    d = act(d, 1, {"type": "play", "cards": ["jab", "flirt"]})  # jab alone makes it 6 against 5
    assert d["assist"] == {"1": "attack"} and values(d) == (4 + value("jab") + value("flirt"), 5)


def test_the_duplicate_attack_sequence_starts_left_of_its_own_attacker():
    """"Starting with the player to the left of the attacking player and proceeding clockwise,
    each player in turn gets the opportunity to assist." In a duplicate Attack Sequence "you
    are the owner of this attack": the turn to assist starts left of the duplicator, and the
    side it assists is judged afresh (the duplicate is a new Attack Sequence)."""
    d = duel(heroes=("bouncer", "cryptomancer", "bioengineer", "sinner"),
             hands={0: ["attack_from_above"], 1: ["bar_stool"], 2: ["mimic_gene"], 3: ["bar_stool"]},
             assistance=True, victory_points=7)
    d = play(d, 0, "attack_from_above", target=2)
    d = pass_(d, 1)
    d = play(d, 2, "mimic_gene", target=0)                  # duplicate the Base Attack back at player one
    for seat in (3, 0, 1, 2):
        d = pass_(d, seat)
    assert d["last_result"]["owner"] == 0 and d["last_result"]["success"]
    assert d["sequence"]["owner"] == 2 and d["sequence"]["target"] == 0 and d["sequence"]["duplicate"]
    assert d["priority"] == 3                               # left of the duplicate's attacker, not of seat 0
    d = play(d, 3, "bar_stool")                             # the duplicate's defender (seat 0) is losing
    assert d["assist"] == {"3": "block"}


def test_commitment_lasts_one_attack_sequence():
    """"Once you assist one side of a conflict, you may not switch sides. For example, if you
    assist an attacker by playing an Attack Mod, you may not then play a Block Mod to assist
    the defender in the same duel." A new Attack Sequence (One More Round's second Base
    Attack) is a new conflict: the assistant of the defender may now help the attacker."""
    d = duel(heroes=("bouncer", "cryptomancer", "sinner"),
             hands={0: ["attack_from_above", "one_more_round", "knuckle_duster"], 1: ["bar_stool", "jab"],
                    2: ["forearm_block"]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=2)
    d = play(d, 1, "bar_stool")
    assert d["assist"] == {"1": "block"}
    d = pass_all(d)
    assert d["assist"] == {} and d["priority"] == 0
    d = pass_(play(d, 0, "one_more_round"), 1)
    d = pass_(d, 2)
    d = play(d, 0, "knuckle_duster", target=2)
    d = pass_(d, 1)
    d = play(d, 2, "forearm_block")                         # 5 against 5: the attacker is losing
    d = pass_(d, 0)
    d = play(d, 1, "jab")                                   # no assist_no_switching across sequences
    assert d["assist"] == {"1": "attack"}


# --- DEFECTS ---------------------------------------------------------------------------------

def test_an_assistant_may_clear_its_own_active_card_a_reading():
    """"Once you assist one side of a conflict, you may not switch sides." Read with the Core
    Rules' Clear ("Some cards allow you to clear outside of your clear phase. Reduce the current
    attack or block value by the appropriate amount."): an assistant that blocked for the
    defender and then clears its own Active Base Block with Second Wind (a neutral Fast card)
    withdraws its help; it plays no card for the attacker, so it has not switched sides
    (README interpretation 19; the review of 1.1 flagged the other reading)."""
    d = duel(heroes=("bouncer", "cryptomancer", "sinner"),
             hands={0: ["attack_from_above"], 1: ["forearm_block", "second_wind"]},
             assistance=True, victory_points=5)
    d = play(d, 0, "attack_from_above", target=2)
    d = play(d, 1, "forearm_block")                         # assists the losing defender: 4 against 5
    assert d["assist"] == {"1": "block"}
    d = pass_(pass_(d, 2), 0)
    assert d["priority"] == 1 and values(d) == (4, 5)       # the attacker is losing now
    d = play(d, 1, "second_wind", attribute="mind")
    assert d["assist"] == {"1": "block"} and values(d)[1] < 4


def test_a_third_player_may_not_defend_your_own_firewall_in_cyberspace():
    """"When a player attacks an opponent, any other player may play a valid Fast Action
    Card to assist the losing side of the conflict." and ("Destroying a Firewall or Link") "To
    destroy your own Firewall or Link, simply play a Base Attack and decline to defend."
    Attacking your own Firewall attacks no opponent, so nobody assists (HeroCard 1.1 let a third
    player play a Base Block for the 'losing' block side, and the Firewall survived)."""
    from tests.games.cyberspace.boards import E, avatar
    from tests.games.cyberspace.boards import act as cs_act
    from tests.games.cyberspace.test_card_duels import card_state, hand, home
    from tests.games.cyberspace.test_programs import line_network
    from domain.games.cyberspace import RULESET

    state = line_network(card_state(3, {"assistance": True}), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 2, 3)
    avatar(state, 1, 3, 3)
    avatar(state, 2, 5, 3)
    state = home(state)
    state["players"][0]["firewalls"] = [["2,3", E]]
    hand(state, 0, "attack_from_above")
    hand(state, 1, "unbroken_defense")
    hand(state, 2)
    state, _ = cs_act(state, 0, {"type": "attack", "target": "firewall", "x": 2, "y": 3, "side": E,
                                 "cards": ["attack_from_above"]})
    assert state["attack"]["defenders"] == []
    block = {"type": "duel", "duel": {"type": "play", "cards": ["unbroken_defense"]}}
    if 1 in RULESET.to_act(state):
        assert block not in RULESET.legal_actions(state, 1)
        with pytest.raises(IllegalAction):
            RULESET.decide(state, 1, block, _Rng())
    for _ in range(6):
        if state["cards"]["sequence"] is None:
            break
        (seat,) = RULESET.to_act(state)
        state, _ = cs_act(state, seat, {"type": "duel", "duel": {"type": "pass"}})
    assert state["players"][0]["firewalls"] == [] and state["last_duel"]["success"]


class _Rng:
    @staticmethod
    def shuffle(items):
        return list(items)
