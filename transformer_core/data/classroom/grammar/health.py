"""Aches and illnesses, which Korean says of the body part, with its owner as the topic: 'My head hurts.'
-> '나는 머리가 아프다.' -> 'Mein Kopf tut weh.'; 'I have a fever.' -> '나는 열이 난다.' -> 'Ich habe Fieber.'"""
from __future__ import annotations

from .. import german, korean
from ..phrases import PRONOUNS, NounPhrase, Subject
from ..sentence import Example, chunk, time_chunks
from .gen import Gen
from .textbook import person

ACHING = {"head", "stomach", "tooth", "back", "leg", "arm", "foot", "eye", "ear", "knee", "shoulder", "neck", "hand",
          "throat", "finger", "toe"}
# (English, Korean subject with its particle, Korean predicate, German object): what one "has"
ILLNESSES = (
    ("a headache", "머리가", "아프다", "Kopfschmerzen"),
    ("a stomachache", "배가", "아프다", "Bauchschmerzen"),
    ("a toothache", "이가", "아프다", "Zahnschmerzen"),
    ("a sore throat", "목이", "아프다", "Halsschmerzen"),
    ("a backache", "허리가", "아프다", "Rückenschmerzen"),
    ("a fever", "열이", "나다", "Fieber"),
    ("a cough", "기침이", "나다", "Husten"),
    ("a runny nose", "콧물이", "나다", "Schnupfen"),
    ("a cold", "감기에", "걸리다", "eine Erkältung"),     # 감기에 걸렸다: one has caught it, so the past
)


DE_DATIVE = {"I": "mir", "you": "dir", "he": "ihm", "she": "ihr"}
DATIVE_P = 0.5      # how often German says whose part aches in the dative: "Mir tut der Kopf weh."
# When one aches: today, in the morning, after school, yesterday; not at a clock time or a year ago.
ACHE_TIMES = {"today", "every day", "every morning", "in the morning", "in the evening", "at night", "after school",
              "after dinner", "after lunch", "after class", "yesterday", "yesterday morning", "last night",
              "this morning", "this evening", "yesterday evening", "two days ago", "last week", "last weekend",
              "on the weekend", "in winter"}


def _ache_time(g: Gen, tense: str, p: float):
    times = [t for t in g.lex.times if t.en in ACHE_TIMES and tense in t.tenses]
    return g.pick(times) if times and g.chance(p) else None


def _ko_ache(predicate: str, tense: str, ask: bool) -> str:
    """아프다 (an adjective), 열이 난다; a cold one has once one has caught it: 감기에 걸렸다 now, 감기에 걸려
    있었다 then (걸렸다 with a past time would say one caught it then)."""
    endings = (korean.QUESTION if ask else korean.STATEMENT)[tense]
    if predicate == "걸리다":
        endings = (korean.QUESTION if ask else korean.STATEMENT)["past"]
        if tense == "past":
            endings = [("어", "EC"), ("있", "VX"), *endings]
    return korean.predicate(korean.stem(predicate, "", predicate == "아프다"), endings)


def hurts(tense: str, ask: bool = False):
    """'My legs hurt after school.' -> '나는 방과 후에 다리가 아프다.' -> 'Meine Beine tun nach der Schule weh.';
    'Does your head hurt?' -> '머리가 아파요?' -> 'Tut dein Kopf weh?' (or 'Tut dir der Kopf weh?');
    a name's: "Minsu's arm hurt yesterday." -> '민수는 어제 팔이 아팠다.' -> 'Minsus Arm tat gestern weh.'"""
    def build(g: Gen) -> Example:
        keys = ["you"] if ask else ["I", "I", "he", "she"]
        if ask or g.chance(0.75):
            owner, ko_owner = PRONOUNS[g.rng.choice(keys)], None
            if not ask:
                ko_owner = Subject(pronoun=owner).ko("은", "N.det")
        else:
            owner = g.pick(g.lex.names)
            ko_owner = Subject(name=owner).ko("은", "N.det")
        part = g.pick([n for n in g.nouns(("body",)) if n.en in ACHING])
        np = NounPhrase(part, "poss", part.en in ("leg", "foot", "eye", "ear", "knee") and g.chance(0.4), owner)
        time = None if ask else _ache_time(g, tense, 0.5)
        plural = np.plural
        en_time, ko_time, de_time = time_chunks(time)
        de_tut = {"present": "tun" if plural else "tut", "past": "taten" if plural else "tat"}[tense]
        ko = [*(ko_owner or []), *ko_time, *np.ko("N", "이")[1:], chunk(_ko_ache("아프다", tense, ask), "V")]
        de_part = np.de("N", "nom")
        dative = owner in PRONOUNS.values() and g.chance(DATIVE_P)
        if dative:          # "Mir tut der Kopf weh": the owner in the dative, the part with its article
            de_part = [chunk(DE_DATIVE[owner.en], "N.det"),
                       chunk(german.article("def", "pl" if plural else part.de_gender, "nom"), "N.n"), de_part[-1]]
        if ask:
            en = [chunk("do" if plural else "does", "V"), *np.en("N"), chunk("hurt", "V")]
            de = [chunk(de_tut, "V"), *de_part, chunk("weh", "V")]
        else:
            en_v = "hurt" if tense == "past" or plural else "hurts"
            en = [*np.en("N"), chunk(en_v, "V"), *en_time]
            if dative:
                de = [de_part[0], chunk(de_tut, "V"), *de_time, *de_part[1:], chunk("weh", "V")]
            else:
                de = [*de_part, chunk(de_tut, "V"), *de_time, chunk("weh", "V")]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=np.lemmas() | ({time.id} if time else set()))
    return build


def illness(tense: str, ask: bool = False):
    """'I have a headache.' -> '나는 머리가 아프다.' -> 'Ich habe Kopfschmerzen.'; 'My brother had a fever
    yesterday.' -> '내 남동생은 어제 열이 났다.' -> 'Mein Bruder hatte gestern Fieber.'; 'Do you have a cold?' ->
    '감기에 걸렸어요?' -> 'Hast du eine Erkältung?'"""
    def build(g: Gen) -> Example:
        subject = person(g, ask)
        en_ill, ko_noun, ko_pred, de_ill = g.rng.choice(ILLNESSES)
        time = None if ask or (en_ill == "a cold" and tense == "present") else _ache_time(g, tense, 0.4)
        have = "have" if subject.en_person != 3 else "has"
        de_have = german.present("haben", subject.de_person)[0] if tense == "present" \
            else german.preterite("haben", subject.de_person)
        en_time, ko_time, de_time = time_chunks(time)
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        ko = [*ko_subject, *ko_time, chunk(ko_noun, "ILL"), chunk(_ko_ache(ko_pred, tense, ask), "ILL", "V")]
        if ask:
            en = [chunk("does" if subject.en_person == 3 else "do", "V"), *subject.en(), chunk("have", "V"),
                  chunk(en_ill, "ILL")]
            de = [chunk(de_have, "V"), *subject.de(), chunk(de_ill, "ILL")]
        else:
            en = [*subject.en(), chunk("had" if tense == "past" else have, "V"), chunk(en_ill, "ILL"), *en_time]
            de = [*subject.de(), chunk(de_have, "V"), *de_time, chunk(de_ill, "ILL")]
        return Example("", en, ko, de, end="?" if ask else ".",
                       lemmas=subject.lemmas() | ({time.id} if time else set()))
    return build
