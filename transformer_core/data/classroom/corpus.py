"""Generate the classroom corpus and split it so that the test measures generalisation, not memory.

- Held out (lexicon/held_out.txt, reviewable): whole frames and a few lemmas never reach train or
  valid.  The test split has sentences of those frames built from training words, and sentences of
  training frames that use the held-out words.
- Valid: training frames and words, sentences not in train.
Every choice is deterministic in (seed, index).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from . import grammar
from .lexicon import FOLDER, Lexicon, core, load, read_ids

HELD_OUT = FOLDER / "held_out.txt"


@dataclass(frozen=True)
class Plan:
    train_frames: tuple[str, ...]
    test_frames: tuple[str, ...]
    held_words: frozenset[str]


def plan(lex: Lexicon | None = None) -> Plan:
    """The frames and lemmas of lexicon/held_out.txt; every id must exist."""
    lex = lex or load()
    ids = read_ids(HELD_OUT)
    frames = tuple(sorted(i.removeprefix("frame:") for i in ids if i.startswith("frame:")))
    words = frozenset(i for i in ids if not i.startswith("frame:"))
    known = {e.id for e in lex.entries()} | {f"frame:{f}" for f in grammar.FRAMES}
    unknown = [f for f in frames if f not in grammar.FRAMES] + sorted(words - known)
    if unknown:
        raise ValueError(f"{HELD_OUT.name} names what the grammar and lexicon do not have: {unknown}")
    wrong = core() - known | core() & (words | {f"frame:{f}" for f in frames})
    if wrong:
        raise ValueError(f"core.txt names what the grammar and lexicon lack or hold out: {sorted(wrong)}")
    return Plan(tuple(f for f in sorted(grammar.FRAMES) if f not in frames), frames, words)


def generate(frames, lex: Lexicon, n: int, seed: int, salt: str, seen: set[str], accept=lambda ex: True,
             max_tries: int = 50):
    """n distinct examples (by English text, across `seen`) of the given frames, frame by frame in turn;
    a core frame (lexicon/core.txt) takes CORE_WEIGHT turns of the rotation."""
    frames = [f for f in frames for _ in range(grammar.CORE_WEIGHT if f"frame:{f}" in core() else 1)]
    out, i, misses = [], 0, 0
    while len(out) < n:
        frame = frames[i % len(frames)]
        rng = random.Random(f"{seed}:{salt}:{i}")
        i += 1
        try:
            example = grammar.build(frame, rng, lex)
        except IndexError:          # a frame with no word to choose in this lexicon
            misses += 1
            if misses > max_tries * len(frames):
                raise
            continue
        text = example.text("en")
        if text in seen or not accept(example):
            misses += 1
            if misses > max_tries * max(n, 1):
                break
            continue
        seen.add(text)
        out.append(example)
    return out


def splits(size: int, valid: int, test: int, seed: int):
    """-> ({"train", "valid", "test": [Example]}, Plan)."""
    lex = load()
    p = plan(lex)
    train_lex = lex.without(set(p.held_words))
    seen: set[str] = set()
    out = {
        "train": generate(p.train_frames, train_lex, size, seed, "train", seen),
        "valid": generate(p.train_frames, train_lex, valid, seed, "valid", seen),
    }
    new_frames = generate(p.test_frames, train_lex, test // 2, seed, "test-frames", seen)
    new_words = generate(p.train_frames, lex, test - len(new_frames), seed, "test-words", seen,
                         accept=lambda ex: bool(ex.lemmas & p.held_words))
    out["test"] = new_frames + new_words
    return out, p
