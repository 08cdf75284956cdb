"""Every long-running command stops cleanly on SIGTERM at any moment (issue 28: a projector
deadlocked in its own signal handler and ignored SIGTERM until SIGKILL).

Each of `arbiter projector`, `arbiter clock` and `arbiter serve` is started and sent SIGTERM
after a random delay (during start-up, while idle, while working); each must exit within 5 s
with status 0 (serve: its supervisor's), and what the projector committed must be whole:
after all the interruptions one more catch-up leaves read models equal to a rebuild.
ARBITER_SHUTDOWN_RUNS sets the runs per command (default 6; the issue's acceptance run is 50).
"""

import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from projections.projector import Projector
from projections.readstore import open_read_store
from service.matches import Arbiter
from domain.kernel.store import MatchStore

from .test_deployment import free_port

ROOT = Path(__file__).resolve().parents[1]
ARBITER = str(Path(sys.executable).parent / "arbiter")
RUNS = int(os.environ.get("ARBITER_SHUTDOWN_RUNS", "6"))
EXIT_WITHIN = 5.0


def commands(env):
    return {"projector": [ARBITER, "projector", "--batch-size", "7"],
            "clock": [ARBITER, "clock", "--interval", "0.05"],
            "serve": [ARBITER, "serve", "--port", str(free_port()), "--workers", "2"]}


def terminate_at_random(command, env, delay) -> tuple[int | None, float, str]:
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=EXIT_WITHIN + 5)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None, time.monotonic() - sent, process.stderr.read().decode(errors="replace")
    took = time.monotonic() - sent
    stderr = process.stderr.read().decode(errors="replace")
    return process.returncode, took, stderr + group_outlives(process.pid, sent + EXIT_WITHIN)


def group_outlives(group: int, deadline: float) -> str:
    """serve's workers (and multiprocessing's helper) must be gone with their supervisor. An
    exited child that nobody reaps (a zombie: here PID 1 does not reap) is gone."""
    while True:
        listed = subprocess.run(["ps", "-o", "pid=,stat=,args=", "-g", str(group)], capture_output=True, text=True)
        alive = [line for line in listed.stdout.splitlines() if not line.split()[1].startswith("Z")]
        if not alive:
            return ""
        if time.monotonic() > deadline:
            return "a process of the group outlived its leader:\n" + "\n".join(alive)
        time.sleep(0.05)
