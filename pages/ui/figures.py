"""All plotly figure builders.  Plain functions: data in (numpy / torch / lists, plus the already
translated labels), a plotly Figure out.  No Streamlit here, so every builder is testable alone.

Conventions
- Token labels go on numeric axes (0, 1, …) with the tokens as tick text, so repeated tokens stay
  apart, and they are escaped: plotly treats "<pad>" as markup otherwise.  theme.token_label names
  them: one name per special token, "▁" drawn as the word-start mark.
- Colours come from theme.py: SEQUENTIAL for weights and probabilities, DIVERGING (centred at 0) for
  signed values.
- −∞ (masked scores) is drawn as a blank cell with the text given in masked_text (e.g. "−∞").
- Every title and axis title is passed in by the caller (from the i18n files).
"""
from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .theme import DIVERGING, FOCUS_DIM, FONT_SIZE, MASK_COLORS, PALETTE, SEQUENTIAL, token_label


def escape(text: str) -> str:
    """Plain text for plotly's pseudo-HTML labels."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def as_array(data) -> np.ndarray:
    if hasattr(data, "detach"):
        data = data.detach().cpu().numpy()
    arr = np.asarray(data)
    if arr.dtype == bool:
        arr = arr.astype(int)
    return arr.astype(float)


def _layout(fig: go.Figure, title: str = "", x_title: str = "", y_title: str = "",
            height: int | None = None, legend: bool = True) -> go.Figure:
    fig.update_layout(
        title=dict(text=escape(title), font=dict(size=FONT_SIZE + 2)) if title else None,
        font=dict(size=FONT_SIZE), height=height, margin=dict(l=10, r=10, t=60 if title else 20, b=10),
        showlegend=legend,
        # the legend goes under the plot, where long (translated) names can wrap without covering the title
        legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", xanchor="left", x=0))
    if x_title:
        fig.update_xaxes(title_text=escape(x_title))
    if y_title:
        fig.update_yaxes(title_text=escape(y_title))
    fig.update_xaxes(exponentformat="none", separatethousands=True)   # steps: 20,000, not 0.2×10⁵
    fig.update_yaxes(exponentformat="power")
    return fig


def _fmt(value: float, fmt: str) -> str:
    text = format(value, fmt)
    if text.startswith("-") and float(text) == 0:      # "-0.0" -> "0.0"
        text = text[1:]
    return text


# ---------------------------------------------------------------- generic builders

def heatmap(z, *, x_labels: Sequence[str] | None = None, y_labels: Sequence[str] | None = None,
            title: str = "", x_title: str = "", y_title: str = "", colorbar_title: str = "",
            colorscale=SEQUENTIAL, zmin: float | None = None, zmax: float | None = None,
            zmid: float | None = None, show_values: bool = False, fmt: str = ".2f",
            masked_text: str = "−∞", height: int | None = None, reverse_y: bool = True,
            show_scale: bool = True, max_ticks: int = 40) -> go.Figure:
    """A matrix as a heatmap; rows top to bottom.  −∞ cells are blank and labelled masked_text."""
    arr = as_array(z)
    if arr.ndim == 1:
        arr = arr[None, :]
    rows, cols = arr.shape
    neg_inf = np.isneginf(arr)
    shown = np.where(np.isfinite(arr), arr, np.nan)
    xs, ys = list(range(cols)), list(range(rows))
    x_text = [escape(token_label(s)) for s in x_labels] if x_labels is not None else [str(j) for j in xs]
    y_text = [escape(token_label(s)) for s in y_labels] if y_labels is not None else [str(i) for i in ys]
    hover_x, hover_y = escape(x_title) or "x", escape(y_title) or "y"
    custom = np.empty((rows, cols, 2), dtype=object)
    for i in range(rows):
        for j in range(cols):
            custom[i, j] = (y_text[i], x_text[j])
    cell_text = None
    if show_values or neg_inf.any():
        cell_text = [[masked_text if neg_inf[i, j] else (_fmt(arr[i, j], fmt) if show_values else "")
                      for j in range(cols)] for i in range(rows)]
    fig = go.Figure(go.Heatmap(
        z=shown, x=xs, y=ys, customdata=custom, colorscale=colorscale, zmin=zmin, zmax=zmax, zmid=zmid,
        text=cell_text, texttemplate="%{text}" if cell_text is not None else None,
        textfont=dict(size=max(9, FONT_SIZE - max(rows, cols) // 3)),
        showscale=show_scale, xgap=1 if cols <= 40 else 0, ygap=1 if rows <= 40 else 0,
        colorbar=dict(title=dict(text=escape(colorbar_title))) if colorbar_title else None,
        hovertemplate=f"{hover_y}: %{{customdata[0]}}<br>{hover_x}: %{{customdata[1]}}"
                      f"<br>%{{z:.4g}}<extra></extra>"))
    fig.update_xaxes(tickmode="array", tickvals=xs if cols <= max_ticks else xs[:: max(1, cols // max_ticks)],
                     ticktext=x_text if cols <= max_ticks else x_text[:: max(1, cols // max_ticks)],
                     showgrid=False, zeroline=False)
    fig.update_yaxes(tickmode="array", tickvals=ys if rows <= max_ticks else ys[:: max(1, rows // max_ticks)],
                     ticktext=y_text if rows <= max_ticks else y_text[:: max(1, rows // max_ticks)],
                     autorange="reversed" if reverse_y else True, showgrid=False, zeroline=False)
    if height is None:
        height = int(min(620, max(260, 40 + 34 * rows))) if rows <= 16 else 520
    return _layout(fig, title, x_title, y_title, height, legend=False)


def line_figure(series: Sequence[Mapping], *, title: str = "", x_title: str = "", y_title: str = "",
                log_x: bool = False, log_y: bool = False, height: int = 420,
                markers: bool = False) -> go.Figure:
    """Lines; each series is {"x", "y", "name", optional "dash", "color", "width", "mode", "yaxis"}."""
    fig = go.Figure()
    for n, s in enumerate(series):
        fig.add_trace(go.Scatter(
            x=list(s["x"]), y=list(s["y"]), name=escape(s.get("name", "")),
            mode=s.get("mode", "lines+markers" if markers else "lines"),
            connectgaps=False,
            line=dict(dash=s.get("dash", "solid"), color=s.get("color", PALETTE[n % len(PALETTE)]),
                      width=s.get("width", 2.5)),
            marker=dict(size=s.get("marker_size", 7))))
    if log_x:
        fig.update_xaxes(type="log")
    if log_y:
        fig.update_yaxes(type="log")
    return _layout(fig, title, x_title, y_title, height)


def bar_figure(categories: Sequence[str], series: Mapping[str, Sequence[float]], *, title: str = "",
               x_title: str = "", y_title: str = "", height: int = 380, text_fmt: str | None = ".3f",
               y_range: Sequence[float] | None = None, horizontal: bool = False) -> go.Figure:
    """Grouped bars: one group per category, one bar per series; horizontal: the categories top-down, each
    bar's text on its own row (room for many series)."""
    fig = go.Figure()
    cats = [escape(c) for c in categories]
    for n, (name, values) in enumerate(series.items()):
        vals = [float(v) for v in values]
        text = [_fmt(v, text_fmt) for v in vals] if text_fmt else None
        kwargs = dict(y=cats, x=vals, orientation="h") if horizontal else dict(x=cats, y=vals)
        fig.add_trace(go.Bar(name=escape(name), text=text, textposition="outside",
                             marker_color=PALETTE[n % len(PALETTE)], cliponaxis=False, **kwargs))
    fig.update_layout(barmode="group")
    if y_range is not None:
        (fig.update_xaxes if horizontal else fig.update_yaxes)(range=list(y_range))
    if horizontal:      # text no smaller than 10 px: the caller gives each bar that height
        fig.update_yaxes(autorange="reversed")
        fig.update_layout(uniformtext={"minsize": 10, "mode": "show"}, bargap=0.12, bargroupgap=0.0)
    return _layout(fig, title, x_title, y_title, height, legend=len(series) > 1)


def histogram_figure(samples: Mapping[str, Sequence[float]], *, title: str = "", x_title: str = "",
                     y_title: str = "", height: int = 380, nbins: int = 60) -> go.Figure:
    fig = go.Figure()
    for n, (name, values) in enumerate(samples.items()):
        fig.add_trace(go.Histogram(x=list(values), name=escape(name), nbinsx=nbins, opacity=0.6,
                                   marker_color=PALETTE[n % len(PALETTE)]))
    fig.update_layout(barmode="overlay")
    return _layout(fig, title, x_title, y_title, height)


# ---------------------------------------------------------------- positional encoding

def pe_waves(pe, dims: Sequence[int], names: Sequence[str], *, curve_x=None, curve=None, title: str = "",
             x_title: str = "", y_title: str = "") -> go.Figure:
    """PE(pos, d) against pos for the chosen dimensions d: the table's values at the integer positions
    as markers, on the continuous wave (curve: (len(curve_x), len(dims)) values at positions curve_x)
    that they sample, so a fast dimension is a wave, not a zig-zag."""
    arr = as_array(pe)
    pos = list(range(arr.shape[0]))
    series = []
    for n, (d, name) in enumerate(zip(dims, names)):
        color, dash = PALETTE[n % len(PALETTE)], "solid" if d % 2 == 0 else "dot"
        if curve is not None:
            series.append({"x": list(curve_x), "y": as_array(curve)[:, n].tolist(), "name": name, "dash": dash,
                           "color": color, "width": 2})
        series.append({"x": pos, "y": arr[:, d].tolist(), "name": name, "mode": "markers" if curve is not None
                       else "lines+markers", "marker_size": 7, "color": color, "dash": dash})
    fig = line_figure(series, title=title, x_title=x_title, y_title=y_title, height=420)
    if curve is not None:                       # one legend entry per dimension: the marker traces
        for trace in fig.data[::2]:
            trace.showlegend = False
    return fig


def pe_heatmap(pe, *, title: str = "", x_title: str = "", y_title: str = "",
               colorbar_title: str = "") -> go.Figure:
    """The table PE: one row per position, one column per dimension."""
    arr = as_array(pe)
    return heatmap(arr, title=title, x_title=x_title, y_title=y_title, colorbar_title=colorbar_title,
                   colorscale=DIVERGING, zmid=0, zmin=-1, zmax=1, height=520, max_ticks=16)


def similarity_heatmap(sim, *, title: str = "", x_title: str = "", y_title: str = "",
                       colorbar_title: str = "") -> go.Figure:
    """PE·PEᵀ: the dot product between the encodings of two positions."""
    return heatmap(sim, title=title, x_title=x_title, y_title=y_title, colorbar_title=colorbar_title,
                   colorscale=DIVERGING, zmid=0, height=520, max_ticks=16)


def rotation_figure(circle_points, pos: int, k: int, start, target, rotated, *, title: str = "",
                    x_title: str = "", y_title: str = "", all_name: str = "", start_name: str = "",
                    target_name: str = "", rotated_name: str = "") -> go.Figure:
    """One (sin, cos) dimension pair: every position's point on the unit circle, PE(pos), PE(pos+k)
    and T(k)·PE(pos) (which lands on PE(pos+k))."""
    pts = as_array(circle_points)
    theta = np.linspace(0, 2 * np.pi, 200)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=np.cos(theta).tolist(), y=np.sin(theta).tolist(), mode="lines",
                             line=dict(color="#9ca3af", width=1), hoverinfo="skip", showlegend=False))
    fig.add_trace(go.Scatter(x=pts[:, 0].tolist(), y=pts[:, 1].tolist(), mode="markers",
                             marker=dict(size=6, color="#9ca3af"), name=escape(all_name),
                             text=[str(p) for p in range(len(pts))],
                             hovertemplate="%{text}: (%{x:.3f}, %{y:.3f})<extra></extra>"))
    a, b, r = as_array(start), as_array(target), as_array(rotated)
    for point, name, color, symbol, size in ((a, start_name, PALETTE[0], "circle", 16),
                                             (b, target_name, PALETTE[2], "circle", 22),
                                             (r, rotated_name, PALETTE[1], "x", 14)):
        fig.add_trace(go.Scatter(x=[0, float(point[0])], y=[0, float(point[1])], mode="lines+markers",
                                 name=escape(name), line=dict(color=color, width=3),
                                 marker=dict(size=[0, size], color=color, symbol=symbol)))
    fig.update_xaxes(range=[-1.25, 1.25], zeroline=True, scaleanchor="y", scaleratio=1)
    fig.update_yaxes(range=[-1.25, 1.25], zeroline=True)
    return _layout(fig, title, x_title, y_title, height=480)


def encoding_figure(tables: Mapping[str, np.ndarray], *, title: str = "", x_title: str = "",
                    y_title: str = "") -> go.Figure:
    """Encodings of the same positions under several sequence lengths.

    One-dimensional encodings (index, normalized) are drawn as lines, one per length; wider ones
    (binary, sinusoidal) as side-by-side heatmaps.
    """
    arrays = {name: as_array(tab) for name, tab in tables.items()}
    if all(a.shape[1] == 1 for a in arrays.values()):
        series = [{"x": list(range(a.shape[0])), "y": a[:, 0].tolist(), "name": name, "mode": "lines+markers",
                   "dash": "solid" if n == 0 else "dash", "width": 5 if n == 0 else 2.5,
                   "marker_size": 11 if n == 0 else 6}
                  for n, (name, a) in enumerate(arrays.items())]
        return line_figure(series, title=title, x_title=x_title, y_title=y_title, height=400)
    names = list(arrays)
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=[escape(n) for n in names],
                        horizontal_spacing=0.08)
    zmin = min(float(a.min()) for a in arrays.values())
    zmax = max(float(a.max()) for a in arrays.values())
    for c, name in enumerate(names, start=1):
        a = arrays[name]
        fig.add_trace(go.Heatmap(z=a.T, x=list(range(a.shape[0])), y=list(range(a.shape[1])),
                                 colorscale=DIVERGING if zmin < 0 else SEQUENTIAL, zmin=zmin, zmax=zmax,
                                 zmid=0 if zmin < 0 else None,
                                 showscale=c == len(names), xgap=1, ygap=1,
                                 hovertemplate="%{x}, %{y}: %{z:.3f}<extra></extra>"), row=1, col=c)
        fig.update_xaxes(title_text=escape(x_title), row=1, col=c)
        fig.update_yaxes(autorange="reversed", row=1, col=c)
    fig.update_yaxes(title_text=escape(y_title), row=1, col=1)
    return _layout(fig, title, height=420, legend=False)


# ---------------------------------------------------------------- masks and attention

def mask_heatmap(mask, x_tokens: Sequence[str], y_tokens: Sequence[str], *, title: str = "",
                 x_title: str = "", y_title: str = "") -> go.Figure:
    """A boolean mask (True = may attend) as blue 1 / grey 0 cells."""
    arr = as_array(mask)
    if arr.ndim == 1:
        arr = arr[None, :]
    return heatmap(arr, x_labels=x_tokens, y_labels=y_tokens, title=title, x_title=x_title,
                   y_title=y_title, colorscale=list(MASK_COLORS), zmin=0, zmax=1, show_values=True,
                   fmt=".0f", show_scale=False)


def batch_mask_heatmap(mask_rows, tokens: Sequence[Sequence[str]], row_names: Sequence[str], *,
                       title: str = "", x_title: str = "", y_title: str = "") -> go.Figure:
    """The padding mask of a whole batch, (B, S): each cell shows its token, coloured 1 / 0."""
    arr = as_array(mask_rows)
    fig = heatmap(arr, y_labels=row_names, x_labels=[str(j) for j in range(arr.shape[1])], title=title,
                  x_title=x_title, y_title=y_title, colorscale=list(MASK_COLORS), zmin=0, zmax=1,
                  show_scale=False)
    text = [[escape(token_label(tok)) for tok in row] for row in tokens]
    fig.update_traces(text=text, texttemplate="%{text}", textfont=dict(size=13))
    return fig


def scores_heatmap(matrix, x_tokens: Sequence[str], y_tokens: Sequence[str], *, title: str = "",
                   x_title: str = "", y_title: str = "", masked_text: str = "−∞",
                   probabilities: bool = False, show_values: bool = True) -> go.Figure:
    """Attention scores (may hold −∞) or weights (probabilities=True: 0..1 scale)."""
    arr = as_array(matrix)
    if arr.ndim == 1:
        arr = arr[None, :]
    finite = arr[np.isfinite(arr)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    kwargs = dict(colorscale=SEQUENTIAL, zmin=0, zmax=1, fmt=".2f") if probabilities else dict(
        colorscale=DIVERGING, zmid=0.0, zmin=-bound, zmax=bound, fmt=".1f")
    rows, cols = arr.shape
    fig = heatmap(arr, x_labels=x_tokens, y_labels=y_tokens, title=title, x_title=x_title,
                  y_title=y_title, masked_text=masked_text, show_values=show_values and cols <= 10,
                  show_scale=False, height=int(max(300, 120 + 42 * rows)), **kwargs)
    return fig


def leak_figure(tokens: Sequence[str], with_mask: Sequence[float], without_mask: Sequence[float],
                changed_pos: int, *, with_name: str, without_name: str, title: str = "",
                x_title: str = "", y_title: str = "", changed_label: str = "") -> go.Figure:
    """max |Δ output| per query row, with and without the causal mask."""
    cats = [f"{i} {token_label(tok)}" for i, tok in enumerate(tokens)]
    fig = bar_figure(cats, {with_name: with_mask, without_name: without_mask}, title=title,
                     x_title=x_title, y_title=y_title, text_fmt=".2g", height=400)
    fig.add_vline(x=changed_pos - 0.5, line_dash="dash", line_color="#6b7280")
    if changed_label:
        fig.add_annotation(x=changed_pos, y=1.0, yref="paper", text=escape(changed_label), showarrow=False,
                           yanchor="bottom", font=dict(color="#6b7280"))
    return fig


# ---------------------------------------------------------------- training

def lr_figure(steps: Sequence[int], curves: Sequence[Mapping], *, title: str = "", x_title: str = "",
              y_title: str = "", logged: Mapping | None = None, warmup: int | None = None,
              warmup_label: str = "") -> go.Figure:
    """lrate curves: curves = [{"y", "name", "dash"?}] on the shared steps; logged = {"x", "y", "name"}."""
    series = [{"x": list(steps), "y": list(c["y"]), "name": c["name"], "dash": c.get("dash", "solid"),
               "color": c.get("color", PALETTE[n % len(PALETTE)])} for n, c in enumerate(curves)]
    if logged is not None:
        series.append({"x": list(logged["x"]), "y": list(logged["y"]), "name": logged["name"],
                       "mode": "markers", "color": PALETTE[3], "marker_size": 4})
    fig = line_figure(series, title=title, x_title=x_title, y_title=y_title, height=430)
    if warmup:
        fig.add_vline(x=warmup, line_dash="dot", line_color="#6b7280",
                      annotation_text=escape(warmup_label), annotation_position="top")
    return fig


def log_figure(panels: Sequence[Mapping], *, x_title: str = "", height: int = 360) -> go.Figure:
    """Side-by-side panels of a training log: panels = [{"title", "series": [{"x", "y", "name"}]}]."""
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[escape(p["title"]) for p in panels],
                        horizontal_spacing=0.07)
    for c, panel in enumerate(panels, start=1):
        for n, s in enumerate(panel["series"]):
            fig.add_trace(go.Scatter(x=list(s["x"]), y=list(s["y"]), name=escape(s["name"]),
                                     mode=s.get("mode", "lines"), connectgaps=False,
                                     line=dict(color=PALETTE[(c - 1 + n * 3) % len(PALETTE)], width=2)),
                          row=1, col=c)
        fig.update_xaxes(title_text=escape(x_title), row=1, col=c)
    return _layout(fig, height=height)


def history_figure(weights, step: int, q_labels: Sequence[str], k_labels: Sequence[str],
                   loss_steps: Sequence[float], losses: Sequence[float], *, title: str = "", x_title: str = "",
                   y_title: str = "", loss_title: str = "", step_label: str = "") -> go.Figure:
    """Attention being learned, at one training step: one head's weights (Tq, Tk) at `step`, beside the
    loss curve with that step marked (the loss interpolated in the logged losses).  The page plays the
    steps back by drawing this figure again for each (a Streamlit slider and a timer: plotly's own frames
    do not survive Streamlit's chart element)."""
    mark = float(np.interp(step, loss_steps, losses)) if len(losses) else float("nan")
    fig = make_subplots(rows=1, cols=2, column_widths=[0.55, 0.45], horizontal_spacing=0.12,
                        subplot_titles=[escape(title), f"{escape(loss_title)} · {escape(step_label)} {step:,}"])
    fig.add_trace(go.Heatmap(z=as_array(weights), x=tick_labels(k_labels), y=tick_labels(q_labels),
                             colorscale=SEQUENTIAL, zmin=0.0, zmax=1.0, xgap=1, ygap=1,
                             colorbar=dict(thickness=12, x=0.5), hovertemplate=_hover()), row=1, col=1)
    fig.add_trace(go.Scatter(x=list(loss_steps), y=list(losses), mode="lines", line=dict(color=PALETTE[0], width=2),
                             hoverinfo="skip"), row=1, col=2)
    fig.add_trace(go.Scatter(x=[step], y=[mark], mode="markers", marker=dict(size=14, color=PALETTE[1])),
                  row=1, col=2)
    fig.update_yaxes(autorange="reversed", row=1, col=1)
    fig.update_xaxes(title_text=escape(x_title), row=1, col=1)
    fig.update_yaxes(title_text=escape(y_title), row=1, col=1)
    fig.update_xaxes(title_text=escape(step_label), row=1, col=2)
    return _layout(fig, height=480, legend=False)


def smoothing_figure(vocab: Sequence[str], distributions: Mapping[str, Sequence[float]], *,
                     title: str = "", x_title: str = "", y_title: str = "") -> go.Figure:
    return bar_figure(vocab, distributions, title=title, x_title=x_title, y_title=y_title,
                      text_fmt=".2f", y_range=(0, 1.12))


# ---------------------------------------------------------------- a trained model's attention
# (translate, decoding and shapes pages).  These figures are built from plain dicts without
# plotly's validation (go.Figure(..., _validate=False)): a layer × head grid is 10–20× faster to
# build that way, which matters on the home page.  Tests rebuild them validated.



def tick_labels(labels: Sequence[str]) -> list[str]:
    """Escaped labels for a categorical axis, repeats made distinct by trailing zero-width spaces
    (they look the same; plotly would merge equal categories)."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        text = escape(token_label(label))
        n = seen.get(text, 0)
        seen[text] = n + 1
        out.append(text + "\u200b" * n)
    return out


def _rounded(arr: np.ndarray, decimals: int | None) -> list:
    arr = np.asarray(arr, dtype=float)
    return (arr if decimals is None else np.round(arr, decimals)).tolist()


def _unit(v: float) -> float:
    """A domain bound in [0, 1] (float sums drift just outside it)."""
    return min(1.0, max(0.0, round(float(v), 9)))


def _axis_suffix(i: int) -> str:
    return "" if i == 1 else str(i)


def _hover(arrow_fmt: str = ".3f") -> str:
    return "%{y} → %{x}: %{z:" + arrow_fmt + "}<extra></extra>"


GRID_GAP = "\u200b\u2060"       # invisible category names (made unique by repetition) for the blanks between panels


GRID_TICK_LIMIT = 12      # attention_grid labels the panels of sentences up to this many tokens


def attention_grid(weights, q_labels: Sequence[str], k_labels: Sequence[str], *,
                   panel_titles: Sequence[Sequence[str]], x_title: str = "", y_title: str = "",
                   colorbar_title: str = "", selected: tuple[int, int] | None = None,
                   decimals: int | None = 4, title: str = "", tick_limit: int = GRID_TICK_LIMIT,
                   cell_px: float | None = None, masked=None, masked_name: str = "",
                   groups: Sequence[Sequence[int]] | None = None) -> go.Figure:
    """Every layer × head of one attention type in ONE heatmap: weights (L, h, Tq, Tk) laid out as
    rows of layers and columns of heads, a blank row / column between panels, one 0..1 colour scale.
    Panel (l, head) is grid_panel(fig, l, head) = weights[l, head] (rounded to `decimals`).

    One trace on one pair of axes draws 3–10× faster than a subplot per head.  Longer sentences
    (more than tick_limit tokens) get no tick labels (the labels are most of the drawing time);
    hovering names query and key.  panel_titles[l][head] labels each panel; `selected` gets a frame.
    cell_px fixes the height of a row (projector mode: room for large tick labels).  masked (Tq, Tk), True
    where a query may not look (the decoder's future): those cells of every panel drawn grey on top, as
    the Masks page draws them, not as a weight of 0.  groups[l][head]: which panels are one layer for one
    token's cells (resting on a cell of query row q keeps row q of every panel of its group; by default a
    row of panels is a group; a negative group is never kept)."""
    arr = as_array(weights)
    L, H, Tq, Tk = arr.shape
    ticks = max(Tq, Tk) <= tick_limit
    cell = cell_px or float(min(26.0, max(5.0, 600.0 / (H * (Tk + 1)))))   # px per column of a ~640 px grid
    row_px = cell if ticks else 0.9 * cell
    gr, gc = max(1, int(np.ceil(18.0 / row_px))), 1                  # blank rows fit a panel title
    xk, yq = tick_labels(k_labels), tick_labels(q_labels)
    xs: list[str] = []
    for head in range(H):                 # categories are unique: panel h's labels end in h word joiners
        xs += [label + "\u2060" * head for label in xk]
        if head < H - 1:
            xs += [GRID_GAP * (head * gc + g + 1) for g in range(gc)]
    ys: list[str] = []
    for layer in range(L):
        ys += [label + "\u2060" * layer for label in yq]
        if layer < L - 1:
            ys += [GRID_GAP * (layer * gr + g + 1) for g in range(gr)]
    z = np.full((L * (Tq + gr) - gr, H * (Tk + gc) - gc), np.nan)
    for layer in range(L):
        for head in range(H):
            r, c = layer * (Tq + gr), head * (Tk + gc)
            z[r:r + Tq, c:c + Tk] = arr[layer, head] if decimals is None else np.round(arr[layer, head], decimals)
    z_list = [[None if v != v else v for v in row] for row in z.tolist()]
    small = H * Tk <= 60
    trace = {"type": "heatmap", "z": z_list, "x": xs, "y": ys, "colorscale": SEQUENTIAL, "zmin": 0.0,
             "zmax": 1.0, "hoverongaps": False, "hovertemplate": _hover(), "xgap": 1 if small else 0,
             "ygap": 1 if small else 0,
             "colorbar": {"title": {"text": escape(colorbar_title)}, "thickness": 14, "len": 0.6}}
    annotations, shapes = [], []
    for layer in range(L):
        for head in range(H):
            is_sel = selected is not None and tuple(selected) == (layer, head)
            text = escape(panel_titles[layer][head])
            annotations.append({"text": f"<b>{text}</b>" if is_sel else text, "xref": "x", "yref": "y",
                                "x": head * (Tk + gc) + (Tk - 1) / 2, "y": layer * (Tq + gr) - 0.5,
                                "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                                "font": {"size": FONT_SIZE - 3, "color": PALETTE[1] if is_sel else "#374151"}})
            if is_sel:
                x0, y0 = head * (Tk + gc) - 0.5, layer * (Tq + gr) - 0.5
                shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": x0, "x1": x0 + Tk, "y0": y0,
                               "y1": y0 + Tq, "line": {"color": PALETTE[1], "width": 3}})
    bottom = 90 if ticks else 40
    tick_px = max(9, min(12, int(cell * 0.55)))            # upright labels one column apart must not touch
    layout = {"font": {"size": FONT_SIZE - 2}, "showlegend": False, "annotations": annotations, "shapes": shapes,
              "height": int((60 if title else 34) + bottom + len(ys) * row_px),
              "margin": {"l": 10, "r": 10, "t": 60 if title else 34, "b": 10},
              "meta": {"grid": [L, H, Tq, Tk, gr, gc]},
              # fixed ranges (the cells, top row first): the browser's cover for one token never moves them
              "xaxis": {"type": "category", "showticklabels": ticks, "tickangle": -90, "dtick": 1,
                        "range": [-0.5, len(xs) - 0.5], "ticks": "", "showgrid": False, "zeroline": False,
                        "tickfont": {"size": tick_px}, "title": {"text": escape(x_title)}},
              "yaxis": {"type": "category", "range": [len(ys) - 0.5, -0.5], "showticklabels": ticks, "ticks": "", "dtick": 1,
                        "showgrid": False, "zeroline": False, "tickfont": {"size": 12},
                        "title": {"text": escape(y_title)}}}
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    data = [trace]
    if masked is not None:
        cover = np.full(z.shape, np.nan)
        for layer in range(L):
            for head in range(H):
                r, c = layer * (Tq + gr), head * (Tk + gc)
                cover[r:r + Tq, c:c + Tk] = np.where(np.asarray(masked, dtype=bool), 1.0, np.nan)
        data.append(mask_trace(cover, xs, ys, masked_name, gap=1 if small else 0))
    # one token's cells (live_chart): resting on a cell of query row q covers every cell but row q of the
    # panels of its group with this trace, filled in by the browser (empty until then)
    data.append({"type": "heatmap", "z": [], "x": xs, "y": ys, "showscale": False, "hoverinfo": "skip",
                 "zmin": 0.0, "zmax": 1.0, "xgap": trace["xgap"], "ygap": trace["ygap"], "name": "focus"})
    groups = [[layer] * H for layer in range(L)] if groups is None else [[int(g) for g in row] for row in groups]
    layout["meta"]["focus"] = {"kind": "grid", "trace": len(data) - 1, "dim": 1 - FOCUS_DIM, "groups": groups}
    return go.Figure(data=data, layout=layout, _validate=False)


def mask_trace(cover: np.ndarray, xs: Sequence[str], ys: Sequence[str], name: str, gap: int = 1) -> dict:
    """A heatmap trace of the masked cells (1 where masked, NaN elsewhere) in the Masks page's grey."""
    return {"type": "heatmap", "z": [[None if v != v else 1.0 for v in row] for row in cover.tolist()], "x": list(xs),
            "y": list(ys), "name": escape(name), "colorscale": [[0.0, MASK_COLORS[0][1]], [1.0, MASK_COLORS[0][1]]],
            "showscale": False, "hoverongaps": False, "xgap": gap, "ygap": gap,
            "hovertemplate": f"{escape(name)}<extra></extra>"}


def grid_panel(fig, layer: int, head: int) -> np.ndarray:
    """The (Tq, Tk) block of panel (layer, head) of an attention_grid figure (a Figure or its JSON dict)."""
    spec = fig if isinstance(fig, dict) else fig.to_plotly_json()
    L, H, Tq, Tk, gr, gc = spec["layout"]["meta"]["grid"]
    z = np.array([[np.nan if v is None else v for v in row] for row in spec["data"][0]["z"]], dtype=float)
    r, c = layer * (Tq + gr), head * (Tk + gc)
    return z[r:r + Tq, c:c + Tk]


def attention_heatmap(matrix, q_labels: Sequence[str], k_labels: Sequence[str], *, title: str = "",
                      x_title: str = "", y_title: str = "", colorbar_title: str = "",
                      decimals: int | None = 4, show_values: bool | None = None, zmax: float = 1.0,
                      height: int | None = None, masked=None, masked_name: str = "") -> go.Figure:
    """One head's attention (Tq, Tk) large, 0..zmax scale; the values are written in the cells when
    the matrix is small (show_values None: up to 10 × 10); masked cells (Tq, Tk) drawn grey on top."""
    arr = as_array(matrix)
    if arr.ndim == 1:
        arr = arr[None, :]
    Tq, Tk = arr.shape
    z = _rounded(arr, decimals)
    if show_values is None:
        show_values = Tq <= 10 and Tk <= 10
    trace = {"type": "heatmap", "z": z, "x": tick_labels(k_labels), "y": tick_labels(q_labels),
             "colorscale": SEQUENTIAL, "zmin": 0.0, "zmax": zmax, "hovertemplate": _hover(),
             "xgap": 1 if Tk <= 40 else 0, "ygap": 1 if Tq <= 40 else 0,
             "colorbar": {"title": {"text": escape(colorbar_title)}, "thickness": 14}}
    if show_values:       # values >= 0.005 written in the cells, dark cells in white
        trace["text"] = [[f"{v:.2f}" if v >= 0.005 else "" for v in row] for row in arr.tolist()]
        trace["texttemplate"] = "%{text}"
        trace["textfont"] = {"size": 11 if max(Tq, Tk) > 7 else 13}
    # a short sentence: square cells wide enough for every key label upright ("I" turned 90° reads as a dash);
    # a long one: the page's width, the key labels turned
    longest = max((len(str(label)) for label in k_labels), default=1)
    cell = min(96, max(40, 8 * longest + 8))
    square = height is None and Tk * cell + 170 <= 1300 and Tq <= 16
    layout = {"font": {"size": FONT_SIZE}, "showlegend": False,
              "height": height or (int(110 + cell * Tq) if square else int(min(640, max(240, 110 + 26 * Tq)))),
              "margin": {"l": 10, "r": 10, "t": 50 if title else 16, "b": 10},
              "xaxis": {"type": "category", "tickangle": 0 if square or Tk <= 3 else -90, "showgrid": False,
                        "dtick": 1, "title": {"text": escape(x_title)}},   # dtick 1: a label on every token
              "yaxis": {"type": "category", "autorange": "reversed", "showgrid": False, "dtick": 1,
                        "title": {"text": escape(y_title)}}}
    if square:
        layout["width"] = int(Tk * cell + 170)
    if title:
        # a square figure is narrow: its title goes onto as many lines as its width needs (~8.5 px a character)
        lines = textwrap.wrap(title, max(20, int(layout["width"] / 8.5))) if square else [title]
        layout["title"] = {"text": "<br>".join(escape(line) for line in lines), "font": {"size": FONT_SIZE + 1}}
        layout["margin"]["t"] = 30 + 20 * len(lines)
        layout["height"] += 20 * (len(lines) - 1)
    data = [trace]
    if masked is not None:
        cover = np.where(np.asarray(masked, dtype=bool), 1.0, np.nan)
        data.append(mask_trace(cover, trace["x"], trace["y"], masked_name, gap=trace["xgap"]))
    return go.Figure(data=data, layout=layout, _validate=False)


ALIGN_BINS = 8


def alignment_figure(weights, src_labels: Sequence[str], tgt_labels: Sequence[str], *, threshold: float = 0.05,
                     title: str = "", src_title: str = "", tgt_title: str = "", decimals: int | None = 4,
                     gold: Sequence[tuple[int, int]] = (), gold_name: str = "") -> go.Figure:
    """Cross-attention (T, S) as lines from each source word (left) to each target word (right); width
    and opacity grow with the weight.  Weights below threshold are left out.  gold: the gold alignment's
    (source j, target i) links, drawn as dashed green lines (trace named gold_name).  The last trace holds
    one hover point per line (customdata = [target index, source index, weight]).

    One token's lines (live_chart): layout.meta.focus names the source and target word traces and, per
    line trace (one per weight bin), its links (i, j) in the order of its segments; resting on (or
    tapping) a word keeps only its lines and dims the other words."""
    arr = as_array(weights)
    T, S = arr.shape
    span = max(S, T)
    # both columns spread over the same height, so a monotone alignment draws near-parallel lines
    ys = np.linspace(-(span - 1) / 2, (span - 1) / 2, S) if S > 1 else np.zeros(1)
    yt = np.linspace(-(span - 1) / 2, (span - 1) / 2, T) if T > 1 else np.zeros(1)
    bins: list[dict] = [{"x": [], "y": [], "links": []} for _ in range(ALIGN_BINS)]
    mid_x, mid_y, custom, hover = [], [], [], []
    src_esc, tgt_esc = [escape(s) for s in src_labels], [escape(s) for s in tgt_labels]
    for i in range(T):
        for j in range(S):
            w = float(arr[i, j])
            if w < threshold:
                continue
            b = min(ALIGN_BINS - 1, int(w * ALIGN_BINS))
            bins[b]["x"] += [0.0, 1.0, None]
            bins[b]["y"] += [float(ys[j]), float(yt[i]), None]
            bins[b]["links"].append([i, j])
            mid_x.append(0.5)
            mid_y.append(float((ys[j] + yt[i]) / 2))
            wr = w if decimals is None else round(w, decimals)
            custom.append([i, j, wr])
            hover.append(f"{src_esc[j]} → {tgt_esc[i]}")
    data, focus_bins = [], []
    for b, seg in enumerate(bins):
        if not seg["x"]:
            continue
        focus_bins.append([len(data), seg["links"]])
        level = (b + 0.5) / ALIGN_BINS
        data.append({"type": "scatter", "mode": "lines", "x": seg["x"], "y": seg["y"], "hoverinfo": "skip",
                     "line": {"color": PALETTE[0], "width": 0.8 + 9 * level}, "opacity": 0.12 + 0.88 * level,
                     "showlegend": False})
    if gold:
        gx, gy = [], []
        for j, i in gold:
            gx += [0.0, 1.0, None]
            gy += [float(ys[j]), float(yt[i]), None]
        data.append({"type": "scatter", "mode": "lines", "x": gx, "y": gy, "name": escape(gold_name),
                     "hoverinfo": "skip", "showlegend": False, "line": {"color": PALETTE[2], "width": 3, "dash": "dash"}})
    for xpos, ypos, text, side, color in ((0.0, ys, src_esc, "left", PALETTE[0]), (1.0, yt, tgt_esc, "right", PALETTE[1])):
        # hoverinfo "none": no label, but the browser hears the pointer on a word (one token's lines)
        data.append({"type": "scatter", "mode": "text", "x": [xpos] * len(text), "y": ypos.tolist(), "text": text,
                     "textposition": f"middle {side}", "hoverinfo": "none", "showlegend": False,
                     "textfont": {"size": FONT_SIZE, "color": color},
                     "unselected": {"textfont": {"color": _faded(color)}}})
    data.append({"type": "scatter", "mode": "markers", "x": mid_x, "y": mid_y, "customdata": custom,
                 "text": hover, "marker": {"size": 6, "color": "rgba(0,0,0,0)"}, "showlegend": False,
                 "hovertemplate": "%{text}: %{customdata[2]:.3f}<extra></extra>"})
    layout = {"font": {"size": FONT_SIZE}, "showlegend": False, "height": int(min(1500, max(260, 60 + 28 * span))),
              "margin": {"l": 10, "r": 10, "t": 60 if title else 40, "b": 10}, "hovermode": "closest",
              "meta": {"focus": {"kind": "lines", "src": len(data) - 3, "tgt": len(data) - 2, "bins": focus_bins}},
              "xaxis": {"range": [-0.75, 1.75], "visible": False, "fixedrange": True},
              "yaxis": {"range": [span / 2 + 0.2, -span / 2 - 0.2], "visible": False, "fixedrange": True},
              "annotations": [
                  {"text": "<b>" + escape(src_title) + "</b>", "x": 0.0, "y": -span / 2 - 0.2, "xanchor": "right",
                   "yanchor": "bottom", "showarrow": False, "font": {"color": PALETTE[0]}},
                  {"text": "<b>" + escape(tgt_title) + "</b>", "x": 1.0, "y": -span / 2 - 0.2, "xanchor": "left",
                   "yanchor": "bottom", "showarrow": False, "font": {"color": PALETTE[1]}}]}
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return go.Figure(data=data, layout=layout, _validate=False)


def _faded(hex_color: str) -> str:
    """A theme colour at FOCUS_DIM opacity."""
    r, g, b = (int(hex_color[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{FOCUS_DIM})"


def probability_text(p: float) -> str:
    """A probability with enough digits to tell the small ones apart, and its log: "0.940 (log −0.06)",
    "0.00021 (log −8.47)"."""
    shown = f"{p:.3f}" if p >= 0.01 else f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"
    log = f"{math.log(p):.2f}".replace("-", "−") if p > 0 else "−∞"
    return f"{shown} (log {log})"


def topk_figure(tokens: Sequence[str], probs: Sequence[float], *, chosen: Sequence[int] = (), title: str = "",
                x_title: str = "", decimals: int | None = 4) -> go.Figure:
    """The k most likely next tokens as horizontal bars, most likely on top; the bars `chosen` (the
    tokens the decoder kept) highlighted."""
    vals = [float(p) for p in probs]
    colors = [PALETTE[1] if i in set(chosen) else PALETTE[0] for i in range(len(vals))]
    trace = {"type": "bar", "orientation": "h", "x": _rounded(vals, decimals), "y": tick_labels(tokens),
             "marker": {"color": colors}, "text": [probability_text(v) for v in vals], "textposition": "outside",
             "cliponaxis": False, "hovertemplate": "%{y}: %{text}<extra></extra>"}
    layout = {"font": {"size": FONT_SIZE}, "showlegend": False, "height": int(120 + 38 * len(vals)),
              "margin": {"l": 10, "r": 30, "t": 50 if title else 16, "b": 10},
              "xaxis": {"range": [0, 1.12], "title": {"text": escape(x_title)}},
              "yaxis": {"type": "category", "autorange": "reversed"}}
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return go.Figure(data=[trace], layout=layout, _validate=False)


def matrix_panels(panels: Sequence, row_labels: Sequence[str], *, panel_titles: Sequence[str],
                  title: str = "", x_title: str = "", colorscale=DIVERGING, symmetric: bool = True,
                  decimals: int | None = 3, height: int | None = None, gap: float = 0.02,
                  widths: Sequence[float] | None = None, band: int | None = None,
                  band_labels: Sequence[str] = ()) -> go.Figure:
    """Matrices (rows × cols_i) side by side on one shared colour scale, e.g. Q (S, d_model) split into
    h blocks (S, d_k).  Trace i holds z = panels[i] (rounded); the columns are numbered from 0 within
    each panel, and hovering shows row, column and value.  symmetric: a colour scale centred on 0.
    band: in a single panel, draw a boundary every `band` columns (the d_k blocks of the heads) and
    write band_labels above the blocks."""
    arrs = [as_array(p) for p in panels]
    rows = arrs[0].shape[0]
    cmax = float(max(np.nanmax(np.abs(a)) for a in arrs)) or 1.0
    widths = list(widths) if widths is not None else [a.shape[1] for a in arrs]
    total = float(sum(widths))
    avail = 1 - gap * (len(arrs) - 1)
    y = tick_labels(row_labels)
    data, layout, x0 = [], {"annotations": []}, 0.0
    lo = float(min(np.nanmin(a) for a in arrs))
    cax = {"colorscale": colorscale, "colorbar": {"thickness": 14},
           "cmin": -cmax if symmetric else lo, "cmax": cmax if symmetric else float(max(np.nanmax(a) for a in arrs))}
    for i, arr in enumerate(arrs):
        s = _axis_suffix(i + 1)
        w = avail * widths[i] / total
        dom = [_unit(x0), _unit(x0 + w)]
        data.append({"type": "heatmap", "z": _rounded(arr, decimals), "y": y, "x": list(range(arr.shape[1])),
                     "coloraxis": "coloraxis", "xaxis": "x" + s, "yaxis": "y" + s,
                     "hovertemplate": "%{y}, %{x}: %{z:.3f}<extra></extra>"})
        layout["xaxis" + s] = {"domain": dom, "anchor": "y" + s, "showgrid": False, "zeroline": False,
                               "tickfont": {"size": 10},
                               **({"title": {"text": escape(x_title)}} if x_title and len(arrs) == 1 else {})}
        layout["yaxis" + s] = {"anchor": "x" + s, "type": "category", "autorange": "reversed",
                               "showticklabels": i == 0, "showgrid": False}
        layout["annotations"].append({"text": escape(panel_titles[i]), "xref": "paper", "yref": "paper",
                                      "x": (dom[0] + dom[1]) / 2, "y": 1.0, "xanchor": "center", "yanchor": "bottom",
                                      "showarrow": False, "font": {"size": FONT_SIZE - 2}})
        x0 = dom[1] + gap
    if band and len(arrs) == 1:
        cols = arrs[0].shape[1]
        layout["shapes"] = [{"type": "line", "xref": "x", "yref": "paper", "x0": j - 0.5, "x1": j - 0.5, "y0": 0,
                             "y1": 1, "line": {"color": "#111827", "width": 2}} for j in range(band, cols, band)]
        for b, label in enumerate(band_labels):
            layout["annotations"].append({"text": escape(label), "xref": "x", "yref": "paper",
                                          "x": b * band + (band - 1) / 2, "y": 1.0, "xanchor": "center",
                                          "yanchor": "bottom", "showarrow": False,
                                          "font": {"size": FONT_SIZE - 3, "color": PALETTE[b % len(PALETTE)]}})
    layout.update({"coloraxis": cax, "font": {"size": FONT_SIZE}, "showlegend": False,
                   "height": height or int(min(560, max(220, 110 + 22 * rows))),
                   "margin": {"l": 10, "r": 10, "t": 70 if title else 34, "b": 10}})
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return go.Figure(data=data, layout=layout, _validate=False)


def position_stats_figure(labels: Sequence[str], panels: Sequence[Mapping], *, title: str = "",
                          x_title: str = "", height: int = 360) -> go.Figure:
    """Per-position statistics side by side: panels = [{"title", "series": [{"name", "y", "dash"?}]}];
    the same series name keeps its colour in every panel (one legend entry)."""
    x = tick_labels(labels)
    data, layout = [], {"annotations": []}
    colors: dict[str, str] = {}
    shown: set[str] = set()
    n = len(panels)
    gap = 0.08 if n > 1 else 0.0
    w = (1 - gap * (n - 1)) / n
    for p, panel in enumerate(panels):
        s = _axis_suffix(p + 1)
        dom = [_unit(p * (w + gap)), _unit(p * (w + gap) + w)]
        for series in panel["series"]:
            color = colors.setdefault(series["name"], PALETTE[len(colors) % len(PALETTE)])
            data.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": _rounded(series["y"], 5),
                         "name": escape(series["name"]), "legendgroup": escape(series["name"]),
                         "showlegend": series["name"] not in shown, "xaxis": "x" + s, "yaxis": "y" + s,
                         "line": {"color": color, "width": 2.5, "dash": series.get("dash", "solid")},
                         "marker": {"size": 7}, "hovertemplate": "%{x}: %{y:.4f}<extra>" + escape(series["name"]) + "</extra>"})
            shown.add(series["name"])
        layout["xaxis" + s] = {"domain": dom, "anchor": "y" + s, "type": "category", "tickangle": -60 if len(x) > 6 else 0,
                               **({"title": {"text": escape(x_title)}} if x_title else {})}
        layout["yaxis" + s] = {"anchor": "x" + s, "zeroline": True}
        layout["annotations"].append({"text": escape(panel["title"]), "xref": "paper", "yref": "paper",
                                      "x": (dom[0] + dom[1]) / 2, "y": 1.0, "xanchor": "center", "yanchor": "bottom",
                                      "showarrow": False, "font": {"size": FONT_SIZE}})
    layout.update({"font": {"size": FONT_SIZE}, "height": height, "showlegend": True,
                   "legend": {"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0},
                   "margin": {"l": 10, "r": 10, "t": 70 if title else 34, "b": 10}})
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return go.Figure(data=data, layout=layout, _validate=False)


def cost_figure(n: Sequence[float], costs: Mapping[str, Sequence[float]], *, crossover: float | None = None,
                crossover_label: str = "", marker_n: float | None = None, marker_label: str = "",
                title: str = "", x_title: str = "", y_title: str = "") -> go.Figure:
    """Operations per layer against sequence length n (log-log), one line per layer type; a dotted line
    where self-attention stops being cheaper than recurrence (n = d) and one at this sentence's length."""
    series = [{"x": list(map(float, n)), "y": list(map(float, y)), "name": name} for name, y in costs.items()]
    fig = line_figure(series, title=title, x_title=x_title, y_title=y_title, log_x=True, log_y=True, height=440)
    xs = np.asarray(n, dtype=float)
    fig.update_xaxes(range=[float(np.log10(xs.min())), float(np.log10(xs.max()))])
    # on log axes annotations take log10 positions (shapes take data values)
    for x, label, dash, color, y in ((crossover, crossover_label, "dot", "#6b7280", 1.0),
                                     (marker_n, marker_label, "dash", PALETTE[1], 0.0)):
        if not x:
            continue
        fig.add_vline(x=x, line_dash=dash, line_color=color)
        if label:
            fig.add_annotation(x=float(np.log10(x)), y=y, xref="x", yref="paper", text=escape(label), showarrow=False,
                               xanchor="left", yanchor="top" if y else "bottom", font=dict(color=color))
    return fig
