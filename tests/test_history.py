"""attention_history.safetensors is read back only in the form history.save() writes: a crafted or damaged
file is refused with a CheckpointError that says why (the Training page shows it), never a TypeError or
KeyError from deep inside the page."""
import json
from pathlib import Path

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import load_file, save_file

from transformer_core.checkpoints.files import HISTORY, CheckpointError
from transformer_core.explainer import history

VALID = Path(__file__).resolve().parents[1] / "checkpoints" / "ende" / HISTORY    # 4 probes, 36 records


def test_the_bundled_history_reads():
    hist = history.load(VALID)
    assert len(hist.steps) == 36 and len(hist.probes) == len(hist.weights) == 4
    assert hist.probes[0].src == "I like apples."
    s, t = len(hist.probes[0].src_pieces), len(hist.probes[0].tgt_pieces)
    assert hist.weights[0]["enc_self"].shape[3:] == (s, s) and hist.weights[0]["cross"].shape[3:] == (t, s)
    assert hist.weights[0]["cross"].dtype == np.float32                   # float16 on disk


def test_a_history_without_records_reads(tmp_path):
    save_file({}, str(tmp_path / HISTORY), metadata={"history": json.dumps({"steps": [], "probes": []})})
    assert history.load(tmp_path / HISTORY) == history.History([], [], [])


def nan_at_first(tensors, meta):
    tensors["0.cross"][0, 0, 0, 0, 0] = np.nan


def other_layers(tensors, meta):
    """Probe 1's enc_self with one layer fewer than probe 0's."""
    tensors["1.enc_self"] = tensors["1.enc_self"][:, 1:].copy()


@pytest.mark.parametrize("change, needle", [
    (lambda ts, m: m.update(probes=[{"src": "x"}]), "probe 0 is not"),
    (lambda ts, m: m["probes"][0].pop("out_ids"), "probe 0 is not"),
    (lambda ts, m: m["probes"][0].update(src_ids=["2", "12"]), "probe 0 is not"),
    (lambda ts, m: m["probes"][2]["tgt_pieces"].pop(), "probe 2 is not"),
    (lambda ts, m: m.update(probes={"src": "x"}), "probes are not a list"),
    (lambda ts, m: m.update(steps="0, 300"), "steps are not a list"),
    (lambda ts, m: m.update(steps=[None] * 32), "steps are not a list"),
    (lambda ts, m: m.update(extra=1), "metadata is not"),
    (lambda ts, m: {"history": "{not json"}, "metadata is not valid JSON"),
    (lambda ts, m: {"history": '{"steps": [' + "1" * 5000 + '], "probes": []}'}, "metadata is not valid JSON"),
    (lambda ts, m: {"history": "[]"}, "metadata is not"),
    (lambda ts, m: {"other": "x"}, 'no "history" metadata'),
    (lambda ts, m: ts.pop("3.dec_self"), "one of each kind"),
    (lambda ts, m: ts.update({"4.cross": ts["0.cross"]}), "one of each kind"),
    (lambda ts, m: m.update(steps=m["steps"][:-1]), "expected F16 (35,"),
    (lambda ts, m: ts.update({"0.cross": ts["0.cross"].transpose(0, 1, 2, 4, 3).copy()}), "expected F16"),
    (lambda ts, m: ts.update({"0.cross": ts["0.cross"][..., None].copy()}), "expected F16"),
    (lambda ts, m: ts.update({"0.cross": ts["0.cross"].astype(np.float32)}), "is F32"),
    (other_layers, "probe 0's layers and heads"),
    (nan_at_first, "NaN"),
    (lambda ts, m: ts["2.dec_self"].__setitem__((0, 0, 0, 0, 0), 2.0), "outside 0 … 1"),
])
def test_a_malformed_history_is_refused_clearly(tmp_path, change, needle):
    """The bundled file, changed in one way: its tensors {"{i}.{kind}": (N, L, h, Tq, Tk) float16} or its
    metadata {"history": JSON of steps and probes}."""
    tensors = {name: w.copy() for name, w in load_file(str(VALID)).items()}
    with safe_open(str(VALID), "np") as f:
        meta = json.loads(f.metadata()["history"])
    metadata = change(tensors, meta)
    if not isinstance(metadata, dict):
        metadata = {"history": json.dumps(meta)}
    save_file(tensors, str(tmp_path / HISTORY), metadata=metadata)
    with pytest.raises(CheckpointError) as info:
        history.load(tmp_path / HISTORY)
    assert needle in str(info.value)


def test_a_file_that_is_not_safetensors_is_refused(tmp_path):
    (tmp_path / HISTORY).write_bytes(b"\x10\0\0\0\0\0\0\0{not a header}...")
    with pytest.raises(CheckpointError, match="not a valid safetensors file"):
        history.load(tmp_path / HISTORY)
