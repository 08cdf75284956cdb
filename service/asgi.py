"""The server's entry point: `uvicorn --factory service.asgi:create` (what `arbiter serve` runs).

One ASGI app per worker process. Live streams (GET /v1/matches/{id}/stream) are coroutines
on the event loop (live.py): an idle follower holds no thread. Every other request goes to
the Flask app (api.py) through a2wsgi, a maintained WSGI-in-ASGI adapter, on a pool of
`ARBITER_WSGI_THREADS` threads that streams can never take. Measured on this 2-core
machine: 500 idle streams open, /healthz at p99 7 ms; under gunicorn's threaded worker the
same 500 streams needed 500 threads, and 16 of them starved an 8-thread worker (issue 28).

Request lines and headers past the limits below are refused as problem+json (414, 431)
before anything else reads them.
"""

import asyncio
import logging
import os
import re
import signal
import threading
import time

from a2wsgi import WSGIMiddleware

from .api import create_app
from .live import LiveStreams, send_problem

WSGI_THREADS = 8
log = logging.getLogger("arbiter.server")
SHUTDOWN_WAIT_SECONDS = 8.0  # for the app's own threads to finish what they do (less than the tests' 10 s wait)
MAX_TARGET_BYTES = 8 * 1024  # path and query
MAX_HEADER_BYTES = 32 * 1024  # all header names and values together
STREAM_PATH = re.compile(r"/v1/matches/([^/]+)/stream")


class ArbiterApp:
    def __init__(self, flask_app, environ=os.environ):
        self.flask_app = flask_app
        self.answering = InFlight()
        self.wsgi = WSGIMiddleware(self.answering.counted(input_terminated(flask_app)),
                                   workers=int(environ.get("ARBITER_WSGI_THREADS", WSGI_THREADS)))
        self.streams = LiveStreams(flask_app.extensions["arbiter"], environ)
        self._loop: asyncio.AbstractEventLoop | None = None  # the server's, once it has started

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string", b""))
        if target > MAX_TARGET_BYTES:
            await send_problem(send, 414, "uri_too_long", f"the request target is over {MAX_TARGET_BYTES} bytes")
            return
        if sum(len(name) + len(value) for name, value in scope.get("headers", ())) > MAX_HEADER_BYTES:
            await send_problem(send, 431, "headers_too_large", f"the request headers are over {MAX_HEADER_BYTES} bytes")
            return
        stream = STREAM_PATH.fullmatch(scope["path"])
        if stream and scope["method"] in ("GET", "HEAD"):
            await self.streams(scope, receive, send, stream.group(1))
        else:
            await self.wsgi(scope, receive, send)

    async def lifespan(self, receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._loop = asyncio.get_running_loop()
                self.end_streams_on_exit_signals()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.streams.closing.set()  # on the loop (an asyncio event): every stream ends
                self._loop = None  # closed once the server is done: end_streams has nothing left to tell
                # the waits off the loop: a request still answered on a WSGI thread (its task
                # cancelled after the grace period) sends through this loop as it ends
                await asyncio.to_thread(self.shut_down)
                await send({"type": "lifespan.shutdown.complete"})
                return

    def end_streams(self) -> None:
        """Tell every live stream to end now (from any thread): its response ends whole and its
        client resumes on another server with Last-Event-ID; a stream asked for from now on is
        refused (503 shutting_down)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.streams.closing.set)

    def end_streams_on_exit_signals(self) -> None:
        """uvicorn gives the app its lifespan shutdown only once every connection has closed or
        its grace period (`arbiter serve`: 2 s) is over, and never ends a stream itself: with one
        follower open, every shutdown waited the whole grace, then cancelled the stream and cut
        its response. So the signal that begins a shutdown (SIGTERM, or SIGINT) ends the streams
        too, then runs uvicorn's own handler, installed before startup and put back by uvicorn
        when it is done. A server in a thread other than the main one has no signal handlers:
        whoever stops it calls `end_streams` first (the tests' servers)."""
        if threading.current_thread() is not threading.main_thread():
            return
        for number in (signal.SIGTERM, signal.SIGINT):
            uvicorns = signal.getsignal(number)
            if not callable(uvicorns):
                continue

            def handler(signum, frame, uvicorns=uvicorns):
                try:
                    self.end_streams()
                finally:  # the signal is uvicorn's whatever happened here
                    uvicorns(signum, frame)

            signal.signal(number, handler)

    def shut_down(self) -> None:
        """Once the streams are told to end (`lifespan`; clients resume elsewhere with
        Last-Event-ID): the requests still being answered end, the streams' reads stop, the
        embedded projector and clock stop between batches and the bots after their move in
        progress. Each is waited for, SHUTDOWN_WAIT_SECONDS at most in all: whoever runs the
        app closes the store next, and SQLite crashed the process when a connection closed
        under another thread's read."""
        deadline = time.monotonic() + SHUTDOWN_WAIT_SECONDS

        def left() -> float:
            return max(0.0, deadline - time.monotonic())

        extensions = self.flask_app.extensions
        stops = [self.streams.shut_down, *(extensions[name].stop for name in ("projector_thread", "clock_thread")
                                           if name in extensions), extensions["arbiter"].stop_bots]
        for stop in stops:
            stop(0)  # each part told at once, so one slow part cannot leave the others working unasked
        self.answering.wait_idle(left())
        for stop in stops:
            stop(left())  # now waited for, within what is left
        if not left():
            log.warning("the server's threads were still working %s s into its shutdown; the store is "
                        "closed under them", SHUTDOWN_WAIT_SECONDS)


class InFlight:
    """The WSGI requests being answered, so a shutdown can wait for them: uvicorn cancels a
    request's task after its grace period, but the thread answering it goes on (a paced bot's
    reply, then its save)."""

    def __init__(self):
        self.count = 0
        self._changed = threading.Condition()

    def counted(self, app):
        def wsgi(environ, start_response):
            with self._changed:
                self.count += 1
            try:
                return app(environ, start_response)
            finally:
                with self._changed:
                    self.count -= 1
                    self._changed.notify_all()

        return wsgi

    def wait_idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self.count == 0, timeout)


def input_terminated(app):
    """a2wsgi hands Flask the body as a stream that ends where the body ends. Without a
    Content-Length (a chunked body) Werkzeug would read nothing unless told so (a chunked
    create answered 400 'empty document')."""
    def wsgi(environ, start_response):
        environ["wsgi.input_terminated"] = True
        return app(environ, start_response)

    return wsgi


def create(environ=None) -> ArbiterApp:
    environ = os.environ if environ is None else environ
    return ArbiterApp(create_app(environ), environ)
