"""Attention Atlas: an interactive, visual explainer of the Transformer of "Attention Is All You Need".

    streamlit run app.py

The language (Korean by default, ?lang=en for English) is chosen in the sidebar and kept in the URL.
Pages live in pages/, shared UI code in pages/ui/, all the math in transformer_core/.
"""
from pathlib import Path

import streamlit as st

from pages.ui.i18n import language_selector, t
from pages.ui.widgets import PAGE_KEY

# (file, i18n key), in menu order.  The first page is the home page.  Each page's URL is its file
# name (/attention_lab): the same name Streamlit's automatic pages/ mode would give it, so a deep
# link opened as a server's very first request still lands on its page (see pages/ui/__init__.py,
# ensure_app_navigation).
PAGES = (
    ("pages/translate.py", "translate"),
    ("pages/decoding.py", "decoding"),
    ("pages/attention_lab.py", "lab"),
    ("pages/shapes.py", "shapes"),
    ("pages/positional.py", "pe"),
    ("pages/masks.py", "masks"),
    ("pages/training.py", "training"),
    ("pages/bleu.py", "bleu"),
    ("pages/models.py", "models"),
)

st.set_page_config(page_title=t("app.title"), page_icon=t("app.icon"), layout="wide")

pages = [st.Page(path, title=t(f"nav.{key}"), icon=t(f"nav.{key}.icon"), url_path=Path(path).stem,
                 default=(i == 0)) for i, (path, key) in enumerate(PAGES)]
page = st.navigation(pages, position="sidebar")

with st.sidebar:
    language_selector()
    st.caption(t("app.sidebar_caption"))

st.session_state[PAGE_KEY] = page.url_path or Path(PAGES[0][0]).stem
page.run()
