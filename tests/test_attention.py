"""Scaled dot-product and multi-head attention, checked by hand and against torch.nn.MultiheadAttention."""
import math

import pytest
import torch
from torch import nn

from transformer_core.model.attention import MultiHeadAttention, attention_steps
from transformer_core.model.masks import make_src_mask, make_trg_mask
from transformer_core.model.probe import Probe

pytestmark = pytest.mark.usefixtures("one_thread")

D, H = 32, 4
TOL = dict(atol=1e-5, rtol=1e-5)  # the peer checks' tolerance: 1e-5 (float32)


def test_attention_steps_by_hand():
    q = torch.tensor([[1.0, 0.0]])                       # (Tq=1, d_k=2)
    k = torch.tensor([[1.0, 0.0], [0.0, 1.0]])           # (Tk=2, d_k=2)
    v = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    s = attention_steps(q, k, v)
    # scores = q·k = [1, 0]; scaled by 1/√2 = [0.7071, 0]; softmax: e^0.7071 = 2.0281 -> 2.0281/3.0281
    assert s["scores"].tolist() == [[1.0, 0.0]]
    torch.testing.assert_close(s["scaled"], torch.tensor([[1 / math.sqrt(2), 0.0]]))
    torch.testing.assert_close(s["weights"], torch.tensor([[0.6698, 0.3302]]), atol=1e-4, rtol=0)
    # output = 0.6698·[1, 2] + 0.3302·[3, 4] = [1.6604, 2.6604]
    torch.testing.assert_close(s["output"], torch.tensor([[1.6604, 2.6604]]), atol=1e-4, rtol=0)

    masked = attention_steps(q, k, v, mask=torch.tensor([[True, False]]))
    assert masked["masked"][0, 1].item() == float("-inf")
    assert masked["weights"].tolist() == [[1.0, 0.0]]    # exactly: exp(-inf) = 0
    assert masked["output"].tolist() == [[1.0, 2.0]]


def _ours_and_peer(seed=0):
    torch.manual_seed(seed)
    ours = MultiHeadAttention(D, H, "test.attn").eval()
    for lin in (ours.w_q, ours.w_k, ours.w_v, ours.w_o):      # non-zero biases, so they are checked too
        nn.init.normal_(lin.bias, std=0.5)
    peer = nn.MultiheadAttention(D, H, bias=True, batch_first=True).eval()
    with torch.no_grad():
        peer.in_proj_weight.copy_(torch.cat([ours.w_q.weight, ours.w_k.weight, ours.w_v.weight]))
        peer.in_proj_bias.copy_(torch.cat([ours.w_q.bias, ours.w_k.bias, ours.w_v.bias]))
        peer.out_proj.weight.copy_(ours.w_o.weight)
        peer.out_proj.bias.copy_(ours.w_o.bias)
    return ours, peer


def _both_paths(ours, x_q, x_kv, mask):
    """Our output on the fast (SDPA) path and on the traced (explicit softmax) path, plus the weights."""
    fast = ours(x_q, x_kv, mask)
    probe = Probe()
    traced = ours(x_q, x_kv, mask, probe)
    return fast, traced, probe.records["test.attn"]["weights"]


@torch.no_grad()
def test_matches_torch_multihead_attention_without_mask():
    ours, peer = _ours_and_peer()
    x = torch.randn(2, 7, D)
    fast, traced, weights = _both_paths(ours, x, x, None)
    ref, ref_w = peer(x, x, x, need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(fast, ref, **TOL)
    torch.testing.assert_close(traced, ref, **TOL)
    torch.testing.assert_close(weights, ref_w, **TOL)      # (B, h, Tq, Tk)


@torch.no_grad()
def test_matches_torch_multihead_attention_with_padding_mask():
    ours, peer = _ours_and_peer(1)
    src = torch.tensor([[5, 6, 7, 8, 9, 4],
                        [5, 6, 7, 0, 0, 0]])
    x_q, x_kv = torch.randn(2, 4, D), torch.randn(2, 6, D)   # encoder-decoder shape: Tq != Tk
    mask = make_src_mask(src, pad_id=0)                      # ours: (B, 1, 1, S), True = may attend
    fast, traced, weights = _both_paths(ours, x_q, x_kv, mask)
    # nn.MultiheadAttention's bool masks mean the opposite: True = masked out.
    ref, ref_w = peer(x_q, x_kv, x_kv, key_padding_mask=(src == 0), need_weights=True,
                      average_attn_weights=False)
    torch.testing.assert_close(fast, ref, **TOL)
    torch.testing.assert_close(traced, ref, **TOL)
    torch.testing.assert_close(weights, ref_w, **TOL)
    assert (weights[1, :, :, 3:] == 0).all()


@torch.no_grad()
def test_matches_torch_multihead_attention_with_causal_and_padding_mask():
    ours, peer = _ours_and_peer(2)
    trg = torch.tensor([[2, 6, 7, 8, 9],
                        [2, 6, 7, 0, 0]])
    x = torch.randn(2, 5, D)
    mask = make_trg_mask(trg, pad_id=0)                      # (B, 1, T, T)
    fast, traced, weights = _both_paths(ours, x, x, mask)
    causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)   # True = masked out
    ref, ref_w = peer(x, x, x, attn_mask=causal, key_padding_mask=(trg == 0), need_weights=True,
                      average_attn_weights=False, is_causal=False)
    torch.testing.assert_close(fast, ref, **TOL)
    torch.testing.assert_close(traced, ref, **TOL)
    torch.testing.assert_close(weights, ref_w, **TOL)
    # The same mask given to nn as one 3-D (B·h, T, T) mask.
    ref3, _ = peer(x, x, x, attn_mask=(~mask).expand(2, H, 5, 5).reshape(2 * H, 5, 5))
    torch.testing.assert_close(fast, ref3, **TOL)


@torch.no_grad()
def test_switched_off_head_equals_zeroed_output_projection_columns():
    ours, _ = _ours_and_peer(3)
    x = torch.randn(2, 6, D)
    d_k = D // H
    off = Probe(record=False, heads_off={"test.attn": [1]})   # fast path, gated
    gated = ours(x, x, None, off)
    gated_traced = ours(x, x, None, Probe(heads_off={"test.attn": [1]}))
    assert off.records == {}
    reference = MultiHeadAttention(D, H, "test.attn")
    reference.load_state_dict(ours.state_dict())
    reference.w_o.weight[:, d_k:2 * d_k] = 0.0                # head 1's slice of W^O's input
    torch.testing.assert_close(gated, reference(x, x, None), **TOL)
    torch.testing.assert_close(gated_traced, gated, **TOL)
    assert not torch.allclose(gated, ours(x, x, None), atol=1e-3)


@torch.no_grad()
def test_self_attention_cache_matches_full_causal_pass():
    ours, _ = _ours_and_peer(4)
    x = torch.randn(1, 5, D)
    T = 5
    full = ours(x, x, torch.tril(torch.ones(T, T, dtype=torch.bool)))
    cache = {}
    steps = [ours(x[:, t:t + 1], x[:, t:t + 1], None, cache=cache) for t in range(T)]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, **TOL)
    assert cache["k"].shape == (1, H, T, D // H)


@torch.no_grad()
def test_cross_attention_cache_computes_memory_keys_once():
    torch.manual_seed(5)
    cross = MultiHeadAttention(D, H, "test.cross", cross=True)
    memory = torch.randn(1, 6, D)
    cache = {}
    first = cross(torch.randn(1, 1, D), memory, None, cache=cache)
    k = cache["k"]
    y = torch.randn(1, 1, D)
    # Later steps reuse the memory's K and V even when handed something else.
    torch.testing.assert_close(cross(y, torch.zeros(1, 6, D), None, cache=cache), cross(y, memory, None))
    assert cache["k"] is k and first.shape == (1, 1, D)


@pytest.mark.parametrize("full", [False, True])
def test_probe_records_are_detached(full):
    ours, _ = _ours_and_peer(6)
    x = torch.randn(1, 3, D, requires_grad=True)
    probe = Probe(full=full)
    ours(x, x, None, probe).sum().backward()
    assert x.grad is not None
    assert all(not t.requires_grad for t in probe.records["test.attn"].values())
