"""Where parallel text comes from: one module per source, registered in transformer_core/data/build.py.

A source module has
    add_arguments(parser)       its own command-line options (argparse)
    load(args) -> Corpus        the raw pairs, oriented src -> tgt, plus what the manifest records
and raises DataError, with a message meant for the user, when it cannot.
Cleaning, deduplication, splitting and writing are shared, in data.py.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path


class DataError(Exception):
    """A problem with the input data, reported to the user without a traceback."""


@dataclass(frozen=True)
class Pair:
    src: str
    tgt: str
    kind: str = "sentence"   # "sentence" or "phrase"; only sentences go to valid/test
    evaluable: bool = True   # False: a sentence fit for training but not clean enough for valid/test
    split: str | None = None  # set by a source that splits itself (classroom): "train", "valid" or "test"
    align: str = ""          # gold word alignment, Pharaoh format ("0-0 1-2"), when the source knows it
    frame: str = ""          # the generating frame (classroom)
    attribution: str = ""    # who wrote and translated it, when the source says (Tatoeba)


@dataclass
class Corpus:
    src_lang: str
    tgt_lang: str
    pairs: list[Pair]
    meta: dict = field(default_factory=dict)    # manifest["source"]: name, licence, versions, checksums
    counts: dict = field(default_factory=dict)  # manifest["counts"]: what the source itself read and dropped
    held_out: set[str] = field(default_factory=set)  # English sentences (lower-cased) no training pair may have


def sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
