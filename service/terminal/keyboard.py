"""A line typed at the terminal, where a Ctrl-C pressed at any moment is never lost.

`input()` can lose a Ctrl-C. A SIGINT that arrives after the prompt is on the screen but before
input's read has begun is only noted (Python's C-level handler sets a flag); the read then
waits for a line the person never types, with "^C" on the screen. It took a loaded machine
to show (tests/terminal, a person pressing Ctrl-C as soon as the menu appears), but then it
happened on the first try. Here the wait is a `select` on the terminal and on the signal
wakeup fd, set before the prompt is written: a SIGINT at any moment from then on leaves a byte
there, so the wait ends, and Python's own handler raises KeyboardInterrupt as usual. Before
that moment a SIGINT is raised while the prompt is written."""

import os
import select
import signal
import sys
import threading

from rich.console import Console
from rich.text import Text


def ask(console: Console, prompt: str, stream=None) -> str:
    """Print `prompt` (bold) and return the line typed, without its newline (as
    `console.input`); EOFError at the end of input, KeyboardInterrupt on Ctrl-C."""
    stream = stream or sys.stdin
    if not _terminal(stream) or threading.current_thread() is not threading.main_thread():
        # Typed ahead into a pipe or a file, lines may wait in the stream's buffer, unseen by a
        # select; and only the main thread is told of signals. input() there, as before.
        return console.input(Text(prompt, style="bold"))
    fd = stream.fileno()
    wakeup, wakeup_w = os.pipe()
    os.set_blocking(wakeup_w, False)
    previous = signal.set_wakeup_fd(wakeup_w, warn_on_full_buffer=False)
    try:
        console.print(Text(prompt, style="bold"), end="")
        while True:
            ready, _, _ = select.select([fd, wakeup], [], [])  # a signal during the wait: raised here
            if wakeup in ready:
                os.read(wakeup, 64)
                continue  # a signal noted before the wait: its handler runs at this jump back
            line = stream.readline()  # a terminal gives one whole line a read (or the end of input)
            if not line:
                raise EOFError
            return line[:-1] if line.endswith("\n") else line
    finally:
        signal.set_wakeup_fd(previous)
        os.close(wakeup)
        os.close(wakeup_w)


def _terminal(stream) -> bool:
    try:
        return os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):  # not a file (a test's StringIO)
        return False
