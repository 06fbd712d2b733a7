"""The models sessions loaded themselves (uploads, Hub pulls), held once for the whole server.

    registry = ModelRegistry(per_owner=3, max_models=24, max_bytes=384 * MB)   # or ModelRegistry.from_env()
    handle = registry.add(owner, label, ckpt, nbytes, on_drop)   # may evict; TooLarge, NoRoom if it cannot fit
    registry.get(handle)                               # the model, or None once evicted (marks it used)
    handle in registry                                 # still held? (does not mark it used)
    registry.take_evicted(owner)                       # labels of owner's models evicted since last asked
    registry.drop_owner(owner)                         # a closed session: all its models go

Bounds: per owner (a session) by count, and for the whole server by count and by bytes (checkpoint_bytes:
the models' parameters and buffers, and the Python objects a checkpoint holds, its word counts included).

Fair shares: with n owners holding models (the one adding included), an owner's share is max_models / n
models and max_bytes / n bytes.  A model that does not fit first evicts its own owner's models, least
recently used first (as the per_owner bound does); then, one at a time, the least recently used model of
the owner furthest past its share (by the larger of its models / max_models * n and its bytes /
max_bytes * n).  An owner within its share is never evicted for another's model.  If the model still does
not fit, every other owner is within its share, which can happen only for a model larger than a share of
the bytes: the add is refused (NoRoom) and nothing is evicted.  So one session uploading model after
model only replaces its own.

Evicted models' labels are kept for take_evicted(), so the owner's page can say what was removed.  An
owner only holds handles; the models live here, behind one lock.  No Streamlit here: the pages
(pages/ui/model_state.py) use the session id as the owner.  on_drop() is called (outside the lock) when a
model leaves, however it leaves: the pages remove its uploaded files with it.
"""
from __future__ import annotations

import sys
import threading
import uuid
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from .workpool import env_numbers

MB = 1024 * 1024
MAX_EVICTED_NOTES = 8           # labels remembered per owner until it asks


class TooLarge(ValueError):
    """A model larger than the server's whole byte bound."""

    def __init__(self, nbytes: int, max_bytes: int):
        super().__init__(f"the model needs {nbytes / MB:.0f} MB, more than the {max_bytes / MB:.0f} MB "
                         "this server keeps for uploaded models in all")
        self.nbytes, self.max_bytes = nbytes, max_bytes


class NoRoom(ValueError):
    """A model that fits only by evicting models of other owners within their fair share."""

    def __init__(self, nbytes: int, share_bytes: int, owners: int):
        super().__init__(f"the model needs {nbytes / MB:.0f} MB; {owners} sessions hold models, so a session's share "
                         f"is {share_bytes / MB:.0f} MB, and the other sessions are within theirs")
        self.nbytes, self.share_bytes, self.owners = nbytes, share_bytes, owners


def tensor_bytes(module) -> int:
    """Bytes of a torch module's parameters and buffers."""
    return sum(t.numel() * t.element_size() for t in (*module.parameters(), *module.buffers()))


def checkpoint_bytes(ckpt) -> int:
    """What a loaded checkpoint keeps in memory: its tensors, and the Python objects it holds (card, examples,
    training record, gold alignments, decoding options, word counts, the tokenizer's vocabularies)."""
    held = [ckpt.card, ckpt.examples, ckpt.training, ckpt.gold, ckpt.search, ckpt.words, ckpt.prepared,
            vars(ckpt.tokenizer)]
    return tensor_bytes(ckpt.model) + python_bytes(held)


def python_bytes(value) -> int:
    """Bytes of a JSON-like value (dicts, lists, tuples, str, numbers) and of everything in it: each object's
    sys.getsizeof, rounded up to the allocator's 16-byte blocks.  A word of a word-count dict costs its str,
    its int and its slot in the dict's table, about 130 B (tests/test_registry.py checks the sum against
    tracemalloc).  An object met twice (a small int, a piece in two vocabularies) is counted twice: an
    estimate from above."""
    total, todo = 0, [value]
    while todo:                                     # no recursion: a deep training record cannot overflow it
        item = todo.pop()
        total += -(-sys.getsizeof(item) // 16) * 16
        if isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
    return total


@dataclass
class _Entry:
    owner: str
    label: str
    value: object
    nbytes: int
    on_drop: Callable[[], None] | None


class ModelRegistry:
    def __init__(self, per_owner: int = 3, max_models: int = 24, max_bytes: int = 384 * MB):
        self.per_owner, self.max_models, self.max_bytes = max(1, per_owner), max(1, max_models), max_bytes
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, _Entry] = OrderedDict()      # least recently used first
        self._evicted: dict[str, list[str]] = {}

    @classmethod
    def from_env(cls, environ=None) -> ModelRegistry:
        """ATLAS_MODELS_PER_SESSION (3), ATLAS_MODELS_MAX (24), ATLAS_MODELS_MAX_MB (384: docs/security.md)."""
        number = env_numbers(environ)
        return cls(int(number("ATLAS_MODELS_PER_SESSION", 3)), int(number("ATLAS_MODELS_MAX", 24)),
                   int(number("ATLAS_MODELS_MAX_MB", 384) * MB))

    def add(self, owner: str, label: str, value, nbytes: int, on_drop: Callable[[], None] | None = None) -> str:
        if nbytes > self.max_bytes:
            raise TooLarge(nbytes, self.max_bytes)
        handle = uuid.uuid4().hex
        with self._lock:
            gone = [self._evict(h) for h in self._room_for(owner, nbytes)]
            self._entries[handle] = _Entry(owner, label, value, nbytes, on_drop)
        _dropped(gone)
        return handle

    def __contains__(self, handle: str) -> bool:
        """Whether the model is still held (without marking it used, as get() does)."""
        with self._lock:
            return handle in self._entries

    def get(self, handle: str):
        with self._lock:
            entry = self._entries.get(handle)
            if entry is None:
                return None
            self._entries.move_to_end(handle)
            return entry.value

    def remove(self, handle: str) -> None:
        with self._lock:
            entry = self._entries.pop(handle, None)
        _dropped([entry] if entry else [])

    def drop_owner(self, owner: str) -> int:
        """Remove all of owner's models (and its notes); -> how many."""
        with self._lock:
            gone = [self._entries.pop(h) for h, e in list(self._entries.items()) if e.owner == owner]
            self._evicted.pop(owner, None)
        _dropped(gone)
        return len(gone)

    def take_evicted(self, owner: str) -> list[str]:
        with self._lock:
            return self._evicted.pop(owner, [])

    def owners(self) -> set[str]:
        with self._lock:
            return {e.owner for e in self._entries.values()} | set(self._evicted)

    def usage(self) -> tuple[int, int]:
        """(models held, their bytes)."""
        with self._lock:
            return len(self._entries), self._bytes()

    def _bytes(self) -> int:
        return sum(e.nbytes for e in self._entries.values())

    def _room_for(self, owner: str, nbytes: int) -> list[str]:
        """The models to evict for owner's new model of nbytes (the module's rule), or NoRoom."""
        kept = dict(self._entries)                              # least recently used first

        def fits() -> bool:
            return len(kept) < self.max_models and sum(e.nbytes for e in kept.values()) + nbytes <= self.max_bytes

        own = [h for h, e in kept.items() if e.owner == owner]
        while own and (len(own) >= self.per_owner or not fits()):
            del kept[own.pop(0)]
        while not fits():                                       # owner holds no other model now
            owners = len({e.owner for e in kept.values()}) + 1
            worst, past = self._furthest_past_share(kept, owners)
            if past <= 1:
                raise NoRoom(nbytes, self.max_bytes // owners, owners)
            del kept[next(h for h, e in kept.items() if e.owner == worst)]
        return [h for h in self._entries if h not in kept]

    def _furthest_past_share(self, kept: dict[str, _Entry], owners: int) -> tuple[str, float]:
        """The owner in kept furthest past its share, and how far (past it: above 1); of equals, the one
        whose oldest model was used least recently."""
        count, size = Counter(), Counter()
        for e in kept.values():
            count[e.owner] += 1
            size[e.owner] += e.nbytes
        past = {o: max(count[o] * owners / self.max_models, size[o] * owners / self.max_bytes) for o in count}
        worst = max(past, key=past.get)
        return worst, past[worst]

    def _evict(self, handle: str) -> _Entry:
        entry = self._entries.pop(handle)
        notes = self._evicted.setdefault(entry.owner, [])
        notes.append(entry.label)
        del notes[:-MAX_EVICTED_NOTES]
        return entry


def _dropped(entries: list[_Entry]) -> None:
    for entry in entries:
        if entry.on_drop is not None:
            entry.on_drop()
