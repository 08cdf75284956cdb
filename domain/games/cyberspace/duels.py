"""How a hack is resolved: the Bit Duel variant behind a small duel interface, and HeroCard
card duels (the default), which are not a per-hack sub-state but one HeroCard engine duel
(domain/games/herocard/engine.py) living through the whole match in `state["cards"]`:
hands, decks and Attribute Stacks persist from turn to turn, and each Cyberspace turn is
also that seat's HeroCard turn (Discard, Draw, Clear, then the Action Phase in which
programs and cards mix). The card half is at the end of this module; rules_setup.py (the
duel's set-up) and rules_cards.py (its play inside Cyberspace) call it.

The Bit Duel interface:

A hack (an attack on an Avatar, a Firewall or a Link) starts a duel between the attacker
and the defending seat(s) (two defenders when two Firewalls share a connection). A duel
may take several actions by the duelling seats (and, for Assistance, by other seats)
before it resolves, and ends with a winning side. An engine is a namespace with:

- `start(context, attacker, defenders, rng) -> (duel, facts)`: the duel sub-state and the
  facts that build it. `context` is plain data about the hack (`{"target": {...}}`);
  every random draw is made here or in `decide` from `rng` and written into a fact.
  The sub-state carries `"seats"`: every seat that may act in the duel.
- `legal_actions(duel, seat) -> [action]`: what `seat` may do in the duel now; the game
  posts these as `{"type": "duel", "duel": action}`. Seats with none are not to act.
- `decide(duel, seat, action, rng) -> [fact]` (raises IllegalAction) and
  `evolve(duel | None, fact) -> duel`: one duel action and its effects, Decider style.
  The game records each duel fact as `{"f": "duel", "fact": fact}`, so replay rebuilds the
  duel through `evolve` alone (`evolve(None, first fact)` creates it).
- `result(duel) -> None | "attacker" | "defender"`: the winning side, once resolved.

The board rules only talk to a Bit Duel through these five functions (rules.py, `attack`
and `duel`).
"""

from domain.games.herocard import engine as hc
from domain.games.herocard.cards import CARDS, HEROES
from domain.kernel.errors import IllegalAction


class BitDuel:
    """'Instead of card dueling, flip a coin. If the coin lands heads, the attack is
    successful; otherwise if it lands tails, the attack fails.' The coin is one fair draw
    from the match's provable random stream, so the duel resolves as it starts."""

    @staticmethod
    def start(context, attacker, defenders, rng):
        fact = {"kind": "bit", "attacker": attacker, "defenders": list(defenders),
                "coin": "heads" if rng.randbelow(2) == 1 else "tails"}
        return BitDuel.evolve(None, fact), [fact]

    @staticmethod
    def legal_actions(duel, seat):
        return []

    @staticmethod
    def decide(duel, seat, action, rng):
        raise IllegalAction("duel_resolved", "a bit duel is one coin flip: there is nothing to play in it")

    @staticmethod
    def evolve(duel, fact):
        return {"kind": "bit", "attacker": fact["attacker"], "defenders": list(fact["defenders"]),
                "coin": fact["coin"], "seats": []}

    @staticmethod
    def result(duel):
        return "attacker" if duel["coin"] == "heads" else "defender"


ENGINES = {"bit": BitDuel}


# ---------------------------------------------------------------------------------------
# Card duels: the HeroCard engine as Cyberspace's duel
# ---------------------------------------------------------------------------------------

ATTRIBUTE_NAMES = {"body": "Body", "mind": "Mind", "x": "Gene X"}  # "Attribute X ... is called Gene X"
SECRET_COST = 4  # "All Cyberspace Secret Cards cost four Attribute Points."
DECK_SIZE = 20  # "12 Attribute Cards and 80 Action Cards": four Heroes, 3 + 20 cards each


def heroes_for(options, seats, rng):
    """'Pick a Hero and corresponding Action Deck': option `heroes` (one per seat, names the
    Hero ids), else distinct Heroes at random (the box holds four, one per player)."""
    return list(options) if options else rng.shuffle(sorted(HEROES))[:seats]


def cyberspace_deck(hero_id):
    """The Hero's 20-card Cyberspace Action Deck, derived from its HeroCard deck: one copy of
    every card it holds, then the remaining slots by largest remainder in proportion to its
    copies (ties by card id). Sorted; the engine shuffles it."""
    copies = HEROES[hero_id]["deck"]
    total = sum(copies.values())
    if total <= DECK_SIZE:
        return [card for card, n in sorted(copies.items()) for _ in range(n)]
    counts = {card: 1 for card in copies}
    spare = DECK_SIZE - len(counts)
    shares = {card: spare * (n - 1) / max(1, total - len(copies)) for card, n in copies.items()}
    for card, share in shares.items():
        counts[card] += int(share)
    left = DECK_SIZE - sum(counts.values())
    for card in sorted(shares, key=lambda c: (-(shares[c] - int(shares[c])), c))[:left]:
        counts[card] += 1
    return [card for card, n in sorted(counts.items()) for _ in range(n)]


def new_card_duel(heroes, first, rng, **variants):
    """The match's one duel: Gene X, no Victory Points (a successful attack hacks instead),
    Secret Cards at four points, the host's turns; variants: teams, assistance, fair_start,
    discard_queue."""
    cfg = hc.config(attribute_names=dict(ATTRIBUTE_NAMES), victory_points=None, secret_cost=SECRET_COST,
                    host_turns=True, turn_limit=None, **variants)
    return hc.new_duel(cfg, heroes, first, rng, decks=[cyberspace_deck(h) for h in heroes])


def at_home(cards, seat):
    """The active seat holds priority in its Action Phase with nothing open: no sequence, no
    duplicate waiting, no forced choice (priority is back with it once the others passed on
    its last card). Only then may it execute programs, start a hack, reboot or end its turn."""
    return (cards["turn"]["phase"] == "action" and cards["turn"]["active"] == seat and cards["priority"] == seat
            and cards["sequence"] is None and cards["pending"] is None
            and not cards["duplicates"] and seat not in cards["turn"]["forfeit"])


def opens_base_attack(cards, seat, action):
    """Would this engine action play a Base Attack (from the hand, a replayed card, a revealed
    Secret Card)? In Cyberspace a Base Attack needs a board target: it is played by the
    `attack` action only."""
    if not isinstance(action, dict):
        return False
    played = action.get("cards") if action.get("type") == "play" else None
    if isinstance(played, list) and any(isinstance(c, str) and CARDS.get(c, {}).get("kind") == "base_attack"
                                        for c in played):
        return True
    if action.get("type") in ("play", "reveal") and action.get("uid") is not None:
        for stack in cards["players"][seat]["stacks"].values():
            for entry in stack:
                if entry["uid"] == action["uid"] and CARDS[entry["card"]]["kind"] == "base_attack":
                    return True
    return False
