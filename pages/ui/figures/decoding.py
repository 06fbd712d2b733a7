"""Decoding: the next-token probabilities of a step, with their digits and logs."""
from __future__ import annotations

import math
from collections.abc import Sequence

import plotly.graph_objects as go

from ..relayout import figure
from ..theme import FONT_SIZE, PALETTE
from .base import _rounded, escape, tick_labels


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
    return figure([trace], layout)
