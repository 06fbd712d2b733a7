"""Wh-questions: where something is, what and where someone does, why and when, how many."""
from __future__ import annotations

from dataclasses import replace

from .. import english, german, korean
from ..phrases import counted, counter
from ..sentence import Example, chunk
from .clause import Clause, de_main, en_clause, ko_clause
from .gen import STATIVE, Gen
from .statements import dwell_time, lemmas_of, make_clause
from .verbs import de_clause, de_verb, en_verb, ko_verb


def where_is(g: Gen) -> Example:
    """'Where is the train station?' -> '기차역은 어디에 있어요?' -> 'Wo ist der Bahnhof?'"""
    if g.chance(0.5):
        place = g.pick([p for p in g.lex.places if p.en not in ("home",)])
        proper = place.en[0].isupper()
        en_np = [chunk(place.en, "S.n")] if proper else [chunk("the", "S.det"), chunk(place.en, "S.n")]
        de_np = [chunk(place.de, "S.n")] if proper else [chunk(german.article("def", place.de_gender, "nom"), "S.det"),
                                                          chunk(place.de, "S.n")]
        ko_np, lemmas, plural = [chunk(korean.with_particle(place.ko, "은"), "S.n")], {place.id}, False
    else:
        np = g.phrase(("thing", "readable", "clothing", "animal", "person", "vehicle", "food"),
                      dets=("the", "poss"), adjective=0.15)
        en_np, de_np, ko_np, lemmas, plural = np.en("S"), np.de("S", "nom"), np.ko("S", "은"), np.lemmas(), np.plural
    en = [chunk("where", "W"), chunk("are" if plural else "is", "V"), *en_np]
    de = [chunk("wo", "W"), chunk("sind" if plural else "ist", "V"), *de_np]
    ko = [*ko_np, chunk("어디에", "W"), chunk("있어요", "V")]
    return Example("", en, ko, de, end="?", lemmas=lemmas)


def wh_what(tense: str):
    """'What did you eat yesterday?' -> '어제 무엇을 먹었어요?' -> 'Was hast du gestern gegessen?'"""
    def build(g: Gen) -> Example:
        verbs = [v for v in g.verbs("tr") if not v.de_prep and v.de_case == "acc" and v.ko_case == "을"
                 and set(v.obj) & {"food", "drink", "thing", "readable", "clothing"}
                 and not (tense == "progressive" and v.en in STATIVE)]
        verb = g.pick(verbs)
        c = Clause(g.subject(), verb, tense, time=g.time(tense, verb=verb.en) if g.chance(0.4) else None)
        before, after = en_verb(c.verb.en, tense, c.subject.en_person, False, True, False)
        time = [chunk(c.time.en, "T")] if c.time else []
        en = [chunk("what", "W"), *before, *c.subject.en(), *after, *time]
        verb = de_verb(c.verb.de, c.verb.de_aux, tense, c.subject.de_person)
        de = de_clause([chunk("was", "W")], verb, c.subject.de(), [("time", [chunk(c.time.de, "T")] if c.time else [])],
                       False)
        what = [chunk("무엇을", "W"),
                *ko_verb(c.verb.ko, c.verb.ko_irr, tense, False, "question", honorific=c.subject.honorific)]
        ko = ko_clause(c, "question", False, predicate=what)
        return Example("", en, ko, de, end="?", lemmas=lemmas_of(c))
    return build


def wh_where(frame: str, tense: str):
    """'Where does the cat sleep?' (intr: wo, 어디에서) / 'Where did Minsu go?' (motion: wohin, 어디에) /
    'Where do you live?' (dwell: wo, 어디에)."""
    def build(g: Gen) -> Example:
        verbs = [v for v in g.verbs(frame) if not (tense == "progressive" and v.en in STATIVE)
                 and v.en not in ("come", "come back", "think")]     # not "Where is he coming?", "Where did they think?"
        verb = g.pick(verbs)
        if frame == "dwell":
            time = dwell_time(g, tense, 0.4)
        else:
            time = g.time(tense, how_long=frame != "motion", verb=verb.en) if g.chance(0.4) else None
        c = Clause(g.subject(animal_ok=False, me_ok=frame != "dwell"), verb, tense, time=time)  # not "Where did I live?"
        before, after = en_verb(c.verb.en, tense, c.subject.en_person, False, True, False)
        time = [chunk(c.time.en, "T")] if c.time else []
        to = [chunk("to", "W")] if c.verb.en == "return" else []     # "Where did Jimin return to?"
        en = [chunk("where", "W"), *before, *c.subject.en(), *after, *to, *time]
        verb = de_verb(c.verb.de, c.verb.de_aux, tense, c.subject.de_person)
        wo = "wohin" if frame == "motion" else "wo"
        de = de_clause([chunk(wo, "W")], verb, c.subject.de(), [("time", [chunk(c.time.de, "T")] if c.time else [])],
                       False)
        at = frame in ("motion", "dwell") or c.verb.ko in korean.POSTURE        # 어디에 섰어요?
        where = [chunk("어디에" if at else "어디에서", "W"),
                 *ko_verb(c.verb.ko, c.verb.ko_irr, tense, False, "question", honorific=c.subject.honorific)]
        ko = ko_clause(c, "question", False, predicate=where)
        return Example("", en, ko, de, end="?", lemmas=lemmas_of(c))
    return build


WH_ADVERBS = {"why": ("왜", "warum"), "when": ("언제", "wann")}


def wh_adverb(word: str, tense: str):
    """'Why did you go to the park?' -> '왜 공원에 갔어요?' -> 'Warum bist du in den Park gegangen?';
    'When does Minsu read the book?' -> '민수는 언제 책을 읽어요?' -> 'Wann liest Minsu das Buch?'  Korean puts the
    word after the topic, German first, before the finite verb."""
    def build(g: Gen) -> Example:
        frame = g.pick(("tr", "tr", "motion", "intr"), used=False)
        c = make_clause(g, frame, tense, False, 0.3 if word == "why" else 0.0)
        ko_word, de_word = WH_ADVERBS[word]
        en = [chunk(word, "W"), *en_clause(c, True, False, False)]
        de = de_main(c, True, False, front=[chunk(de_word, "W")])
        planned = word == "when" and tense == "progressive"     # "When are you going?" asks for a plan: 언제 갈 거예요?
        ko = ko_clause(replace(c, tense="future") if planned else c, "question", False)
        topic = 0 if c.subject.is_you else len(c.subject.ko("은"))
        ko = [*ko[:topic], chunk(ko_word, "W"), *ko[topic:]]
        return Example("", en, ko, de, end="?", lemmas=lemmas_of(c))
    return build


def how_many(g: Gen) -> Example:
    """'How many cats do you have?' -> '고양이가 몇 마리 있어요?' -> 'Wie viele Katzen hast du?'"""
    noun = g.pick([n for n in g.nouns(("animal", "thing", "readable", "clothing", "food", "person")) if n.countable])
    subject = g.subject()
    person = subject.en_person
    en = [chunk("how", "W"), chunk("many", "W"), chunk(english.plural(noun.en, noun.en_plural), "O.n"),
          chunk("does" if person == 3 else "do", "V"), *subject.en(), chunk("have", "V")]
    de = [chunk("wie", "W"), chunk("viele", "W"), chunk(noun.de_plural, "O.n"),
          chunk(german.present("haben", subject.de_person)[0], "V"), *subject.de()]
    ko_subject = [] if subject.is_you else subject.ko("은")
    ko = [*ko_subject, chunk(korean.with_particle(counted(noun), "이"), "O.n"), chunk("몇", "W"),
          chunk(counter(noun), "W"), chunk("있어요", "V")]
    return Example("", en, ko, de, end="?", lemmas={noun.id} | subject.lemmas())
