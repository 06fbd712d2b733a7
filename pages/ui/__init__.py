"""Shared UI code for the pages: i18n, plotly figure builders, Streamlit widgets, data export.

figures.py and export.py never import Streamlit, so they can be tested on their own.

The app's pages live in pages/, which Streamlit also knows as the folder of its old automatic
multipage mode: until app.py has called st.navigation once in a server process, a first visitor
who opens a deep link (/bleu) would get pages/bleu.py run on its own, without app.py (no language
switch, the automatic menu).  The first import of this package in such a run switches that mode
off and reruns, so app.py's st.navigation takes over and opens the same page.
"""


def _leave_pages_directory_mode() -> None:
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


_leave_pages_directory_mode()
