"""The figure builders draw exactly the numbers transformer_core computes."""
import inspect
import json
import math
import re
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
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


TOKENS, WORDS = ["▁I", "▁like", "▁apples", "</s>"], ["▁나는", "▁사과를", "▁좋아한다", "</s>"]
RNG = np.random.default_rng(0)
WEIGHTS = torch.softmax(torch.from_numpy(RNG.normal(size=(2, 2, 4, 4))), dim=-1).numpy()       # (L, h, T, S)
SCORES = np.where(np.tril(np.ones((4, 4))) > 0, RNG.normal(size=(4, 4)), -np.inf)
LINES = [{"x": [1, 2, 3], "y": [0.5, 0.25, 0.125], "name": "<loss>"}, {"x": [1, 2, 3], "y": [1, 2, 3], "name": "b"}]
# every builder (a variant after "/"), with the options that change what it draws
CATALOGUE = {
    "heatmap": lambda: figures.heatmap(WEIGHTS[0, 0], x_labels=TOKENS, y_labels=WORDS, title="t", x_title="k",
                                       y_title="q", colorbar_title="w", show_values=True),
    "heatmap/unlabelled": lambda: figures.heatmap(sinusoidal_encoding(50, 32).numpy(), zmid=0),
    "line_figure": lambda: figures.line_figure(LINES, title="t", x_title="x", y_title="y", log_x=True, markers=True),
    "bar_figure": lambda: figures.bar_figure(TOKENS, {"a": [0.1, 0.2, 0.3, 0.4], "b": [1, 2, 3, 4]}, y_range=(0, 5)),
    "bar_figure/horizontal": lambda: figures.bar_figure(TOKENS, {"a": [0.1, 0.2, 0.3, 0.4]}, text_fmt=None, horizontal=True),
    "histogram_figure": lambda: figures.histogram_figure({"a": RNG.normal(size=50).tolist(), "b": [1.0, 2.0]}, title="t"),
    "attention_grid": lambda: figures.attention_grid(WEIGHTS, WORDS, TOKENS, panel_titles=[["1", "2"], ["3", "4"]],
                                                     selected=(1, 0), masked=np.triu(np.ones((4, 4)), 1) > 0),
    "attention_heatmap": lambda: figures.attention_heatmap(WEIGHTS[1, 1], WORDS, TOKENS, title="t", colorbar_title="w",
                                                           masked=np.triu(np.ones((4, 4)), 1) > 0, masked_name="m"),
    "alignment_figure": lambda: figures.alignment_figure(WEIGHTS[1, 0], TOKENS, WORDS, title="t", gold=[(0, 0), (2, 1)],
                                                  gold_name="gold"),
    "matrix_panels": lambda: figures.matrix_panels([RNG.normal(size=(4, 8))], TOKENS, panel_titles=["Q"], band=4,
                                                   band_labels=["1", "2"], x_title="d_k"),
    "matrix_panels/split": lambda: figures.matrix_panels(list(RNG.normal(size=(2, 4, 4))), TOKENS, symmetric=False,
                                                          panel_titles=["1", "2"]),
    "position_stats_figure": lambda: figures.position_stats_figure(TOKENS, [
        {"title": "a", "series": [{"name": "n", "y": [1, 2, 3, 4]}]},
        {"title": "b", "series": [{"name": "n", "y": [4, 3, 2, 1], "dash": "dot"}]}], title="t", x_title="x"),
    "cost_figure": lambda: figures.cost_figure([1, 10, 100, 1000], {"self": [1, 100, 1e4, 1e6], "rnn": [10, 100, 1e3, 1e4]},
                                        crossover=512, crossover_label="n = d", marker_n=7, marker_label="here"),
    "topk_figure": lambda: figures.topk_figure(WORDS, [0.7, 0.2, 0.05, 0.0001], chosen=[0], title="t", x_title="p"),
    "mask_heatmap": lambda: figures.mask_heatmap(make_trg_mask(torch.tensor([[1, 2, 3, 0]]), 0)[0, 0], TOKENS, TOKENS),
    "batch_mask_heatmap": lambda: figures.batch_mask_heatmap([[1, 1, 0], [1, 1, 1]], [["a", "b", "<pad>"], ["c", "d", "e"]],
                                                     ["1", "2"]),
    "scores_heatmap": lambda: figures.scores_heatmap(SCORES, TOKENS, TOKENS, title="t"),
    "step_heatmap": lambda: figures.step_heatmap(SCORES, TOKENS, TOKENS, masked_text="-inf"),
    "scores_heatmap/probabilities": lambda: figures.scores_heatmap(WEIGHTS[0, 1], TOKENS, TOKENS, probabilities=True),
    "leak_figure": lambda: figures.leak_figure(TOKENS, [0, 0, 0.3, 0.1], [0.2, 0.1, 0.3, 0.1], 2, with_name="with",
                                        without_name="without", changed_label="changed"),
    "pe_waves": lambda: figures.pe_waves(sinusoidal_encoding(10, 8).numpy(), [0, 1], ["0", "1"],
                                      curve_x=np.linspace(0, 9, 30), curve=RNG.normal(size=(30, 2))),
    "pe_heatmap": lambda: figures.pe_heatmap(sinusoidal_encoding(20, 16).numpy(), colorbar_title="PE"),
    "similarity_heatmap": lambda: figures.similarity_heatmap(RNG.normal(size=(6, 6))),
    "rotation_figure": lambda: figures.rotation_figure(RNG.normal(size=(8, 2)), 1, 2, [1, 0], [0, 1], [0, 1], all_name="all",
                                                start_name="a", target_name="b", rotated_name="c"),
    "encoding_figure/lines": lambda: figures.encoding_figure({"5": np.arange(5.0)[:, None], "8": np.arange(8.0)[:, None]}),
    "encoding_figure": lambda: figures.encoding_figure({"5": RNG.normal(size=(5, 3)), "8": RNG.normal(size=(8, 3))},
                                                         x_title="pos", y_title="dim"),
    "lr_figure": lambda: figures.lr_figure(
        [1, 2000, 4000, 8000], [{"y": lrate_curve(4), "name": "yours"}, {"y": [1, 2, 3, 4], "name": "p", "dash": "dash"}],
        logged={"x": [1, 10], "y": [0.1, 0.2], "name": "log"}, warmup=4000, warmup_label="warm-up", round_starts=[2000],
        round_label="run"),
    "log_figure": lambda: figures.log_figure([{"title": "loss", "series": LINES}, {"title": "BLEU", "series": LINES}],
                                               x_title="step", round_starts=[2, 3], round_label="run"),
    "history_figure": lambda: figures.history_figure(WEIGHTS[0, 0], 2, WORDS, TOKENS, [1, 2, 3], [3.0, 2.0, 1.0],
                                                   title="t", loss_title="loss", step_label="step"),
    "confidence_loss_figure": lambda: figures.confidence_loss_figure(
        [0.1, 0.5, 0.9], {"one-hot": [2.3, 0.7, 0.1], "smoothed": [2.0, 0.8, 0.6]}, best=0.5, best_label="best", chosen=0.9,
        chosen_label="p < q"),
    "smoothing_figure": lambda: figures.smoothing_figure(TOKENS, {"one-hot": [0, 1, 0, 0], "ε = 0.1": [0.03, 0.9, 0.03, 0.03]}),
    "residual_figure": lambda: figures.residual_figure([{"stages": ["x", "+attn"], "norms": [[1, 2, 3, 4], [2, 3, 4, 5]]}],
                                                [TOKENS], panel_titles=["encoder"], title="t", y_title="‖x‖"),
    "top_next_figure": lambda: figures.top_next_figure(TOKENS, [WORDS[:2]] * 4, RNG.random((4, 2)), colorbar_title="p"),
}


def test_the_catalogue_holds_every_builder():
    builders = {name for name, fn in inspect.getmembers(figures, inspect.isfunction)
                if "Figure" in str(inspect.signature(fn).return_annotation)}
    assert builders == {name.split("/")[0] for name in CATALOGUE}


@pytest.mark.parametrize("name", CATALOGUE)
def test_every_figure_passes_plotlys_checks_and_they_change_nothing(name):
    """The builders make their figures without plotly's checks (relayout.figure): each figure, and the same made
    ready for a projector, is a valid plotly figure (go.Figure with its checks raises on an unknown property or
    a bad value), and the JSON the browser gets is the same as that of the figure made with them."""
    import plotly.graph_objects as go

    from pages.ui.live_chart import figure_json
    from pages.ui.theme import projector

    fig = CATALOGUE[name]()
    for drawn in (fig, projector(fig)):
        checked = go.Figure(drawn.to_plotly_json())
        assert json.loads(figure_json(drawn)) == json.loads(figure_json(checked))


PLOTLY_CHECKED = re.compile(r"\.(update_(layout|traces|xaxes|yaxes)|add_(vline|hline|vrect|annotation|shape|trace|scatter))\(|"
                            r"make_subplots\(")


def test_figures_are_made_and_changed_only_where_the_catalogue_checks_them():
    """plotly's update_*, add_* and make_subplots check every property as they go (4-13 ms apiece, a fifth of a
    page run once): the app's figures are made with relayout.figure and changed with relayout.relayout and
    base.marked, which the catalogue above holds to plotly's checks.  No page or builder calls the others."""
    root = Path(__file__).resolve().parents[1]
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}"
             for path in [root / "app.py", *sorted((root / "pages").rglob("*.py"))]
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if PLOTLY_CHECKED.search(line.split("#")[0]) and not line.lstrip().startswith(('"', "'"))]
    assert not found, found
