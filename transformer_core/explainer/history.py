"""Attention being learned: at every validation, training records the attention of a fixed probe set
(the lecture's sentence first) on its reference, teacher-forced: all layers, heads and the three kinds.

The run folder (and the exported checkpoint) gets attention_history.safetensors:
  tensors "{i}.{kind}": (N, L, h, Tq, Tk) float16, record n of probe sentence i (kinds: enc_self,
  dec_self, cross; the same shapes at every step: the reference, not the model's own output, is fed);
  metadata "history": JSON {"steps": [...], "probes": [{"src", "ref", "src_pieces", "tgt_pieces"}]}.
At 7.6M parameters and a few probes of ~10 pieces it is ~5 KB a record; MAX_RECORDS bounds it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from safetensors.numpy import load_file, save_file

from ..checkpoints.files import HISTORY
from .explain import ATTENTION_KINDS, teacher_forced_attention
from ..model.transformer import Transformer
from ..model.tokenizer import Tokenizer

MAX_RECORDS = 400
MAX_BYTES = 16 << 20        # a file larger than this is not read
LECTURE = {"ko": ("I like apples.", "나는 사과를 좋아한다."), "de": ("I like apples.", "Ich mag Äpfel.")}
LECTURE_LINKS = {"ko": "0-0 1-2 2-1", "de": "0-0 1-1 2-2"}    # its gold word alignment (I-나는 like-좋아한다 apples-사과를)


@dataclass
class Probe:
    src: str
    ref: str
    src_ids: list[int]
    out_ids: list[int]
    src_pieces: list[str]
    tgt_pieces: list[str]       # decoder input: BOS + reference pieces


@dataclass
class History:
    steps: list[int]
    probes: list[Probe]
    weights: list[dict[str, np.ndarray]]    # per probe: {kind: (N, L, h, Tq, Tk)}


def probe_set(tok: Tokenizer, tgt_lang: str, valid_pairs: list[tuple[str, str]], n_valid: int = 3) -> list[Probe]:
    """The lecture's sentence (for ko and de targets) and the first valid pairs."""
    pairs = ([LECTURE[tgt_lang]] if tgt_lang in LECTURE else []) + list(valid_pairs[:n_valid])
    probes = []
    for src, ref in pairs:
        src_ids = [tok.bos_id, *tok.encode(src), tok.eos_id]
        out_ids = tok.encode(ref)
        probes.append(Probe(src, ref, src_ids, out_ids, tok.pieces(src_ids), tok.pieces([tok.bos_id, *out_ids])))
    return probes


def empty(probes: list[Probe]) -> History:
    return History([], probes, [{} for _ in probes])


@torch.no_grad()
def record(history: History, model: Transformer, step: int) -> None:
    """Append the model's attention on every probe at this step (the oldest dropped past MAX_RECORDS)."""
    was_training = model.training
    model.eval()
    history.steps.append(int(step))
    for probe, store in zip(history.probes, history.weights):
        attn = teacher_forced_attention(model, probe.src_ids, probe.out_ids)
        for kind in ATTENTION_KINDS:
            new = attn[kind].astype(np.float16)[None]
            store[kind] = new if kind not in store else np.concatenate([store[kind], new])[-MAX_RECORDS:]
    history.steps = history.steps[-MAX_RECORDS:]
    model.train(was_training)


def continued(base: History, run: History) -> History:
    """A fine-tune's history told after its base's, so that playback starts where learning started: the run's
    steps counted on from the base's last record, the run's first record (the base's weights again) dropped.
    The run must have recorded the base's probes (train.py gives a fine-tune its base's)."""
    offset = base.steps[-1] if base.steps else 0
    weights = [{kind: np.concatenate([b[kind], r[kind][1:]])[-MAX_RECORDS:] for kind in b}
               for b, r in zip(base.weights, run.weights)]
    return History((base.steps + [offset + s for s in run.steps[1:]])[-MAX_RECORDS:], base.probes, weights)


def save(history: History, path: Path) -> None:
    tensors = {f"{i}.{kind}": np.ascontiguousarray(w[kind], dtype=np.float16)          # read back as float32
               for i, w in enumerate(history.weights) for kind in w}
    meta = {"steps": history.steps,
            "probes": [{"src": p.src, "ref": p.ref, "src_ids": p.src_ids, "out_ids": p.out_ids,
                        "src_pieces": p.src_pieces, "tgt_pieces": p.tgt_pieces} for p in history.probes]}
    tmp = Path(path).with_suffix(".tmp")
    save_file(tensors, str(tmp), metadata={"history": json.dumps(meta, ensure_ascii=False)})
    tmp.chmod(0o644)
    tmp.replace(path)


def load(path: Path) -> History | None:
    """The history in a run or checkpoint folder's file, or None when there is none (or it is too large)."""
    path = Path(path)
    if not path.is_file() or path.stat().st_size > MAX_BYTES:
        return None
    from safetensors import safe_open
    with safe_open(str(path), "np") as f:
        meta = json.loads(f.metadata()["history"])
    tensors = load_file(str(path))
    probes = [Probe(**p) for p in meta["probes"]]
    weights = [{kind: tensors[f"{i}.{kind}"].astype(np.float32) for kind in ATTENTION_KINDS
                if f"{i}.{kind}" in tensors} for i in range(len(probes))]
    return History(meta["steps"], probes, weights)
