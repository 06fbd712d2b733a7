"""Label smoothing (§5.4, ε_ls = 0.1), as torch.nn.functional.cross_entropy(label_smoothing=ε) does it.

The one-hot target y is replaced by  q = (1 − ε)·y + ε / V  (V = vocabulary size), and the loss is
the cross-entropy  H(q, p) = − Σ_j q_j log p_j.  The model is no longer pushed towards p_target = 1:
the loss is smallest at p = q, i.e. p_target = 1 − ε + ε/V.
"""
from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F


def smoothed_targets(target: torch.Tensor, vocab_size: int, eps: float) -> torch.Tensor:
    """target: (N,) class ids -> (N, V) target distributions (1 − ε)·one_hot + ε/V."""
    if not 0.0 <= eps <= 1.0:
        raise ValueError("eps must be in [0, 1]")
    one_hot = F.one_hot(target.long(), vocab_size).double()
    return (1.0 - eps) * one_hot + eps / vocab_size


def smoothed_loss(logits: torch.Tensor, target: torch.Tensor, eps: float) -> torch.Tensor:
    """Mean cross-entropy of (N, V) logits against the smoothed targets of (N,) ids."""
    q = smoothed_targets(target, logits.size(-1), eps).to(logits.dtype)
    return -(q * torch.log_softmax(logits, dim=-1)).sum(dim=-1).mean()


def confident_prediction(vocab_size: int, target: int, confidence: float) -> torch.Tensor:
    """A prediction p with p_target = confidence and the rest spread evenly.  -> (V,) float64"""
    if vocab_size < 2 or not 0.0 < confidence < 1.0:
        raise ValueError("need vocab_size >= 2 and 0 < confidence < 1")
    p = torch.full((vocab_size,), (1.0 - confidence) / (vocab_size - 1), dtype=torch.float64)
    p[target] = confidence
    return p


def cross_entropy(q: torch.Tensor, p: torch.Tensor) -> float:
    """H(q, p) = − Σ_j q_j log p_j for one distribution each."""
    return float(-(q * torch.log(p)).sum())


def loss_vs_confidence(vocab_size: int, eps: float, confidences: Sequence[float],
                       target: int = 0) -> dict[str, list[float]]:
    """Loss of the confident prediction against one-hot and smoothed targets, for each confidence."""
    t = torch.tensor([target])
    one_hot = smoothed_targets(t, vocab_size, 0.0)[0]
    smooth = smoothed_targets(t, vocab_size, eps)[0]
    out: dict[str, list[float]] = {"confidence": [], "one_hot": [], "smoothed": []}
    for c in confidences:
        p = confident_prediction(vocab_size, target, float(c))
        out["confidence"].append(float(c))
        out["one_hot"].append(cross_entropy(one_hot, p))
        out["smoothed"].append(cross_entropy(smooth, p))
    return out


def best_confidence(vocab_size: int, eps: float) -> float:
    """Where the smoothed loss is smallest: p_target = 1 − ε + ε/V."""
    return 1.0 - eps + eps / vocab_size
