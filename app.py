"""Attention Atlas: an interactive, visual explainer of the Transformer of "Attention Is All You Need".

    streamlit run app.py

The language (Korean by default, ?lang=en for English) and the model (?model=enko) are chosen in the
sidebar and kept in the URL.
Pages live in pages/, shared UI code in pages/ui/, all the math in transformer_core/.

Streamlit runs this file as the module __main__, so a worker process that multiprocessing spawns
(transformer_core/serving/workpool.py) imports it again, as __mp_main__: there it imports and draws nothing
(main() holds the imports), and the worker stays a model runner without Streamlit in its memory.
"""
# (file, URL path, i18n key), in menu order.  The first page is the home page.
# A URL path must differ from its file's name: Streamlit also reads pages/ as the folder of its older
# automatic multipage mode (on in every streamlit.testing run, and in a server until the first
# st.navigation call), and a page of that mode named like ours would be run on its own, without app.py.
PAGES = (
    ("pages/translate.py", "home", "translate"),
    ("pages/diagram.py", "architecture", "arch"),
    ("pages/decoding.py", "decode", "decoding"),
    ("pages/attention_lab.py", "attention-lab", "lab"),
    ("pages/shapes.py", "heads-and-shapes", "shapes"),
    ("pages/positional.py", "positional-encoding", "pe"),
    ("pages/masks.py", "attention-masks", "masks"),
    ("pages/training.py", "train", "training"),
    ("pages/bleu.py", "bleu-score", "bleu"),
    ("pages/models.py", "checkpoints", "models"),
)


def main() -> None:
    import streamlit as st

    from pages.ui import a11y
    from pages.ui.i18n import language_selector, t
    from pages.ui.model_state import evicted_notice, model_selector, start_reaper
    from pages.ui.theme import PRESENT_CSS
    from pages.ui.widgets import PAGE_KEY, busy_notice, present_toggle, presenting

    present = presenting()
    st.set_page_config(page_title=t("app.title"), page_icon=t("app.icon"), layout="wide",
                       initial_sidebar_state="collapsed" if present else "auto")   # a projector: the page alone
    if present:
        st.html(PRESENT_CSS)

    # The first page is served at the root, and Streamlit would answer its own name (/home) with an English
    # "Page not found": under that name a hidden page runs the same script.
    pages = [st.Page(path, title=t(f"nav.{key}"), icon=t(f"nav.{key}.icon"), url_path=url if i else f"{url}-page",
                     default=(i == 0)) for i, (path, url, key) in enumerate(PAGES)]
    alias = st.Page(PAGES[0][0], title=t(f"nav.{PAGES[0][2]}"), url_path=PAGES[0][1], visibility="hidden")
    page = st.navigation([*pages, alias], position="sidebar")

    with st.sidebar:
        language_selector()
        model_selector()
        present_toggle()
        st.caption(t("app.sidebar_caption"))
        a11y.install()

    st.session_state[PAGE_KEY] = page.url_path or PAGES[0][1]
    start_reaper()                  # once per server: closed sessions' uploaded models and files go
    evicted_notice()                # this session's uploaded models evicted to make room, if any
    with busy_notice():             # the compute pool's queue is full or its time limit passed (pages/ui/sentence.py)
        page.run()


if __name__ != "__mp_main__":
    main()
