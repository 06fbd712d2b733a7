"""Scaled dot-product attention and multi-head attention (§3.2).

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V
    MultiHead(Q, K, V) = Concat(head_1, …, head_h) W^O,  head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .probe import Probe


def attention_steps(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                    mask: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
    """Every intermediate of softmax(Q Kᵀ / √d_k) V, for the attention lab and the traced model.

    q: (..., Tq, d_k), k: (..., Tk, d_k), v: (..., Tk, d_v), mask broadcastable to (..., Tq, Tk),
    True = may attend.  Returns scores = QKᵀ, scaled = QKᵀ/√d_k, masked (−inf where masked),
    weights = softmax(masked) and output = weights·V.
    """
    scores = q @ k.transpose(-2, -1)                       # (..., Tq, Tk)
    scaled = scores / math.sqrt(q.size(-1))
    masked = scaled if mask is None else scaled.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(masked, dim=-1)                 # (..., Tq, Tk)
    return {"scores": scores, "scaled": scaled, "masked": masked,
            "weights": weights, "output": weights @ v}      # (..., Tq, d_v)


class MultiHeadAttention(nn.Module):
    """h heads of d_k = d_model / h.  Used for encoder self-, decoder self- and encoder-decoder attention."""

    def __init__(self, d_model: int, n_heads: int, name: str, cross: bool = False):
        super().__init__()
        self.h, self.d_k, self.name, self.cross = n_heads, d_model // n_heads, name, cross
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape                                      # (B, T, d_model)
        return x.view(B, T, self.h, self.d_k).transpose(1, 2)  # (B, h, T, d_k)

    def forward(self, x_q: torch.Tensor, x_kv: torch.Tensor, mask: torch.Tensor | None,
                probe: Probe | None = None, cache: dict | None = None) -> torch.Tensor:
        """x_q: (B, Tq, d_model), x_kv: (B, Tk, d_model), mask: (B, 1, 1|Tq, Tk).

        cache (decoding only): for self-attention, K and V of earlier steps are kept and
        extended; for encoder-decoder attention, K and V of the memory are computed once.
        """
        q = self.split_heads(self.w_q(x_q))                    # (B, h, Tq, d_k)
        if self.cross and cache is not None and "k" in cache:
            k, v = cache["k"], cache["v"]                      # memory K, V: computed once
        else:
            k = self.split_heads(self.w_k(x_kv))               # (B, h, Tk, d_k)
            v = self.split_heads(self.w_v(x_kv))
            if cache is not None and "k" in cache:             # self-attention: append this step
                k = torch.cat([cache["k"], k], dim=2)
                v = torch.cat([cache["v"], v], dim=2)
        if cache is not None:
            cache["k"], cache["v"] = k, v

        if probe is not None and probe.recording:
            steps = attention_steps(q, k, v, mask)
            out = steps["output"]                              # (B, h, Tq, d_k)
            probe.record(self.name, weights=steps["weights"])
            if probe.full:
                probe.record(self.name, q=q, k=k, v=v, scores=steps["scores"], scaled=steps["scaled"],
                             masked=steps["masked"], mask=mask, heads=out)
        else:
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # (B, h, Tq, d_k)
        gate = None if probe is None else probe.head_gate(self.name, self.h, out)
        if gate is not None:
            out = out * gate.view(1, self.h, 1, 1)             # switched-off heads contribute 0
        B, _, Tq, _ = out.shape
        out = out.transpose(1, 2).reshape(B, Tq, self.h * self.d_k)  # concat heads: (B, Tq, d_model)
        return self.w_o(out)
