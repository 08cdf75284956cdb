"""Seat, host and admin tokens: bearer secrets, stored only as their SHA-256."""

import hashlib
import hmac


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_opens(token: str | None, stored_hash: str) -> bool:
    """Whether `token` is the one whose hash was stored (an empty hash opens nothing)."""
    return bool(token and stored_hash) and hmac.compare_digest(hash_token(token), stored_hash)
