"""Stopping a server the tests started in its own session (`start_new_session=True`)."""

import contextlib
import os
import signal
import subprocess


def stop(process: subprocess.Popen, seconds: float = 30) -> None:
    """SIGTERM to the supervisor alone, which stops its own workers, then SIGKILL to whatever
    of its process group is left. A SIGTERM to the whole group reaches the workers first at
    times: uvicorn's supervisor sees a worker gone, starts a new one just as it is told to stop,
    and that worker's boot delays the exit past any sensible wait."""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    finally:
        with contextlib.suppress(ProcessLookupError):  # nothing of the group outlives the test
            os.killpg(process.pid, signal.SIGKILL)
