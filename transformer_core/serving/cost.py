"""What one model run costs, counted from the model's config and the sentence's length before the run starts:
the arithmetic it does (FLOPs, and so the seconds of one core) and the memory it holds (bytes).  One cost
model for every run kind and every caller: the pages, the worker processes and the command line.

    estimate(cfg, "translation", src_len, beam=4)    -> Cost(flops, calls, nbytes, seconds)
    check(cfg, "attribution", src_len, steps=32)     raises RunTooLarge past MAX_SECONDS or MAX_BYTES, saying
                                                     the longest sentence (in pieces) that fits
    check_trace(cfg, S, T)                           the same for a full trace (every tensor recorded)
    attribution_plan(cfg, src_len, method)           the method and integrated-gradient steps that fit
    (quantized=True wherever the model's weights are: model/quantize.py's scheme_of)

Sizes: S the source's tokens; T the longest output decoding allows (decoding.default_max_len: a run is counted
as if the model never stopped, as a crafted one need not); B hypotheses (the beam); K points of integrated
gradients.  d = d_model, f = d_ff, h heads, Le and Ld layers, V the vocabulary.  A multiply-add is 2 FLOPs;
a number is 4 bytes (float32).

FLOPs
    encoder, per source token      Le · (8d² + 4Sd + 4df)             Q K V O; QKᵀ and weights·V; the FFN
    decoder, per output token      Ld · (12d² + 4Td + 4Sd + 4df) + 2dV  self Q K V O, cross Q O; the logits
    (the cross-attention's K and V of the source: Ld · 4Sd², once per decoding)
    decoding       beam decoding alone (the command line's translate: greedy, beam, what-if or one draw)
    translation    beam decoding, then one traced teacher-forced pass over (S, T) for the attention record
    steps          beam decoding, traced (the same arithmetic as its decoding)
    greedy_steps   one greedy decoding (what-if);  samples: SAMPLES of them and the first step
    attribution    K paths × (the teacher-forced pass, then a backward pass per output row, each about a third
                   of a forward pass over the sentence: measured)
Bytes
    record         what the run returns: attention L·h·(S² + T² + TS) (translation), each step's cross-attention
                   rows T·B·Ld·h·S (steps), the attribution scores; and what the page then builds from it: a
                   figure of at most FIGURE_CELLS cells (pages/ui/figures/attention.py), FIGURE_CELL_BYTES each
                   while its JSON is made
    cache          the decoder's keys and values B·Ld·2·(T + S)·d, twice while beam search reorders them
    activations    the widest tensors of one layer at once, B·(S + T)·(4d + f) and h·(S+T)², and the logits
                   (T·V, with log_softmax's copy)
    graph          attribution's saved tensors for the backward pass: K·(S + T)·(Le + Ld)·(10d + 2f + 3h(S + T))
Quantized weights (model/quantize.py): attribution differentiates through each float matrix W = s · Q, made
again for every product and its backward pass, in one reused buffer (never kept: the buffer holds the largest
matrix, V·d numbers), so a quantized model's attribution also converts, for each output row, the encoder's and
decoder's matrices and the output projection twice: R·(2Vd + 1.25·Ld·(8d² + 2df) + Le·(4d² + 2df)) numbers
at DEQUANT_S each.
Seconds = FLOPs / FLOPS_PER_S + calls × CALL_S: one core's throughput on the model's matrix products and the
cost of each small operation, measured on this machine (benchmarks/bench_cost.py prints measured against
estimated for the bundled models and for crafted ones; the estimate is meant to err on the high side).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.config import ModelConfig

MB = 1 << 20
MAX_SECONDS = 10.0             # one run: about 10 s of one core on this machine (docs/security.md)
MAX_BYTES = 300 * MB           # and what it holds at its peak
# One core's throughput, measured on this machine (benchmarks/bench_cost.py) and rounded down: decoding is one
# matrix-vector product after another (bound by memory: 5–8.5 GFLOP/s measured), a teacher-forced pass and
# its backward pass multiply whole matrices (10–130 GFLOP/s measured).
DECODE_FLOPS_PER_S = 4e9
BATCH_FLOPS_PER_S = 12e9
CALL_S = 30e-6                 # one small torch operation
CALLS_PER_LAYER = 40           # torch operations per layer and token step (attention, FFN, norms, the probe)
FIGURE_CELLS = 150_000         # the most heatmap cells a page draws at once (pages/ui/figures/attention.py)
FIGURE_CELL_BYTES = 100        # one cell while the figure's JSON is built: a float in a list, then its text
SAMPLES = 5                    # runs.samples draws this many
DEQUANT_S = 0.5e-9             # one int8 weight made float32 for a gradient (quantize.reused_floats: 0.14 ns measured)
KINDS = ("decoding", "translation", "steps", "greedy_steps", "samples", "attribution")


@dataclass(frozen=True)
class Cost:
    flops: float
    seconds: float      # of one core
    nbytes: int         # held at the peak

    def fits(self) -> bool:
        return self.seconds <= MAX_SECONDS and self.nbytes <= MAX_BYTES

    def __add__(self, other: Cost) -> Cost:
        """Two parts run one after the other: their work adds up, the larger peak counts."""
        return Cost(self.flops + other.flops, self.seconds + other.seconds, max(self.nbytes, other.nbytes))

    def holding(self, nbytes: int) -> Cost:
        """The same run, holding nbytes more throughout."""
        return Cost(self.flops, self.seconds, self.nbytes + nbytes)


class RunTooLarge(ValueError):
    """A run over MAX_SECONDS or MAX_BYTES: .seconds, .mb (its estimate), .tokens (the source's pieces) and
    .fits (the most source pieces that fit; 0: none, the model itself is too large for this server)."""

    def __init__(self, seconds: float, mb: float, tokens: int, fits: int):
        super().__init__(f"this run would take about {seconds:.0f} s and {mb:.0f} MB, more than one run may "
                         f"({MAX_SECONDS:.0f} s, {MAX_BYTES // MB} MB): "
                         + (f"shorten the sentence to at most {fits} pieces (it has {tokens})" if fits
                            else "this model is too large for this server"))
        self.seconds, self.mb, self.tokens, self.fits = seconds, mb, tokens, fits

    def __reduce__(self):              # raised in a worker process, it travels back pickled
        return RunTooLarge, (self.seconds, self.mb, self.tokens, self.fits)


def output_len(cfg: ModelConfig, src_len: int) -> int:
    """T: the longest output decoding allows (decoding.default_max_len), </s> or the forced start included."""
    return min(cfg.max_len - 1, 2 * src_len + 10) + 1


def _encoder(cfg: ModelConfig, S: int) -> float:
    d, f = cfg.d_model, cfg.d_ff
    return cfg.n_encoder_layers * S * (8 * d * d + 4 * S * d + 4 * d * f)


def _decoder(cfg: ModelConfig, S: int, T: int, tokens: int) -> float:
    """`tokens` decoder positions attending to at most T earlier ones, and the logits of each."""
    d, f = cfg.d_model, cfg.d_ff
    per_token = cfg.n_decoder_layers * (12 * d * d + 4 * T * d + 4 * S * d + 4 * d * f) + 2 * d * cfg.vocab_size
    return tokens * per_token + cfg.n_decoder_layers * 4 * S * d * d


def _layers(cfg: ModelConfig) -> int:
    return cfg.n_encoder_layers + cfg.n_decoder_layers


def decoding(cfg: ModelConfig, S: int, T: int, B: int) -> Cost:
    """Decoding T steps of B hypotheses over a KV cache (beam search reorders it at every step)."""
    d = cfg.d_model
    flops = _encoder(cfg, S) + _decoder(cfg, S, T, B * T)
    calls = CALLS_PER_LAYER * (_layers(cfg) + T * cfg.n_decoder_layers)
    cache = B * cfg.n_decoder_layers * 2 * (T + S) * d * 4 * (2 if B > 1 else 1)
    activations = B * (4 * d + cfg.d_ff) * 4 + B * cfg.vocab_size * 4 * 3
    return Cost(flops, flops / DECODE_FLOPS_PER_S + calls * CALL_S, cache + activations)


def forward(cfg: ModelConfig, S: int, T: int, batch: int = 1, passes: float = 1.0) -> Cost:
    """`passes` teacher-forced passes over (S, T) of `batch` copies (a backward pass counts as two): the
    arithmetic, and the widest tensors of one."""
    d, h = cfg.d_model, cfg.n_heads
    flops = passes * batch * (_encoder(cfg, S) + _decoder(cfg, S, T, T))
    widest = batch * ((S + T) * (4 * d + cfg.d_ff) + 3 * h * (S + T) ** 2) * 4
    logits = batch * T * cfg.vocab_size * 4 * 2
    return Cost(flops, flops / BATCH_FLOPS_PER_S + passes * CALLS_PER_LAYER * _layers(cfg) * CALL_S, widest + logits)


def attention_numbers(cfg: ModelConfig, S: int, T: int) -> int:
    """The attention weights of one traced pass: every layer and head, L·h·(S² + T² + TS)."""
    return cfg.n_heads * (cfg.n_encoder_layers * S * S + cfg.n_decoder_layers * (T * T + T * S))


def _figure(cfg: ModelConfig, S: int, T: int) -> int:
    """The page's largest attention grid (one kind, every layer and head), as far as the page draws it."""
    cells = cfg.n_heads * max(cfg.n_encoder_layers * S * S, cfg.n_decoder_layers * max(T * T, T * S))
    return min(cells, FIGURE_CELLS) * FIGURE_CELL_BYTES


def estimate(cfg: ModelConfig, kind: str, src_len: int, beam: int = 1, steps: int = 32,
             out_len: int | None = None, quantized: bool = False) -> Cost:
    """The cost of one run of `kind` (KINDS) on a source of src_len tokens; attribution explains an output
    of out_len tokens (default: the longest decoding allows); quantized: the model's weights are
    (model/quantize.py)."""
    S, T, B = src_len, output_len(cfg, src_len), max(1, beam)
    if kind == "decoding":
        return decoding(cfg, S, T, B)
    if kind == "translation":
        record = attention_numbers(cfg, S, T) * 4
        return (decoding(cfg, S, T, B) + forward(cfg, S, T)).holding(2 * record + _figure(cfg, S, T))
    if kind == "steps":
        record = T * B * cfg.n_decoder_layers * cfg.n_heads * S * 4 * 2        # the trace, then its numpy copy
        return decoding(cfg, S, T, B).holding(record + _figure(cfg, S, T))
    if kind == "greedy_steps":
        return decoding(cfg, S, T, 1).holding(T * cfg.n_decoder_layers * cfg.n_heads * S * 4)
    if kind == "samples":
        one = decoding(cfg, S, T, 1)
        return Cost(SAMPLES * one.flops, (SAMPLES + 1) * one.seconds, one.nbytes)
    if kind == "attribution":
        K, d, f, h = max(1, steps), cfg.d_model, cfg.d_ff, cfg.n_heads
        R = out_len + 1 if out_len is not None else T                          # rows: the output and </s>
        # the decoder again for each chunk of 4 rows, and a backward pass for every row: measured
        # (bench_cost.py), one row's costs about a third of a forward pass over the sentence (it reaches only
        # the positions up to its row, and computes no weight gradients)
        passes = 1 + R / 3
        graph = K * (S + R) * _layers(cfg) * (10 * d + 2 * f + 3 * h * (S + R)) * 4
        run = forward(cfg, S, R, K, passes).holding(graph + R * S * d * 4)
        if not quantized:
            return run
        encoder, decoder = cfg.n_encoder_layers * (4 * d * d + 2 * d * f), cfg.n_decoder_layers * (8 * d * d + 2 * d * f)
        made = R * (2 * cfg.vocab_size * d + 1.25 * decoder + encoder) + encoder     # numbers made float
        return Cost(run.flops, run.seconds + made * DEQUANT_S, run.nbytes + cfg.vocab_size * d * 4)
    raise ValueError(f"unknown run kind {kind!r}; one of {', '.join(KINDS)}")


def fitting_length(cfg: ModelConfig, kind: str, beam: int = 1, steps: int = 32, longest: int | None = None,
                   quantized: bool = False) -> int:
    """The most source tokens a run of `kind` may have within the bounds (0: not even one)."""
    lo, hi = 0, longest or cfg.max_len
    while lo < hi:                                         # cost grows with the length: bisect
        mid = (lo + hi + 1) // 2
        if estimate(cfg, kind, mid, beam, steps, quantized=quantized).fits():
            lo = mid
        else:
            hi = mid - 1
    return lo


def check(cfg: ModelConfig, kind: str, src_len: int, beam: int = 1, steps: int = 32,
          out_len: int | None = None, quantized: bool = False) -> Cost:
    """The run's cost, or RunTooLarge (saying how long a sentence fits) past MAX_SECONDS or MAX_BYTES."""
    cost = estimate(cfg, kind, src_len, beam, steps, out_len, quantized)
    if not cost.fits():
        raise RunTooLarge(cost.seconds, cost.nbytes / MB, src_len,
                          fitting_length(cfg, kind, beam, steps, src_len, quantized))
    return cost


def full_trace(cfg: ModelConfig, S: int, T: int) -> Cost:
    """One teacher-forced pass over (S, T) that records every tensor (explain.full_trace: the shapes and
    Architecture pages), and what its Probe keeps: per encoder layer Q, K, V and the heads' output 4·S·d, the
    scores, scaled, masked and weights 4·h·S², two Add & Norms' input, sublayer, sum and output 8·S·d and the
    FFN's hidden units S·f; per decoder layer the same over T, the cross-attention's Q and output 2·T·d, its
    K and V 2·S·d and 4·h·T·S, a third Add & Norm; the embeddings 3·(S + T)·d and the logits T·V."""
    d, f, h = cfg.d_model, cfg.d_ff, cfg.n_heads
    enc = cfg.n_encoder_layers * (4 * S * d + 4 * h * S * S + 8 * S * d + S * f)
    dec = cfg.n_decoder_layers * (4 * T * d + 4 * h * T * T + 2 * T * d + 2 * S * d + 4 * h * T * S + 12 * T * d
                                  + T * f)
    record = (enc + dec + 3 * (S + T) * d + T * cfg.vocab_size) * 4
    return forward(cfg, S, T).holding(record)


def check_trace(cfg: ModelConfig, S: int, T: int) -> Cost:
    """full_trace's cost, or RunTooLarge (saying how many source tokens fit with this output) past the bounds."""
    cost = full_trace(cfg, S, T)
    if not cost.fits():
        lo, hi = 0, S
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if full_trace(cfg, mid, T).fits():
                lo = mid
            else:
                hi = mid - 1
        raise RunTooLarge(cost.seconds, cost.nbytes / MB, S, lo)
    return cost


def attribution_plan(cfg: ModelConfig, src_len: int, out_len: int, method: str,
                     steps: int = 32, quantized: bool = False) -> tuple[str, int] | None:
    """(method, steps) within the bounds: integrated gradients with `steps` points, else with fewer (down to 4),
    else saliency (one pass per row); None when even saliency does not fit."""
    if method == "integrated_gradients":
        for k in (steps, steps // 2, steps // 4, steps // 8):
            if k >= 4 and estimate(cfg, "attribution", src_len, steps=k, out_len=out_len, quantized=quantized).fits():
                return method, k
        method = "saliency"
    one = estimate(cfg, "attribution", src_len, steps=1, out_len=out_len, quantized=quantized)
    return (method, 1) if one.fits() else None
