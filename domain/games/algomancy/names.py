"""The names Algomancy's words give things: a card, cards, a region, a target, a formation's
columns. Apart from words.py because both the facts' words (words.py) and the actions' words
(action_words.py) name things with them, and words.py imports action_words.py: one way."""

from domain.kernel.words import Context, listing

from .cards import name_of


def card(card_id) -> str:
    return name_of(card_id) if isinstance(card_id, str) else "a card"


def cards(card_ids) -> str:
    return listing([card(c) for c in card_ids], empty="no card")


def region(region_id, ctx: Context) -> str:
    if region_id is None:
        return "transit"
    home = ctx.known.get("home") or (ctx.view or {}).get("home")
    owners = [seat for seat, own in enumerate(home or []) if own == region_id]
    if len(owners) == 1:
        return f"{ctx.whose(owners[0])} region"
    if owners:
        return f"the region of {ctx.seats(owners)}"
    return f"region {region_id[1:]}" if isinstance(region_id, str) and region_id[1:].isdigit() else "a region"


def aim(target, ctx: Context) -> str:
    """A target as a play names it: a unit, "player:N", a spell token, or an effect on the stack."""
    if isinstance(target, str) and target.startswith("player:"):
        return ctx.whom(int(target.split(":")[1]))
    if isinstance(target, str) and target.startswith("effect#"):
        stack = ctx.known.get("stack") or (ctx.view or {}).get("stack") or []
        found = next((item for item in stack if item.get("id") == target), None)
        return f"the effect of {card(found['card'])}" if found and found.get("card") else "an effect on the stack"
    return card(target)


def columns(cols) -> str:
    """Columns of a formation: "Alloy Striker (Arc Welder behind); Jelly"."""
    said = []
    for column in cols or []:
        if not column:
            said.append("an empty column")
        elif len(column) == 1:
            said.append(card(column[0]))
        else:
            said.append(f"{card(column[0])} ({listing([card(c) for c in column[1:]])} behind)")
    return "; ".join(said) if said else "no unit"
