"""Words: one fact of the log, or one listed action, in plain English for a person; and each
card's or tile's details. One source for every client (the viewer's log, the terminal, the
report): each game gives a `Words` (domain/games/<game>/words.py), hooked on its Ruleset.

The contract, for a game:

- `facts[kind](fact, ctx) -> str | None`: one fact in words, past tense ("bob drew a card",
  "you drew Nothing Machine"); None leaves a line out where the fact says nothing a person
  needs. Every fact kind is listed: a kind mapped to None is bookkeeping (a priority pass
  counter, a queue), declared so, never forgotten; a kind in `sometimes_quiet` has words
  but none for some of its facts (a choice cleared).
- `actions[type](action, ctx) -> str`: one action as a verb phrase in the base form ("play
  Cipher Lance at bob's Firewall, paying ..."). A listed action's `params` (other accepted
  choices) are worded too ("... or any of: X, Y, Z worth at least 3"). The log puts the phrase
  in the past tense after the actor ("ann played Cipher Lance ...").
- `details(id) -> dict | None`: a card's or tile's details for a hover or a pane: always
  `name`, `kind` and `text`; a card its cost and stats, a tile its node and connections.
  `catalog() -> [details]`: every one of them, for GET /v1/games/{game}/catalog.
- `kind_of(fact) -> str`: the kind a fact is listed under (default: its "f"); a game whose
  facts are differences at a path (Algomancy) names the path's shape.
- `learn(fact, known)`: optional; remembers what a fact names for later facts of the same
  reading (a creature's instance id and its card), so "c2 is destroyed" reads "Zizni was
  destroyed"; `setup(view, known)` likewise from the set-up (the MatchCreated record's
  `setup`, which is the reader's view of it). Memory holds copies: wording never changes a
  record.

`record_words(words, type, data, ctx)` words one log record for its reader (a headline, and
one text or None per fact, in order, learning as it goes); `remember` only learns (the
earlier pages of a log); `reading(records, viewer)` starts a reader's context.

Words never see hidden data: they are made from a fact as the reading seat may read it
(`Ruleset.redact`, done first), the public card data, the seat names, and `known` (what
earlier redacted facts of the same reading named) or the reading seat's own view (`view`,
given where a client holds it: the legal actions). So the words can only name a card the
seat was already shown.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

Fact = dict
Action = dict

IRREGULAR = {
    "be": "was", "become": "became", "begin": "began", "break": "broke", "buy": "bought", "choose": "chose",
    "deal": "dealt", "draw": "drew", "fight": "fought", "find": "found", "get": "got", "give": "gave", "go": "went",
    "hold": "held", "keep": "kept", "lay": "laid", "lead": "led", "leave": "left", "lose": "lost", "make": "made",
    "pay": "paid", "put": "put", "run": "ran", "see": "saw", "send": "sent", "set": "set", "shut": "shut",
    "spend": "spent", "take": "took", "tell": "told", "throw": "threw", "win": "won", "hit": "hit", "cut": "cut",
    "split": "split", "let": "let", "say": "said", "read": "read", "stand": "stood", "rebuild": "rebuilt",
    "redraw": "redrew", "rise": "rose", "fall": "fell", "withdraw": "withdrew", "overpay": "overpaid",
}
DOUBLED = {"drop", "stop", "plan", "skip", "swap", "trap", "log", "tap", "ship", "step", "slip", "grab", "flip",
           "strip", "prefer", "admit", "commit", "rot", "scrap", "spot"}


def past(phrase: str) -> str:
    """A verb phrase in the base form, its first word put in the past tense ("draw a card" ->
    "drew a card", "end the turn" -> "ended the turn")."""
    verb, space, rest = phrase.partition(" ")
    lower = verb.lower()
    if lower in IRREGULAR:
        done = IRREGULAR[lower]
    elif lower in DOUBLED:
        done = lower + lower[-1] + "ed"
    elif lower.endswith("e"):
        done = lower + "d"
    elif lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        done = lower[:-1] + "ied"
    else:
        done = lower + "ed"
    return done + space + rest


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 card", "3 cards", "no cards"."""
    many = words or (word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s"))
    return f"no {many}" if n == 0 else f"{n} {word if n == 1 else many}"


def listing(items, conjunction: str = "and", empty: str = "nothing") -> str:
    """"A", "A and B", "A, B and C"."""
    items = [str(item) for item in items]
    if not items:
        return empty
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def first_up(text: str) -> str:
    """The text with its first letter in capitals, the rest as it is (str.capitalize lowers it)."""
    return text[:1].upper() + text[1:]


def humanize(word) -> str:
    """"end_of_turn" -> "end of turn" (a kind of thing written as code, for a sentence)."""
    return str(word).replace("_", " ").replace("-", " ")


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def counted(n: int) -> str:
    """"three" for 3; figures from 13 on."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


class Context:
    """What the words of one reading may use: the seat names, who reads (None: a spectator;
    that seat is "you"), the reader's own view of the current state where a client holds one
    (listed actions), what earlier facts of this reading named (`known`, grown by the game's
    `learn` as facts are worded in order) and who makes the action being worded (`actor`:
    the reader for its listed actions, the record's seat in the log)."""

    def __init__(self, names: list[str], viewer: int | None = None, view: dict | None = None,
                 known: dict | None = None, actor: int | None = None):
        self.names = list(names)
        self.viewer = viewer
        self.view = view
        self.known = {} if known is None else known
        self.actor = viewer if actor is None else actor  # who makes the action being worded

    @property
    def offered(self) -> bool:
        """Whether the action being worded is offered to the reader (a listed action, worded
        with the reader's view), not one already taken: the words then say what it would do."""
        return self.view is not None

    def name(self, seat) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "someone" if seat is None else f"seat {seat}"

    def who(self, seat) -> str:
        """The seat as the subject of a sentence: "you" for the reader."""
        return "you" if seat is not None and seat == self.viewer else self.name(seat)

    def whom(self, seat) -> str:
        return self.who(seat)

    def whose(self, seat) -> str:
        return "your" if seat is not None and seat == self.viewer else f"{self.name(seat)}'s"

    def verb(self, seat, third: str, second: str) -> str:
        """"ann is" / "you are": `third` for another seat, `second` for the reader."""
        return f"{self.who(seat)} {second if seat is not None and seat == self.viewer else third}"

    def seats(self, seats) -> str:
        return listing([self.who(s) for s in seats], empty="nobody")


def _no_learning(fact: Fact, known: dict) -> None:
    return None


def _kind(fact: Fact) -> str:
    return str(fact.get("f"))


@dataclass(frozen=True)
class Words:
    """A game's words: see the module docstring."""

    facts: dict[str, Callable[[Fact, Context], str | None] | None]
    actions: dict[str, Callable[[Action, Context], str]]
    details: Callable[[str], dict | None]
    catalog: Callable[[], list[dict]]
    kind_of: Callable[[Fact], str] = _kind
    learn: Callable[[Fact, dict], None] = _no_learning
    setup: Callable[[dict, dict], None] = _no_learning  # learn from the set-up, as the reader's view of it
    reasons: dict[str, str] = field(default_factory=dict)  # an outcome's "reason" -> words
    sometimes_quiet: frozenset[str] = frozenset()  # kinds worded but for some facts None (a choice cleared)

    def fact(self, fact: Fact, ctx: Context, strict: bool = False) -> str | None:
        """The fact in words (None: bookkeeping). A kind the game does not list, or wording
        that fails, reads as a plain line unless `strict` (the tests), so a new fact kind can
        never break a log."""
        kind = self.kind_of(fact)
        try:
            if kind not in self.facts:
                raise KeyError(f"no words for the fact kind {kind!r}")
            wording = self.facts[kind]
            text = wording(fact, ctx) if wording is not None else None
        except Exception:
            if strict:
                raise
            text = fallback(kind)
        self.learn(fact, ctx.known)
        return text

    def action(self, action: Action, ctx: Context, strict: bool = False) -> str:
        """The action as a verb phrase in the base form."""
        kind = action.get("type") if isinstance(action, dict) else None
        try:
            if kind not in self.actions:
                raise KeyError(f"no words for the action type {kind!r}")
            return self.actions[kind](action, ctx)
        except Exception:
            if strict:
                raise
            return f"make a move ({humanize(kind)})"

    def name(self, card_id) -> str | None:
        """A card's, tile's or faction's name where the data knows it."""
        found = self.details(card_id) if isinstance(card_id, str) else None
        return found["name"] if found else None

    def reason(self, reason) -> str:
        return self.reasons.get(reason) or LIFECYCLE_REASONS.get(reason) or humanize(reason) if reason else ""


LIFECYCLE_REASONS = {"resigned": "the others resigned", "timeout": "a clock ran out",
                     "timed_out": "a clock ran out"}


def fallback(kind) -> str:
    return f"{humanize(kind).capitalize()} (no words for this kind of fact yet)"


# ---------------------------------------------------------------------------------------
# A record of the log in words
# ---------------------------------------------------------------------------------------

def record_words(words: "Words | None", record_type: str, data: dict, ctx: Context, title: str = "",
                 strict: bool = False) -> dict:
    """{"text": a headline, "facts": [one text or None per fact]} for one (already redacted)
    log record: who did what, what it caused."""
    if record_type == "MatchCreated":
        if words and isinstance(data.get("setup"), dict):
            words.setup(data["setup"], ctx.known)
        text = f"{listing(data.get('seats', []))} sat down to play {title or data.get('game', 'a game')}"
    elif record_type == "ActionTaken":
        ctx.actor = data.get("seat")
        action = data.get("action")
        phrase = (words.action({k: v for k, v in action.items() if k != "params"}, ctx, strict)
                  if words and isinstance(action, dict) else "make a move")
        text = f"{ctx.who(data.get('seat'))} {past(phrase)}"
    elif record_type == "SeatResigned":
        text = f"{ctx.who(data.get('seat'))} resigned"
    elif record_type == "SeatTimedOut":
        seat = data.get("seat")
        if data.get("effect") == "default_move" and isinstance(data.get("action"), dict) and words:
            ctx.actor = seat
            text = f"{ctx.whose(seat)} time ran out: {ctx.who(seat)} {past(words.action(data['action'], ctx, strict))}"
        else:
            text = f"{ctx.whose(seat)} time ran out"
    elif record_type == "MatchEnded":
        text = ended_text(words, data.get("outcome") or {}, ctx)
    elif record_type == "MatchAbandoned":
        reason = data.get("reason")
        text = "The match was called off" + (f" ({humanize(reason)})" if reason else "")
    else:
        text = humanize(record_type).capitalize()
    facts = [words.fact(fact, ctx, strict) if words else None for fact in data.get("facts", [])]
    return {"text": text, "facts": facts}


def remember(words: "Words | None", record_type: str, data: dict, ctx: Context) -> None:
    """Learn what one (redacted) record shows without wording it: an earlier page of the log."""
    if not words:
        return
    if record_type == "MatchCreated" and isinstance(data.get("setup"), dict):
        words.setup(data["setup"], ctx.known)
    for fact in data.get("facts", []):
        words.learn(fact, ctx.known)


def reading(records: list[dict], viewer: int | None) -> Context:
    """A reader's context for a log whose records start with MatchCreated (its seat names)."""
    names = records[0]["data"].get("seats", []) if records and records[0]["type"] == "MatchCreated" else []
    return Context([n if isinstance(n, str) else str(n) for n in names], viewer=viewer)


def ended_text(words: "Words | None", outcome: dict, ctx: Context) -> str:
    winners = [s for s in outcome.get("winners", []) if isinstance(s, int)]
    if winners:
        head = f"{ctx.seats(winners)} won"
    else:
        head = "Nobody won"
    reason = (words.reason(outcome.get("reason")) if words else humanize(outcome.get("reason") or ""))
    return f"The match ended: {head}" + (f" ({reason})" if reason else "")
