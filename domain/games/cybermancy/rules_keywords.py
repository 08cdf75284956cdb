"""Cybermancy card effects and keywords, after the rulebook's Keywords section: where a
summoned creature enters (Frontline, Promote), what happens when a creature is destroyed
(Undead Crawlers, Last Gasp), and the effects that wait for a choice (Promote, Call-to-arms
and Last Gasp points), answered with the `choose` action. The turn structure is rules.py."""

from domain.kernel.errors import IllegalAction

from .cards import CREATURES
from .rules_state import all_creatures, living, remaining_health


def entry_area(keywords):
    """Frontline cards enter the Frontline; Promote says "summon it into the Main area", and being
    the card's own instruction it wins over Frontline (README, interpretation 9)."""
    return "frontline" if "frontline" in keywords and "promote" not in keywords else "main"


def deaths(turn, dead):
    """Remove destroyed creatures; Undead crawlers rise in the same area; Last Gasp effects follow."""
    st = turn.state
    steps = []
    for uid in dead:
        creature = st["creatures"][uid]
        card, was_crawler = CREATURES[creature["card"]], creature["crawler"]  # read before it flips
        if card.get("crawler") and not was_crawler:
            crawler = card["crawler"]
            turn.emit({"f": "creature", "uid": uid, "set": {"crawler": True, "attack": crawler["attack"],
                                                            "health": crawler["health"], "damage": 0,
                                                            "status": "buffered"}})
        else:
            turn.emit({"f": "destroyed", "uid": uid})
        if card.get("last_gasp") and not was_crawler:  # the card's Last Gasp, once: not again as a crawler
            effect = card["last_gasp"]
            steps.append({"op": "assign", "seat": creature["owner"], "source": uid, "kind": effect["kind"],
                          "points": effect["amount"]})
    return steps


# ---------------------------------------------------------------------------------------
# Effects that wait for a choice: Promote, Call-to-arms and Last Gasp points
# ---------------------------------------------------------------------------------------

def _options(st, step):
    if step["op"] == "promote":
        return [uid for uid in st["players"][step["seat"]]["main"] if uid != step["source"]]
    others = [uid for uid in all_creatures(st) if uid != step["source"]]
    if step["kind"] == "health":  # health buffs may also go to a Cybermancer
        return others + [f"cybermancer:{s}" for s in living(st)]
    return others


def run_pending(turn, steps):
    """Run effect steps until one needs a choice (then prompt and keep the rest pending).
    Called with no steps pending: actions wait while a prompt is open, and `choose` clears it."""
    st = turn.state
    queue = list(steps) + list(st["pending"])
    while queue and not st["over"]:
        step = queue[0]
        options = _options(st, step)
        if not options or step.get("points", 1) <= 0:  # "if there are no other creatures ... this ability is lost"
            queue.pop(0)
            continue
        if len(options) > 1:
            turn.emit({"f": "pending", "steps": queue})
            turn.emit({"f": "prompt", "prompt": {"seat": step["seat"], "kind": step.get("kind", "promote"),
                                                 "options": options, "source": step["source"]}})
            return
        queue.pop(0)
        queue[0:0] = _resolve(turn, step, options[0])  # its follow-ups (deaths, more points) come first


def _resolve(turn, step, choice):
    """Apply one choice; returns steps that must run before the rest (a killed creature's
    Last Gasp, then this effect's remaining points)."""
    st = turn.state
    if step["op"] == "promote":
        turn.emit({"f": "promote", "uid": choice})
        return []
    more = [{**step, "points": step["points"] - 1}] if step["points"] > 1 else []
    if choice.startswith("cybermancer:"):
        turn.emit({"f": "health", "seat": int(choice.split(":")[1]), "delta": 1})
        return more
    creature = st["creatures"][choice]
    if step["kind"] == "health":
        turn.emit({"f": "creature", "uid": choice, "set": {"health": creature["health"] + 1}})
    elif step["kind"] == "attack":
        turn.emit({"f": "creature", "uid": choice, "set": {"attack": creature["attack"] + 1}})
    else:  # damage
        turn.emit({"f": "creature", "uid": choice, "set": {"damage": creature["damage"] + 1}})
        if remaining_health(st["creatures"][choice]) <= 0:
            # Last Gasp "applies the listed effect the moment it is killed": before this
            # effect's remaining points
            return deaths(turn, [choice]) + more
    return more


def act_choose(turn, seat, action):
    st = turn.state
    prompt = st["prompt"]
    if not prompt:
        raise IllegalAction("no_choice_pending", "there is no choice to make now")
    if action.get("option") not in prompt["options"]:
        raise IllegalAction("not_an_option", f"{action.get('option')!r} is not one of the options")
    step, *rest = st["pending"]
    turn.emit({"f": "prompt", "prompt": None})
    turn.emit({"f": "pending", "steps": []})
    run_pending(turn, _resolve(turn, step, action["option"]) + rest)
