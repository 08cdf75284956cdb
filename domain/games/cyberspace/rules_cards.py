"""HeroCard card duels inside Cyberspace (rules/herocard-cyberspace.txt: "Cyberspace Dueling"
and the HeroCard Core Rules it points to): one HeroCard engine duel in `state["cards"]` for
the whole match, each Cyberspace turn being that seat's HeroCard turn. Here: the duel's
facts given to the board (each resolved Attack Sequence hacks its target, a duplicate's
owner hijacks, a purged Base Attack cancels the hack), a hack played as a Base Attack with a
board target, the duel's own actions (its phases, cards, passes, refreshes, Assistance and
Secret Cards, all refused or allowed by the engine) and why a seat must play cards first,
and what Rebooting clears and refreshes. rules.py calls this module, never the reverse; the
turn's end (a refresh, a wrongly played Secret Card) is rules.py's."""

from domain.kernel.errors import IllegalAction

from domain.games.herocard import engine as hc
from domain.games.herocard.cards import CARDS

from . import duels as D
from .rules_hacking import attack_options, resolve


def emit_cards(turn, facts):
    """Record the engine's facts in order; then give the board what the duel decided: each
    resolved Attack Sequence hacks its target (or destroys it), a purged Base Attack cancels
    the hack, a turn the engine gave up (a refresh, a wrongly played Secret Card) ends."""
    st = turn.state
    resolved = []
    for fact in facts:
        duplicate = fact["f"] == "hc.resolved" and st["cards"]["sequence"]["duplicate"]
        turn.emit({"f": "duel", "fact": fact})
        if fact["f"] == "hc.resolved":
            resolved.append((duplicate, fact))
        elif fact["f"] == "hc.cancel" and st["attack"] is not None:
            turn.emit({"f": "attack_cancelled"})
    for duplicate, fact in resolved:
        if not duplicate:
            resolve(turn, success=fact["success"])
            continue
        # A duplicate: "you are the owner of this attack, and you gain the benefits if the
        # duplicate attack succeeds" -- its owner hacks the target player's session.
        turn.emit({"f": "duplicate_result", "seat": fact["owner"], "target": fact["target"], "success": fact["success"]})
        if fact["success"] and fact["target"] != fact["owner"] and not st["hijack"]:
            turn.emit({"f": "hijack", "target": fact["target"], "by": fact["owner"]})


def card_attack(turn, seat, action, target, defenders):
    """'To attack, play your Base Attack (and Attack Mods, if desired). Your opponent can play
    cards to defend, and the duel proceeds as described in the HeroCard Core Rules.' The
    attack names its board target and the cards (a Base Attack, alone or in a set with Attack
    Mods); the target's owner(s) defend; no defender (your own Firewall or Link) means you
    'decline to defend'."""
    st = turn.state
    played = action.get("cards")
    if not isinstance(played, list) or not any(isinstance(c, str) and CARDS.get(c, {}).get("kind") == "base_attack"
                                               for c in played):
        raise IllegalAction("attack_needs_base_attack", 'a hack is played with a Base Attack: "cards" lists a '
                            "Base Attack from your hand (and any Attack Mods played with it as a set)")
    play = {"type": "play", "cards": list(played)}
    if "attribute" in action:
        play["attribute"] = action["attribute"]
    turn.emit({"f": "attack", "seat": seat, "target": target, "defenders": defenders})
    emit_cards(turn, hc.decide(st["cards"], seat, play, turn.rng, defenders=defenders))


def card_duel(turn, seat, action):
    """A HeroCard action, refused where Cyberspace plays it otherwise (a Base Attack goes with
    a board target; nothing to pass at home; a refresh foregoes the whole Action Phase)."""
    st = turn.state
    if st["hijack"]:
        raise IllegalAction("hijacked_session", "you must execute your target's programs before playing cards")
    if not isinstance(action, dict):
        raise IllegalAction("malformed_action", '"duel" is a HeroCard action object')
    if D.opens_base_attack(st["cards"], seat, action):
        raise IllegalAction("base_attack_needs_board_target", "in Cyberspace a Base Attack hacks an Avatar, a Firewall "
                            'or a Link adjacent to one of yours: play it with {"type": "attack", "target": ..., '
                            '"cards": [...]}')
    if action.get("type") == "pass" and D.at_home(st["cards"], seat):
        raise IllegalAction("nothing_to_pass", "nothing is open to pass on: execute programs, play cards, "
                            "attack, or end your turn")
    if action.get("type") == "refresh":
        if st["acted"]:
            raise IllegalAction("refresh_forgoes_action_phase", "refreshing foregoes your whole Action Phase: "
                                "you have already executed a program or attacked this turn")
    facts = hc.decide(st["cards"], seat, action, turn.rng)
    if any(f["f"] == "hc.open" and not f["duplicate"] for f in facts):
        raise IllegalAction("base_attack_needs_board_target", "in Cyberspace a Base Attack needs a board target")
    emit_cards(turn, facts)


def cards_first(cards):
    """Why a seat must play in the duel before anything else (the `cards_first` refusal)."""
    phase = cards["turn"]["phase"]
    if phase in ("discard", "draw", "clear"):
        return (f"the turn's phases go Discard, Draw, Clear, Action: this is the {phase} phase "
                '(play it with {"type": "duel", "duel": {...}})')
    if cards["pending"] is not None:
        return "a forced discard must be chosen first"
    if cards["sequence"] is not None or cards["duplicates"]:
        return "an Attack Sequence is open: play cards or pass until all players pass"
    if cards["turn"]["forfeit"]:
        return "a wrongly played Secret Card lost the remainder of this turn"
    return "other players are responding to the last card played: the duel's priority must come back to you"


def card_options(state, seat, engine_listed):
    """The duel's own actions for `seat` (phases, cards, passes), without Base Attacks (they
    go with a board target, in `attack`), and whether the seat is 'at home'."""
    cards = state["cards"]
    home = D.at_home(cards, seat)
    listed = []
    for action in engine_listed:
        if D.opens_base_attack(cards, seat, action) or (home and action["type"] == "pass") or \
                (action["type"] == "refresh" and state["acted"]):
            continue
        listed.append({"type": "duel", "duel": action})
    return listed, home


def card_attack_options(state, seat, engine_listed=None):
    """Every board target (as with Bit Duels, less the one-a-turn limit: the Base Attack is
    an Exclusive action) with every Base Attack play the duel allows now."""
    cards = state["cards"]
    plays, seen = [], set()
    for action in hc.legal_actions(cards, seat) if engine_listed is None else engine_listed:
        if action["type"] == "play" and action.get("uid") is None and D.opens_base_attack(cards, seat, action):
            play = {"cards": sorted(action["cards"])}
            if "attribute" in action:
                play["attribute"] = action["attribute"]
            marker = repr(sorted(play.items()))
            if marker not in seen:
                seen.add(marker)
                plays.append(play)
    if not plays:
        return []
    return [{**target, **play} for target in attack_options(state, seat) for play in plays]


def reboot_choice(st, seat, action):
    """(stacks cleared, in stack order; refresh or not) of a Reboot with card duels, or IllegalAction."""
    clears, refresh = action.get("clear"), action.get("refresh")
    stacks = st["cards"]["players"][seat]["stacks"]
    if not isinstance(clears, list) or any(not isinstance(a, str) or a not in stacks for a in clears) or \
            any(clears.count(a) > len(stacks[a]) for a in stacks):
        raise IllegalAction("reboot_clear", '"clear" names Attribute Stacks (body, mind, x), once per top card '
                            "cleared from it (at most every card on it)")
    if not isinstance(refresh, bool):
        raise IllegalAction("reboot_refresh", '"refresh" is true (discard your entire hand and draw seven) or false')
    return sorted(clears, key=list(stacks).index), refresh


def reboot_cards(turn, seat, clears, refresh):
    """'You may clear some or all of the Action Cards from your Attribute Stacks. Each card
    that is cleared must be at the top of its Attribute Stack. In addition, you may discard
    your entire hand and draw a new hand of seven cards.'"""
    step = hc.Turn(turn.state["cards"], turn.rng)
    for attribute in clears:
        hc.clear_top(step, seat, attribute)
    hand = list(step.state["players"][seat]["hand"])
    if refresh and hand:
        step.emit({"f": "hc.discard", "seat": seat, "cards": hand})
    if refresh:
        hc.draw(step, seat, hc.HAND_LIMIT - len(step.state["players"][seat]["hand"]))
    emit_cards(turn, step.facts)


def reboot_card_options(state, seat, found):
    """The listed Reboots (`found`, by Avatars) with card duels: each clears nothing or every
    card, refreshes or not (any top cards may be named)."""
    stacks = state["cards"]["players"][seat]["stacks"]
    everything = [a for a, stack in stacks.items() for _ in stack]
    clears = [[]] + ([everything] if everything else [])
    return [{**r, "clear": c, "refresh": f} for r in found for c in clears for f in (False, True)]
