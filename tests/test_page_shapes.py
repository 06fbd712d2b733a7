"""The Multi-head & shapes page with AppTest in both languages: shapes read off the recorded tensors,
the figures drawn from the real Q/K/V, FFN activations and Add & Norm states of one full trace."""

import numpy as np
import plotly.graph_objects as go
import pytest

from apppages import chart_spec as spec
from apppages import open_app
from pages.ui import figures
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import explain
from transformer_core.explainer.translate import translate

pytestmark = pytest.mark.usefixtures("one_thread")

PAGE = "pages/shapes.py"
SHAPE_COL = {"ko": "실제 모양", "en": "actual shape"}
RECORD_COL = {"ko": "기록된 텐서", "en": "recorded tensor"}


@pytest.fixture(scope="module")
def ckpt(toy_checkpoints):
    return load_checkpoint(toy_checkpoints / "toy-en")


def reference(ckpt, text):
    tr = translate(ckpt, text)                      # the pages' default: the model's beam search
    return tr, explain.full_trace(ckpt.model, tr.src_ids, tr.out_ids)


def app(lang: str, **state):
    return open_app(lang, PAGE, **state)


def frame(at, n: int):
    """The n-th table of the page: 0 the shape walk, 1 the loss table."""
    return at.dataframe[n].value


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_shape_walk_table_reads_the_recorded_tensors(app_checkpoints, ckpt, lang):
    at = app(lang, sh_walk_enc=1, sh_walk_dec=1)
    assert not at.exception
    text = ckpt.examples[0]["src"]
    tr, full = reference(ckpt, text)
    table = frame(at, 0)
    records = full.probe.records
    got = dict(zip(table[RECORD_COL[lang]], table[SHAPE_COL[lang]], strict=True))
    assert got["encoder.1.self_attn.q"] == str(tuple(records["encoder.1.self_attn"]["q"].shape))
    assert got["decoder.1.cross_attn.weights"] == str(tuple(records["decoder.1.cross_attn"]["weights"].shape))
    assert got["masks.src_mask"] == f"(1, 1, 1, {len(tr.src_ids)})"
    T = len(tr.out_ids) + 1
    assert got["masks.tgt_mask"] == f"(1, 1, {T}, {T})"
    assert got["logits"] == f"(1, {T}, {ckpt.config.vocab_size})"
    assert len(table) == len(explain.shape_walk(full))


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("kind,tensor", [("enc_self", "q"), ("cross", "k"), ("dec_self", "v")])
def test_heads_split_and_concat_show_the_real_tensors(app_checkpoints, ckpt, lang, kind, tensor):
    at = app(lang, sh_heads_kind=kind, sh_heads_layer=1, sh_heads_tensor=tensor)
    assert not at.exception
    _, full = reference(ckpt, ckpt.examples[0]["src"])
    rec = full.probe.records[explain.record_name(kind, 1)]
    split = spec(at, "sh_heads_split")["data"]
    assert len(split) == ckpt.config.n_heads
    for h, trace in enumerate(split):
        np.testing.assert_array_equal(np.array(trace["z"]), np.round(rec[tensor][0, h].numpy().astype(float), 3))
    whole = spec(at, "sh_heads_whole")
    np.testing.assert_array_equal(np.array(whole["data"][0]["z"]),
                                  np.round(explain.concat_heads(rec[tensor])[0].numpy().astype(float), 3))
    assert len(whole["layout"]["shapes"]) == ckpt.config.n_heads - 1           # head boundaries
    concat = spec(at, "sh_concat")["data"][0]
    np.testing.assert_array_equal(np.array(concat["z"]),
                                  np.round(explain.concat_heads(rec["heads"])[0].numpy().astype(float), 3))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_ffn_and_add_norm_figures(app_checkpoints, ckpt, lang):
    at = app(lang, sh_ffn_stack="decoder", sh_ffn_layer=1, sh_norm_which="decoder.0.add_norm2")
    assert not at.exception
    _, full = reference(ckpt, ckpt.examples[0]["src"])
    hidden = full.probe.records["decoder.1.ffn"]["hidden"][0]
    np.testing.assert_array_equal(np.array(spec(at, "sh_ffn_hidden")["data"][0]["z"]),
                                  np.round(hidden.numpy().astype(float), 3))
    stats = explain.ffn_stats(hidden)
    np.testing.assert_allclose(spec(at, "sh_ffn_stats")["data"][0]["y"], np.round(stats["active"], 5))
    rec = full.probe.records["decoder.0.add_norm2"]
    norm = ckpt.model.decoder[0].add_norm2.norm
    ln = explain.layer_norm_stats(rec["before"][0], rec["after"][0], norm)
    data = spec(at, "sh_norm_stats")["data"]
    np.testing.assert_allclose(data[0]["y"], np.round(ln["mean_before"], 5))
    np.testing.assert_allclose(data[5]["y"], np.round(ln["std_after"], 5))
    assert len([d for d in data if d.get("showlegend")]) == 3


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_loss_and_why_self_attention(app_checkpoints, ckpt, lang):
    at = app(lang, sh_why_d=256)
    assert not at.exception
    tr, full = reference(ckpt, ckpt.examples[0]["src"])
    losses = explain.token_losses(full.logits[0], full.labels[0])
    table = frame(at, 1)
    assert list(table.iloc[2]) == [f"{v:.3f}" for v in losses]
    assert list(table.iloc[0]) == ckpt.tokenizer.pieces([ckpt.config.bos_id, *tr.out_ids])
    cost = spec(at, "sh_why_fig")
    n = np.array(cost["data"][0]["x"])
    np.testing.assert_allclose(cost["data"][0]["y"], explain.layer_cost("self_attention", n, 256))
    np.testing.assert_allclose(cost["data"][1]["y"], explain.layer_cost("recurrent", n, 256))
    assert any("O(n^2" in m.value for m in at.markdown)                       # Table 1


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_empty_input_still_explains_table_1(app_checkpoints, lang):
    at = app(lang, atlas_sentence="")
    assert not at.exception
    assert at.info and spec(at, "sh_why_fig")


def test_matrix_panels_and_position_stats_builders():
    a = np.arange(24, dtype=float).reshape(3, 8) - 12
    fig = figures.matrix_panels([a], ["x", "y", "x"], panel_titles=[""], band=2, band_labels=["h1", "h2", "h3", "h4"],
                                decimals=None)
    go.Figure(fig.to_dict())
    assert np.array_equal(np.array(fig.data[0].z), a)
    assert [s.x0 for s in fig.layout.shapes] == [1.5, 3.5, 5.5]
    assert fig.layout.coloraxis.cmin == -12 and fig.layout.coloraxis.cmax == 12
    parts = figures.matrix_panels([a[:, :4], a[:, 4:]], ["x", "y", "z"], panel_titles=["1", "2"])
    assert len(parts.data) == 2 and parts.data[1].xaxis == "x2"
    stats = figures.position_stats_figure(["a", "b"], [{"title": "m", "series": [{"name": "s", "y": [1, 2]}]},
                                                      {"title": "v", "series": [{"name": "s", "y": [3, 4]},
                                                                                {"name": "t", "y": [5, 6]}]}])
    go.Figure(stats.to_dict())
    assert [d.showlegend for d in stats.data] == [True, False, True]
    assert stats.data[0].line.color == stats.data[1].line.color


def test_cost_figure_marks_on_log_axes():
    n = np.array([1, 10, 100, 1000])
    fig = figures.cost_figure(n, {"sa": explain.layer_cost("self_attention", n, 64)}, crossover=64,
                              crossover_label="n = d", marker_n=10, marker_label="here")
    assert list(fig.data[0].y) == [64.0, 6400.0, 640000.0, 64000000.0]
    assert fig.layout.xaxis.range == (0.0, 3.0)
    assert [a.x for a in fig.layout.annotations] == [pytest.approx(np.log10(64)), pytest.approx(1.0)]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_cost_chart_starts_at_the_models_d_and_its_note_says_which_d(app_checkpoints, ckpt, lang):
    at = app(lang)
    assert not at.exception
    d_model = ckpt.config.d_model
    assert at.select_slider(key="sh_why_d").value == d_model
    cost = spec(at, "sh_why_fig")
    n = np.array(cost["data"][0]["x"])
    np.testing.assert_allclose(cost["data"][0]["y"], explain.layer_cost("self_attention", n, d_model))
    at.select_slider(key="sh_why_d").set_value(1024).run()
    note = [i.value for i in at.info if "d_model = " in i.value]
    assert note and "d = 1024" in note[0] and f"d_model = {d_model}" in note[0]
