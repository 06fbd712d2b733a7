"""Attribution beside attention: how much each source token moves the log-probability of each target token,
by gradients with respect to the source token vectors (Embedding·√d_model, before the positions).

    saliency               ‖∂ log p(y_t) / ∂x_s‖₂                              (Simonyan et al. 2014)
    input_x_gradient       x_s · ∂ log p(y_t) / ∂x_s                           (Shrikumar et al. 2017)
    integrated_gradients   x_s · mean over α of ∂ log p(y_t) / ∂(α·x_s), α from 0 to 1   (Sundararajan et al. 2017)

Teacher-forced on the translation: row t is the step that predicts output token t (the last row </s>), as
the cross-attention rows of the pages; the scores are (T, S).  Integrated gradients start from all-zero
token vectors (the positions stay) and are complete: a row sums to log p(y_t | x) − log p(y_t | 0).
agreement() compares the scores with each head's attention, row by row (Spearman's rank correlation), the
question of "Attention is not Explanation" (Jain & Wallace 2019) and its answer (Wiegreffe & Pinter 2019).

The command line (`python -m transformer_core attribution`) is serving/commands.py.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import torch

from ..checkpoints.files import Checkpoint
from ..model.decoding import eval_mode
from ..model.masks import make_src_mask, make_trg_mask
from ..model.quantize import reused_floats
from ..model.transformer import Transformer
from . import alignment

METHODS = ("saliency", "input_x_gradient", "integrated_gradients")
STEPS = 32                  # integrated gradients: points on the path from 0 to x (midpoints)
CHUNK = 4                   # target rows per decoder pass (attribute); benchmarks/bench_attribution.py


def teacher_forced(model: Transformer, src_ids: list[int], out_ids: list[int]) -> tuple[torch.Tensor, ...]:
    """The source (1, S), the decoder input <s> + out_ids (1, T) and the labels out_ids + </s> (1, T)."""
    device = model.device
    return (torch.tensor([list(src_ids)], device=device), torch.tensor([[model.cfg.bos_id, *out_ids]], device=device),
            torch.tensor([[*out_ids, model.cfg.eos_id]], device=device))


def row_log_prob(model: Transformer, out_t: torch.Tensor, label_t: torch.Tensor) -> torch.Tensor:
    """log p(label) at one decoder position: (B, d), (B, 1) -> (B,).  One position at a time: the gradient
    of a row passes through one (B, V) projection, not all T."""
    return torch.log_softmax(model.generator(out_t).float(), dim=-1).gather(-1, label_t)[:, 0]


def target_log_probs(model: Transformer, src: torch.Tensor, tgt_in: torch.Tensor, labels: torch.Tensor,
                     tok: torch.Tensor) -> torch.Tensor:
    """log p(labels) of a teacher-forced pass whose source token vectors are tok: (B, S, d) -> (B, T)."""
    B = tok.size(0)
    src, tgt_in, labels = src.expand(B, -1), tgt_in.expand(B, -1), labels.expand(B, -1)
    src_mask = make_src_mask(src, model.cfg.pad_id)                            # (B, 1, 1, S)
    memory = model.encode(src, src_mask, tok=tok)                              # (B, S, d)
    out = model.decode(tgt_in, memory, src_mask, make_trg_mask(tgt_in, model.cfg.pad_id))  # (B, T, d)
    return torch.stack([row_log_prob(model, out[:, t], labels[:, t:t + 1]) for t in range(out.size(1))], dim=1)


def attribute(model: Transformer, src_ids: list[int], out_ids: list[int], method: str = "integrated_gradients",
              steps: int = STEPS, chunk: int = CHUNK) -> np.ndarray:
    """(T, S) scores of each source token for each predicted target token (out_ids, then </s>).

    One backward pass per target row t.  Row t depends on the decoder positions 0..t only, so the rows
    go in chunks of `chunk`: the decoder runs on the first b positions for the chunk of rows that ends
    at b, and each backward pass skips the later positions (the encoder's graph is built once).  The
    result does not depend on chunk; chunk >= T is one decoder pass for all rows."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    eval_mode(model)
    src, tgt_in, labels = teacher_forced(model, src_ids, out_ids)              # (1, S), (1, T), (1, T)
    with torch.no_grad():
        x = model.token_vectors(src)                                           # (1, S, d)
    if method == "integrated_gradients":
        alphas = (torch.arange(steps, device=model.device, dtype=x.dtype) + 0.5) / steps  # midpoints of [0, 1]
        path = (alphas.view(-1, 1, 1) * x).requires_grad_(True)                # (steps, S, d)
    else:
        path = x.clone().requires_grad_(True)                                  # (1, S, d)
    B, T = path.size(0), tgt_in.size(1)
    src, tgt_in, labels = src.expand(B, -1), tgt_in.expand(B, -1), labels.expand(B, -1)
    src_mask = make_src_mask(src, model.cfg.pad_id)                            # (B, 1, 1, S)
    rows, chunk = [], max(1, chunk)
    with torch.enable_grad(), reused_floats():                                 # a quantized model's W, made float
        memory = model.encode(src, src_mask, tok=path)                         # (B, S, d)
        for start in range(0, T, chunk):
            end = min(T, start + chunk)
            prefix = tgt_in[:, :end]                                           # (B, end)
            out = model.decode(prefix, memory, src_mask, make_trg_mask(prefix, model.cfg.pad_id))  # (B, end, d)
            for t in range(start, end):
                logp = row_log_prob(model, out[:, t], labels[:, t:t + 1])      # (B,)
                rows.append(torch.autograd.grad(logp.sum(), path, retain_graph=True)[0].mean(0))  # (S, d)
    grad = torch.stack(rows)                                                   # (T, S, d): the mean over the path
    rows_out = grad.norm(dim=-1) if method == "saliency" else (x[0] * grad).sum(-1)  # (T, S)
    return rows_out.detach().cpu().numpy()


def shares(scores: np.ndarray) -> np.ndarray:
    """Each row's |scores| as shares summing to 1, as attention's rows do (for drawing on its axes)."""
    magnitude = np.abs(scores)
    return magnitude / np.maximum(magnitude.sum(1, keepdims=True), 1e-12)


def completeness_gap(model: Transformer, src_ids: list[int], out_ids: list[int], scores: np.ndarray) -> np.ndarray:
    """Per row: (sum of the integrated-gradient scores) − (log p(y_t | x) − log p(y_t | 0)); ≈ 0."""
    src, tgt_in, labels = teacher_forced(model, src_ids, out_ids)
    with torch.no_grad():
        x = model.token_vectors(src)
        ends = target_log_probs(model, src, tgt_in, labels, torch.cat([x, torch.zeros_like(x)]))   # (2, T)
    return scores.sum(1) - (ends[0] - ends[1]).cpu().numpy()


def ranks(a: np.ndarray) -> np.ndarray:
    """Ranks along each row, ties sharing their mean rank (a constant row: no order at all)."""
    return pd.DataFrame(a).rank(axis=1).to_numpy()


def spearman_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rank correlation of each row of a with the same row of b: (T, S), (T, S) -> (T,)."""
    ra, rb = ranks(a), ranks(b)
    ra, rb = ra - ra.mean(-1, keepdims=True), rb - rb.mean(-1, keepdims=True)
    denom = np.sqrt((ra ** 2).sum(-1) * (rb ** 2).sum(-1))
    return np.divide((ra * rb).sum(-1), denom, out=np.zeros(len(ra)), where=denom > 0)


def agreement(scores: np.ndarray, cross: np.ndarray) -> dict:
    """How far attention agrees with attribution: the mean over rows of Spearman's correlation between
    |scores| (T, S) and each head's cross-attention (L, h, T, S), and the mean of all heads'.
    -> {"heads": (L, h) list, "mean_of_heads": float}"""
    magnitude = np.abs(scores)
    heads = [[float(spearman_rows(magnitude, cross[layer, h]).mean()) for h in range(cross.shape[1])]
             for layer in range(cross.shape[0])]
    return {"heads": heads, "mean_of_heads": float(spearman_rows(magnitude, cross.mean((0, 1))).mean())}


def gold_aer(ckpt: Checkpoint, method: str, limit: int | None = None, steps: int = STEPS,
             fits: Callable[[list[int], list[int]], bool] = lambda src_ids, out_ids: True) -> dict:
    """AER of the attribution's word alignment (each target word to the source word with the largest
    share; teacher-forced on the reference) over the checkpoint's gold alignments, beside the heads' AER
    on the same sentences (alignment.score_heads).  A pair whose attribution does not `fit` (the command
    line: one run's bounds) is left out and counted ("refused")."""
    tok, counts, scored, refused = ckpt.tokenizer, alignment.Counts(), [], 0
    for src, (tgt, links) in list(ckpt.gold.items())[:limit]:
        ids = alignment.teacher_forced_ids(tok, src, tgt, ckpt.config.max_len)
        if ids is None:
            continue
        if not fits(*ids):
            refused += 1
            continue
        words = alignment.to_words(shares(attribute(ckpt.model, *ids, method, steps)), tok, src, tgt)
        if words is None:
            continue
        gold = alignment.parse(links)
        counts.add(alignment.links_of(words), gold)
        scored.append((src, tgt, gold))
    if not scored:
        raise ValueError("no sentence with a gold alignment could be scored")
    heads = alignment.score_heads(ckpt.model, tok, scored)
    return {"method": method, "sentences": len(scored), "refused": refused, "attribution_aer": round(counts.aer, 4),
            "best_head": heads["best"], "best_head_aer": min(min(r) for r in heads["heads"]),
            "mean_of_heads_aer": heads["mean"]}
