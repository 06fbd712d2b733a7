"""The server-wide registry of session models (transformer_core/serving/registry.py): bounds per owner and for
the server (count and bytes), fair shares (an owner evicts its own models, then those of owners past their
share, or is refused), notes for the owners, closed owners dropped; the bytes a checkpoint is counted at
(its word counts against tracemalloc)."""
import gzip
import json
import shutil
import threading
import tracemalloc

import pytest
import torch

from transformer_core.checkpoints import seen
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.serving.registry import (
    MAX_EVICTED_NOTES,
    MB,
    ModelRegistry,
    NoRoom,
    TooLarge,
    checkpoint_bytes,
    tensor_bytes,
)


def test_per_owner_bound_evicts_the_owners_least_recently_used():
    reg = ModelRegistry(per_owner=2, max_models=10, max_bytes=100)
    a = reg.add("s1", "a", "A", 1)
    b = reg.add("s1", "b", "B", 1)
    other = reg.add("s2", "x", "X", 1)
    assert reg.get(a) == "A"                    # a used again: b is now s1's least recently used
    c = reg.add("s1", "c", "C", 1)
    assert reg.get(b) is None and reg.get(a) == "A" and reg.get(c) == "C" and reg.get(other) == "X"
    assert reg.take_evicted("s1") == ["b"] and reg.take_evicted("s1") == []
    assert reg.take_evicted("s2") == []


def test_asking_whether_a_model_is_held_does_not_mark_it_used():
    reg = ModelRegistry(per_owner=2, max_models=10, max_bytes=100)
    a = reg.add("s1", "a", "A", 1)
    b = reg.add("s1", "b", "B", 1)
    assert a in reg and b in reg                # a page listing the session's models
    reg.add("s1", "c", "C", 1)
    assert a not in reg and b in reg            # a was still the least recently used


def test_server_bounds_by_count_and_bytes_evict_across_owners_past_their_share():
    reg = ModelRegistry(per_owner=5, max_models=3, max_bytes=10)
    h1 = reg.add("s1", "one", 1, 3)
    h2 = reg.add("s2", "two", 2, 3)
    h3 = reg.add("s3", "three", 3, 3)
    h4 = reg.add("s4", "four", 4, 1)            # 4 sessions, 3/4 of a model each: all past it, s1's least recently used
    assert reg.get(h1) is None and reg.usage() == (3, 7)
    assert reg.take_evicted("s1") == ["one"]
    reg.get(h2)                                 # s2 used: s3's is now the least recently used
    h5 = reg.add("s5", "five", 5, 3)            # s3's goes; then 3 sessions, a model each: s4 and s2 within their share
    assert reg.get(h3) is None and reg.get(h4) == 4 and reg.get(h2) == 2 and reg.get(h5) == 5
    assert reg.usage() == (3, 7)
    assert reg.take_evicted("s3") == ["three"] and reg.take_evicted("s4") == []


def test_one_session_adding_model_after_model_pushes_out_no_one_within_their_share():
    reg = ModelRegistry(max_bytes=1024 * MB)    # 3 models a session; 24 models and 1,024 MB for the server
    class_models = {f"s{i}": reg.add(f"s{i}", f"homework {i}", i, 100 * MB) for i in range(7)}
    for j in range(100):                        # the 8th session, upload after upload (50 to 130 MB)
        reg.add("hog", f"m{j}", j, (50 + j % 5 * 20) * MB)
    assert [reg.get(h) for h in class_models.values()] == list(range(7))
    assert all(reg.take_evicted(owner) == [] for owner in class_models)
    assert len(reg.take_evicted("hog")) == MAX_EVICTED_NOTES and reg.usage()[1] <= reg.max_bytes


def test_the_session_furthest_past_its_share_is_evicted_for_a_newcomer():
    reg = ModelRegistry(per_owner=3, max_models=24, max_bytes=1200)
    within = reg.add("within", "w", "W", 200)                       # the least recently used model
    past = [reg.add("past", f"p{i}", i, 200) for i in range(2)]
    furthest = [reg.add("furthest", f"f{i}", i, 200) for i in range(3)]
    new = reg.add("new", "n", "N", 200)         # 4 sessions, 300 bytes each: furthest (600) before past (400)
    assert reg.get(new) == "N" and reg.get(within) == "W" and [reg.get(h) for h in past] == [0, 1]
    assert [reg.get(h) for h in furthest] == [None, 1, 2] and reg.take_evicted("furthest") == ["f0"]
    second = reg.add("new", "n2", "N2", 200)    # full again: the newcomer's own model goes first
    assert reg.get(second) == "N2" and reg.get(new) is None and reg.take_evicted("new") == ["n"]
    assert reg.take_evicted("within") == [] and reg.take_evicted("past") == []


def test_a_model_that_fits_only_by_evicting_sessions_within_their_share_is_refused_and_nothing_goes():
    reg = ModelRegistry(per_owner=3, max_models=24, max_bytes=1000)
    others = [reg.add("a", "a", "A", 300), reg.add("b", "b", "B", 300)]
    small = reg.add("c", "small", "S", 100)
    with pytest.raises(NoRoom, match="3 sessions hold models") as info:
        reg.add("c", "big", "X", 450)           # 3 sessions, 333 bytes each: a and b are within theirs
    assert isinstance(info.value, ValueError) and (info.value.nbytes, info.value.share_bytes) == (450, 333)
    assert [reg.get(h) for h in (*others, small)] == ["A", "B", "S"] and reg.usage() == (3, 700)
    assert reg.take_evicted("a") == reg.take_evicted("b") == reg.take_evicted("c") == []
    reg.add("c", "fits", "F", 400)              # within what c's own model leaves: it replaces it
    assert reg.get(small) is None and reg.usage() == (3, 1000)


def test_a_model_larger_than_the_server_bound_is_refused_and_nothing_goes():
    reg = ModelRegistry(per_owner=3, max_models=3, max_bytes=10)
    h = reg.add("s1", "a", "A", 5)
    with pytest.raises(TooLarge, match="more than"):
        reg.add("s2", "huge", "H", 11)
    assert reg.get(h) == "A" and reg.usage() == (1, 5)


def test_dropping_an_owner_frees_its_models_and_notes_and_on_drop_runs_however_a_model_leaves():
    reg = ModelRegistry(per_owner=1)
    dropped = []
    reg.add("s1", "a", "A", 1, lambda: dropped.append("a"))
    reg.add("s1", "b", "B", 1, lambda: dropped.append("b"))     # a evicted: a note for s1
    kept = reg.add("s2", "c", "C", 1, lambda: dropped.append("c"))
    assert dropped == ["a"] and reg.owners() == {"s1", "s2"}
    assert reg.drop_owner("s1") == 1 and dropped == ["a", "b"]
    assert reg.owners() == {"s2"} and reg.usage() == (1, 1) and reg.take_evicted("s1") == []
    reg.remove(kept)
    reg.remove(kept)
    assert reg.usage() == (0, 0) and dropped == ["a", "b", "c"]


def test_limits_from_the_environment():
    reg = ModelRegistry.from_env({"ATLAS_MODELS_PER_SESSION": "2", "ATLAS_MODELS_MAX": "5", "ATLAS_MODELS_MAX_MB": "64"})
    assert (reg.per_owner, reg.max_models, reg.max_bytes) == (2, 5, 64 * MB)
    reg = ModelRegistry.from_env({"ATLAS_MODELS_MAX": "lots"})
    assert (reg.per_owner, reg.max_models, reg.max_bytes) == (3, 24, 384 * MB)


def test_tensor_bytes_counts_parameters_and_buffers():
    layer = torch.nn.BatchNorm1d(4)             # 8 float32 parameters, 9 buffers (one int64)
    assert tensor_bytes(layer) == 8 * 4 + 8 * 4 + 8


def test_many_threads_never_break_the_bounds():
    reg = ModelRegistry(per_owner=2, max_models=6, max_bytes=50)

    def session(i):
        for j in range(50):
            reg.get(reg.add(f"s{i}", f"m{j}", j, 1 + j % 7))
            assert reg.usage()[0] <= 6 and reg.usage()[1] <= 50

    threads = [threading.Thread(target=session, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    count, nbytes = reg.usage()
    assert count <= 6 and nbytes <= 50


def test_the_word_counts_are_counted_as_the_memory_they_take(toy_checkpoints, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(toy_checkpoints / "toy-en", folder)
    without = checkpoint_bytes(load_checkpoint(folder))
    words = {f"{word}{i}": 1000 + i for i in range(50_000) for word in ("word", "낱말")}  # 100,000 words
    with gzip.open(folder / seen.WORDS, "wt", encoding="utf-8") as f:
        json.dump({"lang": "en", "sentences": 1, "words": words}, f, ensure_ascii=False)
    tracemalloc.start()
    loaded = seen.load(folder / seen.WORDS)
    measured = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert loaded == words
    counted = checkpoint_bytes(load_checkpoint(folder)) - without
    assert measured <= counted <= 3 * measured, (measured, counted)
