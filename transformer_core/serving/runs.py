"""The model runs the sentence pages show, as plain data (lists and numpy arrays: they cache and pickle).

    translation(ckpt, text, beam, heads_off)   the translation, its pieces, the attention of one
                                               teacher-forced pass {kind: (L, h, Tq, Tk)} and, from
                                               the same pass, each output token's probability
    steps(ckpt, text, beam, heads_off)         every decoding step: prefixes, top-k, cross-attention,
                                               beams
    greedy_steps(ckpt, text, prefix)           greedy decoding from a forced beginning (what if), step by step
    samples(ckpt, text, T, top_k, top_p, seed) five draws and the first step's distribution after each filter
    attribution_run(ckpt, src, out, method)    gradient attribution and each row's share
    trace(ckpt, src, out)                      the full trace of one teacher-forced pass (explain.FullTrace)
    decoding_steps(ckpt, src, out)             greedy decoding's steps, as the Architecture page plays them
    run_folder(kind, folder, …)                RUNS[kind] on the checkpoint in `folder`, loaded once per
                                               process (the last KEEP folders): what a worker process of
                                               workpool.WorkPool runs; worker(keep, nice) starts one

No Streamlit here: the pages (pages/ui/sentence.py) call these on worker processes.  A run whose attention
would cost more than one run may (cost.py: the seconds of one core and the memory it holds, counted from the
model's config and the sentence's length) is refused with cost.RunTooLarge before it starts.
"""
from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from ..checkpoints.files import Checkpoint
from ..checkpoints.load import load_checkpoint
from ..explainer import architecture, attribution, confidence, explain
from ..explainer.translate import source_ids, translate
from ..model.decoding import filtered_distribution, first_log_probs, greedy_decode, sample_decode
from ..model.quantize import scheme_of
from . import cost


def checked_source(ckpt: Checkpoint, text: str, kind: str, beam: int = 1, **sizes) -> list[int]:
    """The source ids of text, once the run's cost (cost.py) is within the bounds; else cost.RunTooLarge."""
    src, _ = source_ids(ckpt.tokenizer, text, ckpt.config.max_len)
    cost.check(ckpt.config, kind, len(src), beam, **sizes)
    return src


def check_attribution(ckpt: Checkpoint, src_ids, out_ids, method: str, steps: int = attribution.STEPS) -> cost.Cost:
    """The cost of attributing out_ids to src_ids with `method`, or cost.RunTooLarge past one run's bounds."""
    return cost.check(ckpt.config, "attribution", len(src_ids), steps=steps if method == "integrated_gradients" else 1,
                      out_len=len(out_ids), quantized=scheme_of(ckpt.model) is not None)


def one_thread() -> None:
    """Tiny single-sentence models on a shared CPU: more torch threads only contend (10× slower here)."""
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def translation(ckpt: Checkpoint, text: str, beam: int, heads_off: tuple) -> dict:
    """Translate, then ONE traced teacher-forced forward on [BOS] + output for the attention and each output
    token's probability (probs (T,); token_texts: the text each token adds, confidence.py)."""
    one_thread()
    checked_source(ckpt, text, "translation", beam)
    off = explain.heads_off_map(heads_off) or None
    tr = translate(ckpt, text, beam=beam, heads_off=off)
    tok = ckpt.tokenizer
    logits, attn = explain.teacher_forced(ckpt.model, tr.src_ids, tr.out_ids, heads_off=off)    # (T + 1, V)
    probs = confidence.token_probabilities(ckpt.model, logits, tr.out_ids, confidence.renormalized(ckpt, beam))
    return {"src_ids": tr.src_ids, "out_ids": tr.out_ids, "text": tr.text, "truncated": tr.truncated,
            "text_src": text, "src_pieces": tok.pieces(tr.src_ids),
            "tgt_pieces": tok.pieces(explain.decoder_input(ckpt.model, tr.out_ids)),   # decoder input
            "pred_pieces": tok.pieces([*tr.out_ids, ckpt.config.eos_id]),               # what each row predicts
            "attn": attn, "probs": probs.tolist(), "token_texts": confidence.token_texts(tok, tr.out_ids)}


def steps(ckpt: Checkpoint, text: str, beam: int, heads_off: tuple) -> dict:
    """Translate with a trace of every decoding step (numpy, so it caches and pickles cheaply)."""
    one_thread()
    checked_source(ckpt, text, "steps", beam)
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


def greedy_steps(ckpt: Checkpoint, text: str, prefix: tuple[int, ...] = ()) -> dict:
    """Greedy decoding of text, from a forced beginning when given (what if), as plain data: the output
    ids, text and log P, and per step the top-5 ids and probabilities, the token chosen and the last
    layer's encoder-decoder attention averaged over heads (S,)."""
    one_thread()
    src = checked_source(ckpt, text, "greedy_steps")
    out = greedy_decode(ckpt.model, src, trace=True, prefix=list(prefix)[: ckpt.config.max_len - 2])
    return {"src_ids": src, "ids": out.ids, "text": ckpt.tokenizer.decode(out.ids), "score": out.score,
            "steps": [{"topk_ids": s.topk_ids[0], "topk_probs": s.topk_probs[0], "token": s.beams[0][0][-1],
                       "cross_last": s.cross[0, -1].mean(0).cpu().numpy()} for s in out.steps or []]}


def samples(ckpt: Checkpoint, text: str, temperature: float, top_k: int, top_p: float, seed: int,
            n: int = 5) -> dict:
    """n translations drawn with seeds seed … seed + n − 1, and the first step's 10 most likely tokens with
    their probabilities at each stage of the filters: the model's, after the temperature, after top-k too,
    after top-p too (the last is what sampling draws from)."""
    one_thread()
    src = checked_source(ckpt, text, "samples")
    draws = [sample_decode(ckpt.model, src, temperature, top_k, top_p, seed + i) for i in range(n)]
    logp = first_log_probs(ckpt.model, src)                                    # (V,)
    stages = {"model": logp.exp(), "temperature": filtered_distribution(logp, temperature),
              "top_k": filtered_distribution(logp, temperature, top_k),
              "top_p": filtered_distribution(logp, temperature, top_k, top_p)}  # each (V,)
    ids = logp.topk(10).indices.tolist()
    return {"seeds": [seed + i for i in range(n)], "texts": [ckpt.tokenizer.decode(d.ids) for d in draws],
            "scores": [d.score for d in draws], "top_ids": ids,
            "stages": {name: probs[ids].tolist() for name, probs in stages.items()},
            "kept": int((stages["top_p"] > 0).sum()), "top": float(logp.exp().max())}


def attribution_run(ckpt: Checkpoint, src_ids: tuple[int, ...], out_ids: tuple[int, ...], method: str,
                    steps: int = attribution.STEPS) -> dict:
    """The attribution scores (T, S), each row's share (attribution.shares) and, for integrated gradients,
    how complete each row is: |sum of the row − (log p(y_t | x) − log p(y_t | 0))| / |that difference| (T,).
    cost.attribution_plan says which method and steps fit; a run past the bounds is refused."""
    one_thread()
    check_attribution(ckpt, src_ids, out_ids, method, steps)
    scores = attribution.attribute(ckpt.model, list(src_ids), list(out_ids), method, steps)
    run = {"scores": scores, "shares": attribution.shares(scores)}
    if method == "integrated_gradients":
        gap = attribution.completeness_gap(ckpt.model, list(src_ids), list(out_ids), scores)     # (T,)
        run["incomplete"] = np.abs(gap) / np.maximum(np.abs(scores.sum(1) - gap), 1e-9)
    return run


def trace(ckpt: Checkpoint, src_ids: tuple[int, ...], out_ids: tuple[int, ...]) -> explain.FullTrace:
    """The full trace of (source, [BOS] + output): every tensor of one teacher-forced pass (cost.check_trace)."""
    one_thread()
    cost.check_trace(ckpt.config, len(src_ids), len(out_ids) + 1)
    return explain.full_trace(ckpt.model, src_ids, out_ids)


def decoding_steps(ckpt: Checkpoint, src_ids: tuple[int, ...], out_ids: tuple[int, ...]) -> list[dict]:
    """Greedy decoding's steps over its own output, as the Architecture page plays them (one traced pass)."""
    one_thread()
    cost.check_trace(ckpt.config, len(src_ids), len(out_ids) + 1)
    return architecture.steps_of(ckpt.model, src_ids, out_ids)


RUNS: dict[str, Callable[..., object]] = {
    "translation": translation, "steps": steps, "greedy_steps": greedy_steps, "samples": samples,
    "attribution": attribution_run, "trace": trace, "decoding_steps": decoding_steps}

KEEP = 8                                             # checkpoints a worker process keeps loaded
_LOADED: OrderedDict[tuple[str, int], Checkpoint] = OrderedDict()     # (folder, stamp) -> its checkpoint


def worker(keep: int, nice: int = 0) -> None:
    """A worker process's start (workpool.WorkPool's initializer): keep at most `keep` checkpoints loaded, and
    run at `nice` (a worker for the sessions' own models runs below the class's: a crafted model's long run
    takes a core only when the class's runs leave it idle)."""
    global KEEP
    KEEP = max(1, keep)
    if nice:
        os.nice(nice)


def _checkpoint(folder: str) -> Checkpoint:
    """The checkpoint in folder, loaded once, again when a file of it changes; the least recently used goes
    past KEEP."""
    key = (folder, max(p.stat().st_mtime_ns for p in Path(folder).iterdir()))
    if key not in _LOADED:
        for old in [k for k in _LOADED if k[0] == folder]:
            del _LOADED[old]
        while len(_LOADED) >= KEEP:
            _LOADED.popitem(last=False)
        _LOADED[key] = load_checkpoint(folder)
    _LOADED.move_to_end(key)
    return _LOADED[key]


def run_folder(kind: str, folder: str, *args):
    """RUNS[kind](the checkpoint in `folder`, *args)."""
    return RUNS[kind](_checkpoint(folder), *args)
