"""The verb group in each language: English auxiliaries and contractions, Korean endings by style and
tense, German finite verbs, perfect auxiliaries and the verb-final clause."""
from __future__ import annotations

from dataclasses import dataclass

from .. import english, german, korean
from ..sentence import Chunk, chunk
from .gen import KO_DESCRIPTIVE


def en_verb(verb: str, tense: str, subj_person: int, neg: bool, question: bool, contract: bool, k: str = ""):
    """English verb group -> (chunks before the subject, chunks after it)."""
    V, NEG = k + "V", k + "NEG"
    be = {"present": english.be("present", subj_person), "past": english.be("past", subj_person)}
    if tense == "progressive":
        aux, main = be["present"], english.verb(verb, "VBG")
    elif tense == "future":
        aux, main = "will", english.verb(verb, "VB")
    elif neg or question:
        aux = ("does" if subj_person == 3 else "do") if tense == "present" else "did"
        main = english.verb(verb, "VB")
    else:
        tag = "VBD" if tense == "past" else ("VBZ" if subj_person == 3 else "VB")
        return [], [chunk(english.verb(verb, tag), V)]
    if question:
        return [chunk(aux, V)], [chunk(main, V)]
    if not neg:
        return [], [chunk(aux, V), chunk(main, V)]
    if contract and aux != "am":
        short = {"will": "won't", "do": "don't", "does": "doesn't", "did": "didn't"}.get(aux, aux + "n't")
        tags = (V, NEG) if aux in ("will", "is", "are") else (NEG,)
        return [], [chunk(short, *tags), chunk(main, V)]
    return [], [chunk(aux, V), chunk("not", NEG), chunk(main, V)]


def ko_stem(verb_ko: str, irregular: str, honorific: bool = False) -> tuple[str, str]:
    """The verb's stem morpheme; for a subject owed respect, the honorific verb where there is one (드시다,
    저녁을 드시다)."""
    head, _, last = verb_ko.rpartition(" ")
    if honorific and last in korean.HONORIFIC_VERBS:
        verb_ko, irregular = " ".join(w for w in (head, korean.HONORIFIC_VERBS[last]) if w), ""
    return korean.stem(verb_ko, irregular, verb_ko in KO_DESCRIPTIVE)


def ko_verb(verb_ko: str, irregular: str, tense: str, neg: bool, style: str, k: str = "",
            honorific: bool = False, cannot: bool = False) -> list[Chunk]:
    """Korean predicate words: the stem's word is V, a word of 않/없/못 is NEG, the rest V.  cannot: negated with
    못하다, for what one did not manage (찾지 못했다)."""
    V, NEG = k + "V", k + "NEG"
    endings = (korean.STATEMENT if style == "statement" else korean.QUESTION)[tense]
    if tense == "progressive" and verb_ko in korean.POSTURE:      # 앉아 있다
        endings = [("어", "EC"), *endings[1:]]
    if neg and verb_ko in korean.NEGATED_BY:     # 있지 않다 -> 없다, 알지 않다 -> 모르다
        text = korean.predicate(ko_stem(*korean.NEGATED_BY[verb_ko], honorific), endings, honorific=honorific)
        return [chunk(text, V, NEG)]
    text = korean.predicate(ko_stem(verb_ko, irregular, honorific), endings, negative=neg, honorific=honorific,
                            cannot=cannot)
    return [chunk(w, NEG if w.startswith(("않", "없", "못")) else V) for w in text.split(" ")]


@dataclass
class DeVerb:
    finite: str
    right: list[str]        # participle, infinitive or separable prefix, at the clause's end
    separable: bool = False     # right is the prefix, which a verb-last clause writes as one word: "dass er aufwacht"


def de_verb(verb: str, aux: str, tense: str, person: int) -> DeVerb:
    inf = german.infinitive(verb)
    if tense in ("present", "progressive"):
        finite, prefix = german.present(verb, person)
        return DeVerb(finite, [prefix] if prefix else [], separable=bool(prefix))
    if tense == "future":
        return DeVerb(german.present("werden", person)[0], [inf])
    if inf in ("haben", "sein"):
        return DeVerb(german.preterite(inf, person), [])
    return DeVerb(german.present(aux, person)[0], [german.participle(verb)])


def de_clause(front: list[Chunk], verb: DeVerb, subject: list[Chunk], mid: list[tuple[str, list[Chunk]]],
              neg: bool, k: str = "", subordinate: bool = False) -> list[Chunk]:
    """V2 (or verb-first when front is empty, verb-last when subordinate): front, finite verb, subject,
    middle field (time, object, nicht, then prepositional phrases), right bracket."""
    fields = [c for kind, chunks in mid if kind in ("time", "obj") for c in chunks]
    after = [c for kind, chunks in mid if kind in ("pp", "pred") for c in chunks]
    nicht = [chunk("nicht", k + "NEG")] if neg else []
    right = [chunk(w, k + "V") for w in verb.right]
    if subordinate:
        finite = chunk(verb.finite, k + "V")
        last = [chunk("".join(verb.right) + verb.finite, k + "V")] if verb.separable else [*right, finite]
        return [*front, *subject, *fields, *nicht, *after, *last]
    return [*front, chunk(verb.finite, k + "V"), *subject, *fields, *nicht, *after, *right]
