"""The pages' model runs (transformer_core/serving/runs.py) on a worker process give what they give in the
server's own process, and a worker reloads a bundled folder whose files changed."""
import shutil

import numpy as np
import pytest
import torch

from transformer_core.checkpoints.folder import save_checkpoint
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.model.transformer import Transformer
from transformer_core.serving import runs
from transformer_core.serving.workpool import WorkPool

pytestmark = pytest.mark.usefixtures("one_thread")
TEXT = "the cat sees the car."


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        all(np.array_equal(a[k][kind], b[k][kind]) for kind in a[k]) if k == "attn" else a[k] == b[k] for k in a)


@pytest.fixture(scope="module")
def pool() -> WorkPool:
    """One worker process for the module's tests (a process takes ~2.5 s to start and import torch), started as
    the OWN lane's process is (pages/ui/sentence.py): runs.worker(1, 10)."""
    return WorkPool(workers=1, queue=0, timeout_s=120, processes=True, initializer=runs.worker, initargs=(1, 10))


@pytest.mark.parametrize("kind", ["translation", "steps"])
def test_a_worker_process_runs_the_folder_as_the_server_would(toy_checkpoints, pool, kind):
    folder = str(toy_checkpoints / "toy-en")
    there = pool.run(runs.run_folder, kind, folder, TEXT, 1, ())
    here = runs.RUNS[kind](load_checkpoint(folder), TEXT, 1, ())
    if kind == "translation":
        assert same(there, here) and there["attn"]["cross"].shape[-1] == len(here["src_ids"])
    else:
        assert there["out_ids"] == here["out_ids"] and len(there["steps"]) == len(here["steps"]) > 0
        assert all(np.array_equal(a["cross"], b["cross"]) for a, b in zip(there["steps"], here["steps"], strict=True))


def test_a_changed_folder_is_loaded_again(toy_checkpoints, toy_spm, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(toy_checkpoints / "toy-en", folder)
    before = runs.run_folder("translation", str(folder), TEXT, 1, ())
    cfg = load_checkpoint(folder).config
    torch.manual_seed(1)                                  # other weights, written over the folder
    save_checkpoint(folder, Transformer(cfg).eval(), toy_spm)
    after = runs.run_folder("translation", str(folder), TEXT, 1, ())
    assert same(after, runs.translation(load_checkpoint(folder), TEXT, 1, ()))
    assert not same(after, before)


def test_every_other_run_kind_gives_the_same_in_a_worker_process(toy_checkpoints, pool):
    folder = str(toy_checkpoints / "toy-en")
    ckpt = load_checkpoint(folder)
    tr = runs.translation(ckpt, TEXT, 1, ())
    src, out = tuple(tr["src_ids"]), tuple(tr["out_ids"])
    calls = {"greedy_steps": (TEXT, ()), "samples": (TEXT, 1.0, 5, 0.9, 3),
             "attribution": (src, out, "saliency"), "trace": (src, out), "decoding_steps": (src, out)}
    assert set(calls) | {"translation", "steps"} == set(runs.RUNS)
    for kind, args in calls.items():
        there, here = pool.run(runs.run_folder, kind, folder, *args), runs.RUNS[kind](ckpt, *args)
        if kind == "trace":
            assert torch.equal(there.logits, here.logits) and there.probe.records.keys() == here.probe.records.keys()
        elif kind == "attribution":
            assert np.allclose(there["scores"], here["scores"]) and there["scores"].shape == (len(out) + 1, len(src))
        elif kind == "decoding_steps":
            assert [s["chosen"] for s in there] == [s["chosen"] for s in here] == [*out, ckpt.config.eos_id]
        else:
            assert there["texts" if kind == "samples" else "ids"] == here["texts" if kind == "samples" else "ids"]


def test_the_sessions_worker_keeps_one_model_and_runs_below_the_class(toy_checkpoints, pool, tmp_path):
    import os

    assert pool.run(os.nice, 0) == os.nice(0) + 10
    second = tmp_path / "second"
    shutil.copytree(toy_checkpoints / "toy-en", second)
    for folder in (toy_checkpoints / "toy-en", second, second):
        pool.run(runs.run_folder, "translation", str(folder), TEXT, 1, ())
    assert pool.run(_loaded_folders) == [str(second)]


def _loaded_folders() -> list[str]:
    return [folder for folder, _ in runs._LOADED]
