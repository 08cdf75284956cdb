"""What every read-model store (projections/readstore.py: SQLite; projections/redis_store.py:
Redis) takes and raises: a Batch of changes committed with the projections' new tracking
positions, and the two failures a projector handles."""


class ReadStoreUnavailable(Exception):
    """The read-model store cannot be reached (e.g. Redis is down)."""


class ProjectionConflict(Exception):
    """Another projector committed first; the batch is dropped and read again."""


class Batch:
    """Changes to commit atomically, with the new tracking positions."""

    def __init__(self):
        self.docs: dict[str, dict | None] = {}
        self.appends: list[tuple[str, dict]] = []
        self.dropped_lists: list[str] = []  # removed before this batch's appends
        self.increments: dict[tuple[str, str], int] = {}
        # The last word on each (index, member) in this batch wins: a match created and ended
        # in one batch leaves the running index it entered, whatever order the stores apply.
        self._index_changes: dict[tuple[str, str], float | None] = {}
        self.positions: dict[str, int] = {}

    def set(self, key: str, doc: dict) -> None:
        self.docs[key] = doc

    def append(self, key: str, item: dict) -> None:
        self.appends.append((key, item))

    def drop_list(self, key: str) -> None:
        self.dropped_lists.append(key)

    def incr(self, key: str, field: str, by: int = 1) -> None:
        self.increments[(key, field)] = self.increments.get((key, field), 0) + by

    def index(self, name: str, member: str, score: float) -> None:
        self._index_changes[(name, member)] = score

    def unindex(self, name: str, member: str) -> None:
        self._index_changes[(name, member)] = None

    @property
    def indexed(self) -> list[tuple[str, str, float]]:
        return [(name, member, score) for (name, member), score in self._index_changes.items() if score is not None]

    @property
    def unindexed(self) -> list[tuple[str, str]]:
        return [key for key, score in self._index_changes.items() if score is None]
