"""The pages' model runs (transformer_core/serving/runs.py) on a worker process give what they give in the
server's own process, and a worker reloads a bundled folder whose files changed."""
import shutil

import numpy as np
import pytest
import torch

from transformer_core.serving import runs
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.folder import save_checkpoint
from transformer_core.model.transformer import Transformer
from transformer_core.serving.workpool import WorkPool

pytestmark = pytest.mark.usefixtures("one_thread")
TEXT = "the cat sees the car."


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        all(np.array_equal(a[k][kind], b[k][kind]) for kind in a[k]) if k == "attn" else a[k] == b[k] for k in a)


@pytest.mark.parametrize("kind", ["translation", "steps"])
def test_a_worker_process_runs_the_folder_as_the_server_would(toy_checkpoints, kind):
    folder = str(toy_checkpoints / "toy-en")
    pool = WorkPool(workers=1, queue=0, timeout_s=120, processes=True)
    there = pool.run(runs.run_folder, kind, folder, TEXT, 1, ())
    here = runs.RUNS[kind](load_checkpoint(folder), TEXT, 1, ())
    if kind == "translation":
        assert same(there, here) and there["attn"]["cross"].shape[-1] == len(here["src_ids"])
    else:
        assert there["out_ids"] == here["out_ids"] and len(there["steps"]) == len(here["steps"]) > 0
        assert all(np.array_equal(a["cross"], b["cross"]) for a, b in zip(there["steps"], here["steps"]))


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
