"""Figures made fast: plain dicts in, one plotly Figure out, without plotly's property checks.

plotly checks every property of a figure as it is made, and every key path of update_layout / update_xaxes /
update_yaxes as they go: ~15 ms of a 12 × 12 heatmap's ~17 ms, ~25 ms to make one ready for a projector, and a
fifth of a page run's Python time in the page tests (py-spy).  The figure builders write their traces and
layouts as the dicts plotly.js reads; figure() makes the Figure from them as they are, and relayout merges more
properties into a figure's dicts.  tests/test_figures.py holds every builder's figure to plotly's checks: it
must pass them and come out the same.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import plotly.graph_objects as go


def figure(data: Sequence = (), layout: Mapping | None = None) -> go.Figure:
    """The figure of these traces and layout (dicts, or plotly objects), made without plotly's checks."""
    return go.Figure(data=list(data), layout=layout, _validate=False)


def merge(into: dict, props: Mapping) -> None:
    """into.update(props), a nested dict merged into the dict it meets."""
    for key, value in props.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = value


def relayout(fig: go.Figure, props: Mapping, x_axes: Mapping | Callable[[dict], Mapping] | None = None,
             y_axes: Mapping | Callable[[dict], Mapping] | None = None, traces: Callable[[dict], Mapping] | None = None,
             add: Sequence[Mapping] = ()) -> go.Figure:
    """What fig.update_layout(props), then update_xaxes(x_axes) and update_yaxes(y_axes) on every subplot's
    axes, make of fig, as a new figure.  x_axes, y_axes: the properties, or a function of an axis's (a dict's)
    -> its properties; traces: a function of a trace's dict -> the properties to merge into it; add: more traces
    (dicts), after fig's.  The template is the default one (no figure here sets another), which a new figure gets
    without validating it again."""
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)
    merge(layout, props)
    for kind, axes in (("xaxis", x_axes), ("yaxis", y_axes)):
        for name in [k for k in layout if re.fullmatch(rf"{kind}\d*", k)] or [kind]:
            axis = layout.setdefault(name, {})
            merge(axis, (axes(axis) if callable(axes) else axes) or {})
    data = fig.data
    if traces:
        data = [trace.to_plotly_json() for trace in fig.data]
        for trace in data:
            merge(trace, traces(trace))
    return figure([*data, *add], layout)
