"""The 24 Network Tiles: tiles.json beside this file (designed: see README.md), or a user's
own file named by ARBITER_CYBERSPACE_TILES. The ruleset version carries its digest."""

import hashlib
import os
from pathlib import Path

import orjson

DEFAULT_TILES = Path(__file__).with_name("tiles.json")
NODES = ("client", "server")


def load(path: Path):
    raw = path.read_bytes()
    tiles = {}
    for tile in orjson.loads(raw)["tiles"]:
        connections = tile["connections"]
        if tile["node"] not in NODES:
            raise ValueError(f"{path}: {tile['id']} has node {tile['node']!r}; a node is a client or a server")
        if not 1 <= len(set(connections)) == len(connections) <= 3 or not set(connections) <= {0, 1, 2, 3}:
            raise ValueError(f"{path}: {tile['id']} needs one, two or three distinct sides among 0-3")
        tiles[tile["id"]] = {"node": tile["node"], "connections": sorted(connections)}
    return tiles, hashlib.sha256(raw).hexdigest()[:12]


TILES, TILES_DIGEST = load(Path(os.environ.get("ARBITER_CYBERSPACE_TILES", DEFAULT_TILES)))
