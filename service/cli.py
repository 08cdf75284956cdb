"""`arbiter`: serve, list games, play in the terminal, show and export matches."""

import hashlib
import os
import random
import signal
import sys
import threading
import time
import uuid
from pathlib import Path

import click
import orjson
from rich.console import Console
from rich.pretty import Pretty
from rich.table import Table

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

from .lifecycle import IDLE_SECONDS_DEFAULT, run_clock
from .matches import Arbiter, parse_match_id, parse_ndjson

console = Console()
SHUTDOWN_GRACE_SECONDS = 2
# uvicorn's supervisor restarts a worker that does not answer its ping in time: a worker busy
# starting (imports, the tables made on first boot, under a loaded machine) is not a dead one.
WORKER_HEALTHCHECK_SECONDS = 60


def local_arbiter() -> Arbiter:
    return Arbiter(MatchStore(os.environ))


@click.group()
def main():
    """Arbiter: host, record, audit and analyse turn-based games."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int)
def serve(host, port, workers):
    """Serve the HTTP API (uvicorn, one process a worker) on the configured store."""
    import uvicorn

    # Streams end on shutdown after GRACE seconds (their clients resume with Last-Event-ID);
    # every other request has finished by then.
    uvicorn.run("service.asgi:create", factory=True, host=host, port=port, workers=workers, loop="uvloop",
                http="httptools", timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS, log_level="info",
                timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS)


@main.command()
def games():
    """List the games and their ruleset versions."""
    table = Table("game", "version", "seats", "bots")
    for game in local_arbiter().games():
        table.add_row(game["game"], game["version"], f"{game['seats']['min']}-{game['seats']['max']}",
                      ", ".join(game["bots"]))
    console.print(table)


@main.command()
@click.argument("game")
@click.option("--seats", default=2, show_default=True, type=int, help="How many seats.")
@click.option("--bot", "bots", multiple=True, type=int, help="Seat number a bot plays (repeatable).")
@click.option("--bot-kind", default="random", show_default=True, help="Which of the game's bots (e.g. greedy).")
@click.option("--options", "options_json", default="{}", help='Match options as JSON, e.g. \'{"mode": "teams"}\'.')
@click.option("--seed", default=None, type=int, help="Seed for the bots' choices (not the game's shuffle).")
def play(game, seats, bots, bot_kind, options_json, seed):
    """Play GAME hot-seat in the terminal; each seat sees only its own view."""
    arbiter = local_arbiter()
    names = [f"bot{i}" if i in bots else f"seat{i}" for i in range(seats)]
    try:
        options = orjson.loads(options_json)
        bot = rulesets.latest(game).bots[bot_kind]
        created = arbiter.create_match(game, names, options)
    except orjson.JSONDecodeError as error:
        raise click.BadParameter(f"--options is not JSON: {error}")
    except KeyError:
        raise click.BadParameter(f"{game} has no {bot_kind!r} bot; it has {sorted(rulesets.latest(game).bots)}")
    except DomainError as error:
        raise click.ClickException(error.message)
    match_id = uuid.UUID(created["match_id"])
    rand = random.Random(seed)
    console.print(f"match [bold]{match_id}[/] created; commitment {created['commitment']}")
    shown_to = None
    told = 0  # the log is told in words up to this seq (as a spectator: the table shares the screen)
    while True:
        summary = arbiter.summary(match_id)
        if summary["status"] != "running":
            break
        seat = summary["to_act"][0]
        if seat in bots:
            match = arbiter.store.match(match_id)
            action = bot(match.state, seat, rand)
        else:
            if shown_to != seat:
                click.prompt(f"\nPass the terminal to {names[seat]} (seat {seat}) and press Enter",
                             default="", show_default=False)
                console.clear()
                shown_to = seat
            console.print(drawn(rulesets.latest(game), arbiter.board(match_id, seat)["board"]))
            listed = arbiter.legal_actions(match_id, seat)
            actions = listed["actions"]
            for number, said in enumerate(listed["words"]):
                console.print(f"  [cyan]{number:>3}[/] {said}", highlight=False)
            choice = click.prompt(f"{names[seat]}, your action", type=click.IntRange(0, len(actions) - 1))
            action = actions[choice]
        try:
            result = arbiter.submit_action(match_id, seat, action)
        except DomainError as error:
            console.print(f"[red]refused:[/] {error.message}")
            continue
        if seat in bots:
            told = tell(arbiter.log(match_id, None, since=told, limit=1000)["events"], told)
    tell(arbiter.log(match_id, None, since=told, limit=1000)["events"], told)
    console.print(f"\n[bold]game over[/]: {summary['outcome']}")
    console.print(f"seed revealed: {summary['seed']}")


def tell(records: list[dict], told: int) -> int:
    """Print log records in their words (a bot's move and what it caused); the last seq told."""
    for record in records:
        if record["seq"] > told and record["type"] != "MatchCreated":
            said = record.get("words") or {"text": record["type"], "facts": []}
            console.print(f"[dim]#{record['seq']}[/] {said['text']}", highlight=False)
            for text in filter(None, said["facts"]):
                console.print(f"      {text}", style="dim", highlight=False)
        told = max(told, record["seq"])
    return told


def drawn(ruleset, view: dict):
    """A board for the terminal: the game's own rich drawing (tables, panels, colours) where it
    has one, else the view's data."""
    return ruleset.render(view) if ruleset.render else Pretty(view)


@main.command()
@click.argument("match_id")
def show(match_id):
    """Show a match's summary and its spectator board."""
    arbiter = local_arbiter()
    try:
        mid = parse_match_id(match_id)
        summary = arbiter.summary(mid)
        console.print(Pretty(summary))
        console.print(drawn(rulesets.pinned(summary["game"], summary["ruleset_version"]),
                            arbiter.board(mid, None)["board"]))
    except DomainError as error:
        raise click.ClickException(error.message)


@main.command()
@click.argument("match_id")
@click.option("--output", "-o", type=click.File("wb"), default="-", help="File to write (default: stdout).")
@click.option("--running", is_flag=True, help="Export a match that is still running (reveals hidden cards).")
def export(match_id, output, running):
    """Write a match as NDJSON, one event a line."""
    try:
        lines = local_arbiter().export_lines(parse_match_id(match_id), admin=running)
    except DomainError as error:
        raise click.ClickException(error.message)
    output.writelines(lines)


def load_records(source: str) -> list[dict]:
    """Records of an exported file (offline: no store is opened), else of a stored match."""
    if os.path.isfile(source):
        with open(source, "rb") as handle:
            return parse_ndjson(handle)
    return local_arbiter().records(parse_match_id(source))


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
    console.print(f"imported {result['match_id']} ({result['version']} events): {result['audit']}")


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
        if boards or step:
            console.print(drawn(ruleset, ruleset.view(state, seat)))
        if step and click.prompt("", default="", show_default=False, prompt_suffix="⏎ ").strip().lower() == "q":
            return
    if not boards and not step:
        console.print(drawn(ruleset, ruleset.view(state, seat)))


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
    console.print(f"clock running: a pass every {interval}s; idle matches abandoned after "
                  f"{idle_seconds or 'never'}{'s' if idle_seconds else ''}")
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
    return Projector(store, open_read_store(os.environ, data_dir), names, batch_size, throttle, shards=shards or None)


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
        console.print(f"projector running on {runner.models.name} read models")
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
