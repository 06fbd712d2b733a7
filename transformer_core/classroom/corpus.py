"""Generate the classroom corpus and split it so that the test measures generalisation, not memory.

- Held-out frames: a few whole frames (HELD_OUT_FRAMES of them, chosen by a hash of the seed) never
  reach train or valid; the test split has sentences of those frames built from training words.
- Held-out words: a few lemmas (HELD_OUT_SHARE, by hash) never reach train or valid; the test split
  also has sentences of training frames that use them.  Words of the app's example sentences and of
  the hand-written classroom test set are never held out: a class must be able to type them.
- Valid: training frames and words, sentences not in train.
Every choice is deterministic in (seed, index).
"""
from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

from . import grammar
from .lexicon import Lexicon, load

HELD_OUT_FRAMES = 8
HELD_OUT_SHARE = 0.04
# Frames the lecture and the app's example sentences use: never held out.
PROTECTED_FRAMES = {"tr.present.pos", "tr.present.neg", "where_is", "intr_place.progressive.pos",
                    "tr.progressive.pos", "be_noun.present.pos", "be_adj.present.pos", "can_you_please",
                    "weather.present", "q.tr.present", "imperative.please", "tr_place.progressive.pos"}


def _rank(text: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}\t{text}".encode()).hexdigest()


@dataclass(frozen=True)
class Plan:
    train_frames: tuple[str, ...]
    test_frames: tuple[str, ...]
    held_words: frozenset[str]


def plan(seed: int, protected_text: str = "", lex: Lexicon | None = None) -> Plan:
    """Which frames and lemmas are held out.  protected_text: English text whose words stay in training."""
    lex = lex or load()
    frames = sorted(grammar.FRAMES)
    candidates = sorted((f for f in frames if f not in PROTECTED_FRAMES), key=lambda f: _rank(f, seed))
    test_frames = tuple(sorted(candidates[:HELD_OUT_FRAMES]))
    protected = set(re.findall(r"[a-z]+", protected_text.lower()))
    lemmas = [e for e in lex.entries() if hasattr(e, "en") and not (set(re.findall(r"[a-z]+", e.en.lower())) & protected)
              and not e.id.startswith(("number:", "name:"))]
    n_held = int(len(lex.entries()) * HELD_OUT_SHARE)
    held = frozenset(e.id for e in sorted(lemmas, key=lambda e: _rank(e.id, seed))[:n_held])
    return Plan(tuple(f for f in frames if f not in test_frames), test_frames, held)


def generate(frames, lex: Lexicon, n: int, seed: int, salt: str, seen: set[str], accept=lambda ex: True,
             max_tries: int = 50):
    """n distinct examples (by English text, across `seen`) of the given frames, frame by frame in turn."""
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


def splits(size: int, valid: int, test: int, seed: int, protected_text: str = ""):
    """-> ({"train", "valid", "test": [Example]}, Plan)."""
    lex = load()
    p = plan(seed, protected_text, lex)
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
