"""How a hack is resolved: the duel interface, and the Bit Duel, its one engine for now.

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

The game only ever talks to a duel through these five functions (see rules.py, `attack`
and `duel`), so the HeroCard card duel can be added as a second engine under another
`duels` option value without touching the board rules.
"""

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
