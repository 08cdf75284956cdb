"""Cybermancy set-up, after the rulebook's "Pre-game Preparation" and "Set-up", with the
variants' options (Multiplayer and 4 Player Team modes, Draft Mode, constructed decks under
"Deck building"). The round that follows is rules.py."""

from domain.kernel.errors import InvalidSetup
from domain.kernel.ruleset import seat_for_key

from .cards import CREATURES, POWER, SUGGESTED
from .rules_state import DECK_SIZE, KINDS, MODES, OPENING_HAND, OPENING_POWER, START_HEALTH


def _validate_options(options, seat_names):
    unknown = set(options) - {"mode", "draft", "decks"}
    if unknown:
        raise InvalidSetup(f"unknown Cybermancy options {sorted(unknown)}; known: mode, draft, decks")
    mode = options.get("mode", "standard")
    if mode not in MODES:
        raise InvalidSetup(f"mode must be one of {list(MODES)}, not {mode!r}")
    if mode == "teams" and len(seat_names) != 4:
        raise InvalidSetup("teams mode is for exactly 4 players (two teams sitting across)")
    draft = options.get("draft", False)
    if not isinstance(draft, bool):
        raise InvalidSetup("draft must be true or false")
    decks = options.get("decks", {})
    if not isinstance(decks, dict):
        raise InvalidSetup('decks must map a seat name (or number) to a list of 30 creature ids')
    if draft and decks:
        raise InvalidSetup("draft and constructed decks exclude each other: drafted decks are built in play")
    chosen = {}
    for key, deck in decks.items():
        seat = seat_for_key(key, seat_names)
        if seat is None:
            raise InvalidSetup(f"decks: {key!r} is neither a seat name nor a seat number")
        chosen[seat] = validate_deck(deck, seat_names[seat])
    return mode, draft, chosen


def validate_deck(deck, owner):
    """Deck building: any 30 creature cards, at most ONE copy of any card."""
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise InvalidSetup(f"deck of {owner}: a deck is a list of creature ids")
    for card in deck:
        if card not in CREATURES:
            raise InvalidSetup(f"deck of {owner}: {card!r} is not a Cybermancy creature")
    seen = set()
    for card in deck:
        if card in seen:
            raise InvalidSetup(f"deck of {owner}: {card!r} appears twice; a Summoning Deck holds at most "
                               "ONE copy of any card")
        seen.add(card)
    if len(deck) != DECK_SIZE:
        raise InvalidSetup(f"deck of {owner}: a Summoning Deck has exactly {DECK_SIZE} cards, not {len(deck)}")
    return list(deck)


def setup(options, seat_names, rng):
    mode, draft, decks = _validate_options(options, seat_names)
    seats = len(seat_names)
    first = rng.randbelow(seats)  # "Determine first player"
    players = []
    for seat in range(seats):
        # Without a constructed deck, seats alternate the suggested Human and Undead lists.
        deck = [] if draft else decks.get(seat, SUGGESTED["human" if seat % 2 == 0 else "undead"])
        players.append({"deck": rng.shuffle(deck), "hand": [], "cpu": [], "ram": [],
                        "track": {"cpu": 1, "ram": 1}, "pool": {"cpu": 0, "ram": 0},
                        "summoned": {"cpu": 0, "ram": 0}, "health": START_HEALTH, "out": False,
                        "frontline": [], "main": [], "graveyard": []})
    state = {
        "seats": seats, "mode": mode, "draft": draft,
        "players": players, "creatures": {}, "next_uid": 1,
        "cpu_deck": rng.shuffle(c["id"] for c in POWER["cpu"]), "ram_deck": rng.shuffle(c["id"] for c in POWER["ram"]),
        "cpu_used": [], "ram_used": [],
        # Enough copies of the game that every drafter can reach 30 distinct cards.
        "draft_pool": sorted(CREATURES) * -(-seats * DECK_SIZE // len(CREATURES)) if draft else [],
        "phase": "draft" if draft else "mulligan", "queue": [first] if draft else order_from_seats(seats, first),
        "round": 1, "initiative": first, "first": first, "turn": first,
        "passes": 0, "acted": False, "attacked": False, "last_attacker": None, "quiet_rounds": 0,
        "prompt": None, "pending": [], "over": None, "winners": None,
    }
    if not draft:
        _deal(state)
    return state


def order_from_seats(seats, first):
    return [(first + i) % seats for i in range(seats)]


def _deal(state):
    """Each player draws 7 creatures and 5 CPU and 5 RAM cards (setup draws need no facts)."""
    for player in state["players"]:
        for _ in range(OPENING_HAND):
            if player["deck"]:
                player["hand"].append(player["deck"].pop())
        for kind in KINDS:
            for _ in range(OPENING_POWER):
                player[kind].append(state[f"{kind}_deck"].pop())
