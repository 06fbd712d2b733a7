import torch

from transformer_core.explainer.toy import batch_qkv, causal_leak, mask_for, pad_batch, whitespace_batch
from transformer_core.model.masks import make_trg_mask


def test_whitespace_batch_pads_with_zero():
    ids, tokens, vocab = whitespace_batch(["I like apples", "hi"])
    assert ids.shape == (2, 5) and tokens[1] == ["<bos>", "hi", "<eos>", "<pad>", "<pad>"]
    assert ids[1, 3:].tolist() == [0, 0] and vocab["<pad>"] == 0
    assert torch.equal(mask_for("combined", ids), make_trg_mask(ids, 0))


def test_causal_leak():
    toks = ["<bos>", "I", "like", "apples", "<eos>"]
    leak = causal_leak(toks, 3, "pears")
    assert all(d == 0.0 for d in leak["with_mask"][:3])
    assert all(d > 1e-6 for d in leak["without_mask"][:3])
    assert leak["with_mask"][3] > 0


def test_batch_qkv_shapes():
    _, tokens, _ = whitespace_batch(["a b", "c"])
    q, k, v = batch_qkv(tokens, d_k=4)
    assert q.shape == (2, 1, 4, 4)


def test_pad_batch():
    ids = pad_batch([[5, 6, 7], [8]], pad_id=0)
    assert ids.tolist() == [[5, 6, 7], [8, 0, 0]]
