"""Statements and yes/no questions of the clause, and the frames of "to be": adjectives, nouns,
"this is", "there is"."""
from __future__ import annotations

from dataclasses import replace

from .. import english, german, korean
from ..phrases import FIRST_PERSON, PRONOUNS, NounPhrase, Pronoun, Subject
from ..sentence import Example, chunk
from .clause import Clause, de_main, en_clause, ko_clause
from .gen import (
    ANIMAL_ONLY,
    ASLEEP,
    BEDTIME_VERBS,
    DENIABLE,
    EVERYONE_DOES,
    INVOLUNTARY,
    LASTING,
    MONTHS,
    OF_THE_DAY,
    REACTIONS,
    ROLES,
    SOME_ANIMALS,
    STATIVE,
    TIMELESS,
    UNPLANNED,
    Gen,
    fits,
    going,
    in_season,
    kept,
)

COMPANION_P = 0.12      # how often a clause says who with: "I play soccer with my father."
ADVERB_P = 0.15        # how often a statement or question in the present says how often: "We usually eat at seven."
ADVERBS = (("usually", "보통", "normalerweise"), ("often", "자주", "oft"), ("always", "항상", "immer"),
           ("sometimes", "가끔", "manchmal"))
HABITS = ("every", "once", "twice", "sometimes")    # times that already say how often: not with an adverb
DWELL_COMPANION_P = 0.4     # "My grandmother lives with my family (in Seoul)."
DWELLINGS = {"city", "village", "countryside", "farm", "island", "house", "apartment"}  # and every country and city
HOUSEMATES = {"family", "parent", "mother", "father", "grandmother", "grandfather", "brother", "sister", "son",
              "daughter", "uncle", "aunt", "cousin", "friend", "husband", "wife"}
DWELL_TIMES = {"last year", "next year", "this year", "last summer", "next summer", "last winter"}


def dwelling(g: Gen):
    """A place where people live: a country, a city, the countryside, an apartment."""
    return g.pick([p for p in g.lex.places if p.kind in ("country", "city") or p.en in DWELLINGS])


def dwell_time(g: Gen, tense: str, p: float):
    """Only a span of years or seasons: "My uncle lived in Busan last year", never "on Sundays"."""
    times = [t for t in g.lex.times if t.en in DWELL_TIMES and tense in t.tenses]
    return g.pick(times) if times and g.chance(p) else None


def own(subject: Subject) -> Pronoun | None:
    """Whose one's own family is, said of the subject: I my, Max his, my grandmother my, his cousin his, the students
    their; Korean leaves a third person's own unsaid (막스는 할머니와 함께 산다, 그의 사촌은 여동생과).  None where English
    has no word for it: one person of no known gender ("The student lives with …"), and one of someone named ("Junho's
    teachers live with his friend." reads as Junho's friend)."""
    if subject.pronoun:
        return subject.pronoun
    if subject.name:
        return replace(PRONOUNS["he" if subject.name.gender == "m" else "she"], ko_poss="")
    owner = subject.phrase.owner
    if isinstance(owner, Pronoun):
        return owner if owner in FIRST_PERSON else replace(owner, ko_poss="")
    return replace(PRONOUNS["they"], ko_poss="") if subject.phrase.plural and owner is None else None


def housemate(g: Gen, subject: Subject) -> NounPhrase | None:
    """Whom one lives with, of one's own family: "Max lives with his grandmother.", "My grandmother lives with my
    family.", not "Max lives with their grandmother." nor "Clara's brother lives with her brother."."""
    owner = own(subject)
    if owner is None:
        return None
    noun = g.pick([n for n in g.nouns(("person",)) if n.en in HOUSEMATES
                   and not (subject.phrase and n.ko == subject.phrase.noun.ko)])
    return NounPhrase(noun, "poss", noun.en == "parent", owner, little=g.little(noun))


def make_clause(g: Gen, frame: str, tense: str, neg: bool, time_p: float = 0.4, time_first: bool = False,
                adverb_p: float = 0.0) -> Clause:
    animal = frame == "intr" and g.chance(0.3)
    verb_frame = {"intr": "intr", "intr_place": "intr", "tr": "tr", "tr_place": "tr", "motion": "motion",
                  "dwell": "dwell"}[frame]
    verbs = [v for v in g.verbs(verb_frame, animal)       # a state is neither -ing nor somewhere (동물원에서 ... 안다)
             if not ((tense == "progressive" or frame == "tr_place") and v.en in STATIVE)
             and not (time_first and v.en in LASTING | TIMELESS | {"have"})       # nor "Every night, I like apples."
             and (not neg or tense != "present" or v.en in DENIABLE)     # nor "… doesn't fold a worksheet."
             and not (neg and tense == "present" and frame == "intr" and v.en in EVERYONE_DOES)  # "She does not sleep."
             and not (tense == "future" and v.en in REACTIONS)]     # nor "On Monday, he will smile."
    verb = g.pick(verbs)
    if verb.frame == "intr" and verb.en in ANIMAL_ONLY:
        subject = Subject(phrase=g.phrase(ANIMAL_ONLY[verb.en], dets=("the", "poss"), adjective=0.15))
    else:
        subject = g.subject(animal_ok=animal)
        if subject.phrase and subject.phrase.noun.cls == "animal" and verb.en in SOME_ANIMALS:     # not "the deer sings"
            subject = Subject(phrase=g.phrase(SOME_ANIMALS[verb.en], dets=("the", "poss"), adjective=0.15))
    obj = obj2 = None
    if verb_frame == "tr":
        generic = verb.en in ("like", "love", "hate") or neg and tense == "present"    # "I don't eat apples."
        dets = ("bare",) if generic and g.chance(0.7) else ("a", "the", "bare", "poss", "this") + ("num",) * (not neg)
        obj = g.object(verb, dets)
        said = g.verb_for(verb, obj)
        if obj.det == "bare" and g.chance(0.15):
            obj2 = g.object(verb, ("bare",), adjective=0)
            if obj2.noun == obj.noun or g.verb_for(verb, obj2) != said:    # not 모자와 신발을 쓰다
                obj2 = None
        verb = said
        if subject.name and obj.owner == subject.name:      # not "Seojun will have Seojun's stapler"
            obj = replace(obj, det="the", owner=None)
    place = g.place(verb) if frame in ("intr_place", "tr_place", "motion") else None
    if place:
        verb = going(verb, place)
    time = g.time(tense, how_long=not time_first and frame != "motion", every=not neg,
                  verb=verb.en, neg=neg) if g.chance(time_p) else None
    if obj and verb.en == "have" and obj.noun.cls == "person":      # one's family is lasting
        time = None
    companion = None
    if frame == "dwell":
        place, time = dwelling(g), dwell_time(g, tense, time_p)
        if not neg and g.chance(DWELL_COMPANION_P):
            companion = housemate(g, subject)
            if companion and g.chance(0.5):
                place = None        # "My grandmother lives with my family."
    elif not neg and not animal and verb.en not in STATIVE | BEDTIME_VERBS | INVOLUNTARY and g.chance(COMPANION_P):
        companion = g.phrase(("person",), dets=("poss", "the"), adjective=0)
        if companion.noun.ko in {np.noun.ko for np in (subject.phrase, obj, obj2) if np}:     # not 아버지와 함께 아버지를
            companion = None
    adverb = None
    if tense == "present" and not neg and frame != "dwell" and verb.en not in STATIVE and g.chance(adverb_p):
        adverb = g.pick(ADVERBS, used=False)
        if time and time.en.startswith(HABITS):     # not both; a sentence that starts with its time keeps it
            adverb, time = (None, time) if time_first else (adverb, None)
    return Clause(subject, verb, tense, neg, obj, obj2, place, frame == "motion", time, companion, adverb)


def active_clause(g: Gen, frames: tuple[str, ...], neg: bool, time_p: float) -> Clause:
    """A present clause of one of the frames whose verb is an action one chooses: not a state ("have", "like") nor
    what happens to one ("Do they want to snore?", "Let's smile after lunch!", "She likes losing the tent.")."""
    c = make_clause(g, g.pick(frames, used=False), "present", neg, time_p)
    while c.verb.en in STATIVE | UNPLANNED:
        c = make_clause(g, g.pick(frames, used=False), "present", neg, time_p)
    return c


def statement(frame: str, tense: str, neg: bool, time_first: bool = False):
    """A statement; no one says they are asleep ("Now, I am sleeping.")."""
    def build(g: Gen) -> Example:
        c = make_clause(g, frame, tense, neg, 1.0 if time_first else 0.4, time_first, ADVERB_P)
        if tense == "progressive" and not neg and c.verb.en in ASLEEP and c.subject.pronoun in FIRST_PERSON:
            c.subject = g.subject(me_ok=False)
        contract = g.chance(0.5)
        return Example("", en_clause(c, False, time_first, contract), ko_clause(c, "statement", time_first),
                       de_main(c, False, time_first), lemmas=lemmas_of(c))
    return build


def question(frame: str, tense: str):
    """A yes/no question; one does not ask whether oneself does a plain act now or as a habit ("Do we sleep?",
    "Am I dancing?"), nor whether one is doing something now ("Am I going to the library?"), nor where one lives or
    lived ("Did I live in London?"), nor whether one does what everyone does without saying when ("Do you sleep?"
    but "Do you sleep in the afternoon?")."""
    def build(g: Gen) -> Example:
        c = make_clause(g, frame, tense, False, 0.3, adverb_p=ADVERB_P)
        me = c.subject.pronoun
        if (frame in ("intr", "intr_place") and tense in ("present", "progressive") and me in FIRST_PERSON
                or (tense == "progressive" or frame == "dwell") and me is PRONOUNS["I"]):
            c.subject = g.subject(me_ok=False)
        if (frame == "intr" and tense == "present" and c.verb.en in EVERYONE_DOES
                and not (c.time and c.time.en.startswith(OF_THE_DAY))):     # "Does she sleep on Friday?"
            c.time = g.time(tense, verb=c.verb.en, of_day=True)
            if c.time.en.startswith(HABITS):        # not "Do you usually sleep every night?"
                c.adverb = None
        return Example("", en_clause(c, True, False, False), ko_clause(c, "question", False),
                       de_main(c, True, False), end="?", lemmas=lemmas_of(c))
    return build


def lemmas_of(c: Clause) -> set[str]:
    out = {c.verb.id} | c.subject.lemmas()
    for x in (c.obj, c.obj2, c.companion):
        if x:
            out |= x.lemmas()
    for x in (c.place, c.time):
        if x:
            out.add(x.id)
    return out


def _be(g: Gen, subject: Subject, tense: str, neg: bool, question: bool, contract: bool):
    """English 'am/is/are (not)' chunks and German sein."""
    be = english.be("past" if tense == "past" else "present", subject.en_person)
    en_v = [chunk(be, "V")]
    if neg:
        en_v = [chunk(be + "n't", "V", "NEG")] if contract and be != "am" else [chunk(be, "V"), chunk("not", "NEG")]
    de_v = german.preterite("sein", subject.de_person) if tense == "past" else german.present("sein", subject.de_person)[0]
    return en_v, de_v


DEGREE_P = 0.3     # how often "to be" + adjective says how much: "My tea is too sweet."
DEGREES = (("very", "아주", "sehr"), ("too", "너무", "zu"), ("really", "정말", "wirklich"),
           ("a little", "조금", "ein bisschen"), ("so", "정말", "so"))


def degree(g: Gen, neg: bool) -> tuple[list, list, list]:
    """How much, before the adjective in each language ("too sweet", "너무 달다", "zu süß"), or nothing; never in
    a negated sentence ("not very" is 별로 … 않다, another construction)."""
    if neg or not g.chance(DEGREE_P):
        return [], [], []
    en, ko, de = g.pick(DEGREES, used=False)
    return [chunk(en, "DEG")], [chunk(ko, "DEG")], [chunk(de, "DEG")]


def be_adjective(tense: str, neg: bool, ask: bool = False):
    def build(g: Gen) -> Example:
        persons = g.chance(0.4)
        if persons:
            subject = g.subject()
            adjective = g.adjective_for("person")
        else:
            classes = {n.cls for n in g.lex.nouns}
            adjective = g.pick([a for a in g.lex.adjectives if set(a.applies) & classes])
            cls = g.pick(sorted(set(adjective.applies) & classes), used=False)
            nouns = tuple(n.id for n in g.nouns((cls,)) if fits(adjective, n)) or (cls,)    # not "The goats are long."
            subject = Subject(phrase=g.phrase(nouns, dets=("the", "poss", "this"), adjective=0))
        g.lemmas.add(adjective.id)
        en_v, de_v = _be(g, subject, tense, neg, ask, g.chance(0.5))
        ko_words = korean.adjective_predicate(adjective.ko, adjective.ko_irr, tense, neg, ask,
                                              honorific=subject.honorific, others=subject.feels_outside(ask)).split(" ")
        ko_pred = [chunk(w, "NEG" if w.startswith(("않", "아니")) else "A") for w in ko_words]
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        en_deg, ko_deg, de_deg = degree(g, neg or adjective.ko_irr == "N")    # not 아주 초록색이다, 너무 새것이다
        en = ([*en_v, *subject.en(), *en_deg, chunk(adjective.en, "A")] if ask else
              [*subject.en(), *en_v, *en_deg, chunk(adjective.en, "A")])
        nicht = [chunk("nicht", "NEG")] if neg else []
        de = ([chunk(de_v, "V"), *subject.de(), *nicht, *de_deg, chunk(adjective.de, "A")] if ask else
              [*subject.de(), chunk(de_v, "V"), *nicht, *de_deg, chunk(adjective.de, "A")])
        return Example("", en, [*ko_subject, *ko_deg, *ko_pred], de, end="?" if ask else ".",
                       lemmas=g.lemmas | subject.lemmas())
    return build


SEASONS = {"in spring", "in summer", "in autumn", "in winter"}
TEMPERATURES = {"hot", "cold", "warm", "cool", "mild", "freezing", "chilly"}
SCALES = (TEMPERATURES, {"big", "small"}, {"long", "short"}, {"heavy", "light"}, {"new", "old"}, {"good", "bad"},
          {"loud", "quiet"}, {"thick", "thin"}, {"strong", "weak"}, {"rich", "poor"}, {"happy", "sad"},
          {"wide", "narrow"}, {"easy", "difficult"}, {"boring", "interesting", "exciting", "funny"},
          {"clean", "dirty"}, {"wet", "dry"}, {"fast", "slow"}, {"cheap", "expensive"},
          {"humid", "cold", "cool", "chilly", "freezing"})           # schwül is warm
# "but" joins a good and a bad side ("The kimchi is spicy but delicious.", "It is cold but sunny."), never two of
# a kind ("popular but exciting") nor a colour or a size
GOOD = {"good", "nice", "beautiful", "pretty", "cute", "kind", "smart", "funny", "interesting", "strong", "brave",
        "famous", "rich", "friendly", "honest", "diligent", "cheerful", "important", "useful", "calm", "polite",
        "careful", "generous", "wise", "popular", "exciting", "happy", "glad", "delicious", "sweet", "fresh", "easy",
        "cheap", "clean", "near", "safe", "healthy", "comfortable", "neat", "cozy", "soft", "bright", "fast", "new",
        "sunny", "mild", "warm", "cool"}
BAD = {"bad", "boring", "weak", "poor", "lazy", "rude", "sad", "tired", "hungry", "thirsty", "sick", "bored", "sleepy",
       "lonely", "nervous", "unhappy", "scared", "upset", "worried", "salty", "spicy", "sour", "bitter", "bland",
       "difficult", "expensive", "dirty", "far", "dangerous", "crowded", "noisy", "messy", "hard", "heavy", "slow",
       "loud", "old", "strange", "shy", "wet", "dark", "cold", "chilly", "humid", "windy", "cloudy"}


def bad(a) -> bool:
    """Whether an adjective is the bad side of "but": cold weather is, a cold drink is not ("fresh but cold")."""
    return a.en in BAD and not (a.en == "cold" and "weather" not in a.applies)


def joinable(word: str, a, b) -> bool:
    """Whether "a and b" or "a but b" is said: never two of one scale ("cold and hot"), and "but" joins a good and
    a bad side."""
    return a != b and not any({a.en, b.en} <= scale for scale in SCALES) and (
        word != "but" or a.en in GOOD and bad(b) or bad(a) and b.en in GOOD)


def two_adjectives(word: str):
    """'The soup is hot and salty.' -> '국은 뜨겁고 짜다.' -> 'Die Suppe ist heiß und salzig.'; word 'but':
    'The kimchi is spicy but delicious.' -> '김치는 맵지만 맛있다.' -> 'Das Kimchi ist scharf, aber lecker.';
    or the weather: 'It is cold and windy today.' -> '오늘은 춥고 바람이 세다.' -> 'Es ist heute kalt und windig.'"""
    def said_of(g: Gen, cls: str) -> list:
        """The adjectives of the class that join with another of them."""
        def joining() -> list:
            adjectives = [a for a in g.lex.adjectives if cls in a.applies]
            return [a for a in adjectives if any(joinable(word, a, b) for b in adjectives)]
        return kept((g.lex.adjectives,), ("joining", word, cls), joining)

    def build(g: Gen) -> Example:
        firsts = said_of(g, "weather")
        if firsts and g.chance(0.3):
            cls = "weather"
            times = [t for t in g.lex.times if t.en in SEASONS or t.en in ("today", "in the morning")
                     or (t.en.startswith("in ") and t.en[3:] in MONTHS)]
            time = g.pick(times, used=False)
            en_s, de_s = [chunk("it", "S")], [chunk("es", "S")]
        else:
            firsts_of = {c: said_of(g, c) for c in {n.cls for n in g.lex.nouns} - {"person"}}
            cls = g.pick(sorted(c for c, said in firsts_of.items() if said), used=False)
            firsts = firsts_of[cls]
            np = g.phrase((cls,), dets=("the", "poss", "this"), adjective=0)
            en_s, de_s, ko_s, lemmas, time = np.en("S"), np.de("S", "nom"), np.ko("S", "은"), np.lemmas(), None
        first = g.pick(firsts)
        second = g.pick([b for b in g.lex.adjectives if cls in b.applies and joinable(word, first, b)])
        if time and not (in_season(first.en, time.en) and in_season(second.en, time.en)):     # not "hot in winter"
            time = g.pick([t for t in times if in_season(first.en, t.en) and in_season(second.en, t.en)], used=False)
        if time:
            ko_s, lemmas = [chunk(korean.time_topic(time.ko), "T")], {time.id}
        plural = time is None and np.plural
        en_tail = [chunk(time.en, "T")] if time else []
        de_mid = [chunk(time.de, "T")] if time else []
        en = [*en_s, chunk("are" if plural else "is", "V"), chunk(first.en, "A"),
              chunk(word, "CONJ"), chunk(second.en, "A2"), *en_tail]
        de = [*de_s, chunk("sind" if plural else "ist", "V"), *de_mid,
              chunk(first.de + ("," if word == "but" else ""), "A"), chunk("und" if word == "and" else "aber", "CONJ"),
              chunk(second.de, "A2")]
        connective = "고" if word == "and" else "지만"
        first_ko = korean.connected(first.ko, first.ko_irr, connective).split(" ")
        second_ko = korean.adjective_predicate(second.ko, second.ko_irr, "present", False, False).split(" ")
        ko = [*ko_s, *(chunk(w, "A") for w in first_ko[:-1]), chunk(first_ko[-1], "A", "CONJ"),
              *(chunk(w, "A2") for w in second_ko)]
        return Example("", en, ko, de, lemmas=lemmas | {first.id, second.id})
    return build


NOT_JOBS = {"friend", "child", "baby", "boy", "girl"}     # German says them with ein: "Sie ist ein Kind."


def be_noun(tense: str, neg: bool, ask: bool = False):
    """'I am a student.' -> '나는 학생이다.' -> 'Ich bin Schüler.' (no article for a role in German; a woman's
    word for a woman: 'Clara ist Lehrerin.', 'Sujin ist keine Freundin.')."""
    def build(g: Gen) -> Example:
        subject = g.subject(you_ok=True)
        subject = Subject(pronoun=subject.pronoun) if subject.pronoun else Subject(name=g.pick(g.lex.names))
        unfit = {"f": "boy", "m": "girl"}.get(subject.gender)
        noun = g.pick([n for n in g.nouns(("person",)) if n.en in ROLES and n.en != unfit])
        plural = subject.en_person == 0 and subject.pronoun and subject.pronoun.en != "you"
        en_noun = english.plural(noun.en, noun.en_plural) if plural else noun.en
        en_v, de_v = _be(g, subject, tense, neg, ask, g.chance(0.5))
        en_np = ([] if plural else [chunk(english.article(noun.en), "O.det")]) + [chunk(en_noun, "O.n")]
        en = ([*en_v, *subject.en(), *en_np] if ask else [*subject.en(), *en_v, *en_np])
        de_noun, de_gender = noun.de, noun.de_gender
        if plural:
            de_noun, de_gender = (noun.de_plural if noun.de_plural != "-" else noun.de), "pl"
        elif subject.gender == "f" and noun.de_gender == "m":
            de_noun, de_gender = german.feminine(noun.de), "f"
        if neg:
            de_np = [chunk(german.article("kein", de_gender, "nom"), "NEG"), chunk(de_noun, "O.n")]
        elif noun.en in NOT_JOBS and not plural:        # Er ist ein Freund, but Er ist Lehrer.
            de_np = [chunk(german.article("ein", de_gender, "nom"), "O.det"), chunk(de_noun, "O.n")]
        else:
            de_np = [chunk(de_noun, "O.n")]
        de = [chunk(de_v, "V"), *subject.de(), *de_np] if ask else [*subject.de(), chunk(de_v, "V"), *de_np]
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        if neg:
            ko_pred = [chunk(korean.with_particle(noun.ko, "이"), "O.n"),
                       chunk(korean.predicate(("아니", "VCN"), [("었", "EP")] * (tense == "past") +
                                              [("에요" if ask else "다", "EF")]), "V", "NEG")]
        else:
            ko_pred = [chunk(korean.copula(noun.ko, tense == "past", ask), "O.n", "V")]
        return Example("", en, [*ko_subject, *ko_pred], de, end="?" if ask else ".", lemmas={noun.id} | subject.lemmas())
    return build


def this_is(ask: bool):
    """'This is an apple.' -> '이것은 사과이다.' -> 'Das ist ein Apfel.'"""
    def build(g: Gen) -> Example:
        np = g.phrase(("food", "drink", "thing", "readable", "clothing", "animal", "vehicle", "furniture",
                       "instrument"), dets=("a", "poss"), plural=False)
        en_is = [chunk("Is" if ask else "is", "V")]
        en = [*en_is, chunk("this", "S"), *np.en("O")] if ask else [chunk("This", "S"), *en_is, *np.en("O")]
        de = ([chunk("Ist", "V"), chunk("das", "S"), *np.de("O", "nom")] if ask else
              [chunk("Das", "S"), chunk("ist", "V"), *np.de("O", "nom")])
        ko_np = np.ko("O", None)
        last_text, last_tags = ko_np[-1]
        pred = korean.copula(last_text, question=ask)
        ko = [chunk("이것은", "S"), *ko_np[:-1], chunk(pred, *last_tags, "V")]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=np.lemmas())
    return build


def there_is(neg: bool):
    """'There are two apples on the table.' -> '탁자 위에 사과가 두 개 있다.' -> 'Auf dem Tisch sind zwei Äpfel.'"""
    def build(g: Gen) -> Example:
        place = g.pick(g.lex.places)
        np = g.phrase(("food", "drink", "thing", "readable", "clothing", "animal", "person", "vehicle", "furniture"),
                      dets=("a", "bare") if neg else ("a", "num"), adjective=0.2)     # no "There are no two apples"
        verb = english.be("present", np.en_person)
        en_v = [chunk(verb, "V"), chunk("no", "NEG")] if neg else [chunk(verb, "V")]
        en_np = [c for c in np.en("O") if not (neg and c[0] in ("a", "an"))]
        en = [chunk("there", "V"), *en_v, *en_np, chunk(place.en_at, "P")]
        de_place = place.de_at[0].upper() + place.de_at[1:]
        de = [chunk(de_place, "P"), chunk("sind" if np.plural else "ist", "V"), *np.de("O", "nom", negated="NEG" if neg else "")]
        ko = [chunk(korean.with_particle(place.ko, "에"), "P"), *np.ko("O", "이"),
              chunk("없다" if neg else "있다", "V", *(("NEG",) if neg else ()))]
        return Example("", en, ko, de, lemmas=np.lemmas() | {place.id})
    return build
