"""English-Korean pairs from the GNOME user documentation (Mallard pages).

help/C holds the English pages and help/ko the translated ones, page for page.
A page is read as its sequence of text blocks (title, desc, p, …); when both
languages give the same sequence of block types the blocks pair up one to one,
otherwise the page is skipped (its translation is out of step with the English).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

BLOCKS = {"title", "subtitle", "desc", "p", "code", "screen", "td", "th"}
SKIP = {"credit", "revision", "license", "media", "comment"}  # no prose to pair


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _text(block: ET.Element) -> str:
    return " ".join("".join(block.itertext()).split())


def page_blocks(source: str | bytes) -> list[tuple[str, str]]:
    """(block type, plain text) of one Mallard page, in document order.  A block
    is the outermost title/desc/p/… element; markup inside it is inline text."""
    out: list[tuple[str, str]] = []

    def walk(element: ET.Element):
        for child in element:
            name = _local(child.tag)
            if name in SKIP:
                continue
            if name in BLOCKS:
                out.append((name, _text(child)))
            else:
                walk(child)

    walk(ET.fromstring(source))
    return out


def page_pairs(en_root: str | Path, ko_root: str | Path):
    """(english, korean, where) for every block of every page whose block
    structure is the same in both languages.  The roots are help/C and help/ko
    (each document a folder of .page files); pages with no Korean file are skipped."""
    en_root, ko_root = Path(en_root), Path(ko_root)
    for en_page in sorted(en_root.rglob("*.page")):
        rel = en_page.relative_to(en_root)
        ko_page = ko_root / rel
        if not ko_page.is_file():
            continue
        en, ko = page_blocks(en_page.read_bytes()), page_blocks(ko_page.read_bytes())
        if [name for name, _ in en] != [name for name, _ in ko]:
            continue
        for i, ((name, en_text), (_, ko_text)) in enumerate(zip(en, ko, strict=False)):
            if en_text and ko_text:
                yield en_text, ko_text, f"{rel}#{i}:{name}"
