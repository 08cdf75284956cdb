"""`arbiter play` in a pseudo-terminal: HeroCard's discard and a Cyberiad payment picked item
by item, help, a refusal's detail, and Ctrl-C (leave then --resume, resign, abort)."""

import json
import re
import subprocess

import pexpect

from .driver import ARBITER, ITEMS, LEFT, MENU, OVER, PASS, TIMEOUT, Person, environment, plain, spawn


def until_menu_offers(person: Person, pattern: str, most: int = 400):
    """Play at random until a menu offers a line matching `pattern`; its match."""
    for _ in range(most):
        index = person.child.expect([MENU, ITEMS, PASS, OVER])
        screen = person.screen()
        if index == 0:
            found = re.search(pattern, re.split(r"to choose ━", screen)[-1], re.M)
            if found:
                return found
        person.child.before, person.child.after = screen, ""  # answered below as usual
        person.pending.clear()
        answer_at_random(person, index, screen)
    raise AssertionError(f"no menu offered {pattern!r}")


class MatchEndedFirst(AssertionError):
    """Random play ended the match before the position a test looks for came up."""


def in_fresh_matches(argv: list[str], tmp_path, seed: int, body, matches: int = 3) -> None:
    """Run `body(child, person)` on a new local match, again on another (the deal is the
    store's, not the test's) when random play ends a match before the position comes up."""
    for attempt in range(matches):
        (tmp_path / f"match{attempt}").mkdir()
        child = spawn(argv, environment(tmp_path / f"match{attempt}"))
        try:
            return body(child, Person(child, seed=seed + attempt))
        except MatchEndedFirst:
            child.close(force=True)
    raise AssertionError(f"{matches} matches ended before the position came up")


def answer_at_random(person: Person, index: int, screen: str) -> None:
    if index == 3:
        raise MatchEndedFirst("the match ended first")
    if index == 2:
        person.child.sendline("")
    else:
        person.answer(index, screen)


def test_herocards_discard_is_picked_card_by_card(tmp_path):
    in_fresh_matches(["play", "herocard", "--bot", "1"], tmp_path, 11, discard_card_by_card)


def discard_card_by_card(child, person):
    found = until_menu_offers(person, r"^\s+(\d+) discard: choose one by one \((\d+) ways\)$")
    assert int(found.group(2)) >= 4
    child.sendline(found.group(1))
    child.expect(ITEMS)
    items = dict(re.findall(r"^\s+(\d+) \[ \] discard (.+?)\s*$", person.screen(), re.M))
    assert len(items) >= 2 and len(items) < int(found.group(2)), "one line a card, not one a subset"
    child.sendline("1")
    child.expect(ITEMS)
    assert re.search(r"^\s+1 \[x\] discard", person.screen(), re.M) and "chosen cards: 1" in person.screen()
    child.sendline("2")
    child.expect(ITEMS)
    assert "chosen cards: 2" in person.screen()
    child.sendline("")
    child.expect(r"you discarded ([^\r\n]+)")
    said = child.match.group(1)
    assert items["1"] in said and items["2"] in said, (items, said)


def test_a_cyberiad_payment_is_made_item_by_item(tmp_path):
    in_fresh_matches(["play", "cyberiad", "--bot", "1"], tmp_path, 3, pay_item_by_item)


def pay_item_by_item(child, person):
    for _ in range(20):
        found = until_menu_offers(person, r"^\s+(\d+) play (.+?) \(\w+, cost ([1-9])\), paying with .+\(\+ to choose items\)")
        child.sendline(found.group(1) + "+")
        child.expect(ITEMS)
        screen = person.screen()
        assert re.search(r"chosen pay: \d+, worth \d+ of at least " + found.group(3), screen), screen
        child.sendline("c")
        child.expect(ITEMS)
        assert "chosen pay: 0, worth 0 of at least" in person.screen()
        names = dict(re.findall(r"^\s+(\d+) \[ \] (.+?)(?: \(worth \d+\))?\s*$", person.screen(), re.M))
        ticked = []
        for number in sorted(names, key=int):
            child.sendline(number)
            ticked.append(names[number])
            child.expect(ITEMS)
            if "ready: Enter sends it" in person.screen():
                break
        else:
            child.sendline("0")  # not enough to pay: back to the menu, try another card
            continue
        assert re.search(rf"chosen pay: {len(ticked)}, worth \d+ of at least", person.screen())
        child.sendline("")
        index = child.expect([r"you played ([^\r\n]+)", r"refused \(\w+\): ([^\r\n]+)"])
        if index == 1:
            assert child.match.group(1).strip(), "a refusal says why"
            continue
        said = child.match.group(1)
        child.expect([MENU, ITEMS, OVER, r"waiting for"])
        said = " ".join((said + person.screen().split("\n#", 1)[0]).split())  # the line, however wrapped
        assert found.group(2) in said and all(name in said for name in ticked), (ticked, said)
        return
    raise AssertionError("no payment made item by item was accepted in 20 tries")


def test_help_explains_the_keys_and_the_phase(tmp_path):
    child = spawn(["play", "cybermancy", "--bot", "1"], environment(tmp_path))
    child.expect(MENU)
    child.sendline("?")
    child.expect(MENU)
    screen = Person(child).screen()
    assert "keys" in screen and "N+" in screen and "Ctrl-C" in screen
    assert re.search(r"now: Cybermancy, phase \w+; seat0 \(seat 0\) is asked to choose: ", screen), screen
    child.sendline("what")
    child.expect(MENU)
    assert "'what' is not a choice: type a number from 1 to" in Person(child).screen()


def test_ctrl_c_then_leave_and_resume_continues_the_same_local_match(tmp_path):
    env = environment(tmp_path)
    child = spawn(["play", "cyberiad", "--bot", "1"], env)
    child.expect(r"match (\S+) created")
    match_id = child.match.group(1)
    person = Person(child, seed=4)
    for _ in range(6):
        person.step()
    child.expect([MENU, ITEMS])
    child.sendintr()
    child.expect(r"\[l\]eave \(the match stays; resume later\), \[r\]esign, \[a\]bort")
    child.sendline("l")
    child.expect(LEFT)
    assert child.match.group(1) == match_id
    child.expect(pexpect.EOF)
    left = json.loads(subprocess.run([ARBITER, "show", match_id], env=env, capture_output=True, check=True).stdout)
    assert left["summary"]["status"] == "running"
    again = spawn(["play", "--resume", match_id], env)
    resumed = Person(again, seed=5)
    over = False
    while resumed.moves < 5 and not over:
        over = resumed.step() == OVER  # the deal is the server's: now and then a move ends the match
    assert resumed.moves > 0 and set(resumed.asked) == {0}
    if not over and again.expect([MENU, ITEMS, OVER]) < 2:
        again.sendintr()
        again.expect(r"\[l\]eave")
        again.sendline("l")
    again.expect(pexpect.EOF)
    shown = json.loads(subprocess.run([ARBITER, "show", match_id], env=env, capture_output=True, check=True).stdout)
    assert shown["summary"]["version"] > left["summary"]["version"], "the moves after --resume are the same match's"


def test_ctrl_c_asks_to_abort_even_when_play_was_started_with_sigint_ignored(tmp_path):
    """Python keeps a SIGINT it was started with ignored: `arbiter play` run by a launcher's
    background job showed "^C" and did nothing. Ctrl-C is how a player leaves, resigns or aborts."""
    child = spawn(["play", "cyberiad"], environment(tmp_path), sigint_ignored=True)
    child.expect(PASS)
    child.sendline("")
    child.expect(MENU)
    child.sendintr()
    child.expect(r"\[a\]bort", timeout=20)
    child.sendline("a")
    child.expect(OVER)
    child.expect(pexpect.EOF)


def test_ctrl_c_while_the_bot_replies_then_continue_and_the_bot_moves(tmp_path):
    """(From a red-team read.) A move's call waits for the bots' replies, paced (here 1 s a
    step): Ctrl-C in that wait cut the bot's reply short, and after [c]ontinue no bot moved
    again (the person waited for good). The bots are handed to the process's bot runner."""
    child = spawn(["play", "cyberiad", "--bot", "1"], environment(tmp_path, ARBITER_BOT_STEP_MS="1000"))
    person = Person(child, seed=4)
    for _ in range(20):
        end = until_menu_offers(person, r"^\s*(\d+)\s+end the turn")
        child.sendline(end.group(1))
        # no question within half a step: the move's call waits for the bot's reply (else the
        # person is asked again, as for a discard to the hand limit, and answers at random)
        if person.step(timeout=0.5, quiet_ok=True) == TIMEOUT:
            break
    else:
        raise AssertionError("in twenty ends of turn the bot never came to reply")
    child.sendintr()
    child.expect(r"\[c\]ontinue")
    child.sendline("c")
    child.expect([MENU, OVER], timeout=30)  # without the bot's move the person was never asked again
    assert re.search(r"#\d+ bot-random-1 ", plain(child.before)), "the person is asked again after the bot's move"


def test_ctrl_c_resigns_or_aborts(tmp_path):
    env = environment(tmp_path)
    child = spawn(["play", "cyberiad"], env)  # two people: nobody has moved at the first question
    child.expect(PASS)
    child.sendline("")
    child.expect(MENU)
    child.sendintr()
    child.expect(r"\[a\]bort")
    child.sendline("a")
    child.expect(r"seat(\d) \(seat (\d)\) aborted the match")
    assert child.match.group(1) == child.match.group(2), "the seat asked is the one that aborts"
    child.expect(OVER)
    assert "abandoned" in child.match.group(0)
    child = spawn(["play", "cyberiad", "--bot", "1"], env)
    person = Person(child, seed=1)
    for _ in range(3):
        person.step()
    child.expect([MENU, ITEMS])
    child.sendintr()
    child.expect(r"\[r\]esign")
    child.sendline("r")
    child.expect("seat0 \\(seat 0\\) resigned")
    child.expect(r"game over: ended; won by bot-random-1 \(seat 1\)")
