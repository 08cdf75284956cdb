"""Playing Action Cards: Action Types, costs, sets, the Attack Sequence's sides, and each
card effect the rulebook names (discard, extra Base Attack, clear, purge, replay, duplicate,
twist, draw, variable value) — plus deploying and playing Secret Cards.

Every check raises IllegalAction with a code naming the rule; checks and effects interleave
because `decide` works on a copy, so a refusal anywhere discards everything emitted."""

from domain.kernel.errors import IllegalAction

from . import takeback
from .cards import ATTRIBUTES, CARDS, SET_KINDS, side_of

HAND_LIMIT = 7  # "You may never hold more than seven cards in your hand at any time."


# ---------------------------------------------------------------------------------------
# Shared steps (also used by the turn structure)
# ---------------------------------------------------------------------------------------

def draw(turn, seat, count, source=None):
    """Draw one card at a time; an empty Action Deck is refilled from the discard stack
    (shuffled, or turned over as it lies in the Discard Queue variant). `source`: the uid of
    the card of the open Attack Sequence whose effect this draw is; its entry keeps how many
    cards it drew, for a purge to take back (takeback.note, README 12)."""
    drawn, tag = [], takeback.tag(source)
    for _ in range(count):
        player = turn.state["players"][seat]
        if len(player["deck"]) <= len(drawn):
            if drawn:
                turn.emit({"f": "hc.draw", "seat": seat, "cards": drawn, **tag})
                drawn = []
            player = turn.state["players"][seat]
            if not player["discard"]:
                break
            queue = turn.state["config"]["discard_queue"]
            order = list(player["discard"]) if queue else turn.rng.shuffle(player["discard"])
            turn.emit({"f": "hc.reshuffle", "seat": seat, "order": order})
        drawn.append(turn.state["players"][seat]["deck"][len(drawn)])
    if drawn:
        turn.emit({"f": "hc.draw", "seat": seat, "cards": drawn, **tag})


def clear_top(turn, seat, attribute, source=None):
    """`source`: as for `draw`, the uid of the sequence's card whose effect this clear is."""
    entry = turn.state["players"][seat]["stacks"][attribute][-1]
    turn.emit({"f": "hc.clear", "seat": seat, "attribute": attribute, "uid": entry["uid"], "card": entry["card"],
               **takeback.tag(source)})


def free_points(player, attribute):
    stack = player["stacks"][attribute]
    return player["scores"][attribute] - (sum([entry["cost"] for entry in stack]) if stack else 0)


def partner(st, seat):
    return (seat + 2) % 4 if st["config"]["teams"] else None


def side_seats(st, seat):
    """A seat and its partner: the players whose Victory Points are added together."""
    return sorted((seat, partner(st, seat))) if st["config"]["teams"] else [seat]


def opponents(st, seat):
    side = side_seats(st, seat)
    return [s for s in range(st["seats"]) if s not in side]


def entry_value(st, entry):
    variable = entry.get("variable")
    if not variable:
        return entry["value"]
    # Glossary, Variable Value: "Attack 0, plus the cost of all cards of selected Attribute in play by target."
    # A deployed (face-down) Secret Card "is not in play": it does not count.
    stack = st["players"][variable["target"]]["stacks"][variable["attribute"]]
    return entry["value"] + sum(e["cost"] for e in stack if e["face"] != "down")


def attack_values(st):
    """(total attack value, total block value) of the open Attack Sequence."""
    attack = block = 0
    for entry in st["sequence"]["played"] if st["sequence"] else []:
        if entry["kind"] in ("base_attack", "attack_mod"):
            attack += entry_value(st, entry)
        elif entry["kind"] in ("base_block", "block_mod"):
            block += entry_value(st, entry)
    return attack, block


# ---------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------

def check_timing(st, seat, card):
    """Fast: any player's Action Phase. Restricted: only your own. Exclusive: only your own,
    one a turn (cards like One More Round allow one more Base Attack)."""
    own = seat == st["turn"]["active"]
    if card["timing"] == "restricted" and not own:
        raise IllegalAction("restricted_own_turn", f"{card['name']} is Restricted: only on your own Action Phase")
    if card["timing"] == "exclusive":
        if not own:
            raise IllegalAction("exclusive_own_turn", f"{card['name']} is Exclusive: only on your own Action Phase")
        if st["turn"]["exclusives"] >= 1 + st["turn"]["allowance"]:
            raise IllegalAction("one_exclusive_per_turn", "you can play only one Exclusive action per turn")


def check_not_twisted(st, seat, attribute):
    if any(t["attribute"] == attribute for t in st["players"][seat]["twisted"]):
        name = st["config"]["attribute_names"][attribute]
        raise IllegalAction("attribute_twisted", f"your {name} is twisted: you cannot play any cards on it")


def seat_side(st, seat):
    sequence = st["sequence"]
    if seat in sequence["attack"]:
        return "attack"
    if seat in sequence["block"]:
        return "block"
    return st["assist"].get(str(seat))


def losing_side(st):
    """The side an assistant may help: the attack while it does not beat the block."""
    attack, block = attack_values(st)
    return "attack" if attack <= block else "block"


def check_side(turn, seat, card, losing=None):
    """In an Attack Sequence the cards that add to a side's value (bases and mods) belong to that
    side: attack ones to the attacking side, block ones to the defending side; special attacks
    and blocks follow their Action Type only (README 5). With Assistance, a third player
    assists the losing side and never switches.
    `losing` is the side that was losing when the assistant's play began: "the player may assist
    the losing side at the time their turn comes up", so a set is judged as a whole, not card by
    card (a Base Block that puts the defender ahead does not strand its own Block Mod)."""
    commits = side_commitment(turn.state, seat, card, losing)
    if commits is not None:
        turn.emit({"f": "hc.commit", "seat": seat, "side": commits})


def side_commitment(st, seat, card, losing=None):
    """check_side's checks, which change nothing: the side an assistant commits to by this
    card (None when it needs no commitment), or IllegalAction."""
    side = side_of(card["kind"])
    if st["sequence"] is None or side is None:
        return None
    mine = seat_side(st, seat)
    involved = seat in st["sequence"]["attack"] or seat in st["sequence"]["block"]
    if involved:
        # Only the cards that add to a side's value belong to that side. Special attacks and blocks
        # follow their Action Type: "you can also play other cards on your turn provided you follow
        # any limits imposed by the Action Type"; "Special Blocks are generally Fast Action Types,
        # so you aren't limited to playing them only in response to an attack" (README 5).
        if card["kind"] in SET_KINDS and side != mine:
            article = "an" if side == "attack" else "a"
            raise IllegalAction("wrong_side", f"{card['name']} is {article} {side} card; you are on the {mine}ing side")
        return None
    if card["timing"] != "fast":  # "any other player may play a valid Fast Action Card to assist"
        raise IllegalAction("assist_fast_only", f"{card['name']} is not Fast: only a Fast card may assist a side")
    if st["sequence"]["block"] == st["sequence"]["attack"]:  # "When a player attacks an opponent"
        raise IllegalAction("assist_no_opponent", "this attack is on the attacker's own side: there is no conflict to assist")
    losing = losing or losing_side(st)
    if mine is not None and mine != side:
        raise IllegalAction("assist_no_switching", "once you assist one side of a conflict you may not switch sides")
    if side != losing:
        raise IllegalAction("assist_losing_side", f"you may only assist the losing side, now the {losing}ing side")
    return side if mine is None else None


def check_sequence_needs(st, seat, card, set_cards):
    kind = card["kind"]
    sequence = st["sequence"]
    played = sequence["played"] if sequence else []
    if kind == "base_attack" and sequence:
        raise IllegalAction("sequence_open", "a given Attack Sequence must complete before a new one is launched")
    if kind == "attack_mod" and not (any(CARDS[c]["kind"] == "base_attack" for c in set_cards)
                                     or any(e["kind"] == "base_attack" for e in played)):
        raise IllegalAction("mod_needs_base", "an Attack Mod cannot stand alone: play it with or after a Base Attack")
    if kind in ("base_block", "block_mod") and sequence is None:
        raise IllegalAction("block_needs_attack", "blocks are played against an attack, in its Attack Sequence")
    if kind == "block_mod" and not (any(CARDS[c]["kind"] == "base_block" for c in set_cards)
                                    or any(e["kind"] == "base_block" for e in played)):
        raise IllegalAction("mod_needs_base", "a Block Mod cannot stand alone: play it with or after a Base Block")


def target_seats(st, seat):
    """"You may select any player in the game, including yourself" — but "Partners can not
    voluntarily attack each other"."""
    return sorted(opponents(st, seat) + [seat])


def pick_target(st, seat, action, required=True):
    """A target is any player but a partner; named nowhere, it is the single opponent."""
    choices = target_seats(st, seat)
    target = action.get("target")
    if target is None and len(opponents(st, seat)) == 1:
        return opponents(st, seat)[0]
    if target is None and not required:
        return None
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < st["seats"]:
        raise IllegalAction("bad_target", f"name the target seat among {choices}")
    if target not in choices:
        raise IllegalAction("partners_may_not_attack", "partners can not attack each other or target each other")
    return target


def pick_attribute(action):
    attribute = action.get("attribute")
    if attribute not in ATTRIBUTES:
        raise IllegalAction("bad_attribute", f"name the selected Attribute among {list(ATTRIBUTES)}")
    return attribute


# ---------------------------------------------------------------------------------------
# Playing cards from the hand (singly or as a set)
# ---------------------------------------------------------------------------------------

def act_play(turn, seat, action):
    st = turn.state
    ordered, losing = check_play(st, seat, action, getattr(turn, "defenders", None))
    for card in ordered:
        play_card(turn, seat, card, action, action["cards"], source="hand", losing=losing)
    if seat == st["turn"]["active"]:
        turn.emit({"f": "hc.acted"})


def check_play(st, seat, action, defenders=None):
    """Every refusal of a play from the hand made before its first fact: the cards, the set,
    their cost, then the first card's own checks (play_card's, on `st` as it still is). It
    changes nothing, so a listing's trial refuses most candidates without a copy of the duel
    (engine.precheck). (the cards in the order they take effect, the side losing now)"""
    cards = action.get("cards")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) and c in CARDS for c in cards):
        raise IllegalAction("malformed_action", '"cards" lists one or more Action Card ids from your hand')
    hand = list(st["players"][seat]["hand"])
    for card in cards:
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{card!r} is not in your hand")
        hand.remove(card)
    if len(cards) > 1:
        check_set(cards)
    for card in cards:
        if CARDS[card].get("secret"):
            raise IllegalAction("secret_must_be_deployed", f"{CARDS[card]['name']} is a Secret Card: deploy it face down first")
    costs = dict.fromkeys(ATTRIBUTES, 0)
    for card in cards:
        costs[CARDS[card]["attribute"]] += CARDS[card]["cost"]
    for attribute, cost in costs.items():
        if cost > free_points(st["players"][seat], attribute):
            raise IllegalAction("cost_exceeds_free_points", f"the cards cost {cost} {attribute} points; "
                                f"you have {free_points(st['players'][seat], attribute)} free")
    ordered = sorted(cards, key=lambda c: SET_KINDS.index(CARDS[c]["kind"]) if CARDS[c]["kind"] in SET_KINDS else 0)
    losing = losing_side(st) if st["sequence"] is not None else None
    check_card(st, seat, ordered[0], action, cards, defenders, losing)
    return ordered, losing


def check_set(cards):
    """Sets contain only bases and mods of one side, and at most one Base Attack."""
    kinds = [CARDS[c]["kind"] for c in cards]
    if any(k not in SET_KINDS for k in kinds):
        raise IllegalAction("set_only_bases_and_mods", "special attacks and blocks, and other cards, are played singly")
    if len({side_of(k) for k in kinds}) > 1:
        raise IllegalAction("set_one_side", "a set is either an attack set or a block set")
    if kinds.count("base_attack") > 1:
        raise IllegalAction("one_base_attack", "an attack set holds a single Base Attack")


def play_card(turn, seat, card_id, action, set_cards, source, uid=None, precede=None, losing=None):
    """One card takes effect: from the hand (placed on its stack), a revealed Secret Card, or a
    replay (left in place, no cost). Its Action Type, its side and the sequence are checked."""
    st = turn.state
    card = CARDS[card_id]
    defenders = getattr(turn, "defenders", None)
    check_card(st, seat, card_id, action, set_cards, defenders, losing)
    if card["kind"] == "base_attack":
        if defenders is None:
            target = pick_target(st, seat, action)
            block = side_seats(st, target)
        else:
            # A host names the defending seats (Cyberspace: the owners of two Firewalls on one
            # connection both defend; none when you attack your own piece and decline to defend).
            target = defenders[0] if defenders else seat
            block = sorted({s for d in defenders for s in side_seats(st, d)}) or side_seats(st, seat)
        opened = {"f": "hc.open", "owner": seat, "target": target, "attack": side_seats(st, seat),
                  "block": block, "duplicate": False}
        if defenders:  # each named defender is attacked, so each may duplicate the Base Attack
            opened["defenders"] = list(defenders)
        turn.emit(opened)
    check_side(turn, seat, card, losing)
    if card["timing"] == "exclusive":
        turn.emit({"f": "hc.exclusive", "delta": 1})
    if source == "hand":
        uid = st["next_uid"]
        turn.emit({"f": "hc.place", "seat": seat, "from": "hand", "card": card_id, "attribute": card["attribute"],
                   "face": "up", "cost": card["cost"], "turn": st["turn"]["number"], "uid": uid})
    effect = card.get("effect", {})
    entry = {"uid": uid, "seat": seat, "card": card_id, "kind": card["kind"], "value": card.get("value", 0),
             "variable": None, "replay": source == "replay", "effects": undo_record(effect, uid)}
    if effect.get("variable"):
        entry["variable"] = {"target": st["sequence"]["target"], "attribute": pick_attribute(action)}
    if "purge" in effect:  # a purge takes the card played before it
        apply_effect(turn, seat, card, action, uid)
        if precede is not None and st["sequence"] is not None:
            turn.emit({"f": "hc.active", "entry": precede})  # the replaying card, now the purge is done
    if st["sequence"] is not None and not replays_purge(st, seat, effect, action):
        turn.emit({"f": "hc.active", "entry": entry})
    if "purge" not in effect:  # a replayed card comes after its replaying card: it is "the last card played"
        apply_effect(turn, seat, card, action, uid, precede=entry if replays_purge(st, seat, effect, action) else None)


def check_card(st, seat, card_id, action, set_cards, defenders, losing):
    """play_card's checks of a card before its first fact: its Action Type, its Attribute, the
    sequence it needs, a Base Attack's target (a host's `defenders` need none) or another
    card's side (after a Base Attack's "hc.open" its side is the attack's: play_card checks
    that there)."""
    card = CARDS[card_id]
    check_timing(st, seat, card)
    check_not_twisted(st, seat, card["attribute"])
    check_sequence_needs(st, seat, card, set_cards)
    if card["kind"] != "base_attack":
        side_commitment(st, seat, card, losing)
    elif defenders is None:
        pick_target(st, seat, action)


def replays_purge(st, seat, effect, action):
    """A replay of a purge is "as if playing a free copy of the card from your hand": the purge
    takes the last card played before the replaying card, which joins the sequence after it."""
    if "replay" not in effect:
        return False
    entry = next((e for a in ATTRIBUTES for e in st["players"][seat]["stacks"][a] if e["uid"] == action.get("uid")), None)
    return entry is not None and entry["face"] == "up" and "purge" in CARDS[entry["card"]].get("effect", {})


def undo_record(effect, uid):
    """What a purge of this card must take back, besides its value, known when it is played.
    What its effect does to hands, decks and stacks is added to its entry as it happens
    (takeback.note: "discarded", "drew" and "hand", "cleared"); README 12."""
    undo = {}
    if "twist" in effect:
        undo["twist"] = uid
    if "extra_base_attack" in effect:
        undo["allowance"] = effect["extra_base_attack"]
    if "duplicate" in effect:
        undo["duplicate"] = uid
    return undo


def apply_effect(turn, seat, card, action, uid, precede=None):
    """The card's own text."""
    st = turn.state
    effect = card.get("effect", {})
    source = uid if st["sequence"] is not None else None  # only a card in the sequence can be purged
    if "discard" in effect:
        force_discard(turn, seat, pick_target(st, seat, action), effect["discard"], source)
    if "extra_base_attack" in effect:
        turn.emit({"f": "hc.allowance", "delta": effect["extra_base_attack"]})
    if "clear_own" in effect:
        attribute = pick_attribute(action)
        if not st["players"][seat]["stacks"][attribute]:
            raise IllegalAction("clear_empty_stack", f"your {attribute} Attribute Stack has no card to clear")
        clear_top(turn, seat, attribute, source)
    if "twist" in effect:
        target, attribute = pick_target(st, seat, action), pick_attribute(action)
        if target not in opponents(st, seat):  # "Twist one of your opponent's Attribute"
            raise IllegalAction("twist_opponent_only", "a twist takes one of your opponent's Attributes")
        if any(t["attribute"] == attribute for t in st["players"][target]["twisted"]):
            raise IllegalAction("already_twisted", "that Attribute is already twisted")
        turn.emit({"f": "hc.twist", "seat": target, "attribute": attribute, "by": seat, "uid": uid})
    if "draw" in effect:
        draw(turn, seat, min(effect["draw"], max(0, HAND_LIMIT - len(st["players"][seat]["hand"]))), source)
    if "purge" in effect:
        purge(turn, seat)
    if "duplicate" in effect:
        duplicate(turn, seat, action, uid)
    if "replay" in effect:
        replay(turn, seat, action, precede)


def force_discard(turn, seat, target, rule, source=None):
    """"Target discards one block card" (any kind of block card); the target chooses which.
    The target is asked whenever its hand holds any card, even with no choice to make (no
    matching card, or no more than the count): a prompt only when it holds more would tell
    the attacker and every spectator how many such cards the hidden hand holds."""
    if not turn.state["players"][target]["hand"]:  # the hand's size is public: nothing to hide
        return
    # `for`: the card's uid, whose entry keeps the cards discarded, for a purge (README 12)
    turn.emit({"f": "hc.pending", "pending": {"seat": target, "kind": "discard", "of": rule["of"],
                                               "count": rule["count"], "source": seat, **takeback.tag(source)}})


def must_discard(duel, seat):
    """How many cards the pending forced discard takes from `seat`'s hand: its count, or every
    matching card when the hand holds fewer."""
    pending = duel["pending"]
    matching = [c for c in duel["players"][seat]["hand"] if pending["of"] == "any" or side_of(CARDS[c]["kind"]) == pending["of"]]
    return matching, min(pending["count"], len(matching))


def act_choose(turn, seat, action):
    st = turn.state
    pending = st["pending"]
    cards = action.get("cards")
    _, count = must_discard(st, seat)
    if not isinstance(cards, list) or len(cards) != count:
        raise IllegalAction("discard_count", f"choose exactly {count} {pending['of']} cards to discard")
    hand = list(st["players"][seat]["hand"])
    for card in cards:
        if card not in hand or (pending["of"] != "any" and side_of(CARDS[card]["kind"]) != pending["of"]):
            raise IllegalAction("discard_kind", f"discard {pending['of']} cards from your hand")
        hand.remove(card)
    if cards:
        turn.emit({"f": "hc.discard", "seat": seat, "cards": list(cards), **takeback.tag(pending.get("for"))})
    turn.emit({"f": "hc.pending", "pending": None})


def purge(turn, seat):
    """Purge: "You may only purge the last card played in the current Attack Sequence"; it is as
    if never played: a purged Base Attack cancels the sequence and its Exclusive does not count,
    and what its effect did is taken back (README 12: takeback.py)."""
    st = turn.state
    sequence = st["sequence"]
    if not sequence or not sequence["played"]:
        raise IllegalAction("purge_needs_sequence", "purge takes the last card played in the current Attack Sequence")
    last = sequence["played"][-1]
    if "purge" in CARDS[last["card"]].get("effect", {}):
        raise IllegalAction("purge_target", "a purge's effect is already complete; it cannot be purged")
    owner = st["players"][last["seat"]]
    attribute = CARDS[last["card"]]["attribute"]
    to_discard = last["uid"] is not None and not last["replay"]
    if to_discard:
        stack = owner["stacks"][attribute]
        if not stack or stack[-1]["uid"] != last["uid"]:
            raise IllegalAction("purge_not_on_top", "the card purged must be at the top of its Attribute Stack")
    turn.emit({"f": "hc.purge", "to_discard": to_discard, "attribute": attribute, "seat": last["seat"],
               "card": last["card"]})
    undo = last.get("effects") or {}
    if "twist" in undo:
        turn.emit({"f": "hc.untwist", "uid": undo["twist"]})
    if "allowance" in undo:
        turn.emit({"f": "hc.allowance", "delta": -undo["allowance"]})
    if "duplicate" in undo:
        turn.emit({"f": "hc.unqueue_duplicate", "source": undo["duplicate"]})
    for fact in takeback.facts(st, last["seat"], undo):
        turn.emit(fact)
    if CARDS[last["card"]]["timing"] == "exclusive" and last["uid"] is not None and last["seat"] == st["turn"]["active"]:
        turn.emit({"f": "hc.exclusive", "delta": -1})
    if last["kind"] == "base_attack":
        turn.emit({"f": "hc.cancel"})


def duplicate(turn, seat, action, uid):
    """Duplicating a Base Attack played against you: the duplicate (Base Attack only, no mods)
    is resolved after the original, with you as its owner."""
    st = turn.state
    sequence = st["sequence"]
    base = next((e for e in sequence["played"] if e["kind"] == "base_attack"), None) if sequence else None
    if base is None or seat not in sequence["defenders"]:
        raise IllegalAction("duplicate_needs_attack", "you can only duplicate a Base Attack played against you "
                            "during the current Attack Sequence")
    target = pick_target(st, seat, {"target": action.get("target", sequence["owner"])})
    variable = dict(base["variable"], target=target) if base.get("variable") else None
    turn.emit({"f": "hc.queue_duplicate", "duplicate": {"source": uid, "owner": seat, "target": target,
                                                        "card": base["card"], "value": base["value"],
                                                        "variable": variable}})


def replay(turn, seat, action, precede=None):
    """Replaying a Card: play a card on your Attribute Stack again as a free copy, obeying its
    Action Type; it stays in place and becomes the last card played."""
    st = turn.state
    uid = action.get("uid")
    entry = next((e for a in ATTRIBUTES for e in st["players"][seat]["stacks"][a] if e["uid"] == uid), None)
    if entry is None:
        raise IllegalAction("replay_target", "name (uid) a card on your own Attribute Stacks to replay")
    if entry["face"] == "down":
        raise IllegalAction("secret_not_in_play", "a deployed Secret Card is not in play: it cannot be replayed")
    if entry.get("dud"):
        raise IllegalAction("replay_target", "a wrongly played Secret Card has no effect on game play, replayed or not")
    if "replay" in CARDS[entry["card"]].get("effect", {}):
        raise IllegalAction("replay_target", "a replaying card cannot replay another replay")
    play_card(turn, seat, entry["card"], {k: v for k, v in action.items() if k != "uid"}, [entry["card"]],
              source="replay", uid=entry["uid"], precede=precede)


# ---------------------------------------------------------------------------------------
# Secret Cards
# ---------------------------------------------------------------------------------------

def secret_cost(st, card):
    return st["config"]["secret_cost"] or card["cost"]


def act_deploy(turn, seat, action):
    """Deploy: place a Secret Card face down on an Attribute Stack; it expends points at once
    (all Cyberspace Secret Cards cost four) but is not in play until played on a later turn.
    You choose the stack: deploying on the wrong Attribute is possible, and costly later."""
    st = turn.state
    cost = check_deploy(st, seat, action)
    turn.emit({"f": "hc.place", "seat": seat, "from": "hand", "card": action["card"], "attribute": action["attribute"],
               "face": "down", "cost": cost, "turn": st["turn"]["number"], "uid": st["next_uid"]})
    turn.emit({"f": "hc.acted"})


def check_deploy(st, seat, action):
    """Every refusal of a deployment (it changes nothing, like check_play): the points it expends."""
    card_id, attribute = action.get("card"), action.get("attribute")
    if seat != st["turn"]["active"]:
        raise IllegalAction("deploy_own_turn", "Secret Cards are deployed during your own Action Phase")
    if card_id not in st["players"][seat]["hand"]:
        raise IllegalAction("not_in_hand", f"{card_id!r} is not in your hand")
    card = CARDS[card_id]
    if not card.get("secret"):
        raise IllegalAction("not_a_secret", f"{card['name']} is not a Secret Card: play it face up")
    if attribute not in ATTRIBUTES:
        raise IllegalAction("bad_attribute", f"deploy on one of the stacks {list(ATTRIBUTES)}")
    cost = secret_cost(st, card)
    if cost > free_points(st["players"][seat], attribute):
        raise IllegalAction("cost_exceeds_free_points", f"deploying expends {cost} {attribute} points; "
                            f"you have {free_points(st['players'][seat], attribute)} free")
    return cost


def act_reveal(turn, seat, action):
    """Playing a Secret Card: turn it face up from a later turn on; on a twisted Attribute it
    may not be played. Played wrongly (wrong Attribute or too few points expended) it has no
    effect, and you lose the remainder of your turn and the whole of your next one."""
    st = turn.state
    uid = action.get("uid")
    found = [(a, e) for a in ATTRIBUTES for e in st["players"][seat]["stacks"][a] if e["uid"] == uid]
    if not found or found[0][1]["face"] != "down":
        raise IllegalAction("no_deployed_secret", "name (uid) one of your deployed, face-down Secret Cards")
    attribute, entry = found[0]
    card = CARDS[entry["card"]]
    if entry["turn"] >= st["turn"]["number"]:
        raise IllegalAction("secret_not_ready", "you cannot play a Secret Card on the turn you deployed it")
    check_not_twisted(st, seat, attribute)
    wrong = attribute != card["attribute"] or entry["cost"] < card["cost"]
    if wrong:  # played without effect, but played: its Action Type says when (a right one's play_card checks it)
        check_timing(st, seat, card)
    turn.emit({"f": "hc.reveal", "seat": seat, "attribute": attribute, "uid": uid, "card": entry["card"], "dud": wrong})
    if wrong:
        turn.emit({"f": "hc.penalty", "seat": seat, "forfeit": seat == st["turn"]["active"]})
    else:
        play_card(turn, seat, entry["card"], action, [entry["card"]], source="secret", uid=uid)
    if seat == st["turn"]["active"]:
        turn.emit({"f": "hc.acted"})


# ---------------------------------------------------------------------------------------
# Teams: a partner may only state a preference
# ---------------------------------------------------------------------------------------

def act_prefer(turn, seat, action):
    st = turn.state
    if not st["config"]["teams"]:
        raise IllegalAction("teams_only", "stating a preference is the Teams variant's only partner talk")
    if action.get("preference") not in ("attack", "block"):
        raise IllegalAction("preference_kind", "partners can only state a preference for attacking or blocking")
    if st["players"][seat]["preference"] is not None:
        raise IllegalAction("preference_once", "a preference is stated once a turn")
    turn.emit({"f": "hc.prefer", "seat": seat, "preference": action["preference"]})


def preferences(duel, seat):
    if not duel["config"]["teams"] or duel["over"] or duel["players"][seat]["preference"] is not None:
        return []
    return [{"type": "prefer", "preference": p} for p in ("attack", "block")]
