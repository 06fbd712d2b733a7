"""Positional encoding: PE(pos, 2i) as waves and as a pos × dim heatmap, PE·PEᵀ similarity, the
rotation PE(pos + k) = T(k)·PE(pos), and the alternatives side by side."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ..relayout import figure
from ..theme import DIVERGING, PALETTE, SEQUENTIAL
from .base import _axis_suffix, _layout, as_array, escape, heatmap, line_figure, side_by_side


def pe_waves(pe, dims: Sequence[int], names: Sequence[str], *, curve_x=None, curve=None, title: str = "",
             x_title: str = "", y_title: str = "") -> go.Figure:
    """PE(pos, d) against pos for the chosen dimensions d: the table's values at the integer positions
    as markers, on the continuous wave (curve: (len(curve_x), len(dims)) values at positions curve_x)
    that they sample, so a fast dimension is a wave, not a zig-zag."""
    arr = as_array(pe)
    pos = list(range(arr.shape[0]))
    series = []
    for n, (d, name) in enumerate(zip(dims, names, strict=False)):
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
    data = [dict(type="scatter", x=np.cos(theta).tolist(), y=np.sin(theta).tolist(), mode="lines",
                 line=dict(color="#9ca3af", width=1), hoverinfo="skip", showlegend=False),
            dict(type="scatter", x=pts[:, 0].tolist(), y=pts[:, 1].tolist(), mode="markers",
                 marker=dict(size=6, color="#9ca3af"), name=escape(all_name), text=[str(p) for p in range(len(pts))],
                 hovertemplate="%{text}: (%{x:.3f}, %{y:.3f})<extra></extra>")]
    a, b, r = as_array(start), as_array(target), as_array(rotated)
    for point, name, color, symbol, size in ((a, start_name, PALETTE[0], "circle", 16),
                                             (b, target_name, PALETTE[2], "circle", 22),
                                             (r, rotated_name, PALETTE[1], "x", 14)):
        data.append(dict(type="scatter", x=[0, float(point[0])], y=[0, float(point[1])], mode="lines+markers",
                         name=escape(name), line=dict(color=color, width=3),
                         marker=dict(size=[0, size], color=color, symbol=symbol)))
    axis = dict(range=[-1.25, 1.25], zeroline=True)
    return _layout(figure(data), title, x_title, y_title, height=480, x_axes=axis | dict(scaleanchor="y", scaleratio=1),
                   y_axes=axis)


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
    layout = side_by_side([escape(n) for n in names], gap=0.08, title_size=16)     # make_subplots' title size
    zmin = min(float(a.min()) for a in arrays.values())
    zmax = max(float(a.max()) for a in arrays.values())
    data = []
    for c, name in enumerate(names, start=1):
        a, s = arrays[name], _axis_suffix(c)
        data.append({"type": "heatmap", "z": a.T, "x": list(range(a.shape[0])), "y": list(range(a.shape[1])),
                     "colorscale": DIVERGING if zmin < 0 else SEQUENTIAL, "zmin": zmin, "zmax": zmax,
                     **({"zmid": 0} if zmin < 0 else {}), "showscale": c == len(names), "xgap": 1, "ygap": 1,
                     "hovertemplate": "%{x}, %{y}: %{z:.3f}<extra></extra>", "xaxis": "x" + s, "yaxis": "y" + s})
        layout["xaxis" + s]["title"] = {"text": escape(x_title)}
        layout["yaxis" + s]["autorange"] = "reversed"
    layout["yaxis"]["title"] = {"text": escape(y_title)}
    return _layout(figure(data, layout), title, height=420, legend=False)
