"""How long the read models keep a finished match's log (ARBITER_RETAIN_ENDED_LOGS_SECONDS).

A finished match's log (`log:{id}`: every event with its public form, commitment and hashes)
is most of what the read models hold of it, and they kept it forever: the capacity model's
first bottleneck (docs/capacity.md). Once a match has been finished for the retention time,
`trim_ended_logs` deletes its log (projections/queries.py then finds no record where its
document says there are some). Its log is then read from the event store, as the API reads any match the models lack (`"source": "event_store"`);
its document (the board, the list entry), counters, indexes, player records and ratings stay.

Unset, logs stay forever (as before). A finished match takes no more events, so its log
changes only here: the trim needs no tracking position, and two projectors trimming the same
match do the same thing. A following projector trims one batch each time it is caught up, so
a backlog (retention turned on over years of matches) never holds up new events. Matches that finished before the index of ends existed
(`idx:ended`, written by the matches projection) are trimmed after a rebuild of it.
"""

import os
import time

from .batch import Batch
from .models import ENDED_INDEX

RETENTION_VARIABLE = "ARBITER_RETAIN_ENDED_LOGS_SECONDS"
TRIM_EVERY_SECONDS = 60.0  # how often a following projector looks for logs past retention
TRIM_BATCH = 500  # matches trimmed in one commit


def retention_seconds(environ=os.environ) -> float | None:
    """The configured retention; None when unset (keep every log)."""
    value = environ.get(RETENTION_VARIABLE)
    if value in (None, ""):
        return None
    seconds = float(value)
    if seconds < 0:
        raise ValueError(f"{RETENTION_VARIABLE} must be 0 or more seconds, not {value!r}")
    return seconds


def trim_ended_logs(models, keep_seconds: float, now: float | None = None, batches: int | None = None) -> int:
    """Delete the logs of matches finished more than `keep_seconds` ago, TRIM_BATCH at a time,
    in one commit each, until none is due or `batches` commits are made; how many were trimmed."""
    cutoff = (time.time() if now is None else now) - keep_seconds
    trimmed, made = 0, 0
    while batches is None or made < batches:
        due = models.index_page(ENDED_INDEX, float("-inf"), cutoff, 0, TRIM_BATCH)  # oldest first
        if not due:
            break
        batch = Batch()
        for match_id in due:
            batch.drop_list(f"log:{match_id}")
            batch.unindex(ENDED_INDEX, match_id)
        models.commit(batch, {})
        trimmed, made = trimmed + len(due), made + 1
    return trimmed
