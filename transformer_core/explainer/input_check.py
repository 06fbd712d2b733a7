"""Can the model read this input?  The script of the text against the script of the model's source
language, and the share of pieces the tokenizer does not know (<unk>).

    check(tokenizer, "en", "사과를 좋아해요")  -> InputCheck(script="HANGUL", expected="LATIN", unknown=…)
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..model.tokenizer import Tokenizer

SCRIPTS = {"en": "LATIN", "de": "LATIN", "fr": "LATIN", "es": "LATIN", "ko": "HANGUL", "ja": "CJK", "zh": "CJK",
           "ru": "CYRILLIC"}
MAX_UNKNOWN_SHARE = 0.1


def script(text: str) -> str | None:
    """The script most of the text's letters are written in ('LATIN', 'HANGUL', 'CJK', …), None without letters."""
    counts = Counter()
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            counts["CJK" if name.startswith(("CJK", "HIRAGANA", "KATAKANA")) else name.split(" ")[0]] += 1
    return counts.most_common(1)[0][0] if counts else None


@dataclass(frozen=True)
class InputCheck:
    script: str | None      # of the text
    expected: str | None    # of the model's source language (None: unknown language)
    pieces: int
    unknown: int

    @property
    def wrong_script(self) -> bool:
        return self.script is not None and self.expected is not None and self.script != self.expected

    @property
    def readable(self) -> bool:
        return not self.wrong_script and self.unknown <= MAX_UNKNOWN_SHARE * max(self.pieces, 1)


def check(tokenizer: Tokenizer, src_lang: str, text: str) -> InputCheck:
    ids = tokenizer.encode(text)
    return InputCheck(script(text), SCRIPTS.get(src_lang), len(ids), sum(i == tokenizer.unk_id for i in ids))
