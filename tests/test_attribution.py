"""Gradient attribution (transformer_core/explainer/attribution.py) against its definitions."""
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from command_line import in_process

from transformer_core.explainer import attribution
from transformer_core.model.config import ModelConfig
from transformer_core.model.transformer import Transformer

pytestmark = pytest.mark.usefixtures("one_thread")
ROOT = Path(__file__).resolve().parents[1]
CFG = ModelConfig(vocab_size=20, d_model=32, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=64,
                  max_len=32, activation="gelu")
SRC, OUT = [2, 5, 6, 7, 8, 3], [9, 10, 11]


def model(seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(CFG).eval()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_integrated_gradients_are_complete(seed):
    """Each row sums to log p(y_t | x) − log p(y_t | 0), within 1 %, at the default 32 steps."""
    m = model(seed)
    scores = attribution.attribute(m, SRC, OUT, "integrated_gradients")
    assert scores.shape == (len(OUT) + 1, len(SRC))
    src, tgt_in, labels = torch.tensor([SRC]), torch.tensor([[CFG.bos_id, *OUT]]), torch.tensor([[*OUT, CFG.eos_id]])
    with torch.no_grad():
        x = m.token_vectors(src)
        ends = attribution.target_log_probs(m, src, tgt_in, labels, torch.cat([x, torch.zeros_like(x)]))
    diff = (ends[0] - ends[1]).numpy()
    gap = attribution.completeness_gap(m, SRC, OUT, scores)
    assert np.all(np.abs(gap) <= 0.01 * np.abs(diff) + 1e-4), (gap, diff)


def test_input_x_gradient_is_the_first_order_change():
    """Scaling one source token's vector by (1 + ε) changes log p(y_t) by ε · (input × gradient)."""
    m = model(3)
    scores = attribution.attribute(m, SRC, OUT, "input_x_gradient")
    src, tgt_in, labels = torch.tensor([SRC]), torch.tensor([[CFG.bos_id, *OUT]]), torch.tensor([[*OUT, CFG.eos_id]])
    eps, s = 1e-3, 2
    with torch.no_grad():
        x = m.token_vectors(src)
        bumped = x.clone()
        bumped[0, s] *= 1 + eps
        f = attribution.target_log_probs(m, src, tgt_in, labels, torch.cat([x, bumped]))
    np.testing.assert_allclose((f[1] - f[0]).numpy() / eps, scores[:, s], rtol=2e-2, atol=2e-4)
    saliency = attribution.attribute(m, SRC, OUT, "saliency")
    assert (saliency >= 0).all() and saliency.shape == scores.shape


def test_agreement_is_a_rank_correlation_per_row():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(4, 6))
    cross = np.stack([np.stack([np.abs(scores), -np.abs(scores)])])          # (L=1, h=2, T, S)
    got = attribution.agreement(scores, cross)
    assert got["heads"][0][0] == pytest.approx(1.0) and got["heads"][0][1] == pytest.approx(-1.0)
    assert attribution.spearman_rows(np.ones((2, 3)), np.arange(6.0).reshape(2, 3)).tolist() == [0.0, 0.0]


def test_the_command_line_prints_pieces_and_one_row_per_target_piece():
    done = in_process(["attribution", "--checkpoint", ROOT / "checkpoints" / "enko", "--method", "saliency", "--json",
                       "I like apples."])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["source"] == ["<s>", "▁I", "▁like", "▁apples", ".", "</s>"]
    assert len(out["scores"]) == len(out["target"]) and all(len(r) == len(out["source"]) for r in out["scores"])
    assert out["target"][-1] == "</s>"


@pytest.mark.parametrize("method", attribution.METHODS)
def test_rows_in_chunks_give_the_scores_of_one_pass(method):
    """attribute runs the decoder on a prefix per chunk of target rows: the scores do not depend on it."""
    m = model(4)
    whole = attribution.attribute(m, SRC, OUT, method, chunk=len(OUT) + 1)
    for chunk in (1, 2, 3):
        np.testing.assert_allclose(attribution.attribute(m, SRC, OUT, method, chunk=chunk), whole, rtol=1e-5, atol=1e-6)


def test_gold_aer_links_each_target_word_to_its_largest_share(capsys):
    """--gold: the attribution's AER over the checkpoint's gold alignments, counted link by link here."""
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer import alignment
    from transformer_core.serving.commands import attribution_main

    assert attribution_main(["--checkpoint", str(ROOT / "checkpoints" / "enko"), "--method", "saliency",
                             "--gold", "--limit", "4"]) == 0
    got = json.loads(capsys.readouterr().out)
    ckpt = load_checkpoint(ROOT / "checkpoints" / "enko")
    tok, hits, predicted, gold_n = ckpt.tokenizer, 0, 0, 0
    for src, (tgt, links) in list(ckpt.gold.items())[:4]:
        scores = attribution.attribute(ckpt.model, [tok.bos_id, *tok.encode(src), tok.eos_id], tok.encode(tgt),
                                       "saliency")[:-1, 1:-1]      # (T, S) without </s>, <s>
        words = alignment.to_words(attribution.shares(np.pad(scores, ((0, 1), (1, 1)))), tok, src, tgt)
        links_set = {(int(np.argmax(row)), t) for t, row in enumerate(words)}
        gold = alignment.parse(links)
        hits, predicted, gold_n = hits + len(links_set & gold), predicted + len(links_set), gold_n + len(gold)
    assert got["sentences"] == 4 and got["refused"] == 0
    assert got["attribution_aer"] == pytest.approx(1 - 2 * hits / (predicted + gold_n), abs=1e-4)
    assert all(0 <= got[k] <= 1 for k in ("best_head_aer", "mean_of_heads_aer"))
