"""Two things the view and the listing show, pinned after mutation testing found them unread
(issue 29): whether the seat has attacked this turn, and the mulligan shortcuts."""

from domain.games.cybermancy import RULESET
from domain.games.cybermancy.cards import POWER_VALUE
from domain.kernel.rng import RandomStream

from .arena import act, arena, card_with, power_cards

ONE_ONE = card_with(cpu=1, ram=1, keyword="battle_ready")


def test_after_a_summon_without_an_attack_the_view_says_the_seat_has_not_attacked():
    state = arena(hands={0: [ONE_ONE]}, cpu={0: power_cards("cpu", 1, 1)}, ram={0: power_cards("ram", 1, 1)})
    state = act(state, 0, {"type": "summon", "card": ONE_ONE, "cpu": power_cards("cpu", 1, 1),
                           "ram": power_cards("ram", 1, 1)})
    assert RULESET.view(state, 0)["attacked"] is False  # false, not null: a flag a client reads


def test_the_mulligan_listing_offers_keep_redraw_every_creature_and_redraw_every_power_card_worth_1():
    state = RULESET.setup({}, ["p0", "p1"], RandomStream(b"\x05" * 32, "m", 1))
    assert state["phase"] == "mulligan"
    seat = min(RULESET.to_act(state))
    player = state["players"][seat]
    keep, creatures, ones = RULESET.legal_actions(state, seat)
    assert (keep["creatures"], keep["cpu"], keep["ram"]) == ([], [], [])
    assert creatures["creatures"] == player["hand"]
    assert ones["cpu"] == [c for c in player["cpu"] if POWER_VALUE[c] == 1]
    assert ones["ram"] == [c for c in player["ram"] if POWER_VALUE[c] == 1] and ones["ram"]
    assert set(ones) == set(keep)
