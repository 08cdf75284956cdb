"""Every game draws its board for the terminal with rich (domain/games/<g>/render.py): for every
seat and a spectator, at every step of random play, render(view) prints as a board (not a dict
dump) and names no card the view hides; and each board shows the numbers that matter (life,
VP, scores) where a player looks for them.

The render modules are imported directly, so these tests hold whether or not a game's
Ruleset has been wired to its render.py yet."""

import copy
import importlib
import random
import re

import pytest

import domain.games as games
from domain.kernel.rng import RandomStream
from domain.kernel.terminal import plain_text

GAMES = ("cyberiad", "cybermancy", "herocard", "cybermen", "cyberspace", "algomancy")
RENDER = {game: importlib.import_module(f"domain.games.{game}.render").render for game in GAMES}


def card_namer(game):
    """The game's card ids (as views and states hold them) to the names a board may draw them by."""
    if game == "cyberiad":
        from domain.games.cyberiad.cards import CARDS, card_of
        return lambda s: CARDS[card_of(s)]["name"] if card_of(s) in CARDS else None
    if game == "cybermancy":
        from domain.games.cybermancy.cards import CREATURES
        return lambda s: CREATURES[s]["name"] if s in CREATURES else None
    if game in ("herocard", "cyberspace"):
        from domain.games.herocard.cards import CARDS
        return lambda s: CARDS[s]["name"] if s in CARDS else None
    if game == "cybermen":
        from domain.games.cybermen.data import DATA
        return lambda s: DATA["item_names"].get(s)
    from domain.games.algomancy.cards import CARDS, name_of
    return lambda s: name_of(s) if "#" in s and name_of(s) in CARDS else None


printed = plain_text


def strings(value):
    """Every string in a JSON value, dict keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def hidden_words(held: set[str], view, name):
    """Card ids the state holds (`held`: its strings) and the view does not, and their names,
    less any word the view shows elsewhere (another copy of the same card in play, a name
    inside a longer one)."""
    shown = set(strings(view))
    shown_names = {name(s) for s in shown if name(s)}
    hidden = {s for s in held - shown if name(s)}
    words = hidden | {name(s) for s in hidden}
    visible = "\0".join(shown | shown_names)  # a word inside any of them is inside this (no word holds \0)
    return {w for w in words if w not in visible}


def assert_a_board(text: str):
    assert text.strip() and len(text.splitlines()) >= 3
    assert not text.lstrip().startswith(("{", "[")), "a dict dump, not a board"
    assert not re.search(r"""[{\[,]\s*['"]\w+['"]\s*:""", text), "a dict printed inside the board"
    assert not re.search(r"\bNone\b", text), "a Python None printed"
    assert not re.search(r"""\[\s*['"]""", text), "a Python list printed"


# What is played: each game's usual table for 60 actions, and a few other setups for 25.
PLAYS = [("cyberiad", 3, {}, 60), ("cybermancy", 2, {}, 60), ("cybermancy", 4, {"mode": "teams"}, 25),
         ("herocard", 3, {}, 60), ("cybermen", 3, {}, 60), ("cyberspace", 2, {}, 60), ("cyberspace", 1, {}, 25),
         ("algomancy", 2, {}, 60), ("algomancy", 3, {"format": "cube_draft"}, 25)]


@pytest.mark.parametrize("game,seats,options,actions", PLAYS,
                         ids=[f"{g}-{n}-{'-'.join(o.values()) or 'default'}" for g, n, o, _ in PLAYS])
def test_every_view_of_random_play_prints_as_a_board_that_names_no_hidden_card(game, seats, options, actions):
    ruleset, render, name = games.latest(game), RENDER[game], card_namer(game)
    rand = random.Random(7)
    key = rand.randbytes(32)
    state = ruleset.setup(options, [f"p{i}" for i in range(seats)], RandomStream(key, "r", 1))
    checked_hidden = 0
    for seq in range(2, actions + 2):
        held = set(strings(state))
        for seat in [None, *range(seats)]:
            view = ruleset.view(state, seat)
            text = printed(render(view, sorted(ruleset.to_act(state))))  # as the terminal draws it
            assert_a_board(text)
            hidden = hidden_words(held, view, name)
            checked_hidden += len(hidden)
            # a word not in the text at all is not in it as a whole word either (the cheap test first)
            leaked = sorted(w for w in hidden if w in text and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text))
            assert not leaked, f"seat {seat} at seq {seq} sees hidden {leaked}"
        if ruleset.outcome(state) is not None or not ruleset.to_act(state):
            break
        seat = min(ruleset.to_act(state))
        for fact in ruleset.decide(state, seat, ruleset.bots["random"](state, seat, rand), RandomStream(key, "r", seq)):
            state = ruleset.evolve(state, fact)
    if seats > 1:
        assert checked_hidden, "the play never hid a card, so the test proved nothing"


def played(game, seats, steps, options=None):
    """A state after `steps` random actions (fixed seeds)."""
    ruleset = games.latest(game)
    rand = random.Random(3)
    key = rand.randbytes(32)
    state = ruleset.setup(options or {}, [f"p{i}" for i in range(seats)], RandomStream(key, "r", 1))
    for seq in range(2, steps + 2):
        if ruleset.outcome(state) is not None or not ruleset.to_act(state):
            break
        seat = min(ruleset.to_act(state))
        for fact in ruleset.decide(state, seat, ruleset.bots["random"](state, seat, rand), RandomStream(key, "r", seq)):
            state = ruleset.evolve(state, fact)
    return ruleset, state


def line_with(text: str, *words: str) -> str:
    """The one line of the board holding every word (a table row, a panel's line)."""
    lines = [line for line in text.splitlines() if all(w in line for w in words)]
    assert len(lines) == 1, f"{words} on {len(lines)} lines of\n{text}"
    return lines[0]


def section(text: str, title: str) -> str:
    """A seat's panel: from its top border, which holds its title, to its bottom border."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(("╭", "┏")) and title in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith(("╰", "┗")))
    return "\n".join(lines[start:end + 1])


def test_cyberiad_shows_fame_trouble_and_only_the_own_hand():
    ruleset, state = played("cyberiad", 3, 30)
    view = copy.deepcopy(ruleset.view(state, 0))
    view["players"][1].update(fame=37, trouble=23, sallies=4)
    text = printed(RENDER["cyberiad"](view))
    assert "FP 37" in section(text, "seat 1 ·") and "TP 23" in section(text, "seat 1 ·")
    assert "Sallies 4" in section(text, "seat 1 ·")
    own = section(text, "seat 0 ·")
    from domain.games.cyberiad.cards import CARDS, card_of
    assert view["players"][0]["hand"], "a hand to show"
    assert all(CARDS[card_of(c)]["name"] in own for c in view["players"][0]["hand"])
    assert f"{view['players'][1]['hand']} cards" in section(text, "seat 1 ·")


def test_cybermancy_shows_health_tracks_and_creatures():
    ruleset, state = played("cybermancy", 2, 60)
    view = copy.deepcopy(ruleset.view(state, 1))
    view["players"][0]["health"] = 17
    view["players"][0]["track"]["cpu"] = 8
    view["players"][1]["main"] = [{"uid": "c99", "card": "zizni", "owner": 1, "attack": 6, "health": 5, "damage": 2,
                                   "status": "active", "crawler": False}]
    text = printed(RENDER["cybermancy"](view))
    assert "health 17" in section(text, "seat 0") and "CPU 8" in section(text, "seat 0")
    assert "Zizni 6/3" in line_with(section(text, "seat 1"), "main"), "attack / health left after damage"


def test_herocard_shows_vp_attribute_points_and_the_attack():
    ruleset, state = played("herocard", 2, 40)
    view = copy.deepcopy(ruleset.view(state, None))
    view["players"][1]["vp"] = 2
    view["players"][0]["free"]["mind"], view["players"][0]["scores"]["mind"] = 3, 9
    text = printed(RENDER["herocard"](view))
    names = view["names"]
    assert "· 2 VP" in line_with(text, f"{names[1]} ·", "VP")
    assert "3/9" in line_with(section(text, f"{names[0]} ·"), view["attribute_names"]["mind"])
    assert re.search(r"\d+ cards?\b", line_with(section(text, f"{names[0]} ·"), "hand")), "a spectator sees backs"
    from domain.games.herocard.cards import CARDS
    view["sequence"] = {"owner": 0, "target": 1, "attack_value": 9, "block_value": 4, "duplicate": False,
                        "played": [{"seat": 0, "card": "cipher_lance"}]}
    text = printed(RENDER["herocard"](view))
    assert f"{names[0]} attacks {names[1]}: attack 9  block 4" in line_with(text, "Attack Sequence")
    assert CARDS["cipher_lance"]["name"] in line_with(text, "active cards")


def test_cybermen_shows_each_groups_vp_and_the_map():
    ruleset, state = played("cybermen", 3, 40)
    view = copy.deepcopy(ruleset.view(state, 2))
    view["groups"][1]["vp"] = 47
    text = printed(RENDER["cybermen"](view))
    assert re.search(r"\s47\s", line_with(text, view["groups"][1]["name"])), "the VP column of the group's row"
    r, c = view["groups"][2]["pos"]
    row = next(line for line in text.splitlines() if re.match(rf"│\s+{r} ", line))
    assert row.split()[2 + c] == "2", "the group drawn by its seat on its square"


def test_cyberspace_shows_points_worth_and_the_grid():
    ruleset, state = played("cyberspace", 2, 30)
    view = copy.deepcopy(ruleset.view(state, 0))
    view["players"][1]["network_points_now"] = 13
    view["networks"][0]["worth"] = 11
    text = printed(RENDER["cyberspace"](view))
    row = next(line for line in text.splitlines() if re.match(r"\s*seat 1\s", line))
    assert re.search(r"\s13\s", row), "the points column of the seat's row"
    net = view["networks"][0]
    row = next(line for line in text.splitlines() if re.match(rf"\s*{net['id']}\s+{len(net['tiles'])}\s+", line))
    assert re.search(r"\s11\s", row), "the worth column of the network's row"
    drawn = "\n".join(line for line in text.splitlines() if "client" not in line)  # not the legend
    nodes = drawn.count("( )") + drawn.count("[ ]") + sum(drawn.count(f"({s})") + drawn.count(f"[{s}]") for s in "0123")
    assert nodes == len(view["tiles"]), "every tile's node drawn once"


def test_algomancy_shows_life_units_and_the_own_hand():
    ruleset, state = played("algomancy", 2, 250)
    view = copy.deepcopy(ruleset.view(state, 0))
    view["players"][1]["life"] = 17
    view["shown_units"]["Gear Golem#999"] = {"name": "Gear Golem", "controller": 1, "region": view["home"][1],
                                             "power": 7, "defense": 5, "damage": 2, "attributes": ["tough"],
                                             "mods": [], "token": False}
    view["choice"] = {"kind": "sacrifice", "item": None, "index": 0, "queue": [1], "options": ["x#1", "y#2"]}
    text = printed(RENDER["algomancy"](view))
    assert "17 life" in line_with(text, "p1 ·")
    from domain.games.algomancy.cards import name_of
    assert view["players"][0]["hand"], "a hand to show"
    panel = re.sub(r"[┃│\s]+", " ", section(text, "p0 ·"))  # a name may wrap onto the panel's next line
    assert all(name_of(c) in panel for c in view["players"][0]["hand"])
    assert "Gear Golem#999 7/5 dmg 2 tough" in section(text, f"region {view['home'][1]}")
    assert "waiting for p1 to choose (sacrifice): x#1, y#2" in text


def test_every_game_draws_through_its_render_module():
    """The CLI draws `ruleset.render`: it must be the rich board each game's render.py defines."""
    assert {ruleset.name: ruleset.render for ruleset in games.all_latest()} == RENDER
