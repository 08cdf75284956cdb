"""domain/kernel/memo.py: a memo keeps what it is given, empties itself when full, and a
forked child starts with it empty."""

import os

from domain.kernel.memo import Memo


def test_a_memo_keeps_answers_up_to_its_size_then_starts_again():
    memo = Memo(3)
    assert memo.keep("a", 1) == 1 and memo.get("a") == 1
    memo.keep("b", 2)
    memo.keep("c", 3)
    assert dict(memo) == {"a": 1, "b": 2, "c": 3}
    memo.keep("d", 4)  # full: emptied first
    assert dict(memo) == {"d": 4}


def test_a_forked_child_starts_with_the_memo_empty():
    memo = Memo(10)
    memo.keep("kept", True)
    child = os.fork()
    if child == 0:
        os._exit(1 if memo else 0)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and memo.get("kept") is True
