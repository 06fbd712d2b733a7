"""Ding, the German-English dictionary of TU Chemnitz (GPL-2+), from Debian's trans-de-en package.

The package is downloaded with `apt-get download` and unpacked with `dpkg -x` into the cache
folder; nothing is installed.  usr/share/trans/de-en has one entry per line, German left:

    Apfel {m} [bot.] | Äpfel {pl} | Wir haben ein paar Äpfel. :: apple | apples | We’ve got some apples.

' | ' separates aligned sub-entries, ';' synonyms, '/' alternative words ("sheer/pure").
Stripped: {m} {pl} {vt} grammar, [Br.] [coll.] labels, (jdn.) (on a menu) optional or explanatory
words, <Aalmolch> search keys, /Bhf./ abbreviations.  Synonyms are paired in order, as far as
the shorter side goes; of alternatives only the first is kept.
A pair is a sentence when both sides start upper-case and end in . ! or ?, the English side has
at least 3 words, and there is no sb./etw. slot or … gap; sentences with a '/' (alternatives,
cut or not) are kept for training only.  Everything else is a phrase.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from . import Corpus, DataError, Pair, sha256

PACKAGE = "trans-de-en"
DICT_FILE = "usr/share/trans/de-en"
LICENCE = "GPL-2+"
DESCRIPTION = "Ding German-English dictionary (Frank Richter, TU Chemnitz), example sentences and phrases"
URL = "https://dict.tu-chemnitz.de/"
DOMAIN = ("a dictionary's example sentences: short, everyday and often idiomatic English with German "
          "renderings (\"Where are you bound for?\" / \"Wohin sind Sie unterwegs?\").")

COUNTS = ("raw_lines", "comment_or_blank_lines", "malformed_lines", "entries", "sub_entries",
          "sub_entries_empty_after_cleaning", "sentences", "sentences_train_only", "phrases")

_ABBREVIATION = re.compile(r"(?<!\S)/[^/\s][^/]*/(?!\S)")                # /Bhf./  /PM10/
_TAG = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]|<[^<>]*>")                    # {m}  [coll.]  <Aalmolch>
_PARENS = re.compile(r"\([^()]*\)")                                       # (jdn.), innermost first
_LEFTOVER = re.compile(r"[()\[\]{}<>]")                                   # an unbalanced bracket
_SPACE_BEFORE_PUNCT = re.compile(r"\s+(?=[.,!?:])")
_SENTENCE_ALTERNATIVE = re.compile(r"(?<=[.!?])\s*/.*$")                  # "Hör auf! / Lass das!"
_WORD_ALTERNATIVE = re.compile(r"(?<=[^\W\d_])(?:\s?/\s?[^\W\d_][\w'’-]+)+")  # "sheer/pure" -> "sheer"
_PLACEHOLDER = re.compile(r"\b(?:sb|sth|jd|jdm|jdn|jds|etw)\.|\b(?:sb|sth)['’]s\b")
_SENTENCE_END = re.compile(r"[.!?][\"'’”“]?$")


def add_arguments(parser) -> None:
    parser.add_argument("--cache", type=Path, default=Path("data/cache/ding"),
                        help="where the .deb is downloaded and unpacked (default: %(default)s)")
    parser.add_argument("--deb", type=Path, help=f"use this {PACKAGE} .deb instead of downloading it")
    parser.add_argument("--dict", type=Path, help="use this Ding dictionary file (de-en) directly, without apt or dpkg")


def load(args) -> Corpus:
    if args.dict:
        path, meta = args.dict, {}
    else:
        path, meta = fetch(args.cache, args.deb)
    pairs, counts, header = read(path)
    meta = {"name": "ding", "description": DESCRIPTION, "domain": DOMAIN, "licence": LICENCE, "url": URL, **meta,
            "dict_file": DICT_FILE if not args.dict else str(path), "dict_sha256": sha256(path),
            "dict_header": header}
    return Corpus("en", "de", pairs, meta, counts)


def fetch(cache: Path, deb: Path | None = None) -> tuple[Path, dict]:
    """Download (unless given or cached) and unpack the .deb -> (dictionary file, manifest fields)."""
    cache.mkdir(parents=True, exist_ok=True)
    if deb is None:
        if not list(cache.glob(f"{PACKAGE}_*.deb")):
            _run(["apt-get", "download", PACKAGE], cwd=cache)
        deb = max(cache.glob(f"{PACKAGE}_*.deb"), key=lambda p: p.stat().st_mtime)
    if not deb.is_file():
        raise DataError(f"{deb}: no such file")
    version = _run(["dpkg-deb", "-f", str(deb), "Version"]).strip()
    unpacked = cache / f"{PACKAGE}_{version}"
    if not unpacked.is_dir():
        partial = cache / f"{PACKAGE}_{version}.partial"  # renamed once complete
        shutil.rmtree(partial, ignore_errors=True)
        _run(["dpkg", "-x", str(deb), str(partial)])
        partial.rename(unpacked)
    if not (unpacked / DICT_FILE).is_file():
        raise DataError(f"{deb} has no {DICT_FILE}")
    return unpacked / DICT_FILE, {"package": PACKAGE, "version": version, "deb": deb.name, "deb_sha256": sha256(deb)}


def _run(cmd: list[str], cwd: Path | None = None) -> str:
    if shutil.which(cmd[0]) is None:
        raise DataError(f"{cmd[0]} not found: the ding source needs Debian's tools. Download "
                        f"{PACKAGE}_*.deb from https://packages.debian.org/{PACKAGE} and pass --deb "
                        f"(needs dpkg), or pass the dictionary file itself with --dict")
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise DataError(f"'{' '.join(cmd)}' failed:\n{done.stderr.strip()}")
    return done.stdout


def read(path: Path) -> tuple[list[Pair], dict, list[str]]:
    """The dictionary file -> (en -> de pairs, counts, header comment lines)."""
    counts = Counter(dict.fromkeys(COUNTS, 0))
    pairs, header = [], []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                counts["raw_lines"] += 1
                line = line.rstrip("\r\n")
                if line.startswith("#") or not line.strip():
                    counts["comment_or_blank_lines"] += 1
                    header += [line.lstrip("# ")] if line.strip() else []
                    continue
                for pair in parse_line(line, counts):
                    counts[pair.kind + "s"] += 1
                    counts["sentences_train_only"] += not pair.evaluable
                    pairs.append(pair)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except UnicodeDecodeError as err:
        raise DataError(f"{path} is not UTF-8 text (line {counts['raw_lines']}: {err.reason})") from None
    if not counts["entries"]:
        raise DataError(f"{path} has no 'German :: English' lines: is it a Ding dictionary?")
    return pairs, dict(counts), header


def parse_line(line: str, counts: Counter) -> list[Pair]:
    """'de | de … :: en | en …' -> the cleaned pairs of its sub-entries."""
    sides = line.split(" :: ")
    subs = [side.split(" | ") for side in sides]
    if len(sides) != 2 or len(subs[0]) != len(subs[1]):
        counts["malformed_lines"] += 1
        return []
    counts["entries"] += 1
    pairs = []
    for de, en in zip(*subs, strict=False):
        counts["sub_entries"] += 1
        de_synonyms, en_synonyms = synonyms(de), synonyms(en)
        if not de_synonyms or not en_synonyms:
            counts["sub_entries_empty_after_cleaning"] += 1
        pairs += [make_pair(e, d) for d, e in zip(de_synonyms, en_synonyms, strict=False)]
    return pairs


def synonyms(side: str) -> list[str]:
    """One side of a sub-entry -> its synonyms, tags stripped.  'Aal {m}; Flussaal {m} [zool.]' -> ['Aal', 'Flussaal']."""
    text = _TAG.sub(" ", _ABBREVIATION.sub(" ", side))
    n = 1
    while n:
        text, n = _PARENS.subn(" ", text)
    cleaned = (_SPACE_BEFORE_PUNCT.sub("", " ".join(s.split())) for s in text.split(";"))
    return [s for s in cleaned if s and not _LEFTOVER.search(s)]


def first_alternative(text: str) -> str:
    """'It was sheer/pure chance. / It was luck.' -> 'It was sheer chance.'"""
    return _WORD_ALTERNATIVE.sub("", _SENTENCE_ALTERNATIVE.sub("", text))


def is_sentence(en: str, de: str) -> bool:
    """Both sides start upper-case and end in . ! ?; English has >= 3 words; no sb./etw. slot or … gap."""
    for text in (en, de):
        first = text.lstrip("\"'„“‚‘")[:1]
        if not (first.isupper() or first.isdigit()) or not _SENTENCE_END.search(text):
            return False
        if _PLACEHOLDER.search(text) or "…" in text or "..." in text:
            return False
    return len(en.split()) >= 3


def make_pair(en: str, de: str) -> Pair:
    en_first, de_first = first_alternative(en), first_alternative(de)
    if is_sentence(en_first, de_first):
        return Pair(en_first, de_first, "sentence", evaluable="/" not in en + de)
    return Pair(en_first, de_first, "phrase")
