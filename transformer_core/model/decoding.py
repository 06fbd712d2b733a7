"""Greedy and beam-search decoding with a KV cache, each step optionally traced.

The decoder input is the output shifted right: it starts with BOS.  Beam search scores a
hypothesis Y by log P(Y|X) / lp(Y), lp(Y) = ((5 + |Y|) / 6)^α  (Wu et al. 2016; the paper's α = 0.6),
or, with penalty="hf", lp(Y) = |Y|^α as Hugging Face's generate (and so Marian) divides; |Y| counts EOS.
PAD and BOS are never produced: P(next token) is renormalized without them, or (renormalize=False, as
generate's bad_words_ids) they are dropped after the softmax over the whole vocabulary.  With force_eos
(generate's forced_eos_token_id, set in Marian's configs) the last step allowed can only end the output.

Speed (benchmarks/bench_decode.py): one decoding step of the bundled model is ~25 small matrix-vector
products, so per-call overhead matters as much as arithmetic.  Hence torch.inference_mode (no autograd
bookkeeping at all; the tensors in a StepTrace are inference tensors: clone one to use it with autograd),
Module.eval() only when needed (it walks every submodule), and no source mask when a single sentence
has no padding (attention then needs no mask per call).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

from .masks import make_src_mask
from .probe import Probe
from .transformer import Transformer

BEAM, ALPHA = 4, 0.6      # the paper's beam width and length penalty α; a checkpoint may bring its own



@dataclass
class StepTrace:
    """What one decoding step saw, for each live hypothesis b (greedy: one)."""
    step: int
    prefixes: list[list[int]]        # decoder input so far, BOS first, per hypothesis
    topk_ids: list[list[int]]        # the k most likely next tokens, per hypothesis
    topk_probs: list[list[float]]
    cross: torch.Tensor              # (b, n_layers, h, S) this step's encoder-decoder attention row
    beams: list[tuple[list[int], float]] = field(default_factory=list)  # hypotheses kept, with scores
    finished: list[tuple[list[int], float]] = field(default_factory=list)  # ended with EOS so far, log P / lp


@dataclass
class Decoded:
    ids: list[int]                   # output tokens, without BOS and EOS
    score: float                     # greedy: log P; beam: log P / lp
    steps: list[StepTrace] | None = None


def length_penalty(length: int, alpha: float, kind: str = "gnmt") -> float:
    if kind == "hf":
        return length ** alpha
    return ((5 + length) / 6) ** alpha


def default_max_len(model: Transformer, src_len: int) -> int:
    return min(model.cfg.max_len - 1, 2 * src_len + 10)


class _Stepper:
    """Runs the decoder one token at a time over a KV cache, for n parallel hypotheses."""

    def __init__(self, model: Transformer, src: torch.Tensor, rows: torch.Tensor | None, probe: Probe | None):
        """src: (B, S) on the model's device; rows: (n,) the sentence of each hypothesis (None: one sentence,
        one hypothesis)."""
        cfg = model.cfg
        self.model, self.probe = model, probe
        src_mask = unpadded_as_none(make_src_mask(src, cfg.pad_id))   # (B, 1, 1, S) or None
        memory = model.encode(src, src_mask, probe)                   # (B, S, d_model)
        self.memory = memory if rows is None else memory[rows]        # (n, S, d_model)
        self.src_mask = src_mask if src_mask is None or rows is None else src_mask[rows]
        self.cache = [{} for _ in model.decoder]
        self.pos = 0

    def reorder(self, index: torch.Tensor) -> None:
        """Keep hypotheses `index` (beam search), in that order."""
        self.memory = self.memory[index]
        if self.src_mask is not None:
            self.src_mask = self.src_mask[index]
        for layer in self.cache:
            for part in layer.values():
                part["k"], part["v"] = part["k"][index], part["v"][index]

    def log_probs(self, last: torch.Tensor, renormalize: bool = True) -> torch.Tensor:
        """last: (n,) the newest token of each hypothesis -> (n, V) log P(next token)."""
        x = self.model.decode(last.unsqueeze(1), self.memory, self.src_mask, None,
                              self.probe, self.cache, start=self.pos)  # (n, 1, d_model)
        self.pos += 1
        return next_log_probs(self.model, x[:, -1], renormalize)

    def cross_row(self) -> torch.Tensor:
        """This step's encoder-decoder attention: (n, n_layers, h, S)."""
        rows = [w[:, :, -1] for w in self.probe.all_weights("cross")]  # each (n, h, S)
        return torch.stack(rows, dim=1)


def unpadded_as_none(src_mask: torch.Tensor) -> torch.Tensor | None:
    """None when no position is masked (one sentence, no padding): attention without a mask is the same
    and skips turning the mask into -inf scores on every call."""
    return None if bool(src_mask.all()) else src_mask


def eval_mode(model: Transformer) -> None:
    """Dropout off.  Module.eval() walks every submodule (~0.5 ms), so only when still training."""
    if model.training:
        model.eval()


def embedding_t(model: Transformer) -> torch.Tensor:
    """Eᵀ (E the pre-softmax matrix, model.output_weight) as a contiguous (d_model, V) copy, made once and
    kept on the model until E changes (its version counter moves with every in-place update: an optimizer
    step, load_state_dict)."""
    E = model.output_weight
    key = (E.data_ptr(), E._version)
    cached = model.__dict__.get("_embedding_t")
    if cached is None or cached[0] != key:
        cached = model.__dict__["_embedding_t"] = (key, E.detach().t().contiguous())
    return cached[1]


def next_log_probs(model: Transformer, x: torch.Tensor, renormalize: bool = True) -> torch.Tensor:
    """(n, d_model) last decoder states -> (n, V) log-probabilities (log_probs: PAD and BOS never produced)."""
    # model.generator(x) = x Eᵀ (+ the logits bias, when the config has one).  One row (greedy): x times a
    # contiguous copy of Eᵀ, ~15 % faster per greedy decode than reading E itself.  A few rows (the beams): (E xᵀ)ᵀ,
    # as there x Eᵀ spends most of its time repacking all of E (8000 × 256) on every call; E xᵀ makes beam 4 ~20 % faster.
    head = model.output_head
    if hasattr(head, "project"):                                       # quantized (quantize.py)
        logits = head.project(x)                                       # (n, V)
    elif x.size(0) == 1:
        logits = (x @ embedding_t(model)).float()                      # (1, V)
    else:
        logits = (model.output_weight @ x.t()).t().float()             # (n, V)
    if model.cfg.logits_bias:
        logits = logits + model.logits_bias
    return log_probs(model, logits, renormalize)


def log_probs(model: Transformer, logits: torch.Tensor, renormalize: bool = True) -> torch.Tensor:
    """(n, V) logits -> (n, V) log-probabilities as decoding scores them: PAD and BOS are never produced
    (renormalize=False: their probability is dropped, not spread over the other tokens).  Modifies logits."""
    never = [model.cfg.pad_id, model.cfg.bos_id]
    if not renormalize:
        logp = torch.log_softmax(logits, dim=-1)
        logp[:, never] = float("-inf")
        return logp
    logits[:, never] = float("-inf")
    return torch.log_softmax(logits, dim=-1)


def forced_eos(logp: torch.Tensor, eos_id: int) -> torch.Tensor:
    """The last step with force_eos: EOS with log-probability 0, every other token impossible.  (..., V)"""
    out = torch.full_like(logp, float("-inf"))
    out[..., eos_id] = 0.0
    return out


def _probe(trace: bool, heads_off) -> Probe | None:
    if trace or heads_off:
        return Probe(record=trace, heads_off=heads_off)
    return None


@torch.inference_mode()
def greedy_decode(model: Transformer, src: list[int], max_len: int | None = None, trace: bool = False,
                  top_k: int = 5, heads_off: dict[str, list[int]] | None = None, force_eos: bool = False,
                  prefix: Sequence[int] = (), sampler: Callable[[torch.Tensor], int] | None = None) -> Decoded:
    """src: source ids (BOS … EOS).  Picks the most likely token at each step; the first tokens are
    `prefix` (what-if decoding: the model continues from a beginning it is given, whose log-probabilities
    count in the score); sampler(logp) -> token replaces the most likely one (sample_decode)."""
    eval_mode(model)
    cfg = model.cfg
    max_len = max(max_len or default_max_len(model, len(src)), len(prefix) + 1)
    device = model.device
    stepper = _Stepper(model, torch.tensor([src], device=device), None, _probe(trace, heads_off))
    out, score, steps = [cfg.bos_id], 0.0, [] if trace else None
    for step in range(max_len):
        logp = stepper.log_probs(torch.tensor([out[-1]], device=device))[0]  # (V,)
        if force_eos and step == max_len - 1:
            logp = forced_eos(logp, cfg.eos_id)
        if step < len(prefix):
            token = int(prefix[step])
        elif sampler is None:
            token = int(logp.argmax())
        else:
            token = sampler(logp)
        score += float(logp[token])
        if trace:
            top = logp.exp().topk(top_k)
            steps.append(StepTrace(step, [list(out)], [top.indices.tolist()], [top.values.tolist()],
                                   stepper.cross_row(), [(out[1:] + [token], score)]))
        out.append(token)
        if token == cfg.eos_id and step >= len(prefix) - 1:
            break
    ids = [t for t in out[1:] if t != cfg.eos_id]
    return Decoded(ids, score, steps)


def filtered_distribution(logp: torch.Tensor, temperature: float = 1.0, top_k: int = 0,
                          top_p: float = 1.0) -> torch.Tensor:
    """The next-token distribution sampling draws from, (V,) log-probabilities -> (V,) probabilities:
    softmax(logp / temperature), then only the top_k most likely (0: all), then only the smallest set of
    most likely tokens whose probability, renormalized after top-k, reaches top_p (nucleus sampling,
    Holtzman et al. 2020; the order of Hugging Face's warpers), renormalized.  temperature 0: all the
    probability on the most likely token (greedy)."""
    if temperature <= 0:
        probs = torch.zeros_like(logp)
        probs[logp.argmax()] = 1.0
        return probs
    probs = torch.softmax(logp.float() / temperature, dim=-1)
    order = probs.argsort(descending=True)
    keep = torch.zeros_like(probs, dtype=torch.bool)
    ranked = probs[order]
    n = ranked.numel() if top_k <= 0 else min(top_k, ranked.numel())
    if top_p < 1.0:                      # the first tokens whose cumulative probability reaches top_p
        kept = ranked[:n] / ranked[:n].sum()
        n = min(n, int((kept.cumsum(0) < top_p).sum()) + 1)
    keep[order[:n]] = True
    probs = probs * keep
    return probs / probs.sum()


@torch.inference_mode()
def first_log_probs(model: Transformer, src: list[int]) -> torch.Tensor:
    """log P(first output token | src) as decoding computes it (PAD and BOS excluded): (V,) on the CPU."""
    eval_mode(model)
    device = model.device
    stepper = _Stepper(model, torch.tensor([src], device=device), None, None)
    return stepper.log_probs(torch.tensor([model.cfg.bos_id], device=device))[0].float().cpu()


def sample_decode(model: Transformer, src: list[int], temperature: float = 1.0, top_k: int = 0,
                  top_p: float = 1.0, seed: int = 0, max_len: int | None = None, trace: bool = False,
                  prefix: Sequence[int] = ()) -> Decoded:
    """Draw each next token from filtered_distribution (temperature, top-k, top-p), reproducibly for a
    seed; temperature 0 is greedy decoding."""
    generator = torch.Generator().manual_seed(int(seed))

    def draw(logp: torch.Tensor) -> int:
        probs = filtered_distribution(logp, temperature, top_k, top_p).cpu()
        return int(torch.multinomial(probs, 1, generator=generator))

    return greedy_decode(model, src, max_len=max_len, trace=trace, prefix=prefix, sampler=draw)


@torch.inference_mode()
def greedy_decode_batch(model: Transformer, src: torch.Tensor, max_len: int | None = None,
                        force_eos: bool = False) -> list[list[int]]:
    """Greedy decoding of a padded batch src: (B, S), for validation BLEU.  -> B lists of ids."""
    eval_mode(model)
    cfg = model.cfg
    B = src.size(0)
    max_len = max_len or default_max_len(model, src.size(1))
    src_mask = unpadded_as_none(make_src_mask(src, cfg.pad_id))        # (B, 1, 1, S) or None
    memory = model.encode(src, src_mask)
    cache = [{} for _ in model.decoder]
    last = torch.full((B, 1), cfg.bos_id, dtype=torch.long, device=src.device)
    done = torch.zeros(B, dtype=torch.bool, device=src.device)
    outputs = []
    for pos in range(max_len):
        x = model.decode(last, memory, src_mask, None, None, cache, start=pos)
        last = next_log_probs(model, x[:, -1]).argmax(-1, keepdim=True)  # (B, 1)
        if force_eos and pos == max_len - 1:
            last = torch.full_like(last, cfg.eos_id)
        last = last.masked_fill(done.unsqueeze(1), cfg.pad_id)
        outputs.append(last)
        done |= last.squeeze(1) == cfg.eos_id
        if done.all():
            break
    result = []
    for row in torch.cat(outputs, dim=1).tolist():
        ids = []
        for t in row:
            if t in (cfg.eos_id, cfg.pad_id):
                break
            ids.append(t)
        result.append(ids)
    return result


@torch.inference_mode()
def beam_search(model: Transformer, src: list[int], beam: int = BEAM, alpha: float = ALPHA,
                max_len: int | None = None, trace: bool = False, top_k: int = 5,
                heads_off: dict[str, list[int]] | None = None, penalty: str = "gnmt", early_stopping: bool = True,
                renormalize: bool = True, force_eos: bool = False) -> Decoded:
    """Keeps the `beam` best hypotheses by log P; finished ones are ranked by log P / lp (penalty: gnmt | hf).

    It stops once `beam` hypotheses have ended (Hugging Face's generate with early_stopping=True); with
    early_stopping=False, as generate's default, only once the best live hypothesis, scored at its
    length, is no better than the worst of the `beam` best ended ones."""
    eval_mode(model)
    cfg = model.cfg
    max_len = max_len or default_max_len(model, len(src))
    device = model.device
    stepper = _Stepper(model, torch.tensor([src], device=device), None, _probe(trace, heads_off))
    alive = [[cfg.bos_id]]
    alive_scores = torch.zeros(1, device=device)
    finished: list[tuple[list[int], float]] = []   # (ids without BOS/EOS, normalized score)
    steps = [] if trace else None
    for step in range(max_len):
        logp = stepper.log_probs(torch.tensor([h[-1] for h in alive], device=device), renormalize)  # (n, V)
        if force_eos and step == max_len - 1:
            logp = forced_eos(logp, cfg.eos_id)
        cand = (alive_scores.unsqueeze(1) + logp).view(-1)               # (n·V,)
        top_scores, top_index = cand.topk(min(2 * beam, cand.numel()))
        keep, kept_scores, origins = [], [], []
        for rank, (s, idx) in enumerate(zip(top_scores.tolist(), top_index.tolist(), strict=False)):
            origin, token = divmod(idx, logp.size(1))
            ids = alive[origin][1:] + [token]
            if token == cfg.eos_id:
                if rank < beam:  # an EOS below the top `beam` candidates would not be in the beam
                    finished.append((ids[:-1], s / length_penalty(len(ids), alpha, penalty)))
            elif len(keep) < beam:
                keep.append(alive[origin] + [token])
                kept_scores.append(s)
                origins.append(origin)
        if trace:
            top = logp.exp().topk(top_k, dim=-1)
            steps.append(StepTrace(step, [list(h) for h in alive], top.indices.tolist(),
                                   top.values.tolist(), stepper.cross_row(),
                                   [(h[1:], s) for h, s in zip(keep, kept_scores, strict=False)],
                                   [(list(ids), s) for ids, s in finished]))
        if not keep:
            break
        if len(finished) >= beam:
            worst = sorted((f[1] for f in finished), reverse=True)[beam - 1]  # of the `beam` best ended
            if early_stopping or max(kept_scores) / length_penalty(step + 1, alpha, penalty) <= worst:
                break
        alive, alive_scores = keep, torch.tensor(kept_scores, device=device)
        stepper.reorder(torch.tensor(origins, device=device))
    else:  # max_len reached: the live hypotheses compete as they are
        finished += [(h[1:], s / length_penalty(len(h) - 1, alpha, penalty))
                     for h, s in zip(alive, alive_scores.tolist(), strict=False)]
        if trace:
            steps[-1].finished = [(list(ids), s) for ids, s in finished]
    ids, score = max(finished, key=lambda f: f[1])
    return Decoded(ids, score, steps)


@torch.inference_mode()
def beam_search_batch(model: Transformer, src: torch.Tensor, beam: int = BEAM, alpha: float = ALPHA,
                      penalty: str = "gnmt", early_stopping: bool = True, renormalize: bool = True,
                      force_eos: bool = False) -> list[list[int]]:
    """beam_search for a padded batch src: (B, S), every sentence's hypotheses decoded together (evaluation,
    the test score at the end of training).  Each sentence follows beam_search's rules exactly, with its
    own max_len; one decoder call a step serves them all.  -> B lists of ids."""
    eval_mode(model)
    cfg, device = model.cfg, model.device
    src = src.to(device)
    limits = [default_max_len(model, int(n)) for n in (src != cfg.pad_id).sum(1).tolist()]
    alive = {b: [[cfg.bos_id]] for b in range(src.size(0))}        # live sentences: their hypotheses
    scores = {b: [0.0] for b in alive}
    finished: dict[int, list[tuple[list[int], float]]] = {b: [] for b in alive}
    stepper = _Stepper(model, src, torch.arange(src.size(0), device=device), None)
    for step in range(max(limits)):
        order = list(alive)                                         # the sentences of this step, in row order
        last = torch.tensor([h[-1] for b in order for h in alive[b]], device=device)
        logp = stepper.log_probs(last, renormalize)                 # (n, V), n = all live hypotheses
        width = max(len(alive[b]) for b in order)
        cand = torch.full((len(order), width, logp.size(1)), float("-inf"), device=device)  # (B', beam, V)
        row = 0
        for i, b in enumerate(order):
            k = len(alive[b])
            step_logp = forced_eos(logp[row:row + k], cfg.eos_id) if force_eos and step == limits[b] - 1 \
                else logp[row:row + k]
            cand[i, :k] = torch.tensor(scores[b], device=device).unsqueeze(1) + step_logp
            row += k
        top_scores, top_index = cand.view(len(order), -1).topk(2 * beam, dim=-1)   # (B', 2·beam)
        origins, row = [], 0
        for b, s_row, i_row in zip(order, top_scores.tolist(), top_index.tolist(), strict=False):
            keep, kept_scores = [], []
            for rank, (s, idx) in enumerate(zip(s_row, i_row, strict=False)):
                origin, token = divmod(idx, logp.size(1))
                if origin >= len(alive[b]):
                    continue                                        # padding of a sentence with fewer hypotheses
                ids = alive[b][origin][1:] + [token]
                if token == cfg.eos_id:
                    if rank < beam:
                        finished[b].append((ids[:-1], s / length_penalty(len(ids), alpha, penalty)))
                elif len(keep) < beam:
                    keep.append(alive[b][origin] + [token])
                    kept_scores.append(s)
                    origins.append(row + origin)
            done = not keep
            if keep and len(finished[b]) >= beam:
                worst = sorted((f[1] for f in finished[b]), reverse=True)[beam - 1]
                done = early_stopping or max(kept_scores) / length_penalty(step + 1, alpha, penalty) <= worst
            if not done and step == limits[b] - 1:                  # max_len reached: they compete as they are
                finished[b] += [(h[1:], s / length_penalty(len(h) - 1, alpha, penalty))
                                for h, s in zip(keep, kept_scores, strict=False)]
                done = True
            row += len(alive[b])
            if done:
                del origins[len(origins) - len(keep):]
                del alive[b]
            else:
                alive[b], scores[b] = keep, kept_scores
        if not alive:
            break
        stepper.reorder(torch.tensor(origins, device=device))
    return [max(finished[b], key=lambda f: f[1])[0] for b in range(src.size(0))]
