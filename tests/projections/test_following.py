"""How the projector follows the store while nothing happens, and when this process saves."""

import threading
import time

from domain.kernel.store import MatchStore
from projections.projector import LeaderLock, Projector, start_embedded
from projections.readstore import open_read_store
from service.matches import Arbiter


def projector_on(sqlite_env, tmp_path):
    store = MatchStore(sqlite_env)
    return Projector(store, open_read_store(sqlite_env, tmp_path)), Arbiter(store)


def test_an_idle_projector_looks_less_and_less_often(sqlite_env, tmp_path):
    # Caught up, it waited 5 ms between looks for ever (200 reads of the stores a second); now
    # the wait doubles after each empty look, up to 0.1 s: about a dozen looks in a second.
    # The waits are those it asks for: how long they take beside the looks is the machine's.
    projector, _ = projector_on(sqlite_env, tmp_path)
    looks, waits = [], []
    run_once = projector.run_once
    projector.run_once = lambda: looks.append(time.monotonic()) or run_once()

    class NotingWaits(threading.Event):  # the wake-up it waits on between looks
        def wait(self, timeout=None):
            waits.append(timeout)
            return super().wait(timeout)

    stop = threading.Event()
    thread = threading.Thread(target=projector.run_forever, args=(stop,), kwargs={"woken": NotingWaits()})
    thread.start()
    time.sleep(1.0)
    stop.set()
    thread.join(5)
    assert 5 <= len(looks) <= 30, f"{len(looks)} looks in a second of nothing to do"
    assert waits[:6] == [0.005, 0.01, 0.02, 0.04, 0.08, 0.1] and set(waits[6:]) <= {0.1}, waits


def test_a_save_by_this_process_wakes_the_embedded_projector_at_once(sqlite_env, tmp_path):
    # Idle for 2.6 s, its waits have grown to 2.56 s (5 ms doubled nine times; the longest is
    # set to a minute): a look without the wake-up comes 2.5 s after the save, later than the
    # 1.5 s this test gives the new match to be projected.
    projector, arbiter = projector_on(sqlite_env, tmp_path)
    before = set(threading.enumerate())
    running = start_embedded(projector, LeaderLock(tmp_path / "projector.lock"), longest_idle_seconds=60)
    (follower,) = [t for t in set(threading.enumerate()) - before if t.name == "arbiter-projector"]
    try:
        time.sleep(2.6)
        match_id = arbiter.create_match("cyberiad", ["ann", "bob"])["match_id"]
        deadline = time.monotonic() + 1.5
        while projector.models.get(f"match:{match_id}") is None:
            assert time.monotonic() < deadline, "the save did not wake the projector"
            time.sleep(0.02)
    finally:
        running.stop()  # wakes it out of its idle wait (a minute by now) and waits for it
        assert not follower.is_alive()
