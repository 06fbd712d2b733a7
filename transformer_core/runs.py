"""The model runs the sentence pages show, as plain data (lists and numpy arrays: they cache and pickle).

    translation(ckpt, text, beam, heads_off)   the translation, its pieces, the attention of one
                                               teacher-forced pass {kind: (L, h, Tq, Tk)}
    steps(ckpt, text, beam, heads_off)         every decoding step: prefixes, top-k, cross-attention,
                                               beams
    run_folder(kind, folder, …)                RUNS[kind] on the checkpoint in `folder`, loaded once per
                                               process: what a worker process of workpool.WorkPool runs

No Streamlit here: the pages (pages/ui/sentence.py) call these on a worker pool.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import torch

from . import explain
from .checkpoint import Checkpoint, load_checkpoint
from .translate import translate


def one_thread() -> None:
    """Tiny single-sentence models on a shared CPU: more torch threads only contend (10× slower here)."""
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def translation(ckpt: Checkpoint, text: str, beam: int, heads_off: tuple) -> dict:
    """Translate, then ONE traced teacher-forced forward on [BOS] + output for the attention."""
    one_thread()
    off = explain.heads_off_map(heads_off) or None
    tr = translate(ckpt, text, beam=beam, heads_off=off)
    tok = ckpt.tokenizer
    return {"src_ids": tr.src_ids, "out_ids": tr.out_ids, "text": tr.text, "truncated": tr.truncated,
            "text_src": text, "src_pieces": tok.pieces(tr.src_ids),
            "tgt_pieces": tok.pieces(explain.decoder_input(ckpt.model, tr.out_ids)),   # decoder input
            "pred_pieces": tok.pieces([*tr.out_ids, ckpt.config.eos_id]),               # what each row predicts
            "attn": explain.teacher_forced_attention(ckpt.model, tr.src_ids, tr.out_ids, heads_off=off)}


def steps(ckpt: Checkpoint, text: str, beam: int, heads_off: tuple) -> dict:
    """Translate with a trace of every decoding step (numpy, so it caches and pickles cheaply)."""
    one_thread()
    tr = translate(ckpt, text, beam=beam, trace=True)
    tok = ckpt.tokenizer
    trace = [{"step": s.step, "prefixes": [list(p) for p in s.prefixes],
              "prefix_pieces": [tok.pieces(p) for p in s.prefixes],
              "topk_ids": s.topk_ids, "topk_pieces": [tok.pieces(ids) for ids in s.topk_ids],
              "topk_probs": s.topk_probs, "cross": s.cross.numpy(),
              "beams": [(list(ids), float(score), tok.pieces(ids)) for ids, score in s.beams],
              "finished": [(list(ids), float(score), tok.pieces(ids)) for ids, score in s.finished]}
             for s in (tr.decoded.steps or [])]
    return {"src_ids": tr.src_ids, "src_pieces": tok.pieces(tr.src_ids), "out_ids": tr.out_ids,
            "text": tr.text, "truncated": tr.truncated, "score": tr.decoded.score, "steps": trace}


RUNS: dict[str, Callable[[Checkpoint, str, int, tuple], dict]] = {"translation": translation, "steps": steps}


@lru_cache(maxsize=8)
def _checkpoint(folder: str, stamp: int) -> Checkpoint:
    return load_checkpoint(folder)


def run_folder(kind: str, folder: str, text: str, beam: int, heads_off: tuple) -> dict:
    """RUNS[kind] on the checkpoint in `folder`: loaded once per process, again when a file of it changes."""
    stamp = max(p.stat().st_mtime_ns for p in Path(folder).iterdir())
    return RUNS[kind](_checkpoint(folder, stamp), text, beam, heads_off)
