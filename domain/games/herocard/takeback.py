"""What a purge takes back of the purged card's effect (README 12): "purge ... also removes any
effects the card had on the game ... If you purge a card, it is as if the card was never
played". As an effect happens, the card's entry in the open Attack Sequence notes what it did
(`note`, from the engine's evolve); a purge then emits the facts that undo it (`facts`), which
`evolve` applies. Only public things are noted: the cards a forced discard put on the (public)
discard stack, how many cards a draw took and the hand's size after it, where a cleared card
stood (a clear shows the card)."""

FACTS = ("hc.undiscard", "hc.undraw", "hc.unclear")


def tag(source) -> dict:
    """The field that names the card a draw, clear or forced discard is the effect of (`for`,
    its uid in the open sequence: public), for `note`; none outside a sequence."""
    return {} if source is None else {"for": source}


def note(duel, fact):
    """Keep in the entry of the card whose effect `fact` is (its `for`) what the fact did."""
    uid = fact.get("for")
    if uid is None or not duel["sequence"]:
        return
    player = duel["players"][fact["seat"]]
    if fact["f"] == "hc.discard":
        _note(duel, uid, lambda undo: {"discarded": {
            "seat": fact["seat"], "cards": undo.get("discarded", {}).get("cards", []) + list(fact["cards"])}})
    elif fact["f"] == "hc.draw":  # after the draw: the hand's size with the cards drawn
        _note(duel, uid, lambda undo: {"drew": undo.get("drew", 0) + len(fact["cards"]), "hand": len(player["hand"])})
    elif fact["f"] == "hc.clear":  # before the clear: where the card stands
        stack, played = player["stacks"][fact["attribute"]], duel["sequence"]["played"]
        _note(duel, uid, lambda undo: {"cleared": {
            "seat": fact["seat"], "attribute": fact["attribute"], "index": len(stack) - 1, "entry": stack[-1],
            "active": [[i, e] for i, e in enumerate(played) if e.get("uid") == stack[-1]["uid"]]}})


def facts(duel, seat, undo):
    """The facts that take back what a purged card of `seat` did, from its entry's `undo`, one
    at a time: each is read from `duel` as the ones before it left it (the caller emits each,
    which evolves `duel` in place, before asking for the next):
    - a forced discard: the cards discarded go back from the target's discard stack to its hand
      (those still there; the discard stack is public, so this shows nothing new);
    - a draw: the cards drawn go back from `seat`'s hand to the top of its deck, in the order
      drawn. Which cards in the hand were drawn is the owner's secret, so how many go back is
      worked out from public counts only: as many as were drawn, less one for each card the
      hand has lost since the draw (a drawn card may have been among them: deployed face down,
      or played and gone again); they are the last cards of the hand, where a draw puts them.
      The fact is redacted for the other seats to its count, as a draw is (hidden.redact);
    - a clear (Second Wind): the cleared card leaves the discard stack for its old place in its
      stack (face as it was) and, if it was Active, for its old place in the sequence."""
    if "discarded" in undo:
        target = undo["discarded"]["seat"]
        pile = list(duel["players"][target]["discard"])
        back = []
        for card in undo["discarded"]["cards"]:
            if card in pile:
                del pile[len(pile) - 1 - pile[::-1].index(card)]  # the latest copy
                back.append(card)
        if back:
            yield {"f": "hc.undiscard", "seat": target, "cards": back}
    if "drew" in undo:
        hand = duel["players"][seat]["hand"]
        count = min(len(hand), max(0, undo["drew"] - max(0, undo["hand"] - len(hand))))
        if count:
            yield {"f": "hc.undraw", "seat": seat, "cards": hand[len(hand) - count:]}
    if "cleared" in undo:
        cleared = undo["cleared"]
        if cleared["entry"]["card"] in duel["players"][cleared["seat"]]["discard"]:
            yield {"f": "hc.unclear", **cleared}


def evolve(duel, fact):
    """Apply one of FACTS."""
    player = duel["players"][fact["seat"]]
    if fact["f"] == "hc.undiscard":
        for card in fact["cards"]:
            _remove_latest(player["discard"], card)
        player["hand"].extend(fact["cards"])
    elif fact["f"] == "hc.undraw":
        for card in fact["cards"]:
            _remove_latest(player["hand"], card)
        player["deck"][:0] = fact["cards"]
    else:  # hc.unclear
        _remove_latest(player["discard"], fact["entry"]["card"])
        player["stacks"][fact["attribute"]].insert(fact["index"], dict(fact["entry"]))
        if duel["sequence"]:
            for index, entry in fact["active"]:
                duel["sequence"]["played"].insert(index, dict(entry))


def _note(duel, uid, update):
    """Note in the last entry of `uid` (a replay shares its card's uid and comes after it). A new
    entry, not the old one changed: a trial copy shares entries."""
    played = duel["sequence"]["played"]
    for index in range(len(played) - 1, -1, -1):
        if played[index]["uid"] == uid:
            undo = dict(played[index].get("effects") or {})
            undo.update(update(undo))
            played[index] = {**played[index], "effects": undo}
            return


def _remove_latest(cards, card):
    del cards[len(cards) - 1 - cards[::-1].index(card)]
