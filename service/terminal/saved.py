"""The matches this user plays from the terminal, so `arbiter play --resume ID` can take one up
and `arbiter matches` can list them: one JSON file, readable by its owner only (it holds seat
tokens, which are bearer secrets).

Where: ARBITER_SESSIONS if set, else $XDG_STATE_HOME/arbiter/sessions.json, else
~/.local/state/arbiter/sessions.json."""

import os
import time
from pathlib import Path

import orjson


def sessions_path(environ=os.environ) -> Path:
    if environ.get("ARBITER_SESSIONS"):
        return Path(environ["ARBITER_SESSIONS"])
    state = environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "arbiter" / "sessions.json"


def load(environ=os.environ) -> dict[str, dict]:
    path = sessions_path(environ)
    try:
        return orjson.loads(path.read_bytes())
    except FileNotFoundError:
        return {}
    except orjson.JSONDecodeError:
        return {}


def save(match_id: str, entry: dict, environ=os.environ) -> Path:
    """Remember a match: {"game", "server" (None: the local store), "store" (where the local
    store is), "seats": {seat: {"name", "token"?}}}."""
    path = sessions_path(environ)
    path.parent.mkdir(parents=True, exist_ok=True)
    sessions = load(environ)
    sessions[str(match_id)] = {**sessions.get(str(match_id), {}), **entry, "saved_at": time.time()}
    temporary = path.with_suffix(".tmp")
    with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as handle:
        handle.write(orjson.dumps(sessions, option=orjson.OPT_INDENT_2))
    os.replace(temporary, path)
    return path


def find(match_id: str, environ=os.environ) -> dict | None:
    return load(environ).get(str(match_id))
