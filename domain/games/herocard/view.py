"""What each seat may see in HeroCard, and the board drawn as text; the hiding itself is the
engine's (engine.view / redact / redact_action), shared with hosts such as Cyberspace."""

from . import engine
from .cards import ATTRIBUTES, CARDS, HEROES


def view(state, seat):
    return {"names": list(state["names"]), **engine.view(state["duel"], seat)}


def redact(fact, seat):
    return engine.redact(fact, seat)


def redact_action(action, actor, seat):
    return engine.redact_action(action, actor, seat)


def _card(card_id):
    card = CARDS[card_id]
    value = f" {card['value']:+d}" if card["kind"].endswith("mod") else f" {card['value']}" if "value" in card else ""
    return f"{card['name']} [{card['timing'][0].upper()} {card['kind'].replace('_', ' ')}{value} · {card['cost']}{card['attribute'][0].upper()}]"


def render(seen):
    """The play area of every Hero: Attribute Cards with free/score, their stacks (top last),
    hand, deck and discard; then the Attack Sequence and whose move it is."""
    names = seen["attribute_names"]
    turn = seen["turn"]
    lines = [f"HeroCard · turn {turn['number']} · {seen['names'][turn['active']]}'s {turn['phase']} phase"
             f" · goal {seen['goal']} VP" + (" · teams" if seen["teams"] else "")]
    for p in seen["players"]:
        hero = HEROES[p["hero"]]
        marks = []
        if seen["priority"] == p["seat"]:
            marks.append("to act")
        if p["skip_turns"]:
            marks.append(f"skips {p['skip_turns']} turn")
        if p["preference"]:
            marks.append(f"prefers {p['preference']}")
        lines.append("")
        lines.append(f"{seen['names'][p['seat']]} — {hero['name']} · {p['vp']} VP" + (f" ({', '.join(marks)})" if marks else ""))
        for attribute in ATTRIBUTES:
            title = hero["attributes"][attribute]["title"]
            twisted = " TWISTED" if attribute in p["twisted"] else ""
            stack = " | ".join(_card(e["card"]) + (" (face down)" if e["face"] == "down" else "") if e["card"]
                               else f"face-down Secret ({e['cost']})" for e in p["stacks"][attribute])
            lines.append(f"  {names[attribute]:<11} {title:<20} {p['free'][attribute]:>2}/{p['scores'][attribute]:<2}{twisted}  {stack or '-'}")
        hand = ", ".join(CARDS[c]["name"] for c in p["hand"]) if isinstance(p["hand"], list) else f"{p['hand']} cards"
        lines.append(f"  hand: {hand} · deck {p['deck']} · discard {len(p['discard'])}")
    sequence = seen["sequence"]
    lines.append("")
    if sequence:
        played = ", ".join(f"{seen['names'][e['seat']]}: {CARDS[e['card']]['name']}" for e in sequence["played"])
        lines.append(f"Attack Sequence: {seen['names'][sequence['owner']]} attacks {seen['names'][sequence['target']]}"
                     f" — attack {sequence['attack_value']} vs block {sequence['block_value']}"
                     + (" (duplicate)" if sequence["duplicate"] else ""))
        lines.append(f"  active cards: {played or '-'}")
    elif seen["last_result"]:
        r = seen["last_result"]
        lines.append(f"Last attack: {seen['names'][r['owner']]} {r['attack']} vs {r['block']} — "
                     + ("succeeded" if r["success"] else "failed"))
    if seen["pending"]:
        lines.append(f"{seen['names'][seen['pending']['seat']]} must discard {seen['pending']['count']} {seen['pending']['of']} card(s)")
    if seen["over"]:
        lines.append(f"Over ({seen['over']}): " + (", ".join(seen["names"][w] for w in seen["winners"]) or "no winner"))
    return "\n".join(lines)
