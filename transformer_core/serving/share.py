"""Each session's share of the server's compute: no one student can take a core away from the class.

    SHARE = ComputeShare.from_env()          # ATLAS_SESSION_COMPUTE_S (20) seconds per ATLAS_SESSION_WINDOW_S (60)
    SHARE.check(owner)                       # OverShare (.wait_s) while owner has used its seconds in the window
    SHARE.charge(owner, seconds)             # after a run: the CPU seconds it took (timed() measures them)

The run-cost model (cost.py) bounds one run at about 10 s of one core; this bounds how often a session may
start such runs.  A student typing sentences uses a fraction of a second a run, far from the share; a session
repeating the heaviest accepted run (benchmarks/bench_class.py --attacker) waits after two of them, and the
class keeps the cores.  Charged is the CPU time a run really took on its worker (cache hits cost nothing).
No Streamlit here: the pages (pages/ui/sentence.py) charge their runs with the session id as the owner.
"""
from __future__ import annotations

import threading
import time
from collections import defaultdict, deque

from .workpool import env_numbers


def timed(fn, *args):
    """fn(*args) and the CPU seconds its thread spent on it (on a worker: torch runs on one thread there, so a
    run's wait in the queue and other sessions' work are not counted)."""
    start = time.thread_time()
    result = fn(*args)
    return result, time.thread_time() - start


class OverShare(RuntimeError):
    """A session that has used its share of compute: .wait_s until it may run again."""

    def __init__(self, wait_s: float):
        super().__init__(f"this session has used its share of the server's compute; wait {wait_s:.0f} s")
        self.wait_s = wait_s


class ComputeShare:
    def __init__(self, seconds: float = 20.0, window_s: float = 60.0, clock=time.monotonic):
        self.seconds, self.window_s, self.clock = seconds, window_s, clock
        self._lock = threading.Lock()
        self._runs: dict[str, deque[tuple[float, float]]] = defaultdict(deque)   # owner -> (ended at, seconds)

    @classmethod
    def from_env(cls, environ=None) -> ComputeShare:
        number = env_numbers(environ)
        return cls(number("ATLAS_SESSION_COMPUTE_S", 20.0), number("ATLAS_SESSION_WINDOW_S", 60.0))

    def _recent(self, owner: str) -> deque:
        runs, start = self._runs[owner], self.clock() - self.window_s
        while runs and runs[0][0] < start:
            runs.popleft()
        return runs

    def used(self, owner: str) -> float:
        with self._lock:
            return sum(s for _, s in self._recent(owner))

    def check(self, owner: str) -> None:
        """OverShare while owner's runs of the last window took its seconds or more; wait_s is when enough of
        them leave the window."""
        with self._lock:
            runs = self._recent(owner)
            over = sum(s for _, s in runs) - self.seconds
            if over < 0:
                return
            for ended, seconds in runs:                 # oldest first: when do they free enough?
                over -= seconds
                if over < 0:
                    raise OverShare(max(1.0, ended + self.window_s - self.clock()))
            raise OverShare(self.window_s)

    def charge(self, owner: str, seconds: float) -> None:
        with self._lock:
            self._recent(owner).append((self.clock(), seconds))

    def forget(self, owner: str) -> None:
        """A closed session's record goes with it."""
        with self._lock:
            self._runs.pop(owner, None)
