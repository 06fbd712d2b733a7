"""Probe: what a forward pass records (the trace) and which heads it switches off.

Passing no probe gives the plain fast path used in training.  Record names:
  encoder.{i}.self_attn, decoder.{i}.self_attn, decoder.{i}.cross_attn   (attention)
  encoder.{i}.add_norm{j}, decoder.{i}.add_norm{j}                         (Add & Norm, full only)
  encoder.embed, decoder.embed                                            (embedding + PE, full only)
"""
from __future__ import annotations

import torch

KINDS = {"enc_self": ("encoder", "self_attn"),
         "dec_self": ("decoder", "self_attn"),
         "cross": ("decoder", "cross_attn")}


class Probe:
    def __init__(self, record: bool = True, full: bool = False,
                 heads_off: dict[str, list[int]] | None = None):
        """record: keep attention weights.  full: also scores, Q/K/V, masks, Add & Norm states.
        heads_off: {"decoder.0.cross_attn": [1, 3], …} heads whose output is zeroed."""
        self.recording = record or full
        self.full = full
        self.heads_off = {name: sorted(set(h)) for name, h in (heads_off or {}).items() if h}
        self.records: dict[str, dict[str, torch.Tensor]] = {}

    def record(self, name: str, **tensors: torch.Tensor) -> None:
        self.records.setdefault(name, {}).update({k: t.detach() for k, t in tensors.items()
                                                  if t is not None})

    def head_gate(self, name: str, n_heads: int, like: torch.Tensor) -> torch.Tensor | None:
        """(h,) of 1s with 0s at switched-off heads, or None when all heads are on."""
        off = self.heads_off.get(name)
        if not off:
            return None
        gate = torch.ones(n_heads, dtype=like.dtype, device=like.device)
        gate[off] = 0.0
        return gate

    def weights(self, kind: str, layer: int) -> torch.Tensor:
        """Attention weights of one layer.  kind in enc_self | dec_self | cross -> (B, h, Tq, Tk)"""
        stack, attn = KINDS[kind]
        return self.records[f"{stack}.{layer}.{attn}"]["weights"]

    def all_weights(self, kind: str) -> list[torch.Tensor]:
        """Weights of every layer, in order: a list of (B, h, Tq, Tk)."""
        stack, attn = KINDS[kind]
        n = sum(1 for name in self.records if name.startswith(stack + ".") and name.endswith(attn))
        return [self.weights(kind, i) for i in range(n)]
