"""The greedy bot uses the game's mechanics as the rulebook's Strategy Tips advise (issue 29:
it used to spawn one Avatar and stop): a further spawn, a reboot from a hopeless position,
cards played outside an Attack Sequence, and the Discard Queue's order."""

import random

from domain.games.cyberspace import RULESET
from domain.games.cyberspace.bots import card_move, greedy_bot

from .boards import E, N, S, W, act, avatar, new_state, put
from .test_card_duels import face_off, find, hand


def test_greedy_spawns_a_further_avatar_once_its_first_holds_a_server():
    """'Spawn early in the game. With more avatars you can score more networks.' Its Avatar on
    a server, an empty server in reach of the clients: the greedy bot spawns another."""
    state = new_state()
    put(state, 1, 3, "client", [E]), put(state, 2, 3, "server", [W, E]), put(state, 3, 3, "client", [W, E])
    put(state, 4, 3, "server", [W, S]), put(state, 4, 4, "client", [N])
    avatar(state, 0, 2, 3)
    action = greedy_bot(state, 0, random.Random(1))
    assert action["type"] == "spawn" and (action["x"], action["y"]) in ((1, 3), (3, 3), (4, 4))


def test_greedy_reboots_a_hopeless_position_to_spawn_elsewhere():
    """'If your position is hopeless in the midgame, reboot and spawn somewhere else on the next
    turn': its only Avatar on a client of a network without a server, while another network
    has an empty server."""
    state = new_state()
    put(state, 1, 1, "client", [E]), put(state, 2, 1, "client", [W])  # no server here
    put(state, 1, 3, "client", [E]), put(state, 2, 3, "server", [W])
    avatar(state, 0, 1, 1)
    assert greedy_bot(state, 0, random.Random(1)) == {"type": "reboot", "avatars": [0]}
    state["players"][1]["avatars"][0] = "2,3"  # the other server taken: nowhere better to go
    assert greedy_bot(state, 0, random.Random(1))["type"] != "reboot"


def test_greedy_plays_a_card_draw_in_another_players_window():
    """'Fast: ... on any player's turn, during the Action Phase': with a short hand it draws
    cards in the window before the active seat's turn ends."""
    state = face_off()
    draw = find("action", effect="draw")
    hand(state, 1, draw)
    state, _ = act(state, 0, {"type": "end_turn"})
    assert RULESET.to_act(state) == {1}
    assert greedy_bot(state, 1, random.Random(1)) == {"type": "duel", "duel": {"type": "play", "cards": [draw]}}


def test_with_the_discard_queue_greedy_discards_what_it_wants_back_first():
    """'Discard Queue: When your Action Deck runs out of cards, instead of shuffling the Discard
    pile, simply turn it over and continue drawing from the top': the first card discarded
    comes back first, so a block goes before a trick when both are listed."""
    state = face_off(options={"discard_queue": True})
    block, mod, trick = find("base_block"), find("attack_mod"), find("action", effect="draw")
    cards = state["cards"]
    cards["turn"]["phase"] = "discard"
    hand(state, 0, trick, block, block, block, block, mod)
    wanted = card_move(state, 0, [{"type": "discard", "cards": order} for order in
                                  ([trick, mod, block], [mod, block, trick], [block, mod, trick])], random.Random(1))
    assert wanted == {"type": "discard", "cards": [block, mod, trick]} != {"type": "discard", "cards": sorted([block, mod, trick])}
    listed = [{"type": "discard", "cards": sorted([block, mod, trick])}]  # only the sorted order listed
    assert card_move(state, 0, listed, random.Random(1)) == listed[0]

