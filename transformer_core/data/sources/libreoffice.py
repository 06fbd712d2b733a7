"""English-Korean pairs from LibreOffice's help pages and its UI catalogues.

Help: the en-US and ko help packages hold HTML pages at the same paths, and a
translated paragraph keeps the id of its English original (par_id…, hd_id…), so
pairs align exactly by (page, id).  Untranslated paragraphs fall back to the
English text; the builder drops them (no Hangul, or Korean == English).

UI: gettext catalogues, English msgid -> Korean msgstr, with the keyboard
mnemonic markers taken out of both sides.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from .gettext_mo import read_mo

ID = re.compile(r"^[a-z]+_id\w+$")  # par_id3149398, hd_id3147834, …
VOID = {"br", "img", "meta", "input", "link", "hr", "wbr", "source", "embed", "area", "col"}
SKIP = {"script", "style", "pre", "code"}  # program text is not prose


class _Paragraphs(HTMLParser):
    """Plain text of each element with a paragraph id, in page order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self.stack: list[bool] = []   # per open element: is its text hidden?
        self.key: str | None = None   # id of the paragraph being read
        self.depth = 0                # stack depth where it opened
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag == "br" and self.key:
                self.text.append(" ")
            return
        attrs = dict(attrs)
        # Platform switches keep one variant per platform, all hidden; the
        # "default…" one is what a Linux reader sees.
        hidden = (bool(self.stack) and self.stack[-1]) or tag in SKIP or (
            "hidden" in attrs and not (attrs.get("id") or "").startswith("default"))
        self.stack.append(hidden)
        if self.key is None and ID.match(attrs.get("id") or ""):
            self.key, self.depth, self.text = attrs["id"], len(self.stack), []

    def handle_endtag(self, tag):
        if tag in VOID or not self.stack:
            return
        if self.key is not None and len(self.stack) == self.depth:
            self.found.append((self.key, " ".join("".join(self.text).split())))
            self.key = None
        self.stack.pop()

    def handle_data(self, data):
        if self.key is not None and not self.stack[-1]:
            self.text.append(data)


def help_paragraphs(html: str) -> dict[str, str]:
    """{id: plain text} of one help page; a repeated id gets '#2', '#3' … appended."""
    parser = _Paragraphs()
    parser.feed(html)
    parser.close()
    out: dict[str, str] = {}
    for key, text in parser.found:
        n, unique = 1, key
        while unique in out:
            n += 1
            unique = f"{key}#{n}"
        out[unique] = text
    return out


def help_pairs(en_root: str | Path, ko_root: str | Path):
    """(english, korean, where) for every paragraph id present in both help trees.
    The roots are the language folders (…/help/en-US, …/help/ko)."""
    en_root, ko_root = Path(en_root), Path(ko_root)
    for en_page in sorted(en_root.rglob("*.html")):
        rel = en_page.relative_to(en_root)
        ko_page = ko_root / rel
        if not ko_page.is_file():
            continue
        ko = help_paragraphs(ko_page.read_text(encoding="utf-8"))
        for key, en_text in help_paragraphs(en_page.read_text(encoding="utf-8")).items():
            if key in ko and en_text and ko[key]:
                yield en_text, ko[key], f"{rel}#{key}"


KO_MNEMONIC = re.compile(r"\s*\(\s*[~_][A-Za-z0-9]\s*\)")  # 저장(_S), 만들기(~A)
INLINE_MNEMONIC = re.compile(r"(?<!_)_(?=[^\W_])|(?<![~\d])~(?=[^\W_])")  # Automat_ic, ~Save; not 1~10


def strip_mnemonic(text: str) -> str:
    """Remove keyboard-accelerator markers: '~' or '_' before a letter and the
    Korean '(~A)' / '(_A)' suffix.  '__' is a literal '_'; '1~10' and '(~)' stay."""
    return INLINE_MNEMONIC.sub("", KO_MNEMONIC.sub("", text)).replace("__", "_")


def ui_pairs(mo_dir: str | Path):
    """(english, korean, where) for every entry of every .mo catalogue in mo_dir."""
    for mo in sorted(Path(mo_dir).glob("*.mo")):
        for ctxt, msgid, msgstr in read_mo(mo):
            en = " ".join(strip_mnemonic(msgid).split())
            ko = " ".join(strip_mnemonic(msgstr).split())
            if en and ko:
                yield en, ko, f"{mo.name}:{ctxt}"
