"""The encoder-decoder Transformer of §3: post-norm residuals, ReLU FFN, shared embeddings.

The config can also describe a Hugging Face Marian model (marian.py): swish or GELU in the FFN, the
sinusoids laid out in halves, separate source and output matrices, and a bias on the logits.

Shapes: B batch, S source length, T target length, h heads, d_k = d_model / h, V vocab.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .attention import MultiHeadAttention
from .config import ModelConfig
from .masks import make_src_mask, make_trg_mask
from .positional import sinusoidal_encoding
from .probe import Probe

ACTIVATIONS = {"relu": torch.relu, "gelu": F.gelu, "swish": F.silu}  # config.ACTIVATIONS


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W1 + b1) W2 + b2, applied to each position alike (max(0, ·) = ReLU, or GELU / swish)."""

    def __init__(self, d_model: int, d_ff: int, name: str, activation: str = "relu"):
        super().__init__()
        self.linear1, self.linear2, self.name = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model), name
        self.activation = ACTIVATIONS[activation]

    def forward(self, x: torch.Tensor, probe: Probe | None = None) -> torch.Tensor:
        hidden = self.activation(self.linear1(x))             # (B, T, d_ff)
        if probe is not None and probe.full:
            probe.record(self.name, hidden=hidden)
        return self.linear2(hidden)                           # (B, T, d_model)


class AddNorm(nn.Module):
    """LayerNorm(x + Dropout(Sublayer(x)))."""

    def __init__(self, d_model: int, dropout: float, name: str):
        super().__init__()
        self.norm, self.dropout, self.name = nn.LayerNorm(d_model), nn.Dropout(dropout), name

    def forward(self, x: torch.Tensor, sublayer_out: torch.Tensor, probe: Probe | None = None) -> torch.Tensor:
        # (dropout is the identity in eval mode: not calling it there saves ~5 % of a decoding step)
        summed = x + (self.dropout(sublayer_out) if self.training else sublayer_out)  # (B, T, d_model)
        out = self.norm(summed)
        if probe is not None and probe.full:
            probe.record(self.name, input=x, sublayer=sublayer_out, before=summed, after=out)
        return out


class EncoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig, i: int):
        super().__init__()
        p = f"encoder.{i}"
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, f"{p}.self_attn")
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff, f"{p}.ffn", cfg.activation)
        self.add_norm1 = AddNorm(cfg.d_model, cfg.dropout, f"{p}.add_norm1")
        self.add_norm2 = AddNorm(cfg.d_model, cfg.dropout, f"{p}.add_norm2")

    def forward(self, x, src_mask, probe=None):
        x = self.add_norm1(x, self.self_attn(x, x, src_mask, probe), probe)
        return self.add_norm2(x, self.ffn(x, probe), probe)   # (B, S, d_model)


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelConfig, i: int):
        super().__init__()
        p = f"decoder.{i}"
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, f"{p}.self_attn")
        self.cross_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, f"{p}.cross_attn", cross=True)
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff, f"{p}.ffn", cfg.activation)
        self.add_norm1 = AddNorm(cfg.d_model, cfg.dropout, f"{p}.add_norm1")
        self.add_norm2 = AddNorm(cfg.d_model, cfg.dropout, f"{p}.add_norm2")
        self.add_norm3 = AddNorm(cfg.d_model, cfg.dropout, f"{p}.add_norm3")

    def forward(self, x, memory, src_mask, tgt_mask, probe=None, cache=None):
        self_cache = cross_cache = None
        if cache is not None:
            self_cache, cross_cache = cache.setdefault("self", {}), cache.setdefault("cross", {})
        x = self.add_norm1(x, self.self_attn(x, x, tgt_mask, probe, self_cache), probe)
        x = self.add_norm2(x, self.cross_attn(x, memory, src_mask, probe, cross_cache), probe)
        return self.add_norm3(x, self.ffn(x, probe), probe)   # (B, T, d_model)


def state_shapes(cfg: ModelConfig) -> dict[str, tuple[int, ...]]:
    """The name and shape of every tensor of Transformer(cfg).state_dict(), worked out without building it
    (tests/test_model.py checks them against a built model): an untrusted checkpoint's weights file is
    compared with these before anything is allocated."""
    d, f, v = cfg.d_model, cfg.d_ff, cfg.vocab_size
    shapes = {"embedding.weight": (v, d)}
    if not cfg.share_src_embedding:
        shapes["src_embedding.weight"] = (v, d)
    if not cfg.tie_output:
        shapes["output.weight"] = (v, d)
    if cfg.logits_bias:
        shapes["logits_bias"] = (v,)
    if cfg.positional == "learned":
        shapes["pos_embedding.weight"] = (cfg.max_len, d)
    layers = [("encoder", i, ("self_attn",), 2) for i in range(cfg.n_encoder_layers)]
    layers += [("decoder", i, ("self_attn", "cross_attn"), 3) for i in range(cfg.n_decoder_layers)]
    for stack, i, attentions, norms in layers:
        p = f"{stack}.{i}"
        for attn in attentions:
            for w in ("w_q", "w_k", "w_v", "w_o"):
                shapes |= {f"{p}.{attn}.{w}.weight": (d, d), f"{p}.{attn}.{w}.bias": (d,)}
        shapes |= {f"{p}.ffn.linear1.weight": (f, d), f"{p}.ffn.linear1.bias": (f,),
                   f"{p}.ffn.linear2.weight": (d, f), f"{p}.ffn.linear2.bias": (d,)}
        for n in range(1, norms + 1):
            shapes |= {f"{p}.add_norm{n}.norm.weight": (d,), f"{p}.add_norm{n}.norm.bias": (d,)}
    return shapes


def sizes(cfg: ModelConfig) -> tuple[int, int]:
    """(parameters, buffer elements) of Transformer(cfg), counted from state_shapes: the logits bias and
    the sine table (not in the state dict) are buffers."""
    counts = {name: math.prod(shape) for name, shape in state_shapes(cfg).items()}
    bias = counts.pop("logits_bias", 0)
    return sum(counts.values()), bias + (0 if cfg.positional == "learned" else cfg.max_len * cfg.d_model)


def embedding(n: int, d: int, skeleton: bool) -> nn.Embedding:
    """nn.Embedding(n, d); a skeleton's draws no random init (see Transformer)."""
    return nn.Embedding(n, d, _weight=torch.empty(n, d)) if skeleton else nn.Embedding(n, d)


class Transformer(nn.Module):
    def __init__(self, cfg: ModelConfig):
        """Built on the meta device (a skeleton whose tensors then come from a file: from_state), it computes no
        init and no sine table: on meta tensors they import torch._dynamo (~1 s, ~80 MB)."""
        super().__init__()
        self.cfg = cfg.validate()
        skeleton = torch.empty(0).is_meta
        self.embedding = embedding(cfg.vocab_size, cfg.d_model, skeleton)  # shared: source, target, pre-softmax
        if not cfg.share_src_embedding:
            self.src_embedding = embedding(cfg.vocab_size, cfg.d_model, skeleton)   # the encoder's own
        if not cfg.tie_output:
            self.output = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)  # the pre-softmax projection's own
        if cfg.logits_bias:
            self.register_buffer("logits_bias", torch.zeros(cfg.vocab_size))  # (V,)
        if cfg.positional == "learned":
            self.pos_embedding = embedding(cfg.max_len, cfg.d_model, skeleton)
        else:
            pe = torch.empty(cfg.max_len, cfg.d_model) if skeleton else \
                sinusoidal_encoding(cfg.max_len, cfg.d_model, cfg.sinusoid_layout)
            self.register_buffer("pe", pe, persistent=False)
        self.dropout = nn.Dropout(cfg.dropout)
        self.encoder = nn.ModuleList(EncoderLayer(cfg, i) for i in range(cfg.n_encoder_layers))
        self.decoder = nn.ModuleList(DecoderLayer(cfg, i) for i in range(cfg.n_decoder_layers))
        if not skeleton:
            self._init_weights()

    def _init_weights(self):
        for name, p in self.named_parameters():
            if p.dim() > 1 and not name.startswith(("embedding", "src_embedding", "pos_embedding")):
                nn.init.xavier_uniform_(p)
        nn.init.normal_(self.embedding.weight, std=self.cfg.d_model ** -0.5)
        if not self.cfg.share_src_embedding:
            nn.init.normal_(self.src_embedding.weight, std=self.cfg.d_model ** -0.5)

    @property
    def device(self) -> torch.device:
        """Where the weights are: every tensor built for the model (ids, masks, scores) goes there."""
        return next(self.parameters()).device

    @property
    def source_embedding(self) -> nn.Embedding:
        """The encoder's embedding: the shared one unless the config gives the source its own."""
        return self.embedding if self.cfg.share_src_embedding else self.src_embedding

    @property
    def output_head(self) -> nn.Module:
        """The module holding the pre-softmax matrix: the shared embedding unless the config unties it."""
        return self.embedding if self.cfg.tie_output else self.output

    @property
    def output_weight(self) -> torch.Tensor:
        """The pre-softmax matrix (V, d_model) (of a quantized model: dequantized, made on each call)."""
        return self.output_head.weight

    def positions(self, start: int, length: int) -> torch.Tensor:
        """Positional encodings of positions start .. start+length-1.  -> (length, d_model)"""
        if start + length > self.cfg.max_len:
            raise ValueError(f"sequence of {start + length} tokens exceeds max_len {self.cfg.max_len}")
        if self.cfg.positional == "learned":
            return self.pos_embedding.weight[start:start + length]
        return self.pe[start:start + length]

    def token_vectors(self, ids: torch.Tensor, stack: str = "encoder") -> torch.Tensor:
        """Embedding(ids)·√d_model: the tokens as the stack reads them, before the positions.  (B, T, d_model)"""
        embedding = self.source_embedding if stack == "encoder" else self.embedding
        tok = embedding(ids)                                       # (B, T, d_model)
        return tok * math.sqrt(self.cfg.d_model) if self.cfg.scale_embedding else tok

    def embed(self, ids: torch.Tensor, stack: str, probe: Probe | None = None, start: int = 0,
              tok: torch.Tensor | None = None) -> torch.Tensor:
        """Dropout(Embedding(ids)·√d_model + PE).  ids: (B, T) -> (B, T, d_model).  tok: the token vectors
        given instead of looked up (attribution.py differentiates with respect to them)."""
        tok = self.token_vectors(ids, stack) if tok is None else tok
        pos = self.positions(start, ids.size(1))                  # (T, d_model)
        x = tok + pos
        if probe is not None and probe.full:
            probe.record(f"{stack}.embed", token=tok, position=pos, sum=x)
        return self.dropout(x) if self.training else x

    def encode(self, src: torch.Tensor, src_mask: torch.Tensor, probe: Probe | None = None,
               tok: torch.Tensor | None = None) -> torch.Tensor:
        """src: (B, S), src_mask: (B, 1, 1, S) -> memory (B, S, d_model); tok: the source token vectors
        (B, S, d_model) instead of src's embeddings"""
        x = self.embed(src, "encoder", probe, tok=tok)
        for layer in self.encoder:
            x = layer(x, src_mask, probe)
        return x

    def decode(self, tgt_in: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor,
               tgt_mask: torch.Tensor | None, probe: Probe | None = None,
               cache: list[dict] | None = None, start: int = 0) -> torch.Tensor:
        """tgt_in: (B, T) shifted right (BOS first) -> (B, T, d_model).

        With a cache (one dict per layer), tgt_in holds only the new tokens, at positions from start.
        """
        x = self.embed(tgt_in, "decoder", probe, start)
        for i, layer in enumerate(self.decoder):
            x = layer(x, memory, src_mask, tgt_mask, probe, None if cache is None else cache[i])
        return x

    def generator(self, x: torch.Tensor) -> torch.Tensor:
        """Pre-softmax projection, sharing the embedding matrix.  (B, T, d_model) -> (B, T, V)"""
        head = self.output_head
        logits = head.project(x) if hasattr(head, "project") else x @ head.weight.t()  # project: quantized
        return logits + self.logits_bias if self.cfg.logits_bias else logits

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor, probe: Probe | None = None) -> torch.Tensor:
        """src: (B, S), tgt_in: (B, T) -> logits (B, T, V)"""
        src_mask = make_src_mask(src, self.cfg.pad_id)          # (B, 1, 1, S)
        tgt_mask = make_trg_mask(tgt_in, self.cfg.pad_id)       # (B, 1, T, T)
        if probe is not None and probe.full:
            probe.record("masks", src_mask=src_mask, tgt_mask=tgt_mask)
        memory = self.encode(src, src_mask, probe)
        return self.generator(self.decode(tgt_in, memory, src_mask, tgt_mask, probe))

    def trace(self, src: torch.Tensor, tgt_in: torch.Tensor, full: bool = False,
              heads_off: dict[str, list[int]] | None = None) -> tuple[torch.Tensor, Probe]:
        """One traced forward pass in eval mode: logits (B, T, V) and the Probe holding every layer's
        and head's attention weights (and, with full=True, scores, Q/K/V, masks, Add & Norm states)."""
        probe = Probe(record=True, full=full, heads_off=heads_off)
        was_training = self.training
        if was_training:                    # (eval() and train() each walk every submodule)
            self.eval()
        with torch.no_grad():
            logits = self(src, tgt_in, probe)
        if was_training:
            self.train()
        return logits, probe

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())


def from_state(cfg: ModelConfig, state: dict[str, torch.Tensor], convert=None) -> Transformer:
    """The model whose state dict is `state` (checked against state_shapes by the caller), in eval mode: a
    skeleton built on the meta device (convert(skeleton) first, when given: quantize.build_quantized) takes
    state's tensors as they are, so no random init is computed and no second copy of the weights is made."""
    with torch.device("meta"):
        model = Transformer(cfg)
        if convert is not None:
            model = convert(model)
    model.load_state_dict(state, assign=True)
    if cfg.positional == "sinusoidal":                        # not in the state dict: computed
        model.pe = sinusoidal_encoding(cfg.max_len, cfg.d_model, cfg.sinusoid_layout)
    return model.eval()
