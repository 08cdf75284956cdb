"""Cyberspace set-up (rules/herocard-cyberspace.txt, the Board Game section: "Set-up"), and
the options of the variants checked before the first tile is drawn (Teams, Handicap,
Assistance, Bit Duels, the card duels' Dueling Variants, the one-player Engineering Puzzle)."""

from domain.kernel.errors import InvalidSetup

from domain.games.herocard.cards import HEROES

from . import duels as D
from .tiles import TILES

AVATARS, HANDICAP_AVATARS = 3, 2
FACE_UP = 2
DEFAULT_SIZE = 7
OPTIONS = ("duels", "teams", "assistance", "handicap", "size", "heroes", "fair_start", "discard_queue")
DUELS = ("cards", "bit")  # "cards" (HeroCard card duels) is the default; "bit" is the Bit Duels variant


def _validate_options(options, seat_names):
    seats = len(seat_names)
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise InvalidSetup(f"unknown Cyberspace options {sorted(unknown)}; known: {', '.join(OPTIONS)}")
    duels = options.get("duels", "cards")
    if duels not in DUELS:
        raise InvalidSetup(f"duels must be one of {list(DUELS)} ('cards' = HeroCard card duels, the default; "
                           f"'bit' = the Bit Duels variant), not {duels!r}")
    teams, assistance = options.get("teams", False), options.get("assistance", False)
    fair_start, discard_queue = options.get("fair_start", False), options.get("discard_queue", False)
    if not all(isinstance(flag, bool) for flag in (teams, assistance, fair_start, discard_queue)):
        raise InvalidSetup("teams, assistance, fair_start and discard_queue are true or false")
    if (fair_start or discard_queue) and (duels != "cards" or seats == 1):
        raise InvalidSetup("Fair Start and Discard Queue are Cyberspace Dueling Variants: they need card duels")
    size = options.get("size", DEFAULT_SIZE)
    if not isinstance(size, int) or isinstance(size, bool) or size % 2 == 0 or not 5 <= size <= 15:
        raise InvalidSetup("size (squares on a side of the play area) is an odd number from 5 to 15")
    handicap = options.get("handicap", [])
    if not isinstance(handicap, list):
        raise InvalidSetup("handicap lists the seats (names or numbers) of the expert players")
    experts = []
    for entry in handicap:
        seat = seat_names.index(entry) if entry in seat_names else entry if isinstance(entry, int) else None
        if seat is None or isinstance(seat, bool) or not 0 <= seat < seats:
            raise InvalidSetup(f"handicap: {entry!r} is neither a seat name nor a seat number")
        experts.append(seat)
    if seats == 1 and (teams or assistance or experts):
        raise InvalidSetup("one player plays the Engineering Puzzle: tiles only, no teams, assistance or handicap")
    if teams and seats != 4:
        raise InvalidSetup("Teams is for exactly 4 players (partners sit opposite: seats 0+2 and 1+3)")
    if assistance and seats not in (3, 4):
        raise InvalidSetup("Assistance is for a three or four person game")
    if assistance and duels == "bit":
        raise InvalidSetup("Assistance is playing a Fast Action Card for the losing side of an attack; Bit Duels "
                           "remove the Action Decks, so there is nothing to assist with: assistance needs card "
                           "duels (duels 'cards'), not duels 'bit'")
    if assistance and teams:
        raise InvalidSetup("Assistance is for players outside the conflict; in Teams every player is on a side")
    heroes = options.get("heroes")
    if heroes is not None:
        if seats == 1 or duels != "cards":
            raise InvalidSetup("heroes are picked for card duels only (not with duels 'bit' or the puzzle)")
        if not isinstance(heroes, list) or len(heroes) != seats or any(h not in HEROES for h in heroes):
            raise InvalidSetup(f"heroes lists one Hero per seat among {sorted(HEROES)}")
        if len(set(heroes)) != len(heroes):
            # "Pick a Hero and corresponding Action Deck": the box holds one Action Deck per Hero.
            twice = sorted({h for h in heroes if heroes.count(h) > 1})
            raise InvalidSetup(f"each Hero comes with one Action Deck, so a Hero plays for one seat only: "
                               f"{', '.join(twice)} given to several seats")
    return {"duels": None if seats == 1 else duels, "teams": teams, "assistance": assistance, "size": size,
            "handicap": sorted(set(experts)), "heroes": heroes, "fair_start": fair_start,
            "discard_queue": discard_queue}


def setup(options, seat_names, rng):
    chosen = _validate_options(options, seat_names)
    seats = len(seat_names)
    stack = sorted(TILES)
    face_up = []
    for _ in range(FACE_UP):  # "Draw the top two tiles, and place them face up on either side of the stack."
        face_up.append(stack.pop(rng.randbelow(len(stack))))
    first = rng.randbelow(seats)  # "Randomly determine who starts."
    heroes = chosen.pop("heroes")
    cards = None
    if chosen["duels"] == "cards":
        # "Pick a Hero and corresponding Action Deck ... Shuffle your Action Deck and draw 7 cards."
        heroes = D.heroes_for(heroes, seats, rng)
        cards = D.new_card_duel(heroes, first, rng, teams=chosen["teams"], assistance=chosen["assistance"],
                                fair_start=chosen["fair_start"], discard_queue=chosen["discard_queue"])
    players = [{"avatars": [None] * (HANDICAP_AVATARS if seat in chosen["handicap"] else AVATARS),
                "links": [], "firewalls": []} for seat in range(seats)]
    return {
        "seats": seats, "puzzle": seats == 1, **chosen,
        "board": {}, "stack": stack, "face_up": face_up, "waiting": [], "held": None,
        "players": players, "first": first, "turn": first, "turn_number": 1,
        "programs": 0, "menu": [], "attacked": False, "acted": False, "closing": False,
        "hijack": None, "attack": None, "duel": None, "last_duel": None,
        "final_round": False, "last_seat": None, "final_turn": False,
        "tallies": [None] * seats, "over": None, "winners": None, "puzzle_score": None,
        "cards": cards,
    }
