"""Hidden information a red team read out of Algomancy while holding every byte a seat or a
spectator may read (1.3.0). Each test pairs two states, or two deals, that differ only in
something hidden from the reader, and asks that what the reader is shown - views, redacted
records, the search bot's decision - is the same:

1. card ids: a card's id said where it stood in its owner's deck list (ids were numbered in
   list order), so a played card told an opponent how many cards came before it;
2. the shape of redacted facts: a fact under a hidden zone was redacted one by one, so their
   number told whether two face-down resources shared an element; the number of formations on
   a face-down FFA intent card and the number of different cards in a deck list were shown;
3. the search bot: its determinization kept the opponents' hidden decks, hands and intent
   cards as they were (an opponent's constructed deck, a cube drafter's picks, the formations
   on a face-down intent card).
"""

import random

from domain.games.algomancy import RULESET
from domain.games.algomancy.cards import ELEMENT_DECKS, name_of
from domain.kernel.canonical import canonical_json, json_copy
from domain.kernel.redaction import redact_data
from domain.kernel.rng import RandomStream
from domain.kernel.search import SearchBot

from .arena import act, at, game, put, resources
from .test_properties import public_ids

GREEDY = RULESET.bots["greedy"]
KEY = b"\x07" * 32
WATER = ELEMENT_DECKS["water"][:30]  # a 30-card deck list (two of each, Undertow left out)
SEED = b"\x02" * 32  # seat 1 plays seven cards before it draws the card that differs


def deal(deck, seed=KEY, **options):
    """1v1 constructed: seat 0 the fire deck, seat 1 the deck list `deck` (hidden from seat 0)."""
    return RULESET.setup({"decks": {"0": "fire", "1": deck}, **options}, ["ann", "bob"], RandomStream(seed, "m", 1))


def ids_by_card(state, seat):
    """Every card instance of a seat's deck and hand, by (name, copy): the copy numbered in id order."""
    cards = state["decks"][state["players"][seat]["deck"]] + state["players"][seat]["hand"]
    seen, result = {}, {}
    for card in sorted(cards):
        copy = seen[name_of(card)] = seen.get(name_of(card), 0) + 1
        result[(name_of(card), copy)] = card
    return result


def views(state):
    return canonical_json([RULESET.view(state, seat) for seat in (None, 0)])


def greedy_step(state, seq):
    seat = min(RULESET.to_act(state))
    action = GREEDY(state, seat, random.Random(seq))
    for fact in RULESET.decide(state, seat, action, RandomStream(KEY, "m", seq)):
        state = RULESET.evolve(state, fact)
    return state


# --- 1. card ids -----------------------------------------------------------------------

def test_a_card_id_carries_nothing_of_the_other_hidden_cards():
    """One hidden card of seat 1's list differs (Abyssal Evocation or Undertow, sorting first
    and last): every other card keeps its id. Numbered in list order, every id after the first
    card moved, so an opponent reading one played card's id learnt how many cards stood before
    it in the hidden list."""
    one = deal(WATER)
    other = deal(WATER[1:] + ["Undertow"])
    a, b = ids_by_card(one, 1), ids_by_card(other, 1)
    a.pop(("Abyssal Evocation", 2))
    b.pop(("Undertow", 1))
    assert a == b
    # and a card's id is not its position: the numbers say nothing of the order of the deck
    numbers = [int(card.split("#")[1]) for card in one["decks"]["p1"]]
    assert numbers != sorted(numbers) and numbers != sorted(numbers, reverse=True)


def test_the_order_a_deck_list_is_written_in_is_hidden_and_changes_nothing():
    """The same deck list written in another order deals the same match (its cards, their ids,
    their order in the deck): nothing shown later can tell the orders apart."""
    state, reordered = deal(WATER), deal(list(reversed(WATER)))
    assert canonical_json(state) == canonical_json(reordered)
    for seq in range(2, 40):
        state, reordered = greedy_step(state, seq), greedy_step(reordered, seq)
        assert views(state) == views(reordered)


def test_two_deals_differing_only_in_a_hidden_card_look_the_same_while_it_is_hidden():
    """Seat 1's list holds Kelp Lurker or, in its place, Kindling Rite: while that card lies in
    the deck, the spectator and seat 0 are shown the same views, action after action, though
    seat 1 plays other cards meanwhile."""
    with_kelp = WATER
    with_rite = [c for c in WATER if c != "Kelp Lurker"] + ["Kelp Lurker", "Kindling Rite"]
    one, other = deal(with_kelp, seed=SEED), deal(with_rite, seed=SEED)
    seat_one_cards, played = set(ids_by_card(one, 1).values()), 0
    for seq in range(2, 400):
        if sorted(map(name_of, one["players"][1]["hand"])) != sorted(map(name_of, other["players"][1]["hand"])):
            break  # drawn: seat 1 now plays with another hand
        assert views(one) == views(other)
        played = len(public_ids(one) & seat_one_cards)
        one, other = greedy_step(one, seq), greedy_step(other, seq)
    assert played >= 3, "seat 1 played cards while the differing card was hidden"


# --- 2. redacted facts have one shape whatever is hidden ---------------------------------

def _redacted(state, seat, action):
    facts = RULESET.decide(state, seat, action, RandomStream(KEY, "m", 9))
    data = {"seat": seat, "action": action, "facts": facts}
    return [canonical_json(redact_data(RULESET, "ActionTaken", data, reader)) for reader in (None, 0)]


def _dormant_pair():
    """Seat 1 in its resource step with two active fire resources and two dormant ones: a fire
    one it activates (three fire affinity: a Shard comes) and a face-down one, fire or water."""
    pair = []
    for element, kind in (("fire", "Molten Caldera"), ("water", "Benthic Reaches")):
        state = at(game(), "resources", seats=[1])
        resources(state, 1, "fire", 2)
        state["players"][1]["dormant"] = [
            {"id": "Molten Caldera#601", "kind": "Molten Caldera", "element": "fire"},
            {"id": f"{kind}#602", "kind": kind, "element": element}]
        pair.append(state)
    return pair


def test_activating_a_resource_beside_a_face_down_one_redacts_alike_whatever_its_element():
    """The face-down resource is fire or water: the redacted record of the activation is the
    same. The facts under the dormant zone were compared item by item, so a fire neighbour gave
    one fact (its id) and a water one three (id, kind, element)."""
    one, other = _dormant_pair()
    action = {"type": "activate_resource", "resource": "Molten Caldera#601"}
    assert len(act(one, 1, action)["players"][1]["dormant"]) == 2, "a Shard came: the list kept its length"
    assert _redacted(one, 1, action) == _redacted(other, 1, action)


def test_creating_a_resource_redacts_alike_whatever_its_element():
    records = []
    for element in ("fire", "water", "metal"):
        state = at(game(), "resources", seats=[1])
        state["players"][1]["hand"] = ["Jelly#801", "Quake#802"]
        state["players"][1]["dormant"] = [{"id": "Prismite#2", "kind": "Prismite", "element": None}]
        records.append(_redacted(state, 1, {"type": "create_resource", "card": "Jelly#801", "element": element}))
    assert records[0] == records[1] == records[2]


def test_every_fact_under_a_hidden_zone_is_the_whole_zone():
    """The root of the shapes: along greedy play in every format, a fact under a hidden zone
    is never deeper than the zone (a redacted fact is then one summary, its size public)."""
    from domain.games.algomancy.view import hidden_prefix
    for options, seats in [({}, 2), ({"format": "live_draft"}, 2), ({"format": "cube_draft"}, 2),
                           ({"setup": "ffa"}, 3), ({"setup": "teams_split", "format": "team_draft"}, 4)]:
        state = RULESET.setup(options, [f"p{i}" for i in range(seats)], RandomStream(KEY, "m", 1))
        for seq in range(2, 400):
            if RULESET.outcome(state) is not None:
                break
            seat = min(RULESET.to_act(state))
            facts = RULESET.decide(state, seat, GREEDY(state, seat, random.Random(seq)), RandomStream(KEY, "m", seq))
            for fact in facts:
                cut = hidden_prefix(fact["path"], None)
                assert not cut or len(fact["path"]) == cut, (options, fact["path"])
            for fact in facts:
                state = RULESET.evolve(state, fact)


def _ffa_attack(seat_one_attacks):
    state = game("ffa", 3)
    put(state, 0, "Jelly")
    unit = put(state, 1, "Boulder Golem")
    state = at(state, "attack", seats=[0, 1, 2], intent=True)
    state["battle"] = {"phase": 1, "formations": [], "next": 0, "triggered": []}
    formations = [{"target": 2, "columns": [[unit]], "tokens": []}] if seat_one_attacks else []
    return state, {"type": "declare_attack", "formations": formations}


def test_a_face_down_intent_card_says_nothing_of_what_it_declares():
    """FFA: "placing intent cards face down ... Once all players have finished this, all of the
    cards are flipped up": before the flip another reader sees that seat 1 laid its intent
    card, not whether it attacks (the number of its formations was shown)."""
    (attacks, with_attack), (stays, no_attack) = _ffa_attack(True), _ffa_attack(False)
    assert _redacted(attacks, 1, with_attack) == _redacted(stays, 1, no_attack)
    after = act(attacks, 1, with_attack), act(stays, 1, no_attack)
    assert RULESET.view(after[0], 0) == RULESET.view(after[1], 0)


def test_a_deck_list_shows_others_neither_its_length_nor_how_many_different_cards_it_holds():
    """Team draft: partners bring 32 and 30 cards or 30 and 32 (their team's deck holds 62
    either way): the other team and a spectator are shown the same. A deck list was shown by
    the number of different cards in it, which told how many were singles; its length would tell
    each partner's share."""
    fire, water = ELEMENT_DECKS["fire"], ELEMENT_DECKS["water"]
    seen = []
    for lists in ((fire, water[:30]), (fire[:30], water)):
        decks = {"0": lists[0], "2": lists[1], "1": "earth", "3": "wood"}
        state = RULESET.setup({"setup": "teams_split", "format": "team_draft", "decks": decks},
                              ["a", "b", "c", "d"], RandomStream(KEY, "m", 1))
        seen.append([RULESET.view(state, seat)["players"][s]["deck_list"] for seat in (None, 1) for s in (0, 2)])
    assert seen[0] == seen[1]
    facts = [{"f": "set", "path": ["players", 1, "deck_list"], "value": deck}
             for deck in (WATER, sorted(set(ELEMENT_DECKS["water"]) | set(ELEMENT_DECKS["earth"])))]
    assert RULESET.redact(facts[0], 0) == RULESET.redact(facts[1], 0)


# --- 3. the search bot decides from its seat's view ------------------------------------

def _mid_game(options=None, seats=2, seat=0, actions=60):
    """A greedy match played until `seat` has at least two choices, after some actions."""
    state = RULESET.setup(options or {"decks": {"0": "fire", "1": "water"}}, [f"p{i}" for i in range(seats)],
                          RandomStream(KEY, "m", 1))
    for seq in range(2, 2000):
        if seq > actions and seat in RULESET.to_act(state) and len(RULESET.legal_actions(state, seat)) > 1:
            return state
        state = greedy_step(state, seq)
    raise AssertionError("no decision found")


def _hidden_otherwise(state, seat):
    """The same state with the other seats' hands, decks and face-down resources made of other
    cards (the seat cannot tell the two apart)."""
    other = json_copy(state)
    swap = ELEMENT_DECKS["metal"] * 4
    for o, player in enumerate(other["players"]):
        if o == seat:
            continue
        player["hand"] = [f"{swap[i]}#{900_000 + 10 * o + i}" for i in range(len(player["hand"]))]
        deck = other["decks"][player["deck"]]
        if player["deck"] != other["players"][seat]["deck"]:
            other["decks"][player["deck"]] = [f"{swap[-i - 1]}#{800_000 + 100 * o + i}" for i in range(len(deck))]
        for resource in player["dormant"]:
            if resource["element"] is not None:
                resource.update(element="metal", kind="Alloyed Plains")
    return other


def test_the_determinization_reads_nothing_an_opponent_hides():
    state = _mid_game()
    other = _hidden_otherwise(state, 0)
    assert RULESET.view(other, 0) == RULESET.view(state, 0)
    for n in range(3):
        assert canonical_json(RULESET.determinize(state, 0, random.Random(n))) == \
            canonical_json(RULESET.determinize(other, 0, random.Random(n)))


def test_the_search_bot_decides_alike_whatever_an_opponent_hides():
    """Two states that differ only in seat 1's hidden hand and deck: the same decision, for
    the same bot seed (the bot sampled the opponent's real deck, so its playouts drew the
    opponent's real cards)."""
    bot = SearchBot(RULESET, playouts=8, width=4, depth=30, policy="random",
                    milliseconds=None)  # no incumbent: the samples decide; no clock: the same budget each time
    compared = 0
    for actions in (20, 40, 60, 90, 120, 140):
        state = _mid_game(actions=actions)
        other = _hidden_otherwise(state, 0)
        assert bot(state, 0, random.Random(3)) == bot(other, 0, random.Random(3))
        compared += 1
    assert compared == 6


def test_a_cube_drafters_picks_are_not_kept_in_the_sample():
    """Cube draft: the other drafter's hand (the cards it kept) is hidden; the sample deals it
    from the cards seat 0 has not seen, so two drafts differing in what seat 1 kept (the rest
    of the cube holding the other cards) give the same sample."""
    state = RULESET.setup({"format": "cube_draft"}, ["a", "b"], RandomStream(KEY, "m", 1))
    other = json_copy(state)
    hand, pool = other["players"][1]["hand"], other["cube"]["pool"]
    hand[0], pool[-1] = pool[-1], hand[0]
    assert RULESET.view(other, 0) == RULESET.view(state, 0)
    for n in range(3):
        assert canonical_json(RULESET.determinize(state, 0, random.Random(n))) == \
            canonical_json(RULESET.determinize(other, 0, random.Random(n)))


def test_a_face_down_intent_card_is_not_read_by_the_sample():
    """FFA: seat 1 laid an intent card (an attack, or none); seat 0, still to declare, samples
    the same states either way."""
    samples = []
    for attacks in (True, False):
        state, action = _ffa_attack(attacks)
        state = act(state, 1, action)
        samples.append([canonical_json(RULESET.determinize(state, 0, random.Random(n))) for n in range(3)])
    assert samples[0] == samples[1]


def test_the_greedy_bot_reads_nothing_an_opponent_hides():
    for actions in (40, 90, 140):
        state = _mid_game(actions=actions)
        assert GREEDY(state, 0, random.Random(1)) == GREEDY(_hidden_otherwise(state, 0), 0, random.Random(1))
