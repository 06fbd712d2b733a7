"""English morphology: verb forms from lemminflect, plurals and a/an from inflect (both MIT), British
spellings from breame (Apache-2.0)."""
from __future__ import annotations

from functools import cache

from breame.spelling import get_british_spelling
from lemminflect import getAllLemmas, getInflection

BE = {"present": {1: "am", 3: "is", 0: "are"}, "past": {1: "was", 3: "was", 0: "were"}}
AUXILIARIES = {"is", "are", "was", "were", "am", "has", "have", "had", "can", "could", "will", "would", "should",
               "may", "might", "must", "does", "did", "do"}
# Penn tags: VBZ 3rd singular present, VBD past, VBG -ing, VBN participle.


@cache
def _engine():
    """inflect's engine, imported on first use: inflect's import alone takes 2-3 s (typeguard instruments its
    methods), which every process that imports the data package, a test worker among them, would pay."""
    import inflect

    return inflect.engine()


def article(phrase: str) -> str:
    """'a' or 'an' for the phrase that follows it."""
    return _engine().a(phrase).split(" ", 1)[0]


def plural(singular: str, given: str = "") -> str:
    return given or _plural(singular)


# The generator asks for the same few hundred words' forms hundreds of thousands of times; each answer is a pure
# function of its word, so it is worked out once (the same examples: tests/test_classroom_corpus.py 110 -> 86 s).
@cache
def _plural(singular: str) -> str:
    return _engine().plural(singular)


@cache
def _inflections(word: str, tag: str) -> tuple[str, ...]:
    return tuple(getInflection(word, tag=tag))


def verb(phrase: str, tag: str) -> str:
    """Inflect a verb phrase's first word: verb('listen to', 'VBD') -> 'listened to'."""
    first, *rest = phrase.split(" ")
    if tag == "VB":
        form = first
    else:
        forms = _inflections(first, tag)
        form = forms[0] if forms else first
    return " ".join([form, *rest])


def be(tense: str, person: int) -> str:
    """'am', 'is', 'are', 'was', 'were'.  person: 1 (I), 3 (he, she, it, a singular noun), 0 (all others)."""
    return BE[tense][person]


def comparative(adjective: str, given: str = "") -> str:
    if given:
        return given
    forms = _inflections(adjective, "JJR")
    return forms[0] if forms else f"more {adjective}"


def request_in_english(sentence: str) -> bool:
    """'Wait here.', 'Please help me.', "Don't run!" are requests; 'Water boils.' and questions are not."""
    words = [w.strip(",.!?\"'").lower() for w in sentence.split()]
    if not words or sentence.rstrip().endswith("?"):
        return False
    if words[0] in ("don't", "never") or "please" in words:
        return True
    return words[0] in getAllLemmas(words[0]).get("VERB", ()) and (len(words) == 1 or words[1] not in AUXILIARIES)


def british(text: str) -> str:
    """'my favorite color,' -> 'my favourite colour,': each word in its British spelling, if it has one."""
    return " ".join(_british_word(word) for word in text.split(" "))


def _british_word(word: str) -> str:
    bare = word.rstrip(",")
    gb = get_british_spelling(bare)
    if not bare or gb == bare.lower():
        return word
    return (gb[0].upper() + gb[1:] if bare[0].isupper() else gb) + word[len(bare):]
