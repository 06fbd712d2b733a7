"""Model computation for many sessions at once: a few workers, a bounded queue, a time limit.

    pool = WorkPool(workers=2, queue=16, timeout_s=30)      # threads, or WorkPool.from_env()
    low = WorkPool(2, 16, 30, initializer=os.nice, initargs=(10,))   # f(*initargs) starts each thread (Linux: nice
                                                            # is the calling thread's own, not the process's)
    procs = WorkPool(1, 16, 30, processes=True)             # worker processes, or WorkPool.processes_from_env()
    lane = WorkPool(1, 4, 30, processes=True, initializer=f, initargs=(1,))   # f(*initargs) starts each process
    result = pool.run(fn, *args)                            # fn(*args) on a worker, or Busy

Threads share the server's objects (a session's own model) but also its GIL: a model's many small torch
calls then wait on the server's thread at every call.  Worker processes (spawned: a fresh interpreter,
no threads inherited) have a GIL and a core of their own; fn and its arguments must pickle (a module's
function and a checkpoint's folder, not the model).  A worker process that dies (killed, out of memory)
answers Busy("worker_lost") and the pool starts new ones.

run() raises Busy at once when workers + queue requests are already in (the queue is full), and after
timeout_s when the result has not come (the request waited in the queue, or ran, too long).  A request
given up on still runs to its end on its worker and holds its place until then: a long input takes one
worker, never all of them, and nothing is cut in the middle.  No Streamlit here; fn sets torch's
threads itself (transformer_core/serving/runs.py: one_thread()).
"""
from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import os
import threading
from concurrent.futures.process import BrokenProcessPool


class Busy(RuntimeError):
    """The server is busy: the queue is full, or the time limit passed."""

    def __init__(self, reason: str):
        super().__init__(f"the server is busy ({reason})")
        self.reason = reason                 # "queue_full" | "timeout" | "worker_lost"


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


def cores(cpu_max: str = "/sys/fs/cgroup/cpu.max") -> int:
    """The cores this process may use: those it may run on, fewer under a container's CPU limit (cgroup v2
    cpu.max "200000 100000" is 2 cores; Kubernetes' limits.cpu and compose's cpus write it)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:
        n = os.cpu_count() or 1
    try:
        with open(cpu_max) as f:
            quota, period = f.read().split()
        if quota != "max":
            n = min(n, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return n


class WorkPool:
    def __init__(self, workers: int, queue: int, timeout_s: float, processes: bool = False,
                 initializer=None, initargs: tuple = ()):
        self.workers, self.queue, self.timeout_s = max(1, workers), max(0, queue), timeout_s
        self.processes, self.initializer, self.initargs = processes, initializer, initargs
        self._slots = threading.BoundedSemaphore(self.workers + self.queue)
        self._lock = threading.Lock()
        self._executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.processes:
            return concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                          initializer=self.initializer, initargs=self.initargs)
        return concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="atlas-compute",
                                                     initializer=self.initializer, initargs=self.initargs)

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """New worker processes for the broken pool (once, however many requests saw it break)."""
        with self._lock:
            if self._executor is broken:
                self._executor = self._new_executor()
        broken.shutdown(wait=False, cancel_futures=True)

    @classmethod
    def from_env(cls, environ=None, **start) -> WorkPool:
        """ATLAS_COMPUTE_WORKERS (the cores), ATLAS_COMPUTE_QUEUE (16 per worker), ATLAS_COMPUTE_TIMEOUT_S (30);
        start: initializer and initargs, run first on each worker thread."""
        number = env_numbers(environ)
        return cls._sized(number, int(number("ATLAS_COMPUTE_WORKERS", cores())), **start)

    @classmethod
    def _sized(cls, number, workers: int, processes: bool = False, **start) -> WorkPool:
        """A pool of `workers` with ATLAS_COMPUTE_QUEUE (16 per worker) and ATLAS_COMPUTE_TIMEOUT_S (30)."""
        return cls(workers, int(number("ATLAS_COMPUTE_QUEUE", 16 * max(1, workers))),
                   number("ATLAS_COMPUTE_TIMEOUT_S", 30), processes, **start)

    @classmethod
    def processes_from_env(cls, environ=None, variable: str = "ATLAS_COMPUTE_PROCESSES", default: int | None = None,
                           **start) -> WorkPool | None:
        """`variable` worker processes (default: the cores less one, which Streamlit's own thread needs), with
        the queue and time limit of from_env() and start (initializer, initargs); None for 0 (one core: use
        threads), and where processes cannot be made."""
        number = env_numbers(environ)
        workers = int(number(variable, cores() - 1 if default is None else default))
        if workers < 1:
            return None
        try:
            return cls._sized(number, workers, processes=True, **start)
        except (OSError, ImportError, NotImplementedError):    # no working sem_open (a container without /dev/shm)
            return None

    def run(self, fn, *args):
        if not self._slots.acquire(blocking=False):
            raise Busy("queue_full")
        executor = self._executor
        try:
            future = executor.submit(fn, *args)
        except BrokenProcessPool:
            self._slots.release()
            self._replace(executor)
            raise Busy("worker_lost") from None
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _: self._slots.release())
        try:
            return future.result(timeout=self.timeout_s)
        except concurrent.futures.TimeoutError:
            raise Busy("timeout") from None
        except BrokenProcessPool:
            self._replace(executor)
            raise Busy("worker_lost") from None
