"""A person at `arbiter play`, in a pseudo-terminal (pexpect): reads each screen and answers
only what a person could type there (menu numbers, item numbers, Enter), chosen at random
from what the screen offers, and checks on every screen that it names the seat it asks."""

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pexpect

ARBITER = str(Path(sys.executable).with_name("arbiter"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MENU = r"(\S+) \(seat (\d+)\), your choice \(1-(\d+), \? for help\): "
ITEMS = r"(\S+) \(seat (\d+)\), tick an item \(1-(\d+)\), Enter to send, 0 to go back: "
PASS = r"Pass the terminal to (\S+) \(seat (\d+)\) and press Enter"
OVER = r"game over[^\n]*\n"
LEFT = r"left match (\S+): it stays"
WAITING = r"waiting for "
TIMEOUT = "timeout"


def environment(data_dir, **extra) -> dict:
    return {**os.environ, "ARBITER_STORE": "sqlite", "ARBITER_DATA_DIR": str(data_dir), "ARBITER_PROJECTOR": "off",
            "ARBITER_CLOCK": "off", "ARBITER_SESSIONS": str(Path(data_dir) / "sessions.json"), "COLUMNS": "110",
            "LINES": "60", "TERM": "xterm-256color", "NO_COLOR": "", **extra}


def spawn(args, env, timeout=60, sigint_ignored=False) -> pexpect.spawn:
    """`arbiter *args` at a terminal of its own; started with SIGINT ignored, as by a launcher's
    background job, if `sigint_ignored`."""
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    child = pexpect.spawn(ARBITER, list(args), env=env, encoding="utf-8", timeout=timeout,
                          dimensions=(60, 110), codec_errors="replace", preexec_fn=ignore)
    child.delaybeforesend = None
    return child


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


class Person:
    """Plays one pseudo-terminal at random (seeded), recording what it saw."""

    def __init__(self, child: pexpect.spawn, seed: int = 0):
        self.child, self.rand = child, random.Random(seed)
        self.moves = 0
        self.screens: list[str] = []
        self.asked: list[int] = []
        self.pending: list[str] = []  # answers to type before choosing at random (a scripted start)

    def screen(self) -> str:
        return plain(self.child.before or "") + plain(self.child.after if isinstance(self.child.after, str) else "")

    def check_seat(self, seat: int, screen: str) -> None:
        """The screen before a question names no other seat as the one to play, and says who chooses."""
        for named in re.findall(r"seat (\d+) to (?:play|act)|waiting on seat (\d+)", screen):
            named = next(n for n in named if n)
            assert int(named) == seat, f"the screen names seat {named} to play while seat {seat} is asked:\n{screen}"
        chooses = re.findall(r"\(seat (\d+)\) to choose", screen)
        assert all(int(s) == seat for s in chooses), screen
        # the board drawn marks the seats the rules ask to act ("▶ seat 1 · ..."): the asked one is among them
        marked = re.findall(r"▶ seat (\d+) ·", screen)
        assert not marked or str(seat) in marked, f"the board marks seats {marked} to act while seat {seat} is asked:\n{screen}"

    def step(self, until=(OVER,), timeout=60, quiet_ok: bool = False) -> str | None:
        """Answer one question; the matched `until` pattern when one of those came instead (or
        TIMEOUT when `quiet_ok` and nothing came: a terminal waiting for another player)."""
        patterns = [MENU, ITEMS, PASS, *until]
        index = self.child.expect([*patterns, pexpect.TIMEOUT] if quiet_ok else patterns, timeout=timeout)
        if index == len(patterns):
            return TIMEOUT
        screen = self.screen()
        self.screens.append(screen)
        if index >= 3:
            return patterns[index]
        seat = int(self.child.match.group(2))
        if index == 2:
            self.child.sendline("")
            return None
        if index == 0:
            self.check_seat(seat, screen)
            self.asked.append(seat)
        if self.pending:
            self.child.sendline(self.pending.pop(0))
            return None
        self.answer(index, screen)
        return None

    def answer(self, index: int, screen: str) -> None:
        """A random answer to a menu (index 0) or an item list (index 1)."""
        count = int(self.child.match.group(3))
        if index == 0:
            self.moves += 1
            self.child.sendline(str(self.rand.randint(1, count)))
        else:  # ticking items: send when the choice is ready, now and then; else tick or untick one
            ready = "ready: Enter sends it" in screen.rsplit("tick items", 1)[-1]
            if ready and self.rand.random() < 0.5:
                self.child.sendline("")
            elif self.rand.random() < 0.05:
                self.child.sendline("0")
            else:
                self.child.sendline(str(self.rand.randint(1, count)))

    def play_to_end(self, most: int = 3000, timeout=60) -> str:
        for _ in range(most):
            if self.step(timeout=timeout) == OVER:
                over = self.screens[-1]
                self.child.expect(r"seed revealed: [0-9a-f]{64}", timeout=timeout)
                return over + self.screen()
        raise AssertionError(f"no end after {most} answers")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`arbiter serve` in a subprocess on a free port, over its own SQLite store; with
    `own_projector`, the read models are kept by an `arbiter projector` of their own (as a
    deployment runs it), which a test may pause (`projector.send_signal(SIGSTOP)`)."""

    def __init__(self, data_dir, own_projector: bool = False):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = environment(data_dir, ARBITER_PROJECTOR="off" if own_projector else "embedded", ARBITER_CLOCK="embedded")
        self.log = open(Path(data_dir) / "serve.log", "wb")
        self.projector = subprocess.Popen([ARBITER, "projector"], env=env, stdout=self.log,
                                          stderr=subprocess.STDOUT) if own_projector else None
        self.process = subprocess.Popen([ARBITER, "serve", "--port", str(self.port), "--workers", "1"], env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.close()
        raise RuntimeError(f"arbiter serve did not answer on {self.url}")

    def post(self, path: str, body: dict, token: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.post(f"{self.url}{path}", json=body, headers=headers, timeout=30)
        assert answer.status_code < 300, answer.text
        return answer.json()

    def get(self, path: str) -> dict:
        return httpx.get(f"{self.url}{path}", timeout=30).json()

    def close(self) -> None:
        for process in filter(None, (self.process, self.projector)):
            process.send_signal(signal.SIGCONT)  # a paused projector hears its SIGTERM
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
        self.log.close()
