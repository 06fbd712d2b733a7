"""All plotly figure builders.  Plain functions: data in (numpy / torch / lists, plus the already
translated labels), a plotly Figure out.  No Streamlit here, so every builder is testable alone.

Conventions
- Token labels go on numeric axes (0, 1, …) with the tokens as tick text, so repeated tokens stay
  apart, and they are escaped: plotly treats "<pad>" as markup otherwise.
- −∞ (masked scores) is drawn as a blank cell with the text given in masked_text (e.g. "−∞").
- Every title and axis title is passed in by the caller (from the i18n files).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

FONT_SIZE = 15
PALETTE = ("#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563")
MASK_COLORS = ((0.0, "#d1d5db"), (1.0, "#2563eb"))   # 0 = masked (grey), 1 = may attend (blue)


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
        showlegend=legend, legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1.0))
    if x_title:
        fig.update_xaxes(title_text=escape(x_title))
    if y_title:
        fig.update_yaxes(title_text=escape(y_title))
    return fig


def _fmt(value: float, fmt: str) -> str:
    return format(value, fmt)


# ---------------------------------------------------------------- generic builders

def heatmap(z, *, x_labels: Sequence[str] | None = None, y_labels: Sequence[str] | None = None,
            title: str = "", x_title: str = "", y_title: str = "", colorbar_title: str = "",
            colorscale="Viridis", zmin: float | None = None, zmax: float | None = None,
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
    x_text = [escape(s) for s in x_labels] if x_labels is not None else [str(j) for j in xs]
    y_text = [escape(s) for s in y_labels] if y_labels is not None else [str(i) for i in ys]
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
    """Grouped bars: one group per category, one bar per series."""
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

def pe_waves(pe, dims: Sequence[int], names: Sequence[str], *, title: str = "", x_title: str = "",
             y_title: str = "") -> go.Figure:
    """PE(pos, d) against pos for the chosen dimensions d."""
    arr = as_array(pe)
    pos = list(range(arr.shape[0]))
    series = [{"x": pos, "y": arr[:, d].tolist(), "name": name,
               "dash": "solid" if d % 2 == 0 else "dot"} for d, name in zip(dims, names)]
    return line_figure(series, title=title, x_title=x_title, y_title=y_title, height=420)


def pe_heatmap(pe, *, title: str = "", x_title: str = "", y_title: str = "",
               colorbar_title: str = "") -> go.Figure:
    """The table PE: one row per position, one column per dimension."""
    arr = as_array(pe)
    return heatmap(arr, title=title, x_title=x_title, y_title=y_title, colorbar_title=colorbar_title,
                   colorscale="RdBu", zmin=-1, zmax=1, height=520, max_ticks=16)


def similarity_heatmap(sim, *, title: str = "", x_title: str = "", y_title: str = "",
                       colorbar_title: str = "") -> go.Figure:
    """PE·PEᵀ: the dot product between the encodings of two positions."""
    return heatmap(sim, title=title, x_title=x_title, y_title=y_title, colorbar_title=colorbar_title,
                   colorscale="Viridis", height=520, max_ticks=16)


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
        series = [{"x": list(range(a.shape[0])), "y": a[:, 0].tolist(), "name": name, "mode": "lines+markers"}
                  for name, a in arrays.items()]
        return line_figure(series, title=title, x_title=x_title, y_title=y_title, height=400)
    names = list(arrays)
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=[escape(n) for n in names],
                        horizontal_spacing=0.08)
    zmin = min(float(a.min()) for a in arrays.values())
    zmax = max(float(a.max()) for a in arrays.values())
    for c, name in enumerate(names, start=1):
        a = arrays[name]
        fig.add_trace(go.Heatmap(z=a.T, x=list(range(a.shape[0])), y=list(range(a.shape[1])),
                                 colorscale="RdBu" if zmin < 0 else "Blues", zmin=zmin, zmax=zmax,
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
    text = [[escape(tok) for tok in row] for row in tokens]
    fig.update_traces(text=text, texttemplate="%{text}", textfont=dict(size=13))
    return fig


def scores_heatmap(matrix, x_tokens: Sequence[str], y_tokens: Sequence[str], *, title: str = "",
                   x_title: str = "", y_title: str = "", masked_text: str = "−∞",
                   probabilities: bool = False, show_values: bool = True) -> go.Figure:
    """Attention scores (may hold −∞) or weights (probabilities=True: 0..1 scale)."""
    arr = as_array(matrix)
    finite = arr[np.isfinite(arr)]
    kwargs = dict(colorscale="Blues", zmin=0, zmax=1) if probabilities else dict(
        colorscale="RdBu_r", zmid=0.0, zmin=float(finite.min()) if finite.size else None,
        zmax=float(finite.max()) if finite.size else None)
    return heatmap(arr, x_labels=x_tokens, y_labels=y_tokens, title=title, x_title=x_title,
                   y_title=y_title, masked_text=masked_text, show_values=show_values and arr.size <= 400,
                   **kwargs)


def leak_figure(tokens: Sequence[str], with_mask: Sequence[float], without_mask: Sequence[float],
                changed_pos: int, *, with_name: str, without_name: str, title: str = "",
                x_title: str = "", y_title: str = "", changed_label: str = "") -> go.Figure:
    """max |Δ output| per query row, with and without the causal mask."""
    cats = [f"{i} {tok}" for i, tok in enumerate(tokens)]
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


def smoothing_figure(vocab: Sequence[str], distributions: Mapping[str, Sequence[float]], *,
                     title: str = "", x_title: str = "", y_title: str = "") -> go.Figure:
    return bar_figure(vocab, distributions, title=title, x_title=x_title, y_title=y_title,
                      text_fmt=".3f", y_range=(0, 1.12))
