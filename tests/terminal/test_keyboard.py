"""Reading a line at the terminal (service/terminal/keyboard.py): a line comes back without its
newline, Ctrl-D is the end of input, and a Ctrl-C at a prompt is never lost — pressed the
moment the prompt appears, again and again, each one interrupts the wait. input() could lose
one that landed between the prompt being written and its read beginning (seen once in
tests/terminal/test_remote.py on a loaded machine: "^C" on the screen, the client waiting)."""

import os
import select
import signal
import sys
import textwrap

import pexpect
from rich.console import Console

from service.terminal import keyboard

CHILD = textwrap.dedent("""
    from rich.console import Console
    from service.terminal.keyboard import ask
    console = Console()
    while True:
        try:
            line = ask(console, "say> ")
        except KeyboardInterrupt:
            print("interrupted")
            continue
        except EOFError:
            print("end of input")
            break
        print(f"got {line!r}")
""")


def spawn_asker():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    child = pexpect.spawn(sys.executable, ["-c", CHILD], cwd=root, encoding="utf-8", timeout=10,
                          env={**os.environ, "PYTHONPATH": root, "TERM": "dumb"})
    child.delaybeforesend = None
    return child


def test_a_line_comes_back_whole_and_ctrl_d_ends_the_input():
    child = spawn_asker()
    child.expect_exact("say> ")
    child.sendline("3 +")
    child.expect_exact("got '3 +'")
    child.expect_exact("say> ")
    child.sendeof()
    child.expect_exact("end of input")
    child.expect(pexpect.EOF)


def test_every_ctrl_c_pressed_as_the_prompt_appears_interrupts_the_wait():
    child = spawn_asker()
    for _ in range(40):
        child.expect_exact("say> ")
        child.sendintr()  # at once: the read may not have begun
        child.expect_exact("interrupted")
    child.expect_exact("say> ")
    child.sendline("still here")
    child.expect_exact("got 'still here'")
    child.sendeof()
    child.expect(pexpect.EOF)


def test_the_wait_watches_the_signal_wakeup_fd_and_gives_it_back(monkeypatch):
    """The wait is on the terminal and on the wakeup fd set for it: a byte there (what Python's
    C-level handler writes for a signal, also one that came before the wait began) ends the
    wait. The wakeup fd in place before is in place again after."""
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    woken, real_select = [], select.select

    def watching(readers, writers, errors, *timeout):
        current = signal.set_wakeup_fd(-1)  # read the wakeup fd in place, and put it back
        signal.set_wakeup_fd(current, warn_on_full_buffer=False)
        if not woken:
            assert current != -1, "no wakeup fd during the wait"
            os.write(current, bytes([signal.SIGINT]))  # as the handler does (its exception aside)
            ready, _, _ = real_select(readers, writers, errors, 5)
            woken.append((list(readers), ready))
            return ready, [], []
        os.write(master, b"a line\n")
        return real_select(readers, writers, errors, *timeout)

    monkeypatch.setattr(keyboard.select, "select", watching)
    before = signal.set_wakeup_fd(-1)
    try:
        with open(os.devnull, "w") as quiet:
            assert keyboard.ask(Console(file=quiet), "say> ", stream=stream) == "a line"
        assert signal.set_wakeup_fd(-1) == -1, "the wakeup fd in place before is in place after"
    finally:
        signal.set_wakeup_fd(before)
        stream.close()
        os.close(master)
    (readers, ready), = woken
    assert readers[0] == slave and len(readers) == 2 and ready == [readers[1]], \
        "the wakeup byte ended the wait, the terminal had nothing yet"
