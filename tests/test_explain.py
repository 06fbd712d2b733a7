"""transformer_core.explainer.explain: teacher-forced attention, word merging, shapes of a full trace,
Add & Norm statistics, FFN and loss, Table 1 cost formulas."""
import numpy as np
import pytest
import torch

from transformer_core.explainer import explain
from transformer_core.model.config import ModelConfig
from transformer_core.model.decoding import greedy_decode
from transformer_core.model.transformer import Transformer

pytestmark = pytest.mark.usefixtures("one_thread")

BOS, EOS = 2, 3
CFG = ModelConfig(vocab_size=20, d_model=24, n_heads=3, n_encoder_layers=2, n_decoder_layers=3, d_ff=40,
                  max_len=32)
SRC = [BOS, 5, 6, 7, 8, EOS]
OUT = [9, 10, 11, 12]


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(1)
    return Transformer(CFG).eval()


def test_record_names_and_heads_off_map(model):
    assert explain.record_name("enc_self", 1) == "encoder.1.self_attn"
    assert explain.record_name("dec_self", 0) == "decoder.0.self_attn"
    assert explain.record_name("cross", 2) == "decoder.2.cross_attn"
    heads = explain.all_heads(model)
    assert len(heads) == (2 + 3 + 3) * 3 and heads[0] == ("enc_self", 0, 0)
    assert explain.heads_off_map([("cross", 2, 1), ("cross", 2, 0), ("enc_self", 0, 2)]) == {
        "decoder.2.cross_attn": [0, 1], "encoder.0.self_attn": [2]}


def test_teacher_forced_attention_is_the_probe_of_one_trace(model):
    attn = explain.teacher_forced_attention(model, SRC, OUT)
    _, probe = model.trace(torch.tensor([SRC]), torch.tensor([[BOS, *OUT]]))
    S, T = len(SRC), len(OUT) + 1
    assert attn["enc_self"].shape == (2, 3, S, S)
    assert attn["dec_self"].shape == (3, 3, T, T)
    assert attn["cross"].shape == (3, 3, T, S)
    for kind in explain.ATTENTION_KINDS:
        for layer in range(attn[kind].shape[0]):
            assert np.array_equal(attn[kind][layer], probe.weights(kind, layer)[0].numpy())
    np.testing.assert_allclose(attn["cross"].sum(-1), 1.0, atol=1e-5)
    assert np.all(np.triu(attn["dec_self"], k=1) == 0)          # the future is masked


def test_heads_off_changes_later_layers_only(model):
    off = {"encoder.0.self_attn": [0, 1, 2]}
    a = explain.teacher_forced_attention(model, SRC, OUT)
    b = explain.teacher_forced_attention(model, SRC, OUT, heads_off=off)
    assert np.array_equal(a["enc_self"][0], b["enc_self"][0])   # weights of the switched-off layer itself
    assert not np.allclose(a["enc_self"][1], b["enc_self"][1])


def test_cross_attention_rows_match_greedy_step_traces(model):
    """The teacher-forced pass on the greedy output sees what each decoding step saw."""
    dec = greedy_decode(model, SRC, max_len=6, trace=True)
    attn = explain.teacher_forced_attention(model, SRC, dec.ids)
    for step in dec.steps:
        if step.step < attn["cross"].shape[2]:
            np.testing.assert_allclose(attn["cross"][:, :, step.step], step.cross[0].numpy(), atol=1e-5)


def test_to_words_merges_pieces():
    q = ["<s>", "▁die", "▁kat", "ze"]
    k = ["<s>", "▁the", "▁c", "at", ".", "</s>"]
    w = torch.softmax(torch.randn(2, len(q), len(k)), -1).numpy()
    merged, qw, kw = explain.to_words(w, q, k)
    assert qw == ["<s>", "die", "katze"] and kw == ["<s>", "the", "cat.", "</s>"]
    assert merged.shape == (2, 3, 4)
    np.testing.assert_allclose(merged[..., 2, 2], (w[..., 2, 2:5].sum(-1) + w[..., 3, 2:5].sum(-1)) / 2, rtol=1e-6)
    np.testing.assert_allclose(merged.sum(-1), 1.0, atol=1e-6)


def test_alignment_edges():
    w = np.array([[0.7, 0.2, 0.1], [0.05, 0.05, 0.9]])
    assert explain.alignment_edges(w, 0.15) == [(0, 0, 0.7), (0, 1, pytest.approx(0.2)), (1, 2, 0.9)]
    assert len(explain.alignment_edges(w)) == 6


def test_shape_walk_reads_the_recorded_tensors(model):
    trace = explain.full_trace(model, SRC, OUT)
    walk = explain.shape_walk(trace, enc_layer=1, dec_layer=2)
    shapes = {e["stage"]: e["shape"] for e in walk}
    S, T, h, d_k = len(SRC), len(OUT) + 1, 3, 8
    assert shapes["src_ids"] == (1, S)
    assert shapes["src_embed"] == (1, S, 24) and shapes["src_pos"] == (S, 24)
    assert shapes["enc_q"] == (1, h, S, d_k) and shapes["enc_scores"] == (1, h, S, S)
    assert shapes["src_mask"] == (1, 1, 1, S) and shapes["tgt_mask"] == (1, 1, T, T)
    assert shapes["enc_concat"] == (1, S, 24) and shapes["enc_ffn_hidden"] == (1, S, 40)
    assert shapes["cross_weights"] == (1, h, T, S) and shapes["logits"] == (1, T, 20)
    for entry in walk:
        assert len(entry["symbols"]) == len(entry["shape"])
    rec = {e["stage"]: e["record"] for e in walk}
    assert rec["enc_q"] == "encoder.1.self_attn.q" and rec["cross_weights"] == "decoder.2.cross_attn.weights"
    assert rec["memory"] == "encoder.1.add_norm2.after" and rec["dec_out"] == "decoder.2.add_norm3.after"
    assert trace.tgt_in[0].tolist() == [BOS, *OUT] and trace.labels[0].tolist() == [*OUT, EOS]


def test_concat_heads_is_w_q_of_the_layer_input(model):
    trace = explain.full_trace(model, SRC, OUT)
    rec = trace.probe.records
    q = explain.concat_heads(rec["encoder.0.self_attn"]["q"])            # (1, S, d_model)
    x = rec["encoder.0.add_norm1"]["input"]                             # the layer's input
    torch.testing.assert_close(q, model.encoder[0].self_attn.w_q(x))


def test_layer_norm_stats_and_formula(model):
    trace = explain.full_trace(model, SRC, OUT)
    rec = trace.probe.records["encoder.1.add_norm2"]
    norm = model.encoder[1].add_norm2.norm
    stats = explain.layer_norm_stats(rec["before"][0], rec["after"][0], norm)
    x = rec["before"][0].double()
    np.testing.assert_allclose(stats["mean_before"], x.mean(-1).numpy())
    np.testing.assert_allclose(stats["std_before"], x.std(-1, unbiased=False).numpy())
    np.testing.assert_allclose(stats["mean_hat"], 0.0, atol=1e-9)
    np.testing.assert_allclose(stats["std_hat"], 1.0, atol=1e-3)
    assert stats["mean_after"].shape == (len(SRC),)
    assert explain.layer_norm_check(rec["before"][0], rec["after"][0], norm) < 1e-5
    with torch.no_grad():
        norm_changed = torch.nn.LayerNorm(24)
        norm_changed.weight.fill_(2.0)
    assert explain.layer_norm_check(rec["before"][0], rec["after"][0], norm_changed) > 0.1


def test_ffn_stats_and_token_losses(model):
    trace = explain.full_trace(model, SRC, OUT)
    hidden = trace.probe.records["encoder.0.ffn"]["hidden"][0]
    stats = explain.ffn_stats(hidden)
    assert np.all((stats["active"] > 0) & (stats["active"] <= 1))
    np.testing.assert_allclose(stats["max"], hidden.max(-1).values.numpy(), rtol=1e-6)
    losses = explain.token_losses(trace.logits[0], trace.labels[0])
    ref = torch.nn.functional.cross_entropy(trace.logits[0].double(), trace.labels[0], reduction="none")
    np.testing.assert_allclose(losses, ref.numpy(), rtol=1e-9)


def test_table_1_costs():
    n = np.array([10, 100, 1000])
    d = 512
    np.testing.assert_array_equal(explain.layer_cost("self_attention", n, d), n ** 2 * d)
    np.testing.assert_array_equal(explain.layer_cost("recurrent", n, d), n * d ** 2)
    np.testing.assert_array_equal(explain.layer_cost("convolutional", n, d, k=3), 3 * n * d ** 2)
    np.testing.assert_array_equal(explain.layer_cost("restricted", n, d, r=16), np.minimum(16, n) * n * d)
    # self-attention is cheaper than recurrence exactly while n < d
    below, above = explain.crossover_length(d) - 1, explain.crossover_length(d) + 1
    assert explain.layer_cost("self_attention", below, d) < explain.layer_cost("recurrent", below, d)
    assert explain.layer_cost("self_attention", above, d) > explain.layer_cost("recurrent", above, d)
    np.testing.assert_array_equal(explain.sequential_ops("recurrent", n), n)
    np.testing.assert_array_equal(explain.sequential_ops("self_attention", n), 1)
    np.testing.assert_array_equal(explain.max_path_length("recurrent", n), n)
    np.testing.assert_array_equal(explain.max_path_length("convolutional", [9, 27], k=3), [2, 3])
    assert set(explain.TABLE_1) == set(explain.LAYER_TYPES)
    with pytest.raises(ValueError):
        explain.layer_cost("lstm", n, d)
