"""English -> Korean or German from the software documentation that Debian ships.

Three sources per language, each fetched with `apt-get download` and unpacked with
`dpkg -x` into a cache (nothing is installed):
  lo-help  LibreOffice help pages, en-US and ko/de, aligned by (page, paragraph id)
  lo-ui    LibreOffice UI catalogues (.mo), English msgid -> translated msgstr
  gnome    GNOME user documentation, Mallard pages aligned block by block
The extractors return plain text: markup, inline tags and mnemonics are gone.
Two data.py sources share this module: ko-docs (en -> ko) and de-docs (en -> de).

Filters here, in order, each counted for the manifest:
  translated       the translation differs from the English and, for Korean, contains
                   Hangul (untranslated help paragraphs fall back to English)
  no_placeholders  no %s, %1, $(ARG1), {0}, %PRODUCTNAME … on either side
  not_stale        an English paragraph updated next to an old translation: a number,
                   URL, key name, function name or menu step of the English missing
                   from the translation, or, for longer text, a length ratio outside
                   the language's stale_ratio
Full-width punctuation becomes ASCII.  A pair is a "sentence" when the English has
at least 3 words and ends like a sentence or has 6 or more words; UI labels, headings
and bare menu paths are "phrase"s, which train only with --phrases.
data.py then normalizes (tokenizer.normalize), drops pairs over --max-words
(40 here) and with a character-length ratio over --max-ratio (3.0 here: a Korean
syllable block carries about two Latin letters' worth of text), deduplicates and splits.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import Corpus, DataError, Pair, gnome, libreoffice, sha256


@dataclass(frozen=True)
class Language:
    """What differs between the Korean and the German documentation."""
    name: str                    # the data.py source
    lang: str                    # the translation's language code
    description: str
    domain: str
    sources: dict                # source -> (the folders it reads, as (Debian package, path inside it), extractor)
    script: re.Pattern | None    # a translated paragraph contains this script (None: differing is enough)
    stale_ratio: tuple[float, float]   # translated / English characters a current translation keeps to


def _sources(lang: str) -> dict:
    return {
        "lo-help": ((("libreoffice-help-en-us", "usr/share/libreoffice/help/en-US"),
                     (f"libreoffice-help-{lang}", f"usr/share/libreoffice/help/{lang}")),
                    libreoffice.help_pairs),
        "lo-ui": (((f"libreoffice-l10n-{lang}", f"usr/lib/libreoffice/program/resource/{lang}/LC_MESSAGES"),),
                  libreoffice.ui_pairs),
        "gnome": ((("gnome-user-docs", "usr/share/help/C"), ("gnome-user-docs", f"usr/share/help/{lang}")),
                  gnome.page_pairs),
    }


KOREAN = Language(
    "ko-docs", "ko", "LibreOffice help and UI, GNOME user docs: English and Korean, from Debian packages",
    "software documentation: LibreOffice help pages and menus, GNOME desktop help. The model speaks manual "
    "language (\"Select the cell and press Enter.\"), not everyday Korean.",
    _sources("ko"),
    re.compile("[\uac00-\ud7a3]"),
    (0.2, 1.0))       # the 1st-99th percentile is about 0.25-1.0 (from about STALE_WORDS English words on)
GERMAN = Language(
    "de-docs", "de", "LibreOffice help and UI, GNOME user docs: English and German, from Debian packages",
    "software documentation: LibreOffice help pages and menus, GNOME desktop help (\"Wählen Sie die Zelle aus "
    "und drücken Sie die Eingabetaste.\"): formal Sie, manual language.",
    _sources("de"),
    None,
    (0.7, 1.9))       # the 1st-99th percentile is about 0.75-1.85
PLACEHOLDER = re.compile(r"%[A-Za-z_]+|%\d|\$\(\w+\)|\$\d|\$\w+\$|\$[A-Z]{2,}|#\d|\{\w*\}")
FULL_WIDTH = str.maketrans({**{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}, "\u3000": " "})
SENTENCE_END = (".", "!", "?", ":")
MIN_WORDS, SENTENCE_WORDS = 3, 6
STALE_WORDS = 6
STALE_REASONS = ("number", "url", "key", "function", "menu_path", "length")

# What a translation carries over unchanged, so a translation without it is out of date.
NUMBER = re.compile(r"\d+")
URL = re.compile(r"(?:https?://|www\.)[^\s\"'<>()]+[^\s\"'<>().,;:]")
KEY = re.compile(r"\b(?:Ctrl|Alt|Cmd|Esc|Backspace|F\d{1,2})\b")
FUNCTION = re.compile(r"\b[A-Z][A-Z0-9]*(?:\.[A-Z0-9]+)+\b|\b[A-Z][A-Z0-9]+(?=\()")  # BINOM.DIST, SUM(
MENU_STEP_EN = re.compile(r"\s[-–]\s")    # Tools - Options - View
MENU_STEP_TR = re.compile(r"\s?[-–>→]\s?")


# -- fetching ----------------------------------------------------------------

def fetch(package: str, cache: Path) -> tuple[Path, dict]:
    """The unpacked package folder and its manifest entry.  The .deb is downloaded
    once into `cache` (`apt-get download`) and reused after that."""
    cache.mkdir(parents=True, exist_ok=True)
    debs = sorted(cache.glob(f"{package}_*.deb"))
    if not debs:
        run(["apt-get", "download", package], cwd=cache)
        debs = sorted(cache.glob(f"{package}_*.deb"))
    if len(debs) != 1:
        raise DataError(f"expected one {package}_*.deb in {cache}, found {len(debs)}: remove the old ones")
    deb = debs[0]
    root = cache / deb.stem
    if not root.is_dir():
        partial = cache / (deb.stem + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        run(["dpkg", "-x", str(deb), str(partial)])
        partial.rename(root)
    copyright = root / "usr/share/doc" / package / "copyright"
    return root, {"package": package,
                  "version": run(["dpkg-deb", "-f", str(deb), "Version"]).strip(),
                  "deb": deb.name, "deb_sha256": sha256(deb),
                  "licence": debian_license(copyright.read_text(encoding="utf-8"))}


def run(cmd: list[str], cwd: Path | None = None) -> str:
    try:
        return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise DataError(f"'{cmd[0]}' not found: this source needs Debian's apt and dpkg") from None
    except subprocess.CalledProcessError as err:
        raise DataError(f"{' '.join(cmd)} failed: {err.stderr.strip()}") from None


def debian_license(copyright: str) -> str:
    """The License of the 'Files: *' stanza of a machine-readable debian/copyright."""
    for stanza in re.split(r"\n\s*\n", copyright):
        fields = dict(re.findall(r"^([\w-]+):[ \t]*(.*)$", stanza, flags=re.M))
        if fields.get("Files", "").split() == ["*"] and "License" in fields:
            return fields["License"]
    return "unknown (see the package's copyright file)"


# -- filters -----------------------------------------------------------------

def translated(en: str, tr: str, language: Language) -> bool:
    return tr != en and (language.script is None or bool(language.script.search(tr)))


def has_placeholder(en: str, tr: str) -> bool:
    return bool(PLACEHOLDER.search(en) or PLACEHOLDER.search(tr))


def kind(en: str) -> str:
    """"sentence", or "phrase" for a UI label, a heading or a bare menu path."""
    n = sum(any(c.isalnum() for c in word) for word in en.split())   # '-' in a menu path is no word
    return "sentence" if n >= MIN_WORDS and (en.endswith(SENTENCE_END) or n >= SENTENCE_WORDS) else "phrase"


def stale(en: str, tr: str, language: Language) -> str | None:
    """Why the translation looks older than the English, or None."""
    numbers = {n.lstrip("0") or "0" for n in NUMBER.findall(tr)}
    if any((n.lstrip("0") or "0") not in numbers for n in NUMBER.findall(en)):
        return "number"
    for name, pattern in (("url", URL), ("key", KEY), ("function", FUNCTION)):
        if any(token not in tr for token in pattern.findall(en)):
            return name
    if len(MENU_STEP_EN.findall(en)) > len(MENU_STEP_TR.findall(tr)):
        return "menu_path"
    low, high = language.stale_ratio
    if len(en.split()) >= STALE_WORDS and not low <= len(tr) / len(en) <= high:
        return "length"
    return None


def build(raw: dict[str, list[tuple[str, str, str]]], language: Language
          ) -> tuple[list[Pair], dict[str, dict[str, int]]]:
    """Filter each source's (english, translation, where) triples into Pairs.
    Returns the pairs and {source: {step: pairs left after it, or stale_*: pairs it dropped}}."""
    pairs, counts = [], {}
    for source, triples in raw.items():
        n = counts[source] = {"aligned": len(triples)}
        items = [(en, tr) for en, tr, _ in triples if translated(en, tr, language)]
        n["translated"] = len(items)
        items = [(en.translate(FULL_WIDTH), tr.translate(FULL_WIDTH))
                 for en, tr in items if not has_placeholder(en, tr)]
        n["no_placeholders"] = len(items)
        reasons = [stale(en, tr, language) for en, tr in items]
        for reason in STALE_REASONS:
            n[f"stale_{reason}"] = reasons.count(reason)
        items = [item for item, reason in zip(items, reasons, strict=False) if reason is None]
        n["not_stale"] = len(items)
        n["not_stale_distinct"] = len(set(items))
        kinds = [kind(en) for en, _ in items]
        n["sentences"], n["phrases"] = kinds.count("sentence"), kinds.count("phrase")
        pairs += [Pair(en, tr, k) for (en, tr), k in zip(items, kinds, strict=False)]
    return pairs, counts


# -- the data.py subcommands ---------------------------------------------------

class Source:
    """The data.py subcommand of one language (ko-docs, de-docs)."""

    def __init__(self, language: Language):
        self.language = language
        self.__doc__ = f"English -> {language.lang}: {language.description}."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--cache", type=Path, default=Path(f"data/cache/{self.language.name}"),
                            help="where the .deb files are downloaded and unpacked; .deb files already "
                                 "there are used as they are (default: %(default)s)")
        parser.add_argument("--sources", nargs="+", choices=list(self.language.sources),
                            default=list(self.language.sources), help="which sources to read (default: all)")
        parser.set_defaults(max_words=40, max_ratio=3.0)

    def load(self, args) -> Corpus:
        language = self.language
        raw, packages, unpacked = {}, {}, {}
        for source in args.sources:
            folders, extract = language.sources[source]
            for name, _ in folders:
                if name not in packages:
                    unpacked[name], packages[name] = fetch(name, args.cache)
            raw[source] = list(extract(*(unpacked[name] / path for name, path in folders)))
        pairs, by_source = build(raw, language)
        steps = next(iter(by_source.values()))
        counts = {step: sum(n[step] for n in by_source.values()) for step in steps}
        licences = {}
        for package in packages.values():
            licences.setdefault(package["licence"], []).append(package["package"])
        meta = {"name": language.name, "description": language.description, "domain": language.domain,
                "licence": "; ".join(f"{lic} ({', '.join(names)})" for lic, names in licences.items()),
                "packages": list(packages.values()), "counts_by_source": by_source}
        return Corpus("en", language.lang, pairs, meta, counts)


KO_DOCS, DE_DOCS = Source(KOREAN), Source(GERMAN)
