"""Training: the lrate schedule, the logged curves, the attention being learned, label smoothing."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ..relayout import figure, relayout
from ..theme import CHOSEN, GUIDE, PALETTE, SEQUENTIAL
from .base import _axis_suffix, _hover, _layout, as_array, bar_figure, escape, line_figure, marked, side_by_side, tick_labels, vline

ROUND_NUMBER_GAP = 0.1      # of the steps a panel spans: a number closer than that to the last one shown is left out


def round_marks(fig: go.Figure, starts: Sequence[int], label: str, more: Mapping | None = None) -> go.Figure:
    """A dashed line (on every panel) at each step where a later training run began: a fine-tune's.  The
    lines are numbered 1, 2, ... at the foot of each panel, where a number fits (one closer than
    ROUND_NUMBER_GAP of the steps to the last one shown is left out: its line stays), and one legend entry
    says what the lines are ("fine-tuning from here: 1-6"); six rounds' captions written out used to pile
    up over each other, the curves and the ticks.  more: {"shapes", "annotations"} the caller adds as well.
    Everything goes into the layout at once (relayout): update_layout validated each shape as it went."""
    shapes, marks = list((more or {}).get("shapes", ())), list((more or {}).get("annotations", ()))
    legend = []
    if starts:
        xs = [x for trace in fig.data for x in (trace.x or ()) if x is not None]
        span = (max(xs) - min(xs)) if xs else 0
        panels = list(dict.fromkeys((trace.xaxis or "x", trace.yaxis or "y") for trace in fig.data))  # ("x2", "y2"), …
        shown = None
        for n, step in enumerate(starts, start=1):
            fits = shown is None or not span or step - shown >= ROUND_NUMBER_GAP * span
            for x, y in panels:
                shapes.append(vline(step, PALETTE[2], "dash", x, y))
                if fits:                    # just above the panel's top
                    marks.append(dict(text=str(n), x=step, xref=x, y=1, yref=f"{y} domain", xanchor="center",
                                      yanchor="bottom", showarrow=False, borderpad=0, font=dict(color=PALETTE[2])))
            shown = step if fits else shown
        numbers = "1" if len(starts) == 1 else f"1–{len(starts)}"
        legend.append(dict(type="scatter", x=[None], y=[None], mode="lines", name=f"{escape(label)}: {numbers}",
                           line=dict(color=PALETTE[2], dash="dash", width=2), hoverinfo="skip"))
    return marked(fig, shapes, marks, add=legend)


def lr_figure(steps: Sequence[int], curves: Sequence[Mapping], *, title: str = "", x_title: str = "",
              y_title: str = "", logged: Mapping | None = None, warmup: int | None = None,
              warmup_label: str = "", round_starts: Sequence[int] = (), round_label: str = "") -> go.Figure:
    """lrate curves: curves = [{"y", "name", "dash"?}] on the shared steps; logged = {"x", "y", "name"};
    round_starts: where the logged model's later runs began."""
    series = [{"x": list(steps), "y": list(c["y"]), "name": c["name"], "dash": c.get("dash", "solid"),
               "color": c.get("color", PALETTE[n % len(PALETTE)])} for n, c in enumerate(curves)]
    if logged is not None:
        series.append({"x": list(logged["x"]), "y": list(logged["y"]), "name": logged["name"],
                       "mode": "markers", "color": PALETTE[3], "marker_size": 4})
    fig = line_figure(series, title=title, x_title=x_title, y_title=y_title, height=430)
    warmup_line = {"shapes": [vline(warmup, GUIDE, "dot")],
                   "annotations": [dict(text=escape(warmup_label), x=warmup, xref="x", y=1, yref="y domain",
                                        xanchor="center", yanchor="bottom", showarrow=False)]} if warmup else None
    return round_marks(fig, round_starts if logged is not None else (), round_label, warmup_line)


def log_figure(panels: Sequence[Mapping], *, x_title: str = "", height: int = 360, round_starts: Sequence[int] = (),
               round_label: str = "") -> go.Figure:
    """Side-by-side panels of a training log: panels = [{"title", "series": [{"x", "y", "name"}]}];
    round_starts: the steps where later runs (fine-tunes) began."""
    layout, data = side_by_side([escape(p["title"]) for p in panels], gap=0.07), []
    if round_starts:                        # the lines' numbers go between each panel and its title
        for title in layout["annotations"]:
            title["yshift"] = 22
    for c, panel in enumerate(panels, start=1):
        for n, s in enumerate(panel["series"]):
            data.append(dict(type="scatter", x=list(s["x"]), y=list(s["y"]), name=escape(s["name"]),
                             mode=s.get("mode", "lines"), connectgaps=False, xaxis="x" + _axis_suffix(c),
                             yaxis="y" + _axis_suffix(c), line=dict(color=PALETTE[(c - 1 + n * 3) % len(PALETTE)], width=2)))
    fig = _layout(figure(data, layout), height=height, x_axes=dict(title=dict(text=escape(x_title))))     # every panel's
    if round_starts:
        fig = relayout(fig, {"margin": {"t": fig.layout.margin.t + 22}})
    return round_marks(fig, round_starts, round_label)


def history_figure(weights, step: int, q_labels: Sequence[str], k_labels: Sequence[str],
                   loss_steps: Sequence[float], losses: Sequence[float], *, title: str = "", x_title: str = "",
                   y_title: str = "", loss_title: str = "", step_label: str = "") -> go.Figure:
    """Attention being learned, at one training step: one head's weights (Tq, Tk) at `step`, beside the
    loss curve with that step marked (the loss interpolated in the logged losses).  The page plays the
    steps back by drawing this figure again for each (a Streamlit slider and a timer: plotly's own frames
    do not survive Streamlit's chart element)."""
    mark = float(np.interp(step, loss_steps, losses)) if len(losses) else float("nan")
    layout = side_by_side([escape(title), f"{escape(loss_title)} · {escape(step_label)} {step:,}"], widths=[0.55, 0.45],
                          gap=0.12)
    data = [dict(type="heatmap", z=as_array(weights), x=tick_labels(k_labels), y=tick_labels(q_labels),
                 colorscale=SEQUENTIAL, zmin=0.0, zmax=1.0, xgap=1, ygap=1, colorbar=dict(thickness=12, x=0.5),
                 hovertemplate=_hover(), xaxis="x", yaxis="y"),
            dict(type="scatter", x=list(loss_steps), y=list(losses), mode="lines", line=dict(color=PALETTE[0], width=2),
                 hoverinfo="skip", xaxis="x2", yaxis="y2"),
            dict(type="scatter", x=[step], y=[mark], mode="markers", marker=dict(size=14, color=PALETTE[1]),
                 xaxis="x2", yaxis="y2")]
    fig = figure(data, layout)
    return _layout(fig, height=480, legend=False, props={     # each axis its own, in the one layout pass
        "xaxis": dict(title=dict(text=escape(x_title))), "xaxis2": dict(title=dict(text=escape(step_label))),
        "yaxis": dict(autorange="reversed", title=dict(text=escape(y_title)))})


def smoothing_figure(vocab: Sequence[str], distributions: Mapping[str, Sequence[float]], *,
                     title: str = "", x_title: str = "", y_title: str = "") -> go.Figure:
    return bar_figure(vocab, distributions, title=title, x_title=x_title, y_title=y_title,
                      text_fmt=".2f", y_range=(0, 1.12))


def confidence_loss_figure(confidences: Sequence[float], losses: Mapping[str, Sequence[float]], *, best: float,
                           best_label: str, chosen: float, chosen_label: str, title: str = "", x_title: str = "",
                           y_title: str = "") -> go.Figure:
    """Label smoothing's loss against the probability the model gives the right token, one line per target
    (one-hot, smoothed); a dotted line at the smoothed loss's least (best), a dashed one at the value chosen."""
    fig = line_figure([{"x": list(confidences), "y": list(y), "name": name} for name, y in losses.items()],
                      title=title, x_title=x_title, y_title=y_title)
    lines = ((best, best_label, "dot", GUIDE, "right"), (chosen, chosen_label, "dash", CHOSEN, "left"))
    return marked(fig, [vline(x, color, dash) for x, _, dash, color, _ in lines],
                  [{"showarrow": False, "text": escape(label), "x": x, "xanchor": side, "xref": "x", "y": 1,
                    "yanchor": "top", "yref": "y domain"} for x, label, _, _, side in lines])
