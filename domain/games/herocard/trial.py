"""The copy of a duel a trial move changes in place (kernel decision.advance): cheaper than a
JSON copy, for the greedy bot's trial moves and the listing's trial decides."""


def trial_copy(duel):
    """A copy of `duel` for a trial move to change (the greedy bot's, a listing's trial
    decide; bots.visible_copy's too): each dict and list `engine.evolve` changes
    in place is copied; what it never changes in place (the config, the scores, a pending
    choice, the entries of the stacks (a reveal replaces its entry), of a sequence, of the
    duplicates and of the twists) is shared, and
    `duel` stays as it was. About half the cost of a JSON round trip, paid at every trial;
    tests/games/herocard/test_bots.py holds evolve to it."""
    copy = dict(duel)
    copy["players"] = [{**player, "deck": player["deck"][:], "hand": player["hand"][:],
                        "discard": player["discard"][:], "twisted": player["twisted"][:],
                        "stacks": {attribute: stack[:] for attribute, stack in player["stacks"].items()}}
                       for player in duel["players"]]
    copy["turn"] = {**duel["turn"], "forfeit": duel["turn"]["forfeit"][:]}
    if duel["sequence"] is not None:
        copy["sequence"] = {**duel["sequence"], "played": duel["sequence"]["played"][:]}
    copy["duplicates"] = duel["duplicates"][:]
    copy["assist"] = dict(duel["assist"])
    return copy
