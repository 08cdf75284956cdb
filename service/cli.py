"""`arbiter`: serve, list games, play in the terminal, show and export matches."""

import hashlib
import os
import signal
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import click
import orjson
from rich.console import Console
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from domain.kernel import ruleset as rulesets
from domain.kernel.audit import audit as audit_records
from domain.kernel.canonical import json_copy
from domain.kernel.errors import DomainError
from domain.kernel.redaction import redact_data
from domain.kernel.store import MatchStore
from domain.kernel.words import Context, record_words
from projections.projector import LeaderLock, Projector
from projections.queries import ReadModels
from projections.readstore import open_read_store
from projections.retention import retention_seconds

from .lifecycle import IDLE_SECONDS_DEFAULT, run_clock
from .matches import FINAL_EVENTS, Arbiter, parse_match_id, parse_ndjson

console = Console(highlight=False)  # no guessed colours: numbers and names read as the text says them
SHUTDOWN_GRACE_SECONDS = 2
# uvicorn's supervisor restarts a worker that does not answer its ping in time: a worker busy
# starting (imports, the tables made on first boot, under a loaded machine) is not a dead one.
WORKER_HEALTHCHECK_SECONDS = 60


def store_location(environ=os.environ) -> str:
    """Where this command looks for the store, in words: the SQLite file's absolute path and
    why there (ARBITER_DATA_DIR, or its default ./var under the current folder), or PostgreSQL."""
    if environ.get("ARBITER_STORE", "sqlite") == "postgres":
        url = urlparse(environ.get("ARBITER_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/arbiter"))
        schema = f", schema {environ['ARBITER_DB_SCHEMA']}" if environ.get("ARBITER_DB_SCHEMA") else ""
        return f"PostgreSQL {url.hostname or '127.0.0.1'}:{url.port or 5432}/{url.path.lstrip('/') or 'arbiter'}{schema}"
    if environ.get("ARBITER_STORE", "sqlite") != "sqlite":
        raise click.ClickException(f"ARBITER_STORE must be 'sqlite' or 'postgres', not {environ['ARBITER_STORE']!r}")
    file = sqlite_file(environ)
    why = ("ARBITER_DATA_DIR" if environ.get("ARBITER_DATA_DIR") else
           "ARBITER_DATA_DIR is not set: its default ./var under the current folder")
    return f"{file} ({why})"


def sqlite_file(environ=os.environ) -> Path:
    return (Path(environ.get("ARBITER_DATA_DIR", "./var")) / "arbiter.sqlite").absolute()


def local_arbiter(create: bool = True) -> Arbiter:
    """The use cases over the configured store (ARBITER_STORE, ARBITER_DATA_DIR, as the server).
    A read-only command passes create=False: a store that is not there is an error naming where
    it looked, and no empty store is left behind."""
    if not create and os.environ.get("ARBITER_STORE", "sqlite") == "sqlite" and not sqlite_file().is_file():
        raise click.ClickException(f"no store at {store_location()}; set ARBITER_DATA_DIR to the folder that "
                                   "holds arbiter.sqlite (or ARBITER_STORE=postgres), as for the server")
    store_location()  # refuses an unknown ARBITER_STORE with the command's own error
    return Arbiter(MatchStore(os.environ))


def no_match(error: DomainError) -> click.ClickException:
    """A store's refusal, saying which store was looked in when the match is not there."""
    if error.code in ("match_not_found", "not_found") or error.message.startswith("no match"):
        return click.ClickException(f"{error.message} in the store at {store_location()}")
    return click.ClickException(error.message)


@click.group()
def main():
    """Arbiter: host, record, audit and analyse turn-based games."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int)
def serve(host, port, workers):
    """Serve the HTTP API (uvicorn, one process a worker) on the configured store."""
    from .supervisor import serve as run_server  # imports uvicorn: not for the other commands

    # Streams end as the shutdown's signal arrives (their clients resume with Last-Event-ID:
    # service/asgi.py); every other request has GRACE seconds to finish.
    run_server("service.asgi:create", factory=True, host=host, port=port, workers=workers, loop="uvloop",
               http="httptools", timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS, log_level="info",
               timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS)


@main.command()
def games():
    """List the games and their ruleset versions."""
    table = Table("game", "version", "seats", "bots")
    for game in (ruleset.describe() for ruleset in rulesets.all_latest()):
        table.add_row(game["game"], game["version"], f"{game['seats']['min']}-{game['seats']['max']}",
                      ", ".join(game["bots"]))
    console.print(table)


@main.command()
@click.argument("game", required=False)
@click.option("--seats", default=2, show_default=True, type=int, help="How many seats (a new match).")
@click.option("--bot", "bots", multiple=True, type=int, help="Seat number a bot plays (repeatable).")
@click.option("--bot-kind", default="random", show_default=True, help="Which of the game's bots (e.g. greedy).")
@click.option("--options", "options_json", default="{}", help='Match options as JSON, e.g. \'{"mode": "teams"}\'.')
@click.option("--server", default=None, envvar="ARBITER_SERVER",
              help="Play on this server (its HTTP API), e.g. http://127.0.0.1:8000; default: the local store.")
@click.option("--join", "join_id", default=None, help="With --server: take an open seat of this match (a lobby).")
@click.option("--token", default=None, help="With --server: the seat token of a seat you already hold.")
@click.option("--name", default=None, help="Your name at a server's table (default: your login name).")
@click.option("--resume", "resume_id", default=None, help="Take up a match you left (Ctrl-C, then leave).")
def play(game, seats, bots, bot_kind, options_json, server, join_id, token, name, resume_id):
    """Play GAME in the terminal: hot-seat on the local store (every seat not a bot's is played
    at this keyboard, each seeing only its own view), or one seat on a server with --server
    (create a match whose other seats are open or bots, or --join one). Ctrl-C leaves, resigns
    or aborts; `--resume ID` takes a match up again."""
    from .terminal import saved
    from .terminal.play import Leave, Table
    from .terminal.session import LocalSession, Refused, Server

    # Ctrl-C is how a player leaves, resigns or aborts: it raises KeyboardInterrupt even when
    # whatever started this command had SIGINT ignored, which Python would otherwise keep
    # (a launcher's background job: the terminal's Ctrl-C then did nothing, "^C" on the screen)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if not (game or join_id or resume_id):
        raise click.UsageError("name a GAME to start a match, or --join ID (with --server) or --resume ID")
    try:
        options = orjson.loads(options_json)
    except orjson.JSONDecodeError as error:
        raise click.BadParameter(f"--options is not JSON: {error}")
    name = name or os.environ.get("USER") or "player"
    remembered = saved.find(resume_id) if resume_id else None
    if resume_id and server is None and remembered and remembered.get("server"):
        server = remembered["server"]
    try:
        if server is None:
            if join_id or token:
                raise click.UsageError("--join and --token play a seat on a server: give --server URL")
            arbiter = local_arbiter(create=not resume_id)
            if resume_id:
                match_id = parse_match_id(resume_id)
            else:
                seats_asked = [{"bot": bot_kind} if i in bots else {"name": f"seat{i}"} for i in range(seats)]
                created = arbiter.create_match(game, seats_asked, options)
                match_id = uuid.UUID(created["match_id"])
                console.print(f"match {match_id} created; commitment {created['commitment']}")
                console.print(f"[dim]store: {store_location()}[/]", soft_wrap=True)
            session = LocalSession(arbiter, match_id)
            summary = session.summary()
            humans = [seat["seat"] for seat in summary["seats"] if str(seat["seat"]) not in summary.get("bots", {})
                      and str(seat["seat"]) not in summary.get("left", {})]
            saved.save(str(match_id), {"game": summary["game"], "server": None, "store": store_location(),
                                       "seats": {str(s): {"name": summary["seats"][s]["name"]} for s in humans}})
            hint = f"arbiter play --resume {match_id}"
        else:
            session, humans = remote_session(Server(server), game, seats, bots, bot_kind, options, join_id, token, name,
                                             resume_id, remembered)
            match_id = session.match_id
            hint = f"arbiter play --server {server} --resume {match_id}"
        table = Table(session, humans, console, resume_hint=hint)
        if resume_id:
            for seat in humans:  # the last moves, to pick up the thread
                table.told[seat] = max(0, table.summary["version"] - 8)
        try:
            table.play()
        except Leave:
            console.print(Text(f"left match {match_id}: it stays as it is; take it up with {hint}", style="bold"),
                          soft_wrap=True)
        finally:
            session.close()
    except Refused as refusal:
        raise click.ClickException(f"{refusal.detail} ({refusal.code})")
    except DomainError as error:
        raise no_match(error)


def remote_session(server, game, seats, bots, bot_kind, options, join_id, token, name, resume_id, remembered):
    """A seat on a server: created (the other seats open, or bots), joined, or taken up again;
    the match remembered with its token for --resume and `arbiter matches`."""
    from .terminal import saved
    from .terminal.session import Refused, RemoteSession

    match_id = join_id or resume_id
    if token:
        if not match_id:
            raise click.UsageError("--token plays a seat of a match: give its id with --join or --resume")
        tokens = {server.call("GET", f"/v1/matches/{match_id}/legal-actions", token)["seat"]: token}
    elif resume_id:
        if not remembered or not remembered.get("seats"):
            raise Refused("no_session", f"no seat of match {resume_id} is remembered in {saved.sessions_path()}; "
                          "give its --token")
        tokens = {int(s): held["token"] for s, held in remembered["seats"].items() if held.get("token")}
    elif join_id:
        joined = server.call("POST", f"/v1/matches/{join_id}/join", body={"name": name})
        tokens = {joined["seat"]: joined["token"]}
        console.print(f"joined match {join_id} as {name} (seat {joined['seat']})")
    else:
        asked = [{"name": name} if i == 0 else {"bot": bot_kind} if i in bots else {"open": True}
                 for i in range(seats)]
        created = server.call("POST", "/v1/matches", body={"game": game, "seats": asked, "options": options})
        match_id = created["match_id"]
        tokens = {0: created["seats"][0]["token"]}
        console.print(f"match {match_id} created on {server.url}; commitment {created['commitment']}")
        if created["status"] == "open":
            console.print(f"the others join with: [bold]arbiter play --server {server.url} --join {match_id} "
                          "--name THEIR_NAME[/]", soft_wrap=True)
    session = RemoteSession(server, match_id, tokens)
    summary = session.summary()
    saved.save(str(match_id), {"game": summary["game"], "server": server.url,
                               "seats": {str(s): {"name": summary["seats"][s]["name"] if summary["seats"][s]["name"]
                                                  else name, "token": t} for s, t in tokens.items()}})
    told = None
    try:
        while summary["status"] == "open":
            waiting = sum(1 for seat in summary["seats"] if seat["open"])
            if waiting != told:
                console.print(f"[dim]waiting for {waiting} more player{'s' if waiting != 1 else ''} to join "
                              "(Ctrl-C: give up the seat) …[/]")
                told = waiting
            time.sleep(1.0)
            summary = session.summary()
    except KeyboardInterrupt:
        for token in tokens.values():
            server.call("POST", f"/v1/matches/{match_id}/leave", token, {})
        raise click.ClickException(f"left the lobby of match {match_id}: your seat is open again") from None
    return session, sorted(tokens)


def drawn(ruleset, view: dict, to_act=()):
    """A board for the terminal: the game's own rich drawing (tables, panels, colours, the seats
    in `to_act` marked) where it has one, else the view's data."""
    return ruleset.render(view, sorted(to_act)) if ruleset.render else Pretty(view)


@main.command()
@click.argument("match_id")
@click.option("--pretty", is_flag=True, help="A table and the drawn spectator board instead of JSON.")
def show(match_id, pretty):
    """Show a match's summary and its spectator board: JSON (for jq and scripts), or --pretty."""
    arbiter = local_arbiter(create=False)
    try:
        mid = parse_match_id(match_id)
        summary = arbiter.summary(mid)
        answer = arbiter.board(mid, None)
    except DomainError as error:
        raise no_match(error)
    if not pretty:
        click.echo(orjson.dumps({"summary": summary, "board": answer["board"]}, option=orjson.OPT_INDENT_2).decode())
        return
    table = Table("field", "value", title=f"match {summary['match_id']}", title_justify="left")
    for field, value in summary.items():
        if field == "seats":
            value = ", ".join(f"{seat['seat']}: {seat['name']}" for seat in value)
        table.add_row(field, value if isinstance(value, str) else orjson.dumps(value).decode())
    console.print(table)
    if summary.get("status") != "open":
        console.print(drawn(rulesets.pinned(summary["game"], summary["ruleset_version"]), answer["board"],
                            answer["to_act"]))


@main.command()
@click.argument("match_id")
@click.option("--output", "-o", type=click.File("wb", lazy=True), default="-",
              help="File to write (default: stdout).")
@click.option("--running", is_flag=True, help="Export a match that is still running (reveals hidden cards).")
def export(match_id, output, running):
    """Write a match as NDJSON, one event a line."""
    try:
        lines = local_arbiter(create=False).export_lines(parse_match_id(match_id), admin=running)
    except DomainError as error:
        raise no_match(error)
    output.writelines(lines)


def load_records(source: str) -> list[dict]:
    """Records of an exported file (offline: no store is opened), else of a stored match. A
    SOURCE that is not a match id is a file, and a missing one is named as such."""
    if os.path.isfile(source):
        with open(source, "rb") as handle:
            return parse_ndjson(handle)
    try:
        match_id = uuid.UUID(source)
    except ValueError:
        raise click.ClickException(f"file not found: {source} (nor is it a match id)") from None
    try:
        return local_arbiter(create=False).records(match_id)
    except DomainError as error:
        raise no_match(error)


@main.command()
@click.argument("source")
def audit(source):
    """Audit MATCH (an id in the local store) or FILE (an export, offline). Exit 1 on a divergence."""
    try:
        report = audit_records(load_records(source))
    except DomainError as error:
        raise click.ClickException(error.message)
    table = Table("check", "result", title=f"audit of {report.match_id}")
    for check, result in report.checks.items():
        table.add_row(check, result)
    console.print(table)
    if report.first_divergence:
        divergence = report.first_divergence
        console.print(f"[red bold]first divergence at seq {divergence.seq}[/] ({divergence.check}): {divergence.detail}")
        console.print(Pretty({"expected": divergence.expected, "found": divergence.found}, max_length=12))
        sys.exit(1)
    console.print(("[green]" if report.ok else "[yellow]") + report.summary)
    sys.exit(0 if report.ok else 2)


@main.command(name="import")
@click.argument("file", type=click.File("rb"))
def import_(file):
    """Verify an exported FILE fully, then store it."""
    try:
        result = local_arbiter().import_match(file)
    except DomainError as error:
        raise click.ClickException(error.message)
    console.print(f"imported {result['match_id']} ({result['version']} events) into {store_location()}: "
                  f"{result['audit']}", highlight=False)


@main.command()
@click.argument("source")
@click.option("--to", "upto", type=int, default=None, help="Stop after this seq.")
@click.option("--seat", type=int, default=None, help="Show what this seat saw (default: a spectator).")
@click.option("--boards", is_flag=True, help="Show the board after every event, not only at the end.")
@click.option("--step", is_flag=True, help="Stop after every event until Enter (q then Enter: stop).")
def replay(source, upto, seat, boards, step):
    """Step through MATCH or FILE: each action, its facts and the board as SEAT saw it."""
    try:
        records = load_records(source)
        created = records[0]["data"]
        ruleset = rulesets.pinned(created["game"], created["ruleset_version"])
    except (DomainError, IndexError, KeyError) as error:
        raise click.ClickException(getattr(error, "message", f"not an Arbiter export: {error}"))
    state = json_copy(created["setup"])
    console.rule(f"{ruleset.title} {created['match_id']} — seats {', '.join(created['seats'])}, viewer "
                 f"{'spectator' if seat is None else created['seats'][seat]}")
    reader = Context(created["seats"], viewer=seat)
    over = False

    def board_now():  # the board as SEAT saw it after the events read so far, whom the rules ask marked
        return drawn(ruleset, ruleset.view(state, seat), () if over else ruleset.to_act(state))
    record_words(ruleset.words, "MatchCreated", redact_data(ruleset, "MatchCreated", created, seat), reader)
    for record in records[1:]:
        if upto is not None and record["seq"] > upto:
            break
        data = record["data"]
        # The record as SEAT read it while the match ran, in its words (the whole export is public now).
        said = record_words(ruleset.words, record["type"], redact_data(ruleset, record["type"], data, seat), reader)
        console.print(f"[bold]#{record['seq']}[/] {said['text']}", highlight=False)
        for text in filter(None, said["facts"]):
            console.print(f"    {text}", style="dim", highlight=False)
        for fact in data.get("facts", []) if record["type"] in ("ActionTaken", "SeatResigned", "SeatTimedOut") else []:
            state = ruleset.evolve(state, fact)
        over = over or record["type"] in FINAL_EVENTS
        if boards or step:
            console.print(board_now())
        if step and click.prompt("", default="", show_default=False, prompt_suffix="⏎ ").strip().lower() == "q":
            return
    if not boards and not step:
        console.print(board_now())


@main.command()
@click.option("--all", "show_all", is_flag=True, help="Ended matches too.")
def matches(show_all):
    """The matches you play from this terminal (local or on a server), and how to take one up."""
    from .terminal import saved
    from .terminal.session import Refused, Server

    remembered = saved.load()
    table = Table("match", "game", "where", "you", "status", "to act", "take it up with", title="your matches",
                  title_justify="left")
    arbiter, servers = None, {}
    for match_id, entry in sorted(remembered.items(), key=lambda pair: pair[1].get("saved_at", 0)):
        where = entry.get("server") or entry.get("store", "local")
        try:
            if entry.get("server"):
                server = servers.setdefault(entry["server"], Server(entry["server"]))
                summary = server.call("GET", f"/v1/matches/{match_id}")
            elif entry.get("store") != store_location():
                continue  # another store's match: listed when ARBITER_DATA_DIR points at it
            else:
                arbiter = arbiter or local_arbiter(create=False)
                summary = arbiter.summary(uuid.UUID(match_id))
            status = summary["status"]
            to_act = ", ".join(f"{summary['seats'][s]['name']} (seat {s})" for s in summary.get("to_act", []))
        except (Refused, DomainError, click.ClickException) as error:
            status, to_act = f"unknown: {getattr(error, 'detail', None) or getattr(error, 'message', error)}", ""
        if status not in ("running", "open") and not show_all:
            continue
        you = ", ".join(f"{held['name']} (seat {seat})" for seat, held in entry.get("seats", {}).items())
        resume = (f"arbiter play --server {entry['server']} --resume {match_id}" if entry.get("server")
                  else f"arbiter play --resume {match_id}")
        table.add_row(match_id, entry.get("game", "?"), where, you, status, to_act, resume)
    for server in servers.values():
        server.close()
    console.print(f"[dim]remembered in {saved.sessions_path()}; local store: {store_location()}[/]", soft_wrap=True)
    if table.row_count:
        console.print(table)
    else:
        console.print("no running matches" + ("" if show_all else " (--all: ended ones too)"))


@main.command()
@click.option("--interval", default=1.0, show_default=True, type=float, help="Seconds between passes.")
@click.option("--idle-seconds", default=None, type=int,
              help="Abandon matches idle this long (default: ARBITER_IDLE_SECONDS, else 7 days; 0: never).")
def clock(interval, idle_seconds):
    """Record timeouts of clocked matches and abandon idle ones, until stopped. Safe to run
    several (each timeout is recorded once); the read models must be kept by a projector."""
    if idle_seconds is None:
        idle_seconds = int(os.environ.get("ARBITER_IDLE_SECONDS", IDLE_SECONDS_DEFAULT))
    data_dir = Path(os.environ.get("ARBITER_DATA_DIR", "./var"))
    arbiter = Arbiter(MatchStore(os.environ), ReadModels(open_read_store(os.environ, data_dir)))
    console.print(f"clock running on the store at {store_location()}: a pass every {interval}s; idle matches "
                  f"abandoned after {idle_seconds or 'never'}{'s' if idle_seconds else ''}", soft_wrap=True)
    run_until_signalled(lambda stop: run_clock(arbiter, stop, interval, idle_seconds), "arbiter-clock")
    arbiter.store.close()


def run_until_signalled(work, name: str) -> None:
    """Run `work(stop)` in a thread until SIGTERM or SIGINT, then set `stop` and wait for it to
    finish what it was doing (a projector's batch, a clock's pass) and return.

    No Python signal handler runs: the signals are blocked in every thread and the main
    thread takes them with sigtimedwait. A handler that set a threading.Event could deadlock
    on the lock of the very Event.wait it interrupted (seen: a projector that ignored
    SIGTERM until SIGKILL)."""
    signals = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)  # before the thread starts: it inherits the mask
    stop, failed = threading.Event(), []

    def guarded():
        try:
            work(stop)
        except BaseException as error:  # re-raised in the main thread: the command fails loudly
            failed.append(error)

    worker = threading.Thread(target=guarded, name=name)
    worker.start()
    while worker.is_alive() and signal.sigtimedwait(signals, 0.5) is None:
        pass
    stop.set()
    worker.join()
    if failed:
        raise failed[0]


@main.command()
@click.option("--game", required=True)
@click.option("--matches", default=100, show_default=True, type=int)
@click.option("--players", default=2, show_default=True, type=int)
@click.option("--bots", default="random", show_default=True,
              help="Bot kinds by seat, repeated round the table, e.g. greedy,random.")
@click.option("--options", "options_json", default="{}", help="Match options as JSON.")
@click.option("--workers", default=os.cpu_count() or 1, show_default=True, type=int, help="Processes.")
@click.option("--seed", default=0, type=int, help="Seed for the bots' choices.")
def simulate(game, matches, players, bots, options_json, workers, seed):
    """Play bot matches through the event store (marked simulated; one transaction a match)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from .simulate import simulate as run_simulation
    try:
        options = orjson.loads(options_json)
    except orjson.JSONDecodeError as error:
        raise click.BadParameter(f"--options is not JSON: {error}")
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console) as bar:
        task = bar.add_task(f"{game} x{matches}", total=matches)
        try:
            report = run_simulation(game, matches, players, bots.split(","), options, workers, seed,
                                    progress=lambda: bar.advance(task))
        except (ValueError, DomainError) as error:
            raise click.ClickException(getattr(error, "message", str(error)))
    console.print(f"{report['matches']} matches, {report['events']} events in {report['seconds']}s: "
                  f"{report['matches_per_s']} matches/s, {report['events_per_s']} events/s")


@main.group()
def analytics():
    """Match histories for data tools."""


@analytics.command("export")
@click.option("--format", "fmt", type=click.Choice(["parquet", "csv"]), default="parquet", show_default=True)
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Folder: one sub-folder a table.")
@click.option("--since", default=None,
              help="Cursor to start after: a notification id, or 'shard=N,…' with several shards "
                   "(default: the cursor the last export left in OUT, else the beginning).")
def analytics_export(fmt, out, since):
    """Tidy tables of finished matches (matches, seats, actions, cards) for DuckDB, pandas, polars."""
    from .analytics import export as export_tables
    if since is None:
        since = (out / "cursor").read_text().strip() if (out / "cursor").exists() else 0
    projector = caught_up_projector()
    counts = export_tables(projector.events, out, fmt, since, ReadModels(projector.models).rating_history)
    console.print(f"exported {counts['matches']} matches, {counts['seats']} seats, {counts['actions']} actions, "
                  f"{counts['cards']} cards to {out} ({fmt}); next --since {counts['cursor']}")


@analytics.command("report")
@click.option("--game", required=True)
@click.option("--out", type=click.Path(path_type=Path), default=Path("report.html"), show_default=True)
@click.option("--simulated", type=click.Choice(["exclude", "include", "only"]), default="include", show_default=True)
def analytics_report(game, out, simulated):
    """One self-contained HTML balance report: plots with 95 % intervals and their tables."""
    from .report import balance_report
    reads = ReadModels(caught_up_projector().models)
    try:
        page = balance_report(reads.stats(game, simulated), reads.leaderboard(game, 0, 200))
    except DomainError as error:
        raise click.ClickException(error.message)
    out.write_text(page, encoding="utf-8")
    console.print(f"wrote {out} ({len(page) // 1024} KiB)")


def caught_up_projector() -> Projector:
    """A projector whose read models hold every stored event (its `events` is the store):
    without a server (whose projector follows the store) `simulate` then `analytics report`
    would read none of the new matches. Safe beside a running projector: projecting an event
    twice is refused, not doubled."""
    runner = local_projector()
    runner.catch_up()
    return runner


def local_projector(names=None, batch_size=500, throttle=None, shards=()) -> Projector:
    data_dir = Path(os.environ.get("ARBITER_DATA_DIR", "./var"))
    store = MatchStore(os.environ)
    unknown = sorted(set(shards) - set(store.shards))
    if unknown:
        raise click.BadParameter(f"no shard {unknown}; the shards are {sorted(store.shards)}", param_hint="--shard")
    return Projector(store, open_read_store(os.environ, data_dir), names, batch_size, throttle, shards=shards or None,
                     retain_ended_seconds=retention_seconds(os.environ))


@main.command()
@click.option("--batch-size", default=500, show_default=True, type=int)
@click.option("--throttle", default=None, type=float, help="At most this many events a second (to spare the stores).")
@click.option("--shard", "shards", multiple=True,
              help="Follow only this shard (repeatable; named host:port/database as in ARBITER_DATABASE_URLS); "
                   "default: every shard.")
def projector(batch_size, throttle, shards):
    """Run the projector in this process until stopped (for deployments: one per service, or one per shard)."""
    runner = local_projector(batch_size=batch_size, throttle=throttle, shards=shards)
    # One projector per host for each set of shards: a projector per shard each holds its own lock.
    suffix = "" if not shards else "-" + hashlib.sha256(",".join(sorted(shards)).encode()).hexdigest()[:12]
    lock = LeaderLock(Path(os.environ.get("ARBITER_DATA_DIR", "./var")) / f"projector{suffix}.lock")

    def project(stop: threading.Event) -> None:
        if not lock.try_acquire():
            console.print("another projector holds the lock on this host; this one waits to take over")
            while not stop.is_set() and not lock.try_acquire():
                stop.wait(2.0)
        console.print(f"projector running on {runner.models.name} read models, from the store at "
                      f"{store_location()}", soft_wrap=True)
        runner.run_forever(stop)

    run_until_signalled(project, "arbiter-projector")
    runner.events.close()


@main.group()
def projections():
    """Read models: rebuild them from the events."""


@projections.command()
@click.option("--name", "names", multiple=True, type=click.Choice(["matches", "stats", "players"]),
              help="Only this read model (repeatable); default: all.")
def rebuild(names):
    """Drop read models and replay every event into them (stop the projector first)."""
    runner = local_projector()
    started = time.perf_counter()
    events = runner.rebuild(set(names) or None)
    seconds = time.perf_counter() - started
    console.print(f"rebuilt {', '.join(names) or 'all read models'}: {events} events in {seconds:.2f}s "
                  f"({events / seconds if seconds else 0:,.0f} events/s)")


if __name__ == "__main__":
    sys.exit(main())
