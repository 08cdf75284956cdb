"""What the search bot needs of Algomancy (domain/kernel/search.py): a determinization and an
evaluation of a cut-off playout.

Hidden from a seat (view.py): every deck's order and contents, the cube's pool, and the other
players' hands, packs, dormant resources, decklists and FFA intent cards. The determinization
deals those again from what the seat knows, and reads of them nothing else:

- a source of cards whose contents the seat knows - the live draft's shared deck (its elements
  are public), the cube (every card twice) and the seat's own deck (its own list, less what it
  drew) - keeps its unseen cards, dealt again at random among the zones they may be in (the
  deck, and the other players' hands and packs; in a cube draft, of either kind, the pool and
  every other player's pack, pile, hand and deck: which cards another drafter kept is hidden).
  Only the multiset of the unseen cards is read, which the seat could work out itself
  (domain/kernel/search.py `refill_unseen`);
- a deck the seat was never shown - an opponent's constructed deck, a team-draft team's deck
  (a partner's list is hidden too) - is not read at all: each of its drawers is guessed to play
  the designed deck of the element most of their cards in public show (a random element while
  none has shown), their public cards are taken out of it, and the unseen places (the deck,
  those players' hands and packs) are dealt from what is left, as new card instances;
- the other players' face-down (elemental) resources get random elements;
- another player's face-down intent card is replaced by an attack drawn from those listed for
  its units (its contents, even its number of formations, are hidden).

Two states that differ only in what the other players hide from the seat (their hands, packs,
decks, face-down resources and intent cards, as far as the seat cannot work them out) give the
same samples: tests/games/algomancy/test_hidden_leaks.py.
"""

from domain.kernel.canonical import json_copy
from domain.kernel.search import refill_unseen

from .cards import BY_ELEMENT, ELEMENT_DECKS, ELEMENTS, RESOURCE_OF, TOKENS, data_of, name_of
from .legal import attack_options
from .rules import CUBES
from .state import START_LIFE, team_of


# The search bot's budget here (domain/kernel/search.py), measured with bench/search_strength.py
# against the greedy bot: playouts cut at 40 actions and scored by life won 18 of 50 (they favour
# a move whose gain shows within the cut-off, and planning pays off later); to the end, 16
# playouts over 4 candidates won 35 of 50 (70 %, 95 % 56-81) with the incumbent rule (search.py);
# against the random bot, 40 of the first 40 (stopped there: 80 % of 50 reached).
SETTINGS = {"playouts": 16, "width": 4}
SAMPLED = 10**12  # cards dealt into a sample from a guessed deck: `Name#n`, n from here up (13 digits)
PUBLIC_KINDS = ("Prismite", "Shard")  # dormant resources whose kind is known: set-up gave them, play shows them


def determinize(state, seat, rand):
    sample = json_copy(state)
    cube = sample["format"] in CUBES
    own = sample["players"][seat]["deck"]
    drawers = {}
    for other, player in enumerate(sample["players"]):
        drawers.setdefault(player["deck"], []).append(other)

    def source(deck):
        if cube and deck != own:
            return "cube"
        if deck == "shared" or drawers.get(deck) == [seat]:
            return deck  # known contents: the shared deck, the seat's own
        return ("guess", deck)

    zones = {}
    for key in sorted(sample["decks"]):
        zones.setdefault(source(key), []).append(sample["decks"][key])
    if cube:
        zones.setdefault("cube", []).append(sample["cube"]["pool"])
    for other, player in enumerate(sample["players"]):
        if other != seat:
            zones.setdefault(source(player["deck"]), []).append(player["hand"])
            zones.setdefault("cube" if cube else source(player["deck"]), []).append(player["pack"])
    numbers = iter(range(SAMPLED, SAMPLED * 10))
    for key in sorted(zones, key=str):
        if isinstance(key, tuple):
            _deal_guessed(sample, seat, drawers[key[1]], zones[key], rand, numbers)
        else:
            refill_unseen(zones[key], rand)
    for other, player in enumerate(sample["players"]):
        if other == seat:
            continue
        if player["deck_list"]:
            player["deck_list"] = ["unknown"]  # shown only as a list that exists
        for resource in player["dormant"]:
            if resource["kind"] not in PUBLIC_KINDS:
                element = ELEMENTS[rand.randrange(len(ELEMENTS))]
                resource.update(element=element, kind=RESOURCE_OF[element],
                                id=f"{RESOURCE_OF[element]}#{resource['id'].rsplit('#', 1)[1]}")
    for other, player in enumerate(sample["players"]):
        if other != seat and player["intent"] is not None:
            options = attack_options(sample, other)
            player["intent"] = options[rand.randrange(len(options))]["formations"]
    return sample


def _public_cards(state, players):
    """The names of the cards of `players` everyone sees: bins, units and mods they own, their
    cards on the stack (and one paused while it resolves)."""
    names = [name_of(c) for p in players for c in state["players"][p]["bin"]]
    for unit in state["units"].values():
        if unit["owner"] in players and not unit["token"]:
            names.append(name_of(unit["card"]))
        names += [name_of(m["card"]) for m in unit["mods"] if m["owner"] in players]
    paused = [state["choice"]["item"]] if (state["choice"] or {}).get("item") else []
    names += [name_of(item["card"]) for item in state["stack"] + paused
              if item["card"] and item["owner"] in players and name_of(item["card"]) not in TOKENS]
    return names


def _guess_element(state, player, rand):
    """The element most of a player's public cards belong to (a hybrid counts for both)."""
    counts = dict.fromkeys(ELEMENTS, 0)
    for name in _public_cards(state, [player]):
        data = data_of(name)
        for element in data.get("hybrid") or [data.get("element")]:
            if element in counts:
                counts[element] += 1
    best = max(counts.values())
    return rand.choice([e for e in ELEMENTS if counts[e] == best])


def _deal_guessed(sample, seat, players, zones, rand, numbers):
    """Fill a deck the seat was never shown, and its drawers' hidden hands and packs: the seat's
    own list (if it draws from the deck too) and each other drawer's guessed designed deck, less
    the cards of theirs already seen, dealt at random (new instances: no real id is read)."""
    guessed = {player: _guess_element(sample, player, rand) for player in players if player != seat}
    believed = list(sample["players"][seat]["deck_list"]) if seat in players else []
    for player in sorted(guessed):
        believed += ELEMENT_DECKS[guessed[player]]
    seen = _public_cards(sample, players)
    if seat in players:
        seen += [name_of(c) for c in sample["players"][seat]["hand"] + sample["players"][seat]["pack"]]
    left = sorted(believed)
    for name in seen:
        if name in left:
            left.remove(name)
    needed = sum(len(zone) for zone in zones)
    rand.shuffle(left)
    pool = left[:needed]
    spare = sorted({name for element in guessed.values() for name in BY_ELEMENT[element]}) or sorted(believed)
    while len(pool) < needed:  # more unseen places than the guessed lists hold: more of their elements
        pool.append(spare[rand.randrange(len(spare))])
    for zone in zones:
        zone[:] = [f"{pool.pop()}#{next(numbers)}" for _ in zone]


def evaluate(state):
    """Each side's life against the weakest living rival side's, from 0 to 1; out is 0."""
    seats = range(state["n"])
    life = {}
    for seat in seats:
        player = state["players"][seat]
        life[team_of(state, seat)] = life.get(team_of(state, seat), 0) + (0 if player["out"] else max(player["life"], 0))
    scores = []
    for seat in seats:
        mine = life[team_of(state, seat)]
        rivals = [v for team, v in life.items() if team != team_of(state, seat)]
        scores.append(0.0 if mine <= 0 else min(1.0, max(0.0, 0.5 + 0.5 * (mine - max(rivals, default=0)) / START_LIFE)))
    return scores
