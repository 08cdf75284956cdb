"""The provably fair random stream (DESIGN: "Randomness" and "Export and independent verification").

key = seed, or sha256(seed + each seat's entropy in seat order, UTF-8) when any seat gave some.
Block k of the event with sequence number s is HMAC-SHA256(key, f"{match_id}:{s}:{k}");
its first 8 bytes, big-endian, are a u64 x. randbelow(n) rejects x >= (2**64 // n) * n
and takes the next block, else returns x % n. shuffle is Fisher-Yates from the last
index down to 1 with j = randbelow(i + 1).
"""

import hashlib
import hmac
import secrets

U64 = 2**64


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def stream_key(seed: bytes, entropy_in_seat_order: list[str]) -> bytes:
    if not any(entropy_in_seat_order):
        return seed
    return hashlib.sha256(seed + "".join(entropy_in_seat_order).encode("utf-8")).digest()


BOT_SEED_LABEL = "arbiter served bots"


def bot_seed(seed: bytes, match_id: str, version: int) -> bytes:
    """The seed of a served bot's own generator when it acts at `version`: HMAC-SHA256(seed,
    f"arbiter served bots:{match_id}:{version}"). The same in every process, secret while the
    match runs, and recomputable by anyone once the seed is revealed. A generator seeded from
    the public id and version let any seat rerun the bot on a guessed hand and test the guess
    against the move it made."""
    return hmac.new(seed, f"{BOT_SEED_LABEL}:{match_id}:{version}".encode("ascii"), hashlib.sha256).digest()


class RandomStream:
    """Random numbers for one event: every draw is reproducible from (key, match id, seq)."""

    def __init__(self, key: bytes, match_id: str, seq: int):
        self._key = key
        self._prefix = f"{match_id}:{seq}:"
        self.blocks_used = 0

    def _next_u64(self) -> int:
        message = (self._prefix + str(self.blocks_used)).encode("ascii")
        self.blocks_used += 1
        block = hmac.new(self._key, message, hashlib.sha256).digest()
        return int.from_bytes(block[:8], "big")

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = (U64 // n) * n
        while True:
            x = self._next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items) -> list:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.randbelow(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def choice(self, items):
        items = list(items)
        return items[self.randbelow(len(items))]
