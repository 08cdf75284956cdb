"""Waking live streams when a match has new events.

Streams always read the events from the event store (the truth) after the last id they
sent, so a missed wake-up costs latency, never an event. With Redis, the projector
publishes on `events:<match_id>` after each commit; without it, streams poll.
"""

import time

import redis

from projections.readstore import RedisReadStore

POLL_SECONDS = 0.1


class PollingWaiter:
    def wait(self, timeout: float) -> None:
        time.sleep(min(timeout, POLL_SECONDS))

    def close(self) -> None:
        pass


class RedisWaiter:
    def __init__(self, store: RedisReadStore, match_id: str):
        self.pubsub = store.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(store.prefix + f"events:{match_id}")

    def wait(self, timeout: float) -> None:
        try:
            self.pubsub.get_message(timeout=timeout)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            PollingWaiter().wait(timeout)  # Redis is down: fall back to polling

    def close(self) -> None:
        try:
            self.pubsub.close()
        except redis.exceptions.RedisError:
            pass


class Wakeups:
    def __init__(self, store):
        self.store = store

    def waiter(self, match_id: str):
        if isinstance(self.store, RedisReadStore):
            try:
                return RedisWaiter(self.store, match_id)
            except redis.exceptions.RedisError:
                pass
        return PollingWaiter()

