"""What a model has seen: how often each word of its training source side occurred, so that the app can
say when a translation rests on words the model saw rarely or never (the honest answer to "why did it
say neckties?").  A checkpoint ships them as source_words.json.gz (train.py writes it at the export):

    {"lang": "en", "sentences": N, "words": {"apples": 1234, …}}      gzip-compressed JSON

    python -m transformer_core seen --data data/mixA-enko --checkpoint checkpoints/enko    # (re)write it
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

WORDS = "source_words.json.gz"
MAX_BYTES = 2 << 20                 # the compressed file; its JSON may be at most 8 times larger
RARE = 5                            # seen fewer times than this: rare


def words(text: str) -> list[str]:
    """The words of a sentence as counted: lower-cased, surrounding punctuation stripped, empty ones dropped."""
    out = (w.strip(".,;:!?\"'()[]{}«»“”‘’…-") for w in text.lower().split())
    return [w for w in out if w]


def count(lines) -> Counter:
    return Counter(w for line in lines for w in words(line))


def save(path: Path, lines: list[str], lang: str) -> Path:
    data = {"lang": lang, "sentences": len(lines), "words": dict(sorted(count(lines).items()))}
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
    path.chmod(0o644)
    return path


def load(path: Path) -> dict[str, int]:
    """The word counts in a checkpoint's file, or {} when there is none or it is not well formed (it is
    optional: the notes it feeds are left out)."""
    if not path.is_file() or path.stat().st_size > MAX_BYTES:
        return {}
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            text = f.read(8 * MAX_BYTES + 1)             # a bound on what it inflates to
        if len(text) > 8 * MAX_BYTES:
            return {}
        data = json.loads(text)
    except (OSError, EOFError, ValueError, RecursionError):
        return {}
    counts = data.get("words") if isinstance(data, dict) else None
    if not isinstance(counts, dict) or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts.values()):
        return {}
    return counts


def unfamiliar(counts: dict[str, int], text: str) -> list[tuple[str, int]]:
    """The words of text the model saw fewer than RARE times, with how often, in sentence order."""
    seen = {}
    for w in words(text):
        if counts.get(w, 0) < RARE:
            seen.setdefault(w, counts.get(w, 0))
    return list(seen.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the corpus folder the checkpoint trained on")
    parser.add_argument("--checkpoint", type=Path, required=True)
    args = parser.parse_args(argv)
    manifest = args.data / "manifest.json"
    if not manifest.is_file():
        print(f"error: {manifest}: no such file (a folder from python -m transformer_core data)", file=sys.stderr)
        return 2
    lang = json.loads(manifest.read_text(encoding="utf-8"))["src_lang"]
    train = args.data / f"train.{lang}"
    if not train.is_file():
        print(f"error: {train}: no such file", file=sys.stderr)
        return 2
    lines = train.read_text(encoding="utf-8").splitlines()
    path = save(args.checkpoint / WORDS, lines, lang)
    print(f"{path}: {len(load(path)):,} words of {len(lines):,} sentences, {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
