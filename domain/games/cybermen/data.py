"""The designed host (data.json) and the expansion's Mark table, loaded once."""

import hashlib
import json
from pathlib import Path

_RAW = (Path(__file__).parent / "data.json").read_bytes()
DATA = json.loads(_RAW)
DATA_DIGEST = hashlib.sha256(_RAW).hexdigest()[:8]

MAP = DATA["map"]
ROWS, COLS = len(MAP), len(MAP[0])
CONST = DATA["constants"]
MARKS = {int(k): v for k, v in DATA["marks"].items()}
LATEST_MARK = max(MARKS)
FIRST_TAKEN = DATA["first_taken"]  # "If you have a Geek, Bride or Groom in your group ..."
DIRECTIONS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
ITEMS = DATA["items"]
SABOTAGE = DATA["sabotage"]  # designed: the two-player objective (README, "Two players")
WEAKNESS_CARDS = ("solvents", "gold", "hacking")


def character(char_id):
    """A character id is 'seat.key', e.g. '0.bride'. Not to be changed: the same dict every call."""
    known = CHARACTERS.get(char_id)
    return known if known is not None else _find_character(char_id)


def _find_character(char_id):
    seat, key = char_id.split(".")
    for k, name, ability in DATA["groups"][int(seat)]["characters"]:
        if k == key:
            return {"id": char_id, "seat": int(seat), "key": key, "name": name, "ability": ability}
    raise KeyError(char_id)


# Every character by its id, read once: the rules and the bots read a character's seat and
# ability thousands of times a decision (looking them up in DATA was a few % of a search).
CHARACTERS = {f"{seat}.{key}": _find_character(f"{seat}.{key}")
              for seat, group in enumerate(DATA["groups"]) for key, _, _ in group["characters"]}
