"""Cybermancy's words (domain/games/cybermancy/words.py) and arena board (render.py), line by line.

The cross-game tests (tests/games/test_words.py, test_renderers.py) check that every line of
random play is plain text that names no hidden card; these pin what each line says, in the
rulebook's terms: the Summoning Deck, CPU and RAM cards and tracks, the Frontline and the
Main Area, Battle-Ready, Promote, Call-to-arms, Last Gasp, Undead Crawlers."""


from domain.games.cybermancy import RULESET
from domain.games.cybermancy.cards import CREATURES, POWER
from domain.games.cybermancy.render import render
from domain.games.cybermancy.words import WORDS
from domain.kernel.terminal import plain_text

from ..reading import readers
from .arena import arena, put

NAMES = ["ann", "bob", "cat"]


said, phrase = readers(WORDS, NAMES)


# ---------------------------------------------------------------------------------------
# Details
# ---------------------------------------------------------------------------------------

def test_a_creatures_details_spell_out_its_keywords_and_effects():
    assert WORDS.details("zizni") == {
        "id": "zizni", "name": "Zizni", "kind": "creature", "faction": "human", "cpu": 1, "ram": 1, "attack": 1,
        "health": 1, "keywords": ["Battle-Ready"], "text": "Battle-Ready.", "designed": True}
    assert WORDS.details("boudica")["text"] == \
        "Promote. Call-to-arms: 1 health points to other creatures or a Cybermancer, one at a time."
    assert WORDS.details("tomoe-gozen")["text"] == "Last Gasp: 1 attack points to other creatures, one at a time."
    assert WORDS.details("sally-shambler")["text"] == "Undead Crawler: rises once more as a 1/1."
    assert WORDS.details("saladin")["text"] == "No keyword, no effect."


def test_a_power_cards_details_are_its_kind_and_value():
    assert WORDS.details("cpu-17") == {"id": "cpu-17", "name": "2 CPU card", "kind": "cpu", "value": 2,
                                       "text": "A CPU power card worth 2: spend it to summon.", "designed": True}
    assert WORDS.details("nothing") is None and WORDS.details(None) is None
    assert [d["id"] for d in WORDS.catalog()] == [*CREATURES, *(c["id"] for kind in POWER for c in POWER[kind])]


# ---------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------

def test_cards_drawn_put_back_and_spent():
    assert said({"f": "draw", "seat": 1, "card": "zizni"}) == "bob drew Zizni"
    assert said({"f": "draw", "seat": 1, "card": None}, viewer=1) == "you drew a creature card"
    assert said({"f": "to_deck", "seat": 1, "card": "zizni"}) == "bob put Zizni back into the Summoning Deck"
    assert said({"f": "to_deck", "seat": 1, "card": None}) == "bob put a creature card back into the Summoning Deck"
    assert said({"f": "deck_order", "seat": 1}) == "bob's Summoning Deck was shuffled"
    assert said({"f": "power", "seat": 0, "card": "cpu-17"}) == "ann drew a 2 CPU card"
    assert said({"f": "power", "seat": 0, "card": "ram"}) == "ann drew a RAM card"  # value hidden
    assert said({"f": "power_back", "seat": 0, "card": "ram-01"}) == "ann put a 1 RAM card back"
    assert said({"f": "power_order", "kind": "cpu"}) == "The CPU deck was shuffled"
    assert said({"f": "spend", "seat": 2, "card": "cpu-01"}, viewer=2) == "you spent a 1 CPU card"


def test_a_summon_names_the_creature_its_stats_area_and_whether_it_may_attack():
    assert said({"f": "summon", "seat": 0, "uid": "c1", "card": "zizni", "area": "frontline", "status": "active"}) == \
        "ann summoned Zizni (1/1) into the Frontline, ready to attack"
    assert said({"f": "summon", "seat": 0, "uid": "c1", "card": "pancho-villa", "area": "main",
                 "status": "buffered"}) == "ann summoned Pancho Villa (1/3) into the Main Area, buffered until next round"


def test_a_creature_named_by_its_id_is_known_from_its_summon():
    known = {}
    said({"f": "summon", "seat": 0, "uid": "c1", "card": "pancho-villa", "area": "main", "status": "active"},
         known=known)
    assert said({"f": "creature", "uid": "c1", "set": {"damage": 2}}, known=known) == \
        "Pancho Villa has 2 damage (1 health left)"
    assert said({"f": "creature", "uid": "c1", "set": {"health": 4, "attack": 2}}, known=known) == \
        "Pancho Villa's health rose to 4; Pancho Villa's attack rose to 2"
    assert said({"f": "creature", "uid": "c1", "set": {"status": "exhausted"}}, known=known) == \
        "Pancho Villa is exhausted until next round"
    assert said({"f": "creature", "uid": "c1", "set": {"status": "active"}}, known=known) == "Pancho Villa is active"
    assert said({"f": "creature", "uid": "c1", "set": {}}, known=known) == "Pancho Villa changed"
    assert said({"f": "creature", "uid": "c1", "set": {"crawler": True, "attack": 1, "health": 1}}, known=known) == \
        "Pancho Villa rose again as an Undead Crawler (1/1)"
    assert said({"f": "destroyed", "uid": "c1"}, known=known) == "Pancho Villa (Crawler) was destroyed"
    assert said({"f": "promote", "uid": "c9"}) == "a creature was promoted to the Frontline"
    assert said({"f": "creature", "uid": "c9", "set": {"damage": 1}}) == "a creature has 1 damage"


def test_cybermancers_health_defeat_and_the_end():
    assert said({"f": "health", "seat": 1, "delta": -3}) == "bob took 3 damage"
    assert said({"f": "health", "seat": 1, "delta": 2}, viewer=1) == "you gained 2 health"
    assert said({"f": "out", "seat": 1}) == "bob is defeated"
    assert said({"f": "out", "seat": 1}, viewer=1) == "you are defeated"
    assert said({"f": "over", "reason": "stalemate"}) == "The game ended: ten rounds passed without an attack"
    assert said({"f": "over", "reason": "cybermancer_defeated"}) == "The game ended: a Cybermancer was defeated"
    assert said({"f": "over", "reason": "new"}) == "The game ended: it is over"


def test_phases_rounds_turns_and_bookkeeping():
    assert said({"f": "phase", "phase": "main"}) == "The Main Phase began"
    assert said({"f": "phase", "phase": "advance"}) == \
        "Advance Power: each player moves a power marker up one track"
    assert said({"f": "phase", "phase": "new"}) == "The new phase began"
    assert said({"f": "turn", "seat": 2}) == "cat's turn"
    assert said({"f": "round", "number": 3, "initiative": 2}) == "Round 3 began; cat has the initiative"
    assert said({"f": "round", "number": 3, "initiative": 2}, viewer=2) == "Round 3 began; you have the initiative"
    assert said({"f": "track", "seat": 0, "kind": "ram"}) == "ann advanced the RAM track"
    assert said({"f": "drafted", "seat": 0, "card": "zizni"}) == "ann drafted Zizni"
    assert said({"f": "refresh"}) == "Every creature was refreshed"
    for kind in ("acted", "queue", "pending", "owed"):
        assert said({"f": kind, "seat": 0}) is None


def test_a_choice_asked_names_who_and_what_and_whose_effect():
    known = {"c1": {"card": "boudica", "attack": 1, "health": 2, "crawler": True}}
    assert said({"f": "prompt", "prompt": {"seat": 1, "kind": "health", "source": "c1"}}, known=known) == \
        "bob must choose where Boudica's effect puts a health point"
    assert said({"f": "prompt", "prompt": {"seat": 1, "kind": "promote", "source": "c1"}}, known=known) == \
        "bob must choose a creature to promote to the Frontline"
    assert said({"f": "prompt", "prompt": None}) is None


# ---------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------

def test_a_summon_names_the_creature_its_cost_keywords_and_payment():
    assert phrase({"type": "summon", "card": "zizni", "cpu": ["cpu-01", "cpu-02"], "ram": ["ram-01"]}) == \
        "summon Zizni (1/1, costs CPU 1, RAM 1; Battle-Ready), paying two 1 CPU cards and a 1 RAM card"
    assert phrase({"type": "summon", "card": "saladin"}).endswith(", paid from power already spent this round")
    assert phrase({"type": "summon", "card": "nothing"}) == "summon a creature"
    listed = {"type": "summon", "card": "saladin", "cpu": [], "ram": [],
              "params": {"cpu": {"items": {"enum": ["cpu-01"]}, "worth_at_least": 1},
                         "ram": {"items": {"enum": []}, "worth_at_least": 1}}}
    assert phrase(listed).endswith(" — or any of your face-up CPU cards worth at least 1")


def test_an_attack_offered_shows_the_stats_and_in_the_log_only_the_names():
    state = arena()
    mine, theirs = put(state, 0, "pancho-villa", damage=1), put(state, 1, "zizni")
    view = RULESET.view(state, 0)
    assert phrase({"type": "attack", "attacker": mine, "target": theirs}, view=view) == \
        "attack Zizni (1/1) with Pancho Villa (1/2)"
    assert phrase({"type": "attack", "attacker": mine, "target": "cybermancer:1"}) == \
        "attack bob's Cybermancer with a creature"


def test_mulligans_choices_and_the_plain_actions():
    assert phrase({"type": "mulligan", "creatures": ["zizni"], "cpu": ["cpu-01"], "ram": []}) == \
        "redraw Zizni and a 1 CPU card"
    assert phrase({"type": "mulligan", "creatures": 2, "cpu": [], "ram": []}) == "redraw 2 creature cards"
    assert phrase({"type": "mulligan", "creatures": [], "cpu": [], "ram": [], "params": {"creatures": {}}}) == \
        "keep the opening hand — or redraw any of your creature, CPU and RAM cards"
    assert phrase({"type": "draft", "card": "zizni"}) == "draft Zizni"
    assert phrase({"type": "advance", "track": "cpu"}) == "advance the CPU track"
    assert phrase({"type": "end_turn"}) == "end the turn"
    assert phrase({"type": "proceed"}) == "go on with the game"
    assert phrase({"type": "choose"}) == "make a choice"
    known = {"c1": {"card": "zizni", "attack": 1, "health": 1}}
    for kind, words in [("promote", "promote Zizni to the Frontline"), ("health", "give Zizni a health point"),
                        ("attack", "give Zizni an attack point"), ("damage", "deal a point of damage to Zizni"),
                        (None, "choose Zizni")]:
        view = {"players": [], "prompt": {"kind": kind} if kind else None}
        assert phrase({"type": "choose", "option": "c1"}, known=known, view=view) == words.replace("Zizni", "Zizni (1/1)")


# ---------------------------------------------------------------------------------------
# The arena board
# ---------------------------------------------------------------------------------------

def test_the_board_shows_health_tracks_creatures_and_whose_turn():
    state = arena(turn=1, health={0: 4})
    put(state, 0, "pancho-villa", area="frontline", damage=1)
    put(state, 1, "zizni", status="exhausted")
    text = plain_text(render(RULESET.view(state, 0)))
    assert "Cybermancy standard · round 1 · main · initiative seat 1 · seat 1's turn" in text.splitlines()[0]
    assert "frontline  Pancho Villa 1/2" in text
    assert "Zizni 1/1 (exhausted)" in text
    assert "health 4" in text and "CPU 1 (pool" in text
    assert f"deck {len(state['players'][1]['deck'])}" in text and "graveyard 0" in text
