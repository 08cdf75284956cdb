"""HeroCard head-to-head duels (rulebook: "Playing Head-to-Head Duels with HeroCard"): the
standalone game around the dueling engine (engine.py), which does all the card play.

"Randomly determine who starts. Shuffle your decks and draw seven cards." A side wins on
earning the required Victory Points: three with two players, five with three, seven with
four; in Teams partners' points are added and seven win. Options: heroes (one per seat),
teams, fair_start, discard_queue, assistance (3-4 players), victory_points (override)."""

from domain.kernel.errors import InvalidSetup

from . import engine
from .cards import HEROES

GOALS = {2: 3, 3: 5, 4: 7}  # "three Victory Points in a two-player game, five in a three-player game, and seven in a four-player game"
FLAGS = ("teams", "fair_start", "discard_queue", "assistance")


def _validate(options, seats):
    unknown = set(options) - {"heroes", "victory_points", *FLAGS}
    if unknown:
        raise InvalidSetup(f"unknown HeroCard options {sorted(unknown)}; known: heroes, victory_points, {', '.join(FLAGS)}")
    for flag in FLAGS:
        if not isinstance(options.get(flag, False), bool):
            raise InvalidSetup(f"{flag} is true or false")
    if options.get("teams") and seats != 4:
        raise InvalidSetup("Teams is for exactly 4 players: two two-person teams, partners sitting opposite")
    if options.get("assistance") and (seats < 3 or options.get("teams")):
        raise InvalidSetup("Assistance is for three or four players without teams")
    heroes = options.get("heroes")
    if heroes is not None and (not isinstance(heroes, list) or len(heroes) != seats or
                               any(h not in HEROES for h in heroes)):
        raise InvalidSetup(f"heroes lists one Hero per seat among {sorted(HEROES)}")
    goal = options.get("victory_points")
    if goal is not None and (not isinstance(goal, int) or isinstance(goal, bool) or not 1 <= goal <= 20):
        raise InvalidSetup("victory_points is a whole number from 1 to 20")


def setup(options, seat_names, rng):
    seats = len(seat_names)
    if not 2 <= seats <= 4:
        raise InvalidSetup("HeroCard duels are for 2 to 4 players")
    options = dict(options or {})
    _validate(options, seats)
    heroes = options.get("heroes") or rng.shuffle(sorted(HEROES))[:seats]
    goal = options.get("victory_points") or (7 if options.get("teams") else GOALS[seats])
    cfg = engine.config(victory_points=goal, **{flag: options.get(flag, False) for flag in FLAGS})
    first = rng.randbelow(seats)
    return {"seats": seats, "names": list(seat_names), "duel": engine.new_duel(cfg, heroes, first, rng)}


def legal_actions(state, seat):
    return engine.legal_actions(state["duel"], seat)


def decide(state, seat, action, rng):
    return engine.decide(state["duel"], seat, action, rng)


def evolve(state, fact):
    engine.evolve(state["duel"], fact)
    return state


def to_act(state):
    return engine.to_act(state["duel"])


def outcome(state):
    duel = state["duel"]
    if not duel["over"]:
        return None
    return {"reason": duel["over"], "winners": list(duel["winners"]),
            "victory_points": [p["vp"] for p in duel["players"]], "turns": duel["turn"]["number"]}


def default_action(state, seat):
    """A timed-out seat passes, keeps its hand, draws what it may and clears nothing."""
    return legal_actions(state, seat)[0] if state["duel"]["turn"]["phase"] != "draw" else \
        {"type": "draw", "count": engine.draw_limit(state["duel"]["players"][seat])}
