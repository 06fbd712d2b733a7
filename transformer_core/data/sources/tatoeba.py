"""Tatoeba (CC BY 2.0 FR): short everyday sentences written and translated by people, en -> ko or en -> de.

The files are the tab-separated exports of manythings.org/anki (English, translation and, in the Korean
file, each pair's Tatoeba attribution), committed under corpora/tatoeba/ with their source and licence
(corpora/tatoeba/README.md): nothing is downloaded.  One English sentence often has several
translations; all train, while valid and test take one per English sentence (data.py's split), so the
test split shares no English sentence with training.
"""
from __future__ import annotations

from pathlib import Path

from . import Corpus, DataError, Pair, sha256

FOLDER = Path(__file__).resolve().parents[3] / "corpora" / "tatoeba"
FILES = {"ko": "kor.txt", "de": "deu.txt"}
LICENCE = "CC-BY-2.0-FR (Tatoeba contributors, tatoeba.org; exported by manythings.org/anki)"
HEADER = ("1", "2")                     # deu.txt's first line names its columns by number


def add_arguments(parser) -> None:
    parser.add_argument("--pair", choices=[f"en-{lang}" for lang in FILES], required=True, help="language pair")
    parser.add_argument("--file", type=Path, help="read this manythings file instead of corpora/tatoeba/'s")
    parser.set_defaults(max_words=20, test_size=500, valid_size=300)


def read_pairs(path: Path) -> list[Pair]:
    """English TAB translation [TAB attribution] per line; CRLF, a BOM and the numbered header tolerated."""
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as err:
        raise DataError(f"{path} is not UTF-8 text (byte {err.start}: {err.reason})") from None
    pairs = []
    for number, line in enumerate(lines, 1):
        cells = line.split("\t")
        if not line.strip() or tuple(cells[:2]) == HEADER:
            continue
        if len(cells) not in (2, 3):
            raise DataError(f"{path}:{number}: expected 'English<TAB>translation[<TAB>attribution]', "
                            f"got {len(cells)} columns")
        pairs.append(Pair(cells[0], cells[1], attribution=cells[2] if len(cells) == 3 else ""))
    if not pairs:
        raise DataError(f"{path} holds no sentence pairs")
    return pairs


def load(args) -> Corpus:
    src_lang, tgt_lang = args.pair.split("-")
    path = args.file or FOLDER / FILES[tgt_lang]
    pairs = read_pairs(path)
    attributed = sum(bool(p.attribution) for p in pairs)
    meta = {
        "name": "tatoeba",
        "description": "Tatoeba's everyday sentences, written and translated by people (manythings.org export)",
        "domain": "everyday conversation: short statements, questions and requests",
        "licence": LICENCE,
        "file": str(path.relative_to(FOLDER.parents[1]) if path.is_relative_to(FOLDER.parents[1]) else path),
        "sha256": sha256(path),
        "attribution": ("each pair's Tatoeba sentence numbers and authors: {split}.attribution"
                        if attributed else "this export carries no per-pair attribution; see corpora/tatoeba/README.md"),
    }
    return Corpus(src_lang, tgt_lang, pairs, meta, {"raw_pairs": len(pairs), "attributed_pairs": attributed})
