"""Algomancy's listed actions in words, for the person who may take them (and the log, which
tells them in the past tense): playing, modding, attacking, blocking, choosing and the steps'
own actions. Apart from the facts' words (words.py, which hooks these on the game's `Words`)
so that each stays short; both name things with names.py."""

from domain.kernel.words import listing, plural

from .cards import CARDS
from .names import aim, card, columns


def _targets(action, ctx, key="targets") -> str:
    targets = [aim(t, ctx) for t in action.get(key) or []]
    return f", targeting {listing(targets)}" if targets else ""


def _play(action, ctx):
    played = action.get("card")
    text = f"play {card(played)}"
    data = CARDS.get(card(played))
    if data and ctx.offered:
        text += f" ({data['type'].replace('_', ' ')}, cost {data['cost']})"
    burst = action.get("burst_targets")
    return text + _targets(action, ctx) + (f", with {plural(len(burst), 'more Spark')}" if burst else "")


def _mod(action, ctx):
    data = CARDS.get(card(action.get("card"))) or {}
    how = "graft" if data.get("graft") else "infect" if data.get("timing") == "virus" else "augment"
    return f"{how} {card(action.get('card'))} onto {card(action.get('onto'))}"


def _declare_attack(action, ctx):
    formations = action.get("formations")
    if formations is None:  # another reader's view: an intent card face down, or an attack its facts show
        return "declare an attack or none"
    said = [f"{ctx.whom(f.get('target'))} with {columns(f.get('columns'))}" for f in formations or []
            if isinstance(f, dict)]
    text = f"attack {listing(said)}" if said else "declare no attack"
    return text + (" (or any other attack you arrange)" if action.get("params") else "")


def _declare_blocks(action, ctx):
    blocks = action.get("blocks") or {}
    said = [columns([c for c in cols if c]) for cols in blocks.values() if any(cols)]
    text = f"block with {listing(said)}" if said else "declare no blocks"
    return text + (" (or any other blocks you arrange)" if action.get("params") else "")


def _form_attack(action, ctx):
    formations = action.get("formations") or {}
    said = [columns(cols) for cols in formations.values()]
    return f"arrange the attack: {'; '.join(said)}" if said else "arrange no attack"


def _choose(action, ctx):
    option = action.get("option")
    if isinstance(option, str) and option.startswith("front:"):
        return f"deal {option.split(':')[1]} combat damage to the front unit"
    if isinstance(option, str) and option.startswith("player:"):
        return f"give it to {aim(option, ctx)}"
    return f"sacrifice {card(option)}" if option else "make a choice"


def _resource(resource_id) -> str:
    return card(resource_id) if resource_id else "a resource"


ACTIONS = {
    "choose": _choose,
    "exchange": lambda a, ctx: (f"exchange {card(a['hand_card'])} from your hand for {card(a['pack_card'])} from the pack"
                                if a.get("hand_card") else "exchange a card with the pack"),
    "end_draft": lambda a, ctx: "end the draft step",
    "recycle": lambda a, ctx: f"recycle {card(a['card'])}" if a.get("card") else "recycle a card",
    "pick": lambda a, ctx: f"pick {card(a['card'])} from the pack" if a.get("card") else "pick a card from the pack",
    "cut": lambda a, ctx: f"leave {card(a['card'])} out of the deck" if a.get("card") else "leave a card out of the deck",
    "create_resource": lambda a, ctx: (f"recycle {card(a['card'])} to create a dormant {a['element']} resource"
                                       if a.get("card") else "create a dormant resource"),
    "activate_resource": lambda a, ctx: f"activate the dormant {_resource(a.get('resource'))}",
    "exchange_prismite": lambda a, ctx: f"exchange the {_resource(a.get('resource'))} for a {a.get('element')} resource",
    "end_planning": lambda a, ctx: "end the resource step",
    "end_haste": lambda a, ctx: "end the haste step",
    "end_deployment": lambda a, ctx: "end deployment",
    "play": _play,
    "ambush": lambda a, ctx: f"ambush with {card(a.get('card'))}, recalling {card(a.get('recall'))} to hand",
    "mod": _mod,
    "activate": lambda a, ctx: (f"activate {card(a.get('unit'))}" + _targets(a, ctx)
                                + (f", sacrificing {card(a['sacrifice'])}" if a.get("sacrifice") else "")),
    "pass_priority": lambda a, ctx: "pass priority",
    "declare_attack": _declare_attack,
    "declare_blocks": _declare_blocks,
    "form_attack": _form_attack,
}
