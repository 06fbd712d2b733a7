"""Can the model read this input?  The script of the text against the script of the model's source
language, and the share of pieces the tokenizer does not know (<unk>).

    check(tokenizer, "en", "사과를 좋아해요")  -> InputCheck(script="HANGUL", expected="LATIN", unknown=…)
    check(tokenizer, "kor", "나는 MacBook을 샀다")  -> readable: the language as ISO 639-1 or -2/3 ("ko", "kor",
                                                  "ko-KR"), and a Korean sentence may hold Latin words

A text is in the wrong script when most of its letters are in another one and fewer than MIN_SCRIPT_SHARE of
them in the model's: everyday Korean writes brand names and abbreviations in Latin letters.
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..model.config import base_language
from ..model.tokenizer import Tokenizer

SCRIPTS = {"en": "LATIN", "de": "LATIN", "fr": "LATIN", "es": "LATIN", "ko": "HANGUL", "ja": "CJK", "zh": "CJK",
           "ru": "CYRILLIC"}
MAX_UNKNOWN_SHARE = 0.1
MIN_SCRIPT_SHARE = 1 / 3


def scripts(text: str) -> Counter:
    """How many of the text's letters are in each script ('LATIN', 'HANGUL', 'CJK', …)."""
    counts = Counter()
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            counts["CJK" if name.startswith(("CJK", "HIRAGANA", "KATAKANA")) else name.split(" ")[0]] += 1
    return counts


def script(text: str) -> str | None:
    """The script most of the text's letters are written in ('LATIN', 'HANGUL', 'CJK', …), None without letters."""
    counts = scripts(text)
    return counts.most_common(1)[0][0] if counts else None


def expected_script(src_lang: str) -> str | None:
    """The script of a source language ("ko", "kor", "ko-KR" -> 'HANGUL'), None for one not in SCRIPTS."""
    return SCRIPTS.get(base_language(src_lang))


@dataclass(frozen=True)
class InputCheck:
    script: str | None      # of the text
    expected: str | None    # of the model's source language (None: unknown language)
    pieces: int
    unknown: int
    expected_share: float = 0.0     # of the text's letters, those in the expected script

    @property
    def wrong_script(self) -> bool:
        return self.script is not None and self.expected is not None and self.script != self.expected \
            and self.expected_share < MIN_SCRIPT_SHARE

    @property
    def readable(self) -> bool:
        return not self.wrong_script and self.unknown <= MAX_UNKNOWN_SHARE * max(self.pieces, 1)


def check(tokenizer: Tokenizer, src_lang: str, text: str) -> InputCheck:
    ids, counts, expected = tokenizer.encode(text), scripts(text), expected_script(src_lang)
    return InputCheck(counts.most_common(1)[0][0] if counts else None, expected, len(ids),
                      sum(i == tokenizer.unk_id for i in ids), counts[expected] / max(sum(counts.values()), 1))
