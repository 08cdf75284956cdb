"""`arbiter serve`'s process supervisor: uvicorn's own, which never restarts a worker once a
stop signal has arrived.

uvicorn's supervisor queues SIGINT and SIGTERM, for its loop to handle on its next turn
(every 0.5 s); on each turn, after the signals queued by then, it restarts any worker it
finds dead. Ctrl-C reaches the whole process group, so the workers begin their shutdown on
the same signal: one that had already exited when the supervisor looked, before it had
handled its own SIGINT, was restarted, and the new worker then started up (the app imported
and created) only to be shut down again. That cost seconds on a loaded machine (CI's
shutdown test waited over 5 s for the server to exit).

Here the supervisor counts itself stopping from the moment a stop signal is queued. The
signal handler stays uvicorn's, which only appends to a list: a handler that set the stop
event itself would take the event's lock, which the main thread it interrupts may be
holding (within the loop's wait), and deadlock the supervisor for good.

A worker that dies before it answers a health check (Ctrl-C while it is still importing)
must end that check at once. uvicorn's check waits on the pipe to the worker for up to
`timeout_worker_healthcheck` (60 s for `arbiter serve`), and the supervisor kept its own copy
of the worker's end of that pipe, so the pipe stayed open after the worker died: serve took
the whole minute to exit. The supervisor closes its copy once the worker has its own (spawned
workers get theirs at start), so a dead worker's pipe reads as closed.
"""

import signal
import threading

import uvicorn
from uvicorn import Config
from uvicorn.supervisors import Multiprocess

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopEvent(threading.Event):
    """The supervisor's `should_exit`: set once its loop handles a stop signal, and counted
    set from the moment one is queued. A worker can only exit on a signal after it has
    arrived, and the supervisor's handler runs before its next check, so a worker found dead
    on the way out is never restarted. `wait` reads only the event's own flag: the loop still
    handles the queued signal itself (and logs it) on its next turn."""

    def __init__(self, signal_queue: list[int]):
        super().__init__()
        self.signal_queue = signal_queue

    def is_set(self) -> bool:
        return super().is_set() or any(number in STOP_SIGNALS for number in tuple(self.signal_queue))


class Supervisor(Multiprocess):
    """uvicorn's Multiprocess (its signal handling, health checks and restarts unchanged),
    stopping as soon as SIGINT or SIGTERM is queued."""

    def __init__(self, config: Config):
        super().__init__(config, sockets=[config.bind_socket()])
        self.should_exit = StopEvent(self.signal_queue)

    def keep_subprocess_alive(self) -> None:
        for process in self.processes:  # each started, so holding its own end (closing twice is a no-op)
            process.child_conn.close()
        super().keep_subprocess_alive()


def serve(app: str, **settings) -> None:
    """What `uvicorn.run(app, **settings)` does for `arbiter serve` (an import string, no
    reload, no Unix socket), its workers under the Supervisor when there are several; with
    one, uvicorn.run itself (the server in this process: there is nothing to restart)."""
    if settings.get("workers", 1) > 1:
        Supervisor(Config(app, **settings)).run()
    else:
        uvicorn.run(app, **settings)
