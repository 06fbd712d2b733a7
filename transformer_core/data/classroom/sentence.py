"""A generated sentence: chunks of text tagged with what they express, in every language at once.

A chunk is (text, tags).  Words of the English side and of a target side whose tags meet are aligned:
that is the gold word alignment, known from construction (Pharaoh format, "0-0 1-2 2-1").
"""
from __future__ import annotations

from dataclasses import dataclass, field

Chunk = tuple[str, frozenset[str]]


def chunk(text: str, *tags: str) -> Chunk:
    return text, frozenset(tags)


def with_comma(chunks: list[Chunk]) -> list[Chunk]:
    """The same chunks with a comma after the last word: before "but", "aber", "please", "bitte"."""
    text, tags = chunks[-1]
    return [*chunks[:-1], (text + ",", tags)]


def time_chunks(time) -> tuple[list[Chunk], list[Chunk], list[Chunk]]:
    """A time expression's chunk in English, Korean and German (tag T), or nothing when there is none."""
    return ([chunk(time.en, "T")], [chunk(time.ko, "T")], [chunk(time.de, "T")]) if time else ([], [], [])


def words(chunks: list[Chunk], end: str) -> list[tuple[str, frozenset[str]]]:
    """Whitespace words with their tags; `end` ('.', '?', '!') is glued to the last word."""
    out = [(word, tags) for text, tags in chunks if text for word in text.split(" ") if word]
    last, tags = out[-1]
    out[-1] = (last + end, tags)
    if out[0][0][0].islower():
        first, tags = out[0]
        out[0] = (first[0].upper() + first[1:], tags)
    return out


def alignment(source: list[tuple[str, frozenset[str]]], target: list[tuple[str, frozenset[str]]]) -> str:
    """Pharaoh links 'i-j' of source word i and target word j that share a tag."""
    return " ".join(f"{i}-{j}" for i, (_, s) in enumerate(source) for j, (_, t) in enumerate(target) if s & t)


@dataclass
class Example:
    """One generated sentence in English, Korean and German, with its frame and the lemmas it uses."""
    frame: str
    en: list[Chunk]
    ko: list[Chunk]
    de: list[Chunk]
    end: str = "."
    ko_end: str | None = None
    lemmas: set[str] = field(default_factory=set)

    def side(self, lang: str) -> list[tuple[str, frozenset[str]]]:
        end = self.ko_end if lang == "ko" and self.ko_end is not None else self.end
        return words(getattr(self, lang), end)

    def text(self, lang: str) -> str:
        return " ".join(word for word, _ in self.side(lang))

    def align(self, tgt_lang: str) -> str:
        return alignment(self.side("en"), self.side(tgt_lang))
