"""`arbiter serve`'s process supervisor: uvicorn's own, told to stop the moment it is signalled.

uvicorn's supervisor only queues SIGINT and SIGTERM, for its loop to handle on its next turn
(every 0.5 s), and between turns it restarts any worker it finds dead. Ctrl-C reaches the
whole process group, so the workers begin their shutdown on the same signal: one that had
already exited when the supervisor looked, before it had handled its own SIGINT, was
restarted, and the new worker then started up (the app imported and created) only to be shut
down again. That cost seconds on a loaded machine (CI's shutdown test waited over 5 s for
the server to exit). Here the signal sets the supervisor's stop at once: a worker can only
exit after the signal has arrived, and the supervisor's check before a restart runs after
its handler, so it never restarts a worker on the way out.
"""

import signal

import uvicorn
from uvicorn import Config
from uvicorn.supervisors import Multiprocess

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Supervisor(Multiprocess):
    """uvicorn's Multiprocess (its signal queue, health checks and restarts unchanged), stopped
    by SIGINT or SIGTERM as soon as the signal arrives."""

    def __init__(self, config: Config):
        super().__init__(config, sockets=[config.bind_socket()])
        for number in STOP_SIGNALS:
            signal.signal(number, self._stop_now)

    def _stop_now(self, number: int, frame) -> None:
        self.should_exit.set()  # its loop then stops its workers and waits for them


def serve(app: str, **settings) -> None:
    """`uvicorn.run(app, **settings)`, its workers under the Supervisor when there are several
    (with one, uvicorn runs the server in this process: there is nothing to restart)."""
    if settings.get("workers", 1) > 1:
        Supervisor(Config(app, **settings)).run()
    else:
        uvicorn.run(app, **settings)
