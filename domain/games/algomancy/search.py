"""What the search bot needs of Algomancy (domain/kernel/search.py): a determinization and an
evaluation of a cut-off playout.

Hidden from a seat (view.py): every deck's order and contents, the cube's pool, and the other
players' hands, packs, dormant resources, decklists and FFA intent cards. The determinization:

- deals the unseen cards back within each source they came from: a deck (the shared deck, a
  team's, a player's) together with the hands (and, outside the cube, the packs) of the other
  players who draw from it; in a cube draft (either kind) the cube's pool together with the
  others' packs.
  The seat knows each source's multiset from the public element decks, decklists it was shown
  and cards it has seen; where it was not shown one (an opponent's constructed deck) this reads
  that multiset, the one approximation (README);
- gives each other player's dormant element resources a random element (the starting Prismites
  and Shards are known from set-up and play);
- keeps the other players' face-down intent cards as declared: the view shows how many
  formations each declared, and a sample with other formations would need a legal attack drawn
  for units the seat cannot steer. A seat searching between the declarations and the flip
  therefore plays as if it knew them: the one place the search bot reads hidden information,
  only in FFA, only inside one battle step (README).
"""

from domain.kernel.canonical import json_copy
from domain.kernel.search import refill_unseen

from .cards import ELEMENTS, RESOURCE_OF
from .rules import CUBES
from .state import START_LIFE, team_of


# The search bot's budget here (domain/kernel/search.py), measured with bench/search_strength.py
# against the greedy bot: playouts cut at 40 actions and scored by life won 18 of 50 (they favour
# a move whose gain shows within the cut-off, and planning pays off later); to the end, 16
# playouts over 4 candidates won 35 of 50 (70 %, 95 % 56-81) with the incumbent rule (search.py);
# against the random bot, 40 of the first 40 (stopped there: 80 % of 50 reached).
SETTINGS = {"playouts": 16, "width": 4}


def determinize(state, seat, rand):
    sample = json_copy(state)
    cube = sample["format"] in CUBES
    sources = {key: [deck] for key, deck in sample["decks"].items()}
    if cube:
        sources["cube"] = [sample["cube"]["pool"]]
    for other, player in enumerate(sample["players"]):
        if other == seat:
            continue
        sources.setdefault(player["deck"], []).append(player["hand"])
        sources.setdefault("cube" if cube else player["deck"], []).append(player["pack"])
        for resource in player["dormant"]:
            if resource["element"] is not None:
                element = ELEMENTS[rand.randrange(len(ELEMENTS))]
                resource.update(element=element, kind=RESOURCE_OF[element],
                                id=f"{RESOURCE_OF[element]}#{resource['id'].rsplit('#', 1)[1]}")
    for key in sorted(sources):
        refill_unseen(sources[key], rand)
    return sample


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
