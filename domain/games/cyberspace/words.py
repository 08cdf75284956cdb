"""HeroCard Cyberspace in words: each fact of the log and each listed action for a person, and
each Network Tile's details (from tiles.json), in the rulebook's terms: Network Tiles (client
and server nodes, connections, ports), the programs Probe, Spawn, Login, Link, Firewall and
Remap, Avatars, Access Tokens, hacking, hijacked sessions, rebooting, the final round. A card
duel's facts and actions are HeroCard's own words (domain/games/herocard/words.py) with
Cyberspace's Attribute names (Gene X). See domain/kernel/words.py.

Squares read "(x, y)"; sides north, east, south, west; a tile by its shape ("a client
corner"), since tiles of one shape are alike. `learn` remembers where tiles lie and which tile
a Probe drew, for the facts and actions that name only a square."""

from domain.games.herocard import words as herocard
from domain.kernel.words import Context, Words, first_up, listing, plural

from .board import coords, turned
from .duels import ATTRIBUTE_NAMES
from .tiles import TILES

SIDES = ("north", "east", "south", "west")
PROGRAMS = {"probe": "Probe", "spawn": "Spawn", "login": "Login", "link": "Link", "firewall": "Firewall",
            "remap": "Remap"}
ENDS = {"final_round_scored": "the final round was scored", "puzzle_done": "the Engineering Puzzle was done"}


def square(cell) -> str:
    x, y = coords(cell) if isinstance(cell, str) else cell
    return f"({x}, {y})"


def shape(tile_id) -> str:
    """"client corner": a tile's node and the lay of its connections."""
    tile = TILES.get(tile_id)
    if tile is None:
        return "tile"
    sides = tile["connections"]
    if len(sides) == 1:
        lay = "port" if tile["node"] == "client" else "with one connection"
    elif len(sides) == 2:
        lay = "straight" if (sides[1] - sides[0]) % 2 == 0 else "corner"
    else:
        lay = "three-way"
    return f"{tile['node']} {lay}"


def a_tile(tile_id) -> str:
    return f"a {shape(tile_id)}"


def openings(tile_id, rot) -> str:
    """"open to the north and east": a placed tile's connections after its turn."""
    if tile_id not in TILES:
        return ""
    return f"open to the {listing([SIDES[s] for s in sorted(turned(tile_id, rot))])}"


def _tile_at(cell, ctx: Context):
    if ("cell", cell) in ctx.known:
        return ctx.known[("cell", cell)]
    for tile in (ctx.view or {}).get("tiles", []):
        if f"{tile['x']},{tile['y']}" == cell:
            return {"tile": tile["tile"], "rot": tile["rotation"]}
    return None


def avatar(seat, index, ctx: Context) -> str:
    return f"{ctx.whose(seat)} Avatar {index + 1}"


def wall(at) -> str:
    cell, side = at
    return f"the {SIDES[side]} side of {square(cell)}"


def target(target: dict, ctx: Context) -> str:
    if target["kind"] == "avatar":
        return f"{avatar(target['seat'], target['avatar'], ctx)} at {square(target['at'])}"
    owners = listing([("your" if o == ctx.viewer else "their") + " own" if o == ctx.actor else ctx.whose(o)
                      for o in target.get("owners", [])], empty="a")
    if target["kind"] == "firewall":
        return f"{owners} Firewall on {wall(target['at'])}"
    return f"{owners} Link at {square(target['at'])}"


# ---------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------

def _program(fact, ctx):
    name = PROGRAMS.get(fact["program"], fact["program"])
    if ctx.actor is not None and ctx.actor != fact["seat"]:
        return f"{ctx.who(ctx.actor)} ran {name} in {ctx.whose(fact['seat'])} hijacked session"
    return f"{ctx.who(fact['seat'])} ran {name}"


def _place(fact, ctx):
    source = {"face_up": "face-up ", "waiting": "waiting ", "held": "drawn "}.get(fact["from"], "")
    return f"The {source}{shape(fact['tile'])} was placed at {square(fact['at'])}, {openings(fact['tile'], fact['rot'])}"


def _remap(fact, ctx):
    placed = _tile_at(fact["from"], ctx)
    what = f"the {shape(placed['tile'])}" if placed else "the pendant tile"
    opened = f", {openings(placed['tile'], fact['rot'])}" if placed else ""
    return f"Remap moved {what} from {square(fact['from'])} to {square(fact['at'])}{opened}"


def _link(fact, ctx):
    moved = f", moved from {square(fact['from'])}" if fact.get("from") else ""
    return f"{ctx.who(fact['seat'])} put a Link on the port at {square(fact['at'])}{moved}"


def _firewall(fact, ctx):
    moved = f", moved from {wall(fact['from'])}" if fact.get("from") else ""
    return f"{ctx.who(fact['seat'])} put a Firewall on {wall(fact['at'])}{moved}"


def _reboot(fact, ctx):
    removed = [f"Avatar {i + 1}" for i in fact["avatars"]]
    return f"{ctx.who(fact['seat'])} rebooted" + (f", removing {listing(removed)}" if removed else "")


def _attack(fact, ctx):
    defenders = fact.get("defenders") or []
    defended = f"; {ctx.seats(defenders)} {'defend' if len(defenders) > 1 or ctx.viewer in defenders else 'defends'}" \
        if defenders else "; nobody defends"
    return f"{ctx.who(fact['seat'])} hacked {target(fact['target'], ctx)}{defended}"


def _tally(fact, ctx):
    return (f"{ctx.who(fact['seat'])} scored {plural(fact['score'], 'point')}: {fact['networks']} from networks, "
            f"{fact['bonus']} bonus")


def _hijack(fact, ctx):
    by = fact.get("by", ctx.actor)
    return f"{ctx.who(by)} hijacked {ctx.whose(fact['target'])} session: three of their programs"


def _duplicate(fact, ctx):
    return (f"{ctx.whose(fact['seat'])} duplicate hack on {ctx.whom(fact['target'])} "
            f"{'succeeded' if fact['success'] else 'failed'}")


def _bit(fact, ctx):
    coin = fact["fact"]["coin"]
    return f"Bit Duel: the coin came up {coin}, so the hack {'succeeds' if coin == 'heads' else 'fails'}"


FACTS = {
    "program": _program,
    "draw": lambda f, ctx: f"Probe drew {a_tile(f['tile'])} from the face-down stack",
    "set_aside": lambda f, ctx: f"The drawn {shape(f['tile'])} fits nowhere: it waits face up beside the stack",
    "place": _place,
    "refill": lambda f, ctx: f"{first_up(a_tile(f['tile']))} was turned face up from the stack",
    "spawn": lambda f, ctx: f"{avatar(f['seat'], f['avatar'], ctx)} spawned at {square(f['at'])}",
    "login": lambda f, ctx: f"{avatar(f['seat'], f['avatar'], ctx)} logged in at {square(f['at'])}",
    "link": _link,
    "firewall": _firewall,
    "remap": _remap,
    "reboot": _reboot,
    "attack": _attack,
    "attack_result": lambda f, ctx: "The hack succeeded" if f["success"] else "The hack failed",
    "attack_cancelled": lambda f, ctx: "The hack was called off: its Base Attack was purged",
    "hijack": _hijack,
    "hijack_end": lambda f, ctx: "The hijacked session ended",
    "duplicate_result": _duplicate,
    "firewall_destroyed": lambda f, ctx: f"{ctx.whose(f['seat'])} Firewall on {wall(f['at'])} was destroyed",
    "link_destroyed": lambda f, ctx: f"{ctx.whose(f['seat'])} Link at {square(f['at'])} was destroyed",
    "closing": lambda f, ctx: ("The turn is ending: each other seat may first play a Fast card or pass" if f["on"]
                               else "A card was played before the turn ended: the Action Phase goes on"),
    "turn": lambda f, ctx: f"{ctx.whose(f['seat'])} {'final ' if f['final'] else ''}turn",
    "final_round": lambda f, ctx: f"The stack is empty: the final round began, ending with {ctx.whose(f['last'])} turn",
    "tally": _tally,
    "over": lambda f, ctx: f"The game ended: {ENDS.get(f['reason'], 'it is over')}",
    "duel bit": _bit,
}
DUEL_FACTS = herocard.duel_facts(ATTRIBUTE_NAMES)
for _kind, _wording in DUEL_FACTS.items():
    FACTS[f"duel {_kind}"] = None if _wording is None else (lambda w: lambda f, ctx: w(f["fact"], ctx))(_wording)
FACTS["duel hc.turn"] = None  # the duel's turn counter: Cyberspace's own "turn" fact says whose turn it is
SOMETIMES_QUIET = frozenset(f"duel {kind}" for kind in herocard.DUEL_QUIET)


def kind_of(fact) -> str:
    """A duel's fact is listed as "duel <its kind>" (a Bit Duel's coin: "duel bit")."""
    if fact.get("f") == "duel":
        inner = fact.get("fact") or {}
        return f"duel {inner.get('f') or inner.get('kind')}"
    return str(fact.get("f"))


def learn(fact, known):
    kind = fact.get("f")
    if kind == "duel":
        herocard.duel_learn(fact.get("fact") or {}, known)
    elif kind == "draw":
        known["held"] = fact["tile"]
    elif kind == "place":
        known[("cell", fact["at"])] = {"tile": fact["tile"], "rot": fact["rot"]}
    elif kind == "remap" and ("cell", fact["from"]) in known:
        known[("cell", fact["at"])] = {**known.pop(("cell", fact["from"])), "rot": fact["rot"]}


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

DUEL_ACTIONS = herocard.duel_actions(ATTRIBUTE_NAMES)


def _at(action) -> str:
    return square((action.get("x"), action.get("y")))


def _place_action(action, ctx):
    held = (ctx.view or {}).get("held") or ctx.known.get("held")
    what = f"the drawn {shape(held)}" if held else "the drawn tile"
    opened = f", {openings(held, action.get('rot', 0))}" if held else ""
    return f"place {what} at {_at(action)}{opened}"


def _probe(action, ctx):
    tile = action.get("tile")
    return f"place the face-up {shape(tile)} at {_at(action)}, {openings(tile, action.get('rot', 0))} (Probe)"


def _link_action(action, ctx):
    moved = f", moving your Link from {square(action['from'])}" if action.get("from") else " (an Access Token)"
    return f"link the port at {_at(action)}{moved}"


def _firewall_action(action, ctx):
    moved = f", moving it from {wall(action['from'])}" if action.get("from") else " (an Access Token)"
    return f"put a Firewall on the {SIDES[action.get('side', 0)]} side of {_at(action)}{moved}"


def _remap_action(action, ctx):
    placed = _tile_at(action.get("from"), ctx)
    what = f"the {shape(placed['tile'])}" if placed else "the pendant tile"
    opened = f", {openings(placed['tile'], action.get('rot', 0))}" if placed else ""
    return f"remap {what} from {square(action.get('from'))} to {_at(action)}{opened}"


def _attack_action(action, ctx):
    kind = action.get("target")
    if kind == "avatar":
        aim = avatar(action.get("seat"), action.get("avatar", 0), ctx)
    elif kind == "firewall":
        aim = f"the Firewall on the {SIDES[action.get('side', 0)]} side of {_at(action)}"
    else:
        aim = f"the Link at {_at(action)}"
    played = action.get("cards")
    if played:
        shown = [herocard.card_summary(c, ATTRIBUTE_NAMES) if ctx.offered else herocard.card_name(c) for c in played]
        return f"hack {aim} with {listing(shown)}" + (
            f", naming {ATTRIBUTE_NAMES.get(action['attribute'])}" if "attribute" in action else "")
    return f"hack {aim} (a Bit Duel: a coin decides)"


def _reboot_action(action, ctx):
    said = [f"remove {listing([f'Avatar {i + 1}' for i in action.get('avatars') or []])}"] if action.get("avatars") else []
    if action.get("clear"):
        said.append(f"clear the top card of {listing([f'the {ATTRIBUTE_NAMES.get(s, s)} stack' for s in action['clear']])}")
    if action.get("refresh"):
        said.append("discard your hand and draw seven")
    return "reboot instead of acting" + (f": {', '.join(said)}" if said else "") + ", ending the turn"


def _duel(action, ctx):
    inner = action.get("duel") if isinstance(action.get("duel"), dict) else {}
    wording = DUEL_ACTIONS.get(inner.get("type"))
    return wording(inner, ctx) if wording else "make a move in the duel"


ACTIONS = {
    "draw": lambda a, ctx: "draw a tile from the face-down stack to place it (Probe)",
    "place": _place_action,
    "probe": _probe,
    "spawn": lambda a, ctx: f"spawn an Avatar on the client at {_at(a)}",
    "login": lambda a, ctx: f"log Avatar {a.get('avatar', 0) + 1} in at {_at(a)}",
    "link": _link_action,
    "firewall": _firewall_action,
    "remap": _remap_action,
    "attack": _attack_action,
    "reboot": _reboot_action,
    "duel": _duel,
    "end_session": lambda a, ctx: "end the hijacked session",
    "end_turn": lambda a, ctx: "end the turn",
    "done": lambda a, ctx: "finish the Engineering Puzzle and score it",
}


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def tile_details(tile_id):
    tile = TILES.get(tile_id) if isinstance(tile_id, str) else None
    if tile is None:
        return None
    rotations = {str(rot): [SIDES[s] for s in sorted(turned(tile_id, rot))] for rot in range(4)}
    return {"id": tile_id, "name": shape(tile_id), "kind": "tile", "node": tile["node"],
            "connections": rotations["0"], "rotations": rotations,
            "text": f"A {tile['node']} node with {plural(len(tile['connections']), 'connection')}; "
                    "turned clockwise a quarter at a time (rotation 0 to 3).", "designed": True}


def details(card_id):
    return tile_details(card_id) or herocard.card_details(card_id, ATTRIBUTE_NAMES) or herocard.hero_details(
        card_id, ATTRIBUTE_NAMES)


def catalog():
    return ([tile_details(t) for t in TILES] + [herocard.card_details(c, ATTRIBUTE_NAMES) for c in herocard.CARDS]
            + [herocard.hero_details(h, ATTRIBUTE_NAMES) for h in herocard.HEROES])


WORDS = Words(facts=FACTS, actions=ACTIONS, details=details, catalog=catalog, kind_of=kind_of, learn=learn,
              reasons=ENDS, sometimes_quiet=SOMETIMES_QUIET)
