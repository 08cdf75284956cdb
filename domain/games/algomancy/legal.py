"""The actions listed for a seat. Card plays, mods and abilities list every target choice;
formations and blocks are free-form (any valid one may be posted, see `params`), so a
representative set of complete ones is listed."""

from .battle import attack_targets, forming, free_tokens, free_units, incoming, _column_has
from .cards import ELEMENTS
from .effects import choice_options
from .plays import activate_actions, ambush_actions, mod_actions, play_actions
from .state import ACTIVATIONS_PER_TURN, attributes, current_region, home, stats

FORMATION_PARAMS = {"formations": "a list of {target: enemy seat in a neighbouring region, columns: [[front unit, "
                    "optional back unit], ...], tokens: [your spell tokens following the units]}"}
BLOCK_PARAMS = {"blocks": "formation id -> defending columns [[front, optional back] or [] ...] in front of the "
                "attacking columns (one extra slot at most)"}


def listed(state, seat):
    if state["choice"]:
        return [{"type": "choose", "option": option} for option in choice_options(state)]
    kind = state["step"]["k"]
    player = state["players"][seat]
    if kind == "pick":
        return [{"type": "pick", "card": c} for c in _distinct(player["pack"])] if seat not in state["done"] else []
    if kind == "build":
        return [{"type": "cut", "card": c} for c in _distinct(player["hand"])] if seat not in state["done"] else []
    if kind in ("draft", "cube"):
        if state["format"] in ("constructed", "cube_draft", "traditional_cube") and kind == "draft":
            return [{"type": "recycle", "card": c} for c in _distinct(player["hand"])]
        actions = []
        if player["exchanges_left"] > 0:
            actions = [{"type": "exchange", "hand_card": h, "pack_card": p}
                       for h in _distinct(player["hand"]) for p in _distinct(player["pack"])
                       if h.split("#")[0] != p.split("#")[0]]
        return actions + [{"type": "end_draft"}]
    if kind == "resources":
        actions = [{"type": "create_resource", "card": c, "element": e}
                   for c in _distinct(player["hand"]) for e in ELEMENTS]
        if player["activations"] < ACTIVATIONS_PER_TURN:
            actions += [{"type": "activate_resource", "resource": r["id"]} for r in player["dormant"]]
        actions += [{"type": "exchange_prismite", "resource": r["id"], "element": e}
                    for r in player["resources"] if r["kind"] == "Prismite" for e in ELEMENTS]
        return actions + [{"type": "end_planning"}]
    if kind in ("haste", "deploy", "window"):  # where the seat acts, found once for every kind of play
        region = current_region(state, seat)
    if kind == "haste":
        return play_actions(state, seat, region) + [{"type": "end_haste"}]
    if kind == "deploy":
        return play_actions(state, seat, region) + mod_actions(state, seat, region) + \
            activate_actions(state, seat, region) + [{"type": "end_deployment"}]
    if kind == "window":
        return play_actions(state, seat, region) + ambush_actions(state, seat, region) + \
            mod_actions(state, seat, region) + activate_actions(state, seat, region) + [{"type": "pass_priority"}]
    if kind == "attack":
        return attack_options(state, seat)
    if kind == "form":
        return form_options(state, seat)
    if kind == "block":
        actions = []
        if f"blocks:{seat}" not in state["done"]:
            actions += block_options(state, seat)
        if state["step"].get("counter") and f"attack:{seat}" not in state["done"]:
            actions += attack_options(state, seat)
        return actions
    return []


def _distinct(cards):
    """One card of each name (copies are interchangeable)."""
    seen, result = set(), []
    for card in cards:
        if card.split("#")[0] not in seen:
            seen.add(card.split("#")[0])
            result.append(card)
    return result


def _power(state, uid):
    return stats(state, uid)[0]


def attack_options(state, seat):
    """No attack; and for each target: every unit in its own column, columns of two, each
    unit alone; with several targets, the units split between them."""
    units = sorted(free_units(state, seat, home(state, seat)), key=lambda u: (-_power(state, u), u))[:8]
    tokens = free_tokens(state, seat, home(state, seat))
    options = [[]]
    targets = attack_targets(state, seat)
    if units:
        for target in targets:
            wide = [[u] for u in units]
            deep = [units[i:i + 2] for i in range(0, len(units), 2)]
            options += [[{"target": target, "columns": wide, "tokens": tokens}],
                        [{"target": target, "columns": deep, "tokens": tokens}]]
            options += [[{"target": target, "columns": [[u]], "tokens": []}] for u in units]
        if len(targets) == 2 and len(units) >= 2:
            half = len(units) // 2
            options.append([{"target": targets[0], "columns": [[u] for u in units[:half]], "tokens": tokens},
                            {"target": targets[1], "columns": [[u] for u in units[half:]], "tokens": []}])
    return [{"type": "declare_attack", "formations": f, "params": FORMATION_PARAMS} for f in options]


def block_options(state, seat):
    """No blocks; the strongest blockers in front of the strongest columns; and each single
    block of one column by one unit."""
    region = state["step"].get("region") or home(state, seat)
    formations = incoming(state, seat, region)
    blockers = sorted(free_units(state, seat, region), key=lambda u: (-sum(stats(state, u)), u))
    options = [{}]
    greedy, spare = {}, list(blockers)
    singles = []
    # Whether each blocker flies, and each attacking column, read once (the listing changes
    # nothing): read for every pairing of a column and a blocker, twice, they were half the
    # block step's listing (issue 32).
    flying_by_formation = [[_column_has(state, column, "flying") for column in f["columns"]] for f in formations]
    fliers = {unit for unit in blockers if "flying" in attributes(state, unit)} \
        if any(map(any, flying_by_formation)) else set()
    for formation, flying_columns in zip(formations, flying_by_formation):
        columns = formation["columns"]
        chosen = [[] for _ in columns]
        for index in sorted(range(len(columns)), key=lambda i: -sum(_power(state, u) for u in columns[i])):
            flying = flying_columns[index]
            fit = [u for u in spare if not flying or u in fliers]
            if fit:
                chosen[index] = [fit[0]]
                spare.remove(fit[0])
        greedy[formation["id"]] = chosen
        for index, column in enumerate(columns):
            flying = flying_columns[index]
            for unit in blockers:
                if not flying or unit in fliers:
                    single = [[] for _ in range(index)] + [[unit]]
                    singles.append({formation["id"]: single})
    if any(any(c) for c in greedy.values()):
        options.append(greedy)
    options += singles[:24]
    return [{"type": "declare_blocks", "blocks": b, "params": BLOCK_PARAMS} for b in options]


def form_options(state, seat):
    """Phase 2: keep the formations as sent, or put each in one row or in columns of two."""
    options = [{}]
    for formation in forming(state, seat):
        units = sorted((u for c in formation["columns"] for u in c), key=lambda u: (-_power(state, u), u))
        if not units:
            continue  # all its units died on the way (a formation holds at least one unit)
        options.append({formation["id"]: [[u] for u in units]})
        options.append({formation["id"]: [units[i:i + 2] for i in range(0, len(units), 2)]})
    return [{"type": "form_attack", "formations": f} for f in options]
