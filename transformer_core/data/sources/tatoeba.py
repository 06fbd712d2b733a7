"""Tatoeba (CC BY 2.0 FR): short everyday sentences written and translated by people, en -> ko or en -> de.

The files are the tab-separated exports of manythings.org/anki (English, translation and, in the Korean
file, each pair's Tatoeba attribution), committed under corpora/tatoeba/ with their source and licence
(corpora/tatoeba/README.md): nothing is downloaded.  One English sentence often has several
translations; all train, while valid and test take one per English sentence (data.py's split), so the
test split shares no English sentence with training.

English–Korean has a second file: LASER's Tatoeba test set (corpora/tatoeba/tatoeba.kor-eng.{eng,kor}, 1,000
line-aligned pairs of 2018), 828 of whose English sentences kor.txt lacks.  Its pairs train only
(``evaluable=False``), so that valid and test stay the sentences they were before it came.

Korean is written by many people in many registers, half of it casual (반말: "자고 있어?", "문제야.").
``--register lecture`` (the default) rewrites casual endings in the lectures' style, the generator's:
statements in 한다체, questions and requests in 해요체 (classroom/korean.py's lecture_style); other endings
stay as written.  The manifest counts the pairs it changed.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..classroom.korean import lecture_style
from . import Corpus, DataError, Pair, sha256

FOLDER = Path(__file__).resolve().parents[3] / "corpora" / "tatoeba"
FILES = {"ko": "kor.txt", "de": "deu.txt"}
LASER = {"ko": "tatoeba.kor-eng"}       # + ".eng" and ".kor": line-aligned, no attribution per pair
LASER_ATTRIBUTION = ("CC-BY 2.0 (France) Attribution: tatoeba.org, the Tatoeba contributors (LASER's Tatoeba "
                     "test set of 2018-11-17, which gives no sentence numbers)")
LICENCE = "CC-BY-2.0-FR (Tatoeba contributors, tatoeba.org; exported by manythings.org/anki)"
HEADER = ("1", "2")                     # deu.txt's first line names its columns by number
REGISTERS = {"lecture": "lecture: casual endings in 한다체 (statements) and 해요체 (questions, requests)",
             "as-written": "as-written"}


def add_arguments(parser) -> None:
    parser.add_argument("--pair", choices=[f"en-{lang}" for lang in FILES], required=True, help="language pair")
    parser.add_argument("--file", type=Path, help="read this manythings file instead of corpora/tatoeba/'s")
    parser.add_argument("--register", choices=list(REGISTERS), default="lecture",
                        help="Korean only: casual endings in the lectures' style (한다체 statements, 해요체 questions "
                             "and requests), or every sentence as its translator wrote it (default: lecture)")
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


def read_laser(stem: Path) -> list[Pair]:
    """LASER's line-aligned pair of files, STEM.eng and STEM.kor: pairs that train only."""
    try:
        english, korean = (Path(f"{stem}{suffix}").read_text(encoding="utf-8").splitlines()
                           for suffix in (".eng", ".kor"))
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"{stem}.eng/.kor: {err}") from None
    if len(english) != len(korean):
        raise DataError(f"{stem}.eng has {len(english)} lines and {stem}.kor {len(korean)}: they must align")
    return [Pair(en, ko, evaluable=False, attribution=LASER_ATTRIBUTION) for en, ko in zip(english, korean, strict=False)]


def load(args) -> Corpus:
    src_lang, tgt_lang = args.pair.split("-")
    path = args.file or FOLDER / FILES[tgt_lang]
    pairs = read_pairs(path)
    laser = [] if args.file or tgt_lang not in LASER else read_laser(FOLDER / LASER[tgt_lang])
    counts = {"raw_pairs": len(pairs), "laser_pairs": len(laser)} if laser else {"raw_pairs": len(pairs)}
    pairs += laser          # after kor.txt: a pair in both is kept once, as kor.txt's, which may judge
    counts["attributed_pairs"] = sum(bool(p.attribution) for p in pairs)
    if tgt_lang == "ko" and args.register == "lecture":
        restyled = [replace(p, tgt=lecture_style(p.tgt, p.src)) for p in pairs]
        counts["register_changed"] = sum(new.tgt != old.tgt for new, old in zip(restyled, pairs, strict=False))
        pairs = restyled
    meta = {
        "name": "tatoeba",
        "description": "Tatoeba's everyday sentences, written and translated by people (manythings.org export)",
        "domain": "everyday conversation: short statements, questions and requests",
        "licence": LICENCE,
        "file": str(path.relative_to(FOLDER.parents[1]) if path.is_relative_to(FOLDER.parents[1]) else path),
        "sha256": sha256(path),
        **({"laser_files": {name: sha256(FOLDER / name) for name in (f"{LASER[tgt_lang]}.eng", f"{LASER[tgt_lang]}.kor")},
            "laser_source": "github.com/facebookresearch/LASER, data/tatoeba/v1, commit "
                            "74bc6ae7ffb7cba670fe0f428d0ede9f666fb821: pairs that train only"} if laser else {}),
        "register": REGISTERS[args.register if tgt_lang == "ko" else "as-written"],
        "attribution": ("each pair's Tatoeba sentence numbers and authors: {split}.attribution"
                        if counts["attributed_pairs"]
                        else "this export carries no per-pair attribution; see corpora/tatoeba/README.md"),
    }
    return Corpus(src_lang, tgt_lang, pairs, meta, counts)
