"""Quantized weights for fast CPU inference: the one place that says how a model is stored smaller.

Two schemes, for the matrices of every Linear and Embedding (LayerNorms, biases, the logits bias and the
positions stay float32, and so does every activation between two matrix products):

  int8   W ≈ s · Q, Q an int8 matrix and s one float scale per output channel (per row of W; per token of an
         embedding table, so one table serves the lookup and the tied pre-softmax projection).  Where the CPU
         has AVX-512 VNNI, x Wᵀ is computed as CTranslate2 computes OPUS-MT on a CPU: x is quantized per row
         on the fly (x ≈ r · P, P int8), P Qᵀ is an int8 × int8 → int32 product (torch._int_mm), then scaled
         by r sᵀ.  Elsewhere (AVX2 alone) x is rounded to bfloat16 and multiplied by Q and s in one kernel
         (torch._weight_int8pack_mm): there _int_mm was 4–30× slower than float32.
  bf16   W stored as bfloat16, x Wᵀ computed in bfloat16 (fast where the CPU has AVX-512 BF16 or AMX), but
         for attention's query and key projections, whose input stays float32 (W made float for the product):
         where two keys nearly tie, the rounding of x to 8 bits of mantissa moved a weight the app shows by
         0.025 (English→Korean round 24, the everyday set); with exact inputs, by 0.014.  On a CPU without
         AVX-512 BF16, W is made float for any product of FLOAT_ROWS rows or more too (faster there).

Why these kernels (benchmarks/bench_marian.py and docs/performance.md have the measurements): greedy decoding
reads every weight once per output token, so it is bound by memory bandwidth, and int8 reads a quarter of
float32's bytes.  torch.ao's quantize_dynamic does the same arithmetic faster but is deprecated with the
quantized tensors it needs; torchao's int8 configurations wrap the same torch._int_mm in tensor subclasses
and would add a dependency.  torch._weight_int8pack_mm is 2× slower than _int_mm on an AVX-512 VNNI CPU,
and 4–17× faster on an AVX2 one (with float32 activations it is slow on both).

Gradients (integrated gradients and saliency differentiate with respect to the token vectors) flow through
the dequantized weight, W = s · Q, made for that product and again for its backward pass, never kept.

    quantize_model(model, "int8")      # an in-memory float model -> the same model, quantized in place
    quantized_shapes(cfg, "int8")      # {name: (shape, dtype)} of a quantized model's state dict
    build_quantized(cfg, scheme, state)  # a quantized model from its state dict, no float copy ever made
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pad_sequence

from .config import ModelConfig
from .transformer import Transformer, from_state, state_shapes

SCHEMES = ("int8", "bf16")
STORED = {"int8": torch.int8, "bf16": torch.bfloat16}      # the matrices' dtype in each scheme
FLOAT_ONLY = ("pos_embedding.weight",)                     # matrices kept in float32: small, and added, not multiplied
FLOAT_INPUT = ("w_q", "w_k")                               # bf16: the projections whose input is not rounded
# int8's product: int8 × int8 (torch._int_mm, x quantized per row) where the CPU has AVX-512 VNNI; elsewhere
# (AVX2 alone, as on most school laptops) that kernel was 4–30× slower than float32, and int8 weights times
# bfloat16 activations (torch._weight_int8pack_mm) is the fast one (docs/performance.md).
INT8_ACTIVATIONS = torch.cpu._is_vnni_supported()
# bf16 where the CPU lacks AVX-512 BF16 (AVX2 alone): torch converts inside every bfloat16 product there, and a
# whole sentence at once (a teacher-forced pass, the attention views: 18 rows by a (4096, 1024) matrix) took
# 15.2 ms against 4.3 in float32, and 6.0 with the matrix made float for the product.  From FLOAT_ROWS rows on
# it is made float; fewer (a decoding step: 0.87 ms against 1.72 made float; beam 4: 3.3 against 3.9) stay bf16.
BF16_NATIVE = torch.cpu._is_avx512_bf16_supported()
FLOAT_ROWS = 8


def slower_than_float(scheme: str | None) -> bool:
    """Whether the scheme computes slower than float32 on this CPU: bf16 without AVX-512 BF16, where every
    bfloat16 product is converted (an AVX2 CPU: opus-mt-en-de greedy 448 ms against 361, docs/performance.md)."""
    return scheme == "bf16" and not BF16_NATIVE


def quantize_matrix(w: torch.Tensor, scheme: str) -> tuple[torch.Tensor, torch.Tensor | None]:
    """(out, in) float -> (the stored matrix, its per-row scales (out,) or None for bf16)."""
    w = w.detach().float()
    if scheme == "bf16":
        return w.to(torch.bfloat16), None
    scale = (w.abs().amax(dim=1) / 127).clamp_min(1e-12)                    # (out,)
    return torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8), scale


def dequantize(q: torch.Tensor, scale: torch.Tensor | None) -> torch.Tensor:
    """The float32 matrix (out, in) the stored one stands for."""
    return q.float() if scale is None else q.float() * scale[:, None]


_scratch = threading.local()


@contextmanager
def reused_floats():
    """Within it, the float matrix each gradient product makes (_FloatProject) is written into one buffer of
    this thread, reused from matrix to matrix: a fresh one costs 1.8 ns a number (new pages, as the server's
    fixed mmap threshold gives every large block), the reused one 0.14 ns, and it never holds more than the
    largest matrix.  Freed on leaving (explainer/attribution.py runs inside it)."""
    _scratch.buffer = torch.empty(0)
    try:
        yield
    finally:
        _scratch.buffer = None


def _float(q: torch.Tensor) -> torch.Tensor:
    """Q as float32 (out, in): in this thread's reused buffer inside reused_floats, else new."""
    buffer = getattr(_scratch, "buffer", None)
    if buffer is None:
        return q.float()
    if buffer.numel() < q.numel():
        buffer = _scratch.buffer = torch.empty(q.numel())
    return buffer[: q.numel()].view(q.shape).copy_(q)


class _FloatProject(torch.autograd.Function):
    """x Wᵀ through the float W = s · Q, differentiable in x only: (x Qᵀ) · s, and back (g · s) Q.  Q is made
    float for the product and again for the backward pass, never kept in the graph: kept, every matrix of a
    big model would be a float32 copy at once (~1 GB for opus-mt-tc-big-en-ko)."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, q: torch.Tensor, scale: torch.Tensor | None) -> torch.Tensor:
        ctx.save_for_backward(q, scale)
        y = x @ _float(q).t()                                   # (..., out)
        return y if scale is None else y * scale

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        q, scale = ctx.saved_tensors
        return (grad if scale is None else grad * scale) @ _float(q), None, None     # (..., in)


def project(x: torch.Tensor, q: torch.Tensor, scale: torch.Tensor | None, float_input: bool = False) -> torch.Tensor:
    """x Wᵀ with W stored quantized.  x: (..., in), q: (out, in) -> (..., out) float32.  float_input (bf16):
    x is not rounded to bfloat16."""
    if torch.is_grad_enabled() and x.requires_grad:          # attribution: differentiate through W itself
        return _FloatProject.apply(x, q, scale)
    if scale is None:                                        # bf16
        if float_input or (not BF16_NATIVE and x.numel() >= FLOAT_ROWS * x.size(-1)):
            return F.linear(x, q.float())                    # a query or key projection, or many rows: x as it is
        return F.linear(x.to(q.dtype), q).float()
    rows = x.reshape(-1, x.size(-1))                         # (n, in)
    if INT8_ACTIVATIONS:
        r = (rows.abs().amax(dim=1, keepdim=True) / 127).clamp_min(1e-12)      # (n, 1) each row's scale
        p = torch.round(rows / r).to(torch.int8)             # (n, in)
        y = torch._int_mm(p, q.t()).float() * r * scale      # (n, out): int32 sums, scaled back
    else:                                                    # bf16 x times the int8 Q, scaled per channel
        y = torch._weight_int8pack_mm(rows.to(torch.bfloat16), q, scale.to(torch.bfloat16)).float()    # (n, out)
    return y.reshape(*x.shape[:-1], q.size(0))


class QuantLinear(nn.Module):
    """nn.Linear with its weight stored quantized: y = x Wᵀ + b."""

    def __init__(self, in_features: int, out_features: int, scheme: str, bias: bool = True,
                 float_input: bool = False):
        super().__init__()
        self.in_features, self.out_features, self.scheme = in_features, out_features, scheme
        self.float_input = float_input                          # see project()
        self.weight_q = nn.Parameter(torch.empty(out_features, in_features, dtype=STORED[scheme]),
                                     requires_grad=False)
        self.register_buffer("scale", torch.empty(out_features) if scheme == "int8" else None)
        self.bias = nn.Parameter(torch.empty(out_features), requires_grad=False) if bias else None

    @classmethod
    def from_float(cls, linear: nn.Linear, scheme: str, float_input: bool = False) -> QuantLinear:
        out = cls(linear.in_features, linear.out_features, scheme, linear.bias is not None, float_input)
        if linear.weight.is_meta:                   # a skeleton (build_quantized): its tensors come from a file
            return out
        out.weight_q.data, scale = quantize_matrix(linear.weight, scheme)
        if scale is not None:
            out.scale = scale
        if linear.bias is not None:
            out.bias.data = linear.bias.detach().float().clone()
        return out

    @property
    def weight(self) -> torch.Tensor:
        """The dequantized weight (out, in), made on each call."""
        return dequantize(self.weight_q, self.scale)

    def project(self, x: torch.Tensor) -> torch.Tensor:
        """x Wᵀ, without the bias: (..., in) -> (..., out)."""
        return project(x, self.weight_q, self.scale, self.float_input)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.project(x)                                     # (..., out)
        return y if self.bias is None else y + self.bias


class QuantEmbedding(nn.Module):
    """nn.Embedding with its table (V, d_model) stored quantized, one scale per token; project(x) = x Eᵀ
    for a pre-softmax projection tied to it."""

    def __init__(self, num_embeddings: int, embedding_dim: int, scheme: str):
        super().__init__()
        self.num_embeddings, self.embedding_dim, self.scheme = num_embeddings, embedding_dim, scheme
        self.weight_q = nn.Parameter(torch.empty(num_embeddings, embedding_dim, dtype=STORED[scheme]),
                                     requires_grad=False)
        self.register_buffer("scale", torch.empty(num_embeddings) if scheme == "int8" else None)

    @classmethod
    def from_float(cls, embedding: nn.Embedding, scheme: str) -> QuantEmbedding:
        out = cls(embedding.num_embeddings, embedding.embedding_dim, scheme)
        if embedding.weight.is_meta:
            return out
        out.weight_q.data, scale = quantize_matrix(embedding.weight, scheme)
        if scale is not None:
            out.scale = scale
        return out

    @property
    def weight(self) -> torch.Tensor:
        return dequantize(self.weight_q, self.scale)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        rows = self.weight_q[ids].float()                         # (..., d_model)
        return rows if self.scale is None else rows * self.scale[ids].unsqueeze(-1)

    def project(self, x: torch.Tensor) -> torch.Tensor:
        """x Eᵀ: (..., d_model) -> (..., V)."""
        return project(x, self.weight_q, self.scale)


def scheme_of(model: Transformer) -> str | None:
    """The model's quantization scheme, or None for float32 weights."""
    return getattr(model.embedding, "scheme", None)


def quantize_model(model: Transformer, scheme: str) -> Transformer:
    """Replace every Linear and Embedding of a float model (but the learned positions) by its quantized
    twin, in place; -> the model, in eval mode."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown quantization scheme {scheme!r}; one of {', '.join(SCHEMES)}")
    if scheme_of(model) is not None:
        raise ValueError(f"the model is quantized already ({scheme_of(model)})")
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if parent is model and f"{name}.weight" in FLOAT_ONLY:
                continue
            if isinstance(child, nn.Linear):
                float_input = scheme == "bf16" and name in FLOAT_INPUT
                setattr(parent, name, QuantLinear.from_float(child, scheme, float_input))
            elif isinstance(child, nn.Embedding):
                setattr(parent, name, QuantEmbedding.from_float(child, scheme))
    return model.eval()


def quantized_shapes(cfg: ModelConfig, scheme: str) -> dict[str, tuple[tuple[int, ...], torch.dtype]]:
    """The name, shape and dtype of every tensor of a quantized Transformer(cfg)'s state dict, worked out
    from state_shapes: each matrix W (out, in) becomes W_q (out, in) and, for int8, its scales (out,)."""
    shapes = {}
    for name, shape in state_shapes(cfg).items():
        if len(shape) == 2 and name.endswith(".weight") and name not in FLOAT_ONLY:
            stem = name.removesuffix(".weight")
            shapes[f"{stem}.weight_q"] = (shape, STORED[scheme])
            if scheme == "int8":
                shapes[f"{stem}.scale"] = (shape[:1], torch.float32)
        else:
            shapes[name] = (shape, torch.float32)
    return shapes


def build_quantized(cfg: ModelConfig, scheme: str, state: dict[str, torch.Tensor]) -> Transformer:
    """The quantized model whose state dict is `state` (checked against quantized_shapes by the caller).
    It is built on the meta device and takes state's tensors as they are: no float32 copy of the weights
    is ever allocated.  For AVX2's kernel the tensors of a file are copied first, into torch's own memory,
    64-byte aligned as vector kernels may assume (_weight_int8pack_mm crashed once on an AVX-512 CPU, on a
    table read from a file, where tensors lie wherever its header puts them); all of them, so that no tensor
    keeps the file's mapping, and its pages, alive."""
    if scheme == "int8" and not INT8_ACTIVATIONS:
        state = {name: t.clone() for name, t in state.items()}
    return from_state(cfg, state, lambda skeleton: quantize_model(skeleton, scheme))


def agreement(reference: Transformer, quantized: Transformer, pairs: list[tuple[list[int], list[int]]],
              batch: int = 16) -> tuple[float, float]:
    """How closely a quantized model follows its float reference under teacher forcing: (the fraction of all
    decoder positions whose most likely next token is the same, the largest difference of any attention weight
    of any layer, head and position).  pairs: (source ids, decoder input ids, BOS first).  batch sentences go
    through a pass together, padded: the padding's keys are masked, and its rows are left out of both figures
    (one sentence a pass took 4-5x as long on the big OPUS-MT configuration)."""
    same, positions, gap = 0, 0, 0.0
    for i in range(0, len(pairs), batch):
        srcs, tgts = zip(*pairs[i:i + batch], strict=True)
        src = pad_sequence([torch.tensor(s) for s in srcs], True, reference.cfg.pad_id)     # (B, S)
        tgt = pad_sequence([torch.tensor(t) for t in tgts], True, reference.cfg.pad_id)     # (B, T)
        real = {side: torch.arange(ids.size(1)) < torch.tensor([len(r) for r in rows])[:, None]
                for side, ids, rows in (("encoder", src, srcs), ("decoder", tgt, tgts))}   # each (B, S or T)
        logits_ref, probe_ref = reference.trace(src, tgt)                          # (B, T, V)
        logits_q, probe_q = quantized.trace(src, tgt)
        same += int(((logits_ref.argmax(-1) == logits_q.argmax(-1)) & real["decoder"]).sum())
        positions += int(real["decoder"].sum())
        for name in probe_ref.records:                                             # encoder.0.self_attn, …
            rows = real[name.split(".")[0]][:, None, :, None]                      # (B, 1, Tq, 1)
            diff = (probe_ref.records[name]["weights"] - probe_q.records[name]["weights"]).abs()  # (B, h, Tq, Tk)
            gap = max(gap, float(diff.masked_fill(~rows, 0).max()))
    return same / positions, gap
