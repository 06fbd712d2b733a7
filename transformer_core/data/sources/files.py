"""Your own corpus: two line-aligned UTF-8 text files, one sentence per line."""
from __future__ import annotations

from pathlib import Path

from . import Corpus, DataError, Pair, sha256


def add_arguments(parser) -> None:
    parser.add_argument("--src", type=Path, required=True, help="source-language file, one sentence per line")
    parser.add_argument("--tgt", type=Path, required=True, help="target-language file, line i translates line i of --src")
    parser.add_argument("--src-lang", required=True, help="language code of --src, e.g. en")
    parser.add_argument("--tgt-lang", required=True, help="language code of --tgt, e.g. de")


def load(args) -> Corpus:
    src, tgt = read_lines(args.src), read_lines(args.tgt)
    if len(src) != len(tgt):
        raise DataError(f"{args.src} has {len(src)} lines but {args.tgt} has {len(tgt)}: "
                        "the files must be line-aligned, one sentence per line")
    meta = {"name": "files", "src_file": str(args.src), "src_sha256": sha256(args.src),
            "tgt_file": str(args.tgt), "tgt_sha256": sha256(args.tgt)}
    return Corpus(args.src_lang, args.tgt_lang, [Pair(s, t) for s, t in zip(src, tgt, strict=False)], meta, {"raw_lines": len(src)})


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 file, split on '\\n' only so that line i stays line i."""
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DataError(f"{path} is not UTF-8 text (byte {err.start}: {err.reason})") from None
    if not text.strip():
        raise DataError(f"{path} is empty")
    return [line.rstrip("\r") for line in text.removesuffix("\n").split("\n")]


def read_split(folder: str | Path, split_name: str, src_lang: str, tgt_lang: str) -> list[tuple[str, str]]:
    """The (src, tgt) pairs of one split of a corpus folder."""
    src_path, tgt_path = (Path(folder) / f"{split_name}.{lang}" for lang in (src_lang, tgt_lang))
    src, tgt = read_lines(src_path), read_lines(tgt_path)
    if len(src) != len(tgt):
        raise DataError(f"{src_path} has {len(src)} lines but {tgt_path} has {len(tgt)}")
    return list(zip(src, tgt, strict=False))
