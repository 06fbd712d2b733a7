"""Greedy and beam decoding (KV cache) against full teacher-forced forward passes of the same model."""
import itertools
import math
from itertools import pairwise

import pytest
import torch

from transformer_core.model.config import ModelConfig
from transformer_core.model.decoding import (
    beam_search,
    beam_search_batch,
    default_max_len,
    embedding_t,
    filtered_distribution,
    greedy_decode,
    greedy_decode_batch,
    length_penalty,
    sample_decode,
)
from transformer_core.model.transformer import Transformer

pytestmark = pytest.mark.usefixtures("one_thread")

PAD, UNK, BOS, EOS = 0, 1, 2, 3
CFG = ModelConfig(vocab_size=16, d_model=32, n_heads=4, n_encoder_layers=2, n_decoder_layers=2,
                  d_ff=64, dropout=0.1, max_len=32)
MIXED = 12  # a seed whose greedy outputs have 10, 0, 3 and 5 tokens at max_len 10
SOURCES = [[BOS, 5, 6, 7, 8, 9, EOS], [BOS, 10, 11, EOS], [BOS, 12, EOS], [BOS, 13, 14, 15, 4, EOS]]


def make_model(seed: int, cfg: ModelConfig = CFG, eos_boost: float = 3.0) -> Transformer:
    """A random model; EOS's embedding row is scaled up so that some outputs end early."""
    torch.manual_seed(seed)
    model = Transformer(cfg).eval()
    with torch.no_grad():
        model.embedding.weight[EOS] *= eos_boost
    return model


@torch.no_grad()
def teacher_forced_log_probs(model: Transformer, src: list[int], out: list[int]) -> torch.Tensor:
    """Full forward on BOS + out -> (len(out) + 1, V) log P(next token), PAD and BOS excluded as in decoding."""
    logits = model(torch.tensor([src]), torch.tensor([[BOS, *out]]))[0].clone()
    logits[:, [PAD, BOS]] = float("-inf")
    return torch.log_softmax(logits, dim=-1)


def with_eos(ids: list[int], max_len: int) -> list[int]:
    """The tokens the decoder produced: the output plus EOS when it stopped before max_len."""
    return ids + [EOS] if len(ids) < max_len else ids


@pytest.mark.parametrize("seed", [0, 5, 12])
def test_cached_greedy_is_argmax_of_full_forward_on_its_own_output(seed):
    model = make_model(seed)
    for src in SOURCES:
        out = greedy_decode(model, src, max_len=10)
        produced = with_eos(out.ids, 10)
        logp = teacher_forced_log_probs(model, src, produced[:-1])       # (len(produced), V)
        assert logp.argmax(-1).tolist() == produced
        assert out.score == pytest.approx(float(logp[range(len(produced)), produced].sum()), abs=1e-4)


def test_greedy_follows_the_embedding_after_it_changes():
    """Greedy reads a cached copy of Eᵀ (decoding.embedding_t): after an in-place update of E (as an optimizer
    step) and after load_state_dict it must decode with the new E, exactly as a full forward pass does."""
    model, other = make_model(0), make_model(5)
    src = SOURCES[0]
    greedy_decode(model, src, max_len=10)                       # the copy of Eᵀ is made and kept
    assert torch.equal(embedding_t(model), model.embedding.weight.t())
    for change in (lambda: model.embedding.weight.mul_(-1.5),
                   lambda: model.load_state_dict(other.state_dict())):
        with torch.no_grad():
            change()
        out = greedy_decode(model, src, max_len=10)
        assert torch.equal(embedding_t(model), model.embedding.weight.t())
        produced = with_eos(out.ids, 10)
        assert teacher_forced_log_probs(model, src, produced[:-1]).argmax(-1).tolist() == produced
    assert greedy_decode(model, src, max_len=10).ids == greedy_decode(other, src, max_len=10).ids


def test_decoding_exercises_both_endings():
    """Precondition of the tests using MIXED: some outputs stop at EOS, early or late, and some run to max_len."""
    lengths = {len(greedy_decode(make_model(MIXED), src, max_len=10).ids) for src in SOURCES}
    assert 10 in lengths and any(0 < n < 10 for n in lengths)


def test_beam_1_equals_greedy():
    for seed in range(6):
        model = make_model(seed)
        for src in SOURCES:
            greedy, beam = greedy_decode(model, src, max_len=10), beam_search(model, src, beam=1, max_len=10)
            assert beam.ids == greedy.ids, (seed, src)


@pytest.mark.parametrize("alpha", [0.0, 0.6, 1.5])
def test_exhaustive_beam_finds_best_length_penalized_hypothesis(alpha):
    """With a beam wider than all hypotheses (vocab 6, max_len 3) beam search is exhaustive: it must return
    argmax_Y log P(Y|X) / ((5 + |Y|) / 6)^α over every Y, |Y| counting EOS."""
    cfg = ModelConfig(vocab_size=6, d_model=16, n_heads=2, n_encoder_layers=1, n_decoder_layers=1,
                      d_ff=32, max_len=16)
    model = make_model(1, cfg, eos_boost=1.0)
    src = [BOS, 4, 5, 4, EOS]
    tokens = [UNK, 4, 5]                                                # all a decoder can emit but EOS
    candidates = {}
    for n in range(4):
        for body in itertools.product(tokens, repeat=n):
            produced = list(body) + ([EOS] if n < 3 else [])            # at max_len 3 a hypothesis stops as is
            logp = teacher_forced_log_probs(model, src, list(body))
            total = float(logp[range(len(produced)), produced].sum())
            candidates[body] = total / ((5 + len(produced)) / 6) ** alpha
    best = max(candidates, key=candidates.get)
    out = beam_search(model, src, beam=200, alpha=alpha, max_len=3)
    assert tuple(out.ids) == best
    assert out.score == pytest.approx(candidates[best], abs=1e-4)
    assert length_penalty(4, 0.6) == pytest.approx(((5 + 4) / 6) ** 0.6)
    assert length_penalty(4, 0.6, "hf") == pytest.approx(4 ** 0.6)


def test_beam_trace_hypotheses_sorted_and_scored():
    model = make_model(0)
    src = SOURCES[0]
    out = beam_search(model, src, beam=3, max_len=6, trace=True, top_k=4)
    assert len(out.ids) <= 6
    for step in out.steps:
        scores = [s for _, s in step.beams]
        assert scores == sorted(scores, reverse=True)                    # best first
        assert len(step.beams) <= 3
        for ids, s in step.beams:                                          # raw log P of each live prefix
            logp = teacher_forced_log_probs(model, src, ids[:-1])
            assert s == pytest.approx(float(logp[range(len(ids)), ids].sum()), abs=1e-4)
        _check_step_trace(model, src, step)


def _check_step_trace(model, src, step):
    n = len(step.prefixes)
    assert step.cross.shape == (n, CFG.n_decoder_layers, CFG.n_heads, len(src))
    for b, prefix in enumerate(step.prefixes):
        assert prefix[0] == BOS and len(prefix) == step.step + 1
        _, probe = model.trace(torch.tensor([src]), torch.tensor([prefix]))
        for layer in range(CFG.n_decoder_layers):                        # the last query row of the prefix
            torch.testing.assert_close(step.cross[b, layer], probe.weights("cross", layer)[0, :, -1],
                                       atol=1e-5, rtol=1e-5)
        probs = step.topk_probs[b]
        assert probs == sorted(probs, reverse=True)
        assert all(0 <= p <= 1 for p in probs) and sum(probs) <= 1 + 1e-6
        tf = teacher_forced_log_probs(model, src, prefix[1:])[-1].exp()
        torch.testing.assert_close(torch.tensor(probs), tf[step.topk_ids[b]], atol=1e-5, rtol=1e-5)


def test_greedy_trace_rows_match_teacher_forcing():
    model = make_model(MIXED)
    src = SOURCES[3]
    out = greedy_decode(model, src, max_len=8, trace=True, top_k=3)
    produced = with_eos(out.ids, 8)
    assert len(out.steps) == len(produced)
    running = 0.0
    for step, token in zip(out.steps, produced, strict=True):
        assert step.topk_ids[0][0] == token                              # greedy takes the top-1
        running += math.log(step.topk_probs[0][0])
        assert step.beams[0][1] == pytest.approx(running, abs=1e-4)
        _check_step_trace(model, src, step)


def test_batched_greedy_equals_per_sentence_greedy():
    model = make_model(MIXED)
    width = max(map(len, SOURCES))
    batch = torch.tensor([s + [PAD] * (width - len(s)) for s in SOURCES])
    assert (batch == PAD).any()
    batched = greedy_decode_batch(model, batch, max_len=10)
    assert batched == [greedy_decode(model, src, max_len=10).ids for src in SOURCES]


@pytest.mark.parametrize("seed, options", [
    (MIXED, {}), (0, {"beam": 3}), (5, {"alpha": 1.0, "penalty": "hf", "early_stopping": False}),
    (12, {"renormalize": False, "force_eos": True}), (3, {"beam": 1})])
def test_batched_beam_equals_per_sentence_beam(seed, options):
    """Every sentence of a padded batch gets exactly the hypothesis beam_search finds for it alone."""
    model = make_model(seed)
    width = max(map(len, SOURCES))
    batch = torch.tensor([s + [PAD] * (width - len(s)) for s in SOURCES])
    alone = [beam_search(model, src, **options).ids for src in SOURCES]
    assert beam_search_batch(model, batch, **options) == alone
    assert len({len(ids) for ids in alone}) > 1                          # outputs of different lengths


def _model_preferring_specials() -> Transformer:
    """A model whose decoder output is the same vector b everywhere and whose largest logits are PAD and BOS,
    with EOS the smallest: decoding must skip PAD/BOS and can only stop at max_len."""
    model = make_model(2, eos_boost=1.0)
    with torch.no_grad():
        b = torch.nn.functional.normalize(torch.randn(CFG.d_model), dim=0)
        final = model.decoder[-1].add_norm3.norm
        final.weight.zero_()
        final.bias.copy_(b)                                              # LayerNorm output = b
        model.embedding.weight[PAD] = 10 * b                             # logit 10
        model.embedding.weight[BOS] = 9 * b                              # logit 9
        model.embedding.weight[EOS] = -10 * b                            # logit -10
    return model


def test_never_emits_pad_or_bos_and_respects_max_len():
    model = _model_preferring_specials()
    src = SOURCES[0]
    raw = model(torch.tensor([src]), torch.tensor([[BOS, 5]]))
    assert raw.argmax(-1).tolist() == [[PAD, PAD]]                       # left alone, PAD would win
    for out in (greedy_decode(model, src, max_len=7).ids,
                beam_search(model, src, beam=3, max_len=7).ids,
                *greedy_decode_batch(model, torch.tensor([src, src[:3] + [PAD] * 4]), max_len=7)):
        assert len(out) == 7
        assert PAD not in out and BOS not in out
    assert len(greedy_decode(model, src).ids) == default_max_len(model, len(src)) == 2 * len(src) + 10
    long_src = [BOS] + [5] * 28 + [EOS]
    assert len(greedy_decode(model, long_src).ids) == CFG.max_len - 1   # capped by the model's max_len


def test_heads_off_in_decoding_equals_zeroed_output_columns():
    model = make_model(0)
    d_k = CFG.d_model // CFG.n_heads
    zeroed = make_model(0)
    with torch.no_grad():
        zeroed.decoder[0].cross_attn.w_o.weight[:, :d_k] = 0.0           # head 0's slice of W^O's input
    for src in SOURCES:
        off = greedy_decode(model, src, max_len=8, heads_off={"decoder.0.cross_attn": [0]})
        ref = greedy_decode(zeroed, src, max_len=8)
        assert off.ids == ref.ids and off.score == pytest.approx(ref.score, abs=1e-4)
        off_b = beam_search(model, src, beam=2, max_len=8, heads_off={"decoder.0.cross_attn": [0]})
        ref_b = beam_search(zeroed, src, beam=2, max_len=8)
        assert off_b.ids == ref_b.ids


@pytest.mark.parametrize("seed", range(6))
def test_the_last_beam_step_lists_every_finished_hypothesis_with_the_chosen_one(seed):
    model = make_model(seed)
    decoded = beam_search(model, [2, 5, 6, 7, 3], beam=3, trace=True)
    last = decoded.steps[-1]
    assert (decoded.ids, decoded.score) in [(ids, score) for ids, score in last.finished]
    assert max(score for _, score in last.finished) == decoded.score
    for before, after in pairwise(decoded.steps):       # finished hypotheses accumulate
        assert after.finished[:len(before.finished)] == before.finished



@pytest.mark.parametrize("seed", [0, 5, 12])
def test_a_forced_prefix_is_kept_and_greedy_continues_from_it(seed):
    model = make_model(seed)
    src = SOURCES[0]
    free = greedy_decode(model, src, max_len=10).ids
    prefix = [9, 4] if free[:2] != [9, 4] else [8, 4]            # a beginning the model would not choose
    out = greedy_decode(model, src, max_len=10, prefix=prefix)
    assert out.ids[:2] == prefix and out.ids != free
    logp = teacher_forced_log_probs(model, src, out.ids)      # every token after the prefix is the argmax
    for i, token in enumerate(with_eos(out.ids, 10)[2:], start=2):
        assert int(logp[i].argmax()) == token
    assert out.score == pytest.approx(float(sum(logp[i, t] for i, t in enumerate(with_eos(out.ids, 10)))), abs=1e-4)


def test_filtered_distribution_keeps_top_k_and_the_nucleus():
    logp = torch.log_softmax(torch.tensor([3.0, 2.0, 1.0, 0.0, -1.0, -9.0]), dim=0)
    probs = logp.exp()
    assert torch.allclose(filtered_distribution(logp), probs)
    top2 = filtered_distribution(logp, top_k=2)
    assert (top2[2:] == 0).all() and torch.allclose(top2[:2], probs[:2] / probs[:2].sum())
    nucleus = filtered_distribution(logp, top_p=0.8)             # 0.64 + 0.23 reaches 0.8
    assert (nucleus > 0).tolist() == [True, True, False, False, False, False]
    # top-p after top-k, on what top-k left: of 0.64 and 0.23, renormalized (0.73, 0.27), 0.73 reaches 0.7
    assert (filtered_distribution(logp, top_k=2, top_p=0.7) > 0).tolist() == [True] + [False] * 5
    assert (filtered_distribution(logp, top_p=0.7) > 0).tolist() == [True, True] + [False] * 4
    hot = filtered_distribution(logp, temperature=2.0)
    assert hot[0] < probs[0] and hot[4] > probs[4] and torch.isclose(hot.sum(), torch.tensor(1.0))
    assert filtered_distribution(logp, temperature=0).tolist() == [1, 0, 0, 0, 0, 0]


def test_sampling_is_reproducible_for_a_seed_and_greedy_at_temperature_zero():
    model = make_model(MIXED, eos_boost=1.0)
    src = SOURCES[1]
    draws = {seed: sample_decode(model, src, temperature=1.5, seed=seed, max_len=10).ids for seed in range(6)}
    assert sample_decode(model, src, temperature=1.5, seed=3, max_len=10).ids == draws[3]
    assert len({tuple(d) for d in draws.values()}) > 1                 # different seeds draw differently
    assert sample_decode(model, src, temperature=0, seed=4, max_len=10).ids == greedy_decode(model, src, max_len=10).ids
