"""The example sentences of the app, every one of them here: the lecture's sentence first ("I like apples."
-> "나는 사과를 좋아한다."), then everyday sentences, each in English, Korean and German.  A model is offered
the sentences of its source language, each with its reference in the model's target language, so that a
Korean -> English model gets Korean examples with English references.

    sources("ko")        -> ["나는 사과를 좋아한다.", "기차역은 어디에 있어요?", …]   (kor, ko-KR too)
    pairs("ko", "en")    -> [{"src": "나는 사과를 좋아한다.", "ref": "I like apples."}, …]
    lecture("en", "ko")  -> ("I like apples.", "나는 사과를 좋아한다.", "0-0 1-2 2-1")   (its gold word alignment)
    batch("ko")          -> the masks page's batch: sentences of different lengths
    beginning("ko")      -> "나는 배를": a beginning of a translation to force (what-if decoding)

A language without sentences here gets the English ones (sources, pairs), or None (batch, beginning).
"""
from __future__ import annotations

from ..model.config import base_language

FALLBACK = "en"

# The lecture's sentence first; every row in every language of LANGUAGES.
SENTENCES: tuple[dict[str, str], ...] = (
    {"en": "I like apples.", "ko": "나는 사과를 좋아한다.", "de": "Ich mag Äpfel."},
    {"en": "Where is the train station?", "ko": "기차역은 어디에 있어요?", "de": "Wo ist der Bahnhof?"},
    {"en": "The weather is nice today.", "ko": "오늘은 날씨가 좋다.", "de": "Heute ist das Wetter schön."},
    {"en": "My brother is reading a book.", "ko": "내 남동생은 책을 읽고 있다.", "de": "Mein Bruder liest ein Buch."},
    {"en": "The cat sees the house.", "ko": "고양이가 집을 본다.", "de": "Die Katze sieht das Haus."},
)
LANGUAGES = tuple(SENTENCES[0])
LECTURE = SENTENCES[0]
# Where the lecture's three words (I, like, apples) stand in its sentence of each language: Korean puts
# the verb last (SOV: 나는 사과를 좋아한다).
LECTURE_ORDER = {"en": (0, 1, 2), "de": (0, 1, 2), "ko": (0, 2, 1)}
# The masks page's batch (whitespace tokens, no punctuation): the lecture's sentence, a longer one, one word.
BATCH = {"en": ("the pear is very sweet", "hello"), "ko": ("배가 정말 아주 달다", "안녕"),
         "de": ("die Birne ist sehr süß", "hallo")}
# What if the translation of the lecture's sentence began otherwise: "I pears…" instead of "I apples…".
BEGINNING = {"en": "I love", "ko": "나는 배를", "de": "Ich liebe"}


def _known(lang) -> str:
    lang = base_language(lang)
    return lang if lang in LANGUAGES else FALLBACK


def sources(lang) -> list[str]:
    """The example sentences of a source language (English for one without any)."""
    lang = _known(lang)
    return [row[lang] for row in SENTENCES]


def pairs(src_lang, tgt_lang) -> list[dict[str, str]]:
    """{"src", "ref"} of each example: the source language's sentence (English for one without any) and
    the target language's as its reference (none when there is none in that language, or it is the same)."""
    src, tgt = _known(src_lang), base_language(tgt_lang)
    return [{"src": row[src], **({"ref": row[tgt]} if tgt in row and tgt != src else {})} for row in SENTENCES]


def lecture(src_lang, tgt_lang) -> tuple[str, str, str] | None:
    """The lecture's sentence in both languages and its gold word alignment ("i-j": source word i is target
    word j), or None when either language has none or they are one language."""
    src, tgt = base_language(src_lang), base_language(tgt_lang)
    if src == tgt or src not in LECTURE_ORDER or tgt not in LECTURE_ORDER:
        return None
    links = " ".join(f"{i}-{j}" for i, j in sorted(zip(LECTURE_ORDER[src], LECTURE_ORDER[tgt], strict=False)))
    return LECTURE[src], LECTURE[tgt], links


def batch(lang) -> tuple[str, ...] | None:
    """The masks page's batch in a language: the lecture's sentence without its full stop, then BATCH."""
    lang = base_language(lang)
    return (LECTURE[lang].rstrip("."), *BATCH[lang]) if lang in BATCH else None


def beginning(lang) -> str | None:
    """A beginning of a translation into lang, to force in the what-if view."""
    return BEGINNING.get(base_language(lang))
