"""Shared Streamlit helpers for the pages.

    show_figure(fig, name, data)   the chart (PNG export at 2×, named page_figure_lang) and
                                   CSV / JSON download buttons for the numbers behind it
    page_header(prefix)            title + intro from i18n keys <prefix>.title / <prefix>.intro
    latex(expr)                    a formula (notation, not translated)
    show_matrix(matrix, rows, cols) a small matrix as a table of numbers (−∞ kept visible)
    escape_md(text)                user text made safe for st.markdown
    model_not_loaded()             the placeholder info for sections that need a trained model
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from contextlib import contextmanager

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from transformer_core.serving.cost import MAX_BYTES, MAX_SECONDS, MB, RunTooLarge
from transformer_core.serving.share import OverShare
from transformer_core.serving.workpool import Busy

from . import theme
from .export import Data, matrix_frame, safe_filename, to_csv, to_json
from .i18n import current_lang, t
from .live_chart import live_chart

PAGE_KEY = "atlas_page"          # set by app.py to the current page's url_path


def current_page() -> str:
    return st.session_state.get(PAGE_KEY) or "app"


PRESENT_KEY, PRESENT_PARAM = "present", "present"


def presenting() -> bool:
    """Projector mode: the sidebar switch, or ?present=1 in the URL on a session's first run."""
    if PRESENT_KEY not in st.session_state:
        return st.query_params.get(PRESENT_PARAM) == "1"
    return bool(st.session_state[PRESENT_KEY])


def _on_present() -> None:
    if st.session_state[PRESENT_KEY]:
        st.query_params[PRESENT_PARAM] = "1"
    elif PRESENT_PARAM in st.query_params:
        del st.query_params[PRESENT_PARAM]


def present_toggle() -> None:
    """The sidebar's projector-mode switch, kept in the URL (?present=1)."""
    if PRESENT_KEY not in st.session_state:
        st.session_state[PRESENT_KEY] = presenting()
    st.sidebar.toggle(t("app.present"), key=PRESENT_KEY, on_change=_on_present, help=t("app.present_help"))
    _on_present()


def figure_config(name: str) -> dict:
    return {"toImageButtonOptions": {"format": "png", "scale": 2,
                                     "filename": safe_filename(current_page(), name, current_lang())},
            "displaylogo": False}


def show_figure(fig: go.Figure, name: str, data: Data | None = None, *, key: str | None = None) -> None:
    """Draw a plotly figure with its PNG export named after page, figure and language, and offer the
    numbers behind it as CSV and JSON."""
    key = key or f"fig_{name}"
    if presenting():
        fig = theme.projector(fig)
    live_chart(fig, key=key, config=figure_config(name))   # redrawn in place when the figure changes
    if data is not None:
        download_buttons(data, name, key=key)


def download_buttons(data: Data | Callable[[], Data], name: str, *, key: str) -> None:
    """CSV and JSON buttons for `data`, or for what the function `data` returns: the files (and then the
    data) are only built when a button is clicked."""
    make = data if callable(data) else lambda: data
    base = safe_filename(current_page(), name, current_lang())
    with st.container(horizontal=True, gap="small"):
        st.download_button(t("common.download_csv"), lambda: to_csv(make()), file_name=f"{base}.csv",
                           mime="text/csv", key=f"{key}_csv", on_click="ignore", icon=":material/download:",
                           type="tertiary")
        st.download_button(t("common.download_json"), lambda: to_json(make()), file_name=f"{base}.json",
                           mime="application/json", key=f"{key}_json", on_click="ignore",
                           icon=":material/download:", type="tertiary")


def page_header(prefix: str) -> None:
    """The page's title and introduction; on a projector the introduction folds away, so that the first
    screen holds the sentence and its figures."""
    if presenting():
        title, about = st.columns([5, 2], vertical_alignment="center")
        title.title(t(f"{prefix}.title"))
        with about.popover(t("common.about_page"), icon=":material/info:", width="stretch"):
            st.markdown(t(f"{prefix}.intro"))
    else:
        st.title(t(f"{prefix}.title"))
        st.markdown(t(f"{prefix}.intro"))


def latex(expr: str) -> None:
    st.latex(expr)


def _cell(value: float, digits: int) -> str:
    if np.isneginf(value):
        return "−∞"
    if np.isposinf(value):
        return "∞"
    if np.isnan(value):
        return ""
    return f"{value:.{digits}f}"


def show_matrix(matrix, row_labels: Sequence[str] | None = None, col_labels: Sequence[str] | None = None,
                *, digits: int = 3, key: str | None = None) -> pd.DataFrame:
    """A small matrix as a table of numbers; −∞ shown as text.  Returns the numeric frame."""
    frame = matrix_frame(matrix, row_labels, col_labels)
    shown = frame.map(lambda v: _cell(v, digits))
    st.dataframe(shown, key=key, width="content")
    return frame


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def escape_md(text: str) -> str:
    """User text for st.markdown: markdown and HTML characters escaped, one line."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def model_not_loaded() -> None:
    st.info(t("common.model_not_loaded"), icon=":material/hourglass_empty:")


def coming_soon(prefix: str) -> None:
    """The body of a page another engineer will fill: its title, intro and an info box."""
    page_header(prefix)
    st.info(t("common.coming_soon"), icon=":material/construction:")


@contextmanager
def busy_notice():
    """A model run refused by the compute pool (transformer_core.serving.workpool.Busy: its queue full, or past its
    time limit) as "the server is busy, try again", or refused for what it would record
    (transformer_core.serving.cost.RunTooLarge: what to shorten), or past the session's share of the compute
    (transformer_core.serving.share.OverShare: how long to wait), in the interface language: around each page run (app.py), and
    inside a fragment, whose own reruns run without app.py."""
    try:
        yield
    except Busy:
        st.warning(t("app.busy"), icon=":material/hourglass_top:")
    except OverShare as err:
        st.warning(t("app.over_share", wait=f"{err.wait_s:.0f}"), icon=":material/hourglass_top:")
    except RunTooLarge as err:
        what = t("app.run_shorten", fits=err.fits, tokens=err.tokens) if err.fits else t("app.run_model_too_large")
        st.warning(t("app.run_too_large", seconds=f"{err.seconds:.0f}", mb=f"{err.mb:.0f}", max_s=f"{MAX_SECONDS:.0f}",
                     max_mb=MAX_BYTES // MB, what=what), icon=":material/block:")


def model_fragment(fn: Callable) -> Callable:
    """st.fragment for a part of a page that runs the model: its own reruns (a tab, a slider) run without
    app.py's page run, so a refused run is shown here as busy_notice shows it there."""
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        with busy_notice():
            return fn(*args, **kwargs)
    return st.fragment(guarded)
