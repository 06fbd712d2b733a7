"""Why attention divides by √d_k (§3.2.1), in numbers.

For q, k with independent components of mean 0 and variance 1, q·k = Σ_i q_i k_i has mean 0
and variance d_k, so its spread (standard deviation) grows like √d_k.  Large logits push the
softmax into saturation, where its Jacobian  ∂s_i/∂z_j = s_i(δ_ij − s_j) = (diag(s) − s sᵀ)_ij
is almost zero: the gradient vanishes.  Dividing by √d_k brings the spread back to 1.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import torch


def dot_products(d_k: int, n: int = 2000, seed: int = 0) -> torch.Tensor:
    """n samples of q·k for random q, k ~ N(0, I_{d_k}).  -> (n,) float64"""
    if d_k < 1 or n < 1:
        raise ValueError("d_k and n must be positive")
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d_k, generator=gen, dtype=torch.float64)
    k = torch.randn(n, d_k, generator=gen, dtype=torch.float64)
    return (q * k).sum(dim=1)


def dot_product_spread(d_ks: Sequence[int], n: int = 2000, seed: int = 0) -> dict[str, list[float]]:
    """Spread of q·k and of q·k/√d_k for each d_k.

    Returns {"d_k": [...], "std": [...], "scaled_std": [...], "sqrt_d_k": [...]}:
    std ≈ √d_k, scaled_std ≈ 1.
    """
    out: dict[str, list[float]] = {"d_k": [], "std": [], "scaled_std": [], "sqrt_d_k": []}
    for d_k in d_ks:
        dots = dot_products(int(d_k), n, seed)
        std = float(dots.std())
        out["d_k"].append(int(d_k))
        out["std"].append(std)
        out["scaled_std"].append(std / math.sqrt(d_k))
        out["sqrt_d_k"].append(math.sqrt(d_k))
    return out


def softmax_jacobian(s: torch.Tensor) -> torch.Tensor:
    """Jacobian of softmax at its output s:  J = diag(s) − s sᵀ,  J_ij = ∂s_i/∂z_j.

    s: (n,) a probability vector (or (..., n) for a batch) -> (n, n) (or (..., n, n)).
    """
    return torch.diag_embed(s) - s.unsqueeze(-1) * s.unsqueeze(-2)


def saturation(z: Sequence[float], factors: Sequence[float]) -> dict[str, list]:
    """softmax(c·z) and the size of its gradient for each multiplier c.

    Returns {"factor": [...], "probs": [[...], ...], "max_prob": [...],
             "jac_max": [...] (largest |J_ij|), "jac_norm": [...] (Frobenius norm of J)}.
    """
    base = torch.as_tensor(list(z), dtype=torch.float64)
    out: dict[str, list] = {"factor": [], "probs": [], "max_prob": [], "jac_max": [], "jac_norm": []}
    for c in factors:
        s = torch.softmax(base * float(c), dim=-1)
        jac = softmax_jacobian(s)
        out["factor"].append(float(c))
        out["probs"].append(s.tolist())
        out["max_prob"].append(float(s.max()))
        out["jac_max"].append(float(jac.abs().max()))
        out["jac_norm"].append(float(torch.linalg.matrix_norm(jac)))
    return out
