"""What the rules keep to make the search bot faster (issue 32) agrees with what it stands for:
a card instance's card, looked up in one step, and a play area's points and Sallies, kept by
the area's cards, against the same sums made afresh from the card data."""

import random

import pytest

from domain.games.cyberiad import RULESET
from domain.games.cyberiad.board import fame, machines, sallies, sallies_for_game_end, trouble
from domain.games.cyberiad.cards import CARDS, card_for, card_of
from domain.kernel.rng import RandomStream

from ..replay import random_play


def test_every_instance_is_looked_up_as_the_card_it_names():
    for card in CARDS.values():
        for instance in card["instances"]:
            assert card_for(instance) is CARDS[card_of(instance)]
    some = list(CARDS)[-1]
    assert card_for(f"{some}:99") is CARDS[some]  # a copy the list does not name: read from its id


def counted_afresh(state, seat):
    """(fame, trouble, sallies, sallies for the game's end, machines) summed card by card, as the
    card list says, with nothing kept."""
    cards = [CARDS[card_of(i)] for i in state["play"][seat]]
    in_sallies = [c for c in cards if c["type"] == "sally" or c.get("passive", {}).get("counts_as_sally")]
    machine_count = sum(1 for c in cards if c["type"] == "machine")

    def points(card, kind):
        if card[kind] != "X":
            return card[kind]
        return {"sallies": len(in_sallies), "machines_half": machine_count // 2}.get(card.get(f"{kind}_x"), 0)
    return (state["fame"][seat] + sum(points(c, "fame") for c in cards),
            state["trouble"][seat] + sum(points(c, "trouble") for c in cards),
            len(in_sallies), sum(c.get("passive", {}).get("sallies_for_game_end", 1) for c in in_sallies),
            machine_count)


def counted(state, seat):
    return (fame(state, seat), trouble(state, seat), sallies(state, seat), sallies_for_game_end(state, seat),
            machines(state, seat))


@pytest.mark.parametrize("seats,policy", [(2, "random"), (3, "greedy"), (4, "random"), (2, "greedy")])
def test_a_play_areas_counts_are_its_cards_counted_afresh_at_every_step(seats, policy):
    def counts_as_afresh(state):
        for seat in range(seats):
            assert counted(state, seat) == counted_afresh(state, seat)

    def checks(setup):
        counts_as_afresh(setup)
        return lambda step: counts_as_afresh(step.state)
    for match in range(3):
        random_play(RULESET, {}, seats, f"kept-{seats}-{policy}-{match}", bots=(policy,), checks=checks)


def test_a_play_area_changed_in_place_is_counted_again():
    cards = sorted(CARDS)
    rand = random.Random(7)
    state = RULESET.setup({}, ["a", "b"], RandomStream(b"\x01" * 32, "kept", 1))
    for _ in range(200):
        state["play"][0][:] = rand.sample(cards, rand.randrange(0, 9))  # the same list, other cards
        assert counted(state, 0) == counted_afresh(state, 0)
