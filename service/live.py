"""Live streams (Server-Sent Events) served by the event loop, not by threads.

A stream is a coroutine: while it waits for the next event it holds no thread, so hundreds
of idle followers cost a little memory and nothing else, and the WSGI threads that serve
every other request (service/asgi.py) are never theirs to take. What a stream sends is read
from the event store (the truth) and redacted by the same code as the log
(`Arbiter.stream_batch`), in a small thread pool of its own, only when there is something
new: one watcher thread per process follows the notification log of every shard (every
`POLL_SECONDS`, and at once after a save by its own process: the store's `after_save`) and
wakes the streams of the matches that changed. A missed wake-up would cost latency, never an
event; the heartbeat re-reads the store too.

Limits: `ARBITER_MAX_STREAMS` per process and `ARBITER_STREAMS_PER_CLIENT` per client
address; past either a stream is refused with 429 `too_many_streams` (problem+json, with
Retry-After). A stream ends when its match is over, when the client goes away, or when the
server shuts down (clients resume with Last-Event-ID).
"""

import asyncio
import logging
import os
import threading
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for_futures
from urllib.parse import parse_qs

from domain.kernel.errors import DomainError
from domain.kernel.store import MATCH_TOPICS

from .errors import TokenInvalid
from .problems import problem_body, status_of

POLL_SECONDS = 0.05
HEARTBEAT_SECONDS = 15.0
MAX_STREAMS = 1000
STREAMS_PER_CLIENT = 64
READ_THREADS = 4
log = logging.getLogger("arbiter.live")


class ServerClosing(Exception):
    """A stream's read asked for after shutdown began."""


class Watcher:
    """Follows the store's notification log and wakes the streams of the matches that changed."""

    def __init__(self, store, poll_seconds: float = POLL_SECONDS):
        self.store, self.poll_seconds = store, poll_seconds
        self._waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._nudged = threading.Event()
        self._thread: threading.Thread | None = None
        store.after_save.append(self._nudge)

    def subscribe(self, match_id: str) -> asyncio.Event:
        woken = asyncio.Event()
        with self._lock:
            if self._thread is None and not self._stop.is_set():  # stopped: the streams are ending
                # Where the log stands is read before the first stream's first read (a save
                # between the two would otherwise count as seen and wake no one); once a process.
                positions = {name: shard.recorder.max_notification_id() or 0
                             for name, shard in self.store.shards.items()}
                self._thread = threading.Thread(target=self._follow, args=(positions,), name="arbiter-live-watcher",
                                                daemon=True)
                self._thread.start()
            self._waiting.setdefault(match_id, set()).add((asyncio.get_running_loop(), woken))
        return woken

    def unsubscribe(self, match_id: str, woken: asyncio.Event) -> None:
        with self._lock:
            waiting = self._waiting.get(match_id, set())
            waiting -= {entry for entry in waiting if entry[1] is woken}
            if not waiting:
                self._waiting.pop(match_id, None)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop following, and wait for the thread's read in progress: the store may be closed
        next, and SQLite crashed the process (a segmentation fault) when its connection closed
        under a read of another thread."""
        with self._lock:  # a subscriber starts the thread under it: one now is joined, one after starts none
            self._stop.set()
            thread = self._thread
        self._nudged.set()
        if self._nudge in self.store.after_save:
            self.store.after_save.remove(self._nudge)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _nudge(self) -> None:
        """A save of this process: read at once, if anyone here follows a match."""
        if self._waiting:
            self._nudged.set()

    def _follow(self, positions: dict[str, int]) -> None:
        while True:
            self._nudged.wait(self.poll_seconds)  # a save here reads at once; another process's within the poll
            self._nudged.clear()
            if self._stop.is_set():
                break
            for name, shard in self.store.shards.items():
                try:
                    positions[name] = self._wake_changed(shard.recorder, positions[name])
                except Exception:  # the store may be away for a while; streams re-read on their heartbeat
                    log.exception("live watcher could not read the notification log of shard %r", name)

    def _wake_changed(self, recorder, position: int) -> int:
        while not self._stop.is_set() and (recorder.max_notification_id() or 0) > position:
            notifications = recorder.select_notifications(start=position + 1, limit=500, topics=list(MATCH_TOPICS))
            if not notifications:
                break
            position = notifications[-1].id
            changed = {str(n.originator_id) for n in notifications}
            with self._lock:
                woken = [entry for match_id in changed for entry in self._waiting.get(match_id, ())]
            for loop, event in woken:
                try:
                    loop.call_soon_threadsafe(event.set)
                except RuntimeError:  # that stream's event loop has closed: nobody to wake there
                    pass
        return position


class LiveStreams:
    """The ASGI handler of GET /v1/matches/{id}/stream."""

    def __init__(self, arbiter, environ=os.environ):
        self.arbiter = arbiter
        self.watcher = Watcher(arbiter.store)
        self.max_streams = int(environ.get("ARBITER_MAX_STREAMS", MAX_STREAMS))
        self.per_client = int(environ.get("ARBITER_STREAMS_PER_CLIENT", STREAMS_PER_CLIENT))
        self.reads = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="arbiter-live-read")
        self._reading: set[Future] = set()  # the store reads in progress, waited for at shutdown
        self.open: Counter[str] = Counter()  # streams per client address
        self.closing = asyncio.Event()

    @property
    def count(self) -> int:
        return sum(self.open.values())

    async def __call__(self, scope, receive, send, match_id_text: str) -> None:
        client = (scope.get("client") or ("unknown",))[0]
        if self.closing.is_set():  # its streams are ending: its clients resume on another server
            await send_shutting_down(send)
            return
        if self.count >= self.max_streams or self.open[client] >= self.per_client:
            limit = "this server's" if self.count >= self.max_streams else "your address's"
            await send_problem(send, 429, "too_many_streams",
                               f"{limit} limit of open live streams is reached; close one, or retry later",
                               headers=[(b"retry-after", b"5")])
            return
        self.open[client] += 1
        try:
            try:
                opened = await self._read(self.arbiter.open_stream, match_id_text, bearer(scope), *since_of(scope))
            except DomainError as error:
                await send_problem(send, status_of(error), error.code, error.message)
                return
            except ServerClosing:
                await send_shutting_down(send)
                return
            await self._stream(opened, receive, send)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]

    async def _stream(self, opened, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"),
                                (b"x-accel-buffering", b"no")]})
        await send({"type": "http.response.body", "body": b": stream open\n\n", "more_body": True})
        match_id, last = str(opened.match_id), opened.since
        woken = self.watcher.subscribe(match_id)
        gone = asyncio.ensure_future(wait_for_disconnect(receive))
        closing = asyncio.ensure_future(self.closing.wait())
        try:
            while True:
                woken.clear()
                try:
                    chunks, over = await self._read(self.arbiter.stream_batch, opened, last)
                except ServerClosing:
                    break
                for seq, chunk in chunks:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                    last = seq
                if over or self.closing.is_set():  # a long backlog is not sent to its end first
                    break
                if chunks:
                    continue
                wake = asyncio.ensure_future(woken.wait())
                done, _ = await asyncio.wait({wake, gone, closing}, timeout=HEARTBEAT_SECONDS,
                                             return_when=asyncio.FIRST_COMPLETED)
                wake.cancel()
                if gone in done:
                    return
                if closing in done:
                    break
                if not done:
                    await send({"type": "http.response.body", "body": b": keep-alive\n\n", "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.watcher.unsubscribe(match_id, woken)
            gone.cancel()
            closing.cancel()

    async def _read(self, function, *args):
        try:
            future = self.reads.submit(function, *args)
        except RuntimeError:  # the pool is shut down: the server is
            raise ServerClosing() from None
        self._reading.add(future)
        future.add_done_callback(self._reading.discard)
        return await asyncio.wrap_future(future)

    def shut_down(self, timeout: float = 5.0) -> None:
        """Stop following the store, and wait (up to `timeout` in all) for the watcher's and the
        streams' store reads in progress: the store may be closed next (see Watcher.stop). A
        stream's next read finds the server closing. (The streams themselves are told to end by
        `closing`, an asyncio event set on their loop: by ArbiterApp.end_streams as the shutdown's
        signal arrives, and again by its lifespan shutdown.)"""
        deadline = time.monotonic() + timeout
        self.reads.shutdown(wait=False)
        self.watcher.stop(timeout)
        wait_for_futures(list(self._reading), max(0.0, deadline - time.monotonic()))


async def wait_for_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def send_shutting_down(send) -> None:
    await send_problem(send, 503, "shutting_down", "the server is shutting down; retry on another",
                       headers=[(b"retry-after", b"1")])


async def send_problem(send, status: int, code: str, detail: str, headers=()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/problem+json"), *headers]})
    await send({"type": "http.response.body", "body": problem_body(status, code, detail)})


def bearer(scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise TokenInvalid('the Authorization header must be "Bearer <token>"')
            return token.strip()
    return None


def since_of(scope) -> tuple[str | None, str | None]:
    """The raw `since` query value and Last-Event-ID header, checked by `Arbiter.open_stream`."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    last_id = next((value.decode("latin-1") for name, value in scope.get("headers", ())
                    if name == b"last-event-id"), None)
    return (query.get("since") or [None])[0], last_id
