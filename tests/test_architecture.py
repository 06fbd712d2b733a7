"""The Architecture page's numbers (transformer_core/explainer/architecture.py) and its diagram
(pages/ui/figures/architecture.py): the blocks as the config has them, every arrow's shape read off the trace
and equal to the shapes page's walk, the panels' statistics against their definitions, greedy decoding read
off the causal decoder, the run-cost bound of a full trace, and the SVG: every block a link, every text escaped."""
import re

import numpy as np
import pytest
import torch

from pages.ui import figures
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import architecture, explain
from transformer_core.explainer.translate import translate
from transformer_core.model.decoding import greedy_decode
from transformer_core.serving import cost

pytestmark = pytest.mark.usefixtures("one_thread")


@pytest.fixture(scope="module")
def ckpt(toy_checkpoints):
    return load_checkpoint(toy_checkpoints / "toy-en")


@pytest.fixture(scope="module")
def traced(ckpt):
    tr = translate(ckpt, "the cat sees the house.", beam=1)
    return tr, explain.full_trace(ckpt.model, tr.src_ids, tr.out_ids)


def test_the_blocks_are_the_configs(ckpt):
    cfg = ckpt.config
    blocks = architecture.blocks(cfg)
    assert [b["id"] for b in blocks[:5]] == ["encoder.embed", "encoder.0.self_attn", "encoder.0.add_norm1",
                                             "encoder.0.ffn", "encoder.0.add_norm2"]
    assert sum(b["kind"] == "self_attn" for b in blocks) == cfg.n_encoder_layers
    assert sum(b["kind"] == "masked_attn" for b in blocks) == sum(b["kind"] == "cross_attn" for b in blocks) \
        == cfg.n_decoder_layers
    assert sum(b["kind"] == "add_norm" for b in blocks) == 2 * cfg.n_encoder_layers + 3 * cfg.n_decoder_layers
    assert [b["id"] for b in blocks[-2:]] == ["linear", "softmax"]
    big = type(cfg)(**{**cfg.__dict__, "n_encoder_layers": 6, "n_decoder_layers": 6})
    assert len(architecture.blocks(big)) == 2 + 6 * 4 + 6 * 6 + 2


def test_every_arrow_is_read_off_the_trace_and_equals_the_shapes_walk(ckpt, traced):
    tr, full = traced
    S, T, cfg = len(tr.src_ids), len(tr.out_ids) + 1, ckpt.config
    arrows = architecture.arrows(full)
    assert arrows["encoder.input"]["shape"] == (1, S) and arrows["decoder.input"]["shape"] == (1, T)
    assert arrows["encoder.0.self_attn.qkv"]["shape"] == (1, cfg.n_heads, S, cfg.d_k)
    assert arrows["decoder.1.cross_attn.kv"]["shape"] == (1, cfg.n_heads, S, cfg.d_k)
    assert arrows["decoder.0.self_attn.mask"]["shape"] == (1, 1, T, T)
    assert arrows["decoder.1.ffn.hidden"]["shape"] == (1, T, cfg.d_ff)
    assert arrows["linear.out"]["shape"] == (1, T, cfg.vocab_size)
    assert arrows["encoder.embed.position"]["shape"] == (S, cfg.d_model)
    for name, arrow in arrows.items():                         # each read off its record
        record, _, tensor = arrow["record"].rpartition(".")
        value = {"src": full.src, "tgt_in": full.tgt_in, "logits": full.logits}[tensor] if not record \
            else full.probe.records[record][tensor]
        assert tuple(value.shape) == arrow["shape"], name
        assert len(arrow["symbols"]) == len(arrow["shape"]), name
    # the same tensors as the shapes page's walk, layer by layer
    same = {"src_ids": "encoder.input", "src_sum": "encoder.embed.sum", "enc_q": "encoder.{l}.self_attn.qkv",
            "enc_ffn_hidden": "encoder.{l}.ffn.hidden", "enc_add_norm1": "encoder.{l}.add_norm1.out",
            "enc_add_norm2": "encoder.{l}.add_norm2.out", "tgt_in": "decoder.input", "tgt_sum": "decoder.embed.sum",
            "tgt_mask": "decoder.{m}.self_attn.mask", "cross_q": "decoder.{m}.cross_attn.q",
            "cross_k": "decoder.{m}.cross_attn.kv", "memory": f"encoder.{cfg.n_encoder_layers - 1}.add_norm2.out",
            "dec_out": f"decoder.{cfg.n_decoder_layers - 1}.add_norm3.out", "logits": "linear.out"}
    for layer in range(cfg.n_encoder_layers):
        for entry in explain.shape_walk(full, layer, layer):
            if entry["stage"] in same:
                assert arrows[same[entry["stage"]].format(l=layer, m=layer)]["shape"] == entry["shape"], entry


def test_a_decoding_step_cuts_the_decoders_tensors_to_the_input_so_far(ckpt, traced):
    _, full = traced
    steps = architecture.decoding_steps(ckpt.model, full)
    T = full.tgt_in.shape[1]
    assert len(steps) == T
    for t, step in enumerate(steps):
        a = step["arrows"]
        assert a["decoder.input"]["shape"] == (1, t + 1)
        assert a["decoder.0.self_attn.mask"]["shape"] == (1, 1, t + 1, t + 1)
        assert a["decoder.0.cross_attn.kv"]["shape"] == architecture.arrows(full)["decoder.0.cross_attn.kv"]["shape"]
        assert a["encoder.0.ffn.hidden"]["shape"] == architecture.arrows(full)["encoder.0.ffn.hidden"]["shape"]
        assert step["input"] == full.tgt_in[0, :t + 1].tolist()
        assert step["chosen"] == int(full.labels[0, t])


def test_greedy_decoding_is_the_causal_decoders_rows(ckpt):
    """Greedy decoding over a KV cache chooses, at each step, the most likely token of the teacher-forced row."""
    for text in ("the cat sees the house.", "the dog likes the apple.", "the man finds the car."):
        src = translate(ckpt, text, beam=1).src_ids
        out = greedy_decode(ckpt.model, src).ids
        steps = architecture.steps_of(ckpt.model, src, out)
        assert [s["chosen"] for s in steps] == [*out, ckpt.config.eos_id]
        assert [s["ids"][0] for s in steps[:len(out)]] == out
        for s in steps:
            assert np.all(np.diff(s["probs"]) <= 1e-12) and 0 < sum(s["probs"]) <= 1 + 1e-9


def test_the_panels_statistics(ckpt, traced):
    _, full = traced
    rec = full.probe.records["encoder.embed"]
    norms = architecture.embedding_norms(rec)
    np.testing.assert_allclose(norms["token"], np.linalg.norm(rec["token"][0].double().numpy(), axis=-1))
    np.testing.assert_allclose(norms["position"], np.linalg.norm(rec["position"].double().numpy(), axis=-1))
    np.testing.assert_allclose(norms["sum"], np.linalg.norm(rec["sum"][0].double().numpy(), axis=-1))
    an = full.probe.records["decoder.1.add_norm2"]
    ratio = architecture.residual_ratio(an)
    x, f = an["input"][0].double().numpy(), an["sublayer"][0].double().numpy()
    np.testing.assert_allclose(ratio["ratio"], np.linalg.norm(f, axis=-1) / np.linalg.norm(x, axis=-1))
    np.testing.assert_allclose(an["before"][0].double().numpy(), x + f, atol=1e-5)   # x + Sublayer(x)
    hidden = full.probe.records["encoder.0.ffn"]["hidden"][0]
    zeroed = architecture.ffn_zeroed(hidden)
    np.testing.assert_allclose(zeroed, (hidden.numpy() == 0).mean(-1))                # ReLU's zeros
    np.testing.assert_allclose(zeroed, 1 - explain.ffn_stats(hidden)["active"])
    top = architecture.top_next(ckpt.model, full.logits[0])
    p = torch.softmax(full.logits[0].double().index_fill(-1, torch.tensor([0, 2]), float("-inf")), -1)  # no <pad>, <s>
    ref = p.topk(architecture.TOP_K, -1)
    np.testing.assert_array_equal(top["ids"], ref.indices.numpy())
    np.testing.assert_allclose(top["probs"], ref.values.numpy(), rtol=1e-5)
    stream = architecture.residual_stream(full)
    n = ckpt.config.n_decoder_layers
    assert stream["decoder"]["stages"][0] == "decoder.embed" and len(stream["decoder"]["stages"]) == 1 + 3 * n
    np.testing.assert_allclose(stream["decoder"]["norms"][-1],
                               np.linalg.norm(full.probe.records[f"decoder.{n - 1}.add_norm3"]["after"][0].double().numpy(),
                                              axis=-1))
    assert stream["encoder"]["norms"].shape == (1 + 2 * ckpt.config.n_encoder_layers, full.src.shape[1])


def test_downsample_means_blocks_of_columns():
    m = np.arange(2 * 10, dtype=float).reshape(2, 10)
    same, f = architecture.downsample(m, 10)
    assert f == 1 and np.array_equal(same, m)
    small, f = architecture.downsample(m, 4)
    assert f == 3 and small.shape == (2, 4)
    np.testing.assert_allclose(small[0], [1.0, 4.0, 7.0, 9.0])          # the last block holds one column


def test_a_full_trace_too_large_is_refused_before_it_runs(ckpt):
    from transformer_core.model.config import ModelConfig

    big = ModelConfig(vocab_size=32001, d_model=1024, n_heads=16, n_encoder_layers=6, n_decoder_layers=6, d_ff=4096,
                      max_len=512)
    assert cost.check_trace(big, 40, 40).fits()
    with pytest.raises(cost.RunTooLarge) as err:
        cost.check_trace(big, 400, 60)
    assert 0 < err.value.fits < 400 and cost.full_trace(big, err.value.fits, 60).fits()
    assert not cost.full_trace(big, err.value.fits + 1, 60).fits()
    small = cost.full_trace(ckpt.config, 10, 10)
    assert small.nbytes > cost.forward(ckpt.config, 10, 10).nbytes          # the records are counted


NAMES = {k: k for k in (*architecture.KINDS, "input_embedding", "output_embedding", "inputs", "outputs", "probs", "pe",
                        "qkv", "q", "kv", "mask")} | {"encoder": "Encoder", "decoder": "Decoder",
                                                        "frame": "Layer {n}", "layer.encoder": "Encoder layer {n}",
                                                        "layer.decoder": "Decoder layer {n}"}


def svg_for(full, cfg, expanded, selected=None, tokens=None):
    arrows = architecture.arrows(full)
    return figures.architecture_svg(layers={"encoder": cfg.n_encoder_layers, "decoder": cfg.n_decoder_layers},
                                    expanded=expanded, names=NAMES, selected=selected, tokens=tokens,
                                    shapes={k: (v["symbols"], v["shape"]) for k, v in arrows.items()})


def test_the_svg_links_every_block_and_carries_every_shape(ckpt, traced):
    _, full = traced
    cfg = ckpt.config
    svg = svg_for(full, cfg, {"encoder": range(cfg.n_encoder_layers), "decoder": range(cfg.n_decoder_layers)},
                  selected="decoder.1.cross_attn")
    blocks = set(re.findall(r'<a href="\?block=([\w.]+)" data-block="\1"', svg))
    assert blocks == {b["id"] for b in architecture.blocks(cfg)}
    frames = re.findall(r'class="layer-frame" data-layer="([\w.]+)"', svg)
    assert sorted(frames) == sorted([f"encoder.{i}" for i in range(cfg.n_encoder_layers)]
                                    + [f"decoder.{i}" for i in range(cfg.n_decoder_layers)])
    shown = dict(re.findall(r'data-arrow="([\w.]+)" data-symbols="[^"]*" data-shape="([\d,]+)"', svg))
    for name, arrow in architecture.arrows(full).items():
        assert shown[name] == ",".join(map(str, arrow["shape"])), name
    assert svg.count("<title>") >= len(blocks)
    assert len(re.findall(r'data-into="decoder\.\d+\.cross_attn"', svg)) == cfg.n_decoder_layers   # the memory
    assert re.search(r'class="block selected" aria-label="[^"]*"><title>', svg) and 'data-block="decoder.1.cross_attn" ' \
        'data-kind="cross_attn" class="block selected"' in svg


def test_collapsed_layers_one_box_each_the_open_ones_in_full(ckpt, traced):
    _, full = traced
    cfg = ckpt.config
    svg = svg_for(full, cfg, {"encoder": [], "decoder": [1]}, selected="decoder.1.ffn")
    assert re.findall(r'data-kind="layer" class="block layer" [^>]*data-layer="([\w.]+)"', svg) == \
        [f"encoder.{i}" for i in range(cfg.n_encoder_layers)] + ["decoder.0"]
    assert re.findall(r'class="layer-frame" data-layer="([\w.]+)"', svg) == ["decoder.1"]
    assert len(re.findall(r'data-into="decoder\.\d+\.cross_attn"', svg)) == cfg.n_decoder_layers


def test_token_text_and_labels_are_escaped(ckpt, traced):
    _, full = traced
    cfg = ckpt.config
    markup = '<img src=x onerror=alert(1)> "q" & <b>x</b>'
    svg = svg_for(full, cfg, {"encoder": [0], "decoder": [0]}, tokens={"encoder": markup, "decoder": markup})
    assert "<img" not in svg and "<b>" not in svg and "onerror=alert(1)>" not in svg
    assert "&lt;img src=x onerror=alert(1)&gt; &quot;q&quot; &amp; &lt;b&gt;x&lt;/b&gt;" in svg
