"""What a class says to each other every day: free time and plans, good luck, thanks, see you.
'Are you free tomorrow?' -> '내일 시간 있어요?' -> 'Hast du morgen Zeit?'; 'Good luck on your test!' ->
'시험 잘 봐요!' -> 'Viel Glück bei deinem Test!'"""
from __future__ import annotations

from .. import german
from ..phrases import PRONOUNS, Subject
from ..sentence import Example, chunk
from .gen import Gen

FREE_TIMES = {"today", "tomorrow", "this weekend", "on Friday", "on Saturday", "on Sunday", "after school",
              "tomorrow afternoon", "tomorrow evening", "tonight", "next weekend", "on the weekend", "next Monday",
              "this afternoon", "this evening"}
# What one plans for: English after "for", Korean, German after "für"
PLANS = (("the weekend", "주말에", "das Wochenende"), ("the holidays", "방학에", "die Ferien"),
         ("the summer vacation", "여름 방학에", "die Sommerferien"), ("tomorrow", "내일", "morgen"),
         ("the winter vacation", "겨울 방학에", "die Winterferien"), ("tonight", "오늘 밤에", "heute Abend"))
# Good luck on/with: the event, what Korean wishes one (do it well), the German preposition (with the dative)
LUCK = (("test", "시험", "잘 봐요", "bei"), ("exam", "시험", "잘 봐요", "bei"), ("game", "경기", "잘해요", "bei"),
        ("concert", "콘서트", "잘해요", "bei"), ("trip", "여행", "잘 다녀와요", "auf"))
# Thanks for: English, Korean (before 고마워요), German (accusative after für)
THANKS = (("the gift", "선물", "das Geschenk"), ("your help", "도와줘서", "deine Hilfe"), ("the letter", "편지", "den Brief"),
          ("the food", "음식", "das Essen"), ("the invitation", "초대해 줘서", "die Einladung"),
          ("the flowers", "꽃", "die Blumen"), ("your answer", "대답해 줘서", "deine Antwort"))
SEE_YOU = {"tomorrow", "on Monday", "on Friday", "next week", "later", "soon", "tonight"}


def free_time(kind: str):
    """kind 'free': 'I am free on Friday.' -> '나는 금요일에 시간이 있다.' -> 'Ich habe am Freitag Zeit.' (not free:
    시간이 없다, keine Zeit); 'ask': 'Are you free tomorrow?' -> '내일 시간 있어요?' -> 'Hast du morgen Zeit?';
    'plans': 'Do you have any plans for the weekend?' -> '주말에 무슨 계획이 있어요?' -> 'Hast du Pläne für das
    Wochenende?'"""
    def build(g: Gen) -> Example:
        if kind == "plans":
            en_for, ko_for, de_for = g.pick(PLANS, used=False)
            en = [chunk("do", "V"), chunk("you", "S"), chunk("have", "V"), chunk("any", "N"), chunk("plans", "N"),
                  chunk("for", "T"), chunk(en_for, "T")]
            de = [chunk("hast", "V"), chunk("du", "S"), chunk("Pläne", "N"), chunk("für", "T"), chunk(de_for, "T")]
            ko = [chunk(ko_for, "T"), chunk("무슨", "N"), chunk("계획이", "N"), chunk("있어요", "V")]
            return Example("", en, ko, de, end="?")
        time = g.pick([t for t in g.lex.times if t.en in FREE_TIMES])
        ask = kind == "ask"
        p = PRONOUNS["you"] if ask else PRONOUNS[g.rng.choice(["I", "I", "we", "he", "she"])]
        neg = not ask and g.chance(0.35)
        de_have = german.present("haben", p.de_person)[0]
        if ask:
            en = [chunk("are", "V"), chunk("you", "S"), chunk("free", "FREE"), chunk(time.en, "T")]
            de = [chunk(de_have, "V"), chunk(p.de, "S"), chunk(time.de, "T"), chunk("Zeit", "FREE")]
            ko = [chunk(time.ko, "T"), chunk("시간", "FREE"), chunk("있어요", "V")]
            return Example("", en, ko, de, end="?", lemmas={time.id})
        be = {"I": "am", "we": "are"}.get(p.en, "is")
        en = [chunk(p.en, "S"), chunk(be, "V"), *([chunk("not", "NEG")] if neg else []), chunk("free", "FREE"),
              chunk(time.en, "T")]
        de = [chunk(p.de, "S"), chunk(de_have, "V"), chunk(time.de, "T"),
              *([chunk("keine", "NEG")] if neg else []), chunk("Zeit", "FREE")]
        ko = [*Subject(pronoun=p).ko("은"), chunk(time.ko, "T"), chunk("시간이", "FREE"),
              chunk("없다" if neg else "있다", "V", *(("NEG",) if neg else ()))]
        return Example("", en, ko, de, lemmas={time.id})
    return build


def good_luck(g: Gen) -> Example:
    """'Good luck on your test!' -> '시험 잘 봐요!' -> 'Viel Glück bei deinem Test!'"""
    event = {n.en: n for n in g.lex.nouns if n.cls == "event"}
    en_e, ko_e, ko_wish, prep = g.pick([k for k in LUCK if k[0] in event], used=False)
    noun = event[en_e]
    g.lemmas.add(noun.id)
    your = g.chance(0.6)
    en = [chunk("good", "LUCK"), chunk("luck", "LUCK"), chunk("on" if g.chance(0.5) else "with", "E"),
          chunk("your" if your else "the", "E"), chunk(en_e, "E")]
    det = german.article("dein" if your else "def", noun.de_gender, "dat")
    at = [chunk("beim", "E")] if (prep, det) == ("bei", "dem") else [chunk(prep, "E"), chunk(det, "E")]  # beim
    de = [chunk("viel", "LUCK"), chunk("Glück", "LUCK"), *at, chunk(noun.de, "E")]
    ko = [chunk(ko_e, "E"), *(chunk(w, "LUCK") for w in ko_wish.split(" "))]
    return Example("", en, ko, de, end="!", lemmas={noun.id})


def thanks(g: Gen) -> Example:
    """'Thank you for the gift.' -> '선물 고마워요.' -> 'Danke für das Geschenk.'"""
    en_t, ko_t, de_t = g.pick(THANKS, used=False)
    en = [chunk("thank", "THANKS"), chunk("you", "THANKS"), chunk("for", "FOR"), chunk(en_t, "T")]
    de = [chunk("danke", "THANKS"), chunk("für", "FOR"), chunk(de_t, "T")]
    ko = [chunk(ko_t, "T", "FOR"), chunk("고마워요", "THANKS")]
    return Example("", en, ko, de)


def see_you(g: Gen) -> Example:
    """'See you tomorrow!' -> '내일 봐요!' -> 'Bis morgen!'"""
    time = g.pick([t for t in g.lex.times if t.en in SEE_YOU])
    en = [chunk("see", "SEE"), chunk("you", "SEE"), chunk(time.en, "T")]
    de = [chunk("bis", "SEE"), chunk(time.de.removeprefix("am "), "T")]      # Bis Montag!
    ko = [chunk(time.ko, "T"), chunk("봐요", "SEE")]
    return Example("", en, ko, de, end="!", lemmas={time.id})
