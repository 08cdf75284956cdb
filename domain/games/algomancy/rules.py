"""Algomancy, after rules/algomancy.txt: set-up, formats and player setups, and the actions
players take. The turn itself is in flow.py, battle in battle.py, playing cards in
plays.py, effects and the stack in effects.py, reading the state in state.py.

State is plain JSON. `decide` applies the action to a copy of the state with the same
code the rules describe, and the facts it returns are the differences (set / del at a
path), so `evolve` rebuilds state without any rule or randomness; view.py hides what each
seat may not see in the state and in those facts alike.
"""

import hashlib
from itertools import compress
from operator import ne

from domain.kernel.canonical import json_copy
from domain.kernel.decision import state_only_claimed
from domain.kernel.errors import IllegalAction, InvalidSetup
from domain.kernel.ruleset import seat_for_key

from .battle import assigned, check_attack, check_blocks, check_forming, place_attack, place_blocks, place_forming
from .cards import CARDS, ELEMENT_DECKS, ELEMENTS, RESOURCE_OF, hybrids_of
from .effects import choice_options, draw, make_choice, new_id, recycle
from .flow import (OPENING_HAND, advance, cube_round_start, deal_traditional_packs, eliminate, waiting_seats,
                   window_passed)
from .legal import listed
from .plays import do_activate, do_ambush, do_mod, do_play
from .state import (ACTIVATIONS_PER_TURN, PACK_SIZE, SHARD_AFFINITY, START_LIFE, affinity, clockwise_from, home,
                    living, team_of)
from .view import HIDDEN_FIELDS

SETUPS = {"1v1": (2, 2), "ffa": (3, 4), "teams_split": (4, 4), "teams_joint": (4, 4), "archenemy": (3, 3)}
FORMATS = ("constructed", "live_draft", "cube_draft", "team_draft", "traditional_cube")
CUBES = ("cube_draft", "traditional_cube")
MIN_DECK, MAX_COPIES = 30, 2
CUBE_ROUNDS = 15
TRADITIONAL_PACKS = 3  # "three packs of 13 to 15 cards"
DECK_SIZE = 30
DEFAULT_TURN_LIMIT = 30
CARD_NUMBERS = 10**11  # a card's id is `Name#n`, n twelve digits (tokens, effects and resources count from 1)

# ---------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------


def _options(options, seat_names):
    unknown = set(options) - {"setup", "format", "elements", "decks", "archenemy_turns", "turn_limit"}
    if unknown:
        raise InvalidSetup(f"unknown Algomancy options {sorted(unknown)}")
    n = len(seat_names)
    setup = options.get("setup", "1v1" if n == 2 else "ffa")
    if setup not in SETUPS:
        raise InvalidSetup(f"setup must be one of {sorted(SETUPS)}")
    low, high = SETUPS[setup]
    if not low <= n <= high:
        raise InvalidSetup(f"{setup} is for {low}-{high} players, not {n}")
    form = options.get("format", "constructed")
    if form not in FORMATS:
        raise InvalidSetup(f"format must be one of {list(FORMATS)}")
    if form == "team_draft" and setup in ("1v1", "ffa"):
        raise InvalidSetup("team draft is for team setups (teams_split, teams_joint, archenemy)")
    turns = options.get("archenemy_turns", 1)
    if turns not in (1, 2) or (turns != 1 and setup != "archenemy"):
        raise InvalidSetup("archenemy_turns is 1 or 2, and only for the archenemy setup")
    limit = options.get("turn_limit", DEFAULT_TURN_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 2 <= limit <= 200:
        raise InvalidSetup("turn_limit is a whole number of turns from 2 to 200")
    return setup, form, turns if setup == "archenemy" else 0, limit


def validate_deck(deck, owner):
    """Constructed: at least 30 cards, at most 2 copies of each card."""
    if isinstance(deck, str):
        if deck not in ELEMENTS:
            raise InvalidSetup(f"deck of {owner}: {deck!r} is neither an element nor a list of cards")
        return list(ELEMENT_DECKS[deck])
    if not isinstance(deck, list) or not all(isinstance(c, str) and c in CARDS for c in deck):
        raise InvalidSetup(f"deck of {owner}: a deck is an element name or a list of Algomancy card names")
    for card in set(deck):
        if deck.count(card) > MAX_COPIES:
            raise InvalidSetup(f"deck of {owner}: {card!r} appears {deck.count(card)} times; at most 2 copies")
    if len(deck) < MIN_DECK:
        raise InvalidSetup(f"deck of {owner}: a constructed deck has at least {MIN_DECK} cards, not {len(deck)}")
    return list(deck)


def _chosen_decks(options, seat_names, rng):
    decks = options.get("decks", {})
    if not isinstance(decks, dict):
        raise InvalidSetup("decks maps a seat name or number to an element or a list of cards")
    chosen = {}
    for key, deck in decks.items():
        seat = seat_for_key(key, seat_names)
        if seat is None:
            raise InvalidSetup(f"decks: {key!r} is neither a seat name nor a seat number")
        chosen[seat] = validate_deck(deck, seat_names[seat])
    elements = rng.shuffle(ELEMENTS)
    return [chosen.get(seat, ELEMENT_DECKS[elements[seat % len(ELEMENTS)]]) for seat in range(len(seat_names))]


def _check_team_decks(decks, team):
    """Team draft: "Each team brings a constructed deck including 30 cards per player on the
    team with up to 2 copies of each card" - the copies count over the team's whole deck."""
    for side in sorted(set(team)):
        deck = [card for seat, cards in enumerate(decks) if team[seat] == side for card in cards]
        for card in sorted(set(deck)):
            if deck.count(card) > MAX_COPIES:
                raise InvalidSetup(f"team draft: team {side}'s deck holds {card!r} {deck.count(card)} times; at most "
                                   f"2 copies of each card in a team's deck")


def _draft_elements(options, n, rng):
    """Live draft: 3 elements for 2-3 players, 4 for 4 or more, assigned at random unless chosen."""
    count = 3 if n <= 3 else 4
    elements = options.get("elements")
    if elements is None:
        return sorted(rng.shuffle(ELEMENTS)[:count])
    if not isinstance(elements, list) or len(set(elements)) != count or not set(elements) <= set(ELEMENTS):
        raise InvalidSetup(f"elements: {count} different elements for {n} players")
    return sorted(elements)


def _seating(setup, n):
    """Teams sit between two opponents (0 and 2 against 1 and 3); the Archenemy is seat 0.
    Split teams have a region each; joint partners share their team's region."""
    if setup in ("teams_split", "teams_joint"):
        team = [s % 2 for s in range(n)]
    elif setup == "archenemy":
        team = [0] + [1] * (n - 1)
    else:
        team = list(range(n))
    homes = [f"r{team[s]}" if setup == "teams_joint" else f"r{s}" for s in range(n)]
    return team, homes


def setup(options, seat_names, rng):
    setup_name, form, solo, limit = _options(options, seat_names)
    secret = rng.randbelow(2**64)  # the deal's secret: the cards' ids (`_card_ids`)
    numbers = set()
    n = len(seat_names)
    team, homes = _seating(setup_name, n)
    if form != "live_draft" and "elements" in options:
        raise InvalidSetup("elements choose the shared deck of a live draft")
    if form in ("live_draft",) + CUBES and "decks" in options:
        raise InvalidSetup("decks are brought only to constructed and team draft games")
    state = {
        "n": n, "setup": setup_name, "format": form, "team": team, "home": homes, "turn": 1, "turn_limit": limit,
        "solo_turns": solo, "initiative": 0, "first": 0, "next_id": 0, "decks": {}, "elements": [],
        "players": [], "units": {}, "spell_tokens": {}, "stack": [], "battle": None, "window": None,
        "step": None, "script": [], "done": [], "pack_turns": {}, "cube": None, "erased": [], "over": None,
        "choice": None,
    }
    if setup_name != "archenemy":  # "Randomly assign a player The Initiative"
        state["initiative"] = state["first"] = rng.randbelow(n)
    for seat in range(n):
        state["players"].append({
            "life": START_LIFE, "out": False, "hand": [], "pack": [], "bin": [], "deck": "shared",
            "dormant": [], "resources": [], "activations": 0, "exchanges_left": 0, "recycle_owed": 0,
            "intent": None, "deck_list": []})
        for _ in range(2):  # two dormant Prismites each: the starting resources
            state["players"][seat]["dormant"].append({"id": new_id(state, "Prismite"), "kind": "Prismite",
                                                      "element": None})
    if form == "live_draft":
        state["elements"] = _draft_elements(options, n, rng)
        cards = [c for e in state["elements"] for c in ELEMENT_DECKS[e]] + hybrids_of(state["elements"]) * 2
        state["decks"]["shared"] = rng.shuffle(_card_ids(secret, "shared", cards, numbers))
    elif form in CUBES:  # "Shuffle all of the game cards including hybrids together"
        pool = rng.shuffle(_card_ids(secret, "cube", list(CARDS) * 2, numbers))
        state["cube"] = {"round": 1, "rounds": CUBE_ROUNDS, "pool": pool}
        if form == "traditional_cube":
            state["cube"].update(rounds=TRADITIONAL_PACKS, pack_size=_traditional_pack_size(n, len(pool)))
    else:
        decks = _chosen_decks(options, seat_names, rng)
        if form == "team_draft":
            _check_team_decks(decks, team)
        lists = {}
        for seat in range(n):
            key = f"team{team[seat]}" if form == "team_draft" else f"p{seat}"
            state["players"][seat]["deck"] = key
            state["players"][seat]["deck_list"] = sorted(decks[seat])
            lists[key] = lists.get(key, []) + decks[seat]
        for key in sorted(lists):
            state["decks"][key] = rng.shuffle(_card_ids(secret, key, lists[key], numbers))
    _deal(state)
    advance(state, rng)
    return state


def _traditional_pack_size(n, cube_size):
    """"Three packs of 13 to 15 cards (15 cards for 6 players, 13 for 8 players)": 15, or
    fewer while the cube cannot fill three packs for everyone."""
    size = 15 if n <= 6 else 13
    while n * TRADITIONAL_PACKS * size > cube_size:
        size -= 1
    return size


def _card_ids(secret, deck, names, numbers):
    """The cards of a deck (or of the cube), sorted by name, each with its id `Name#n`: n is
    drawn for that card alone, from the deal's secret (the seeded RNG's), the deck, the name
    and the copy. So the order a deck list was written in deals nothing differently, and an id
    an opponent reads says nothing of where the card stood in the list, of the deck's order or
    of the other cards (numbered in list order, "Jelly#40" told how many cards came before it).
    `numbers` holds the numbers the deal has given, each given once."""
    ids, copies = [], {}
    for name in sorted(names):
        copies[name] = copies.get(name, 0) + 1
        digest = hashlib.sha256(f"{secret}:{deck}:{name}:{copies[name]}".encode()).digest()
        number = CARD_NUMBERS + int.from_bytes(digest[:8], "big") % (9 * CARD_NUMBERS)
        while number in numbers:  # a clash (about once in 10^7 deals of 200 cards): the next free number
            number += 1
        numbers.add(number)
        ids.append(f"{name}#{number}")
    return ids


def _deal(state):
    """Deal clockwise from the initiative player: 16 each in a draft (4 hand + 2 first draws
    + a pack of 10), 6 in constructed (4 + the first draws); cube draft deals its packs."""
    order = clockwise_from(state, state["initiative"])
    if state["format"] == "traditional_cube":
        for seat in order:
            state["players"][seat]["deck"] = f"p{seat}"
            state["decks"][f"p{seat}"] = []
        deal_traditional_packs(state)
        state["step"] = {"k": "pick", "seats": order}
        return
    if state["format"] == "cube_draft":
        for seat in order:
            state["players"][seat]["pack"] = state["cube"]["pool"][:PACK_SIZE]
            del state["cube"]["pool"][:PACK_SIZE]
            state["players"][seat]["deck"] = f"p{seat}"
            state["decks"][f"p{seat}"] = []
        state["step"] = {"k": "cube", "seats": order}
        cube_round_start(state)
        return
    for seat in order:
        draw(state, seat, OPENING_HAND)
        if state["format"] in ("live_draft", "team_draft"):
            deck = state["decks"][state["players"][seat]["deck"]]
            state["players"][seat]["pack"] = deck[:PACK_SIZE]
            del deck[:PACK_SIZE]


# ---------------------------------------------------------------------------------------
# Who acts, what they may do
# ---------------------------------------------------------------------------------------

def to_act(state):
    return set(waiting_seats(state))


def outcome(state):
    if not state["over"]:
        return None
    teams = sorted(set(state["team"]))
    if state["over"] == "eliminated":
        standing = {team_of(state, s) for s in living(state)}
        winners = [s for s in range(state["n"]) if team_of(state, s) in standing]
        return {"reason": "eliminated", "winners": winners}
    # Designed safety end: the team with the most life left wins; equal life is a draw.
    life = {t: sum(state["players"][s]["life"] for s in living(state) if team_of(state, s) == t) for t in teams}
    best = max(life.values())
    top = [t for t in teams if life[t] == best]
    winners = [s for s in range(state["n"]) if len(top) == 1 and team_of(state, s) == top[0]]
    return {"reason": "turn_limit", "winners": winners}


def legal_actions(state, seat):
    return listed(state, seat) if seat in to_act(state) else []


# ---------------------------------------------------------------------------------------
# decide / evolve
# ---------------------------------------------------------------------------------------

ID_FIELDS = {"card", "hand_card", "pack_card", "resource", "element", "unit", "onto", "recall", "sacrifice", "option"}


def decide(state, seat, action, rng):
    if state["over"]:
        raise IllegalAction("game_over", "the game is over")
    if seat not in to_act(state):
        raise IllegalAction("not_your_priority", "only players with priority, or who have not finished the "
                            "current step, may act")
    if not isinstance(action, dict) or action.get("type") not in ACTIONS:
        raise IllegalAction("unknown_action", f"action type must be one of {sorted(ACTIONS)}")
    for field in ID_FIELDS & set(action):
        if not isinstance(action[field], str):
            raise IllegalAction("action_shape", f"{field} names a card, unit, resource, element or option by a string")
    if state["choice"] and action["type"] != "choose":
        raise IllegalAction("choice_pending", "an effect is resolving and waits for your choice (choose)")
    if state_only_claimed():  # a search's playout: it gave this state up and reads no facts
        ACTIONS[action["type"]](state, seat, action)
        advance(state, rng, checked=not eliminate(state))
        return []
    after = json_copy(state)
    ACTIONS[action["type"]](after, seat, action)
    advance(after, rng, checked=not eliminate(after))
    return diff(state, after, [])  # `after` is this call's own copy, dropped here: the facts may hold its parts


def _step(state, *kinds):
    return state["step"]["k"] if state["step"] and state["step"]["k"] in kinds else None


def _need(state, code, message, *kinds):
    if not _step(state, *kinds):
        raise IllegalAction(code, message)


def _exchange(state, seat, action):
    _need(state, "draft_step", "cards are exchanged with the pack only during the draft step", "draft", "cube")
    player = state["players"][seat]
    if state["step"]["k"] == "draft" and state["format"] not in ("live_draft", "team_draft"):
        raise IllegalAction("constructed_draft", "in constructed there are no packs: draw 2, recycle 2")
    if action.get("hand_card") not in player["hand"] or action.get("pack_card") not in player["pack"]:
        raise IllegalAction("exchange_cards", "exchange one card of your hand with one card of your pack")
    if player["exchanges_left"] <= 0:
        raise IllegalAction("exchange_limit", "no more exchanges this draft step (see README: enough to reach any "
                            "selection)")
    hand_index, pack_index = player["hand"].index(action["hand_card"]), player["pack"].index(action["pack_card"])
    player["hand"][hand_index], player["pack"][pack_index] = action["pack_card"], action["hand_card"]
    player["exchanges_left"] -= 1


def _end_draft(state, seat, action):
    _need(state, "draft_step", "only in the draft step", "draft", "cube")
    if state["step"]["k"] == "draft" and state["format"] not in ("live_draft", "team_draft"):
        raise IllegalAction("recycle_two", "in constructed the draft step ends after recycling 2 cards")
    state["done"].append(seat)


def _recycle(state, seat, action):
    _need(state, "draft_step", "only in the draft step", "draft")
    player = state["players"][seat]
    if state["format"] in ("live_draft", "team_draft"):
        raise IllegalAction("draft_exchange", "in a live draft the draft step exchanges cards between hand and pack")
    if player["recycle_owed"] <= 0:
        raise IllegalAction("recycle_two", "recycle exactly 2 cards in constructed")
    if action.get("card") not in player["hand"]:
        raise IllegalAction("card_in_hand", "recycle a card from your hand")
    recycle(state, seat, action["card"])
    player["recycle_owed"] -= 1
    if not player["recycle_owed"]:
        state["done"].append(seat)


def _pick(state, seat, action):
    """Traditional cube draft: take one card from the pack in front of you."""
    _need(state, "pick_step", "cards are picked only during a traditional cube draft", "pick")
    if seat in state["done"]:
        raise IllegalAction("one_pick", "take one card from the pack, then wait for the packs to pass")
    player = state["players"][seat]
    if action.get("card") not in player["pack"]:
        raise IllegalAction("pick_from_pack", "take one card from the pack in front of you")
    player["pack"].remove(action["card"])
    player["hand"].append(action["card"])
    state["done"].append(seat)


def _cut(state, seat, action):
    """Traditional cube draft: "From their drafted piles, players each build a 30 card deck";
    each card left out goes back to the cube."""
    _need(state, "build_step", "decks are built after the traditional cube draft", "build")
    player = state["players"][seat]
    if seat in state["done"]:
        raise IllegalAction("deck_size", f"the deck is built: {DECK_SIZE} cards")
    if action.get("card") not in player["hand"]:
        raise IllegalAction("cut_from_pile", "leave out a card of your drafted pile")
    player["hand"].remove(action["card"])
    state["cube"]["pool"].append(action["card"])
    if len(player["hand"]) <= DECK_SIZE:
        state["done"].append(seat)


def _create_resource(state, seat, action):
    _need(state, "resource_step", "resources are created in the resource step of the planning phase", "resources")
    player = state["players"][seat]
    if action.get("card") not in player["hand"]:
        raise IllegalAction("card_in_hand", "a resource is created by recycling a card from your hand")
    if action.get("element") not in ELEMENTS:
        raise IllegalAction("resource_element", f"element must be one of {list(ELEMENTS)}")
    recycle(state, seat, action["card"])
    kind = RESOURCE_OF[action["element"]]
    player["dormant"].append({"id": new_id(state, kind), "kind": kind, "element": action["element"]})


def _activate_resource(state, seat, action):
    _need(state, "resource_step", "resources are activated in the resource step", "resources")
    player = state["players"][seat]
    chosen = [r for r in player["dormant"] if r["id"] == action.get("resource")]
    if not chosen:
        raise IllegalAction("dormant_resource", "activate one of your dormant resources")
    if player["activations"] >= ACTIVATIONS_PER_TURN:
        raise IllegalAction("two_activations", "players may activate a maximum of two resources per turn")
    resource = chosen[0]
    player["dormant"].remove(resource)
    player["resources"].append({**resource, "expended": False})
    player["activations"] += 1
    _shard(state, seat, resource)


def _shard(state, seat, resource):
    """An elemental resource activated with at least three affinity to it gives a free,
    dormant Shard (activating that counts towards the two)."""
    if resource["element"] and affinity(state, seat, resource["element"]) >= SHARD_AFFINITY:
        state["players"][seat]["dormant"].append({"id": new_id(state, "Shard"), "kind": "Shard", "element": None})


def _exchange_prismite(state, seat, action):
    _need(state, "resource_step", "Prismites are exchanged in the resource step", "resources")
    player = state["players"][seat]
    chosen = [r for r in player["resources"] if r["id"] == action.get("resource") and r["kind"] == "Prismite"]
    if not chosen:
        raise IllegalAction("active_prismite", "only an active Prismite may be exchanged for another resource")
    if action.get("element") not in ELEMENTS:
        raise IllegalAction("resource_element", f"element must be one of {list(ELEMENTS)}")
    resource = chosen[0]
    resource.update(kind=RESOURCE_OF[action["element"]], element=action["element"])
    _shard(state, seat, resource)


def _end(kind, code, message):
    def end(state, seat, action):
        _need(state, code, message, kind)
        state["done"].append(seat)
    return end


def _pass(state, seat, action):
    _need(state, "priority_window", "priority is passed in battle priority windows", "window")
    window_passed(state)


def _declare_attack(state, seat, action):
    step = _step(state, "attack", "block")
    if not step or (step == "block" and not state["step"].get("counter")) or f"attack:{seat}" in state["done"] \
            or (step == "attack" and seat in state["done"]):
        raise IllegalAction("attack_step", "attacks are declared in the attack step (and, by the non-initiative "
                            "side, as counter-attacks with their blocks)")
    formations = action.get("formations")
    check_attack(state, seat, formations)
    if state["step"].get("intent"):
        state["players"][seat]["intent"] = json_copy(formations)  # the face-down intent cards (not the action's own)
    else:
        place_attack(state, seat, formations, transit=step == "block")
    if step == "attack":
        state["done"].append(seat)
    else:
        state["done"].append(f"attack:{seat}")
        _both_declared(state, seat)


def _declare_blocks(state, seat, action):
    if not _step(state, "block") or f"blocks:{seat}" in state["done"]:
        raise IllegalAction("block_step", "blocks are declared in the block step, once")
    region = state["step"].get("region") or home(state, seat)
    check_blocks(state, seat, region, action.get("blocks"))
    place_blocks(state, seat, region, action["blocks"])
    state["done"].append(f"blocks:{seat}")
    _both_declared(state, seat)


def _form_attack(state, seat, action):
    if not _step(state, "form") or seat in state["done"]:
        raise IllegalAction("form_step", "attacking units are put into formation as their region's battle "
                            "begins: the counter-attack in phase 2, in FFA after the intent cards flip")
    check_forming(state, seat, action.get("formations"))
    place_forming(state, seat, action["formations"])
    state["done"].append(seat)


def _both_declared(state, seat):
    if {f"blocks:{seat}", f"attack:{seat}"} <= set(state["done"]):
        state["done"].append(seat)


def _choose(state, seat, action):
    if not state["choice"]:
        raise IllegalAction("no_choice", "nothing is waiting for a choice")
    if action.get("option") not in choice_options(state):
        raise IllegalAction("choice_option", "choose one of the options the resolving effect offers (you decide "
                            "what you sacrifice; Corrupting Blight goes to a player who doesn't control it; a front unit takes "
                            "at least lethal damage)")
    if state["choice"]["kind"] == "assign":
        assigned(state, action["option"])
    else:
        make_choice(state, action["option"])


ACTIONS = {
    "choose": _choose,
    "exchange": _exchange, "end_draft": _end_draft, "recycle": _recycle, "pick": _pick, "cut": _cut,
    "create_resource": _create_resource, "activate_resource": _activate_resource,
    "exchange_prismite": _exchange_prismite,
    "end_planning": _end("resources", "resource_step", "only in the resource step"),
    "end_haste": _end("haste", "haste_step", "only in the haste step"),
    "end_deployment": _end("deploy", "deployment", "only during deployment"),
    "play": do_play, "ambush": do_ambush, "mod": do_mod, "activate": do_activate, "pass_priority": _pass,
    "declare_attack": _declare_attack, "declare_blocks": _declare_blocks, "form_attack": _form_attack,
}


def diff(before, after, path):
    """The facts: each place where `after` differs from `before`. A hidden zone (a deck, the
    cube's pool, a player's hand, pack, dormant resources, intent card, deck list) changes as a
    whole, in one fact: compared item by item, the number of facts under it told others what
    it hides (a face-down resource's element beside another's).

    A fact's value is `after`'s own part, not a copy: decide diffs a copy of its own and drops
    it, and evolve copies what it sets. Copied here and again in evolve, each cost the search
    bot a few per cent of its time (issue 32)."""
    path = list(path)
    hidden = _hidden(path)
    facts = []
    if (isinstance(before, dict) and isinstance(after, dict) and not hidden) or before != after:
        _differences(before, after, path, hidden, facts)
    return facts


def _differences(before, after, path, hidden, facts):
    """diff's facts, added to `facts`, for two parts known to differ (or two dicts). Each part
    is compared once, by its parent, and only a differing one is visited: a decision changes
    a few places in a state of dozens of parts, and comparing every part again on the way down
    was a fifth of the search bot's time (issue 32)."""
    if hidden:
        facts.append({"f": "set", "path": path, "value": after})
    elif isinstance(before, dict) and isinstance(after, dict):
        deep = len(path) + 1 in (2, 3)  # a child's path as long as a hidden zone's
        if list(before) == list(after):  # the same keys in the same order (nearly always)
            for key in compress(after, map(ne, before.values(), after.values())):  # only the keys that differ
                value = after[key]
                if type(value) in _SCALARS:  # the fact below would be this, hidden or not: no call for it
                    facts.append({"f": "set", "path": path + [key], "value": value})
                    continue
                child = path + [key]
                _differences(before[key], value, child, deep and _hidden(child), facts)
            return
        for key, value in after.items():
            if key not in before:
                facts.append({"f": "set", "path": path + [key], "value": value})
            elif before[key] != value:
                child = path + [key]
                _differences(before[key], value, child, deep and _hidden(child), facts)
        for key in before:
            if key not in after:
                facts.append({"f": "del", "path": path + [key]})
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after) and path not in WHOLE \
            and all(isinstance(x, (dict, list)) for x in before) and all(isinstance(x, (dict, list)) for x in after):
        deep = len(path) + 1 in (2, 3)
        for index in compress(range(len(before)), map(ne, before, after)):
            child = path + [index]
            _differences(before[index], after[index], child, deep and _hidden(child), facts)
    else:
        facts.append({"f": "set", "path": path, "value": after})


_SCALARS = frozenset((str, int, float, bool, type(None)))
# Lists of effects set whole (one effect resolving and a trigger added keep the stack's length)
WHOLE = (["stack"], ["battle", "triggered"])


def _hidden(path):
    """Whether `path` is a whole hidden zone: view.hidden_prefix(path, None) == len(path) (the
    seat None hides every player's), as its rules read for paths of one to three keys, without
    a call of its own (diff asks it of every part that changed)."""
    n = len(path)
    if n == 2:
        return path[0] == "decks" or (path[0] == "cube" and path[1] == "pool")
    return n == 3 and path[0] == "players" and path[2] in HIDDEN_FIELDS


def _fact_value(value):
    """A fact's own copy of a part of the state; a scalar (most facts' value) is its own copy:
    copied through JSON, each cost the search bot a few per cent of its time (issue 32)."""
    return value if value is None or isinstance(value, (str, int, float)) else json_copy(value)


def evolve(state, fact):
    *parents, last = fact["path"]
    node = state
    for key in parents:
        node = node[key]
    if fact["f"] == "set":
        value = fact["value"]  # the state never shares a part with a fact (a scalar is its own copy)
        node[last] = value if type(value) in _SCALARS else _fact_value(value)
    else:
        del node[last]
    return state

