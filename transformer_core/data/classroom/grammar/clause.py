"""The clause: subject, verb, object, place and time, put in each language's word order (English SVO,
Korean SOV with particles, German V2 with the object's case)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import korean
from ..lexicon import Verb
from ..phrases import FIRST_PERSON, NounPhrase, Subject
from ..sentence import Chunk, chunk
from .gen import cannot
from .verbs import de_clause, de_verb, en_verb, ko_stem, ko_verb


@dataclass
class Clause:
    subject: Subject
    verb: Verb
    tense: str
    neg: bool = False
    obj: NounPhrase | None = None
    obj2: NounPhrase | None = None      # "apples and pears"
    place: object | None = None
    place_to: bool = False
    time: object | None = None
    companion: NounPhrase | None = None     # "with my father": 아버지와 함께, mit meinem Vater
    adverb: tuple[str, str, str] | None = None     # how often: ("usually", "보통", "normalerweise")


def obj_en(c: Clause, k: str) -> list[Chunk]:
    if not c.obj:
        return []
    out = c.obj.en(k + "O")
    if c.obj2:
        out += [chunk("and", k + "O.and"), *c.obj2.en(k + "O2")]
    return out


def own_ko(c: Clause, np: NounPhrase) -> NounPhrase:
    """Korean leaves unsaid that what he, she, they or you do something to is their own: "He helps his aunt." ->
    그는 이모를 돕는다, not 그의 이모 (but 내 이모, 우리 이모)."""
    p = c.subject.pronoun
    if np.det == "poss" and p is not None and np.owner is p and p not in FIRST_PERSON:
        return replace(np, owner=replace(p, ko_poss=""))
    return np


def obj_ko(c: Clause, k: str) -> list[Chunk]:
    """The object with its particle: 에게 is 께 to someone owed respect (선생님께 여쭈어보았다)."""
    if not c.obj:
        return []
    obj = own_ko(c, c.obj)
    last = c.obj2 or c.obj
    case = "께" if c.verb.ko_case == "에게" and last.elder else c.verb.ko_case
    if c.obj2:
        return [*obj.ko(k + "O", "와"), *own_ko(c, c.obj2).ko(k + "O2", case)]
    return obj.ko(k + "O", case)


def obj_de(c: Clause, k: str) -> tuple[str, list[Chunk]]:
    if not c.obj:
        return "obj", []
    case = c.verb.de_case
    kein = c.neg and not c.verb.de_prep and c.obj.indefinite and (not c.obj2 or c.obj2.indefinite)
    out = c.obj.de(k + "O", case, negated=k + "NEG" if kein else "")
    if c.obj2:      # "keinen Bratreis und kein Obst"
        out += [chunk("und", k + "O.and"), *c.obj2.de(k + "O2", case, negated=k + "NEG" if kein else "")]
    if c.verb.de_prep:       # auf/mit goes with the English article, or with the verb ("wait for") when none
        tag = k + ("O.det" if c.obj.det in ("a", "the", "this", "poss") else "V")
        return "pp", [chunk(c.verb.de_prep, tag), *out]
    return "obj", out


def with_en(c: Clause, k: str) -> list[Chunk]:
    return [chunk("with", k + "WITH"), *c.companion.en(k + "C")] if c.companion else []


def with_de(c: Clause, k: str) -> list[Chunk]:
    """Who with, in the middle field after the time: "Ich spiele heute mit meinem Vater Fußball";
    one lives with people at theirs: "Sie wohnt bei meiner Familie"."""
    word = "bei" if c.verb.frame == "dwell" else "mit"
    return [chunk(word, k + "WITH"), *c.companion.de(k + "C", "dat")] if c.companion else []


def at_place(c: Clause) -> bool:
    """Whether the place completes the verb (where one goes, lives or sits: 부산에 산다, 의자에 앉는다) rather than
    saying where it happens (공원에서 논다)."""
    return c.place_to or c.verb.frame == "dwell" or c.verb.ko in korean.POSTURE


def en_clause(c: Clause, question: bool, time_first: bool, contract: bool, k: str = "") -> list[Chunk]:
    before, after = en_verb(c.verb.en, c.tense, c.subject.en_person, c.neg, question, contract, k)
    place = [chunk(c.place.en_to if c.place_to else c.place.en_at, k + "P")] if c.place else []
    time = [chunk(c.time.en + ("," if time_first else ""), k + "T")] if c.time else []
    adverb = [chunk(c.adverb[0], k + "ADV")] if c.adverb else []      # before the verb: "I usually eat"
    body = [*c.subject.en(k + "S"), *adverb, *after, *obj_en(c, k), *with_en(c, k), *place]
    if question:
        body = [*before, *body]
    return [*time, *body] if time_first else [*body, *time]


def ko_clause(c: Clause, style: str, time_first: bool, k: str = "", connective: str = "",
              predicate: list[Chunk] | None = None, particle: str = "은") -> list[Chunk]:
    """Subject (topic 은/는, or particle: 이/가 in a clause within a clause; "you" is dropped in questions), time,
    place, object, predicate (SOV)."""
    drop_subject = style == "question" and c.subject.is_you
    subject = [] if drop_subject else c.subject.ko(particle, k + "S")
    time = [chunk(korean.weekly(c.time.ko, c.neg, c.adverb is not None), k + "T")] if c.time else []
    place = []
    if c.place:
        # 시골에 산다, 의자에 앉는다
        particle = "에" if at_place(c) else "에서"
        place = [chunk(korean.with_particle(c.place.ko, particle), k + "P")]
    if predicate is not None:
        verb = predicate
    elif connective:       # the first of two clauses: 먹고, 먹었지만
        stem = ko_stem(c.verb.ko, c.verb.ko_irr, c.subject.honorific)
        past = c.tense == "past" and connective != "어서"      # -아서/-어서 never takes the past: 잃어버려서
        endings = ([("었", "EP")] if past else []) + [(connective, "EC")]
        text = korean.predicate(stem, endings, negative=c.neg, honorific=c.subject.honorific,
                                cannot=cannot(c.verb.en, c.tense))
        verb = [chunk(w, k + ("NEG" if w.startswith(("않", "못")) else "V")) for w in text.split(" ")]
    else:       # "Today, you are going to the temple." is a plan: 오늘 너는 절에 간다, not 가고 있다 (on the way); so is
        # "Is Sujin going to bed today?" (오늘 자러 가요?)
        going = c.place_to or c.verb.en == "go to bed"
        planned = c.tense == "progressive" and going and c.time is not None and c.time.en == "today"
        verb = ko_verb(c.verb.ko, c.verb.ko_irr, "present" if planned else c.tense, c.neg, style, k,
                       honorific=c.subject.honorific, cannot=cannot(c.verb.en, c.tense))
    adverb = [chunk(c.adverb[1], k + "ADV")] if c.adverb else []
    head = [*time, *subject, *adverb] if time_first else [*subject, *adverb, *time]
    companion = [*own_ko(c, c.companion).ko(k + "C", "와"), chunk("함께", k + "WITH")] if c.companion else []
    return [*head, *companion, *place, *obj_ko(c, k), *verb]


def de_main(c: Clause, question: bool, time_first: bool, k: str = "", front: list[Chunk] | None = None,
            subordinate: bool = False) -> list[Chunk]:
    """The German main clause, V2: the subject first, or the time (time_first), or front ("also esse ich Brot");
    the verb first in a question.  subordinate: the verb last, after front ("weil ich mein Handy verloren habe")."""
    verb = de_verb(c.verb.de, c.verb.de_aux, c.tense, c.subject.de_person)
    subject = c.subject.de(k + "S")
    time = [chunk(c.time.de, k + "T")] if c.time else []
    adverb = [chunk(c.adverb[2], k + "ADV")] if c.adverb else []      # after the finite verb: "Wir essen oft …"
    companion = with_de(c, k)
    kind, obj = obj_de(c, k)
    place = [("pp", [chunk(c.place.de_to if c.place_to else c.place.de_at, k + "P")])] if c.place else []
    kein = any(w == "kein" or w.startswith("kein") for w, _ in obj)
    neg = c.neg and not kein
    local = []
    if place and not at_place(c) and c.obj and (neg or kind == "obj" and c.obj.indefinite):
        # where, before the object and nicht: "Er lernt im Aquarium Posaune.", "Er hört im Park die Trommeln nicht."
        # ("nicht im Park" would say: but somewhere else); with no object the place is what is denied ("Wir schlafen
        # nicht zu Hause."), and where to, where one lives or sits stays after nicht ("Ich gehe nicht in die Schule.")
        local, place = place[0][1], []
    if time_first:
        return de_clause(time, verb, subject, [("time", [*adverb, *companion, *local]), (kind, obj), *place], neg, k)
    mid = [("time", [*adverb, *time, *companion, *local]), (kind, obj), *place]
    if time and time[0][0].endswith(" Uhr") and obj and c.obj.number and obj[0][0] == c.obj.number.de:
        # "um acht Uhr dreißig Sonnenblumen" reads as half past eight: "dreißig Sonnenblumen um acht Uhr"
        mid = [("time", [*adverb, *companion, *local]), (kind, obj), ("time", time), *place]
    if subordinate:
        return de_clause(front or [], verb, subject, mid, neg, k, subordinate=True)
    if front:
        return de_clause(front, verb, subject, mid, neg, k)
    return de_clause([] if question else subject, verb, subject if question else [], mid, neg, k)
