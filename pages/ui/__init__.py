"""Shared UI code for the pages: i18n, plotly figure builders, Streamlit widgets, data export.

figures.py and export.py never import Streamlit, so they can be tested on their own.
"""


def ensure_app_navigation() -> None:
    """Make sure a page runs inside app.py's st.navigation, never on its own.

    The pages live in pages/, which Streamlit also reads as the folder of its older automatic
    multipage mode.  That mode is on until some run calls st.navigation: so the very first request
    a server gets (or every run under streamlit.testing, which resets it) may execute
    pages/<name>.py alone, without app.py — no language switch, an automatic menu.  Called at the
    start of a page's first t(), this switches the mode off and reruns, and app.py's
    st.navigation then opens the same page (its URL is the file's name, as in the old mode).
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:      # a Streamlit without it has no automatic mode to leave
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        import streamlit as st
        from streamlit.runtime.scriptrunner import get_script_run_ctx
        if get_script_run_ctx(suppress_warning=True) is not None:
            st.rerun()
