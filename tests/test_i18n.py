"""The UI strings: both languages complete, every key the code asks for exists, and no UI text is
hard-coded in app.py or the pages."""
import ast
import json
import re
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "assets" / "i18n"
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").rglob("*.py"))]

# Streamlit calls that put text on the screen (as their first argument or a text keyword).
DISPLAY = {"title", "header", "subheader", "markdown", "write", "caption", "text", "info", "warning",
           "error", "success", "exception", "toast", "button", "download_button", "link_button",
           "page_link", "selectbox", "multiselect", "slider", "select_slider", "text_input", "text_area",
           "number_input", "radio", "checkbox", "toggle", "tabs", "expander", "popover", "metric",
           "segmented_control", "pills", "color_picker", "date_input", "time_input", "file_uploader",
           "chat_input", "status", "form_submit_button", "help", "badge", "spinner"}
TEXT_KWARGS = {"label", "help", "placeholder", "caption", "body", "value", "text", "title"}
# keyword arguments that are identifiers or formats, never shown as prose
IDENTIFIER = re.compile(r"[\w./:@~-]+")


def load(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_same_keys_and_no_empty_values():
    ko, en = load("ko"), load("en")
    assert set(ko) == set(en), f"only in ko: {set(ko) - set(en)}; only in en: {set(en) - set(ko)}"
    for lang, strings in (("ko", ko), ("en", en)):
        empty = [k for k, v in strings.items() if not isinstance(v, str) or not v.strip()]
        assert not empty, f"empty {lang} strings: {empty}"


def test_same_placeholders():
    ko, en = load("ko"), load("en")
    bad = []
    for key in ko:
        try:
            if fields(ko[key]) != fields(en[key]):
                bad.append(key)
        except ValueError:          # braces of LaTeX in a string that is never formatted
            continue
    assert not bad, f"ko and en disagree on {{placeholders}}: {bad}"


def _t_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and (
                (isinstance(node.func, ast.Name) and node.func.id == "t")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "t")):
            yield node.args[0]


def _key_patterns(arg: ast.AST) -> list[str]:
    """Regexes for the keys a t(...) argument can produce."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [re.escape(arg.value)]
    if isinstance(arg, ast.JoinedStr):
        return ["".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in arg.values)]
    if isinstance(arg, ast.IfExp):
        return _key_patterns(arg.body) + _key_patterns(arg.orelse)
    return []


def test_every_key_used_exists():
    keys = set(load("en"))
    missing = []
    for path in SOURCES:
        for arg in _t_calls(ast.parse(path.read_text(encoding="utf-8"))):
            for pattern in _key_patterns(arg):
                if not any(re.fullmatch(pattern, k) for k in keys):
                    missing.append(f"{path.relative_to(ROOT)}: {pattern}")
    assert not missing, missing


def _literal_text(node: ast.AST) -> str | None:
    """The prose in a literal (str constant, f-string parts, list of strings); None if there is none."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    elif isinstance(node, (ast.List, ast.Tuple)):
        parts = [_literal_text(e) for e in node.elts]
        text = " ".join(p for p in parts if p)
    else:
        return None
    return text if any(ch.isalpha() for ch in text) else None


def _display_call(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in DISPLAY:
        return func.attr
    return None


def hard_coded_strings(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or (name := _display_call(node)) is None:
            continue
        labels = list(node.args[:1]) + [k.value for k in node.keywords
                                        if k.arg in TEXT_KWARGS - {"value", "placeholder"}]
        examples = [k.value for k in node.keywords if k.arg in ("value", "placeholder")]
        if name in ("text_input", "text_area") and len(node.args) > 1:
            examples.append(node.args[1])                   # the default text
        if name in ("selectbox", "radio", "multiselect", "select_slider", "segmented_control", "pills") \
                and not any(k.arg == "format_func" for k in node.keywords) and len(node.args) > 1:
            labels.append(node.args[1])                     # options shown as they are
        for cand, is_example in [(c, False) for c in labels] + [(c, True) for c in examples]:
            text = _literal_text(cand)
            # an example value that is one identifier-like token (user/repo, runs/, main) is data, not prose
            if text is not None and not (is_example and IDENTIFIER.fullmatch(text)):
                found.append(f"line {node.lineno}: st.{name}({text!r})")
    return found


def test_scanner_catches_hard_coded_text():
    bad = 'import streamlit as st\nst.title("Hello")\ncol.button(label="Go")\nst.markdown(f"**Note** {x}")\n' \
          'st.selectbox(t("a"), ["one", "two"])\nst.text_input(t("a"), "type here", placeholder="a b")\n'
    ok = 'st.title(t("x"))\nst.markdown(f"**{t(\'y\')}**")\nst.latex(r"\\frac{a}{b}")\n' \
         'st.slider(t("s"), 0, 9, key="k_name", format="%d")\nst.selectbox(t("a"), ["ko"], format_func=f)\n' \
         'st.text_input(t("p"), "runs/", placeholder="user/repo")\n'
    assert len(hard_coded_strings(bad)) == 6
    assert hard_coded_strings(ok) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_hard_coded_ui_strings(path):
    assert hard_coded_strings(path.read_text(encoding="utf-8")) == []


def test_figure_builders_take_their_labels():
    """The figure builders (pages/ui/figures/) get every title and name from their caller: no prose literal in
    title=/name=/text=."""
    label_kwargs = {"title", "title_text", "name", "x_title", "y_title", "annotation_text", "colorbar_title"}
    files = sorted((ROOT / "pages" / "ui" / "figures").glob("*.py"))
    assert len(files) >= 6
    bad = [f"{path.name} line {node.lineno}: {k.arg}" for path in files
           for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.Call)
           for k in node.keywords if k.arg in label_kwargs and _literal_text(k.value) is not None]
    assert not bad, bad
