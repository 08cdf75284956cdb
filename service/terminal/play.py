"""Playing a match at the terminal: the board as the seat sees it, what happened since its last
turn in words, the seat's actions as a menu in words, and Ctrl-C to leave, resign or abort.

The same loop plays a local match (hot-seat: every person's seat at this keyboard, the store
in this process) and a server's (`session.RemoteSession`): it only asks the session."""

import io
import re

from rich.console import Console
from rich.markup import escape
from rich.pretty import Pretty
from rich.text import Text

from domain.kernel import ruleset as rulesets

from . import keyboard, menu as menus
from .details import Catalog, brief as brief_lines, table as details_table
from .session import Refused

HELP_KEYS = """[bold]keys[/]
  [cyan]N[/]          play entry N as listed (a line ending "…" opens a list of that type)
  [cyan]N+[/]         open entry N to choose its items one by one (a payment, cards, targets)
  [cyan]n[/] / [cyan]p[/]      next / previous page of a long list;  [cyan]0[/] or [cyan]back[/]: back to the first list
  [cyan]d[/]          details of the cards and tiles you can see (cost, stats, rules text, tile shapes)
  [cyan]b[/]          the board again;  [cyan]l[/]: the last moves in words
  [cyan]?[/] [cyan]help[/]     this help;  [cyan]q[/] or Ctrl-C: leave (resume later), resign or abort
While choosing items: [cyan]N[/] ticks or unticks item N, Enter sends the choice, [cyan]c[/] clears, [cyan]0[/] goes back."""
LEAVE = object()  # what a menu answers when the person asked to stop (q, Ctrl-C)


BRIEF_MOST = 14  # cards and tiles described under the board, one line each


def own_part(view, seat: int):
    """What of a view is the seat's own or loose on the table, for its cards' details under the
    board: the seat's entry of `players` or `hands` (a hand's creatures and their stats), and the
    view's top-level names (face-up tiles, a drawn tile, a draft pool)."""
    if not isinstance(view, dict):
        return []
    found = [value for value in view.values() if isinstance(value, str)
             or isinstance(value, list) and all(isinstance(item, str) for item in value)]
    for zone in ("players", "hands", "hand"):
        value = view.get(zone)
        if isinstance(value, list) and 0 <= seat < len(value) and isinstance(value[seat], (dict, list)):
            found.append(at_hand(value[seat]))
        elif isinstance(value, dict) and str(seat) in value:
            found.append(at_hand(value[str(seat)]))
    return found


PILES = ("deck", "bin", "grave", "discard", "exile", "removed", "library")


def at_hand(part):
    """A seat's part of the view without its piles (a deck list known to its owner, a bin):
    what it can play or use now."""
    if not isinstance(part, dict):
        return part
    return {key: value for key, value in part.items() if not any(pile in key.lower() for pile in PILES)}


class Leave(Exception):
    """The person left the match (it stays as it is; `arbiter play --resume ID` takes it up)."""


class Table:
    """The terminal's side of one match: `seats` are the seats played at this keyboard."""

    def __init__(self, session, seats: list[int], console: Console, ask=None, resume_hint: str = ""):
        self.session, self.seats, self.console = session, list(seats), console
        self.ask = ask or (lambda prompt: keyboard.ask(console, prompt))
        self.resume_hint = resume_hint
        summary = session.summary()
        self.summary = summary
        self.match_id = summary["match_id"]
        self.names = [seat["name"] for seat in summary["seats"]]
        self.ruleset = rulesets.pinned(summary["game"], summary["ruleset_version"])
        self.catalog = Catalog(session.catalog(summary["game"]))
        self.told = {seat: 0 for seat in self.seats}
        self.spectator_told = 0
        self.end_marked = False  # the "match is over" rule printed (records after it show every card)
        self.shown_to = None
        self.waiting_for = None  # whom the last "waiting for" line named (said once, not at every event)
        # The latest version this terminal knows of (the summary's, a post's answer): the board
        # and the log are read at that version at least, never from a read model behind it
        self.known_version: int | None = None

    # -- the loop ------------------------------------------------------------------------

    def who(self, seat) -> str:
        return f"{self.names[seat]} (seat {seat})"

    def play(self) -> dict:
        """Play until the match is over (its summary), or raise Leave."""
        while True:
            try:
                summary = self.session.summary()
                self.known_version = summary["version"]
                if summary["status"] != "running":
                    break
                asked = [seat for seat in summary["to_act"] if seat in self.seats]
                if not asked:
                    self.wait(summary)
                    continue
                self.turn(asked[0], summary)
            except (KeyboardInterrupt, EOFError):
                self.interrupted()
        self.finish(summary)
        return summary

    def wait(self, summary) -> None:
        waiting_for = ", ".join(self.who(seat) for seat in summary["to_act"]) or "the match"
        if self.seats and waiting_for != self.waiting_for:
            self.console.print(f"[dim]waiting for {escape(waiting_for)} …[/]", highlight=False)
        self.waiting_for = waiting_for
        self.session.wait(summary["version"])
        if self.seats and len(self.seats) == 1:
            self.tell(self.seats[0], heading=None)
        elif not self.seats:
            self.spectator_told = self.tell_records(self.session.log(None, self.spectator_told), self.spectator_told)

    def turn(self, seat: int, summary: dict) -> None:
        self.waiting_for = None
        if len(self.seats) > 1 and self.shown_to != seat:
            self.ask(f"\nPass the terminal to {self.who(seat)} and press Enter ")
            self.console.clear()
        self.shown_to = seat
        self.tell(seat, heading="since your last turn")
        board = self.session.board(seat, summary["version"])
        listed = self.session.legal(seat)
        if not listed["actions"]:
            self.session.wait(summary["version"], 0.5)
            return
        self.draw(seat, board)
        action = self.choose(seat, board, listed)
        if action is None:
            return
        try:
            self.known_version = self.session.act(seat, action)["version"]
        except Refused as refusal:
            self.console.print(f"[red bold]refused[/] ({refusal.code}): {escape(refusal.detail)}", highlight=False)
            return
        self.tell(seat, heading=None)

    # -- the log in words ----------------------------------------------------------------

    def tell(self, seat: int, heading: str | None) -> None:
        records = [r for r in self.session.log(seat, self.told[seat], self.known_version) if r["seq"] > self.told[seat]]
        shown = [r for r in records if r["type"] != "MatchCreated"]
        if heading and shown:
            self.console.rule(f"{escape(self.who(seat))}: {heading}", style="dim")
        self.told[seat] = self.tell_records(records, self.told[seat])

    def tell_records(self, records, told: int) -> int:
        records = list(records)
        # Records read once the match is over show every card: say so before telling them.
        if any(r["type"] in ("MatchEnded", "MatchAbandoned") for r in records):
            self.mark_the_end()
        for record in records:
            if record["seq"] > told and record["type"] != "MatchCreated":
                said = record.get("words") or {"text": record["type"], "facts": []}
                self.console.print(f"[dim]#{record['seq']}[/] {escape(said['text'])}", highlight=False)
                for text in filter(None, said["facts"]):
                    self.console.print(f"      {escape(text)}", style="dim", highlight=False)
            told = max(told, record["seq"])
        return told

    # -- the board -----------------------------------------------------------------------

    def draw(self, seat: int, board: dict) -> None:
        self.console.print(self.board_text(seat, board["board"], board["to_act"]))
        self.console.rule(f"[bold]{escape(self.who(seat))}[/] to choose", characters="━")

    def board_text(self, seat: int | None, view: dict, to_act) -> Text:
        """The game's drawing of the view."""
        if not self.ruleset.render:
            return Pretty(view)
        capture = Console(file=io.StringIO(), width=self.console.width, force_terminal=self.console.is_terminal,
                          color_system=self.console.color_system, legacy_windows=False)
        capture.print(self.ruleset.render(view, sorted(to_act)))
        return Text.from_ansi(capture.file.getvalue(), end="")

    # -- choosing ------------------------------------------------------------------------

    def choose(self, seat: int, board: dict, listed: dict) -> dict | None:
        entries = menus.build(listed["actions"], listed["words"], self.catalog.name_of)
        self.show_details([listed["actions"], own_part(board["board"], seat)], brief=True)
        top = menus.top_level(entries)
        lines, page = top, 0
        while True:
            self.show_menu(lines, page)
            pages = max(1, -(-len(lines) // menus.PAGE))
            answer = self.ask(f"{self.who(seat)}, your choice (1-{len(lines)}, ? for help): ").strip().lower()
            if answer in ("?", "h", "help"):
                self.help(seat, board["board"], entries)
            elif answer in ("d", "details"):
                self.show_details(board["board"])
            elif answer in ("b", "board"):
                self.draw(seat, board)
            elif answer in ("l", "log"):
                self.tell_records(self.session.log(seat, max(0, self.told[seat] - 20)), 0)
            elif answer in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            elif answer in ("n", "next") and page + 1 < pages:
                page += 1
            elif answer in ("p", "prev", "previous") and page > 0:
                page -= 1
            elif answer in ("0", "back"):
                lines, page = top, 0
            elif re.fullmatch(r"\d+\+?", answer) and 1 <= int(answer.rstrip("+")) <= len(lines):
                picked = lines[int(answer.rstrip("+")) - 1][2]
                if isinstance(picked, list):
                    lines, page = [(menus.humanize(e.kind), e.label, e) for e in picked], 0
                    continue
                if picked.choice is not None and (picked.action is None or answer.endswith("+")):
                    action = self.pick_items(seat, picked.choice)
                    if action is not None:
                        return action
                    continue
                return picked.action
            elif answer == "":
                continue
            else:
                self.console.print(f"[yellow]{escape(answer)!r} is not a choice[/]: type a number from 1 to "
                                   f"{len(lines)}, or ? for help", highlight=False)

    def show_menu(self, lines, page: int) -> None:
        pages = max(1, -(-len(lines) // menus.PAGE))
        first = page * menus.PAGE if len(lines) > menus.FLAT_MOST else 0
        last = first + menus.PAGE if len(lines) > menus.FLAT_MOST else len(lines)
        heading = None
        for number, (group, label, entry) in enumerate(lines[first:last], start=first + 1):
            if group and group != heading:
                self.console.print(f"  [bold]{escape(group)}[/]", highlight=False)
                heading = group
            more = "  [dim](+ to choose items)[/]" if getattr(entry, "choice", None) and entry.action else ""
            self.console.print(f"  [cyan]{number:>3}[/] {escape(label)}{more}", highlight=False)
        if len(lines) > menus.FLAT_MOST and pages > 1:
            self.console.print(f"  [dim]page {page + 1} of {pages}: n next, p previous[/]")

    def pick_items(self, seat: int, choice: menus.Choice) -> dict | None:
        """Tick items one at a time, with the running total against what the rules ask."""
        while True:
            self.console.print(f"[bold]{escape(choice.title)}[/]", highlight=False)
            for number, item in enumerate(choice.items, start=1):
                ticked = "[green]x[/]" if number - 1 in choice.chosen else " "
                worth = f" [dim](worth {item.worth})[/]" if any(choice.at_least) and item.worth != 1 else ""
                self.console.print(f"  [cyan]{number:>3}[/] [{ticked}] {escape(item.label)}{worth}", highlight=False)
            for path in choice.paths:
                picked = choice.picked(path)
                total = (f", worth {choice.total(path)} of at least {choice.at_least[path]}"
                         if path in choice.at_least else "")
                self.console.print(f"  chosen {menus.humanize(path[-1])}: {len(picked)}{total}", highlight=False)
            problem = choice.problem()
            self.console.print(f"  [yellow]{escape(problem)}[/]" if problem else "  [green]ready: Enter sends it[/]",
                               highlight=False)
            answer = self.ask(f"{self.who(seat)}, tick an item (1-{len(choice.items)}), Enter to send, "
                              "0 to go back: ").strip().lower()
            if answer in ("0", "back", "b"):
                return None
            if answer in ("c", "clear"):
                choice.chosen.clear()
            elif answer in ("?", "h", "help"):
                self.console.print(HELP_KEYS)
            elif answer in ("q", "quit"):
                raise KeyboardInterrupt
            elif answer in ("", "ok", "done", "send"):
                if problem is None:
                    return choice.action()
                self.console.print(f"[yellow]not sent[/]: {escape(problem)}", highlight=False)
            elif answer.isdigit() and 1 <= int(answer) <= len(choice.items):
                choice.toggle(int(answer) - 1)
            else:
                self.console.print(f"[yellow]{escape(answer)!r} is not an item[/]: type a number from 1 to "
                                   f"{len(choice.items)}", highlight=False)

    def help(self, seat: int, view: dict, entries) -> None:
        self.console.print(HELP_KEYS)
        phase = view.get("phase") if isinstance(view, dict) else None
        kinds = list(dict.fromkeys(menus.humanize(entry.kind) for entry in entries))
        self.console.print(f"[bold]now[/]: {escape(self.ruleset.title)}"
                           + (f", phase [bold]{escape(str(phase))}[/]" if phase else "")
                           + f"; {escape(self.who(seat))} is asked to choose: {escape(', '.join(kinds))}.",
                           highlight=False)
        readme = self.ruleset.name
        self.console.print(f"[dim]the rules: domain/games/{readme}/README.md and the rulebook[/]")

    def show_details(self, value, brief: bool = False) -> None:
        named = list(self.catalog.named_in(value).values())
        if brief:
            for line in brief_lines(named[:BRIEF_MOST]):
                self.console.print(line, overflow="ellipsis", no_wrap=True)
            return
        if named:
            self.console.print(details_table(named, "cards and tiles you can see"))
        elif not brief:
            self.console.print("[dim]nothing here has details in the game's catalog[/]")

    # -- leaving -------------------------------------------------------------------------

    def interrupted(self) -> None:
        """Ctrl-C: leave (the match stays), resign, abort (before anyone acted), or go on."""
        seat = self.shown_to if self.shown_to is not None else (self.seats[0] if self.seats else None)
        self.console.print()
        if seat is None:
            raise Leave()
        try:
            answer = self.ask("[l]eave (the match stays; resume later), [r]esign, [a]bort (only before any move), "
                              "or [c]ontinue? ").strip().lower()
        except (KeyboardInterrupt, EOFError):
            answer = "l"
        if answer.startswith("r"):
            self.lifecycle(self.session.resign, seat, "resigned")
        elif answer.startswith("a"):
            self.lifecycle(self.session.abort, seat, "aborted the match")
        elif answer.startswith("c"):
            return
        else:
            raise Leave()

    def lifecycle(self, command, seat: int, done: str) -> None:
        try:
            command(seat)
            self.console.print(f"{escape(self.who(seat))} {done}", highlight=False)
        except Refused as refusal:
            self.console.print(f"[red bold]refused[/] ({refusal.code}): {escape(refusal.detail)}", highlight=False)

    # -- the end -------------------------------------------------------------------------

    def mark_the_end(self) -> None:
        if not self.end_marked:
            self.console.rule("the match is over: the rest of it, every card now shown", characters="━")
            self.end_marked = True

    def finish(self, summary: dict) -> None:
        reader = self.seats[0] if len(self.seats) == 1 else None
        told = self.told[reader] if reader is not None else self.spectator_told
        if reader is None and self.seats:
            told = max(self.told.values())
        self.mark_the_end()
        self.tell_records(self.session.log(reader, told, summary["version"]), told)
        outcome = summary.get("outcome") or {}
        winners = [self.who(seat) for seat in outcome.get("winners", []) if isinstance(seat, int)]
        ended = (f"game over: {summary['status']}; {'won by ' + ', '.join(winners) if winners else 'nobody won'}"
                 + (f" ({outcome.get('reason')})" if outcome.get("reason") else ""))
        self.console.print()
        self.console.print(Text(ended, style="bold"))
        self.console.print(f"outcome: {outcome}", highlight=False)
        self.console.print(f"seed revealed: {summary.get('seed')}", highlight=False)
