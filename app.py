"""Attention Atlas: an interactive, visual explainer of the Transformer of "Attention Is All You Need".

    streamlit run app.py

The language (Korean by default, ?lang=en for English) is chosen in the sidebar and kept in the URL.
Pages live in pages/, shared UI code in pages/ui/, all the math in transformer_core/.
"""
import streamlit as st

from pages.ui.i18n import current_lang, language_selector, t
from pages.ui.widgets import PAGE_KEY

# (file, url path, i18n key), in menu order.  The first page is the home page.
PAGES = (
    ("pages/translate.py", "translate", "translate"),
    ("pages/decoding.py", "decoding", "decoding"),
    ("pages/attention_lab.py", "attention-lab", "lab"),
    ("pages/shapes.py", "shapes", "shapes"),
    ("pages/positional.py", "positional-encoding", "pe"),
    ("pages/masks.py", "masks", "masks"),
    ("pages/training.py", "training", "training"),
    ("pages/bleu.py", "bleu", "bleu"),
    ("pages/models.py", "models", "models"),
)

lang = current_lang()
st.set_page_config(page_title=t("app.title"), page_icon=t("app.icon"), layout="wide")

pages = [st.Page(path, title=t(f"nav.{key}"), icon=t(f"nav.{key}.icon"), url_path=url, default=(i == 0))
         for i, (path, url, key) in enumerate(PAGES)]
page = st.navigation(pages, position="sidebar")

with st.sidebar:
    language_selector()
    st.caption(t("app.sidebar_caption"))

st.session_state[PAGE_KEY] = page.url_path or PAGES[0][1]
page.run()
