"""The encoder-decoder model: checked against torch.nn.Transformer, and its traces against its own outputs."""
import math
from itertools import pairwise

import pytest
import torch
from torch import nn

from transformer_core.model.config import ModelConfig
from transformer_core.model.masks import subsequent_mask
from transformer_core.model.probe import Probe
from transformer_core.model.transformer import Transformer, sizes, state_shapes

pytestmark = pytest.mark.usefixtures("one_thread")

PAD, BOS, EOS = 0, 2, 3
TOL = dict(atol=1e-5, rtol=1e-5)  # peer and fast/traced tolerance: 1e-5 (float32)
CFG = ModelConfig(vocab_size=40, d_model=32, n_heads=4, n_encoder_layers=2, n_decoder_layers=2,
                  d_ff=64, dropout=0.1, max_len=32)


def make_model(seed=0, **overrides) -> Transformer:
    torch.manual_seed(seed)
    cfg = ModelConfig(**{**CFG.__dict__, **overrides})
    model = Transformer(cfg)
    with torch.no_grad():  # random non-zero biases and LayerNorm affine, so the peer check covers them
        for name, p in model.named_parameters():
            if name.endswith("bias") or ".norm." in name:
                p.add_(torch.randn_like(p) * 0.1)
    return model.eval()


def batch():
    """A padded batch: 2 sources (S=6) and decoder inputs (T=5), BOS first."""
    src = torch.tensor([[BOS, 11, 12, 13, 14, EOS],
                        [BOS, 21, 22, EOS, PAD, PAD]])
    tgt_in = torch.tensor([[BOS, 31, 32, 33, 34],
                           [BOS, 35, 36, PAD, PAD]])
    return src, tgt_in


def _peer_of(model: Transformer) -> nn.Transformer:
    cfg = model.cfg
    peer = nn.Transformer(cfg.d_model, cfg.n_heads, cfg.n_encoder_layers, cfg.n_decoder_layers, cfg.d_ff,
                          cfg.dropout, activation="relu", batch_first=True, norm_first=False)
    # nn.Transformer puts one more LayerNorm after the last encoder layer and after the last decoder
    # layer (needed by pre-norm stacks).  The paper's post-norm model has none: each layer already
    # ends in LayerNorm(x + Sublayer(x)).  Remove them so that both compute the same function.
    peer.encoder.norm = None
    peer.decoder.norm = None
    peer.encoder.use_nested_tensor = False  # keep nn's padded-batch path plain (no prototype nested tensors)

    def attn(dst: nn.MultiheadAttention, src):
        dst.in_proj_weight.copy_(torch.cat([src.w_q.weight, src.w_k.weight, src.w_v.weight]))
        dst.in_proj_bias.copy_(torch.cat([src.w_q.bias, src.w_k.bias, src.w_v.bias]))
        dst.out_proj.weight.copy_(src.w_o.weight)
        dst.out_proj.bias.copy_(src.w_o.bias)

    def copy(dst: nn.Module, src: nn.Module):
        dst.load_state_dict(src.state_dict())

    with torch.no_grad():
        for ours, theirs in zip(model.encoder, peer.encoder.layers, strict=True):
            attn(theirs.self_attn, ours.self_attn)
            copy(theirs.linear1, ours.ffn.linear1), copy(theirs.linear2, ours.ffn.linear2)
            copy(theirs.norm1, ours.add_norm1.norm), copy(theirs.norm2, ours.add_norm2.norm)
        for ours, theirs in zip(model.decoder, peer.decoder.layers, strict=True):
            attn(theirs.self_attn, ours.self_attn)
            attn(theirs.multihead_attn, ours.cross_attn)
            copy(theirs.linear1, ours.ffn.linear1), copy(theirs.linear2, ours.ffn.linear2)
            copy(theirs.norm1, ours.add_norm1.norm), copy(theirs.norm2, ours.add_norm2.norm)
            copy(theirs.norm3, ours.add_norm3.norm)
    return peer.eval()


@torch.no_grad()
def test_whole_model_matches_torch_transformer():
    model = make_model()
    peer = _peer_of(model)
    src, tgt_in = batch()
    T = tgt_in.size(1)
    # Embedding ×√d_model + PE in front, and the shared-embedding generator behind, are ours.
    src_x = model.embedding(src) * math.sqrt(CFG.d_model) + model.pe[: src.size(1)]
    tgt_x = model.embedding(tgt_in) * math.sqrt(CFG.d_model) + model.pe[:T]
    # nn's bool masks: True = masked out (ours: True = may attend).
    out = peer(src_x, tgt_x,
               tgt_mask=~subsequent_mask(T),               # causal (T, T)
               src_key_padding_mask=src == PAD,
               tgt_key_padding_mask=tgt_in == PAD,
               memory_key_padding_mask=src == PAD)
    ref_logits = out @ model.embedding.weight.T
    torch.testing.assert_close(model(src, tgt_in), ref_logits, **TOL)
    traced, _ = model.trace(src, tgt_in)
    torch.testing.assert_close(traced, ref_logits, **TOL)


@torch.no_grad()
def test_fast_path_and_traced_path_agree():
    model = make_model(1)
    src, tgt_in = batch()
    fast = model(src, tgt_in)
    traced, probe = model.trace(src, tgt_in)
    full, full_probe = model.trace(src, tgt_in, full=True)
    assert fast.shape == (2, 5, CFG.vocab_size)
    torch.testing.assert_close(traced, fast, **TOL)
    torch.testing.assert_close(full, fast, **TOL)


@torch.no_grad()
def test_trace_weights_for_every_layer_and_head():
    model = make_model(2)
    src, tgt_in = batch()
    _, probe = model.trace(src, tgt_in)
    B, S, T, h = 2, src.size(1), tgt_in.size(1), CFG.n_heads
    shapes = {"enc_self": (B, h, S, S), "dec_self": (B, h, T, T), "cross": (B, h, T, S)}
    layers = {"enc_self": CFG.n_encoder_layers, "dec_self": CFG.n_decoder_layers, "cross": CFG.n_decoder_layers}
    for kind, shape in shapes.items():
        weights = probe.all_weights(kind)
        assert len(weights) == layers[kind]
        for w in weights:
            assert w.shape == shape
            torch.testing.assert_close(w.sum(-1), torch.ones(shape[:-1]))      # rows sum to 1
            assert (w >= 0).all()
    for w in probe.all_weights("enc_self") + probe.all_weights("cross"):
        assert (w[1, :, :, 4:] == 0).all()                                       # padded source keys
    causal_zero = ~subsequent_mask(T)
    for w in probe.all_weights("dec_self"):
        assert (w[:, :, causal_zero] == 0).all()                                 # nothing above the diagonal
        assert (w[1, :, :, 3:] == 0).all()                                       # padded target keys
        assert (w[:, :, ~causal_zero] > 0)[0].all()                              # but every visible key gets some


@torch.no_grad()
def test_full_trace_is_consistent_with_itself():
    model = make_model(3)
    src, tgt_in = batch()
    _, probe = model.trace(src, tgt_in, full=True)
    r = probe.records
    d_k = CFG.d_model // CFG.n_heads
    masks = r["masks"]
    assert masks["src_mask"].shape == (2, 1, 1, 6) and masks["tgt_mask"].shape == (2, 1, 5, 5)
    for name in ("encoder.0.self_attn", "encoder.1.self_attn", "decoder.0.self_attn",
                 "decoder.1.self_attn", "decoder.0.cross_attn", "decoder.1.cross_attn"):
        a = r[name]
        torch.testing.assert_close(a["scores"], a["q"] @ a["k"].transpose(-2, -1), **TOL)
        torch.testing.assert_close(a["scaled"], a["scores"] / math.sqrt(d_k), **TOL)
        expected_masked = a["scaled"].masked_fill(~a["mask"], float("-inf"))
        assert torch.equal(a["masked"], expected_masked)
        torch.testing.assert_close(a["weights"], torch.softmax(a["masked"], dim=-1), **TOL)
        torch.testing.assert_close(a["heads"], a["weights"] @ a["v"], **TOL)
    assert torch.equal(r["encoder.0.self_attn"]["mask"], masks["src_mask"])
    assert torch.equal(r["decoder.0.self_attn"]["mask"], masks["tgt_mask"])
    assert torch.equal(r["decoder.0.cross_attn"]["mask"], masks["src_mask"])

    # Q/K/V are the projections of the sublayer's input, split into heads.
    layer = model.encoder[0]
    x = r["encoder.embed"]["sum"]
    torch.testing.assert_close(x, r["encoder.embed"]["token"] + r["encoder.embed"]["position"])
    split = layer.self_attn.split_heads
    torch.testing.assert_close(r["encoder.0.self_attn"]["q"], split(layer.self_attn.w_q(x)), **TOL)
    torch.testing.assert_close(r["encoder.0.self_attn"]["v"], split(layer.self_attn.w_v(x)), **TOL)

    # Add & Norm: before = input + sublayer, after = LayerNorm(before); each after feeds the next.
    chain = ["encoder.0.add_norm1", "encoder.0.add_norm2", "encoder.1.add_norm1", "encoder.1.add_norm2"]
    assert torch.equal(r[chain[0]]["input"], x)
    for name in chain + [f"decoder.{i}.add_norm{j}" for i in range(2) for j in (1, 2, 3)]:
        an = r[name]
        module = model.get_submodule(name).norm
        torch.testing.assert_close(an["before"], an["input"] + an["sublayer"], **TOL)
        torch.testing.assert_close(an["after"], nn.functional.layer_norm(
            an["before"], (CFG.d_model,), module.weight, module.bias, module.eps), **TOL)
    for prev, nxt in pairwise(chain):
        assert torch.equal(r[nxt]["input"], r[prev]["after"])
    torch.testing.assert_close(r["encoder.0.add_norm2"]["sublayer"],
                               layer.ffn.linear2(r["encoder.0.ffn"]["hidden"]), **TOL)


@torch.no_grad()
def test_switched_off_head_changes_output_and_contributes_zero():
    model = make_model(4)
    src, tgt_in = batch()
    d_k = CFG.d_model // CFG.n_heads
    base, _ = model.trace(src, tgt_in)
    off, probe = model.trace(src, tgt_in, heads_off={"decoder.1.cross_attn": [2]})
    assert not torch.allclose(off, base, atol=1e-3)
    # The switched-off head still has its weights recorded (for display) ...
    assert probe.weights("cross", 1).shape == (2, CFG.n_heads, 5, 6)
    # ... but its output is zero: the same as zeroing head 2's slice of W^O's input columns.
    zeroed = make_model(4)
    zeroed.decoder[1].cross_attn.w_o.weight[:, 2 * d_k:3 * d_k] = 0.0
    torch.testing.assert_close(off, zeroed(src, tgt_in), **TOL)
    # The fast path with heads off (no recording) gives the same.
    torch.testing.assert_close(model(src, tgt_in, Probe(record=False, heads_off={"decoder.1.cross_attn": [2]})),
                               off, **TOL)


def _tensors_held(model: nn.Module) -> list[str]:
    """Tensor attributes of any module besides its registered parameters and buffers."""
    held = []
    for name, module in model.named_modules():
        for attr, value in vars(module).items():
            if isinstance(value, torch.Tensor) or (
                    isinstance(value, (list, tuple, dict)) and attr not in ("_parameters", "_buffers", "_modules")
                    and any(isinstance(v, torch.Tensor) for v in (value.values() if isinstance(value, dict) else value))):
                held.append(f"{name}.{attr}")
    return held


def test_training_forward_keeps_nothing_and_gradients_flow():
    model = make_model(5).train()
    src, tgt_in = batch()
    logits = model(src, tgt_in)
    assert _tensors_held(model) == []
    loss = nn.functional.cross_entropy(logits.reshape(-1, CFG.vocab_size), tgt_in.reshape(-1), ignore_index=PAD)
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None, name
        assert torch.isfinite(p.grad).all(), name
        assert p.grad.abs().sum() > 0, name


def test_probe_without_recording_keeps_nothing():
    model = make_model(6)
    src, tgt_in = batch()
    probe = Probe(record=False, heads_off={"encoder.0.self_attn": [0]})
    model(src, tgt_in, probe)
    assert probe.records == {}
    assert _tensors_held(model) == []


def test_trace_restores_training_mode_and_is_deterministic():
    model = make_model(7).train()
    src, tgt_in = batch()
    a, _ = model.trace(src, tgt_in)
    b, _ = model.trace(src, tgt_in)
    assert model.training
    assert torch.equal(a, b)               # eval mode inside: no dropout


@torch.no_grad()
def test_learned_positions_and_max_len():
    model = make_model(8, positional="learned")
    src, tgt_in = batch()
    fast = model(src, tgt_in)
    traced, _ = model.trace(src, tgt_in)
    torch.testing.assert_close(traced, fast, **TOL)
    with pytest.raises(ValueError, match="max_len"):
        model(torch.full((1, CFG.max_len + 1), 5), tgt_in[:1])


def test_embedding_scaled_and_generator_shares_weights():
    model = make_model(9)
    ids = torch.tensor([[4, 5]])
    probe = Probe(full=True)
    with torch.no_grad():
        model.embed(ids, "encoder", probe)
    rec = probe.records["encoder.embed"]
    torch.testing.assert_close(rec["token"], model.embedding.weight[ids] * math.sqrt(CFG.d_model))
    torch.testing.assert_close(rec["position"], model.pe[:2])
    x = torch.randn(1, 3, CFG.d_model)
    torch.testing.assert_close(model.generator(x), x @ model.embedding.weight.T)
    assert not any("generator" in n for n, _ in model.named_parameters())


@pytest.mark.parametrize("options", [
    {},
    {"positional": "learned", "max_len": 40},
    {"share_src_embedding": False, "tie_output": False, "logits_bias": True, "activation": "swish",
     "sinusoid_layout": "halves"},
    {"n_encoder_layers": 3, "n_decoder_layers": 1, "d_ff": 96, "tie_output": False},
])
def test_sizes_count_what_the_built_model_holds(options):
    cfg = ModelConfig(**{"vocab_size": 57, "d_model": 32, "n_heads": 4, "d_ff": 64, "n_encoder_layers": 2,
                         "n_decoder_layers": 2, "max_len": 24, **options})
    model = Transformer(cfg)
    assert sizes(cfg) == (sum(p.numel() for p in model.parameters()), sum(b.numel() for b in model.buffers()))
    assert state_shapes(cfg) == {name: tuple(t.shape) for name, t in model.state_dict().items()}
