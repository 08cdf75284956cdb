"""Card duels in Cyberspace (the default `duels`): one HeroCard duel for the whole match, each
hack played with Action Cards. One test per duel rule of the rulebook's Cyberspace text
("Playing Action Cards", "Hacking an Avatar", "Destroying a Firewall or Link", "Rebooting",
"Assistance", "Additional Dueling Rules for Cyberspace", "Cyberspace Dueling Variants"),
each quoting it. Cards are picked from the card data by what they are (kind, value,
effect), not by name, so designed decks may change under the tests."""

import pytest

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.duels import DECK_SIZE, SECRET_COST, cyberspace_deck
from domain.games.cyberspace.scoring import winners
from domain.games.herocard.cards import CARDS, HEROES
from domain.kernel.canonical import json_copy
from domain.kernel.errors import InvalidSetup

from .boards import E, N, S, W, act, avatar, put, refused, rng
from .test_programs import line_network


def card_state(seats=2, options=None, seed=0):
    return RULESET.setup({"duels": "cards", **(options or {})}, [f"p{i}" for i in range(seats)], rng(1, seed))


def home(state, seat=0, number=1, scores=12):
    """`seat`'s Action Phase, turn `number`, nothing open, every Attribute at `scores`."""
    state["turn"] = seat
    cards = state["cards"]
    cards["turn"] = {"number": number, "active": seat, "phase": "action", "exclusives": 0, "allowance": 0,
                     "acted": False, "forfeit": []}
    cards.update(priority=seat, passes=0, sequence=None, pending=None, duplicates=[])
    for player in cards["players"]:
        player["scores"] = {"body": scores, "mind": scores, "x": scores}
    return state


def hand(state, seat, *cards):
    state["cards"]["players"][seat]["hand"] = list(cards)


def find(kind, value=None, effect=None, secret=False, timing=None, other_than=()):
    """A card of this kind (and value, effect, timing) from the card data."""
    for card_id, card in sorted(CARDS.items()):
        if card["kind"] == kind and bool(card.get("secret")) == secret and card_id not in other_than and \
                (value is None or card.get("value") == value) and (timing is None or card["timing"] == timing) and \
                (effect is None or effect in card.get("effect", {})) and not card.get("effect", {}).get("variable"):
            return card_id
    pytest.skip(f"no {kind} card with value {value} / effect {effect} in the card data")


def value(card_id):
    return CARDS[card_id]["value"]


def duel(state, seat, action, seq=2):
    return act(state, seat, {"type": "duel", "duel": action}, seq=seq)


def passes(state, *seats):
    for seat in seats:
        assert seat in RULESET.to_act(state), (seat, RULESET.to_act(state))
        state, _ = duel(state, seat, {"type": "pass"})
    return state


def face_off(seats=2, options=None):
    """Seat 0 on the server at 2,3, seat 1 on the client at 3,3 next to it (seat 2, if any,
    on the client at 5,3, adjacent to no one of seat 0's)."""
    state = line_network(card_state(seats, options), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 2, 3)
    avatar(state, 1, 3, 3)
    if seats > 2:
        avatar(state, 2, 5, 3)
    return home(state)


def hack(target_seat=1):
    return {"type": "attack", "target": "avatar", "seat": target_seat, "avatar": 0}


# ---------------------------------------------------------------------------------------
# Set-up: Heroes, Gene X, the Action Deck
# ---------------------------------------------------------------------------------------

def test_card_duels_are_the_default_each_hero_lays_out_body_mind_and_gene_x_and_draws_seven():
    """'Pick a Hero and corresponding Action Deck ... Lay out your Body (B), Mind (M) and Gene
    X (X) Attribute Cards ... Shuffle your Action Deck and draw 7 cards.' '12 Attribute Cards
    and 80 Action Cards': 20 Action Cards a Hero."""
    state = RULESET.setup({}, ["a", "b", "c", "d"], rng(1))
    assert state["duels"] == "cards"
    cards = state["cards"]
    assert sorted(p["hero"] for p in cards["players"]) == sorted(HEROES)  # four players, four Heroes
    for player in cards["players"]:
        assert len(player["hand"]) == 7 and len(player["deck"]) == DECK_SIZE - 7
        assert sorted(player["hand"] + player["deck"]) == sorted(cyberspace_deck(player["hero"]))
        assert player["scores"] == {a: HEROES[player["hero"]]["attributes"][a]["score"] for a in ("body", "mind", "x")}
    for hero in HEROES:
        deck = cyberspace_deck(hero)
        assert len(deck) == DECK_SIZE and set(deck) == set(HEROES[hero]["deck"])  # every card of the Hero kept
    # "In this game, Attribute X represents genetic engineering, so this Attribute is called Gene X."
    assert RULESET.view(state, 0)["cards"]["attribute_names"]["x"] == "Gene X"
    chosen = RULESET.setup({"heroes": ["sinner", "bouncer"]}, ["a", "b"], rng(1))
    assert [p["hero"] for p in chosen["cards"]["players"]] == ["sinner", "bouncer"]


def test_a_hero_and_its_action_deck_play_for_one_seat_only():
    """'Pick a Hero and corresponding Action Deck': the box holds one Action Deck per Hero, so
    two seats cannot both pick the same Hero."""
    with pytest.raises(InvalidSetup, match="bouncer given to several seats"):
        RULESET.setup({"heroes": ["bouncer", "bouncer", "bouncer", "bouncer"]}, ["a", "b", "c", "d"], rng(1))
    with pytest.raises(InvalidSetup, match="seat only: sinner given to several seats"):
        RULESET.setup({"heroes": ["sinner", "bouncer", "sinner"]}, ["a", "b", "c"], rng(1))
    distinct = RULESET.setup({"heroes": ["sinner", "bouncer", "cryptomancer"]}, ["a", "b", "c"], rng(1))
    assert [p["hero"] for p in distinct["cards"]["players"]] == ["sinner", "bouncer", "cryptomancer"]


def test_each_cyberspace_deck_keeps_every_card_and_shares_the_rest_by_the_heroes_copies():
    """'12 Attribute Cards and 80 Action Cards': 20 a Hero (README 31): one copy of each card of
    the Hero's HeroCard deck, the other slots in proportion to its copies by largest remainder
    (ties by card id)."""
    import math
    for hero in HEROES:
        copies, deck = HEROES[hero]["deck"], cyberspace_deck(hero)
        counts = {card: deck.count(card) for card in copies}
        assert len(deck) == DECK_SIZE and deck == sorted(deck) and set(deck) == set(copies)
        spare, others = DECK_SIZE - len(copies), sum(copies.values()) - len(copies)
        share = {card: spare * (n - 1) / others for card, n in copies.items()}
        extra = {card for card in copies if counts[card] == 1 + math.floor(share[card]) + 1}
        assert all(counts[card] - 1 - math.floor(share[card]) in (0, 1) for card in copies)
        rest = lambda card: (share[card] - math.floor(share[card]), [-ord(c) for c in card])  # noqa: E731
        assert all(rest(a) >= rest(b) for a in extra for b in set(copies) - extra)


def test_a_hero_with_twenty_cards_or_fewer_keeps_its_deck_as_it_is(monkeypatch):
    """A Hero's deck already within the 20 cards (a designed or custom Hero) is not reshaped."""
    small = {"jab": 12, "brace": 8}
    monkeypatch.setitem(HEROES, "tester", {**HEROES["bouncer"], "deck": small})
    assert cyberspace_deck("tester") == ["brace"] * 8 + ["jab"] * 12
    monkeypatch.setitem(HEROES, "tester", {**HEROES["bouncer"], "deck": {"jab": 3, "brace": 2}})
    assert cyberspace_deck("tester") == ["brace", "brace", "jab", "jab", "jab"]


def test_the_match_duel_has_no_victory_points_no_turn_limit_and_four_point_secrets():
    """'You do not directly earn points from a successful attack' (no Victory Points); the game
    ends only when the stack runs out (README 28: no safety end); 'All Cyberspace Secret Cards
    cost four Attribute Points'."""
    config = card_state(2)["cards"]["config"]
    assert config["victory_points"] is None and config["turn_limit"] is None and config["secret_cost"] == 4
    assert config["host_turns"] and not (config["teams"] or config["assistance"] or config["fair_start"])
    teams = card_state(4, {"teams": True, "discard_queue": True})["cards"]["config"]
    assert teams["teams"] and teams["discard_queue"] and not teams["assistance"]
    assert card_state(3, {"assistance": True, "fair_start": True})["cards"]["config"]["assistance"]


def test_the_turn_is_discard_draw_clear_then_the_action_phase_where_programs_and_cards_mix():
    """'Just as in a HeroCard duel, there are four phases to every turn ... Discard, Draw,
    Clear, Action.' Programs wait for the Action Phase."""
    state = card_state(2, seed=3)
    seat = state["turn"]
    assert state["cards"]["turn"]["phase"] == "discard" and RULESET.to_act(state) == {seat}
    refused(state, seat, {"type": "draw"}, "cards_first")  # a Probe is a program: Action Phase only
    refused(state, seat, {"type": "end_turn"}, "cards_first")
    two = sorted(state["cards"]["players"][seat]["hand"])[:2]
    state, _ = duel(state, seat, {"type": "discard", "cards": two})
    assert state["cards"]["turn"]["phase"] == "draw"
    refused(state, seat, {"type": "duel", "duel": {"type": "draw", "count": 3}}, "draw_limit")  # never above seven
    state, _ = duel(state, seat, {"type": "draw", "count": 2})
    assert state["cards"]["turn"]["phase"] == "action"  # nothing on the stacks to clear
    assert len(state["cards"]["players"][seat]["hand"]) == 7
    state, _ = act(state, seat, {"type": "draw"})  # now a program may run
    assert state["programs"] == 1


# ---------------------------------------------------------------------------------------
# Hacking with cards
# ---------------------------------------------------------------------------------------

def test_a_successful_attack_hacks_an_avatar_and_earns_no_victory_point():
    """'In Cyberspace, you do not directly earn points from a successful attack; instead, a
    successful attack hacks an Avatar ... If your attack is successful, you hijack your
    target's session.'"""
    state = face_off()
    base = find("base_attack")
    hand(state, 0, base)
    hand(state, 1)
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    assert state["cards"]["sequence"]["block"] == [1] and RULESET.to_act(state) == {1}
    refused(state, 0, {"type": "end_turn"}, "not_your_turn")
    assert state["attack"] == {"seat": 0, "target": {"kind": "avatar", "seat": 1, "avatar": 0, "at": "3,3"},
                               "defenders": [1]}
    state = passes(state, 1, 0)  # "The Attack Sequence ends when all players pass."
    assert state["hijack"] == {"target": 1, "by": 0, "programs": 0, "menu": []} and state["attack"] is None
    assert state["last_duel"]["success"] and state["last_duel"]["duel"]["attack"] == value(base)
    assert [p["vp"] for p in state["cards"]["players"]] == [0, 0]
    # "You may not play cards or execute your own programs during the hijacked session."
    refused(state, 0, {"type": "duel", "duel": {"type": "pass"}}, "hijacked_session")


def test_a_block_equal_to_the_attack_fails_it_and_nothing_is_hacked():
    """'If your total block value equals or exceeds your opponent's total attack value, the
    attack fails.'"""
    state = face_off()
    base = find("base_attack")
    block = find("base_block", value=value(base))
    hand(state, 0, base)
    hand(state, 1, block)
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    state, _ = duel(state, 1, {"type": "play", "cards": [block]})
    state = passes(state, 0, 1)
    assert state["last_duel"]["success"] is False and state["hijack"] is None
    assert state["players"][1]["avatars"][0] == "3,3"
    assert RULESET.to_act(state) == {0} and {"type": "end_turn"} in RULESET.legal_actions(state, 0)


def test_a_base_attack_must_target_an_adjacent_avatar_firewall_or_link():
    """'For a Base Attack, you must be adjacent.' A Base Attack is played with an `attack`
    naming the board target, never as a bare card; an attack needs a Base Attack."""
    state = face_off(3)
    base, mod = find("base_attack"), find("attack_mod")
    hand(state, 0, base, mod)
    refused(state, 0, {"type": "duel", "duel": {"type": "play", "cards": [base], "target": 1}},
            "base_attack_needs_board_target")
    refused(state, 0, {**hack(2), "cards": [base]}, "target_not_adjacent")  # seat 2 sits two nodes away
    refused(state, 0, {**hack(), "cards": [mod]}, "attack_needs_base_attack")
    refused(state, 0, hack(), "attack_needs_base_attack")
    refused(state, 0, {**hack(), "cards": ["no_such_card", 7]}, "attack_needs_base_attack")
    refused(state, 0, {"type": "duel", "duel": {"type": "play", "cards": ["no_such_card"]}}, "malformed_action")
    listed = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "attack"]
    assert listed and all(base in a["cards"] for a in listed)
    assert {"type": "draw"} in RULESET.legal_actions(state, 0)  # programs listed beside the hacks
    assert {**hack(), "cards": sorted([base, mod])} in listed  # a set: Base Attack with its Attack Mod
    assert not any(a["type"] == "duel" and base in a["duel"].get("cards", []) for a in RULESET.legal_actions(state, 0))


def test_a_variable_base_attack_hacks_with_the_attribute_it_selects():
    """Weakness Analysis: 'Attack 0, plus the cost of all cards of selected Attribute in play by
    target': a hack names the Attribute with the cards; each Attribute is listed."""
    state = face_off()
    variable = next(c for c, card in sorted(CARDS.items()) if card.get("effect", {}).get("variable"))
    hand(state, 0, variable)
    state["cards"]["players"][1]["stacks"]["body"] = [{"uid": 70, "card": "x", "face": "up", "cost": 5, "turn": 0}]
    listed = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "attack" and a["target"] == "avatar"]
    assert listed == [{**hack(), "cards": [variable], "attribute": a} for a in ("body", "mind", "x")]
    state, _ = act(state, 0, {**hack(), "cards": [variable], "attribute": "body"})
    from domain.games.herocard import engine
    assert engine.attack_values(state["cards"]) == (value(variable) + 5, 0)
    state = passes(state, 1, 0)
    assert state["last_duel"]["duel"]["attack"] == 5 and state["hijack"]["target"] == 1


def test_a_replayed_base_attack_is_refused_it_would_have_no_board_target():
    """'Replaying a Card: Play any card on your Attribute Stack again' -- but 'For a Base Attack,
    you must be adjacent': in Cyberspace a Base Attack is played only with a board target."""
    from domain.games.cyberspace.rules_cards import card_attack_options
    state = face_off()
    base, replay = find("base_attack"), find("action", effect="replay")
    hand(state, 0, replay)
    attribute = CARDS[base]["attribute"]
    state["cards"]["players"][0]["stacks"][attribute] = [{"uid": 71, "card": base, "face": "up", "cost": 1, "turn": 0}]
    refused(state, 0, {"type": "duel", "duel": {"type": "play", "cards": [replay], "uid": 71}},
            "base_attack_needs_board_target")
    listed = RULESET.legal_actions(state, 0)
    assert not [a for a in listed if a["type"] == "duel" and a["duel"].get("uid") == 71]
    assert not [a for a in listed if a["type"] == "attack"]  # no Base Attack in hand: no hack listed
    assert card_attack_options(state, 0) == []
    hand(state, 0, base, replay)
    attacks = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "attack"]
    assert attacks == card_attack_options(state, 0) == [{**hack(), "cards": [base]}]


def test_other_action_cards_may_target_any_player_even_without_an_adjacent_avatar():
    """'Except for a Base Attack, you can also play valid Action Cards. You may target any
    player with this card, even if his or her Avatar is not adjacent to yours.'"""
    state = face_off(3)
    state["players"][2]["avatars"] = [None] * 3  # seat 2 has nothing on the board
    forcing = find("special_attack", effect="discard")
    block = find("base_block")
    hand(state, 0, forcing)
    hand(state, 2, block)
    state, facts = duel(state, 0, {"type": "play", "cards": [forcing], "target": 2})
    # the target is asked even with one way to comply (HeroCard README 10: the prompt hides the hand)
    assert state["cards"]["pending"]["seat"] == 2
    state, facts = duel(state, 2, {"type": "choose", "cards": [block]}, seq=3)
    assert state["cards"]["players"][2]["hand"] == [] and block in state["cards"]["players"][2]["discard"]


def test_two_firewalls_on_one_connection_both_owners_defend_and_their_blocks_add_up():
    """'If two Firewalls occupy a single connection, an attack on either Firewall affects
    both. The owners of both Firewalls may defend; the block values of the cards they play
    are added together.'"""
    base = next(c for c, card in sorted(CARDS.items()) if card["kind"] == "base_attack" and not card.get("secret")
                and any(b["kind"] == "base_block" and not b.get("secret") and b["value"] < card["value"] <= 2 * b["value"]
                        for b in CARDS.values()))
    block = next(c for c, b in sorted(CARDS.items()) if b["kind"] == "base_block" and not b.get("secret")
                 and b["value"] < value(base) <= 2 * b["value"])

    def walled():
        state = card_state(3)
        put(state, 2, 3, "server", [E])
        put(state, 3, 3, "client", [W, S])
        put(state, 3, 4, "server", [N])
        avatar(state, 0, 3, 3)
        state["players"][1]["firewalls"] = [["3,3", S]]
        state["players"][2]["firewalls"] = [["3,4", N]]
        state = home(state)
        hand(state, 0, base)
        hand(state, 1, block)
        hand(state, 2, block)
        state, _ = act(state, 0, {"type": "attack", "target": "firewall", "x": 3, "y": 4, "side": N, "cards": [base]})
        assert state["attack"]["defenders"] == [1, 2] and state["cards"]["sequence"]["block"] == [1, 2]
        return state

    state = walled()  # one block alone does not hold ...
    state, _ = duel(state, 1, {"type": "play", "cards": [block]})
    state = passes(state, 2, 0, 1)
    assert state["last_duel"]["success"] and state["players"][1]["firewalls"] == state["players"][2]["firewalls"] == []
    state = walled()  # ... both blocks together do
    state, _ = duel(state, 1, {"type": "play", "cards": [block]})
    state, _ = duel(state, 2, {"type": "play", "cards": [block]})
    state = passes(state, 0, 1, 2)
    assert state["last_duel"]["duel"]["block"] == 2 * value(block) and not state["last_duel"]["success"]
    assert state["players"][1]["firewalls"] and state["players"][2]["firewalls"]


def test_to_destroy_your_own_firewall_play_a_base_attack_and_decline_to_defend():
    """'To destroy your own Firewall or Link, simply play a Base Attack and decline to defend.'"""
    state = face_off()
    state["players"][0]["firewalls"] = [["2,3", E]]
    base = find("base_attack")
    hand(state, 0, base)
    state, _ = act(state, 0, {"type": "attack", "target": "firewall", "x": 2, "y": 3, "side": E, "cards": [base]})
    assert state["attack"]["defenders"] == [] and RULESET.to_act(state) == {0}  # nobody else takes part
    state = passes(state, 0)
    assert state["players"][0]["firewalls"] == [] and state["last_duel"]["success"]


def test_one_exclusive_a_turn_so_one_hack_unless_a_card_allows_another_base_attack():
    """'Remember ... you can only play a single Exclusive card on your turn' (a Base Attack is
    Exclusive); 'there are cards that allow you to play more than one Base Attack'."""
    state = face_off()
    first, second = find("base_attack"), find("base_attack")
    extra = find("special_attack", effect="extra_base_attack")
    hand(state, 0, first, second, extra)
    hand(state, 1)
    state, _ = act(state, 0, {**hack(), "cards": [first]})
    state = passes(state, 1, 0)
    state, _ = act(state, 0, {"type": "end_session"})
    refused(state, 0, {**hack(), "cards": [second]}, "one_exclusive_per_turn")
    state, _ = duel(state, 0, {"type": "play", "cards": [extra]})
    state = passes(state, 1)  # the others may respond to it; priority comes back
    state, _ = act(state, 0, {**hack(), "cards": [second]})
    assert state["attack"] is not None


def test_a_purged_base_attack_cancels_the_hack():
    """'If you purge a Base Attack, the Base Attack is cancelled ... it is as if the Exclusive
    action was not played - the target can then play another Base Attack.'"""
    state = face_off()
    base = find("base_attack")
    purge = find("special_block", effect="purge")
    hand(state, 0, base, base)
    hand(state, 1, purge)
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    state, facts = duel(state, 1, {"type": "play", "cards": [purge]})
    assert "attack_cancelled" in [f["f"] for f in facts]
    assert state["attack"] is None and state["cards"]["sequence"] is None and state["hijack"] is None
    assert state["last_duel"] == {"seat": 0, "target": {"kind": "avatar", "seat": 1, "avatar": 0, "at": "3,3"},
                                  "defenders": [1], "success": False, "duel": None, "cancelled": True}
    assert RULESET.to_act(state) == {0}
    state, _ = act(state, 0, {**hack(), "cards": [base]})  # the Exclusive action no longer counts
    assert state["attack"] is not None


def test_a_duplicated_base_attack_resolves_after_the_original_and_its_owner_gains_the_benefits():
    """'The original Attack Sequence is resolved first, and then the duplicate Attack Sequence
    is resolved. During the resolution of the duplicate Attack Sequence, you are the owner of
    this attack, and you gain the benefits if the duplicate attack succeeds.'"""
    state = face_off()
    base = find("base_attack")
    mimic = find("special_block", effect="duplicate")
    hand(state, 0, base)
    hand(state, 1, mimic)
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    state, _ = duel(state, 1, {"type": "play", "cards": [mimic]})
    state = passes(state, 0, 1)
    assert state["hijack"] == {"target": 1, "by": 0, "programs": 0, "menu": []}  # the original first
    state, _ = act(state, 0, {"type": "end_session"})
    sequence = state["cards"]["sequence"]
    assert sequence["duplicate"] and sequence["owner"] == 1 and sequence["target"] == 0
    state = passes(state, 0, 1)
    assert state["last_duel"] == {"seat": 1, "target": {"kind": "session", "seat": 0}, "defenders": [0],
                                  "success": True, "duel": state["cards"]["last_result"], "duplicate": True}
    assert state["last_duel"]["duel"]["owner"] == 1
    assert state["hijack"] == {"target": 0, "by": 1, "programs": 0, "menu": []} and RULESET.to_act(state) == {1}
    # the duplicate's owner executes seat 0's programs, on seat 0's pieces
    state, _ = act(state, 1, {"type": "login", "avatar": 0, "x": 1, "y": 3})
    assert state["players"][0]["avatars"][0] == "1,3" and state["programs"] == 0
    state, _ = act(state, 1, {"type": "end_session"})
    assert RULESET.to_act(state) == {0} and state["turn"] == 0


def to_action_phase(state, seat):
    """Play `seat`'s Discard, Draw and Clear phases plainly (the first listed choice)."""
    while state["cards"]["turn"]["phase"] != "action":
        assert RULESET.to_act(state) == {seat}
        state, _ = duel(state, seat, RULESET.legal_actions(state, seat)[0]["duel"])
    return state


def end_turn(state, seat):
    """End `seat`'s turn: every other seat, in turn order, passes on its Fast-card window."""
    state, _ = act(state, seat, {"type": "end_turn"})
    while state["turn"] == seat and not state["over"]:
        (other,) = RULESET.to_act(state)
        assert other != seat
        state, _ = duel(state, other, {"type": "pass"})
    return state


def test_a_duplicates_owner_who_empties_the_stack_gets_the_last_final_turn():
    """'When someone draws the last Network Tile from the face-down stack, the scoring round
    starts. Beginning with the next player, each player takes one final turn. So, if you empty
    the face-down stack of tiles, there will be one final round, in which you will get the
    final turn.' (The reference card: 'the next player starts the last round'.) Seat 1 owns
    a duplicate during seat 0's turn and draws the last tile in seat 0's hijacked session: the
    final turns are seat 2's, seat 0's, then seat 1's, one each, in turn order."""
    state = face_off(3)
    base, mimic = find("base_attack"), find("special_block", effect="duplicate")
    hand(state, 0, base)
    hand(state, 1, mimic)
    hand(state, 2)
    state["face_up"] += state["stack"][1:]
    state["stack"] = state["stack"][:1]  # one tile left face down
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    state, _ = duel(state, 1, {"type": "play", "cards": [mimic]})
    state = passes(state, 0, 1)
    state, _ = act(state, 0, {"type": "end_session"})  # seat 0's own hijack of seat 1, cut short
    state = passes(state, 0, 1)  # the duplicate succeeds: seat 1 hijacks seat 0's session
    assert state["hijack"]["by"] == 1 and state["turn"] == 0
    state, facts = act(state, 1, {"type": "draw"})
    assert {"f": "final_round", "last": 1} in facts and not state["stack"]
    if state["held"]:
        state, _ = act(state, 1, RULESET.legal_actions(state, 1)[0])
    state, _ = act(state, 1, {"type": "end_session"})
    state = end_turn(state, 0)
    finals = []
    while not state["over"]:
        seat = state["turn"]
        finals.append((seat, state["final_turn"]))
        state = end_turn(to_action_phase(state, seat), seat)
    assert finals == [(1, False), (2, True), (0, True), (1, True)]
    assert all(t["bonus"] == 3 for t in state["tallies"])


# ---------------------------------------------------------------------------------------
# Fast cards on another player's turn
# ---------------------------------------------------------------------------------------

def test_before_a_turn_ends_every_other_seat_may_play_a_fast_card_in_turn_order():
    """'Fast: You can play as many Fast actions as you have free Attribute points for on any
    player's turn, during the Action Phase.' 'Restricted: ... only on your own turn.' A turn
    of programs alone: ending it is the active seat's pass, and each other seat in turn order
    gets priority once; the turn ends when all of them pass."""
    state = face_off(3)
    fast, restricted = find("action", effect="draw"), find("special_attack", effect="discard", timing="restricted")
    hand(state, 1, fast, restricted)
    hand(state, 2, fast)
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 3})
    state, _ = act(state, 0, {"type": "end_turn"})
    assert state["turn"] == 0 and state["closing"] and RULESET.to_act(state) == {1}
    listed = [a["duel"] for a in RULESET.legal_actions(state, 1)]
    assert {"type": "pass"} in listed and any(a.get("cards") == [fast] for a in listed if a["type"] == "play")
    assert not any(a.get("cards") == [restricted] for a in listed if a["type"] == "play")
    refused(state, 1, {"type": "duel", "duel": {"type": "play", "cards": [restricted], "target": 0}}, "restricted_own_turn")
    refused(state, 0, {"type": "draw"}, "not_your_turn")  # the active seat's Action Phase is closing
    state = passes(state, 1)
    assert state["turn"] == 0 and RULESET.to_act(state) == {2}  # the next seat in turn order
    state, facts = duel(state, 2, {"type": "pass"})
    assert state["turn"] == 1 and not state["closing"] and any(f["f"] == "turn" for f in facts)


def test_a_fast_card_played_before_the_turn_ends_reopens_the_action_phase():
    """'Once you have played a card or card set, you must allow your opponent to respond' and
    'The Attack Sequence continues until all players pass': after a Fast card in the window the
    active seat gets priority back with its Action Phase still open (its programs too); the
    turn ends when it ends it again and the others pass."""
    state = face_off()
    fast = find("action", effect="draw")
    hand(state, 1, fast)
    state, _ = act(state, 0, {"type": "end_turn"})
    state, _ = duel(state, 1, {"type": "play", "cards": [fast]})
    assert not state["closing"] and RULESET.to_act(state) == {0} and state["turn"] == 0
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 3})  # still its Action Phase
    assert state["programs"] == 1
    state, _ = act(state, 0, {"type": "end_turn"})
    assert state["turn"] == 0 and RULESET.to_act(state) == {1}  # the window again
    state = passes(state, 1)
    assert state["turn"] == 1


def test_after_ending_its_action_phase_a_seat_may_not_refresh_or_reboot_when_a_fast_card_reopens_it():
    """"When you refresh, you forego your Action Phase completely"; "You can skip your normal
    Action Phase to reboot": a seat that ended its Action Phase (its pass) has not skipped it,
    so when another seat's Fast card hands it priority back, neither is listed or taken."""
    state = face_off()
    fast = find("action", effect="draw")
    hand(state, 1, fast)
    state, _ = act(state, 0, {"type": "end_turn"})
    state, _ = duel(state, 1, {"type": "play", "cards": [fast]})
    assert RULESET.to_act(state) == {0} and state["turn"] == 0
    listed = RULESET.legal_actions(state, 0)
    assert not [a for a in listed if a["type"] == "reboot" or a["type"] == "duel" and a["duel"]["type"] == "refresh"]
    refused(state, 0, {"type": "reboot", "avatars": [], "clear": [], "refresh": False}, "reboot_instead_of_acting")
    refused(state, 0, {"type": "duel", "duel": {"type": "refresh"}}, "refresh_forgoes_action_phase")


def test_rebooting_or_refreshing_foregoes_the_action_phase_so_no_window_follows():
    """'You can skip the Action phase in your turn to reboot'; 'Instead of taking an Action
    Phase, you can refresh your hand': no Action Phase, so no Fast window; the turn ends at once."""
    state = face_off()
    state, _ = act(state, 0, {"type": "reboot", "avatars": [], "clear": [], "refresh": False})
    assert state["turn"] == 1 and not state["closing"]
    state = face_off()
    state, _ = duel(state, 0, {"type": "refresh"})
    assert state["turn"] == 1 and not state["closing"]


# ---------------------------------------------------------------------------------------
# Secret Cards
# ---------------------------------------------------------------------------------------

def test_a_cyberspace_secret_card_expends_four_points_and_only_its_owner_sees_it(monkeypatch):
    """'All Cyberspace Secret Cards cost four Attribute Points.' 'If asked, you must reveal the
    number of Attribute Points expended by any Secret Cards you have deployed.' 'You cannot
    play a Secret Card on the turn during which you deployed it.'"""
    secret = find("special_attack", secret=True) if any(
        c["kind"] == "special_attack" and c.get("secret") for c in CARDS.values()) else \
        next(c for c, card in sorted(CARDS.items()) if card.get("secret"))
    monkeypatch.setitem(CARDS, secret, {**CARDS[secret], "cost": 2})  # printed cost aside: four in Cyberspace
    state = face_off()
    attribute = CARDS[secret]["attribute"]
    hand(state, 0, secret)
    state, facts = duel(state, 0, {"type": "deploy", "card": secret, "attribute": attribute})
    (entry,) = state["cards"]["players"][0]["stacks"][attribute]
    assert entry["cost"] == SECRET_COST == 4 and entry["face"] == "down"
    theirs = RULESET.view(state, 1)["cards"]["players"][0]
    assert theirs["stacks"][attribute] == [{"uid": entry["uid"], "card": None, "face": "down", "cost": 4,
                                            "turn": entry["turn"]}]
    assert theirs["free"][attribute] == 12 - 4
    assert RULESET.view(state, 0)["cards"]["players"][0]["stacks"][attribute][0]["card"] == secret
    (placed,) = [f for f in facts if f["f"] == "duel" and f["fact"]["f"] == "hc.place"]
    assert RULESET.redact(placed, 1)["fact"]["card"] is None and RULESET.redact(placed, 0) == placed
    assert RULESET.redact(placed, None)["fact"]["card"] is None
    deploy = {"type": "duel", "duel": {"type": "deploy", "card": secret, "attribute": attribute}}
    assert "card" not in RULESET.redact_action(deploy, 0, 1)["duel"] and RULESET.redact_action(deploy, 0, 0) == deploy
    state = passes(state, 1)
    refused(state, 0, {"type": "duel", "duel": {"type": "reveal", "uid": entry["uid"], "target": 1}},
            "secret_not_ready")


def test_a_secret_card_played_wrongly_loses_the_rest_of_the_turn_and_the_whole_next_turn():
    """'If you accidentally play a Secret Card incorrectly, either with insufficient Attribute
    Points or by using the wrong Attribute, the card has no affect on game play, and you lose
    the remainder of your turn as well as the entirety of your next turn.' In Cyberspace the
    turn is programs as well as cards: none are left."""
    state = face_off()
    secret = next(c for c, card in sorted(CARDS.items()) if card.get("secret"))
    wrong = next(a for a in ("body", "mind", "x") if a != CARDS[secret]["attribute"])
    hand(state, 0, secret)
    state, _ = duel(state, 0, {"type": "deploy", "card": secret, "attribute": wrong})
    state = passes(state, 1)
    state = home(state, 0, number=3)
    uid = state["cards"]["players"][0]["stacks"][wrong][0]["uid"]
    state, facts = duel(state, 0, {"type": "reveal", "uid": uid, "target": 1})
    kinds = [f["fact"]["f"] if f["f"] == "duel" else f["f"] for f in facts]
    assert "hc.penalty" in kinds and "turn" in kinds  # the rest of this turn is gone: no program after it
    assert state["turn"] == 1 and state["programs"] == 0
    state["cards"]["players"][1]["hand"] = []
    while state["cards"]["turn"]["phase"] != "action":
        state, _ = duel(state, 1, RULESET.legal_actions(state, 1)[0]["duel"])
    state, _ = act(state, 1, {"type": "end_turn"})
    state, facts = duel(state, 0, {"type": "pass"})  # a Fast-card window on another's turn is not a turn
    turns = [f["seat"] for f in facts if f["f"] == "turn"]
    assert turns == [0, 1] and state["turn"] == 1  # seat 0's next turn is lost whole


def test_a_hack_won_in_the_sequence_of_a_wrongly_played_secret_card_is_not_hijacked():
    """'... you lose the remainder of your turn' (README 38): the Attack Sequence still resolves,
    but the session it wins belongs to the lost remainder: nothing is hijacked, the turn ends."""
    state = face_off()
    base = find("base_attack")
    secret = next(c for c, card in sorted(CARDS.items()) if card.get("secret"))
    wrong = next(a for a in ("body", "mind", "x") if a != CARDS[secret]["attribute"])
    hand(state, 0, base)
    hand(state, 1)
    state["cards"]["players"][0]["stacks"][wrong] = [{"uid": 60, "card": secret, "face": "down", "cost": 4, "turn": 0}]
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    state = passes(state, 1)
    state, _ = duel(state, 0, {"type": "reveal", "uid": 60})
    state = passes(state, 1)
    state, facts = duel(state, 0, {"type": "pass"})
    kinds = [f["f"] for f in facts]
    assert kinds.index("hijack") < kinds.index("hijack_end") < kinds.index("turn")
    assert state["hijack"] is None and state["turn"] == 1 and state["last_duel"]["success"]


def test_a_teams_preference_stated_in_the_window_does_not_reopen_the_turn():
    """'Partners ... can only state a preference for attacking or blocking': talk, not a card."""
    state = home(card_state(4, {"teams": True}))
    state, _ = act(state, 0, {"type": "end_turn"})
    assert RULESET.to_act(state) == {1}
    state, _ = duel(state, 1, {"type": "prefer", "preference": "block"})
    assert state["closing"] and RULESET.to_act(state) == {1}
    state = passes(state, 1, 2, 3)
    assert state["turn"] == 1


# ---------------------------------------------------------------------------------------
# Rebooting
# ---------------------------------------------------------------------------------------

def test_reboot_clears_any_top_cards_discards_the_hand_draws_seven_and_removes_avatars():
    """'You may clear some or all of the Action Cards from your Attribute Stacks. Each card
    that is cleared must be at the top of its Attribute Stack. In addition, you may discard
    your entire hand and draw a new hand of seven cards.'"""
    state = face_off()
    player = state["cards"]["players"][0]
    cards = player["deck"][:4]
    player["deck"] = player["deck"][4:]
    player["stacks"]["body"] = [{"uid": 90 + i, "card": c, "face": "up", "cost": 1, "turn": 0} for i, c in enumerate(cards)]
    kept = list(player["hand"])[:3]
    player["discard"] += player["hand"][3:]
    player["hand"] = list(kept)
    refused(state, 0, {"type": "reboot", "avatars": [0], "clear": ["body"] * 5, "refresh": True}, "reboot_clear")
    empty = json_copy(state)  # an empty Action Deck: the seven are drawn from the shuffled discard stack
    mine = empty["cards"]["players"][0]
    mine["discard"], mine["deck"] = mine["discard"] + mine["deck"], []
    empty, facts = act(empty, 0, {"type": "reboot", "avatars": [], "clear": [], "refresh": True})
    assert any(f["f"] == "duel" and f["fact"]["f"] == "hc.reshuffle" for f in facts)
    assert len(empty["cards"]["players"][0]["hand"]) == 7
    state, facts = act(state, 0, {"type": "reboot", "avatars": [0], "clear": ["body"] * 4, "refresh": True})
    after = state["cards"]["players"][0]
    assert after["stacks"]["body"] == [] and len(after["hand"]) == 7  # four cleared: more than a Clear Phase's three
    assert set(kept) <= set(after["discard"]) and state["players"][0]["avatars"][0] is None
    assert state["turn"] == 1


def test_reboots_listed_with_cards_clear_nothing_or_everything_and_refresh_or_not():
    """'You may clear some or all of the Action Cards ... you may discard your entire hand and
    draw a new hand of seven cards': README 39 lists clearing nothing or everything, with and
    without the refresh, for each choice of Avatars."""
    state = face_off()
    state["cards"]["players"][0]["stacks"]["mind"] = [{"uid": 80, "card": "x", "face": "up", "cost": 1, "turn": 0},
                                                      {"uid": 81, "card": "y", "face": "up", "cost": 1, "turn": 0}]
    listed = [a for a in RULESET.legal_actions(state, 0) if a["type"] == "reboot"]
    assert listed == [{"type": "reboot", "avatars": avatars, "clear": clear, "refresh": refresh}
                      for avatars in ([], [0]) for clear in ([], ["mind", "mind"]) for refresh in (False, True)]
    state["cards"]["players"][0]["stacks"]["mind"] = []
    assert [a for a in RULESET.legal_actions(state, 0) if a["type"] == "reboot"] == [
        {"type": "reboot", "avatars": avatars, "clear": [], "refresh": refresh}
        for avatars in ([], [0]) for refresh in (False, True)]


def test_a_reboot_without_refresh_keeps_the_hand_and_its_clears_are_checked():
    state = face_off()
    kept = list(state["cards"]["players"][0]["hand"])
    refused(state, 0, {"type": "reboot", "avatars": [], "clear": "body", "refresh": False}, "reboot_clear")
    refused(state, 0, {"type": "reboot", "avatars": [], "clear": ["legs"], "refresh": False}, "reboot_clear")
    refused(state, 0, {"type": "reboot", "avatars": [], "clear": [], "refresh": "yes"}, "reboot_refresh")
    state, _ = act(state, 0, {"type": "reboot", "avatars": [], "clear": [], "refresh": False})
    assert state["cards"]["players"][0]["hand"] == kept and state["turn"] == 1


def test_at_home_nothing_is_passed_and_no_refresh_after_a_program():
    """A `pass` with nothing open is refused: 'end your turn instead' (README 32); 'When you
    refresh, you forego your Action Phase completely', so not after a program (README 39)."""
    state = face_off()
    draw = find("action", effect="draw")
    hand(state, 0, draw)
    refused(state, 0, {"type": "duel", "duel": {"type": "pass"}}, "nothing_to_pass")
    listed = [a["duel"] for a in RULESET.legal_actions(state, 0) if a["type"] == "duel"]
    assert {"type": "refresh"} in listed and {"type": "play", "cards": [draw]} in listed
    assert {"type": "pass"} not in listed
    state, _ = act(state, 0, {"type": "login", "avatar": 0, "x": 1, "y": 3})
    refused(state, 0, {"type": "duel", "duel": {"type": "refresh"}}, "refresh_forgoes_action_phase")
    listed = [a["duel"] for a in RULESET.legal_actions(state, 0) if a["type"] == "duel"]
    assert {"type": "refresh"} not in listed and {"type": "play", "cards": [draw]} in listed


def test_a_card_draw_on_an_empty_action_deck_shuffles_the_discard_stack():
    """'If your Action Deck runs out of cards, shuffle your discard stack, place it face down
    and continue drawing Action Cards from the top.'"""
    state = face_off()
    draw = find("action", effect="draw")
    player = state["cards"]["players"][0]
    pile = sorted(player["deck"])
    player.update(deck=[], discard=pile, hand=[draw])
    state, facts = duel(state, 0, {"type": "play", "cards": [draw]})
    inner = [f["fact"] for f in facts if f["f"] == "duel"]
    reshuffle = next(f for f in inner if f["f"] == "hc.reshuffle")
    assert sorted(reshuffle["order"]) == pile and len(state["cards"]["players"][0]["hand"]) == 2


def test_a_duplicate_that_fails_hijacks_nothing():
    """'... you gain the benefits if the duplicate attack succeeds': blocked, it does nothing."""
    state = face_off()
    base = find("base_attack")
    mimic = find("special_block", effect="duplicate")
    block = find("base_block", value=value(base))
    hand(state, 0, base, block)
    hand(state, 1, mimic)
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    state, _ = duel(state, 1, {"type": "play", "cards": [mimic]})
    state = passes(state, 0, 1)
    state, _ = act(state, 0, {"type": "end_session"})
    assert state["cards"]["sequence"]["duplicate"] and RULESET.to_act(state) == {0}
    state, _ = duel(state, 0, {"type": "play", "cards": [block]})  # seat 0 blocks the duplicate
    state = passes(state, 1, 0)
    assert state["last_duel"]["duplicate"] and not state["last_duel"]["success"]
    assert state["hijack"] is None and RULESET.to_act(state) == {0}


def test_no_reboot_after_playing_a_card():
    """'If you reboot, you can neither execute programs nor play cards on this turn.'"""
    state = face_off()
    drawing = find("action", effect="draw")
    hand(state, 0, drawing)
    state, _ = duel(state, 0, {"type": "play", "cards": [drawing]})
    state = passes(state, 1)
    assert RULESET.to_act(state) == {0}
    refused(state, 0, {"type": "reboot", "avatars": [], "clear": [], "refresh": False}, "reboot_instead_of_acting")
    assert not [a for a in RULESET.legal_actions(state, 0) if a["type"] == "reboot"]


# ---------------------------------------------------------------------------------------
# Assistance (3-4 players)
# ---------------------------------------------------------------------------------------

def assisted():
    state = line_network(card_state(3, {"assistance": True}), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 2, 3)
    avatar(state, 2, 3, 3)
    return home(state)


def test_assistance_starts_left_of_the_attacker_for_the_losing_side_only():
    """'When a player attacks an opponent, any other player may play a valid Fast Action Card
    to assist the losing side of the conflict. Starting with the player to the left of the
    attacking player and proceeding clockwise, each player in turn gets the opportunity.'"""
    state = assisted()
    base, mod, block = find("base_attack"), find("attack_mod"), find("base_block")
    hand(state, 0, base)
    hand(state, 1, mod, block)
    hand(state, 2)
    state, _ = act(state, 0, {**hack(2), "cards": [base]})
    assert RULESET.to_act(state) == {1}  # seat 1, left of the attacker, before the defender
    refused(state, 1, {"type": "duel", "duel": {"type": "play", "cards": [mod]}}, "assist_losing_side")
    assert {"type": "duel", "duel": {"type": "play", "cards": [block]}} in RULESET.legal_actions(state, 1)
    state, _ = duel(state, 1, {"type": "play", "cards": [block]})
    assert RULESET.to_act(state) == {2} and state["cards"]["assist"] == {"1": "block"}


def test_an_assistant_never_switches_sides():
    """'Once you assist one side of a conflict, you may not switch sides.'"""
    state = assisted()
    base = find("base_attack")
    block = find("base_block", value=None)
    mod = find("attack_mod")
    big = max((c for c, card in CARDS.items() if card["kind"] == "base_block" and not card.get("secret")),
              key=lambda c: value(c))
    hand(state, 0, base)
    hand(state, 1, big, mod)
    hand(state, 2, block)
    state, _ = act(state, 0, {**hack(2), "cards": [base]})
    state, _ = duel(state, 1, {"type": "play", "cards": [big]})  # now the attack is the losing side
    assert state["cards"]["assist"] == {"1": "block"}
    state = passes(state, 2, 0)
    refused(state, 1, {"type": "duel", "duel": {"type": "play", "cards": [mod]}}, "assist_no_switching")


def test_without_assistance_a_third_player_takes_no_part_in_the_attack_sequence():
    state = line_network(card_state(3), nodes=("client", "server", "client", "client", "client"))
    avatar(state, 0, 2, 3)
    avatar(state, 2, 3, 3)
    state = home(state)
    base = find("base_attack")
    hand(state, 0, base)
    state, _ = act(state, 0, {**hack(2), "cards": [base]})
    assert RULESET.to_act(state) == {2}
    state = passes(state, 2, 0)
    assert state["hijack"]["target"] == 2


# ---------------------------------------------------------------------------------------
# Cyberspace Dueling Variants, the tie-break, hidden information
# ---------------------------------------------------------------------------------------

def test_fair_start_the_starting_player_skips_the_first_discard_and_draw():
    """'Fair Start: The starting player skips the Discard and Draw phases of his or her first turn.'"""
    plain, fair = card_state(2, seed=5), card_state(2, {"fair_start": True}, seed=5)
    assert plain["cards"]["turn"]["phase"] == "discard"
    assert fair["cards"]["turn"]["phase"] == "action" and fair["turn"] == plain["turn"]


def test_discard_queue_turns_the_discard_pile_over_instead_of_shuffling():
    """'Discard Queue: When your Action Deck runs out of cards, instead of shuffling the
    Discard pile, simply turn it over and continue drawing from the top.'"""
    state = card_state(2, {"discard_queue": True}, seed=5)
    seat = state["turn"]
    player = state["cards"]["players"][seat]
    pile = sorted(player["deck"])[:6][::-1]  # an order no shuffle is likely to keep
    player.update(deck=[], discard=pile, hand=player["hand"][:4])
    state, _ = duel(state, seat, {"type": "discard", "cards": []})
    state, _ = duel(state, seat, {"type": "draw", "count": 3})
    assert state["cards"]["players"][seat]["hand"][4:] == pile[:3]


def test_the_last_tie_break_is_the_fewest_expended_attribute_points():
    """'If there is still a tie, the tied player with the fewest expended Attribute Points wins.'"""
    state = card_state(2)
    state["tallies"] = [{"networks": 3, "bonus": 1, "score": 4}, {"networks": 3, "bonus": 1, "score": 4}]
    state["cards"]["players"][0]["stacks"]["mind"] = [{"uid": 1, "card": "x", "face": "down", "cost": 4, "turn": 1}]
    assert winners(state) == [1]
    state["cards"]["players"][1]["stacks"]["x"] = [{"uid": 2, "card": "y", "face": "up", "cost": 4, "turn": 1}]
    assert winners(state) == [0, 1]  # still tied: a draw


def test_views_show_nothing_another_seat_may_not_know():
    """Hands, the order of every Action Deck and face-down Secret Cards are hidden: whatever
    they are, another seat's view (and a spectator's) is the same."""
    state = card_state(3, seed=7)
    secret = next(c for c, card in sorted(CARDS.items()) if card.get("secret"))
    state["cards"]["players"][1]["stacks"]["x"] = [{"uid": 50, "card": secret, "face": "down", "cost": 4, "turn": 1}]
    for seat in (0, 2, None):
        other = json_copy(state)
        for s, player in enumerate(other["cards"]["players"]):
            if s == seat:
                continue
            pool = sorted(player["hand"] + player["deck"])[::-1]
            player["hand"], player["deck"] = pool[:len(player["hand"])], pool[len(player["hand"]):]
        other["cards"]["players"][1]["stacks"]["x"][0]["card"] = next(c for c in sorted(CARDS) if c != secret)
        assert RULESET.view(other, seat) == RULESET.view(state, seat)
        assert state["cards"]["players"][1]["hand"] != other["cards"]["players"][1]["hand"] or seat == 1
    own = RULESET.view(state, 1)["cards"]["players"][1]
    assert own["hand"] == state["cards"]["players"][1]["hand"] and own["stacks"]["x"][0]["card"] == secret
    assert RULESET.render(RULESET.view(state, 1))


def test_teams_partners_may_only_state_a_preference():
    """'Partners cannot reveal or discuss the cards in their hands, and can only state a
    preference for attacking or blocking on any given turn.'"""
    state = card_state(4, {"teams": True})
    seat = state["turn"]
    listed = RULESET.legal_actions(state, seat)
    assert {"type": "duel", "duel": {"type": "prefer", "preference": "attack"}} in listed
    state, _ = duel(state, seat, {"type": "prefer", "preference": "block"})
    assert RULESET.view(state, (seat + 1) % 4)["cards"]["players"][seat]["preference"] == "block"


def test_a_timed_out_seat_passes_or_takes_the_phases_plainly():
    state = face_off()
    base = find("base_attack")
    hand(state, 0, base)
    state, _ = act(state, 0, {**hack(), "cards": [base]})
    assert RULESET.default_action(state, 1) == {"type": "duel", "duel": {"type": "pass"}}
    state = passes(state, 1, 0)
    state, _ = act(state, 0, {"type": "end_session"})
    assert RULESET.default_action(state, 0) == {"type": "end_turn"}


def test_firewalls_block_hacks_with_cards_too():
    state = face_off()
    state["players"][1]["firewalls"] = [["3,3", W]]
    base = find("base_attack")
    hand(state, 0, base)
    refused(state, 0, {**hack(), "cards": [base]}, "target_not_adjacent")
    assert not [a for a in RULESET.legal_actions(state, 0) if a["type"] == "attack" and a["target"] == "avatar"]
    assert S == 2 and W == 3


def test_statistics_count_the_cards_played_and_the_heroes():
    from domain.games.cyberspace.stats import card_played, summary

    assert card_played({**hack(), "cards": ["b", "m"]}) == "b"
    assert card_played({"type": "duel", "duel": {"type": "play", "cards": ["c"]}}) == "c"
    assert card_played({"type": "duel", "duel": {"type": "discard", "cards": ["c"]}}) is None
    assert card_played({"type": "attack", "target": "link", "x": 1, "y": 1}) is None  # a Bit Duel
    state = card_state(2)
    assert summary(state, None)["factions"] == [p["hero"] for p in state["cards"]["players"]]


def test_either_of_two_firewall_defenders_may_duplicate_the_base_attack():
    """"an attack on either Firewall affects both. The owners of both Firewalls may defend", and
    "Duplicating a Base Attack: When a Base Attack is played against you ...": the attack is played
    against both owners, so the higher seat may duplicate it too (found by the independent review)."""
    from domain.games.cyberspace.duels import new_card_duel
    from domain.games.herocard import engine
    from domain.kernel.rng import RandomStream
    stream = RandomStream(b"m" * 32, "two-defenders", 1)
    duel = new_card_duel(["sinner", "bouncer", "bioengineer"], 0, stream)
    duel["players"][0]["hand"][0] = "diamond_nails"
    duel["players"][2]["hand"][0] = "mimic_gene"
    duel["turn"]["phase"], duel["priority"] = "action", 0
    for fact in engine.decide(duel, 0, {"type": "play", "cards": ["diamond_nails"]}, stream, defenders=[1, 2]):
        engine.evolve(duel, fact)
    for fact in engine.decide(duel, 1, {"type": "pass"}, stream):
        engine.evolve(duel, fact)
    assert duel["priority"] == 2 and duel["sequence"]["defenders"] == [1, 2]
    duplicate = {"type": "play", "cards": ["mimic_gene"], "target": 0}
    assert duplicate in engine.legal_actions(duel, 2)
    facts = engine.decide(duel, 2, duplicate, stream)
    assert any(f["f"] == "hc.queue_duplicate" and f["duplicate"]["owner"] == 2 for f in facts)
