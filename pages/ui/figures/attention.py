"""Attention: every layer × head in one grid, one head enlarged, the source-target alignment, matrices
side by side, per-position statistics and the cost of attention against sequence length."""
from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from transformer_core.serving.cost import FIGURE_CELLS

from ..relayout import figure
from ..theme import DIVERGING, FOCUS_DIM, FONT_SIZE, GUIDE, PALETTE, SEQUENTIAL
from .base import (
    _axis_suffix,
    _faded,
    _hover,
    _rounded,
    as_array,
    escape,
    line_figure,
    marked,
    mask_trace,
    side_by_side,
    tick_labels,
    vline,
)

GRID_GAP = "\u200b\u2060"       # invisible category names (made unique by repetition) for the blanks between panels

GRID_TICK_LIMIT = 12      # attention_grid labels the panels of sentences up to this many tokens


def grid_window(L: int, H: int, panel_cells: int, focus: tuple[int, int]) -> tuple[range, range]:
    """The layers and heads a grid of L × H panels of panel_cells cells draws: all of them, unless that passes
    cost.FIGURE_CELLS (what a browser draws well, and what the run-cost model counts); then as many whole
    layers as fit around the focused (layer, head), or, when one layer is too many, as many of its heads."""
    if L * H * panel_cells <= FIGURE_CELLS:
        return range(L), range(H)
    layers = FIGURE_CELLS // (H * panel_cells)
    if layers >= 1:
        start = min(max(focus[0] - layers // 2, 0), L - layers)
        return range(start, start + layers), range(H)
    heads = max(1, FIGURE_CELLS // panel_cells)
    start = min(max(focus[1] - heads // 2, 0), H - heads)
    return range(focus[0], focus[0] + 1), range(start, start + heads)


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
    z_list = [[None if math.isnan(v) else v for v in row] for row in z.tolist()]
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
    # panels of its group with this trace, filled in by the browser (empty until then; its x and y: the
    # first trace's, copied there too)
    data.append({"type": "heatmap", "z": [], "showscale": False, "hoverinfo": "skip",
                 "zmin": 0.0, "zmax": 1.0, "xgap": trace["xgap"], "ygap": trace["ygap"], "name": "focus"})
    groups = [[layer] * H for layer in range(L)] if groups is None else [[int(g) for g in row] for row in groups]
    layout["meta"]["focus"] = {"kind": "grid", "trace": len(data) - 1, "dim": 1 - FOCUS_DIM, "groups": groups}
    return figure(data, layout)


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
        # live_chart fits a figure wider than its column: the cells shrink (fixed: what is not cells), the
        # key labels turn once a cell is narrower than `upright` (turned: the height they then take)
        layout["meta"] = {"fit": {"w": 170, "h": layout["height"] - cell * Tq, "cols": Tk, "rows": Tq,
                                  "upright": cell, "turned": 8 * min(longest, 8) + 10}}
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
    return figure(data, layout)


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
    return figure(data, layout)


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
    y = tick_labels(row_labels)
    data = []
    layout = side_by_side([escape(t) for t in panel_titles[:len(arrs)]], widths=widths, gap=gap, title_size=FONT_SIZE - 2)
    lo = float(min(np.nanmin(a) for a in arrs))
    cax = {"colorscale": colorscale, "colorbar": {"thickness": 14},
           "cmin": -cmax if symmetric else lo, "cmax": cmax if symmetric else float(max(np.nanmax(a) for a in arrs))}
    for i, arr in enumerate(arrs):
        s = _axis_suffix(i + 1)
        data.append({"type": "heatmap", "z": _rounded(arr, decimals), "y": y, "x": list(range(arr.shape[1])),
                     "coloraxis": "coloraxis", "xaxis": "x" + s, "yaxis": "y" + s,
                     "hovertemplate": "%{y}, %{x}: %{z:.3f}<extra></extra>"})
        layout["xaxis" + s] |= {"showgrid": False, "zeroline": False, "tickfont": {"size": 10},
                                **({"title": {"text": escape(x_title)}} if x_title and len(arrs) == 1 else {})}
        layout["yaxis" + s] |= {"type": "category", "autorange": "reversed", "showticklabels": i == 0, "showgrid": False}
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
    return figure(data, layout)


def position_stats_figure(labels: Sequence[str], panels: Sequence[Mapping], *, title: str = "",
                          x_title: str = "", height: int = 360) -> go.Figure:
    """Per-position statistics side by side: panels = [{"title", "series": [{"name", "y", "dash"?}]}];
    the same series name keeps its colour in every panel (one legend entry)."""
    x = tick_labels(labels)
    data, layout = [], side_by_side([escape(panel["title"]) for panel in panels], gap=0.08, title_size=FONT_SIZE)
    colors: dict[str, str] = {}
    shown: set[str] = set()
    for p, panel in enumerate(panels):
        s = _axis_suffix(p + 1)
        for series in panel["series"]:
            color = colors.setdefault(series["name"], PALETTE[len(colors) % len(PALETTE)])
            data.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": _rounded(series["y"], 5),
                         "name": escape(series["name"]), "legendgroup": escape(series["name"]),
                         "showlegend": series["name"] not in shown, "xaxis": "x" + s, "yaxis": "y" + s,
                         "line": {"color": color, "width": 2.5, "dash": series.get("dash", "solid")},
                         "marker": {"size": 7}, "hovertemplate": "%{x}: %{y:.4f}<extra>" + escape(series["name"]) + "</extra>"})
            shown.add(series["name"])
        layout["xaxis" + s] |= {"type": "category", "tickangle": -60 if len(x) > 6 else 0,
                                **({"title": {"text": escape(x_title)}} if x_title else {})}
        layout["yaxis" + s] |= {"zeroline": True}
    layout.update({"font": {"size": FONT_SIZE}, "height": height, "showlegend": True,
                   "legend": {"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0},
                   "margin": {"l": 10, "r": 10, "t": 70 if title else 34, "b": 10}})
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return figure(data, layout)


def cost_figure(n: Sequence[float], costs: Mapping[str, Sequence[float]], *, crossover: float | None = None,
                crossover_label: str = "", marker_n: float | None = None, marker_label: str = "",
                title: str = "", x_title: str = "", y_title: str = "") -> go.Figure:
    """Operations per layer against sequence length n (log-log), one line per layer type; a dotted line
    where self-attention stops being cheaper than recurrence (n = d) and one at this sentence's length."""
    series = [{"x": list(map(float, n)), "y": list(map(float, y)), "name": name} for name, y in costs.items()]
    fig = line_figure(series, title=title, x_title=x_title, y_title=y_title, log_x=True, log_y=True, height=440)
    xs = np.asarray(n, dtype=float)
    # on log axes annotations take log10 positions (shapes take data values)
    lines = [line for line in ((crossover, crossover_label, "dot", GUIDE, 1.0), (marker_n, marker_label, "dash", PALETTE[1], 0.0))
             if line[0]]
    return marked(fig, [vline(x, color, dash) for x, _, dash, color, _ in lines],
                  [{"x": float(np.log10(x)), "y": y, "xref": "x", "yref": "paper", "text": escape(label), "showarrow": False,
                    "xanchor": "left", "yanchor": "top" if y else "bottom", "font": {"color": color}}
                   for x, label, _, color, y in lines if label],
                  x_axes={"range": [float(np.log10(xs.min())), float(np.log10(xs.max()))]})
