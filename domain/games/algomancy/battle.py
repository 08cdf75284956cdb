"""Battle: attack declarations into neighbouring enemy regions, formations in columns and
rows, holding the line, blocking, flying, and combat damage front to back with Swift,
Sluggish and Deadly. Formations live in state["battle"]["formations"]."""

from domain.kernel.errors import IllegalAction

from .effects import check_deaths, damage
from .state import attributes, columns_by_unit, enemies, home, neighbours, owners, stats, units_in

MAX_ROWS = 2  # "Formations have a front and back row but can scale infinitely in width"


def attack_targets(state, seat):
    """Enemy players in the neighbouring regions (partners sharing a region are all targets)."""
    targets = []
    for region in neighbours(state, home(state, seat)):
        targets += [p for p in owners(state, region) if enemies(state, seat, p)]
    return sorted(targets)


def free_units(state, seat, region):
    """The seat's units in the region that are in no formation and not on their way elsewhere."""
    busy = {uid for f in state["battle"]["formations"] for side in ("columns", "blocks")
            for column in (f[side] or []) for uid in column}
    return [uid for uid in units_in(state, region, seat) if uid not in busy]


def free_tokens(state, seat, region):
    return sorted(t for t, token in state["spell_tokens"].items()
                  if token["controller"] == seat and token["region"] == region)


def check_attack(state, seat, formations):
    if not isinstance(formations, list):
        raise IllegalAction("attack_shape", "formations is a list of {target, columns, tokens}")
    targets = attack_targets(state, seat)
    available = set(free_units(state, seat, home(state, seat)))
    tokens = set(free_tokens(state, seat, home(state, seat)))
    used, aimed = set(), set()
    for formation in formations:
        if not isinstance(formation, dict) or not isinstance(formation.get("columns"), list):
            raise IllegalAction("attack_shape", "each formation is {target, columns, tokens}")
        target = formation.get("target")
        if target not in targets:
            raise IllegalAction("attack_neighbouring_enemy",
                                "units attack an enemy player in a neighbouring region (Attacking)")
        if target in aimed:
            raise IllegalAction("attack_shape", "one formation per attacked player")
        aimed.add(target)
        if not formation["columns"]:
            raise IllegalAction("attack_needs_units", "a formation holds at least one unit")
        for column in formation["columns"]:
            if not _ids(column) or not 1 <= len(column) <= MAX_ROWS:
                raise IllegalAction("formation_front_first",
                                    "a column has a front unit and at most one unit behind it: the front row of a "
                                    "column must be filled first (Hold the line)")
            for uid in column:
                if uid not in available or uid in used:
                    raise IllegalAction("formation_unit", f"{uid} is not a free unit of yours in your region")
                used.add(uid)
        if not _ids(formation.get("tokens", [])):
            raise IllegalAction("attack_shape", "a formation's tokens are the ids of spell tokens of yours")
        for token in formation.get("tokens", []):
            if token not in tokens or token in used:
                raise IllegalAction("formation_unit", f"{token} is not a spell token of yours in your region")
            used.add(token)


def _ids(items) -> bool:
    """Whether `items` is a list of ids (strings): a unit or token named by another JSON type
    is refused before any lookup (a list crashed one: unhashable)."""
    return isinstance(items, list) and all(isinstance(item, str) for item in items)


def place_attack(state, seat, formations, transit=False):
    """Send the formations; counter-attacking units leave and are treated as if they do not
    exist until phase 1 finishes (region None), the rest enter the attacked region."""
    for formation in formations:
        target = formation["target"]
        region = None if transit else home(state, target)
        battle = state["battle"]
        battle["next"] += 1
        battle["formations"].append({
            "id": f"f{battle['next']}", "attacker": seat, "defender": target, "region": region,
            "destination": home(state, target), "columns": [list(c) for c in formation["columns"]],
            "blocks": None, "blocked": [], "tokens": list(formation.get("tokens", []))})
        for column in formation["columns"]:
            for uid in column:
                state["units"][uid]["region"] = region
        for token in formation.get("tokens", []):
            state["spell_tokens"][token]["region"] = region


def arrive(state):
    """Phase 2: the counter-attacking units enter the regions they attack."""
    for formation in state["battle"]["formations"]:
        if formation["region"] is None:
            formation["region"] = formation["destination"]
            for column in formation["columns"]:
                for uid in column:
                    state["units"][uid]["region"] = formation["region"]
            for token in formation["tokens"]:
                if token in state["spell_tokens"]:
                    state["spell_tokens"][token]["region"] = formation["region"]


def incoming(state, seat, region):
    return [f for f in state["battle"]["formations"]
            if f["defender"] == seat and f["region"] == region and f["blocks"] is None]


def check_blocks(state, seat, region, blocks):
    if not isinstance(blocks, dict):
        raise IllegalAction("block_shape", "blocks maps a formation id to its defending columns")
    formations = {f["id"]: f for f in incoming(state, seat, region)}
    available = set(free_units(state, seat, region))
    used = set()
    for fid, columns in blocks.items():
        if fid not in formations:
            raise IllegalAction("block_formation", f"{fid} is not a formation attacking you here")
        formation = formations[fid]
        if not isinstance(columns, list) or len(columns) > len(formation["columns"]) + 1:
            raise IllegalAction("block_shape", "defending columns stand in front of the attacking columns "
                                "(one more slot beside them at most)")
        for index, column in enumerate(columns):
            if not _ids(column) or len(column) > MAX_ROWS:
                raise IllegalAction("block_shape", "a defending column has a front and a back row")
            for uid in column:
                if uid not in available or uid in used:
                    raise IllegalAction("block_unit", f"{uid} is not a free unit of yours in this region")
                used.add(uid)
            flying = index < len(formation["columns"]) and _column_has(state, formation["columns"][index], "flying")
            if column and flying and not any("flying" in attributes(state, uid) for uid in column):
                raise IllegalAction("block_flying", "a column with Flying can not be blocked unless the blocking "
                                    "unit has flying (Attributes)")


def _column_has(state, column, attribute):
    return any(attribute in attributes(state, uid) for uid in column)


def place_blocks(state, seat, region, blocks):
    """Set the defending formations; a column is blocked once a defender stands in front of
    it, even if that defender is later removed."""
    for formation in incoming(state, seat, region):
        columns = [list(c) for c in blocks.get(formation["id"], [])]
        formation["blocks"] = columns
        formation["blocked"] = [i < len(columns) and bool(columns[i]) for i in range(len(formation["columns"]))]


class _Reads:
    """A moment's reads of units' attributes and stats, each unit's read once: nothing changes
    while a moment's hits are worked out (the damage is dealt after), yet every column read its
    units' attribute lists for its timing and Deadly, and their stats, each column found again
    for every unit: a combat was a twentieth of the search bot's time (issue 32)."""

    def __init__(self, state):
        self.state, self.columns, self.known_attributes, self.known_stats = state, columns_by_unit(state), {}, {}

    def attributes(self, uid):
        found = self.known_attributes.get(uid)
        if found is None:
            found = self.known_attributes[uid] = attributes(self.state, uid)
        return found

    def column_has(self, column, attribute):
        return any(attribute in self.attributes(uid) for uid in column)

    def stats(self, uid):
        found = self.known_stats.get(uid)
        if found is None:
            found = self.known_stats[uid] = stats(self.state, uid, self.columns)
        return found


def _timings(reads, column):
    shared = set()
    for uid in column:
        shared |= set(reads.attributes(uid))
    moments = shared & {"swift", "sluggish"}
    return moments or {"normal"}


def _column_power(reads, column):
    """Negative power deals 0."""
    return sum(max(0, reads.stats(uid)[0]) for uid in column)


MOMENTS = ("swift", "normal", "sluggish")


def _assign(state, reads, column, amount, deadly, hits, key, dealer, chosen, pending):
    """Front to back: the front unit takes what kills it, the excess goes to the unit
    behind; nothing carries past the back row. "The player dealing damage may choose to
    assign additional damage beyond lethal" to the front unit (Q&A): where that is a real
    choice the dealer is asked (`chosen` holds the answers, by column key); until then, and
    for an eliminated dealer, the front takes exactly lethal."""
    column = [uid for uid in column if uid in state["units"]]
    if amount <= 0 or not column:
        return
    front = column[0]
    lethal = 1 if deadly else max(1, reads.stats(front)[1] - state["units"][front]["damage"])
    given = min(amount, lethal)
    if len(column) > 1 and amount > lethal:
        if key in chosen:
            given = chosen[key]
        elif not state["players"][dealer]["out"] and state["players"][dealer]["life"] > 0:
            pending.append({"key": key, "dealer": dealer,
                            "options": [f"front:{n}" for n in range(lethal, amount + 1)]})
    if len(column) == 1:
        given = amount
    hits.append((front, given, deadly))
    if len(column) > 1 and amount > given:
        hits.append((column[1], amount - given, deadly))


def combat(state, region):
    """All units in formation deal combat damage simultaneously; Swift columns first and
    Sluggish columns last (a column with both deals twice). Before a moment's damage is dealt,
    each player dealing more than lethal damage to a column of two chooses how much its front
    unit takes: combat pauses (state["choice"], kind "assign") and resumes here."""
    progress = state["battle"].get("damage") or {"region": region, "moment": 0, "chosen": {}, "dealt": []}
    state["battle"]["damage"] = progress
    while progress["moment"] < len(MOMENTS):
        hits, pending, dealers = _moment_hits(state, region, MOMENTS[progress["moment"]], progress["chosen"],
                                              set(progress.get("dealt", ())))
        if pending:
            ask = pending[0]
            state["choice"] = {"kind": "assign", "queue": [ask["dealer"]], "key": ask["key"],
                               "options": ask["options"]}
            return
        for target, amount, deadly in hits:
            if target.startswith("player:") and state["players"][int(target.split(":")[1])]["out"]:
                continue
            if target.startswith("player:") or target in state["units"]:
                damage(state, target, amount, deadly)
        check_deaths(state)
        progress["dealt"] = sorted(set(progress.get("dealt", ())) | dealers)
        progress["moment"] += 1
        progress["chosen"] = {}
    state["battle"]["damage"] = None


def assigned(state, option):
    """The dealer's answer: the front unit takes `option`'s amount; combat goes on."""
    choice = state["choice"]
    state["choice"] = None
    progress = state["battle"]["damage"]
    progress["chosen"][choice["key"]] = int(option.split(":")[1])
    combat(state, progress["region"])


def _moment_hits(state, region, moment, chosen, dealt):
    """The moment's hits, the damage assignments it waits for, and the units that deal in it.
    A unit deals combat damage once a combat (`dealt`: those that have), or twice in a column
    with Swift and Sluggish (Q&A: "It deals combat damage twice, going first and last"): a
    unit that shared its Swift partner's moment does not deal again at the normal moment once
    the partner is gone and the column has lost Swift."""
    hits, pending, dealers, reads = [], [], set(), _Reads(state)

    def dealing(column):
        timings = _timings(reads, column)
        if moment not in timings:
            return []
        if moment == "sluggish" and "swift" in timings:
            return column
        return [uid for uid in column if uid not in dealt]

    for formation in state["battle"]["formations"]:
        if formation["region"] != region:
            continue
        blocks = formation["blocks"] or []
        for index, column in enumerate(formation["columns"]):
            column = [u for u in column if u in state["units"]]
            dealing_units = dealing(column) if column else []
            if not dealing_units:
                continue
            dealers.update(dealing_units)
            power = _column_power(reads, dealing_units)
            deadly = reads.column_has(column, "deadly")
            if index < len(formation["blocked"]) and formation["blocked"][index]:
                defenders = blocks[index] if index < len(blocks) else []
                _assign(state, reads, defenders, power, deadly, hits, f"{formation['id']}:blocks:{index}",
                        formation["attacker"], chosen, pending)
            else:
                hits.append((f"player:{formation['defender']}", power, False))
        for index, column in enumerate(blocks):
            column = [u for u in column if u in state["units"]]
            dealing_units = dealing(column) if column and index < len(formation["columns"]) else []
            if not dealing_units:
                continue
            dealers.update(dealing_units)
            deadly = reads.column_has(column, "deadly")
            _assign(state, reads, formation["columns"][index], _column_power(reads, dealing_units), deadly, hits,
                    f"{formation['id']}:columns:{index}",
                    formation["defender"], chosen, pending)
    return hits, pending, dealers


def forming(state, seat):
    """The seat's formations being put into formation now: the counter-attack in phase 2,
    or in FFA the formations sent into the region whose battle begins."""
    region = state["step"].get("region")
    return [f for f in state["battle"]["formations"] if f["attacker"] == seat and f["blocks"] is None
            and (region is None or f["region"] == region)]


def check_forming(state, seat, formations):
    """Phase 2 (and FFA, region by region): the attacking units are put into formation; the
    same units, each column a front and at most one back unit."""
    if not isinstance(formations, dict):
        raise IllegalAction("form_shape", "formations maps a formation id to its columns")
    mine = {f["id"]: f for f in forming(state, seat)}
    for fid, columns in formations.items():
        if fid not in mine:
            raise IllegalAction("form_own_formation", f"{fid} is not one of your counter-attacking formations")
        if not isinstance(columns, list) or not columns or any(
                not _ids(c) or not 1 <= len(c) <= MAX_ROWS for c in columns):
            raise IllegalAction("formation_front_first", "a column has a front unit and at most one unit behind it")
        units = [u for c in columns for u in c]
        if sorted(units) != sorted(u for c in mine[fid]["columns"] for u in c):
            raise IllegalAction("form_same_units", "the formation holds exactly the units sent to counter-attack")


def place_forming(state, seat, formations):
    for formation in forming(state, seat):
        if formation["id"] in formations:
            formation["columns"] = [list(c) for c in formations[formation["id"]]]
