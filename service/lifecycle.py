"""The match lifecycle, one use case a method: open seats and the lobby, bots played by the
server, resign, abort, clocks and timeouts, idle abandonment, rematch.

Mixed into `Arbiter` (service/matches.py), whose store, locks and results it shares. Every
change is an event in the store; nothing here keeps state of its own, so any number of
web workers and clock processes may run it at once: a second writer at the same version
gets VersionConflict and finds the work done when it looks again.
"""

import heapq
import itertools
import logging
import queue
import random
import secrets
import threading
import time
import uuid
from functools import cached_property, partial

from domain.kernel import ruleset as rulesets
from domain.kernel.clock import clock_config, iso_time, parse_time
from domain.kernel.errors import InvalidSetup, MatchNotFound, MatchOver, VersionConflict
from domain.kernel.lobby import Lobby
from domain.kernel.match import RUNNING, Match, MatchSecret, utc_now_iso
from domain.kernel.rng import bot_seed, commitment, new_seed
from projections.batch import ReadStoreUnavailable
from projections.projector import Background

from .auth import hash_token, token_opens
from .errors import HostOnly, MatchExists, NotEnoughPlayers, ReadModelsUnavailable, TokenInvalid

IDLE_SECONDS_DEFAULT = 7 * 86_400  # ARBITER_IDLE_SECONDS; 0 turns idle abandonment off
MAX_BOT_ACTIONS = 100_000  # bots' moves in one call of _play_bots; this bounds a broken game
NO_TOKEN = ""  # a bot's seat: no token hashes to the empty string, so nobody can act for it
LOBBY_RETRIES = 8  # a join or leave decided again after losing a race with another process
BOT_REPLY_SECONDS = 2.0  # bots' moves a person's request waits for; the rest are played in the background
# threads a background runner thinks on: four searches at once each end on time, with a share
# of the CPU, where one thread made each wait for the others
THINKERS = 4
BOT_STALLED_SECONDS = 10.0  # a bot to act this long after the last event: its runner was lost (a restart)


def seat_request(raw) -> dict:
    """A seat as the create body gives it: a name, {"name"}, {"open": true} or {"bot": kind}."""
    if isinstance(raw, str):
        return {"name": raw}
    return {key: raw[key] for key in ("name", "bot") if key in raw}  # {"open": true} is {}


def bot_name(kind: str, seat: int) -> str:
    return f"bot-{kind}-{seat}"


class LifecycleCommands:
    _bots_stopped = False  # set by stop_bots: the server is shutting down

    # -- creating: every seat named (start now) or some open (a lobby) ------------------------

    def create_match(self, game: str, seats, options: dict | None = None, entropy: dict[str, str] | None = None,
                     clock: dict | None = None) -> dict:
        ruleset = rulesets.latest(game)
        options, entropy = options or {}, entropy or {}
        refusal = rulesets.options_refusal(ruleset.options_schema, options)
        if refusal:
            raise InvalidSetup(refusal)
        requested = [{} for _ in range(seats)] if isinstance(seats, int) else [seat_request(s) for s in seats]
        if not ruleset.min_seats <= len(requested) <= ruleset.max_seats:
            raise InvalidSetup(f"{game} is for {ruleset.min_seats}-{ruleset.max_seats} seats, not {len(requested)}")
        names = [s["name"] for s in requested if "name" in s]
        if len(set(names)) != len(names) or not all(name.strip() for name in names):
            raise InvalidSetup("seat names must be distinct and not blank")
        for kind in {s["bot"] for s in requested if "bot" in s} - set(ruleset.bots):
            raise InvalidSetup(f"{game} has no {kind!r} bot; it has {sorted(ruleset.bots)}")
        unknown = sorted(set(entropy) - set(names))
        if unknown:
            raise InvalidSetup(f"entropy given for names that hold no seat: {unknown}")
        lifecycle = {}
        if clock is not None:
            lifecycle["clock"] = clock_config(clock)
            if lifecycle["clock"]["on_timeout"] == "default_move" and ruleset.default_action is None:
                raise InvalidSetup(f"{game} has no default move; on_timeout must be loss or elimination")
        tokens = {seat: secrets.token_urlsafe(32) for seat, s in enumerate(requested) if "name" in s}
        taken = [{"name": s["name"], "token_hash": hash_token(tokens[seat])} if "name" in s else
                 {"bot": s["bot"]} if "bot" in s else {} for seat, s in enumerate(requested)]
        match_id, seed = uuid.uuid4(), new_seed()
        if all(taken):
            match, secret = self._new_match(match_id, ruleset, taken, options, entropy, lifecycle, seed)
            self.store.save_match(match, secret)
            self._play_bots(match_id)
            host_token, started = None, self.store.match(match_id)
        else:
            self._validate_options(ruleset, options, taken)
            host_token = secrets.token_urlsafe(32)
            lobby = Lobby(match_id=str(match_id), game=game, options=options, lifecycle=lifecycle, seats=taken,
                          entropy=entropy, host_token_hash=hash_token(host_token), seed_hex=seed.hex(),
                          commitment=commitment(seed), at=utc_now_iso())
            self.store.save_lobby(lobby)
        answer = {
            "match_id": str(match_id), "game": game, "ruleset_version": ruleset.version,
            "status": started.status if host_token is None else "open",
            "version": started.version if host_token is None else 0,
            "commitment": commitment(seed),
            "seats": [{"seat": seat, "name": held.get("name") or (bot_name(held["bot"], seat) if "bot" in held else None),
                       **({"token": tokens[seat]} if seat in tokens else {}),
                       **({"bot": held["bot"]} if "bot" in held else {}), "open": not held}
                      for seat, held in enumerate(taken)],
        }
        if host_token:
            answer["host_token"] = host_token
        return answer

    @staticmethod
    def _validate_options(ruleset, options, taken) -> None:
        """Options are the game's to judge: a lobby tries its set-up once, before anyone joins,
        so a bad option is refused at creation rather than when the last seat fills."""
        names = [held.get("name") or f"seat-{seat}" for seat, held in enumerate(taken)]
        Match.start(uuid.uuid4(), ruleset, names, options, {}, new_seed())

    def _new_match(self, match_id, ruleset, taken, options, entropy, lifecycle, seed, token_hashes=None):
        names = [held.get("name") or bot_name(held["bot"], seat) for seat, held in enumerate(taken)]
        bots = {str(seat): held["bot"] for seat, held in enumerate(taken) if "bot" in held}
        if "clock" in lifecycle:  # a rematch or lobby begun before bots were untimed: untimed now
            lifecycle = {**lifecycle, "clock": {**lifecycle["clock"], "bots_untimed": True}}
        match = Match.start(match_id, ruleset, names, options, entropy, seed,
                            {**lifecycle, **({"bots": bots} if bots else {})})
        hashes = token_hashes or [held.get("token_hash", NO_TOKEN) for held in taken]
        return match, MatchSecret(match_id=str(match_id), seed_hex=seed.hex(), token_hashes=hashes,
                                  rematch_id=str(self.store.new_id_near(match_id)))

    # -- the lobby -------------------------------------------------------------------------

    def lobby_summary(self, lobby: Lobby) -> dict:
        return {"match_id": lobby.match_id, "game": lobby.game, "status": "open", "version": 0, "to_act": [],
                "outcome": None, "commitment": lobby.commitment, "seed": None, "created_at": lobby.opened_at,
                "options": rulesets.latest(lobby.game).redact_options(lobby.options, [], None),
                "clock": lobby.lifecycle.get("clock"),
                "seats": [{"seat": seat, "name": held.get("name") or (bot_name(held["bot"], seat) if "bot" in held
                                                                      else None),
                           "open": not held, **({"bot": held["bot"]} if "bot" in held else {})}
                          for seat, held in enumerate(lobby.seats)],
                "open_seats": lobby.open_seats()}

    def join(self, match_id: uuid.UUID, name: str, entropy: str | None = None, seat: int | None = None) -> dict:
        token = secrets.token_urlsafe(32)

        def take():
            lobby = self.store.lobby_to_change(match_id)
            taken = lobby.take(name, hash_token(token), entropy, seat)
            started = not lobby.open_seats()
            self._save_lobby(lobby, start=started)
            return {"match_id": str(match_id), "seat": taken, "name": name, "token": token,
                    "status": RUNNING if started else "open"}

        joined = self._lobby_command(match_id, take)
        if joined["status"] == RUNNING:
            self._play_bots(match_id)
        return joined

    def leave(self, match_id: uuid.UUID, token: str | None) -> dict:
        def give_up_seat():
            lobby = self.store.lobby_to_change(match_id)
            if lobby.started:
                raise MatchOver("the match has started: resign instead of leaving")
            lobby.leave(self._lobby_seat(lobby, token))
            self.store.save_lobby(lobby)

        self._lobby_command(match_id, give_up_seat)
        return self.lobby_summary(self.store.lobby(match_id))

    def _lobby_command(self, match_id: uuid.UUID, command):
        """Joins and leaves of different seats commute: one that lost a race with another
        process's (VersionConflict) is decided again on the lobby as it now is, where it may
        succeed or be refused for what changed (the seat it asked for is taken now)."""
        for attempt in range(LOBBY_RETRIES):
            with self._lock(match_id):
                try:
                    return command()
                except VersionConflict:
                    if attempt == LOBBY_RETRIES - 1:
                        raise

    def start_lobby(self, match_id: uuid.UUID, host_token: str | None) -> dict:
        """The host starts with the seats filled so far (open ones are dropped)."""
        with self._lock(match_id):
            lobby = self.store.lobby_to_change(match_id)
            if not token_opens(host_token, lobby.host_token_hash):
                raise HostOnly("only the host token given at creation may start the match")
            self._save_lobby(lobby, start=True)
        self._play_bots(match_id)
        return self.summary(match_id)

    def _lobby_seat(self, lobby: Lobby, token: str | None) -> int:
        for seat, held in enumerate(lobby.seats):
            if token_opens(token, held.get("token_hash", NO_TOKEN)):
                return seat
        raise TokenInvalid("the token does not hold a seat in this lobby")

    def _save_lobby(self, lobby: Lobby, start: bool) -> None:
        if not start:
            self.store.save_lobby(lobby)
            return
        ruleset = rulesets.latest(lobby.game)
        taken = [held for held in lobby.seats if held]
        if len(taken) < ruleset.min_seats:
            raise NotEnoughPlayers(f"{lobby.game} needs {ruleset.min_seats} seats filled; {len(taken)} are")
        match_id = uuid.UUID(lobby.match_id)
        entropy = {name: text for name, text in lobby.entropy.items() if name in lobby.names()}
        match, secret = self._new_match(match_id, ruleset, taken, lobby.options, entropy, lobby.lifecycle,
                                        bytes.fromhex(lobby.seed_hex))
        lobby.start(utc_now_iso())
        self.store.save_lobby(lobby, match, secret)

    def open_lobbies(self, game: str | None = None, cursor: int = 0, limit: int = 50) -> dict:
        try:
            return self._read_models().open_lobbies(game, cursor, limit)
        except ReadStoreUnavailable as error:
            raise ReadModelsUnavailable(str(error)) from None

    # -- during the match ------------------------------------------------------------------

    def _play_bots(self, match_id: uuid.UUID, background: bool = False) -> None:
        """The server's bots act while one of their seats is to act. Called with no lock held:
        a bot thinks, and waits for its paced time, outside the match's lock (service/bot_pace.py),
        which is taken only to record and save its move.

        A person's request waits for the bots' replies for up to BOT_REPLY_SECONDS; past that, and
        at once when no person is left in the match (bots only, or the last person resigned),
        a BotRunner plays on in the background, a slice of BOT_REPLY_SECONDS at a time: no
        request holds a server thread for a whole bots' match (a create of two search bots held
        one for minutes). In the background a paced move is handed to the runner to record when
        it is due, so no match's pace holds up another's; bots-only matches have a runner of
        their own, so they never hold up a match a person is in."""
        started = time.monotonic()
        for _ in range(MAX_BOT_ACTIONS):
            if background and self._bots_stopped:
                return  # shutting down: a process still running plays on (see BotRunner.stop)
            match = self.store.match(match_id)  # copied below only when a bot acts
            seats = [seat for seat in match.to_act() if seat in match.bots]
            if not seats:
                return
            paced = bool(match.players_in())
            if time.monotonic() - started > BOT_REPLY_SECONDS or not (background or paced):
                self._runner_for(match).submit(match_id)
                return
            asked, seat = time.time(), seats[0]
            # Bots choose with a generator of their own, seeded from the match's secret, id and
            # version (rng.bot_seed): a bot's move does not depend on which process plays it,
            # and no seat can rerun the bot to test a guess at its hand.
            seed = self.store.secret(match_id).seed
            choose = random.Random(bot_seed(seed, str(match_id), match.version))
            match = match.to_change()
            bot = match.ruleset.bots[match.bots[seat]]
            if not paced:
                action = bot(match.state, seat, choose)
                self._record_bot_move(match, seat, action, seed)
                continue
            action = self.bot_pace.think(bot, lambda: bot(match.state, seat, choose), asked)
            due = self.bot_pace.reply_at(bot, asked, time.time())
            record = partial(self._record_bot_move, match, seat, action, seed, paced=(bot, asked))
            if background:
                self.paced_runner.at(due, match_id, partial(self._record_and_play_on, record, match_id))
                return
            time.sleep(max(0.0, due - time.time()))
            outcome = record()
            while isinstance(outcome, float):  # come late: its next step is still ahead
                time.sleep(max(0.0, outcome - time.time()))
                outcome = record(waited_for=outcome)
            # recorded, or dropped when another process played this bot first: look again
        raise RuntimeError(f"bots of match {match_id} did not stop after {MAX_BOT_ACTIONS} actions")

    def _record_bot_move(self, match: Match, seat: int, action: dict, seed: bytes,
                         paced: tuple | None = None, waited_for: float | None = None) -> bool | float:
        """Record and save a bot's move on `match` (a copy of the match it was asked in): True.
        False, dropped, when the match moved on meanwhile (another process played the bot, a
        person resigned, a clock ran out): the bot is asked again. A paced move (`paced`: the
        bot and when it was asked) is stamped at its paced time, never earlier than it is seen,
        so a runner come late delays the move by whole steps and charges nobody's clock for time
        the move was not there to see. Nor is it saved before that time: a move come late past
        LATE_MS gets its next step, still ahead, and the time of that step is returned to record
        it then (saved at once, it showed before its own time, and the move answering it was
        asked, and stamped, less than a step after it). Called again `waited_for` that step, it
        is recorded at that step however late this call comes: on a loaded machine every
        wake-up can be later than LATE_MS, and a move sent on to the next step each time was
        never saved."""
        with self._lock(match.id):
            now = time.time()
            at = None if paced is None else waited_for or self.bot_pace.reply_at(*paced, now)
            if at is not None and at > now:
                return at
            try:
                match.act(seat, action, seed, listed=True, at=None if at is None else iso_time(at))
                self.store.save_match(match)
                return True
            except VersionConflict:
                return False

    def _record_and_play_on(self, record, match_id: uuid.UUID) -> None:
        outcome = record()
        if isinstance(outcome, float):  # its next step is still ahead: the timer thread waits for no one
            self.paced_runner.at(outcome, match_id,
                                 partial(self._record_and_play_on, partial(record, waited_for=outcome), match_id))
            return
        # the next bot's move, or this one asked again, on the runner the match needs now
        self._runner_for(self.store.match(match_id)).submit(match_id)

    def stop_bots(self, timeout: float = 5.0) -> None:
        """Stop this process's bot runners, waiting (up to `timeout` in all) for the moves in
        progress; a runner asked for after this is stopped from the start."""
        self._bots_stopped = True
        deadline = time.monotonic() + timeout
        for name in ("paced_runner", "bots_only_runner"):
            runner = self.__dict__.get(name)
            if runner is not None:
                runner.stop(max(0.0, deadline - time.monotonic()))

    def play_bots_in_background(self, match_id: uuid.UUID) -> None:
        """This process's bot runner plays the match's bots on: for a caller whose own play of
        them was cut short (Ctrl-C at a terminal while a command waited for the bots' replies)."""
        self._runner_for(self.store.match(match_id)).submit(match_id)

    def _runner_for(self, match: Match) -> "BotRunner":
        return self.paced_runner if match.players_in() else self.bots_only_runner

    def _background_runner(self, name: str) -> "BotRunner":
        # a match that is over has no one to act: _play_bots returns at its first read
        runner = BotRunner(partial(self._play_bots, background=True), name)
        if self._bots_stopped:
            runner.stop()  # it has no thread yet: it only refuses what it is given
        return runner

    @cached_property
    def paced_runner(self) -> "BotRunner":
        """Plays on in matches a person is in, past their request's wait."""
        return self._background_runner("arbiter-bots")

    @cached_property
    def bots_only_runner(self) -> "BotRunner":
        """Plays bots-only matches (and those whose last person left), unpaced."""
        return self._background_runner("arbiter-bots-only")

    def resign(self, match_id: uuid.UUID, seat: int) -> dict:
        return self._lifecycle_command(match_id, lambda match, seed: match.resign(seat, seed))

    def abort(self, match_id: uuid.UUID, seat: int) -> dict:
        return self._lifecycle_command(match_id, lambda match, seed: match.abort(seat, seed))

    def _lifecycle_command(self, match_id: uuid.UUID, command) -> dict:
        with self._lock(match_id):
            match = self.store.match_to_change(match_id)
            command(match, self.store.secret(match_id).seed)
            first = match.pending_events[0].originator_version
            self.store.save_match(match)
        self._play_bots(match_id)
        summary = self.summary(match_id)
        return {**summary, "seq": first}

    def enforce_clocks(self, now: str | None = None, idle_seconds: int | None = None,
                       stop: threading.Event | None = None) -> dict:
        """One pass of the clock process over the running matches: record each timeout that is
        due (at most once: a racing process gets VersionConflict and finds it recorded) and
        abandon matches idle for `idle_seconds`. Returns what it recorded."""
        now = now or utc_now_iso()
        recorded = {"timeouts": 0, "abandoned": 0, "conflicts": 0}
        try:
            running = list(self._read_models().matches_to_watch(parse_time(now), idle_seconds))
        except ReadStoreUnavailable as error:
            raise ReadModelsUnavailable(str(error)) from None
        for match_id in running:
            if stop is not None and stop.is_set():
                break  # the process is stopping: the next pass, of this process or another, goes on
            with self._lock(match_id):
                try:
                    recorded_here = self._enforce_one(match_id, now, idle_seconds)
                except VersionConflict:
                    recorded["conflicts"] += 1
                    continue
                except (MatchNotFound, MatchOver):
                    continue
            for kind, n in recorded_here.items():
                recorded[kind] += n
        return recorded

    def _enforce_one(self, match_id: uuid.UUID, now: str, idle_seconds: int | None) -> dict:
        """A clock pass over one match: it reads the cached match, and copies it only to record
        (most passes over most matches record nothing)."""
        match = self.store.match(match_id)
        seed = self.store.secret(match_id).seed
        done = {"timeouts": 0, "abandoned": 0}
        if match.status != RUNNING:
            return done
        if set(match.to_act()) & set(match.bots) and parse_time(now) - match.last_at >= BOT_STALLED_SECONDS:
            self._runner_for(match).submit(match_id)  # the process that played them stopped: play on here
        while match.status == RUNNING and match.timeout_due(now) is not None:
            match = match.to_change()
            match.time_out(now, seed)
            done["timeouts"] += 1
            self.store.save_match(match)
            if match.bots:  # the clock process plays no bot itself: it must not wait on their pace
                self._runner_for(match).submit(match_id)
            match = self.store.match(match_id)
        if match.status == RUNNING and idle_seconds and match.idle_by(idle_seconds, now):
            match = match.to_change()
            match.abandon_idle(idle_seconds, now, seed)
            done["abandoned"] += 1
            self.store.save_match(match)
        return done

    # -- after the match -------------------------------------------------------------------

    def rematch(self, match_id: uuid.UUID, seat: int) -> tuple[dict, bool]:
        """A new match with the same seats rotated by one, options and clock; each player's old
        token opens their new seat. Asked twice, it answers the same rematch (False: not new)."""
        new_id = self.store.secret(match_id).rematch_stream()
        try:
            return self._rematch_summary(match_id, new_id), False
        except MatchNotFound:
            pass
        with self._lock(match_id):
            old = self.store.match(match_id)
            if old.status == RUNNING:
                raise MatchOver("a rematch is made after the match is over")
            ruleset = rulesets.latest(old.game)
            rotate = list(range(1, len(old.seats))) + [0]
            hashes = self.store.secret(match_id).token_hashes
            taken = [{"bot": old.bots[i]} if i in old.bots else {"name": old.seats[i]} for i in rotate]
            lifecycle = {"rematch_of": str(match_id),
                         **({"clock": old.clock_config} if old.clocks else {})}
            options = rulesets.options_reseated(ruleset.options_schema, old.options, old.seats, rotate)
            match, secret = self._new_match(new_id, ruleset, taken, options, {}, lifecycle, new_seed(),
                                            token_hashes=[hashes[i] if i < len(hashes) else NO_TOKEN for i in rotate])
            try:
                self.store.save_match(match, secret)
            except VersionConflict:  # another request made it first
                return self._rematch_summary(match_id, new_id), False
        self._play_bots(new_id)
        return self.summary(new_id), True

    def _rematch_summary(self, match_id: uuid.UUID, new_id: uuid.UUID) -> dict:
        summary = self.summary(new_id)
        if summary.get("rematch_of") != str(match_id):
            raise MatchExists(f"the rematch id of match {match_id} holds a match that is not its rematch")
        return summary



class BotRunner:
    """Plays the server's bots in matches no request waits for. A match to play on is thought
    out on one of THINKERS daemon threads; a paced move then waits on the runner's timer
    thread, in order of when it is due, and is recorded at its time. So a bot thinking (a
    search keeps its thread busy for its whole budget) never holds up another match's move,
    and a search's budget, being wall time, ends on time even with a share of the CPU."""

    def __init__(self, play_on, name: str = "arbiter-bots"):
        self.play_on, self.name = play_on, name
        self.queued: set[uuid.UUID] = set()
        self._to_play: queue.SimpleQueue[uuid.UUID] = queue.SimpleQueue()
        self._timed: list[tuple[float, int, uuid.UUID, object]] = []  # a heap of (due, order, match, job)
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thinkers: list[threading.Thread] = []
        self._timer: threading.Thread | None = None  # started by the first timed job (a bots-only runner has none)
        self._stopping = False

    def submit(self, match_id: uuid.UUID) -> None:
        """Play on in this match as soon as a thinker is free (once, however often asked before)."""
        with self._changed:
            if self._stopping or match_id in self.queued:
                return
            self.queued.add(match_id)
            if not self._thinkers:
                self._thinkers = [threading.Thread(target=self._think, name=f"{self.name}-{n}", daemon=True)
                                  for n in range(THINKERS)]
                for thread in self._thinkers:
                    thread.start()
        self._to_play.put(match_id)

    def at(self, due: float, match_id: uuid.UUID, job) -> None:
        """Run `job` (no arguments) for this match at wall time `due`, or as soon after as the
        timer thread is free (a job there only records a move: milliseconds)."""
        with self._changed:
            if self._stopping:
                return
            heapq.heappush(self._timed, (due, next(self._order), match_id, job))
            if self._timer is None:
                self._timer = threading.Thread(target=self._time, name=f"{self.name}-timer", daemon=True)
                self._timer.start()
            self._changed.notify()

    def stop(self, timeout: float = 5.0) -> None:
        """Play no further move: the moves being thought out or recorded end first (waited for
        up to `timeout`), as the store may be closed next (see projections' Background); the
        matches still queued or timed are played on by the clock of a process still running
        (`enforce_clocks`: a bot's turn left unplayed for BOT_STALLED_SECONDS)."""
        with self._changed:
            self._stopping = True
            threads = [*self._thinkers, *([self._timer] if self._timer else [])]
            self._changed.notify_all()
        for _ in self._thinkers:
            self._to_play.put(None)
        deadline = time.monotonic() + timeout
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))

    def _think(self) -> None:
        while True:
            match_id = self._to_play.get()
            if match_id is None or self._stopping:  # stop(): what is still queued is not played here
                return
            with self._changed:
                self.queued.discard(match_id)
            try:
                self.play_on(match_id)
            except VersionConflict:
                self.submit(match_id)  # another process acted first: look again
            except Exception:
                logging.getLogger("arbiter.bots").exception("bots of match %s stopped", match_id)

    def _time(self) -> None:
        while True:
            with self._changed:
                while not self._stopping and (not self._timed or self._timed[0][0] > time.time()):
                    self._changed.wait(None if not self._timed else self._timed[0][0] - time.time())
                if self._stopping:
                    return
                _, _, match_id, job = heapq.heappop(self._timed)
            try:
                job()
            except Exception:
                logging.getLogger("arbiter.bots").exception("a paced bot move of match %s stopped", match_id)


def run_clock(arbiter, stop: threading.Event, interval: float = 1.0, idle_seconds: int | None = None) -> None:
    """The clock process: a pass over the running matches every `interval` seconds until
    `stop`. Any number may run (web workers, `arbiter clock` on several hosts): each timeout
    is recorded at most once, because a second writer at the same version is refused."""
    while not stop.is_set():
        try:
            arbiter.enforce_clocks(idle_seconds=idle_seconds, stop=stop)
        except ReadModelsUnavailable:
            pass  # the read models list the running matches; try again when they are back
        except Exception:  # a clock that stops silently is worse than one that logs and goes on
            logging.getLogger("arbiter.clock").exception("clock pass failed")
        stop.wait(interval)


def start_clock_thread(arbiter, idle_seconds: int | None) -> Background:
    return Background(lambda stop: run_clock(arbiter, stop, 1.0, idle_seconds), "arbiter-clock")
