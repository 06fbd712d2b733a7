"""UI strings in Korean (default) and English, from assets/i18n/<lang>.json.

    t("pe.title")                      -> the string in the active language
    t("pe.max_error", err="1e-7")      -> str.format(**fmt) applied

The active language lives in st.session_state["lang"], the key of the sidebar selectbox that
language_selector() draws, and in the URL as ?lang=ko|en (so a shared link opens in its language).
An unknown ?lang= falls back to Korean.
"""
from __future__ import annotations

import contextlib
import json
from functools import lru_cache
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from transformer_core.model.config import base_language

LANGS = ("ko", "en")
DEFAULT_LANG = "ko"
LANG_KEY = "lang"
I18N_DIR = Path(__file__).resolve().parents[2] / "assets" / "i18n"


@lru_cache(maxsize=8)
def strings(lang: str) -> dict[str, str]:
    """All strings of one language, read once per process (a page run asks for ~200: a stat each, to
    notice an edited file, was 7 % of a busy server's CPU; restart the server after editing)."""
    return json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))


def normalize_lang(value) -> str:
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else None
    return value if value in LANGS else DEFAULT_LANG


def translate(lang: str, key: str, **fmt) -> str:
    """The string for key in lang (falling back to Korean, then to the key itself), formatted."""
    text = strings(normalize_lang(lang)).get(key)
    if text is None:
        text = strings(DEFAULT_LANG).get(key, key)
    if fmt:
        with contextlib.suppress(KeyError, IndexError, ValueError):
            text = text.format(**fmt)
    return text


_last_lang = DEFAULT_LANG     # outside a script run (streamlit.testing calling a format_func later)


def current_lang() -> str:
    """The active language: the selectbox's value, else ?lang= from the URL, else Korean."""
    global _last_lang
    if get_script_run_ctx(suppress_warning=True) is None:
        return _last_lang
    chosen = st.session_state.get(LANG_KEY)
    _last_lang = chosen if chosen in LANGS else normalize_lang(st.query_params.get(LANG_KEY))
    return _last_lang


def t(key: str, **fmt) -> str:
    return translate(current_lang(), key, **fmt)


def _on_language_change() -> None:
    st.query_params[LANG_KEY] = st.session_state[LANG_KEY]


def language_selector() -> str:
    """The sidebar language switch, kept in sync with ?lang= in the URL.  Returns the language.

    The URL decides on a session's first run (a shared link opens in its language); after that the
    selectbox does, and ?lang= is written back on every run, so it survives page switches.
    """
    lang = current_lang()
    st.session_state[LANG_KEY] = lang
    if st.query_params.get(LANG_KEY) != lang:
        st.query_params[LANG_KEY] = lang
    return st.sidebar.selectbox(t("app.language"), LANGS, key=LANG_KEY, on_change=_on_language_change,
                                format_func=lambda code: translate(code, f"lang.{code}"))


def language_name(code: str) -> str:
    """A language code (en, ko, de; eng, kor, deu; ko-KR) as the interface names it ("English" / "영어"), or the code."""
    key = f"srclang.{base_language(code)}"
    name = t(key)
    return code if name == key else name
