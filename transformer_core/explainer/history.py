"""Attention being learned: at every validation, training records the attention of a fixed probe set
(the lecture's sentence first) on its reference, teacher-forced: all layers, heads and the three kinds.

The run folder (and the exported checkpoint) gets attention_history.safetensors:
  tensors "{i}.{kind}": (N, L, h, Tq, Tk) float16, record n of probe sentence i (kinds: enc_self,
  dec_self, cross; the same shapes at every step: the reference, not the model's own output, is fed);
  metadata "history": JSON {"steps": [...], "probes": [{"src", "ref", "src_pieces", "tgt_pieces"}]}.
At 7.6M parameters and a few probes of ~10 pieces it is ~5 KB a record; MAX_RECORDS bounds it.
load() reads back only a file of that form (each field, shape, dtype and value checked), else CheckpointError.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import torch
from safetensors import SafetensorError, safe_open
from safetensors.numpy import load_file, save_file

from ..checkpoints.files import HISTORY, CheckpointError
from ..checkpoints.validate import safetensors_header
from ..model.tokenizer import Tokenizer
from ..model.transformer import Transformer
from .examples import lecture
from .explain import ATTENTION_KINDS, teacher_forced_attention

MAX_RECORDS = 400
MAX_BYTES = 16 << 20        # a file larger than this is not read


@dataclass
class Probe:
    src: str
    ref: str
    src_ids: list[int]
    out_ids: list[int]
    src_pieces: list[str]
    tgt_pieces: list[str]       # decoder input: BOS + reference pieces

    @property
    def pred_pieces(self) -> list[str]:
        """What each decoder row predicts, the name every page gives the row: the reference pieces, then EOS
        (the source's last piece: probe_set wraps the source in BOS ... EOS)."""
        return [*self.tgt_pieces[1:], self.src_pieces[-1]]


@dataclass
class History:
    steps: list[int]
    probes: list[Probe]
    weights: list[dict[str, np.ndarray]]    # per probe: {kind: (N, L, h, Tq, Tk)}


def probe_set(tok: Tokenizer, tgt_lang: str, valid_pairs: list[tuple[str, str]], n_valid: int = 3,
              src_lang: str = "en") -> list[Probe]:
    """The lecture's sentence (where both languages have it: examples.lecture) and the first valid pairs."""
    first = lecture(src_lang, tgt_lang)
    pairs = ([first[:2]] if first else []) + list(valid_pairs[:n_valid])
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
    for probe, store in zip(history.probes, history.weights, strict=False):
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
               for b, r in zip(base.weights, run.weights, strict=False)]
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
    """The history in a run or checkpoint folder's file, or None when there is none (or it is too large).
    CheckpointError when the file is not what save() writes: its header, metadata, tensor names, shapes,
    dtypes and values are checked before a History is made of it."""
    path = Path(path)
    if not path.is_file() or path.stat().st_size > MAX_BYTES:
        return None
    header = safetensors_header(path)               # {name: (dtype, shape)}: sane, and nothing read yet
    try:
        with safe_open(str(path), "np") as f:
            steps, probes = _read_meta((f.metadata() or {}).get("history"))
        _check_header(header, steps, probes)
        tensors = load_file(str(path))              # {"{i}.{kind}": (N, L, h, Tq, Tk) float16}
    except SafetensorError as err:
        raise CheckpointError(f"{HISTORY} is not a valid safetensors file ({err})") from None
    weights = [{} for _ in probes]
    for name, w in tensors.items():
        if not (np.isfinite(w).all() and (w >= 0).all() and (w <= 1).all()):
            raise CheckpointError(f"{HISTORY}: tensor {name!r} holds values that are not attention weights "
                                  "(NaN, infinite, or outside 0 … 1)")
        i, kind = name.split(".")
        weights[int(i)][kind] = w.astype(np.float32)
    return History(steps, probes, weights)


PROBE_FIELDS = [field.name for field in fields(Probe)]


def _read_meta(text: str | None) -> tuple[list[int], list[Probe]]:
    """The steps and probes of the metadata "history" (see the module's docstring), or CheckpointError."""
    if text is None:
        raise CheckpointError(f"{HISTORY} has no \"history\" metadata")
    try:
        meta = json.loads(text)
    except (ValueError, RecursionError) as err:      # ValueError: also a number of over 4,300 digits
        raise CheckpointError(f"{HISTORY}: its metadata is not valid JSON ({err})") from None
    if not isinstance(meta, dict) or set(meta) != {"steps", "probes"}:
        raise CheckpointError(f"{HISTORY}: its metadata is not {{\"steps\": [...], \"probes\": [...]}}")
    steps, probes = meta["steps"], meta["probes"]
    if not (_numbers(steps) and len(steps) <= MAX_RECORDS):
        raise CheckpointError(f"{HISTORY}: its steps are not a list of at most {MAX_RECORDS} whole numbers ≥ 0")
    if not isinstance(probes, list):
        raise CheckpointError(f"{HISTORY}: its probes are not a list")
    for i, p in enumerate(probes):
        ok = isinstance(p, dict) and set(p) == set(PROBE_FIELDS) and isinstance(p["src"], str) \
            and isinstance(p["ref"], str) and _numbers(p["src_ids"]) and _numbers(p["out_ids"]) \
            and _strings(p["src_pieces"]) and _strings(p["tgt_pieces"]) and len(p["src_ids"]) > 0 \
            and len(p["src_pieces"]) == len(p["src_ids"]) and len(p["tgt_pieces"]) == len(p["out_ids"]) + 1
        if not ok:
            raise CheckpointError(f"{HISTORY}: probe {i} is not {{{', '.join(PROBE_FIELDS)}}} with a piece for "
                                  "each id (the target's: BOS and each output id)")
    return steps, [Probe(**p) for p in probes]


def _numbers(value) -> bool:
    return isinstance(value, list) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(s, str) for s in value)


def _check_header(header: dict[str, tuple[str, tuple[int, ...]]], steps: list[int], probes: list[Probe]) -> None:
    """Every probe has one float16 tensor of each kind (none when nothing was recorded): (N, L, h, Tq, Tk),
    N records, at least one layer and head, as many of them for every probe, Tq and Tk the probe's pieces
    (enc_self (S, S), dec_self (T, T), cross (T, S))."""
    names = {f"{i}.{kind}" for i in range(len(probes)) for kind in ATTENTION_KINDS} if steps else set()
    if set(header) != names:
        raise CheckpointError(f"{HISTORY}: its tensors are not '{{probe}}.{{kind}}', one of each kind "
                              f"({', '.join(ATTENTION_KINDS)}) for each of its {len(probes)} probes")
    for name, (dtype, shape) in header.items():
        i, kind = name.split(".")
        s, t = len(probes[int(i)].src_pieces), len(probes[int(i)].tgt_pieces)
        query_key = {"enc_self": (s, s), "dec_self": (t, t), "cross": (t, s)}[kind]
        first = header[f"0.{kind}"][1]                      # probe 0's: the same layers and heads for every probe
        if dtype != "F16" or len(shape) != 5 or shape[0] != len(steps) or min(shape[1:3]) < 1 \
                or shape[1:3] != first[1:3] or shape[3:] != query_key:
            raise CheckpointError(f"{HISTORY}: tensor {name!r} is {dtype} {shape}; expected F16 ({len(steps)}, "
                                  f"layers, heads, {query_key[0]}, {query_key[1]}) with probe 0's layers and heads")
