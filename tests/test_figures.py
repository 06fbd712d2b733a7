"""The figure builders draw exactly the numbers transformer_core computes."""
import json
import math
from itertools import pairwise

import numpy as np
import pandas as pd
import torch

from pages.ui import figures
from pages.ui.export import matrix_frame, safe_filename, to_csv, to_json, unique_labels
from transformer_core.explainer.toy import batch_qkv, whitespace_batch
from transformer_core.model.attention import attention_steps
from transformer_core.model.masks import make_trg_mask
from transformer_core.model.positional import sinusoidal_encoding
from transformer_core.training.schedule import lrate_curve


def z_of(fig) -> np.ndarray:
    return np.asarray(fig.data[0].z, dtype=float)


def test_pe_heatmap_is_the_table():
    pe = sinusoidal_encoding(20, 16)
    fig = figures.pe_heatmap(pe.numpy(), title="t", x_title="x", y_title="y")
    assert np.array_equal(z_of(fig), pe.numpy().astype(float))


def test_a_heatmap_names_each_cell_by_its_labels_and_an_unlabelled_one_by_its_indices():
    """The hover names a cell by its row's and column's labels (tokens, sent per cell); a table without labels
    (the PE table, up to 100 x 512) by its indices, with nothing per cell to send."""
    fig = figures.heatmap(np.arange(6.0).reshape(3, 2), x_labels=["I", "like"], y_labels=["나는", "사과를", "좋아한다"],
                          x_title="key", y_title="query")
    assert fig.data[0].customdata.tolist() == [[[q, k] for k in ("I", "like")] for q in ("나는", "사과를", "좋아한다")]
    assert fig.data[0].hovertemplate.startswith("query: %{customdata[0]}<br>key: %{customdata[1]}<br>%{z")
    table = figures.pe_heatmap(sinusoidal_encoding(100, 512).numpy(), x_title="i", y_title="pos")
    assert table.data[0].customdata is None
    assert table.data[0].hovertemplate.startswith("pos: %{y}<br>i: %{x}<br>%{z")
    assert list(table.data[0].x) == list(range(512)) and list(table.data[0].y) == list(range(100))


def test_pe_waves_draw_the_chosen_dimensions():
    pe = sinusoidal_encoding(30, 8).numpy()
    fig = figures.pe_waves(pe, [0, 5], ["a", "b"])
    assert np.allclose(fig.data[1].y, pe[:, 5]) and list(fig.data[0].x) == list(range(30))


def test_mask_heatmap_is_make_trg_mask():
    ids, tokens, _ = whitespace_batch(["I like apples", "hi"])
    mask = make_trg_mask(ids, 0)
    fig = figures.mask_heatmap(mask[1, 0], tokens[1], tokens[1])
    assert np.array_equal(z_of(fig), mask[1, 0].int().numpy())
    # tokens are plain text: "<pad>" is escaped, and the axes stay numeric so repeats stay apart
    assert "&lt;pad&gt;" in fig.layout.xaxis.ticktext and list(fig.layout.xaxis.tickvals) == list(range(5))


def test_scores_heatmap_blanks_minus_inf_and_weights_are_softmax():
    ids, tokens, _ = whitespace_batch(["a b c", "d"])
    q, k, v = batch_qkv(tokens, d_k=4)
    steps = attention_steps(q, k, v, make_trg_mask(ids, 0))
    masked = steps["masked"][1, 0].numpy()
    fig = figures.scores_heatmap(masked, tokens[1], tokens[1], masked_text="−∞")
    z = z_of(fig)
    assert np.isnan(z[np.isneginf(masked)]).all() and np.allclose(z[np.isfinite(masked)], masked[np.isfinite(masked)])
    assert fig.data[0].text[0][1] == "−∞"
    weights = figures.scores_heatmap(steps["weights"][1, 0].numpy(), tokens[1], tokens[1], probabilities=True)
    assert np.allclose(z_of(weights), torch.softmax(steps["masked"][1, 0], dim=-1).numpy())


def test_lr_figure_is_lrate_curve():
    steps = [1, 10, 100, 4000, 9000]
    full = lrate_curve(9000, 256, 4000)
    fig = figures.lr_figure(steps, [{"y": [full[s - 1] for s in steps], "name": "n"}])
    assert list(fig.data[0].y) == [full[s - 1] for s in steps] and list(fig.data[0].x) == steps


def test_a_fine_tunes_runs_are_marked_where_they_began():
    panels = [{"title": "loss", "series": [{"x": [1, 9000], "y": [2.0, 1.0], "name": "loss"}]},
              {"title": "BLEU", "series": [{"x": [9000], "y": [40.0], "name": "BLEU"}]}]
    fig = figures.log_figure(panels, round_starts=[7543], round_label="<fine-tune>")
    lines = [shape for shape in fig.layout.shapes if shape.type == "line"]
    assert len(lines) == 2 and {shape.x0 for shape in lines} == {7543}          # on each panel
    assert fig.data[-1].name == "&lt;fine-tune&gt;: 1" and fig.data[-1].line.dash == "dash"   # named in the legend
    assert not figures.log_figure(panels).layout.shapes
    curve = [{"y": [1e-4, 2e-4], "name": "n"}]
    logged = {"x": [1, 9000], "y": [1e-4, 1e-4], "name": "logged"}
    assert [s.x0 for s in figures.lr_figure([1, 9000], curve, logged=logged, round_starts=[7543]).layout.shapes] == [7543]
    assert not figures.lr_figure([1, 9000], curve, round_starts=[7543]).layout.shapes     # no log drawn: no mark


def test_six_rounds_are_numbered_where_the_numbers_fit_not_captioned_over_each_other():
    """#42 item 2: enko's six fine-tuning rounds wrote "fine-tuning from here" six times on each panel, the
    captions over each other, the curves and the ticks.  Now: a number at each line's foot, left out where
    it would touch the last one (13,225 is 513 steps after 12,712), one legend entry for them all."""
    starts = [7543, 9234, 11024, 12712, 13225, 14496]
    panels = [{"title": "loss", "series": [{"x": [1, 14800], "y": [2.0, 1.0], "name": "loss"}]},
              {"title": "BLEU", "series": [{"x": [9000, 14800], "y": [40.0, 41.0], "name": "BLEU"}]}]
    fig = figures.log_figure(panels, round_starts=starts, round_label="fine-tuning from here")
    assert sorted(s.x0 for s in fig.layout.shapes) == sorted(starts * 2)
    numbers = [a for a in fig.layout.annotations if a.text.isdigit()]
    assert sorted({(a.text, a.x) for a in numbers}) == [("1", 7543), ("2", 9234), ("3", 11024), ("4", 12712), ("6", 14496)]
    assert not [a for a in fig.layout.annotations if "fine-tuning" in (a.text or "")]
    shown = sorted({a.x for a in numbers})
    assert min(b - a for a, b in pairwise(shown)) >= figures.training.ROUND_NUMBER_GAP * 14799
    assert [t.name for t in fig.data if "fine-tuning" in (t.name or "")] == ["fine-tuning from here: 1–6"]


def test_bar_and_line_titles_are_escaped():
    fig = figures.bar_figure(["<eos>", "a"], {"<b>x</b>": [1, 2]}, title="<pad>")
    assert fig.data[0].name == "&lt;b&gt;x&lt;/b&gt;" and fig.layout.title.text == "&lt;pad&gt;"
    assert list(fig.data[0].x) == ["&lt;eos&gt;", "a"]


def test_export_roundtrip_with_minus_inf():
    frame = matrix_frame(np.array([[1.0, -math.inf], [0.5, 0.25]]), ["a", "a"], ["x", "y"])
    assert list(frame.index) == unique_labels(["a", "a"])
    data = json.loads(to_json(frame))
    assert data["data"]["data"][0] == [1.0, "-inf"]
    assert "-inf" in to_csv(frame).decode()
    both = to_csv({"one": frame, "two": pd.DataFrame({"v": [1]})}).decode()
    assert "# one" in both and "# two" in both
    assert safe_filename("masks", "scores after/−∞", "ko") == "attention-atlas_masks_scores-after-_ko"


def test_pe_waves_are_continuous_curves_through_the_integer_positions():
    import torch

    from transformer_core.model.positional import sinusoids

    pe = sinusoidal_encoding(12, 8).numpy()
    xs = np.linspace(0, 11, 16 * 11 + 1)
    curve = sinusoids(torch.from_numpy(xs), 8).numpy()[:, [0, 1]]
    fig = figures.pe_waves(pe, [0, 1], ["sin", "cos"], curve_x=xs, curve=curve)
    line, marks = fig.data[0], fig.data[1]
    assert line.mode == "lines" and marks.mode == "markers" and not line.showlegend
    assert np.allclose(line.y, np.sin(xs)) and np.allclose(marks.y, pe[:, 0])     # dim 0: sin(pos)
    assert np.allclose(np.asarray(line.y)[::16], pe[:, 0], atol=1e-6)              # the markers lie on the wave
    assert np.allclose(fig.data[3].y, pe[:, 1]) and np.allclose(fig.data[2].y, np.cos(xs))


def test_the_enlarged_head_has_square_cells_and_upright_labels_while_they_fit():
    """'I' turned 90° reads as a dash: a short sentence's enlarged head is drawn with square cells and every
    key label upright; a long one takes the page's width with the labels turned."""
    short = figures.attention_heatmap(np.eye(6), list("abcdef"), ["<s>", "·I", "·like", "·apples", ".", "</s>"])
    assert short.layout.xaxis.tickangle == 0 and short.layout.width == 6 * 64 + 170
    assert short.layout.height == 110 + 6 * 64                           # 8 px a character of '·apples', + 8
    long = figures.attention_heatmap(np.eye(30), [f"q{i}" for i in range(30)], [f"k{i}" for i in range(30)])
    assert long.layout.xaxis.tickangle == -90 and long.layout.width is None


def test_alignment_focus_names_each_line_segment_by_its_words():
    """One token's lines: meta.focus lists, per line trace, the (target i, source j) of each segment in
    order, so the browser can keep one word's lines; the two word traces are named."""
    w = np.array([[0.7, 0.2, 0.1], [0.05, 0.9, 0.05], [0.3, 0.3, 0.4]])
    fig = figures.alignment_figure(w, ["a", "b", "c"], ["x", "y", "z"], threshold=0.1).to_plotly_json()
    focus = fig["layout"]["meta"]["focus"]
    assert focus["kind"] == "lines"
    assert fig["data"][focus["src"]]["text"] == ["a", "b", "c"] and fig["data"][focus["tgt"]]["text"] == ["x", "y", "z"]
    src_y, tgt_y = fig["data"][focus["src"]]["y"], fig["data"][focus["tgt"]]["y"]
    seen = []
    for trace, links in focus["bins"]:
        ys = fig["data"][trace]["y"]
        assert len(ys) == 3 * len(links)
        for n, (i, j) in enumerate(links):
            assert ys[3 * n] == src_y[j] and ys[3 * n + 1] == tgt_y[i] and ys[3 * n + 2] is None
            seen.append((i, j))
    assert sorted(seen) == sorted((i, j) for i in range(3) for j in range(3) if w[i, j] >= 0.1)


def test_relayout_makes_the_figure_plotlys_update_methods_make():
    """relayout (pages/ui/relayout.py) against update_layout, update_xaxes and update_yaxes on a figure of four
    subplots, one of them a log axis, with panel titles (annotations) and a heatmap with text in its cells."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from pages.ui.relayout import relayout

    def figure():
        fig = make_subplots(rows=2, cols=2, subplot_titles=["a", "b", "c", "d"])
        fig.add_trace(go.Heatmap(z=[[1, 2], [3, 4]], text=[["1", "2"], ["3", "4"]], texttemplate="%{text}"), row=1, col=1)
        for i in range(1, 4):
            fig.add_trace(go.Scatter(x=[1, 10, 100], y=[i, 2 * i, 3 * i], mode="lines+text", text=["x", "y", "z"]),
                          row=1 + i // 2, col=1 + i % 2)
        fig.update_xaxes(type="log", row=2, col=2)
        fig.update_layout(title=dict(text="before"), margin=dict(l=3, t=5))
        return fig

    props = dict(title=dict(font=dict(size=20)), margin=dict(t=50), height=400, legend=dict(font=dict(size=18)))
    x_axes = dict(tickfont=dict(size=14), title=dict(text="x", font=dict(size=16)))
    y_axes = dict(exponentformat="power")
    expected = figure()
    expected.update_layout(props)
    expected.update_xaxes(x_axes)
    expected.update_yaxes(y_axes)
    for axis in expected.select_xaxes():
        if axis.type == "log":
            axis.dtick = 1
    for trace in expected.data:
        trace.textfont.size = 18

    got = relayout(figure(), props, lambda axis: {**x_axes, **({"dtick": 1} if axis.get("type") == "log" else {})},
                   y_axes, lambda trace: {"textfont": {"size": 18}})
    assert json.loads(got.to_json()) == json.loads(expected.to_json())
    assert got.layout.title.text == "before" and got.layout.margin.l == 3 and got.layout.margin.t == 50   # merged
    assert got.layout.xaxis4.dtick == 1 and got.layout.xaxis.dtick is None and got.layout.template is not None
