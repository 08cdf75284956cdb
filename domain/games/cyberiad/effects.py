"""Card effects: the steps each card's note is written in (cards.json), after the rulebook's
CARD LIST. A step acts through the decision's `turn` (facts) and returns None, or a choice
(chooser, kind, options) that `resolve_choice` carries out once made. The turn structure
that runs the steps, checks thresholds between them and asks for choices is in rules.py.
"""

from .board import (card_losing_targets, is_sally, living, machine_just_played, machines_in_play, opponents,
                    owner_in_play, passive, shielded)
from .cards import card_for


def _who(turn, actor, step, variables) -> list[int]:
    who = step["who"]
    if who == "me":
        return [actor]
    if who == "target":
        return [variables["target"]]
    if who == "each_opponent":
        return opponents(turn.state, actor)
    return [who]


def _amount(step, variables) -> int:
    n = step["n"]
    if isinstance(n, str):  # "X" or "-X": the number of cards paid
        return -variables["X"] if n.startswith("-") else variables["X"]
    return n


def put_into_play(turn, seat, instance, source):
    """A Sally, Machine or Effect enters `seat`'s play area, from the hand or by a card's effect:
    the turn's one card (README 5, 25); a Machine is played (The Machine That Wasn't, Invent it First)."""
    st = turn.state
    turn.move(instance, source, f"play:{seat}")
    turn.emit({"f": "played"})
    if card_for(instance)["type"] == "machine":
        turn.emit({"f": "last_machine", "card": instance, "seat": seat, "turn": st["turn"]["number"]})
        bonus = sum(card_for(i).get("passive", {}).get("fame_per_machine_played", 0)
                    for i in st["play"][seat] if i != instance)
        turn.tokens(seat, "fame", bonus)


def step_gain(turn, actor, step, variables, queue):
    for seat in _who(turn, actor, step, variables):
        turn.tokens(seat, step["what"], _amount(step, variables))


def _drawing(turn, seat, n, queue) -> int:
    """How many cards an instruction to draw `n` draws for `seat` (README 14)."""
    advisor = passive(turn.state, seat, "draw_extra_then_discard", False)
    drawn = min(n + 1 if advisor else n, len(turn.state["deck"]))
    if advisor and drawn:
        # The Perfect Advisor: "When drawing cards draw 2 & discard 1". The discard is its
        # owner's own rule, not an opponent making them lose cards: Shields do not stop it.
        # Nothing drawn (an empty deck), nothing discarded.
        queue.insert(0, {"op": "discard_chosen", "n": 1, "who": seat, "own": True})
    return drawn


def step_draw(turn, actor, step, variables, queue):
    for seat in _who(turn, actor, step, variables):
        for _ in range(_drawing(turn, seat, step["n"], queue)):
            turn.move(turn.state["deck"][-1], "deck", f"hand:{seat}")


def step_discard_random(turn, actor, step, variables, queue):
    for seat in _who(turn, actor, step, variables):
        hand = turn.state["hands"][seat]
        if hand and not (seat != actor and shielded(turn.state, seat)):
            turn.move(hand[turn.rng.randbelow(len(hand))], f"hand:{seat}", "discard")


def step_discard_chosen(turn, actor, step, variables, queue):
    seats = _who(turn, actor, step, variables)
    if len(seats) > 1:  # one prompt after another, in seat order
        queue[0:0] = [{**step, "who": s} for s in seats]
        return None
    seat = seats[0]
    st = turn.state
    if step["n"] <= 0 or st["out"][seat] or (seat != actor and not step.get("own") and shielded(st, seat)):
        return None
    if step["n"] > 1:
        queue.insert(0, {**step, "n": step["n"] - 1, "who": seat})
    return seat, "discard", sorted(st["hands"][seat])


def step_choose_opponent(turn, actor, step, variables, queue):
    st = turn.state
    options = card_losing_targets(st, actor) if step["purpose"] == "take_cards" else opponents(st, actor)
    return actor, "target_opponent", options


def step_choose_player(turn, actor, step, variables, queue):
    return actor, "target_player", living(turn.state)


def step_steal_chosen(turn, actor, step, variables, queue):
    # Spies: the thief sees the hand (the options) and takes one card.
    return actor, "steal", sorted(turn.state["hands"][variables["target"]])


def step_steal_random(turn, actor, step, variables, queue):
    hand = turn.state["hands"][variables["target"]]
    if hand:
        turn.move(hand[turn.rng.randbelow(len(hand))], f"hand:{variables['target']}", f"hand:{actor}")


def step_peek_hand(turn, actor, step, variables, queue):
    target = variables["target"]
    turn.emit({"f": "peek", "seat": actor, "zone": f"hand:{target}", "cards": sorted(turn.state["hands"][target])})


def step_peek_deck(turn, actor, step, variables, queue):
    turn.emit({"f": "peek", "seat": actor, "zone": "deck", "cards": turn.state["deck"][::-1][:step["n"]]})


def step_trade_hands(turn, actor, step, variables, queue):
    turn.emit({"f": "swap_hands", "seats": [actor, variables["target"]]})


def step_search_deck(turn, actor, step, variables, queue):
    deck = turn.state["deck"]
    options = sorted(i for i in deck if step["filter"] == "any" or is_sally(card_for(i)))
    # The searched deck is shuffled afterwards, so the search reveals no order.
    queue.insert(0, {"op": "shuffle_deck"})
    return actor, "search_deck", options


def step_shuffle_deck(turn, actor, step, variables, queue):
    turn.emit({"f": "shuffle", "order": turn.rng.shuffle(turn.state["deck"])})


def step_search_discard(turn, actor, step, variables, queue):
    return actor, "search_discard", sorted(set(turn.state["discard"]) - {variables.get("self")})


def step_choose_machine(turn, actor, step, variables, queue):
    return actor, "machine", machines_in_play(turn.state, actor, step["scope"])


def step_steal_machine_just_played(turn, actor, step, variables, queue):
    instance = machine_just_played(turn.state, actor)
    if instance:
        turn.move(instance, f"play:{owner_in_play(turn.state, instance)}", f"play:{actor}")


def step_discard_in_play(turn, actor, step, variables, queue):
    return actor, "discard_in_play", sorted(turn.state["play"][actor])


def step_draw_keep_if_sally(turn, actor, step, variables, queue):
    # Solar Schooner: "Draw a card: If it is a Sally keep it". A draw like any other (README 14,
    # 17): with The Perfect Advisor two cards, each kept if a Sally, then the Advisor's discard.
    for _ in range(_drawing(turn, actor, 1, queue)):
        instance = turn.state["deck"][-1]
        turn.move(instance, "deck", f"hand:{actor}")
        if not is_sally(card_for(instance)):
            turn.move(instance, f"hand:{actor}", "discard")


def step_imprison(turn, actor, step, variables, queue):
    turn.emit({"f": "imprisoned", "seat": variables["target"], "delta": 1})


def step_fill_hands(turn, actor, step, variables, queue):
    # Council of War: "All players may fill their hands": each says yes or no, in turn order.
    st = turn.state
    order = [(actor + i) % st["seats"] for i in range(st["seats"])]
    queue[0:0] = [{"op": "offer_fill", "who": s, "to": step["to"]} for s in order if not st["out"][s]]


def step_offer_fill(turn, actor, step, variables, queue):
    seat = step["who"]
    # A player who left the match after the offers were queued is asked nothing.
    if turn.state["out"][seat] or len(turn.state["hands"][seat]) >= step["to"] or not turn.state["deck"]:
        return None
    return seat, "fill_hand", ["no", "yes"]


STEPS = {
    "gain": step_gain,
    "draw": step_draw,
    "discard_random": step_discard_random,
    "discard_chosen": step_discard_chosen,
    "choose_opponent": step_choose_opponent,
    "choose_player": step_choose_player,
    "steal_chosen": step_steal_chosen,
    "steal_random": step_steal_random,
    "peek_hand": step_peek_hand,
    "peek_deck": step_peek_deck,
    "trade_hands": step_trade_hands,
    "search_deck": step_search_deck,
    "shuffle_deck": step_shuffle_deck,
    "search_discard": step_search_discard,
    "choose_machine": step_choose_machine,
    "steal_machine_just_played": step_steal_machine_just_played,
    "discard_in_play": step_discard_in_play,
    "draw_keep_if_sally": step_draw_keep_if_sally,
    "imprison": step_imprison,
    "fill_hands": step_fill_hands,
    "offer_fill": step_offer_fill,
}


# The steps that may ask for a choice: thresholds are acted on before each of them.
ASKS = {"discard_chosen", "choose_opponent", "choose_player", "steal_chosen", "search_deck",
        "search_discard", "choose_machine", "discard_in_play", "offer_fill"}


def resolve_choice(turn, actor, step, chooser, option, variables, queue):
    """Carry out the choice `chooser` made for `step`."""
    st = turn.state
    op = step["op"]
    if op in ("choose_opponent", "choose_player"):
        variables["target"] = option
    elif op == "discard_chosen":
        turn.move(option, f"hand:{chooser}", "discard")
    elif op == "steal_chosen":
        turn.move(option, f"hand:{variables['target']}", f"hand:{actor}")
    elif op == "search_deck":
        if step["to"] == "hand":
            turn.move(option, "deck", f"hand:{actor}")
        else:  # put into play: "A>" effects happen "when the card is put into play"
            put_into_play(turn, actor, option, "deck")
            queue[0:0] = card_for(option).get("on_play", [])
    elif op == "search_discard":
        turn.move(option, "discard", f"hand:{actor}")
    elif op == "choose_machine":
        owner = owner_in_play(st, option)
        turn.move(option, f"play:{owner}", "discard" if step["to"] == "discard" else f"hand:{owner}")
    elif op == "discard_in_play":
        turn.move(option, f"play:{actor}", "discard")
    elif op == "offer_fill":
        if option == "yes":
            need = step["to"] - len(st["hands"][chooser])
            queue.insert(0, {"op": "draw", "n": need, "who": chooser})
    else:
        raise ValueError(f"step {op!r} offers no choice")
