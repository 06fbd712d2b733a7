"""The English->Korean sources, on small files written here in each source's format."""
from __future__ import annotations

import gettext
import hashlib
import json
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from transformer_core.data import build as data
from transformer_core.data.sources import docs, gnome, libreoffice
from transformer_core.data.sources.gettext_mo import read_mo

# -- LibreOffice help: HTML pages, paragraphs aligned by id --------------------

HELP_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><title>{title}</title>
<script type="text/javascript" src="help.js"></script></head>
<body><div id="DisplayArea">
<a name="bm_id1"></a><meta itemprop="keywords" content="cells, selecting">
<h1 id="hd_id100" dir="auto"><a name="select"></a>{h1}</h1>
<p id="par_id200" class="paragraph" dir="auto">{p200}</p>
<p id="par_id300" class="paragraph" dir="auto">{p300}</p>
<p id="par_id400" class="listitem" dir="auto">{p400}</p>
<div class="bascode"><pre><code class="language-visual-basic">Sub Main</code></pre></div>
<p class="embedded">An embedded paragraph without an id.</p>
</div></body></html>
"""

SWITCH = ('<span id="swlnsys1" class="switchinline"><span hidden="true" id="MAC1" class="MAC">'
          '<span class="keycode">{mac}</span></span><span hidden="true" id="default1">'
          '<span class="keycode">{default}</span></span></span>')


def write_help(root: Path) -> tuple[Path, Path]:
    en, ko = root / "help/en-US", root / "help/ko"
    for lang_root, lang, texts in (
        (en, "en-US", dict(title="Selecting Cells", h1="Selecting Cells",
                           p200='Select the cell and press <span class="keycode">Enter</span>.',
                           p300="This paragraph is not translated yet.",
                           p400="Press " + SWITCH.format(mac="Command", default="Ctrl") + "+A.")),
        (ko, "ko", dict(title="셀 선택", h1="셀 선택",
                        p200='셀을 선택하고 <span class="keycode">Enter</span> 키를 누릅니다.',
                        p300="This paragraph is not translated yet.",
                        p400=SWITCH.format(mac="Command", default="Ctrl") + "+A 키를 누릅니다.")),
    ):
        page = lang_root / "text/scalc/guide/cells.html"
        page.parent.mkdir(parents=True)
        page.write_text(HELP_PAGE.format(lang=lang, **texts), encoding="utf-8")
    # a page only in English is skipped
    (en / "text/scalc/guide/new.html").write_text(
        HELP_PAGE.format(lang="en-US", title="t", h1="New", p200="a", p300="b", p400="c"), encoding="utf-8")
    return en, ko


def test_help_pairs_align_by_id(tmp_path):
    en, ko = write_help(tmp_path)
    pairs = {where: (e, k) for e, k, where in libreoffice.help_pairs(en, ko)}
    assert pairs == {
        "text/scalc/guide/cells.html#hd_id100": ("Selecting Cells", "셀 선택"),
        "text/scalc/guide/cells.html#par_id200": ("Select the cell and press Enter.", "셀을 선택하고 Enter 키를 누릅니다."),
        "text/scalc/guide/cells.html#par_id300": ("This paragraph is not translated yet.",) * 2,
        "text/scalc/guide/cells.html#par_id400": ("Press Ctrl+A.", "Ctrl+A 키를 누릅니다."),
    }


def test_help_untranslated_fallback_is_dropped(tmp_path):
    en, ko = write_help(tmp_path)
    kept = [(e, k) for e, k, _ in libreoffice.help_pairs(en, ko) if docs.translated(e, k, docs.KOREAN)]
    assert ("This paragraph is not translated yet.",) * 2 not in kept
    assert len(kept) == 3


def test_help_repeated_id_gets_a_suffix():
    html = '<p id="par_id1">one</p><p id="par_id1">two</p><h2 id="hd_id2">three<br>four</h2>'
    assert libreoffice.help_paragraphs(html) == {"par_id1": "one", "par_id1#2": "two", "hd_id2": "three four"}


# -- LibreOffice UI: gettext .mo catalogues ------------------------------------

def write_mo(path: Path, messages: dict[str, str], byteorder: str = "<") -> None:
    """A minimal .mo: header, the two (length, offset) tables, then the strings."""
    keys = sorted(messages)
    ids = [k.encode() for k in keys]
    strs = [messages[k].encode() for k in keys]
    n = len(keys)
    offset = 28 + 16 * n
    tables, blob = [], b""
    for group in (ids, strs):
        table = []
        for s in group:
            table.append((len(s), offset + len(blob)))
            blob += s + b"\0"
        tables.append(table)
    out = struct.pack(byteorder + "7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    for table in tables:
        out += b"".join(struct.pack(byteorder + "2I", *entry) for entry in table)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out + blob)


UI = {
    "": "Content-Type: text/plain; charset=UTF-8\nX-Accelerator-Marker: ~\n",
    "STR_SAVE\x04~Save": "저장(~S)",
    "dialog|cancel\x04_Cancel": "취소(_C)",
    "spelling|changeall\x04Correct A_ll": "전부 수정(_L)",
    "STR_CREATE\x04Create an ~agenda from this template": "이 서식 파일로부터 일정 만들기(~A)",
    "STR_DELETE\x04Delete %1 rows?": "%1개 행을 삭제하시겠습니까?",
    "STR_ERR\x04Cannot create the file $(URL1).": "$(URL1) 파일을 만들 수 없습니다.",
    "STR_PRODUCT\x04Restart %PRODUCTNAME now.": "지금 %PRODUCTNAME을(를) 다시 시작합니다.",
    "STR_FMT\x04Value {0} is too large.": "값 {0}이(가) 너무 큽니다.",
    "STR_S\x04File %s not found.": "%s 파일을 찾을 수 없습니다.",
    "STR_RANGE\x04The index of the value (1..30).": "1~30의 색인값입니다.",
    "STR_TILDE\x04Enter a tilde (~) before the letter.": "글자 앞에 틸드(~)를 입력합니다.",
    "STR_UNTRANSLATED\x04Gothic": "Gothic",
}


def test_read_mo_matches_the_stdlib(tmp_path):
    for order in "<>":
        mo = tmp_path / f"sc{order == '>'}.mo"
        write_mo(mo, UI, order)
        entries = read_mo(mo)
        assert ("STR_SAVE", "~Save", "저장(~S)") in entries
        assert len(entries) == len(UI) - 1                      # no header
        with open(mo, "rb") as f:                              # same data as Python's own reader
            catalog = gettext.GNUTranslations(f)._catalog
        assert {f"{c}\x04{i}": s for c, i, s in entries} == {k: v for k, v in catalog.items() if k}


@pytest.mark.parametrize("raw, plain", [
    ("~Save", "Save"), ("_Cancel", "Cancel"), ("Correct A_ll", "Correct All"), ("3_D", "3D"),
    ("저장(~S)", "저장"), ("취소(_C)", "취소"), ("속성(_P)...", "속성..."),
    ("이 서식 파일로부터 일정 만들기(~A)", "이 서식 파일로부터 일정 만들기"),
    ("1~30의 색인값", "1~30의 색인값"), ("틸드(~)를", "틸드(~)를"), ("0 ~ 100 %", "0 ~ 100 %"),
    ("file__name", "file_name"), ("underline_", "underline_"),
])
def test_strip_mnemonic(raw, plain):
    assert libreoffice.strip_mnemonic(raw) == plain


def test_ui_pairs_and_placeholders(tmp_path):
    write_mo(tmp_path / "sc.mo", UI)
    pairs = {e: k for e, k, _ in libreoffice.ui_pairs(tmp_path)}
    assert pairs["Save"] == "저장" and pairs["Cancel"] == "취소" and pairs["Correct All"] == "전부 수정"
    kept = {e for e, k in pairs.items() if docs.translated(e, k, docs.KOREAN) and not docs.has_placeholder(e, k)}
    assert kept == {"Save", "Cancel", "Correct All", "Create an agenda from this template",
                    "The index of the value (1..30).", "Enter a tilde (~) before the letter."}


# -- GNOME help: Mallard pages ----------------------------------------------------

MALLARD = """<?xml version="1.0" encoding="utf-8"?>
<page xmlns="http://projectmallard.org/1.0/" xmlns:its="http://www.w3.org/2005/11/its"
      xmlns:ui="http://projectmallard.org/ui/1.0/" type="topic" id="{id}" xml:lang="{lang}">
  <info>
    <link type="guide" xref="a11y#mobility"/>
    <revision pkgversion="3.8.0" date="2013-03-13" status="candidate"/>
    <credit type="author"><name>Shaun McCance</name></credit>
    <desc>{desc}</desc>{translator}
  </info>
  <title>{title}</title>
  <p>{intro}</p>
  <steps>
    <item><p>{step}</p></item>
  </steps>{extra}
</page>
"""
TRANSLATOR = """
    <mal:credit xmlns:mal="http://projectmallard.org/1.0/" type="translator copyright">
      <mal:name>홍길동</mal:name><mal:years>2022</mal:years>
    </mal:credit>"""

GNOME_EN = dict(desc="Ignore quickly-repeated key presses.", title="Turn on bounce keys",
                intro="Turn on <em>bounce keys</em> to ignore key presses that are rapidly repeated.",
                step='Open the <gui xref="shell-introduction#activities">Activities</gui> overview.',
                translator="")
GNOME_KO = dict(desc="동일 키를 빠르게 반복하는 키 누름을 무시합니다.", title="탄력키 켜기",
                intro="빨리 반복하는 키 누름을 무시하려면 <em>탄력 키</em>를 켭니다.",
                step='<gui xref="shell-introduction#activities">현재 활동</gui> 개요를 엽니다.',
                translator=TRANSLATOR)
NOTE = '\n  <note style="tip"><title>{}</title><p>{}</p></note>'


def write_gnome(root: Path) -> tuple[Path, Path]:
    en, ko = root / "help/C", root / "help/ko"
    pages = {  # page: (English extra blocks, Korean extra blocks)
        "gnome-help/same.page": (NOTE.format("Tip", "Use the icon."), NOTE.format("팁", "아이콘을 사용합니다.")),
        "gnome-help/differs.page": (NOTE.format("Tip", "Use the icon."), ""),   # Korean lacks the note
    }
    for rel, (en_extra, ko_extra) in pages.items():
        for lang_root, lang, texts, extra in ((en, "en", GNOME_EN, en_extra), (ko, "ko", GNOME_KO, ko_extra)):
            page = lang_root / rel
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(MALLARD.format(id=page.stem, lang=lang, extra=extra, **texts), encoding="utf-8")
    (en / "gnome-help/english-only.page").write_text(
        MALLARD.format(id="x", lang="en", extra="", **GNOME_EN), encoding="utf-8")
    return en, ko


def test_page_blocks_reads_block_text_without_inline_markup(tmp_path):
    en, _ = write_gnome(tmp_path)
    assert gnome.page_blocks((en / "gnome-help/same.page").read_bytes()) == [
        ("desc", "Ignore quickly-repeated key presses."),
        ("title", "Turn on bounce keys"),
        ("p", "Turn on bounce keys to ignore key presses that are rapidly repeated."),
        ("p", "Open the Activities overview."),
        ("title", "Tip"),
        ("p", "Use the icon."),
    ]


def test_gnome_pairs_only_pages_with_the_same_block_structure(tmp_path):
    en, ko = write_gnome(tmp_path)
    pairs = list(gnome.page_pairs(en, ko))
    assert {where.split("#")[0] for *_, where in pairs} == {"gnome-help/same.page"}
    assert [(e, k) for e, k, _ in pairs] == [
        ("Ignore quickly-repeated key presses.", "동일 키를 빠르게 반복하는 키 누름을 무시합니다."),
        ("Turn on bounce keys", "탄력키 켜기"),
        ("Turn on bounce keys to ignore key presses that are rapidly repeated.",
         "빨리 반복하는 키 누름을 무시하려면 탄력 키를 켭니다."),
        ("Open the Activities overview.", "현재 활동 개요를 엽니다."),
        ("Tip", "팁"),
        ("Use the icon.", "아이콘을 사용합니다."),
    ]


# -- filters ------------------------------------------------------------------------

def test_hangul_filter():
    assert docs.translated("Save", "저장", docs.KOREAN)
    assert not docs.translated("Gothic", "Gothic", docs.KOREAN)              # fallback to English
    assert not docs.translated("Version 2", "Version 2.0", docs.KOREAN)      # no Hangul


def test_german_filter_needs_only_a_different_text():
    assert docs.translated("Save", "Speichern", docs.GERMAN)
    assert docs.translated("Version 2", "Version 2.0", docs.GERMAN)
    assert not docs.translated("Gothic", "Gothic", docs.GERMAN)              # fallback to English


@pytest.mark.parametrize("en, de, reason", [
    ("Saves the current settings and continues to the next page.",
     "Speichert die aktuellen Einstellungen und fährt mit der nächsten Seite fort.", None),
    ("Saves the current settings and continues to the next page.", "Speichert die Einstellungen.", "length"),
    ("Saves the current settings and continues to the next page.",
     "Speichert die aktuellen Einstellungen und fährt mit der nächsten Seite fort. Auf der letzten Seite "
     "ist diese Schaltfläche nicht verfügbar, dann klicken Sie auf Fertigstellen.", "length"),
    ("Hold down Ctrl when you drag.", "Halten Sie beim Ziehen die Taste Alt gedrückt.", "key"),
])
def test_german_stale_translation_watch(en, de, reason):
    """German runs longer than English (1st-99th percentile 0.75-1.85 of its characters), Korean shorter."""
    assert docs.stale(en, de, docs.GERMAN) == reason


@pytest.mark.parametrize("en, ko", [
    ("Delete %1 rows?", "%1개 행을 삭제하시겠습니까?"), ("File %s not found.", "%s 파일을 찾을 수 없습니다."),
    ("Cannot open $(ARG1).", "$(ARG1)을 열 수 없습니다."), ("Value {0} is too large.", "값 {0}이 너무 큽니다."),
    ("Restart %PRODUCTNAME now.", "지금 다시 시작합니다."), ("Column $1", "$1 열"),
])
def test_placeholders_are_dropped(en, ko):
    assert docs.has_placeholder(en, ko)


def test_no_placeholder_in_plain_text():
    assert not docs.has_placeholder("Select 50% of the cells.", "셀의 50%를 선택합니다.")


def test_full_width_punctuation_becomes_ascii():
    assert "입력／출력：　（값）".translate(docs.FULL_WIDTH) == "입력/출력: (값)"


@pytest.mark.parametrize("en, kind", [
    ("Select the cell and press Enter.", "sentence"), ("Turn on bounce keys", "phrase"),
    ("Save", "phrase"), ("Click the Borders icon on the Table toolbar", "sentence"),
    ("What is GNOME Classic?", "sentence"), ("Yes.", "phrase"),
    ("View - Database Objects - Queries", "phrase"), ("Choose View - Database Objects - Queries.", "sentence"),
])
def test_kind(en, kind):
    assert docs.kind(en) == kind


@pytest.mark.parametrize("en, ko, reason", [
    ("=BETA.DIST(2;8;10;0;1;3) returns 1.4837646", "=BETADIST(0.75;3;4)는 0.96을 반환합니다.", "number"),
    ("If C is 0, WEIBULL.DIST calculates the density.", "C가 0이면 WEIBULL은 밀도를 계산합니다.", "function"),
    ("Hold down Ctrl when you drag.", "끌 때 Alt 키를 누릅니다.", "key"),
    ("See http://www.example.com/a.html.", "http://www.example.com/b.html 을 보십시오.", "url"),
    ("Choose Insert - Header and Footer - Header - All.", "삽입 - 머리글 - 모두를 선택합니다.", "menu_path"),
    ("Saves the current settings and continues to the next page.",
     "현재 설정을 저장하여 다음 페이지로 계속 진행합니다. 마지막 페이지가 되면 이 버튼을 사용할 수 없습니다.", "length"),
    ("Choose Table - Convert - Text to Table.", "표 - 변환 - 텍스트를 표로를 선택합니다.", None),
    ("Line Spacing: 1.5", "행 간격: 1,5", None),
    ("Press Ctrl+A on 2005-05-01.", "2005-5-1에 Ctrl+A 키를 누릅니다.", None),
])
def test_stale_translation_watch(en, ko, reason):
    assert docs.stale(en, ko, docs.KOREAN) == reason


def test_build_counts_every_step():
    raw = {"lo-ui": [("Save", "저장", "a"), ("Gothic", "Gothic", "b"), ("Delete %1 rows?", "%1개 행을 삭제할까요?", "c"),
                     ("Select the cell and press Enter.", "셀을 선택하고 Enter 키를 누릅니다.", "d"),
                     ("Hold down Ctrl when you drag.", "끌 때 Alt 키를 누릅니다.", "e")],
           "gnome": [("Open the Activities overview.", "현재 활동 개요를 엽니다．", "f")]}
    pairs, counts = docs.build(raw, docs.KOREAN)
    assert [(p.src, p.tgt, p.kind) for p in pairs] == [
        ("Save", "저장", "phrase"), ("Select the cell and press Enter.", "셀을 선택하고 Enter 키를 누릅니다.", "sentence"),
        ("Open the Activities overview.", "현재 활동 개요를 엽니다.", "sentence")]
    assert counts["lo-ui"] == {"aligned": 5, "translated": 4, "no_placeholders": 3, "stale_number": 0, "stale_url": 0,
                               "stale_key": 1, "stale_function": 0, "stale_menu_path": 0, "stale_length": 0,
                               "not_stale": 2, "not_stale_distinct": 2, "sentences": 1, "phrases": 1}
    assert counts["gnome"]["sentences"] == 1


def test_debian_license_reads_the_files_star_stanza():
    text = ("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
            "Upstream-Name: gnome-user-docs\n\nFiles: *\nCopyright: 2010 Shaun McCance\n"
            "License: CC-BY-SA-3.0\n\nFiles: debian/*\nLicense: GPL-2+\n\nLicense: CC-BY-SA-3.0\n Creative Commons …\n")
    assert docs.debian_license(text) == "CC-BY-SA-3.0"


# -- the whole subcommand, on .deb packages built here -------------------------------

CONTROL = "Package: {name}\nVersion: {version}\nArchitecture: all\nMaintainer: Test <t@example.org>\nDescription: test\n"
COPYRIGHT = ("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n"
             "Files: *\nCopyright: someone\nLicense: {}\n")
N_SENTENCES = 60


def build_deb(tree: Path, name: str, licence: str, cache: Path) -> None:
    (tree / "DEBIAN").mkdir(parents=True, exist_ok=True)
    (tree / "DEBIAN/control").write_text(CONTROL.format(name=name, version="1:1.0-1"))
    doc = tree / "usr/share/doc" / name
    doc.mkdir(parents=True, exist_ok=True)
    (doc / "copyright").write_text(COPYRIGHT.format(licence))
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(tree),
                    str(cache / f"{name}_1%3a1.0-1_all.deb")], check=True, capture_output=True)


@pytest.fixture
def deb_cache(tmp_path) -> Path:
    """A cache folder holding the four packages, as `apt-get download` would leave them."""
    if not shutil.which("dpkg-deb"):
        pytest.skip("needs dpkg-deb")
    cache, trees = tmp_path / "cache", tmp_path / "trees"
    cache.mkdir()
    help_dir = "usr/share/libreoffice/help"
    paragraphs = "".join(f'<p id="par_id{i}">{{{i}}}</p>' for i in range(N_SENTENCES + 2))
    page = f'<html><body><h1 id="hd_id1">{{title}}</h1>{paragraphs}</body></html>'
    en = [f"Select cell A{i} and press Enter." for i in range(N_SENTENCES)]
    ko = [f"셀 A{i}을(를) 선택하고 Enter 키를 누릅니다." for i in range(N_SENTENCES)]
    en += ["This paragraph is not translated yet.", "Type 12 in the cell B7 and press Tab."]
    ko += ["This paragraph is not translated yet.", "셀에 숫자를 입력하고 Tab 키를 누릅니다."]   # fallback; stale
    for lang, texts, title in (("en-US", en, "Cells"), ("ko", ko, "셀")):
        for name in ("a.html", "b.html"):     # the same paragraphs on two pages: duplicates
            path = trees / f"libreoffice-help-{lang.lower()}" / help_dir / lang / "text/scalc" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(page.format(*texts, title=title), encoding="utf-8")
    write_mo(trees / "libreoffice-l10n-ko/usr/lib/libreoffice/program/resource/ko/LC_MESSAGES/sc.mo", UI)
    write_gnome(trees / "gnome-user-docs/usr/share")
    for name, licence in (("libreoffice-help-en-us", "MPL-2.0"), ("libreoffice-help-ko", "MPL-2.0"),
                          ("libreoffice-l10n-ko", "MPL-2.0"), ("gnome-user-docs", "CC-BY-SA-3.0")):
        build_deb(trees / name, name, licence, cache)
    return cache


def test_ko_docs_subcommand(deb_cache, tmp_path):
    outs = [tmp_path / "out1", tmp_path / "out2"]
    for out in outs:
        args = ["ko-docs", "--cache", str(deb_cache), "--out", str(out), "--vocab-size", "120", "--phrases", "all"]
        assert data.main(args) == 0
    files = sorted(p.name for p in outs[0].iterdir())
    assert files == ["manifest.json", "spm.model", "test.en", "test.ko", "train.en", "train.ko", "valid.en", "valid.ko"]
    for name in files:
        if name not in ("manifest.json", "spm.model"):
            assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name   # deterministic

    def lines(name):
        return (outs[0] / name).read_text(encoding="utf-8").splitlines()

    train, held = set(lines("train.en")), lines("test.en") + lines("valid.en")
    assert held and not train & set(held)                                 # never seen in training
    assert len(held) == len(set(held)) and "Save" not in held                 # sentences only
    assert len(lines("train.en")) == len(set(zip(lines("train.en"), lines("train.ko"), strict=True)))   # deduplicated
    everything = train | set(held)
    assert {"Save", "Turn on bounce keys", "Ignore quickly-repeated key presses."} < everything  # all sources
    assert not {"This paragraph is not translated yet.", "Type 12 in the cell B7 and press Tab."} & everything
    manifest = json.loads((outs[0] / "manifest.json").read_text(encoding="utf-8"))
    source = manifest["source"]
    assert source["licence"] == ("MPL-2.0 (libreoffice-help-en-us, libreoffice-help-ko, libreoffice-l10n-ko); "
                                 "CC-BY-SA-3.0 (gnome-user-docs)")
    deb = deb_cache / "gnome-user-docs_1%3a1.0-1_all.deb"
    assert {"package": "gnome-user-docs", "version": "1:1.0-1", "deb": deb.name,
            "deb_sha256": hashlib.sha256(deb.read_bytes()).hexdigest(), "licence": "CC-BY-SA-3.0"} in source["packages"]
    counts = manifest["counts"]
    assert counts["stale_number"] == 2 and counts["dropped_duplicate"] >= N_SENTENCES
    assert source["counts_by_source"]["lo-help"]["translated"] == 2 * (N_SENTENCES + 2)


def test_de_docs_reads_the_german_packages(tmp_path):
    """de-docs: the same three sources from the German packages, English -> German."""
    cache, trees = tmp_path / "cache", tmp_path / "trees"
    cache.mkdir()
    help_dir = "usr/share/libreoffice/help"
    for lang, text in (("en-US", "Select the cell and press Enter."),
                       ("de", "Wählen Sie die Zelle aus und drücken Sie die Eingabetaste.")):
        path = trees / f"libreoffice-help-{lang.lower()}" / help_dir / lang / "text/a.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'<html><body><p id="par_id1">{text}</p></body></html>', encoding="utf-8")
    write_mo(trees / "libreoffice-l10n-de/usr/lib/libreoffice/program/resource/de/LC_MESSAGES/sc.mo",
             {"": "Content-Type: text/plain; charset=UTF-8\n", "STR_SAVE\x04~Save": "~Speichern"})
    for name in ("libreoffice-help-en-us", "libreoffice-help-de", "libreoffice-l10n-de"):
        build_deb(trees / name, name, "MPL-2.0", cache)
    args = data.parser().parse_args(["de-docs", "--cache", str(cache), "--out", str(tmp_path / "out"),
                                     "--sources", "lo-help", "lo-ui"])
    corpus = data.SOURCES["de-docs"].load(args)
    assert (corpus.src_lang, corpus.tgt_lang) == ("en", "de")
    assert {(p.src, p.tgt, p.kind) for p in corpus.pairs} == {
        ("Select the cell and press Enter.", "Wählen Sie die Zelle aus und drücken Sie die Eingabetaste.", "sentence"),
        ("Save", "Speichern", "phrase")}
    assert corpus.meta["name"] == "de-docs"
    assert corpus.meta["licence"] == "MPL-2.0 (libreoffice-help-en-us, libreoffice-help-de, libreoffice-l10n-de)"


def test_docs_defaults_stay_out_of_the_other_sources():
    """ko-docs and de-docs set --max-words 40 and --max-ratio 3.0; ding keeps the shared defaults."""
    for name in ("ko-docs", "de-docs"):
        docs_args = data.parser().parse_args([name, "--out", "x"])
        assert (docs_args.max_words, docs_args.max_ratio) == (40, 3.0)
    ding = data.parser().parse_args(["ding", "--out", "x"])
    assert (ding.max_words, ding.max_ratio) == (60, 2.5)
