"""The shared pieces of every figure: escaping, the layout, number formats, tick labels, the mask
cover, and the generic heatmap, line, bar and histogram figures."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ..relayout import figure, relayout
from ..theme import FOCUS_DIM, FONT_SIZE, MASK_COLORS, PALETTE, SEQUENTIAL, token_label


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
            height: int | None = None, legend: bool = True, x_axes: Mapping | None = None,
            y_axes: Mapping | None = None, props: Mapping | None = None) -> go.Figure:
    """The figures' common layout; props: more of the layout's properties, x_axes and y_axes: more properties of
    every subplot's axes."""
    x_axes = {**(x_axes or {}), "exponentformat": "none", "separatethousands": True}     # steps: 20,000, not 0.2×10⁵
    y_axes = {**(y_axes or {}), "exponentformat": "power"}
    if x_title:
        x_axes["title"] = dict(text=escape(x_title))
    if y_title:
        y_axes["title"] = dict(text=escape(y_title))
    return relayout(fig, dict(
        **(props or {}),
        title=dict(text=escape(title), font=dict(size=FONT_SIZE + 2)) if title else None,
        font=dict(size=FONT_SIZE), height=height, margin=dict(l=10, r=10, t=60 if title else 20, b=10),
        showlegend=legend,
        # the legend goes under the plot, where long (translated) names can wrap without covering the title
        legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", xanchor="left", x=0)), x_axes, y_axes)


def _fmt(value: float, fmt: str) -> str:
    text = format(value, fmt)
    if text.startswith("-") and float(text) == 0:      # "-0.0" -> "0.0"
        text = text[1:]
    return text


def heatmap(z, *, x_labels: Sequence[str] | None = None, y_labels: Sequence[str] | None = None,
            title: str = "", x_title: str = "", y_title: str = "", colorbar_title: str = "",
            colorscale=SEQUENTIAL, zmin: float | None = None, zmax: float | None = None,
            zmid: float | None = None, show_values: bool = False, fmt: str = ".2f",
            masked_text: str = "−∞", height: int | None = None, width: int | None = None, reverse_y: bool = True,
            show_scale: bool = True, max_ticks: int = 40) -> go.Figure:
    """A matrix as a heatmap; rows top to bottom.  −∞ cells are blank and labelled masked_text.  width: in px, else
    the column's."""
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
    if x_labels is None and y_labels is None:       # the hover names the cell by its indices: nothing per cell to send
        custom, names = None, ("%{y}", "%{x}")      # (a 100 × 512 PE table: 0.75 of its 1.4 MB of JSON)
    else:
        custom, names = np.empty((rows, cols, 2), dtype=object), ("%{customdata[0]}", "%{customdata[1]}")
        custom[:, :, 0] = np.array(y_text, dtype=object)[:, None]
        custom[:, :, 1] = np.array(x_text, dtype=object)[None, :]
    cell_text = None
    if show_values or neg_inf.any():
        cell_text = [[masked_text if neg_inf[i, j] else (_fmt(arr[i, j], fmt) if show_values else "")
                      for j in range(cols)] for i in range(rows)]
    trace = dict(type="heatmap", z=shown, x=xs, y=ys, customdata=custom, colorscale=colorscale, zmin=zmin,
                 zmax=zmax, zmid=zmid, text=cell_text, texttemplate="%{text}" if cell_text is not None else None,
                 textfont=dict(size=max(9, FONT_SIZE - max(rows, cols) // 3)),
                 showscale=show_scale, xgap=1 if cols <= 40 else 0, ygap=1 if rows <= 40 else 0,
                 colorbar=dict(title=dict(text=escape(colorbar_title))) if colorbar_title else None,
                 hovertemplate=f"{hover_y}: {names[0]}<br>{hover_x}: {names[1]}<br>%{{z:.4g}}<extra></extra>")
    x_axes = dict(tickmode="array", tickvals=xs if cols <= max_ticks else xs[:: max(1, cols // max_ticks)],
                  ticktext=x_text if cols <= max_ticks else x_text[:: max(1, cols // max_ticks)],
                  showgrid=False, zeroline=False)
    y_axes = dict(tickmode="array", tickvals=ys if rows <= max_ticks else ys[:: max(1, rows // max_ticks)],
                  ticktext=y_text if rows <= max_ticks else y_text[:: max(1, rows // max_ticks)],
                  autorange="reversed" if reverse_y else True, showgrid=False, zeroline=False)
    if height is None:
        height = int(min(620, max(260, 40 + 34 * rows))) if rows <= 16 else 520
    fig = figure([{k: v for k, v in trace.items() if v is not None}])          # None: left unset, as plotly would
    return _layout(fig, title, x_title, y_title, height, legend=False, x_axes=x_axes, y_axes=y_axes,
                   props={"width": width} if width else None)


def line_figure(series: Sequence[Mapping], *, title: str = "", x_title: str = "", y_title: str = "",
                log_x: bool = False, log_y: bool = False, height: int = 420,
                markers: bool = False, x_ticks: Sequence[float] | None = None) -> go.Figure:
    """Lines; each series is {"x", "y", "name", optional "dash", "color", "width", "mode", "yaxis"}; x_ticks: the
    x values to label, each as written (a log axis labels its powers of ten)."""
    fig = figure([dict(
        type="scatter", x=list(s["x"]), y=list(s["y"]), name=escape(s.get("name", "")),
        mode=s.get("mode", "lines+markers" if markers else "lines"),
        connectgaps=False,
        line=dict(dash=s.get("dash", "solid"), color=s.get("color", PALETTE[n % len(PALETTE)]), width=s.get("width", 2.5)),
        marker=dict(size=s.get("marker_size", 7))) for n, s in enumerate(series)])
    x_axes = {**({"type": "log"} if log_x else {}),
              **({"tickvals": list(x_ticks), "ticktext": [str(x) for x in x_ticks]} if x_ticks is not None else {})}
    return _layout(fig, title, x_title, y_title, height, x_axes=x_axes or None, y_axes={"type": "log"} if log_y else None)


def bar_figure(categories: Sequence[str], series: Mapping[str, Sequence[float]], *, title: str = "",
               x_title: str = "", y_title: str = "", height: int = 380, text_fmt: str | None = ".3f",
               y_range: Sequence[float] | None = None, horizontal: bool = False) -> go.Figure:
    """Grouped bars: one group per category, one bar per series; horizontal: the categories top-down, each
    bar's text on its own row (room for many series)."""
    cats = [escape(c) for c in categories]
    bars = []
    for n, (name, values) in enumerate(series.items()):
        vals = [float(v) for v in values]
        text = [_fmt(v, text_fmt) for v in vals] if text_fmt else None
        kwargs = dict(y=cats, x=vals, orientation="h") if horizontal else dict(x=cats, y=vals)
        bars.append(dict(type="bar", name=escape(name), textposition="outside", marker=dict(color=PALETTE[n % len(PALETTE)]),
                         cliponaxis=False, **kwargs, **({"text": text} if text else {})))
    props, x_axes, y_axes = {"barmode": "group"}, {}, {}
    if y_range is not None:
        (x_axes if horizontal else y_axes)["range"] = list(y_range)
    if horizontal:      # text no smaller than 10 px: the caller gives each bar that height
        y_axes["autorange"] = "reversed"
        props |= {"uniformtext": {"minsize": 10, "mode": "show"}, "bargap": 0.12, "bargroupgap": 0.0}
    return _layout(figure(bars), title, x_title, y_title, height, legend=len(series) > 1, x_axes=x_axes,
                   y_axes=y_axes, props=props)


def histogram_figure(samples: Mapping[str, Sequence[float]], *, title: str = "", x_title: str = "",
                     y_title: str = "", height: int = 380, nbins: int = 60) -> go.Figure:
    fig = figure([dict(type="histogram", x=list(values), name=escape(name), nbinsx=nbins, opacity=0.6,
                       marker=dict(color=PALETTE[n % len(PALETTE)])) for n, (name, values) in enumerate(samples.items())])
    return _layout(fig, title, x_title, y_title, height, props={"barmode": "overlay"})


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


def side_by_side(titles: Sequence[str], *, widths: Sequence[float] | None = None, gap: float | None = None,
                 title_size: int = FONT_SIZE + 1) -> dict:
    """The layout of len(titles) panels in a row, as make_subplots(rows=1, cols=n, column_widths=widths,
    horizontal_spacing=gap, subplot_titles=titles) makes it, without its checks (13 of a replay frame's 19 ms):
    panel i's axes are x<i> and y<i> (x, y for the first; a trace says which), its title above it."""
    n = len(titles)
    gap = 0.2 / n if gap is None else gap
    widths = list(widths) if widths is not None else [1.0] * n
    avail, layout, x0 = 1.0 - gap * (n - 1), {"annotations": []}, 0.0
    for i, title in enumerate(titles):
        s, x1 = _axis_suffix(i + 1), _unit(x0 + avail * widths[i] / sum(widths))
        layout["xaxis" + s] = {"anchor": "y" + s, "domain": [x0, x1]}
        layout["yaxis" + s] = {"anchor": "x" + s, "domain": [0.0, 1.0]}
        if title:
            layout["annotations"].append({"font": {"size": title_size}, "showarrow": False, "text": title,
                                          "x": (x0 + x1) / 2, "xanchor": "center", "xref": "paper", "y": 1.0,
                                          "yanchor": "bottom", "yref": "paper"})
        x0 = _unit(x1 + gap)
    return layout


def _hover(arrow_fmt: str = ".3f") -> str:
    return "%{y} → %{x}: %{z:" + arrow_fmt + "}<extra></extra>"


def mask_trace(cover: np.ndarray, xs: Sequence[str], ys: Sequence[str], name: str, gap: int = 1) -> dict:
    """A heatmap trace of the masked cells (1 where masked, NaN elsewhere) in the Masks page's grey."""
    return {"type": "heatmap", "z": [[None if math.isnan(v) else 1.0 for v in row] for row in cover.tolist()], "x": list(xs),
            "y": list(ys), "name": escape(name), "colorscale": [[0.0, MASK_COLORS[0][1]], [1.0, MASK_COLORS[0][1]]],
            "showscale": False, "hoverongaps": False, "xgap": gap, "ygap": gap,
            "hovertemplate": f"{escape(name)}<extra></extra>"}


def vline(x: float, color: str, dash: str, xref: str = "x", yref: str = "y") -> dict:
    """The shape fig.add_vline(x) adds: a line at x across the panel of the axes xref and yref."""
    return {"type": "line", "x0": x, "x1": x, "xref": xref, "y0": 0, "y1": 1, "yref": f"{yref} domain",
            "line": {"color": color, "dash": dash}}


def marked(fig: go.Figure, shapes: Sequence[Mapping] = (), annotations: Sequence[Mapping] = (),
           x_axes: Mapping | None = None, add: Sequence[Mapping] = ()) -> go.Figure:
    """fig with these shapes and annotations after its own (x_axes' properties on its x axes, the traces `add`
    after its own), in one relayout: add_vline, add_annotation, update_xaxes and add_trace check every property
    as they go, ~4 ms apiece."""
    if not shapes and not annotations and not x_axes and not add:
        return fig
    return relayout(fig, {"shapes": [*(s.to_plotly_json() for s in fig.layout.shapes), *shapes],
                          "annotations": [*(a.to_plotly_json() for a in fig.layout.annotations), *annotations]}, x_axes,
                    add=add)


def _faded(hex_color: str) -> str:
    """A theme colour at FOCUS_DIM opacity."""
    r, g, b = (int(hex_color[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{FOCUS_DIM})"
