"""The compute pool (transformer_core/workpool.py): results and errors come back, a full queue and a
passed time limit answer Busy at once instead of waiting, and a long request holds one worker only."""
import threading
import time

import pytest

from transformer_core.workpool import Busy, WorkPool, cores


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
