"""Alignment error rate of attention heads against gold word alignments."""
import numpy as np
import pytest

from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer.alignment import Counts, fmt, links_of, parse, score_heads, word_cross_attention


def test_aer_by_hand():
    gold = parse("0-0 1-2 2-1")
    assert fmt(gold) == "0-0 1-2 2-1"
    c = Counts()
    c.add(parse("0-0 1-2 2-1"), gold)
    assert c.aer == 0.0
    c = Counts()
    c.add(parse("0-0 1-1 2-1"), gold)          # 2 of 3 right: 1 - 2*2/(3+3)
    assert c.aer == pytest.approx(1 - 4 / 6)
    c.add(set(), parse("0-0"))                  # a sentence with no prediction adds to |S| only
    assert c.aer == pytest.approx(1 - 4 / 7)


def test_links_take_the_most_attended_source_word():
    attention = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])     # (W_tgt, W_src)
    assert links_of(attention) == {(0, 0), (2, 1)}


def test_heads_are_scored_on_word_level_cross_attention(toy_checkpoints):
    ckpt = load_checkpoint(toy_checkpoints / "toy-en")
    src, tgt = ckpt.examples[0]["src"], ckpt.examples[0]["ref"]
    attn = word_cross_attention(ckpt.model, ckpt.tokenizer, src, tgt)
    L, H = ckpt.config.n_decoder_layers, ckpt.config.n_heads
    assert attn.shape == (L, H, len(tgt.split()), len(src.split()))
    assert np.allclose(attn.sum(-1), 1.0, atol=0.35) and (attn.sum(-1) <= 1.0 + 1e-5).all()   # <s>, </s> left out
    diagonal = {(i, i) for i in range(len(src.split()))}
    result = score_heads(ckpt.model, ckpt.tokenizer, [(src, tgt, diagonal)] * 2)
    assert np.array(result["heads"]).shape == (L, H) and result["sentences"] == 2
    expected = Counts()
    for _ in range(2):
        expected.add(links_of(attn[0, 0]), diagonal)
    assert result["heads"][0][0] == pytest.approx(round(expected.aer, 4))
    assert result["heads"][result["best"][0]][result["best"][1]] == min(min(r) for r in result["heads"])
