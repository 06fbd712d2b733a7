"""Masks: the padding mask (B,1,1,S), the subsequent and combined (B,1,T,T) masks, scores before and
after masking, and what leaks without the mask."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..relayout import relayout
from ..theme import DIVERGING, GUIDE, MASK_COLORS, SEQUENTIAL, token_label
from .base import as_array, bar_figure, escape, heatmap, marked, vline


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
    return relayout(fig, {}, traces=lambda _: {"text": text, "texttemplate": "%{text}", "textfont": {"size": 13}})


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


def step_heatmap(matrix, x_tokens: Sequence[str], y_tokens: Sequence[str], *, x_title: str = "", y_title: str = "",
                 masked_text: str = "−∞", probabilities: bool = False) -> go.Figure:
    """One step of attention worked by hand (the Attention lab): scores_heatmap with every cell's value written
    out (4 significant digits), 80 px a column and 60 a row."""
    arr = np.atleast_2d(as_array(matrix))
    fig = scores_heatmap(arr, x_tokens, y_tokens, x_title=x_title, y_title=y_title, masked_text=masked_text,
                         probabilities=probabilities, show_values=False)       # the text is written below
    text = [[masked_text if np.isneginf(v) else f"{v:.4g}" for v in row] for row in arr]
    return relayout(fig, {"height": int(110 + 60 * arr.shape[0]), "width": int(170 + 80 * arr.shape[1])},
                    traces=lambda _: {"texttemplate": "%{text}", "text": text})


def leak_figure(tokens: Sequence[str], with_mask: Sequence[float], without_mask: Sequence[float],
                changed_pos: int, *, with_name: str, without_name: str, title: str = "",
                x_title: str = "", y_title: str = "", changed_label: str = "") -> go.Figure:
    """max |Δ output| per query row, with and without the causal mask."""
    cats = [f"{i} {token_label(tok)}" for i, tok in enumerate(tokens)]
    fig = bar_figure(cats, {with_name: with_mask, without_name: without_mask}, title=title,
                     x_title=x_title, y_title=y_title, text_fmt=".2g", height=400)
    label = [{"x": changed_pos, "y": 1.0, "yref": "paper", "text": escape(changed_label), "showarrow": False,
              "yanchor": "bottom", "font": {"color": GUIDE}}] if changed_label else []
    return marked(fig, [vline(changed_pos - 0.5, GUIDE, "dash")], label)
