"""The compute pool (transformer_core/serving/workpool.py): results and errors come back, a full queue and a
passed time limit answer Busy at once instead of waiting, and a long request holds one worker only."""
import os
import threading
import time

import pytest

from transformer_core.serving.workpool import Busy, WorkPool, cores


def test_results_and_errors_come_back():
    pool = WorkPool(workers=2, queue=2, timeout_s=10)
    assert pool.run(sum, [1, 2, 3]) == 6
    with pytest.raises(ZeroDivisionError):
        pool.run(lambda: 1 / 0)
    assert pool.run(threading.current_thread).name.startswith("atlas-compute")


def test_a_full_queue_is_busy_at_once_and_frees_when_the_work_ends():
    pool = WorkPool(workers=1, queue=1, timeout_s=0.05)
    gate = threading.Event()
    for _ in range(2):                          # one running, one queued: both given up on (timeout)
        with pytest.raises(Busy) as err:
            pool.run(gate.wait)
        assert err.value.reason == "timeout"
    with pytest.raises(Busy) as err:
        pool.run(sum, [1])                      # no place left: refused without waiting
    assert err.value.reason == "queue_full"
    gate.set()                                  # the abandoned requests end and give their places back
    deadline = time.monotonic() + 10
    while True:
        try:
            assert pool.run(sum, [1, 1]) == 2
            break
        except Busy:
            assert time.monotonic() < deadline
            time.sleep(0.01)


def test_a_long_request_leaves_the_other_workers_free():
    pool = WorkPool(workers=2, queue=0, timeout_s=10)
    gate = threading.Event()
    done = []
    long = threading.Thread(target=lambda: done.append(pool.run(gate.wait, 30)))
    long.start()
    try:
        for _ in range(20):                     # another session's short requests still go through
            assert pool.run(sum, [2, 3]) == 5
    finally:
        gate.set()
        long.join()
    assert done == [True]


def test_limits_from_the_environment():
    pool = WorkPool.from_env({"ATLAS_COMPUTE_WORKERS": "3", "ATLAS_COMPUTE_QUEUE": "5", "ATLAS_COMPUTE_TIMEOUT_S": "2.5"})
    assert (pool.workers, pool.queue, pool.timeout_s) == (3, 5, 2.5)
    pool = WorkPool.from_env({})
    assert (pool.workers, pool.queue, pool.timeout_s) == (cores(), 16 * cores(), 30)


def test_a_thread_pools_initializer_lowers_the_priority_of_its_own_threads_only():
    """pages/ui/sentence.py's GRADIENTS: integrated gradients on threads at nice 10, the server's other threads
    as they were (Linux: a thread's nice value is its own)."""
    mine = os.nice(0)
    pool = WorkPool(workers=2, queue=0, timeout_s=10, initializer=os.nice, initargs=(10,))
    assert pool.run(os.nice, 0) == min(19, mine + 10)
    assert os.nice(0) == mine and WorkPool(1, 0, 10).run(os.nice, 0) == mine


def test_worker_processes_run_elsewhere_and_come_back_after_one_dies():
    pool = WorkPool(workers=1, queue=1, timeout_s=60, processes=True)
    worker = pool.run(os.getpid)
    assert worker != os.getpid() and pool.run(sum, [1, 2]) == 3
    with pytest.raises(Busy) as err:
        pool.run(os._exit, 1)                   # the worker process dies (as if killed for memory)
    assert err.value.reason == "worker_lost"
    assert pool.run(os.getpid) not in (worker, os.getpid())    # a new worker took its place


def test_worker_processes_from_the_environment():
    assert WorkPool.processes_from_env({"ATLAS_COMPUTE_PROCESSES": "0"}) is None
    pool = WorkPool.processes_from_env({"ATLAS_COMPUTE_PROCESSES": "2", "ATLAS_COMPUTE_TIMEOUT_S": "5"})
    assert (pool.workers, pool.queue, pool.timeout_s, pool.processes) == (2, 32, 5, True)
    default = WorkPool.processes_from_env({})
    assert default is None if cores() == 1 else default.workers == cores() - 1


@pytest.mark.parametrize("cpu_max, limit", [("200000 100000\n", 2), ("150000 100000\n", 2), ("50000 100000\n", 1),
                                            ("max 100000\n", None), (None, None)])
def test_cores_follow_a_containers_cpu_limit(tmp_path, cpu_max, limit):
    path = tmp_path / "cpu.max"
    if cpu_max is not None:
        path.write_text(cpu_max)
    free = len(os.sched_getaffinity(0))
    assert cores(str(path)) == (min(free, limit) if limit else free)


def test_no_worker_processes_where_they_cannot_be_made(monkeypatch):
    import concurrent.futures

    def no_sem_open(*args, **kwargs):
        raise ImportError("This platform lacks a functioning sem_open implementation")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_sem_open)
    assert WorkPool.processes_from_env({"ATLAS_COMPUTE_PROCESSES": "1"}) is None
