"""The paper's Figure 1, read off one full trace (explain.full_trace) of the model on one sentence: the
blocks as the model's config has them, the shape of what flows along every arrow (read off the recorded
tensors, never computed from the config), and the numbers each block's panel draws.  Plain data in, plain
data out; the Architecture page (pages/diagram.py) only draws.

    blocks(cfg)                     every block of the diagram, in the order of the forward pass
    arrows(trace)                   arrow id -> {"symbols", "shape", "record"}; arrows(trace, step=t): the
                                    decoder's arrows at greedy step t (its first t + 1 positions)
    embedding_norms(rec)            ‖token‖, ‖PE‖, ‖token + PE‖ per position
    residual_ratio(rec)             ‖x‖ (the residual), ‖Sublayer(x)‖ and their ratio per position
    ffn_zeroed(hidden)              the share of the d_ff hidden units at or below 0 per position (ReLU's zeros)
    downsample(matrix, max_cols)    a wide matrix as the means of blocks of columns
    top_next(model, logits, k)      each position's k most likely next tokens, as decoding scores them
    residual_stream(trace)          each token's vector norm after every sublayer, encoder and decoder
    decoding_steps(model, trace)    greedy decoding, step by step: the decoder input so far, the token chosen
                                    and the decoder's arrows at that step

Shapes, in the lectures' notation: B batch (1), S source length, T decoder-input length (the start token and
the output), h heads, d_k = d_model / h, d_ff the FFN's width, vocab the vocabulary.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from ..model.config import ModelConfig
from ..model.decoding import log_probs
from ..model.transformer import Transformer
from .explain import FullTrace, full_trace

TOP_K = 5
STACKS = ("encoder", "decoder")
# sublayers of a layer in the order of the forward pass: (name, kind); kind says which panel opens
SUBLAYERS = {"encoder": (("self_attn", "self_attn"), ("add_norm1", "add_norm"), ("ffn", "ffn"),
                         ("add_norm2", "add_norm")),
             "decoder": (("self_attn", "masked_attn"), ("add_norm1", "add_norm"), ("cross_attn", "cross_attn"),
                         ("add_norm2", "add_norm"), ("ffn", "ffn"), ("add_norm3", "add_norm"))}
OUTPUT_BLOCKS = (("linear", "linear"), ("softmax", "softmax"))
KINDS = ("embed", "self_attn", "masked_attn", "cross_attn", "add_norm", "ffn", "linear", "softmax")
# the sublayer an Add & Norm adds to its residual: add_norm1 after the first sublayer, …
ADDED = {"encoder": {"add_norm1": "self_attn", "add_norm2": "ffn"},
         "decoder": {"add_norm1": "self_attn", "add_norm2": "cross_attn", "add_norm3": "ffn"}}


def blocks(cfg: ModelConfig) -> list[dict]:
    """Every block of Figure 1 for this config, in the order of the forward pass: {"id", "kind", "stack",
    "layer"}.  A block's id is the Probe record it opens onto ("encoder.0.self_attn", "decoder.embed"), and
    "linear" / "softmax" for the output's two blocks (layer None outside the layers)."""
    out = []
    for stack, n in (("encoder", cfg.n_encoder_layers), ("decoder", cfg.n_decoder_layers)):
        out.append({"id": f"{stack}.embed", "kind": "embed", "stack": stack, "layer": None})
        for i in range(n):
            out += [{"id": f"{stack}.{i}.{name}", "kind": kind, "stack": stack, "layer": i}
                    for name, kind in SUBLAYERS[stack]]
    out += [{"id": name, "kind": kind, "stack": "output", "layer": None} for name, kind in OUTPUT_BLOCKS]
    return out


def block_index(cfg: ModelConfig) -> dict[str, dict]:
    """blocks(cfg) by id."""
    return {b["id"]: b for b in blocks(cfg)}


def n_layers(trace: FullTrace, stack: str) -> int:
    """The layers of a stack, counted in the trace's records."""
    return sum(1 for name in trace.probe.records if name.startswith(stack + ".") and name.endswith(".self_attn"))


# ---------------------------------------------------------------- the arrows and their shapes

def _arrow_specs(n_enc: int, n_dec: int) -> list[tuple[str, tuple[str, ...], str, str]]:
    """(arrow id, symbols, record, tensor) of every arrow of the diagram; record "" for the trace's own
    tensors (src, tgt_in, logits)."""
    d = ("B", "S", "d_model")
    specs = [("encoder.input", ("B", "S"), "", "src"),
             ("encoder.embed.token", d, "encoder.embed", "token"),
             ("encoder.embed.position", ("S", "d_model"), "encoder.embed", "position"),
             ("encoder.embed.sum", d, "encoder.embed", "sum")]
    for i in range(n_enc):
        p = f"encoder.{i}"
        specs += [(f"{p}.self_attn.qkv", ("B", "h", "S", "d_k"), f"{p}.self_attn", "q"),
                  (f"{p}.self_attn.out", d, f"{p}.add_norm1", "sublayer"),
                  (f"{p}.add_norm1.out", d, f"{p}.add_norm1", "after"),
                  (f"{p}.ffn.hidden", ("B", "S", "d_ff"), f"{p}.ffn", "hidden"),
                  (f"{p}.ffn.out", d, f"{p}.add_norm2", "sublayer"),
                  (f"{p}.add_norm2.out", d, f"{p}.add_norm2", "after")]
    t = ("B", "T", "d_model")
    specs += [("decoder.input", ("B", "T"), "", "tgt_in"),
              ("decoder.embed.token", t, "decoder.embed", "token"),
              ("decoder.embed.position", ("T", "d_model"), "decoder.embed", "position"),
              ("decoder.embed.sum", t, "decoder.embed", "sum")]
    for i in range(n_dec):
        p = f"decoder.{i}"
        specs += [(f"{p}.self_attn.qkv", ("B", "h", "T", "d_k"), f"{p}.self_attn", "q"),
                  (f"{p}.self_attn.mask", ("B", "1", "T", "T"), "masks", "tgt_mask"),
                  (f"{p}.self_attn.out", t, f"{p}.add_norm1", "sublayer"),
                  (f"{p}.add_norm1.out", t, f"{p}.add_norm1", "after"),
                  (f"{p}.cross_attn.q", ("B", "h", "T", "d_k"), f"{p}.cross_attn", "q"),
                  (f"{p}.cross_attn.kv", ("B", "h", "S", "d_k"), f"{p}.cross_attn", "k"),
                  (f"{p}.cross_attn.out", t, f"{p}.add_norm2", "sublayer"),
                  (f"{p}.add_norm2.out", t, f"{p}.add_norm2", "after"),
                  (f"{p}.ffn.hidden", ("B", "T", "d_ff"), f"{p}.ffn", "hidden"),
                  (f"{p}.ffn.out", t, f"{p}.add_norm3", "sublayer"),
                  (f"{p}.add_norm3.out", t, f"{p}.add_norm3", "after")]
    specs += [("linear.out", ("B", "T", "vocab"), "", "logits"),
              ("softmax.out", ("B", "T", "vocab"), "", "logits")]
    return specs


def _tensor(trace: FullTrace, record: str, tensor: str) -> torch.Tensor:
    if not record:
        return {"src": trace.src, "tgt_in": trace.tgt_in, "logits": trace.logits}[tensor]
    return trace.probe.records[record][tensor]


def _first(value: torch.Tensor, symbols: Sequence[str], n: int) -> torch.Tensor:
    """The first n positions along every T axis: what the decoder has computed at greedy step n − 1."""
    return value[tuple(slice(0, n) if s == "T" else slice(None) for s in symbols)]


def arrows(trace: FullTrace, step: int | None = None) -> dict[str, dict]:
    """Arrow id -> {"symbols" (the lectures' notation), "shape" (read off the recorded tensor), "record"
    (where it was read: "encoder.0.add_norm1.after")}.  step t: the decoder's tensors cut to their first
    t + 1 positions (the decoder input so far at greedy step t; the encoder's arrows are unchanged)."""
    out = {}
    for arrow, symbols, record, tensor in _arrow_specs(n_layers(trace, "encoder"), n_layers(trace, "decoder")):
        value = _tensor(trace, record, tensor)
        if step is not None:
            value = _first(value, symbols, step + 1)
        out[arrow] = {"symbols": symbols, "shape": tuple(int(d) for d in value.shape),
                      "record": f"{record}.{tensor}" if record else tensor}
    return out


# ---------------------------------------------------------------- what each block's panel shows

def _norms(x: torch.Tensor) -> np.ndarray:
    """(T, d) -> (T,) Euclidean norm of each row."""
    return x.double().cpu().norm(dim=-1).numpy()


def embedding_norms(rec: dict[str, torch.Tensor]) -> dict[str, np.ndarray]:
    """An embed record (token (B, T, d_model) = E·√d_model, position (T, d_model) = PE, sum (B, T, d_model))
    -> per position: the norm of the token vector, of the PE added to it and of their sum, each (T,)."""
    return {"token": _norms(rec["token"][0]), "position": _norms(rec["position"]), "sum": _norms(rec["sum"][0])}


def residual_ratio(rec: dict[str, torch.Tensor]) -> dict[str, np.ndarray]:
    """An Add & Norm record (input x, sublayer F(x), each (B, T, d_model)) -> per position: ‖x‖ (the residual),
    ‖F(x)‖ (what the sublayer adds to it) and ‖F(x)‖ / ‖x‖, each (T,)."""
    residual, added = _norms(rec["input"][0]), _norms(rec["sublayer"][0])
    return {"residual": residual, "sublayer": added, "ratio": added / np.maximum(residual, 1e-12)}


def ffn_zeroed(hidden: torch.Tensor) -> np.ndarray:
    """The FFN's hidden activations (T, d_ff) -> (T,) the share of units at or below 0: the units ReLU sets
    to 0 (GELU and swish: the units they squash to about 0 or below)."""
    return (hidden.double().cpu() <= 0).double().mean(-1).numpy()


def downsample(matrix, max_cols: int) -> tuple[np.ndarray, int]:
    """(rows, cols) -> (rows, ⌈cols / f⌉) means of blocks of f adjacent columns, f the smallest factor that
    leaves at most max_cols columns (1: the matrix as it is); -> (matrix, f)."""
    arr = np.asarray(matrix.detach().cpu().double() if hasattr(matrix, "detach") else matrix, dtype=float)
    rows, cols = arr.shape
    f = max(1, -(-cols // max_cols))
    if f == 1:
        return arr, 1
    pad = (-cols) % f
    padded = np.concatenate([arr, np.full((rows, pad), np.nan)], axis=1) if pad else arr
    return np.nanmean(padded.reshape(rows, -1, f), axis=2), f


def top_next(model: Transformer, logits: torch.Tensor, k: int = TOP_K) -> dict[str, np.ndarray]:
    """logits (T, vocab) -> each position's k most likely next tokens as decoding scores them (softmax, with
    the start and padding tokens never produced: decoding.log_probs): {"ids": (T, k), "probs": (T, k)}."""
    logp = log_probs(model, logits.detach().float().cpu().clone())              # (T, vocab)
    top = logp.topk(min(k, logp.size(-1)), dim=-1)
    return {"ids": top.indices.numpy(), "probs": top.values.exp().double().numpy()}


def residual_stream(trace: FullTrace, which: str = "after") -> dict[str, dict]:
    """Each token's vector norm after every sublayer: {stack: {"stages": ["encoder.embed", "encoder.0.add_norm1",
    …], "norms": (stages, S or T)}}.  The first stage is the embedding + PE; each later one an Add & Norm's
    output (which="after": the stream as the next sublayer reads it) or its input sum x + Sublayer(x) before
    the LayerNorm (which="before")."""
    records = trace.probe.records
    out = {}
    for stack in STACKS:
        stages, rows = [f"{stack}.embed"], [_norms(records[f"{stack}.embed"]["sum"][0])]
        for i in range(n_layers(trace, stack)):
            for name, kind in SUBLAYERS[stack]:
                if kind == "add_norm":
                    stages.append(f"{stack}.{i}.{name}")
                    rows.append(_norms(records[f"{stack}.{i}.{name}"][which][0]))
        out[stack] = {"stages": stages, "norms": np.stack(rows)}
    return out


def decoding_steps(model: Transformer, trace: FullTrace, k: int = TOP_K) -> list[dict]:
    """Greedy decoding on the diagram, read off a teacher-forced trace of the greedy output: the decoder is
    causal, so its first t + 1 positions are what greedy decoding computed at step t.  Per step t:
    {"input": the decoder input so far (t + 1 ids), "chosen": the token greedy decoding wrote (the trace's
    label t: the output's token t, or EOS last), "ids"/"probs": the k most likely next tokens (k,), and
    "arrows": arrows(trace, t)}."""
    tgt_in, labels = trace.tgt_in[0].tolist(), trace.labels[0].tolist()
    top = top_next(model, trace.logits[0], k)
    return [{"input": tgt_in[:t + 1], "chosen": int(labels[t]), "ids": top["ids"][t].tolist(),
             "probs": top["probs"][t].tolist(), "arrows": arrows(trace, t)} for t in range(len(tgt_in))]


def steps_of(model: Transformer, src_ids: Sequence[int], out_ids: Sequence[int], k: int = TOP_K) -> list[dict]:
    """decoding_steps of a full trace of (src, [BOS] + out): for a greedy output when the page's trace is
    of another (the beam's); the trace itself is not kept."""
    return decoding_steps(model, full_trace(model, src_ids, out_ids), k)
