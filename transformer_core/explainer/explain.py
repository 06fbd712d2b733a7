"""What the explainer pages read off a trained model: attention of one teacher-forced pass, tensor
shapes of a full trace, Add & Norm statistics, FFN activations, per-position loss, and the per-layer
cost formulas of the paper's Table 1.

Everything here is plain torch / numpy (no Streamlit), so the pages only draw.

Shapes: B batch (here 1), S source length, T decoder-input length (the lecture's T−1: BOS + output),
h heads, d_k = d_model / h, L layers, V vocabulary.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..model.probe import KINDS, Probe
from ..model.tokenizer import merge_to_words, word_ids, words
from ..model.transformer import Transformer

ATTENTION_KINDS = tuple(KINDS)            # ("enc_self", "dec_self", "cross")


def record_name(kind: str, layer: int) -> str:
    """The Probe record (and heads_off key) of one attention: ("cross", 0) -> "decoder.0.cross_attn"."""
    stack, attn = KINDS[kind]
    return f"{stack}.{layer}.{attn}"


def n_layers(model: Transformer, kind: str) -> int:
    return len(model.encoder) if kind == "enc_self" else len(model.decoder)


def all_heads(model: Transformer) -> list[tuple[str, int, int]]:
    """Every head of the model as (kind, layer, head), encoder first."""
    return [(kind, layer, head) for kind in ATTENTION_KINDS for layer in range(n_layers(model, kind))
            for head in range(model.cfg.n_heads)]


def heads_off_map(selected: Sequence[tuple[str, int, int]]) -> dict[str, list[int]]:
    """[(kind, layer, head), …] -> {"decoder.0.cross_attn": [1], …} as Probe / translate take it."""
    out: dict[str, list[int]] = {}
    for kind, layer, head in selected:
        out.setdefault(record_name(kind, layer), []).append(int(head))
    return {name: sorted(set(heads)) for name, heads in out.items()}


# ---------------------------------------------------------------- attention of one teacher-forced pass

def decoder_input(model: Transformer, out_ids: Sequence[int]) -> list[int]:
    """The decoder input: the output shifted right, the start token cfg.bos_id first (<s>; Marian's <pad>), no EOS."""
    return [model.cfg.bos_id, *[int(i) for i in out_ids]]


def teacher_forced(model: Transformer, src_ids: Sequence[int], out_ids: Sequence[int],
                   heads_off: dict[str, list[int]] | None = None) -> tuple[torch.Tensor, dict[str, np.ndarray]]:
    """ONE traced forward on (src, [BOS] + output).  -> (logits (T, V) float32 on the CPU, row t predicting
    output token t and the last row EOS; {kind: (L, h, Tq, Tk) float32 weights}).

    enc_self: (L, h, S, S); dec_self: (L, h, T, T), the future masked to 0; cross: (L, h, T, S).
    """
    src = torch.tensor([list(src_ids)], device=model.device)
    tgt = torch.tensor([decoder_input(model, out_ids)], device=model.device)
    logits, probe = model.trace(src, tgt, heads_off=heads_off)
    return logits[0].float().cpu(), {kind: torch.stack([w[0] for w in probe.all_weights(kind)]).float().cpu().numpy()
                                     for kind in ATTENTION_KINDS}


def teacher_forced_attention(model: Transformer, src_ids: Sequence[int], out_ids: Sequence[int],
                             heads_off: dict[str, list[int]] | None = None) -> dict[str, np.ndarray]:
    """The attention of teacher_forced: {kind: (L, h, Tq, Tk) float32 weights}."""
    return teacher_forced(model, src_ids, out_ids, heads_off)[1]


def to_words(weights, query_pieces: Sequence[str], key_pieces: Sequence[str]) -> tuple[np.ndarray, list[str], list[str]]:
    """Attention over pieces (..., Tq, Tk) -> over words (mean over query pieces, sum over key pieces),
    with the word labels."""
    merged = merge_to_words(torch.as_tensor(np.asarray(weights)), word_ids(query_pieces), word_ids(key_pieces))
    return merged.numpy(), words(query_pieces), words(key_pieces)


def alignment_edges(weights, threshold: float = 0.0) -> list[tuple[int, int, float]]:
    """Cross-attention (T, S) -> the (target i, source j, weight) pairs with weight >= threshold."""
    arr = np.asarray(weights, dtype=float)
    rows, cols = np.nonzero(arr >= threshold)
    return [(int(i), int(j), float(arr[i, j])) for i, j in zip(rows, cols, strict=False)]


# ---------------------------------------------------------------- a full trace and its shapes

@dataclass
class FullTrace:
    src: torch.Tensor          # (B, S)
    tgt_in: torch.Tensor       # (B, T): BOS + output
    labels: torch.Tensor       # (B, T): output + EOS, what each position should predict
    logits: torch.Tensor       # (B, T, V)
    probe: Probe


def full_trace(model: Transformer, src_ids: Sequence[int], out_ids: Sequence[int]) -> FullTrace:
    """A full-mode trace (Q/K/V, scores, masks, Add & Norm, FFN, embeddings) of one teacher-forced pass."""
    src = torch.tensor([list(src_ids)], device=model.device)
    tgt_in = torch.tensor([decoder_input(model, out_ids)], device=model.device)
    labels = torch.tensor([[*[int(i) for i in out_ids], model.cfg.eos_id]], device=model.device)
    logits, probe = model.trace(src, tgt_in, full=True)
    return FullTrace(src, tgt_in, labels, logits, probe)


def concat_heads(heads: torch.Tensor) -> torch.Tensor:
    """(B, h, T, d_k) -> (B, T, h·d_k): the inverse of split_heads."""
    B, h, T, d_k = heads.shape
    return heads.transpose(1, 2).reshape(B, T, h * d_k)


# (stage key, symbolic dims in the lecture's notation, (record, tensor) or a special source)
_STAGES: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("src_ids", ("B", "S"), "", "src"),
    ("src_embed", ("B", "S", "d_model"), "encoder.embed", "token"),
    ("src_pos", ("S", "d_model"), "encoder.embed", "position"),
    ("src_sum", ("B", "S", "d_model"), "encoder.embed", "sum"),
    ("enc_q", ("B", "h", "S", "d_k"), "encoder.{l}.self_attn", "q"),
    ("enc_k", ("B", "h", "S", "d_k"), "encoder.{l}.self_attn", "k"),
    ("enc_scores", ("B", "h", "S", "S"), "encoder.{l}.self_attn", "scores"),
    ("src_mask", ("B", "1", "1", "S"), "masks", "src_mask"),
    ("enc_weights", ("B", "h", "S", "S"), "encoder.{l}.self_attn", "weights"),
    ("enc_heads", ("B", "h", "S", "d_v"), "encoder.{l}.self_attn", "heads"),
    ("enc_concat", ("B", "S", "h·d_v"), "encoder.{l}.self_attn", "concat"),
    ("enc_add_norm1", ("B", "S", "d_model"), "encoder.{l}.add_norm1", "after"),
    ("enc_ffn_hidden", ("B", "S", "d_ff"), "encoder.{l}.ffn", "hidden"),
    ("enc_add_norm2", ("B", "S", "d_model"), "encoder.{l}.add_norm2", "after"),
    ("memory", ("B", "S", "d_model"), "encoder.{last_enc}.add_norm2", "after"),
    ("tgt_in", ("B", "T"), "", "tgt_in"),
    ("tgt_sum", ("B", "T", "d_model"), "decoder.embed", "sum"),
    ("tgt_mask", ("B", "1", "T", "T"), "masks", "tgt_mask"),
    ("dec_weights", ("B", "h", "T", "T"), "decoder.{l}.self_attn", "weights"),
    ("cross_q", ("B", "h", "T", "d_k"), "decoder.{l}.cross_attn", "q"),
    ("cross_k", ("B", "h", "S", "d_k"), "decoder.{l}.cross_attn", "k"),
    ("cross_weights", ("B", "h", "T", "S"), "decoder.{l}.cross_attn", "weights"),
    ("dec_out", ("B", "T", "d_model"), "decoder.{last_dec}.add_norm3", "after"),
    ("logits", ("B", "T", "V"), "", "logits"),
)


def shape_walk(trace: FullTrace, enc_layer: int = 0, dec_layer: int = 0) -> list[dict]:
    """The tensors of a full trace in the order the model makes them.

    Each entry: {"stage", "symbols" (lecture notation), "shape" (read off the recorded tensor),
    "record" (the Probe name it came from)}.
    """
    records = trace.probe.records
    n_enc = sum(1 for name in records if name.startswith("encoder.") and name.endswith(".self_attn"))
    n_dec = sum(1 for name in records if name.startswith("decoder.") and name.endswith(".self_attn"))
    fill = dict(l=None, last_enc=n_enc - 1, last_dec=n_dec - 1)
    out = []
    for stage, symbols, record, tensor in _STAGES:
        layer = dec_layer if record.startswith("decoder.{l}") else enc_layer
        name = record.format(**{**fill, "l": layer}) if record else ""
        if tensor == "src":
            value = trace.src
        elif tensor == "tgt_in":
            value = trace.tgt_in
        elif tensor == "logits":
            value = trace.logits
        elif tensor == "concat":
            value = concat_heads(records[name]["heads"])
        else:
            value = records[name][tensor]
        out.append({"stage": stage, "symbols": symbols, "shape": tuple(value.shape),
                    "record": f"{name}.{tensor}" if name else tensor})
    return out


def layer_norm_stats(before: torch.Tensor, after: torch.Tensor, norm: torch.nn.LayerNorm | None = None) -> dict[str, np.ndarray]:
    """Per position, over d_model: mean and std (biased, as LayerNorm uses) of x = input + sublayer
    before the norm, of x̂ = (x − μ)/√(σ² + ε), and of LayerNorm(x) = γ x̂ + β after it.

    before, after: (T, d_model) of one sentence.
    """
    x = before.double().cpu()
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    eps = norm.eps if norm is not None else 1e-5
    x_hat = (x - mu) / torch.sqrt(var + eps)
    y = after.double().cpu()
    return {"mean_before": mu[:, 0].numpy(), "std_before": var[:, 0].sqrt().numpy(),
            "mean_hat": x_hat.mean(-1).numpy(), "std_hat": x_hat.std(-1, unbiased=False).numpy(),
            "mean_after": y.mean(-1).numpy(), "std_after": y.std(-1, unbiased=False).numpy()}


def layer_norm_check(before: torch.Tensor, after: torch.Tensor, norm: torch.nn.LayerNorm) -> float:
    """max |γ (x − μ)/σ + β − recorded after|: the formula against the model's own LayerNorm."""
    x = before.detach().double()
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    y = norm.weight.detach().double() * (x - mu) / torch.sqrt(var + norm.eps) + norm.bias.detach().double()
    return float((y - after.double()).abs().max())


def ffn_stats(hidden: torch.Tensor) -> dict[str, np.ndarray]:
    """ReLU hidden activations (T, d_ff) -> per position: share of units that are active (> 0),
    mean and max activation."""
    h = hidden.double().cpu()
    return {"active": (h > 0).double().mean(-1).numpy(), "mean": h.mean(-1).numpy(),
            "max": h.max(-1).values.numpy()}


def token_losses(logits: torch.Tensor, labels: torch.Tensor) -> np.ndarray:
    """Cross-entropy per position: −log softmax(logits)[label].  logits (T, V), labels (T,) -> (T,)."""
    logp = torch.log_softmax(logits.double(), dim=-1)
    return (-logp.gather(-1, labels.view(-1, 1))[:, 0]).cpu().numpy()


# ---------------------------------------------------------------- Table 1: why self-attention

LAYER_TYPES = ("self_attention", "recurrent", "convolutional", "restricted")

# (complexity per layer, sequential operations, maximum path length), as in the paper's Table 1
TABLE_1 = {
    "self_attention": (r"O(n^2 \cdot d)", r"O(1)", r"O(1)"),
    "recurrent": (r"O(n \cdot d^2)", r"O(n)", r"O(n)"),
    "convolutional": (r"O(k \cdot n \cdot d^2)", r"O(1)", r"O(\log_k(n))"),
    "restricted": (r"O(r \cdot n \cdot d)", r"O(1)", r"O(n/r)"),
}


def layer_cost(kind: str, n, d: int, k: int = 3, r: int = 16) -> np.ndarray:
    """Operations per layer (the O(·) term without its constant) for sequence length(s) n."""
    n = np.asarray(n, dtype=float)
    if kind == "self_attention":
        return n * n * d
    if kind == "recurrent":
        return n * d * d
    if kind == "convolutional":
        return k * n * d * d
    if kind == "restricted":
        return np.minimum(r, n) * n * d
    raise ValueError(f"unknown layer type {kind!r}")


def sequential_ops(kind: str, n) -> np.ndarray:
    n = np.asarray(n, dtype=float)
    return n if kind == "recurrent" else np.ones_like(n)


def max_path_length(kind: str, n, k: int = 3, r: int = 16) -> np.ndarray:
    n = np.asarray(n, dtype=float)
    if kind == "self_attention":
        return np.ones_like(n)
    if kind == "recurrent":
        return n
    if kind == "convolutional":
        return np.maximum(1.0, np.ceil(np.log(np.maximum(n, 1.0)) / math.log(k)))
    if kind == "restricted":
        return np.maximum(1.0, np.ceil(n / r))
    raise ValueError(f"unknown layer type {kind!r}")


def crossover_length(d: int) -> int:
    """Self-attention (n²·d) is cheaper than a recurrent layer (n·d²) while n < d."""
    return int(d)
