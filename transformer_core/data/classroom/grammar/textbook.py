"""The first units of a textbook: colours, age, names, the clock, when things start, birthdays,
where things are, near and far, rain and snow."""
from __future__ import annotations

from .. import english, german, korean
from ..phrases import PRONOUNS, NounPhrase, Pronoun, Subject
from ..sentence import Example, chunk
from .clause import ko_clause, obj_de, obj_en
from .gen import EVERY_FEW_MINUTES, PAIRS, Gen, in_season
from .statements import active_clause, degree, lemmas_of
from .verbs import DeVerb, de_clause, de_verb, en_verb, ko_stem, ko_verb


def weather(tense: str, ask: bool = False):
    """'It was cold yesterday.' -> '어제는 추웠다.' -> 'Es war gestern kalt.'"""
    def build(g: Gen) -> Example:
        adjective = g.pick([a for a in g.lex.adjectives if "weather" in a.applies])
        time = g.pick([t for t in g.lex.times if tense in t.tenses and not t.ko.endswith("에")
                       and not t.en.startswith(("once", "twice", "three times"))      # not "It is cold twice a week."
                       and not t.en.endswith("minutes")
                       and not ((ask or tense == "present") and t.en.startswith("for "))  # "It is chilly for an hour."
                       and t.en not in ("every week", "every month", "every year")      # nor "sunny every month"
                       and in_season(adjective.en, t.en)])
        be = "was" if tense == "past" else "is"
        de_be = "war" if tense == "past" else "ist"
        if tense == "future":
            en_v, de_v, de_right = [chunk("will", "V"), chunk("be", "V")], "wird", [chunk("sein", "V")]
        else:
            en_v, de_v, de_right = [chunk(be, "V")], de_be, []
        en_deg, ko_deg, de_deg = degree(g, False)
        if ask:
            en = [chunk(en_v[0][0], "V"), chunk("it", "S"), *en_v[1:], *en_deg, chunk(adjective.en, "A"),
                  chunk(time.en, "T")]
            de = [chunk(de_v, "V"), chunk("es", "S"), chunk(time.de, "T"), *de_deg, chunk(adjective.de, "A"), *de_right]
        else:
            en = [chunk("it", "S"), *en_v, *en_deg, chunk(adjective.en, "A"), chunk(time.en, "T")]
            de = [chunk("es", "S"), chunk(de_v, "V"), chunk(time.de, "T"), *de_deg, chunk(adjective.de, "A"), *de_right]
        endings = (korean.QUESTION if ask else korean.STATEMENT)[tense]
        pred = korean.predicate(korean.stem(adjective.ko, adjective.ko_irr, True), endings)
        ko = [chunk(korean.time_topic(time.ko), "T"), *ko_deg, *(chunk(w, "A", "V") for w in pred.split(" "))]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas={adjective.id, time.id})
    return build


def _word(g: Gen, items, en: str):
    """The lemma of items spelt en (an IndexError, which skips the frame, when the lexicon lacks it)."""
    item = [i for i in items if i.en == en][0]
    g.lemmas.add(item.id)
    return item


def color(ask: bool):
    """'What color is the bag?' -> '가방은 무슨 색이에요?' -> 'Welche Farbe hat die Tasche?';
    the answer 'The bag is green.' -> '가방은 초록색이다.' -> 'Die Tasche ist grün.'"""
    def build(g: Gen) -> Example:
        np = g.phrase(("thing", "clothing", "vehicle", "furniture"), dets=("the", "poss", "this"), adjective=0)
        be = english.be("present", np.en_person)
        if ask:
            word = _word(g, g.lex.nouns, "color")
            en = [chunk("what", "W"), chunk(word.en, "C"), chunk(be, "V"), *np.en("S")]
            de = [chunk("welche", "W"), chunk(word.de, "C"), chunk("haben" if np.plural else "hat", "V"),
                  *np.de("S", "nom")]
            ko = [*np.ko("S", "은"), chunk("무슨", "W"), chunk(korean.copula(word.ko, question=True), "C", "V")]
            return Example("", en, ko, de, end="?", lemmas=np.lemmas())
        adjective = g.pick([a for a in g.lex.adjectives if "color" in a.applies and np.noun.cls in a.applies])
        en = [*np.en("S"), chunk(be, "V"), chunk(adjective.en, "A")]
        de = [*np.de("S", "nom"), chunk("sind" if np.plural else "ist", "V"), chunk(adjective.de, "A")]
        pred = korean.adjective_predicate(adjective.ko, adjective.ko_irr, "present", False, False)
        ko = [*np.ko("S", "은"), chunk(pred, "A", "V")]
        return Example("", en, ko, de, lemmas=np.lemmas() | {adjective.id})
    return build


AGE_PEOPLE = ("brother", "sister", "son", "daughter", "cousin", "friend", "baby", "classmate")


def person(g: Gen, ask: bool) -> Subject:
    """I (in statements), you (in questions), he, she, a name, or my/your... brother, sister, friend."""
    r = g.rng.random()
    if r < 0.5:
        keys = ["you", "he", "she"] if ask else ["I", "I", "he", "she"]
        return Subject(pronoun=PRONOUNS[g.rng.choice(keys)])
    if r < 0.75:
        return Subject(name=g.pick(g.lex.names))
    noun = g.pick([n for n in g.nouns(("person",)) if n.en in AGE_PEOPLE])
    return Subject(phrase=NounPhrase(noun, "poss", owner=g.pick(list(PRONOUNS.values()) + list(g.lex.names)),
                                     little=g.little(noun)))


def age(ask: bool):
    """'I am ten years old.' -> '나는 열 살이다.' -> 'Ich bin zehn Jahre alt.';
    'How old are you?' -> '몇 살이에요?' -> 'Wie alt bist du?' (Korean counts years of age with native numbers and 살)."""
    def build(g: Gen) -> Example:
        subject = person(g, ask)
        be = english.be("present", subject.en_person)
        de_be = german.present("sein", subject.de_person)[0]
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        if ask:
            en = [chunk("how", "W"), chunk("old", "OLD"), chunk(be, "V"), *subject.en()]
            de = [chunk("wie", "W"), chunk("alt", "OLD"), chunk(de_be, "V"), *subject.de()]
            ko = [*ko_subject, chunk("몇", "W"), chunk(korean.copula("살", question=True), "OLD", "V")]
            return Example("", en, ko, de, end="?", lemmas=subject.lemmas())
        number = g.number([n for n in g.lex.numbers if n.n > 1 or g.chance(0.2)], most=99)
        years = "year" if number.n == 1 else "years"
        en = [*subject.en(), chunk(be, "V"), chunk(number.en, "NUM"), chunk(years, "Y"), chunk("old", "OLD")]
        de = [*subject.de(), chunk(de_be, "V"), chunk(number.de, "NUM"), chunk("Jahr" if number.n == 1 else "Jahre", "Y"),
              chunk("alt", "OLD")]
        ko = [*ko_subject, chunk(number.ko_attr + korean.copula("살"), "NUM", "Y", "OLD", "V")] if number.digits else \
            [*ko_subject, chunk(number.ko_attr, "NUM"), chunk(korean.copula("살"), "Y", "OLD", "V")]
        return Example("", en, ko, de, lemmas=subject.lemmas() | {number.id})
    return build


def name_is(ask: bool):
    """'My name is Minsu.' -> '내 이름은 민수이다.' -> 'Ich heiße Minsu.';
    'What is your name?' -> '이름이 뭐예요?' -> 'Wie heißt du?'"""
    def build(g: Gen) -> Example:
        word = _word(g, g.lex.nouns, "name")
        keys = ["you", "you", "he", "she"] if ask else ["I", "I", "he", "she"]
        owner = PRONOUNS[g.rng.choice(keys)]
        de_v = german.present("heißen", owner.de_person)[0]
        if ask:
            en = [chunk("what", "W"), chunk("is", "V"), chunk(owner.en_poss, "S"), chunk(word.en, "N")]
            de = [chunk("wie", "W"), chunk(de_v, "V", "N"), chunk(owner.de, "S")]
            ko_owner = [] if owner.en == "you" else [chunk(owner.ko_poss, "S")]
            ko = [*ko_owner, chunk(korean.with_particle(word.ko, "이"), "N"), chunk("뭐예요", "W", "V")]
            return Example("", en, ko, de, end="?")
        gender = "f" if owner.en == "she" else "m" if owner.en == "he" else None
        name = g.pick([n for n in g.lex.names if gender in (None, n.gender)])
        en = [chunk(owner.en_poss, "S"), chunk(word.en, "N"), chunk("is", "V"), chunk(name.en, "NAME")]
        de = [chunk(owner.de, "S"), chunk(de_v, "N", "V"), chunk(name.de, "NAME")]
        ko = [chunk(owner.ko_poss, "S"), chunk(korean.with_particle(word.ko, "은"), "N"),
              chunk(korean.copula(name.ko), "NAME", "V")]
        return Example("", en, ko, de, lemmas={name.id})
    return build


def _hour(g: Gen):
    return g.pick([n for n in g.lex.numbers if n.n <= 12])


# Minutes past or to the hour: (English, Korean after "N 시", German before the hour, German hour + this).
MINUTES = (("half past", "반", "halb", 1), ("a quarter past", "십오 분", "Viertel nach", 0),
           ("a quarter to", "십오 분 전", "Viertel vor", 0), ("ten past", "십 분", "zehn nach", 0),
           ("twenty past", "이십 분", "zwanzig nach", 0))


def _minutes(g: Gen, hour) -> tuple[list, list, list]:
    """'half past six' -> '여섯 시 반' -> 'halb sieben' (German names the hour to come); 'a quarter to nine' ->
    '아홉 시 십오 분 전' -> 'Viertel vor neun'.  The Korean's last word takes the caller's particle or copula."""
    en_words, ko_words, de_words, ahead = g.pick(MINUTES, used=False)
    de_hour = [n for n in g.lex.numbers if n.n == hour.n % 12 + 1][0] if ahead else hour
    en = [*(chunk(w, "M") for w in en_words.split()), chunk(hour.en, "NUM")]
    ko = [chunk(hour.ko_attr, "NUM"), chunk("시", "NUM", "H"), *(chunk(w, "M") for w in ko_words.split())]
    de = [*(chunk(w, "M") for w in de_words.split()), chunk(german.hour(de_hour.n, de_hour.de), "NUM")]
    return en, ko, de


def clock(ask: bool):
    """'It is three o'clock.' -> '세 시이다.' -> 'Es ist drei Uhr.'; 'It is half past six.' -> '여섯 시 반이다.' ->
    'Es ist halb sieben.'; 'What time is it?' -> '몇 시예요?' -> 'Wie spät ist es?' (native numbers count the
    hours: 세 시)."""
    def build(g: Gen) -> Example:
        now = g.chance(0.3)
        en_now, ko_now, de_now = ([chunk("now", "T")], [chunk("지금", "T")], [chunk("jetzt", "T")]) if now else ([], [], [])
        if ask:
            en = [chunk("what", "W"), chunk("time", "H"), chunk("is", "V"), chunk("it", "S"), *en_now]
            de = [chunk("wie", "W"), chunk("spät", "H"), chunk("ist", "V"), chunk("es", "S"), *de_now]
            ko = [*ko_now, chunk("몇", "W"), chunk(korean.copula("시", question=True), "H", "V")]
            return Example("", en, ko, de, end="?")
        hour = _hour(g)
        ko_now = [chunk("지금은", "T")] if now else []
        if g.chance(0.4):
            en_time, ko_time, de_time = _minutes(g, hour)
            text, tags = ko_time[-1]
            ko_time[-1] = (korean.copula(text), tags | {"V"})
            en = [chunk("it", "S"), chunk("is", "V"), *en_time, *en_now]
            de = [chunk("es", "S"), chunk("ist", "V"), *de_now, *de_time]
            return Example("", en, [*ko_now, *ko_time], de, lemmas={hour.id})
        en = [chunk("it", "S"), chunk("is", "V"), chunk(hour.en, "NUM"), chunk("o'clock", "H"), *en_now]
        de = [chunk("es", "S"), chunk("ist", "V"), *de_now, chunk(hour.de, "NUM"), chunk("Uhr", "H")]
        ko = [*ko_now, chunk(hour.ko_attr, "NUM"), chunk(korean.copula("시"), "H", "V")]
        return Example("", en, ko, de, lemmas={hour.id})
    return build


def starts_at(tense: str, ask: bool = False):
    """'School starts at nine.' -> '학교는 아홉 시에 시작한다.' -> 'Die Schule beginnt um neun.';
    'What time does the movie start?' -> '영화는 몇 시에 시작해요?' -> 'Um wie viel Uhr beginnt der Film?'"""
    def build(g: Gen) -> Example:
        verb = g.pick(g.verbs("event"))
        if g.chance(0.25):      # school, the place: no English article
            place = _word(g, g.lex.places, "school")
            en_s = [chunk(place.en, "S.n")]
            de_s = [chunk(german.article("def", place.de_gender, "nom"), "S.n"), chunk(place.de, "S.n")]
            ko_s = [chunk(korean.with_particle(place.ko, "은"), "S.n")]
        else:
            noun = g.pick(g.nouns(("event",)))
            g.lemmas.add(noun.id)
            np = NounPhrase(noun, "the" if noun.countable else "bare")
            en_s = np.en("S")
            de_s = [chunk(german.article("def", noun.de_gender, "nom"), "S.n" if not noun.countable else "S.det"),
                    chunk(noun.de, "S.n")]
            ko_s = np.ko("S", "은")
        if ask:
            before, after = en_verb(verb.en, tense, 3, False, True, False)
            en = [chunk("what", "W"), chunk("time", "W"), *before, *en_s, *after]
            dv = de_verb(verb.de, verb.de_aux, tense, 2)
            de = de_clause([chunk("um", "W"), chunk("wie", "W"), chunk("viel", "W"), chunk("Uhr", "W")], dv, de_s, [],
                           False)
            ko = [*ko_s, chunk("몇", "W"), chunk("시에", "W"), *ko_verb(verb.ko, verb.ko_irr, tense, False, "question")]
            return Example("", en, ko, de, end="?", lemmas={verb.id})
        hour = _hour(g)
        oclock = g.chance(0.3)
        if g.chance(0.4):
            en_hour, ko_hour, de_hour = _minutes(g, hour)
            text, tags = ko_hour[-1]
            ko_hour[-1] = (text + "에", tags | {"AT"})
        else:
            en_hour = [chunk(hour.en, "NUM"), *([chunk("o'clock", "H")] if oclock else [])]
            de_hour = [chunk(hour.de, "NUM"), chunk("Uhr", "H")] if oclock else \
                [chunk(german.hour(hour.n, hour.de), "NUM")]
            ko_hour = [chunk(hour.ko_attr, "NUM"), chunk("시에", "AT", "H")]
        _, after = en_verb(verb.en, tense, 3, False, False, False)
        en = [*en_s, *after, chunk("at", "AT"), *en_hour]
        dv = de_verb(verb.de, verb.de_aux, tense, 2)
        de = de_clause(de_s, dv, [], [("pp", [chunk("um", "AT"), *de_hour])], False)
        ko = [*ko_s, *ko_hour, *ko_verb(verb.ko, verb.ko_irr, tense, False, "statement")]
        return Example("", en, ko, de, lemmas={verb.id, hour.id})
    return build


BIRTHDAY_DAYS = {"today": "present", "tomorrow": "present", "yesterday": "past"}


def birthday(ask: bool):
    """'Today is my birthday.' -> '오늘은 내 생일이다.' -> 'Heute ist mein Geburtstag.';
    'Is today your birthday?' -> '오늘이 너의 생일이에요?' -> 'Ist heute dein Geburtstag?'"""
    def build(g: Gen) -> Example:
        noun = _word(g, g.lex.nouns, "birthday")
        day = g.pick([t for t in g.lex.times if t.en in BIRTHDAY_DAYS and not (ask and t.en == "yesterday")])
        past = BIRTHDAY_DAYS[day.en] == "past"
        owners = [PRONOUNS[k] for k in (("you", "you", "he", "she") if ask else ("I", "I", "you", "he", "she"))]
        np = NounPhrase(noun, "poss", owner=g.pick(owners + list(g.lex.names)))
        be, de_be = ("was", "war") if past else ("is", "ist")
        ko_np = np.ko("O", None)
        last, tags = ko_np[-1]
        ko = [chunk(korean.with_particle(day.ko, "이" if ask else "은"), "T"), *ko_np[:-1],
              chunk(korean.copula(last, past, ask), *tags, "V")]
        if ask:
            en = [chunk(be, "V"), chunk(day.en, "T"), *np.en("O")]
            de = [chunk(de_be, "V"), chunk(day.de, "T"), *np.de("O", "nom")]
        else:
            en = [chunk(day.en, "T"), chunk(be, "V"), *np.en("O")]
            de = [chunk(day.de, "T"), chunk(de_be, "V"), *np.de("O", "nom")]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=np.lemmas() | {day.id})
    return build


# Where a thing is: English, Korean (after the landmark noun), German (with the dative).
POSITIONS = (("under", "밑에", "unter"), ("on", "위에", "auf"), ("next to", "옆에", "neben"),
             ("in front of", "앞에", "vor"), ("behind", "뒤에", "hinter"), ("in", "안에", "in"))

SURFACES = {"table", "desk", "bed", "sofa", "chair", "shelf", "bookshelf", "bench", "armchair", "fridge", "box"}

RIDES = {"car", "bus", "bike", "bicycle"}

FLAT = {"door", "window", "curtain", "whiteboard", "blackboard"}

BOOKS = {"book", "notebook", "textbook", "dictionary", "newspaper", "magazine", "comic book", "map", "diary", "novel",
         "picture book", "calendar", "worksheet", "timetable"}

CONTAINERS = {"box", "bag", "backpack", "basket", "pencil case", "closet", "drawer", "fridge", "car", "bus",
              "locker", "trash can"}


def position(neg: bool, ask: bool = False):
    """'The ball is under the chair.' -> '공은 의자 밑에 있다.' -> 'Der Ball ist unter dem Stuhl.' (dative);
    'im' for 'in dem'."""
    def build(g: Gen) -> Example:
        en_p, ko_p, de_p = g.pick(POSITIONS, used=False)
        fits = {"on": SURFACES, "in": CONTAINERS}.get(en_p)
        landmarks = [n for n in g.nouns(("furniture", "thing", "vehicle")) if n.countable and n.en not in FLAT and
                     (n.en in fits if fits else n.cls == "furniture" or n.en in CONTAINERS | RIDES)]
        landmark = g.pick(landmarks)
        things = [n for n in g.nouns(("thing", "readable", "clothing", "animal", "food")) if n is not landmark
                  and n.countable and (n.cls != "readable" or n.en in BOOKS)]
        np = NounPhrase(g.pick(things), g.pick(("the", "the", "poss")), g.chance(0.2),
                        owner=g.pick(list(PRONOUNS.values()) + list(g.lex.names), used=False))
        at = NounPhrase(landmark, g.pick(("the", "the", "the", "poss")),
                        owner=g.pick([p for p in PRONOUNS.values() if p.en not in ("they",)], used=False))
        np = NounPhrase(np.noun, np.det, np.plural or np.noun.en in PAIRS, np.owner if np.det == "poss" else None)
        at = NounPhrase(at.noun, at.det, False, at.owner if at.det == "poss" else None)
        be = english.be("present", np.en_person)
        en_v = [chunk(be, "V")]
        if neg:
            en_v = [chunk(be + "n't", "V", "NEG")] if g.chance(0.5) else [chunk(be, "V"), chunk("not", "NEG")]
        en_pp = [chunk(en_p, "PREP"), *at.en("L")]
        en = [*en_v[:1], *np.en("S"), *en_pp] if ask else [*np.en("S"), *en_v, *en_pp]
        de_at = at.de("L", "dat")
        if de_p == "in" and at.det == "the" and landmark.de_gender in ("m", "n"):
            de_pp = [chunk("im", "PREP", "L.det"), *de_at[1:]]
        else:
            de_pp = [chunk(de_p, "PREP"), *de_at]
        de_v = "sind" if np.plural else "ist"
        nicht = [chunk("nicht", "NEG")] if neg else []
        de = ([chunk(de_v, "V"), *np.de("S", "nom"), *de_pp] if ask else
              [*np.de("S", "nom"), chunk(de_v, "V"), *nicht, *de_pp])
        exist = "있어요" if ask else "없다" if neg else "있다"
        ko = [*np.ko("S", "은"), *at.ko("L", None), chunk(ko_p, "PREP"), chunk(exist, "V", *(("NEG",) if neg else ()))]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=np.lemmas() | at.lemmas())
    return build


def distance(near: bool, ask: bool = False):
    """'The train station is near the school.' -> '기차역은 학교 근처에 있다.' -> 'Der Bahnhof ist in der Nähe der
    Schule.' (genitive); 'The zoo is far from the park.' -> '동물원은 공원에서 멀다.' -> 'Der Zoo ist weit vom Park
    entfernt.' (dative, 'vom' for 'von dem').  Places of kind 'town', as subjects with 은/는."""
    def build(g: Gen) -> Example:
        town = [p for p in g.lex.places if p.kind == "town"]
        here = g.pick(town)
        there = g.pick([p for p in town if p is not here])
        en_s = [chunk("the", "S.det"), chunk(here.en, "S.n")]
        en_pp = [chunk("near" if near else "far from", "PREP"), chunk("the", "L.det"), chunk(there.en, "L.n")]
        en = [chunk("is", "V"), *en_s, *en_pp] if ask else [*en_s, chunk("is", "V"), *en_pp]
        de_s = [chunk(german.article("def", here.de_gender, "nom"), "S.det"), chunk(here.de, "S.n")]
        if near:
            article, noun = german.genitive(there.de, there.de_gender)
            de_pp = [chunk("in der Nähe", "PREP"), chunk(article, "L.det"), chunk(noun, "L.n")]
        elif there.de_gender == "f":
            de_pp = [chunk("weit von", "PREP"), chunk("der", "L.det"), chunk(there.de, "L.n"), chunk("entfernt", "PREP")]
        else:
            de_pp = [chunk("weit vom", "PREP", "L.det"), chunk(there.de, "L.n"), chunk("entfernt", "PREP")]
        de = [chunk("ist", "V"), *de_s, *de_pp] if ask else [*de_s, chunk("ist", "V"), *de_pp]
        ko_s = chunk(korean.with_particle(here.ko, "은"), "S.n")
        if near:
            ko = [ko_s, chunk(there.ko, "L.n"), chunk("근처에", "PREP"), chunk("있어요" if ask else "있다", "V")]
        else:
            ko = [ko_s, chunk(korean.with_particle(there.ko, "에서"), "L.n", "PREP"),
                  chunk("멀어요" if ask else "멀다", "V", "PREP")]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas={here.id, there.id})
    return build


# How long a way takes: (English, Korean, German).
DURATIONS = (("five minutes", "5분", "fünf Minuten"), ("ten minutes", "10분", "zehn Minuten"),
             ("fifteen minutes", "15분", "fünfzehn Minuten"), ("twenty minutes", "20분", "zwanzig Minuten"),
             ("thirty minutes", "30분", "dreißig Minuten"), ("an hour", "한 시간", "eine Stunde"),
             ("two hours", "두 시간", "zwei Stunden"))
# How one goes: (the English verb phrase, how, Korean, German).
MODES = (("get", "by bus", "버스로", "mit dem Bus"), ("get", "by subway", "지하철로", "mit der U-Bahn"),
         ("get", "by car", "차로", "mit dem Auto"), ("get", "by bike", "자전거로", "mit dem Fahrrad"),
         ("walk", "", "걸어서", "zu Fuß"), ("get", "", "", ""))


def takes(ask: bool):
    """'It takes thirty minutes to walk to school.' -> '학교까지 걸어서 30분 걸린다.' -> 'Zu Fuß dauert es dreißig
    Minuten bis zur Schule.'; 'How long does it take to get to the station by bus?' -> '역까지 버스로 얼마나 걸려요?'
    -> 'Wie lange dauert es mit dem Bus bis zum Bahnhof?'  Places of kind 'town'."""
    def build(g: Gen) -> Example:
        place = g.pick([p for p in g.lex.places if p.kind == "town"])
        verb, how, ko_how, de_how = g.pick(MODES, used=False)
        en_to = [chunk("to", "L"), chunk(verb, "M"), chunk("to", "L"), *_the(place), *([chunk(how, "M")] if how else [])]
        de_to = [chunk("bis", "L"), chunk("zum" if place.de_gender in "mn" else "zur", "L"), chunk(place.de, "L.n")]
        ko_to = [chunk(place.ko + "까지", "L.n", "L"), *([chunk(ko_how, "M")] if ko_how else [])]
        de_mode = [chunk(de_how, "M")] if de_how else []
        if ask:
            en = [chunk("how long", "W"), chunk("does", "V"), chunk("it", "S"), chunk("take", "V"), *en_to]
            de = [chunk("wie lange", "W"), chunk("dauert", "V"), chunk("es", "S"), *de_mode, *de_to]
            ko = [*ko_to, chunk("얼마나", "W"), chunk("걸려요", "V")]
            return Example("", en, ko, de, end="?", lemmas={place.id})
        en_d, ko_d, de_d = g.pick(DURATIONS, used=False)
        en = [chunk("it", "S"), chunk("takes", "V"), chunk(en_d, "D"), *en_to]
        if de_mode:
            de = [*de_mode, chunk("dauert", "V"), chunk("es", "S"), chunk(de_d, "D"), *de_to]
        else:
            de = [chunk("es", "S"), chunk("dauert", "V"), chunk(de_d, "D"), *de_to]
        ko = [*ko_to, chunk(ko_d, "D"), chunk("걸린다", "V")]
        return Example("", en, ko, de, lemmas={place.id})
    return build


def _the(place) -> list:
    """'the station' / 'school': a town place with its article, or without one where English has none."""
    bare = place.en_to.startswith("to ") and not place.en_to.startswith("to the ")
    return [chunk(place.en, "L.n")] if bare else [chunk("the", "L.det"), chunk(place.en, "L.n")]


def weather_verb(tense: str, neg: bool = False, ask: bool = False):
    """'It is raining now.' -> '지금 비가 오고 있다.' -> 'Es regnet jetzt.'; 'It rained yesterday.' -> '어제 비가 왔다.'
    -> 'Es hat gestern geregnet.'; 'Will it snow tomorrow?' -> '내일 눈이 올 거예요?' -> 'Wird es morgen schneien?'"""
    def build(g: Gen) -> Example:
        verb = g.pick(g.verbs("weather"))
        times = [t for t in g.lex.times if tense in t.tenses and not any(w in t.en for w in ("week", "month", "year"))
                 and t.en not in EVERY_FEW_MINUTES           # a present is a habit ("It rains in July."), never a
                 and (tense != "present" or t.en.startswith(("every ", "in ", "at night", "sometimes")))  # forecast
                 and in_season(verb.en, t.en)]
        time = g.pick(times) if tense != "progressive" or g.chance(0.5) else None
        before, after = en_verb(verb.en, tense, 3, neg, ask, g.chance(0.5))
        rain = lambda c: (c[0], c[1] | {"RAIN"})        # noqa: E731  the word that says rain or snow
        en = [*before, chunk("it", "S"), *after[:-1], rain(after[-1]), *([chunk(time.en, "T")] if time else [])]
        dv = de_verb(verb.de, verb.de_aux, tense, 2)
        lexical = dv.finite if tense in ("present", "progressive") else dv.right[-1]
        mid = [("time", [chunk(time.de, "T")] if time else [])]
        es = [chunk("es", "S")]
        de = de_clause([], dv, es, mid, neg) if ask else de_clause(es, dv, [], mid, neg)
        de = [rain(c) if c[0] == lexical else c for c in de]
        noun, verb_ko = verb.ko.rsplit(" ", 1)
        pred = ko_verb(verb_ko, verb.ko_irr, tense, neg, "question" if ask else "statement")
        ko = [*([chunk(time.ko, "T")] if time else []), chunk(noun, "RAIN"), *pred]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas={verb.id})
    return build


# What a favourite can be, by noun class: English, Korean and the German compound with its gender.
FAVORITE_KINDS = {"food": ("food", "음식", "Lieblingsessen", "n"), "drink": ("drink", "음료", "Lieblingsgetränk", "n"),
                  "animal": ("animal", "동물", "Lieblingstier", "n"), "sport": ("sport", "운동", "Lieblingssport", "m"),
                  "subject": ("subject", "과목", "Lieblingsfach", "n"),
                  "instrument": ("instrument", "악기", "Lieblingsinstrument", "n")}
KO_WHO_LIKES = {"나": "내가", "너": "네가"}        # 나 + 가 -> 내가


def favorite(ask: bool):
    """'Apples are my favorite food.' -> '사과는 내가 가장 좋아하는 음식이다.' -> 'Äpfel sind mein Lieblingsessen.';
    'What is your favorite subject?' -> '가장 좋아하는 과목이 뭐예요?' -> 'Was ist dein Lieblingsfach?'"""
    def build(g: Gen) -> Example:
        cls = g.pick(sorted(FAVORITE_KINDS), used=False)
        kind_en, kind_ko, kind_de, gender = FAVORITE_KINDS[cls]
        keys = ["you", "you", "he", "she"] if ask else list(PRONOUNS)
        owner = PRONOUNS[g.pick(keys, used=False)] if ask or g.chance(0.8) else g.pick(g.lex.names)
        pronoun = isinstance(owner, Pronoun)
        if pronoun:
            en_owner, de_owner = owner.en_poss, german.article(owner.de_poss, gender, "nom")
            ko_owner = KO_WHO_LIKES.get(owner.ko) or korean.with_particle(owner.ko, "이")
        else:
            en_owner, de_owner = owner.en + "'s", german.name_genitive(owner.de)
            ko_owner = korean.with_particle(owner.ko, "이")
        fav_ko = [chunk("가장", "FAV"), chunk("좋아하는", "FAV")]
        if ask:
            en = [chunk("what", "W"), chunk("is", "V"), chunk(en_owner, "OWN"), chunk("favorite", "FAV"),
                  chunk(kind_en, "K")]
            de = [chunk("was", "W"), chunk("ist", "V"), chunk(de_owner, "OWN"), chunk(kind_de, "FAV", "K")]
            ko_who = [] if owner is PRONOUNS["you"] else [chunk(ko_owner, "OWN")]
            ko = [*ko_who, *fav_ko, chunk(korean.with_particle(kind_ko, "이"), "K"), chunk("뭐예요", "W", "V")]
            return Example("", en, ko, de, end="?")
        np = g.phrase((cls,), dets=("bare",), adjective=0)
        en = [*np.en("S"), chunk(english.be("present", np.en_person), "V"), chunk(en_owner, "OWN"),
              chunk("favorite", "FAV"), chunk(kind_en, "K")]
        de = [*np.de("S", "nom"), chunk("sind" if np.plural else "ist", "V"), chunk(de_owner, "OWN"),
              chunk(kind_de, "FAV", "K")]
        ko = [*np.ko("S", "은"), chunk(ko_owner, "OWN"), *fav_ko, chunk(korean.copula(kind_ko), "K", "V")]
        return Example("", en, ko, de, lemmas=np.lemmas() | (set() if pronoun else {owner.id}))
    return build


def likes_doing(neg: bool, ask: bool = False):
    """Hobbies: 'My father likes fishing.' -> '우리 아버지는 낚시하는 것을 좋아하신다.' -> 'Mein Vater angelt gern.';
    'I don't like reading books.' -> 'Ich lese Bücher nicht gern.'; 'Do you like swimming?' -> 'Schwimmst du gern?'"""
    def build(g: Gen) -> Example:
        c = active_clause(g, ("tr", "intr", "intr_place"), neg, 0.2)
        c.companion, c.obj2 = None, None
        if c.obj:           # what one likes doing is general: "reading books", "drinking milk"
            c.obj = NounPhrase(c.obj.noun, "bare", c.obj.noun.countable)
        before, after = en_verb("like", "present", c.subject.en_person, neg, ask, g.chance(0.5))
        place = [chunk(c.place.en_at, "P")] if c.place else []
        time = [chunk(c.time.en, "T")] if c.time else []
        doing = [chunk(english.verb(c.verb.en, "VBG"), "V", "LIKE")]
        en = [*c.subject.en("S"), *after, *doing, *obj_en(c, ""), *place, *time]
        if ask:
            en = [*before, *en]
        finite, prefix = german.present(c.verb.de, c.subject.de_person)
        c.neg = False           # "nicht gern Bücher", not "keine Bücher gern"
        kind, obj = obj_de(c, "")
        c.neg = neg
        de_place = [("pp", [chunk(c.place.de_at, "P")])] if c.place else []
        gern = [*([chunk("nicht", "NEG")] if neg else []), chunk("gern", "LIKE")]
        mid = [("time", [*([chunk(c.time.de, "T")] if c.time else []), *gern]), (kind, obj), *de_place]
        verb = DeVerb(finite, [prefix] if prefix else [])
        de = de_clause([] if ask else c.subject.de("S"), verb, c.subject.de("S") if ask else [], mid, False)
        doing_ko = korean.predicate(ko_stem(c.verb.ko, c.verb.ko_irr), [("는", "ETM")])
        like = ko_verb("좋아하다", "", "present", neg, "question" if ask else "statement",
                       honorific=c.subject.honorific)
        like = [(w, tags | {"LIKE"}) for w, tags in like]
        ko = ko_clause(c, "question" if ask else "statement", False,
                       predicate=[*(chunk(w, "V") for w in doing_ko.split(" ")), chunk("것을", "V"), *like])
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=lemmas_of(c))
    return build


# Kinds one likes best: English, Korean, German (its gender for welch-), the noun classes an answer names
WHICH_KINDS = (("season", "계절", "Jahreszeit", "f", ()), ("color", "색", "Farbe", "f", ()),
               ("fruit", "과일", "Obst", "n", ("food",)), ("food", "음식", "Essen", "n", ("food",)),
               ("sport", "운동", "Sport", "m", ("sport",)), ("subject", "과목", "Fach", "n", ("subject",)),
               ("animal", "동물", "Tier", "n", ("animal",)), ("drink", "음료", "Getränk", "n", ("drink",)))
WELCH_ACC = {"m": "welchen", "f": "welche", "n": "welches"}


def likes_best(ask: bool):
    """'Which season do you like best?' -> '어떤 계절을 가장 좋아해요?' -> 'Welche Jahreszeit magst du am
    liebsten?'; the answer 'I like soccer best.' -> '나는 축구를 가장 좋아한다.' -> 'Ich mag Fußball am liebsten.'"""
    def build(g: Gen) -> Example:
        subject = Subject(pronoun=PRONOUNS[g.rng.choice(["you", "you", "he", "she"] if ask else ["I", "I", "we", "he", "she"])])
        p = subject.pronoun
        best_en, best_de = [chunk("best", "BEST")], [chunk("am", "BEST"), chunk("liebsten", "BEST")]
        like_ko = "좋아해요" if ask else korean.predicate(("좋아하", "VV"), korean.STATEMENT["present"])
        ko_subject = [] if subject.is_you else subject.ko("은")
        mag = german.present("mögen", p.de_person)[0]
        if ask:
            kind_en, kind_ko, kind_de, gender, _ = g.pick(WHICH_KINDS, used=False)
            do = "does" if p.en_person == 3 else "do"
            en = [chunk("which", "W"), chunk(kind_en, "K"), chunk(do, "V"), *subject.en(), chunk("like", "V"), *best_en]
            de = [chunk(WELCH_ACC[gender], "W"), chunk(kind_de, "K"), chunk(mag, "V"), *subject.de(), *best_de]
            ko = [*ko_subject, chunk("어떤", "W"), chunk(korean.with_particle(kind_ko, "을"), "K"),
                  chunk("가장", "BEST"), chunk(like_ko, "V")]
            return Example("", en, ko, de, end="?")
        classes = g.pick([k[4] for k in WHICH_KINDS if k[4]], used=False)
        np = g.phrase(classes, dets=("bare",), adjective=0)
        en = [*subject.en(), chunk(english.verb("like", "VBZ" if p.en_person == 3 else "VB"), "V"), *np.en("O"),
              *best_en]
        de = [*subject.de(), chunk(mag, "V"), *np.de("O", "acc"), *best_de]
        ko = [*ko_subject, *np.ko("O", "을"), chunk("가장", "BEST"), chunk(like_ko, "V")]
        return Example("", en, ko, de, lemmas=np.lemmas())
    return build
