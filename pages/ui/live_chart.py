"""Plotly charts that are redrawn in place: every figure of the app (widgets.show_figure) is drawn with it.

st.plotly_chart gives each chart an element id that hashes its figure, so a new figure REPLACES the
chart: the browser builds it from scratch (Plotly.newPlot into a hidden element) and then draws it a
second time once its width is known.  On the home page that was most of the browser's work after Enter
(benchmarks/bench_app.py); a slider on any page did the same to its charts.  live_chart keeps one element
per key (a Streamlit custom component) and redraws it with Plotly.react, which changes only what changed.

plotly.js is the copy inside the plotly Python package (the version its figures are written for),
served by Streamlit's static file serving (server.enableStaticServing) from static/ next to app.py.
install_plotly_js() puts it there: the Docker build runs it, and the app once per process.  Where
static serving is off (AppTest, a server started without the project's config) or the copy is
missing, live_chart falls back to st.plotly_chart: the same figure, replaced on each change.
"""
from __future__ import annotations

import filecmp
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import plotly
import plotly.graph_objects as go
import streamlit as st
from _plotly_utils.utils import PlotlyJSONEncoder, to_typed_array_spec

from .i18n import t

APP_DIR = Path(__file__).resolve().parents[2]                    # where app.py is
PLOTLY_JS = APP_DIR / "static" / "plotly.min.js"
PLOTLY_JS_SOURCE = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

# One element per key: created on first use, then Plotly.react with each new figure.  themed() gives the
# figure what Streamlit's chart theme would: the page's font and text colour (light or dark theme), a
# transparent background, titles on the left, axes that make room for their labels; the figure's own
# settings win.
_JS = """
function themed(layout, page) {
  const out = Object.assign({paper_bgcolor: 'rgba(0,0,0,0)', plot_bgcolor: 'rgba(0,0,0,0)'}, layout);
  out.font = Object.assign({family: page.fontFamily, color: page.color}, layout.font);
  for (const name of ['xaxis', 'yaxis']) {
    const axis = layout[name] || {};
    const title = Object.assign({standoff: 12}, axis.title);
    title.font = Object.assign({size: 14}, (axis.title || {}).font);
    out[name] = Object.assign({automargin: true, ticks: '', tickfont: {size: 12}}, axis, {title: title});
  }
  if (layout.title) {
    out.title = Object.assign({x: 0, xanchor: 'left'}, layout.title,
                              {font: Object.assign({weight: 600}, layout.title.font)});
  }
  out.hoverlabel = Object.assign({font: {family: page.fontFamily}}, layout.hoverlabel);
  return out;
}

function loadPlotly(src) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__atlasPlotly) window.__atlasPlotly = new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve(window.Plotly);
    script.onerror = () => { window.__atlasPlotly = null; reject(new Error('cannot load ' + src)); };
    document.head.appendChild(script);
  });
  return window.__atlasPlotly;
}

// The chart alone on the screen (a classroom projector), at the screen's size; back to its own size after.
function fullscreen(gd) {
  if (document.fullscreenElement === gd) { document.exitFullscreen(); return; }
  const app = document.querySelector('[data-testid="stApp"]') || document.body;
  gd.style.background = getComputedStyle(app).backgroundColor;     // not the default black
  gd.onfullscreenchange = () => {
    const on = document.fullscreenElement === gd;
    window.Plotly.relayout(gd, on ? {width: window.innerWidth, height: window.innerHeight} : gd.__atlasSize);
  };
  gd.requestFullscreen();
}

// One token's lines (BertViz's head view): resting the pointer on a token (or tapping it: a projector has
// no hover) keeps its lines or cells and dims the rest; a second tap lets go.  The figure says how in
// layout.meta.focus (figures.attention_grid, figures.alignment_figure).
function focusKey(focus, pt) {
  if (!pt) return null;
  if (focus.kind === 'grid') {
    if (!Array.isArray(pt.pointNumber) || pt.curveNumber === focus.trace) return null;
    const [, , Tq, Tk, gr, gc] = focus.grid;
    const [row, col] = pt.pointNumber, pr = Math.floor(row / (Tq + gr)), q = row - pr * (Tq + gr);
    const group = (focus.groups[pr] || [])[Math.floor(col / (Tk + gc))];
    return q < Tq && group >= 0 ? `grid:${group}:${q}` : null;
  }
  if (pt.curveNumber === focus.src) return `src:${pt.pointNumber}`;
  if (pt.curveNumber === focus.tgt) return `tgt:${pt.pointNumber}`;
  return null;
}

function applyFocus(Plotly, gd, key) {
  const meta = gd.layout.meta || {}, focus = meta.focus, state = gd.__atlasFocus;
  if (!focus || state.key === key) return;
  state.key = key;
  if (focus.kind === 'grid') {
    const [, , Tq, Tk, gr, gc] = meta.grid, base = gd.data[0].z;
    let z = [];
    if (key) {               // row q of each panel of the group stays; every other drawn cell is covered
      const [, group, q] = key.split(':').map(Number);
      z = base.map((row, r) => row.map((v, c) => {
        const pr = Math.floor(r / (Tq + gr)), pc = Math.floor(c / (Tk + gc));
        const kept = r - pr * (Tq + gr) === q && (focus.groups[pr] || [])[pc] === group;
        return v === null || kept ? null : 1;
      }));
    }
    const bg = getComputedStyle(document.querySelector('[data-testid="stApp"]') || document.body).backgroundColor;
    const rgb = (bg.match(/[0-9.]+/g) || [255, 255, 255]).slice(0, 3).join(',');
    const fill = `rgba(${rgb},${focus.dim})`;
    Plotly.restyle(gd, {z: [z], x: [gd.data[0].x], y: [gd.data[0].y], colorscale: [[[0, fill], [1, fill]]]},
                   [focus.trace]);
    return;
  }
  const orig = state.orig;
  const [side, idx] = key ? [key.split(':')[0], Number(key.split(':')[1])] : [null, -1];
  const xs = [], ys = [], traces = [], others = new Set();
  for (const [trace, links] of focus.bins) {
    const x = [], y = [];
    links.forEach(([i, j], n) => {
      if (key && (side === 'src' ? j : i) !== idx) return;
      x.push(...orig[trace].x.slice(3 * n, 3 * n + 3));
      y.push(...orig[trace].y.slice(3 * n, 3 * n + 3));
      others.add(side === 'src' ? i : j);
    });
    xs.push(x); ys.push(y); traces.push(trace);
  }
  const mine = key ? [idx] : null, theirs = key ? [...others] : null;
  Plotly.restyle(gd, {x: xs, y: ys}, traces);
  Plotly.restyle(gd, {selectedpoints: [side === 'src' ? mine : theirs, side === 'src' ? theirs : mine]},
                 [focus.src, focus.tgt]);
}

function focusable(Plotly, gd, spec) {
  const focus = (spec.layout.meta || {}).focus;
  if (focus && focus.kind === 'grid') focus.grid = spec.layout.meta.grid;
  gd.__atlasFocus = {key: null, locked: false, focus: focus,
                     orig: spec.data.map(t => ({x: t.x, y: t.y}))};          // a new figure: nothing focused
  if (!focus || gd.__atlasFocusOn) return;
  gd.__atlasFocusOn = true;
  const state = () => gd.__atlasFocus;
  gd.on('plotly_hover', ev => {
    const key = focusKey(state().focus || {}, ev.points[0]);
    if (!state().locked && key) applyFocus(Plotly, gd, key);
  });
  gd.on('plotly_unhover', () => { if (!state().locked) applyFocus(Plotly, gd, null); });
  gd.on('plotly_click', ev => {
    const key = focusKey(state().focus || {}, ev.points[0]);
    if (!key) return;
    const again = state().locked && state().key === key;
    state().locked = !again;
    applyFocus(Plotly, gd, again ? null : key);
  });
}

// A figure drawn wider than its column (attention_heatmap's square cells) fits it: its width the column's,
// its cells smaller (layout.meta.fit: the fixed parts, the cell counts, when the labels turn), its height
// with them; refitted when the column's width changes (a window resized, an expander opened).
function fitted(base, avail) {
  const size = {width: base.width || null, height: base.height || null};
  const fit = (base.meta || {}).fit;
  if (fit) size['xaxis.tickangle'] = base.tickangle;            // upright again in a wider column
  if (!base.width || !avail || base.width <= avail) return size;
  size.width = Math.floor(avail);
  if (fit) {
    const cell = Math.max(4, (size.width - fit.w) / fit.cols);
    const turn = cell < fit.upright && fit.cols > 3;
    size.height = Math.round(fit.h + cell * fit.rows + (turn ? fit.turned : 0));
    if (turn) size['xaxis.tickangle'] = -90;
  }
  return size;
}

function fitToColumn(gd, parentElement) {
  if (gd.__atlasObserver || typeof ResizeObserver === 'undefined') return;
  let last = parentElement.clientWidth;
  gd.__atlasObserver = new ResizeObserver(() => {
    const avail = parentElement.clientWidth;
    if (!avail || avail === last || !gd.__atlasBase || !gd.__atlasBase.width || !window.Plotly) return;
    last = avail;
    const size = fitted(gd.__atlasBase, avail);
    if (size.width !== gd._fullLayout?.width || size.height !== gd._fullLayout?.height) {
      gd.__atlasSize = {width: size.width, height: size.height};
      if (document.fullscreenElement !== gd) window.Plotly.relayout(gd, size);
    }
  });
  gd.__atlasObserver.observe(parentElement);
}

export default function (component) {
  const { data, parentElement } = component;
  let gd = parentElement.querySelector(':scope > div.atlas-live-chart');
  if (!gd) {
    gd = document.createElement('div');
    gd.className = 'atlas-live-chart';
    parentElement.appendChild(gd);
  }
  const spec = JSON.parse(data.spec);
  const page = getComputedStyle(parentElement);
  const layout = themed(spec.layout || {}, page);
  gd.__atlasBase = {width: layout.width, height: layout.height, meta: layout.meta,
                    tickangle: (layout.xaxis || {}).tickangle ?? 'auto'};
  const size = fitted(gd.__atlasBase, parentElement.clientWidth);
  layout.width = size.width || undefined;
  layout.height = size.height || undefined;
  if (size['xaxis.tickangle'] !== undefined) {
    layout.xaxis = Object.assign({}, layout.xaxis, {tickangle: size['xaxis.tickangle']});
  }
  gd.__atlasSize = {width: layout.width || null, height: layout.height || null};
  fitToColumn(gd, parentElement);
  loadPlotly(data.src).then(Plotly => {
    const config = Object.assign({responsive: true, displaylogo: false}, data.config, {modeBarButtonsToAdd: [
      {name: 'fullscreen', title: data.fullscreen, icon: Plotly.Icons.autoscale, click: () => fullscreen(gd)}]});
    return Plotly.react(gd, {data: spec.data, layout: layout, frames: spec.frames || [], config: config})
      .then(() => focusable(Plotly, gd, spec));
  });
  return () => { if (!gd.isConnected && window.Plotly) window.Plotly.purge(gd); };
}
"""

_component = st.components.v2.component("atlas_live_chart", js=_JS, isolate_styles=False)


def install_plotly_js() -> bool:
    """Copy the plotly package's plotly.min.js to static/ unless the same file is there, readable by all;
    False when that cannot be done (a read-only install without it, an unreadable file)."""
    tmp = None
    try:
        if PLOTLY_JS.is_file() and filecmp.cmp(PLOTLY_JS, PLOTLY_JS_SOURCE, shallow=False):
            return True
        PLOTLY_JS.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=PLOTLY_JS.parent, suffix=".part")
        os.close(fd)
        shutil.copyfile(PLOTLY_JS_SOURCE, tmp)
        os.chmod(tmp, 0o644)                        # mkstemp's file is private; the web server reads it
        os.replace(tmp, PLOTLY_JS)                  # never a half-written file
        return True
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        return False


@st.cache_resource(show_spinner=False)
def _ready() -> bool:
    """Once per process: static serving on and plotly.js in place."""
    return bool(st.get_option("server.enableStaticServing")) and install_plotly_js()


def script_url() -> str:
    """plotly.js's URL on this server (static files live under <base URL path>/app/static/)."""
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return "/" + "/".join(p for p in (base, "app", "static", PLOTLY_JS.name) if p)


class _TypedArrays(PlotlyJSONEncoder):
    """plotly's JSON encoder, with numpy arrays written as plotly.js typed arrays (base64), as fig.to_dict() does."""

    def default(self, obj):
        if isinstance(obj, np.ndarray) and isinstance(spec := to_typed_array_spec(obj), dict):
            return spec
        return super().default(obj)


_HTML_SAFE = (("<", "\\u003c"), (">", "\\u003e"), ("/", "\\u002f"))      # as plotly.io writes them


def figure_json(fig: go.Figure) -> str:
    """The JSON of pio.to_json(fig, validate=False), without its deep copy of the whole figure (a fifth of the
    home page's interpreter time under a class, py-spy --gil): the figure's own dicts are written as they are.
    Without the layout's template, Streamlit's placeholder, which its own chart element fills in and this one
    has no use for (3.7 of a 20-token heatmap's 20.5 KB)."""
    spec = {"data": [{k: v for k, v in trace.items() if k != "uid"} for trace in fig._data],
            "layout": {k: v for k, v in fig._layout.items() if k != "template"}}
    text = json.dumps(spec, cls=_TypedArrays, separators=(",", ":"))
    for unsafe, safe in _HTML_SAFE:
        text = text.replace(unsafe, safe)
    return text


def live_chart(fig: go.Figure, *, key: str, config: dict) -> None:
    """Draw fig under key; the next run's figure for the same key redraws the same chart in place."""
    if not _ready():
        st.plotly_chart(fig, config=config, key=key)
        return
    _component(key=key, data={"spec": figure_json(fig), "config": config, "src": script_url(),
                              "fullscreen": t("common.fullscreen")})
