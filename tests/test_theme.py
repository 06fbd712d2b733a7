"""One visual language: every figure builder colours with theme.py's scales, signed values centred at 0,
and names tokens one way on every page."""
import inspect
import json
import re
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

from pages.ui import figures, theme
from pages.ui.live_chart import figure_json

ROOT = Path(__file__).resolve().parents[1]
SIGNED = np.array([[-2.0, 0.5], [1.0, -0.25]])
WEIGHTS = np.array([[0.9, 0.1], [0.3, 0.7]])
TOKENS = ["<s>", "▁I"]

# Every builder that draws colour, called on data of its kind: (kwargs, expected scale, signed?)
COLOURED = {
    "heatmap": (lambda: figures.heatmap(WEIGHTS), theme.SEQUENTIAL, False),
    "pe_heatmap": (lambda: figures.pe_heatmap(SIGNED / 2), theme.DIVERGING, True),
    "similarity_heatmap": (lambda: figures.similarity_heatmap(SIGNED), theme.DIVERGING, True),
    "encoding_figure": (lambda: figures.encoding_figure({"a": SIGNED, "b": SIGNED}), theme.DIVERGING, True),
    "mask_heatmap": (lambda: figures.mask_heatmap(WEIGHTS > 0.5, TOKENS, TOKENS), list(theme.MASK_COLORS), False),
    "batch_mask_heatmap": (lambda: figures.batch_mask_heatmap(WEIGHTS > 0.5, [TOKENS, TOKENS], ["a", "b"]),
                           list(theme.MASK_COLORS), False),
    "scores_heatmap": (lambda: figures.scores_heatmap(SIGNED, TOKENS, TOKENS), theme.DIVERGING, True),
    "attention_grid": (lambda: figures.attention_grid(WEIGHTS[None, None], TOKENS, TOKENS, panel_titles=[["h"]]),
                       theme.SEQUENTIAL, False),
    "attention_heatmap": (lambda: figures.attention_heatmap(WEIGHTS, TOKENS, TOKENS), theme.SEQUENTIAL, False),
    "mask_trace": (lambda: go.Figure(data=[figures.mask_trace(np.ones((2, 2)), ["a", "b"], ["a", "b"], "m")]),
                   [[0.0, theme.MASK_COLORS[0][1]], [1.0, theme.MASK_COLORS[0][1]]], False),
    "matrix_panels": (lambda: figures.matrix_panels([SIGNED], TOKENS, panel_titles=["Q"]), theme.DIVERGING, True),
    "history_figure": (lambda: figures.history_figure(WEIGHTS, 10, TOKENS, TOKENS, [5, 10], [3.0, 2.0]),
                       theme.SEQUENTIAL, False),
}


def _scales(fig) -> list:
    """The colour scales the browser gets (a name plotly.js may not know stays a name)."""
    spec = json.loads(figure_json(fig))
    out = [t.get("colorscale") for t in spec["data"] if t.get("type") == "heatmap" and "colorscale" in t]
    out += [v["colorscale"] for k, v in spec["layout"].items() if k.startswith("coloraxis")]
    return out


def test_every_colour_builder_uses_the_theme_and_centres_signed_values():
    builders = {name for name, fn in inspect.getmembers(figures, inspect.isfunction)
                if fn.__module__ == figures.__name__ and "colorscale" in inspect.getsource(fn)
                and name not in ("heatmap",)} | {"heatmap"}
    assert builders <= set(COLOURED), f"add {sorted(builders - set(COLOURED))} to COLOURED"
    for name, (build, scale, signed) in COLOURED.items():
        fig = build()
        scales = _scales(fig)
        assert scales, name
        for s in scales:
            assert s == json.loads(json.dumps(scale)), (name, s)
        if signed:
            spec = fig.to_plotly_json()
            centred = [t.get("zmid") == 0 or (t.get("zmin") is not None and t.get("zmin") == -t.get("zmax"))
                       for t in spec["data"] if t.get("type") == "heatmap" and ("zmid" in t or "zmin" in t)]
            axes = [v.get("cmin") == -v.get("cmax") for k, v in spec["layout"].items() if k.startswith("coloraxis")]
            assert (centred or axes) and all(centred + axes), name


def test_no_colour_scale_is_named_outside_the_theme():
    for path in [*ROOT.glob("pages/*.py"), *ROOT.glob("pages/ui/*.py")]:
        if path.name == "theme.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"colorscale\s*=\s*[\"']", text), path
        assert not re.search(r"[\"'](Viridis|RdBu|RdBu_r|Blues|Reds)[\"']", text), path


def test_one_name_per_special_token_and_a_word_start_mark():
    assert [theme.token_label(p) for p in ("<bos>", "<s>", "<eos>", "</s>", "▁apples", "les", "▁")] == \
        ["<s>", "<s>", "</s>", "</s>", "·apples", "les", "·"]
    fig = figures.attention_heatmap(WEIGHTS, ["<bos>", "▁I"], ["<s>", "▁I"])
    assert list(fig.data[0].x) == ["&lt;s&gt;", "·I"] and list(fig.data[0].y) == ["&lt;s&gt;", "·I"]


def test_projector_type_is_18_px_on_every_axis_and_a_log_axis_labels_its_decades_only():
    """Projector mode: every tick label at theme.PRESENT's 18 px; plotly draws a log axis's 2 and 5 labels at ¾ of
    that (13.5 px), so a log axis is labelled at its decades only."""
    fig = go.Figure(go.Scatter(x=[1, 10, 1000], y=[2, 3, 4]))
    fig.update_xaxes(type="log")
    fig = theme.projector(fig)
    assert theme.PRESENT["tick"] >= 18 and theme.PRESENT["font"] >= 18
    assert fig.layout.xaxis.tickfont.size == fig.layout.yaxis.tickfont.size == theme.PRESENT["tick"]
    assert fig.layout.xaxis.dtick == 1 and fig.layout.yaxis.dtick is None
