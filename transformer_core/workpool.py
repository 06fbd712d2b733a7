"""Model computation for many sessions at once: a few worker threads, a bounded queue, a time limit.

    pool = WorkPool(workers=2, queue=16, timeout_s=30)      # or WorkPool.from_env()
    result = pool.run(fn, *args)                            # fn(*args) on a worker, or Busy

run() raises Busy at once when workers + queue requests are already in (the queue is full), and after
timeout_s when the result has not come (the request waited in the queue, or ran, too long).  A request
given up on still runs to its end on its worker and holds its place until then: a long input takes one
worker, never all of them, and nothing is cut in the middle.  No Streamlit here; fn sets torch's
threads itself (pages/ui/sentence.py: one_thread()).
"""
from __future__ import annotations

import concurrent.futures
import os
import threading


class Busy(RuntimeError):
    """The server is busy: the queue is full, or the time limit passed."""

    def __init__(self, reason: str):
        super().__init__(f"the server is busy ({reason})")
        self.reason = reason                 # "queue_full" | "timeout"


def env_numbers(environ=None):
    """number(name, default): the environment variable `name` as a number, or `default` when unset or
    not a number (the bounds of registry.py and of this pool are set this way)."""
    environ = os.environ if environ is None else environ

    def number(name: str, default: float) -> float:
        try:
            return float(environ.get(name, "") or default)
        except ValueError:
            return default

    return number


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class WorkPool:
    def __init__(self, workers: int, queue: int, timeout_s: float):
        self.workers, self.queue, self.timeout_s = max(1, workers), max(0, queue), timeout_s
        self._slots = threading.BoundedSemaphore(self.workers + self.queue)
        self._executor = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="atlas-compute")

    @classmethod
    def from_env(cls, environ=None) -> "WorkPool":
        """ATLAS_COMPUTE_WORKERS (the cores), ATLAS_COMPUTE_QUEUE (16 per worker), ATLAS_COMPUTE_TIMEOUT_S (30)."""
        number = env_numbers(environ)
        workers = int(number("ATLAS_COMPUTE_WORKERS", cores()))
        return cls(workers, int(number("ATLAS_COMPUTE_QUEUE", 16 * max(1, workers))),
                   number("ATLAS_COMPUTE_TIMEOUT_S", 30))

    def run(self, fn, *args):
        if not self._slots.acquire(blocking=False):
            raise Busy("queue_full")
        try:
            future = self._executor.submit(fn, *args)
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _: self._slots.release())
        try:
            return future.result(timeout=self.timeout_s)
        except concurrent.futures.TimeoutError:
            raise Busy("timeout") from None
