"""The frames: sentence patterns that build one Example in English, Korean and German at once.

A frame's name says what it varies: "tr.past.neg" is a transitive statement in the past, negated;
"q.motion.future" a yes/no question; "tf.intr.past.pos" a statement that starts with its time
("Yesterday, Minsu slept." -> "Gestern hat Minsu geschlafen.", V2).  FRAMES lists them all.

Tags (see sentence.py): S subject, V verb (auxiliaries included), NEG negation, MOD can/want to,
O object, P place, T time, A adjective, plus the noun-phrase parts O.det, O.adj, O.num, O.n.
A second clause's tags start with 2 ("2S", "2V").
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from . import english, german, korean
from .lexicon import Lexicon, Noun, Verb, core
from .phrases import COUNTERS, PRONOUNS, NounPhrase, Subject
from .sentence import Chunk, Example, chunk

TENSES = ("present", "past", "future", "progressive")
STATIVE = {"like", "love", "hate", "have", "need", "want", "know", "understand", "own", "believe", "remember"}
KO_DESCRIPTIVE = {"있다", "없다", "필요하다", "좋다", "싫다"}       # conjugated like adjectives: 있다, not 있는다
ANIMAL_VERBS = {"sleep", "run", "swim", "eat", "drink", "jump", "walk", "play", "fly", "sing", "cry"}
ROLES = {"student", "teacher", "doctor", "nurse", "cook", "farmer", "police officer", "pilot", "singer", "driver",
         "dentist", "firefighter", "artist", "writer", "scientist", "engineer", "baker", "vet", "soldier", "actor",
         "dancer", "painter", "musician", "waiter", "player", "child", "baby", "boy", "girl", "friend"}
DE_ME = {"acc": "mich", "dat": "mir"}
CORE_WEIGHT = 8       # how much more often a core word is drawn than another of its kind
PLEASE_HELP = {"help", "call", "visit", "wake", "understand", "invite", "wait for", "take care of", "meet"}


class Gen:
    """A frame's source of choices: the random generator and the lexicon it may draw from."""

    def __init__(self, rng: random.Random, lex: Lexicon):
        self.rng, self.lex, self.core = rng, lex, core()
        self.lemmas: set[str] = set()

    def pick(self, items, used=True):
        """One of items; a core word (lexicon/core.txt) CORE_WEIGHT times as likely as another."""
        items = list(items)
        item = self.rng.choices(items, [CORE_WEIGHT if getattr(i, "id", None) in self.core else 1 for i in items])[0]
        if used and hasattr(item, "id"):
            self.lemmas.add(item.id)
        return item

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def nouns(self, classes) -> list[Noun]:
        return [n for n in self.lex.nouns if n.cls in classes]

    def verbs(self, frame: str, animal: bool = False) -> list[Verb]:
        return [v for v in self.lex.verbs if v.frame == frame and (not animal or v.en in ANIMAL_VERBS)
                and (frame != "tr" or self.nouns(v.obj))]

    def adjective_for(self, cls: str, comparative: bool = False):
        fits = [a for a in self.lex.adjectives if cls in a.applies and (not comparative or a.en_comp != "-")]
        return self.pick(fits) if fits else None

    def phrase(self, classes, dets=("a", "the", "bare", "poss", "num", "this"), adjective: float = 0.25,
               plural: bool | None = None) -> NounPhrase:
        mass_ok = any(d in ("the", "bare", "poss") for d in dets)
        noun = self.pick([n for n in self.nouns(classes) if n.countable or mass_ok])
        dets = [d for d in dets if noun.countable or d in ("the", "bare", "poss")]
        det = self.pick(dets)
        is_plural = noun.countable and (det in ("bare", "num") or (det in ("the", "poss", "this") and
                                                                   (plural if plural is not None else self.chance(0.3))))
        owner = number = adj = None
        if det == "poss":
            owner = self.pick(list(PRONOUNS.values()) + list(self.lex.names))
        if det == "num":
            number = self.pick([n for n in self.lex.numbers if n.n > 1])
        if self.chance(adjective):
            adj = self.adjective_for(noun.cls)
        return NounPhrase(noun, det, is_plural, owner, adj, number)

    def subject(self, animal_ok: bool = False, you_ok: bool = True) -> Subject:
        r = self.rng.random()
        if r < 0.5:
            keys = [k for k in PRONOUNS if you_ok or k != "you"]
            return Subject(pronoun=PRONOUNS[self.rng.choice(keys)])
        if r < 0.7:
            return Subject(name=self.pick(self.lex.names))
        classes = ("person", "animal") if animal_ok else ("person",)
        return Subject(phrase=self.phrase(classes, dets=("the", "poss"), adjective=0.15))

    def time(self, tense: str):
        return self.pick([t for t in self.lex.times if tense in t.tenses])


# ---- verb groups ------------------------------------------------------------------------------


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


def ko_verb(verb_ko: str, irregular: str, tense: str, neg: bool, style: str, k: str = "") -> list[Chunk]:
    """Korean predicate words: the stem's word is V, a word of 않/없 is NEG, the rest V."""
    V, NEG = k + "V", k + "NEG"
    descriptive = verb_ko in KO_DESCRIPTIVE
    if verb_ko == "있다" and neg:            # 있지 않다 -> 없다
        verb_ko, neg = "없다", False
        text = korean.predicate(korean.stem(verb_ko, "", True), korean.STATEMENT[tense] if style == "statement"
                                else korean.QUESTION[tense])
        return [chunk(text, V, NEG)]
    endings = (korean.STATEMENT if style == "statement" else korean.QUESTION)[tense]
    text = korean.predicate(korean.stem(verb_ko, irregular, descriptive), endings, negative=neg)
    return [chunk(w, NEG if w.startswith(("않", "없")) else V) for w in text.split(" ")]


@dataclass
class DeVerb:
    finite: str
    right: list[str]        # participle, infinitive or separable prefix, at the clause's end


def de_verb(verb: str, aux: str, tense: str, person: int) -> DeVerb:
    inf = german.infinitive(verb)
    if tense in ("present", "progressive"):
        finite, prefix = german.present(verb, person)
        return DeVerb(finite, [prefix] if prefix else [])
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
        return [*front, *subject, *fields, *nicht, *after, *right, chunk(verb.finite, k + "V")]
    return [*front, chunk(verb.finite, k + "V"), *subject, *fields, *nicht, *after, *right]


# ---- the clause: subject, verb, object, place, time ---------------------------------------------


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


def _obj_en(c: Clause, k: str) -> list[Chunk]:
    if not c.obj:
        return []
    out = c.obj.en(k + "O")
    if c.obj2:
        out += [chunk("and", k + "O.and"), *c.obj2.en(k + "O2")]
    return out


def _obj_ko(c: Clause, k: str) -> list[Chunk]:
    if not c.obj:
        return []
    if c.obj2:
        return [*c.obj.ko(k + "O", "와"), *c.obj2.ko(k + "O2", c.verb.ko_case)]
    return c.obj.ko(k + "O", c.verb.ko_case)


def _obj_de(c: Clause, k: str) -> tuple[str, list[Chunk]]:
    if not c.obj:
        return "obj", []
    case = c.verb.de_case
    kein = c.neg and not c.verb.de_prep and c.obj.indefinite and not c.obj2
    out = c.obj.de(k + "O", case, negated=k + "NEG" if kein else "")
    if c.obj2:
        out += [chunk("und", k + "O.and"), *c.obj2.de(k + "O2", case)]
    if c.verb.de_prep:       # auf/mit goes with the English article, or with the verb ("wait for") when none
        tag = k + ("O.det" if c.obj.det in ("a", "the", "this", "poss") else "V")
        return "pp", [chunk(c.verb.de_prep, tag), *out]
    return "obj", out


def en_clause(c: Clause, question: bool, time_first: bool, contract: bool, k: str = "") -> list[Chunk]:
    before, after = en_verb(c.verb.en, c.tense, c.subject.en_person, c.neg, question, contract, k)
    place = [chunk(c.place.en_to if c.place_to else c.place.en_at, k + "P")] if c.place else []
    time = [chunk(c.time.en + ("," if time_first else ""), k + "T")] if c.time else []
    body = [*c.subject.en(k + "S"), *after, *_obj_en(c, k), *place]
    if question:
        body = [*before, *body]
    return [*time, *body] if time_first else [*body, *time]


def ko_clause(c: Clause, style: str, time_first: bool, k: str = "", connective: str = "",
              predicate: list[Chunk] | None = None) -> list[Chunk]:
    """Subject (topic 은/는; "you" is dropped in questions), time, place, object, predicate (SOV)."""
    drop_subject = style == "question" and c.subject.is_you
    subject = [] if drop_subject else c.subject.ko("은", k + "S")
    time = [chunk(c.time.ko, k + "T")] if c.time else []
    place = []
    if c.place:
        place = [chunk(korean.with_particle(c.place.ko, "에" if c.place_to else "에서"), k + "P")]
    if predicate is not None:
        verb = predicate
    elif connective:       # the first of two clauses: 먹고, 먹었지만
        stem = korean.stem(c.verb.ko, c.verb.ko_irr, c.verb.ko in KO_DESCRIPTIVE)
        endings = ([("었", "EP")] if c.tense == "past" else []) + [(connective, "EC")]
        text = korean.predicate(stem, endings, negative=c.neg)
        verb = [chunk(w, k + ("NEG" if w.startswith("않") else "V")) for w in text.split(" ")]
    else:
        verb = ko_verb(c.verb.ko, c.verb.ko_irr, c.tense, c.neg, style, k)
    head = [*time, *subject] if time_first else [*subject, *time]
    return [*head, *place, *_obj_ko(c, k), *verb]


def de_main(c: Clause, question: bool, time_first: bool, k: str = "") -> list[Chunk]:
    verb = de_verb(c.verb.de, c.verb.de_aux, c.tense, c.subject.de_person)
    subject = c.subject.de(k + "S")
    time = [chunk(c.time.de, k + "T")] if c.time else []
    kind, obj = _obj_de(c, k)
    place = [("pp", [chunk(c.place.de_to if c.place_to else c.place.de_at, k + "P")])] if c.place else []
    kein = any(w == "kein" or w.startswith("kein") for w, _ in obj)
    neg = c.neg and not kein
    if time_first:
        return de_clause(time, verb, subject, [(kind, obj), *place], neg, k)
    mid = [("time", time), (kind, obj), *place]
    return de_clause([] if question else subject, verb, subject if question else [], mid, neg, k)


# ---- frames ---------------------------------------------------------------------------------------


def _clause(g: Gen, frame: str, tense: str, neg: bool, time_p: float = 0.4) -> Clause:
    animal = frame == "intr" and g.chance(0.3)
    verb_frame = {"intr": "intr", "intr_place": "intr", "tr": "tr", "tr_place": "tr", "motion": "motion"}[frame]
    verbs = [v for v in g.verbs(verb_frame, animal) if not (tense == "progressive" and v.en in STATIVE)]
    verb = g.pick(verbs)
    subject = g.subject(animal_ok=animal)
    obj = obj2 = None
    if verb_frame == "tr":
        generic = verb.en in ("like", "love", "hate")
        dets = ("bare",) if generic and g.chance(0.7) else ("a", "the", "bare", "poss", "this") + ("num",) * (not neg)
        obj = g.phrase(verb.obj, dets=dets)
        if obj.det == "bare" and g.chance(0.15):
            obj2 = g.phrase(verb.obj, dets=("bare",), adjective=0)
            if obj2.noun == obj.noun:
                obj2 = None
    place = g.pick(g.lex.places) if frame in ("intr_place", "tr_place", "motion") else None
    time = g.time(tense) if g.chance(time_p) else None
    return Clause(subject, verb, tense, neg, obj, obj2, place, frame == "motion", time)


def statement(frame: str, tense: str, neg: bool, time_first: bool = False):
    def build(g: Gen) -> Example:
        c = _clause(g, frame, tense, neg, 1.0 if time_first else 0.4)
        contract = g.chance(0.5)
        return Example("", en_clause(c, False, time_first, contract), ko_clause(c, "statement", time_first),
                       de_main(c, False, time_first), lemmas=_lemmas(c))
    return build


def question(frame: str, tense: str):
    def build(g: Gen) -> Example:
        c = _clause(g, frame, tense, False, 0.3)
        return Example("", en_clause(c, True, False, False), ko_clause(c, "question", False),
                       de_main(c, True, False), end="?", lemmas=_lemmas(c))
    return build


def _lemmas(c: Clause) -> set[str]:
    out = {c.verb.id} | c.subject.lemmas()
    for x in (c.obj, c.obj2):
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
            subject = Subject(phrase=g.phrase((cls,), dets=("the", "poss", "this"), adjective=0))
        g.lemmas.add(adjective.id)
        en_v, de_v = _be(g, subject, tense, neg, ask, g.chance(0.5))
        ko_words = korean.adjective_predicate(adjective.ko, adjective.ko_irr, tense, neg, ask).split(" ")
        ko_pred = [chunk(w, "NEG" if w.startswith(("않", "아니")) else "A") for w in ko_words]
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        en = ([*en_v, *subject.en(), chunk(adjective.en, "A")] if ask else
              [*subject.en(), *en_v, chunk(adjective.en, "A")])
        nicht = [chunk("nicht", "NEG")] if neg else []
        de = ([chunk(de_v, "V"), *subject.de(), *nicht, chunk(adjective.de, "A")] if ask else
              [*subject.de(), chunk(de_v, "V"), *nicht, chunk(adjective.de, "A")])
        return Example("", en, [*ko_subject, *ko_pred], de, end="?" if ask else ".", lemmas=g.lemmas | subject.lemmas())
    return build


def be_noun(tense: str, neg: bool, ask: bool = False):
    """'I am a student.' -> '나는 학생이다.' -> 'Ich bin Schüler.' (no article for a role in German)."""
    def build(g: Gen) -> Example:
        noun = g.pick([n for n in g.nouns(("person",)) if n.en in ROLES])
        subject = g.subject(you_ok=True)
        subject = Subject(pronoun=subject.pronoun) if subject.pronoun else Subject(name=g.pick(g.lex.names))
        plural = subject.en_person == 0 and subject.pronoun and subject.pronoun.en != "you"
        en_noun = english.plural(noun.en, noun.en_plural) if plural else noun.en
        en_v, de_v = _be(g, subject, tense, neg, ask, g.chance(0.5))
        en_np = ([] if plural else [chunk(english.article(noun.en), "O.det")]) + [chunk(en_noun, "O.n")]
        en = ([*en_v, *subject.en(), *en_np] if ask else [*subject.en(), *en_v, *en_np])
        de_noun = noun.de_plural if plural and noun.de_plural != "-" else noun.de
        de_np = ([chunk(german.article("kein", "pl" if plural else noun.de_gender, "nom"), "NEG")] if neg else []) + \
            [chunk(de_noun, "O.n")]
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
                      dets=("a", "num"), adjective=0.2)
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
        c = Clause(g.subject(), g.pick(verbs), tense, time=g.time(tense) if g.chance(0.4) else None)
        before, after = en_verb(c.verb.en, tense, c.subject.en_person, False, True, False)
        time = [chunk(c.time.en, "T")] if c.time else []
        en = [chunk("what", "W"), *before, *c.subject.en(), *after, *time]
        verb = de_verb(c.verb.de, c.verb.de_aux, tense, c.subject.de_person)
        de = de_clause([chunk("was", "W")], verb, c.subject.de(), [("time", [chunk(c.time.de, "T")] if c.time else [])],
                       False)
        what = [chunk("무엇을", "W"), *ko_verb(c.verb.ko, c.verb.ko_irr, tense, False, "question")]
        ko = ko_clause(c, "question", False, predicate=what)
        return Example("", en, ko, de, end="?", lemmas=_lemmas(c))
    return build


def wh_where(frame: str, tense: str):
    """'Where does the cat sleep?' (intr: wo, 어디에서) / 'Where did Minsu go?' (motion: wohin, 어디에)."""
    def build(g: Gen) -> Example:
        verbs = [v for v in g.verbs(frame) if not (tense == "progressive" and v.en in STATIVE)]
        c = Clause(g.subject(animal_ok=False), g.pick(verbs), tense, time=g.time(tense) if g.chance(0.4) else None)
        before, after = en_verb(c.verb.en, tense, c.subject.en_person, False, True, False)
        time = [chunk(c.time.en, "T")] if c.time else []
        en = [chunk("where", "W"), *before, *c.subject.en(), *after, *time]
        verb = de_verb(c.verb.de, c.verb.de_aux, tense, c.subject.de_person)
        wo = "wohin" if frame == "motion" else "wo"
        de = de_clause([chunk(wo, "W")], verb, c.subject.de(), [("time", [chunk(c.time.de, "T")] if c.time else [])],
                       False)
        where = [chunk("어디에" if frame == "motion" else "어디에서", "W"),
                 *ko_verb(c.verb.ko, c.verb.ko_irr, tense, False, "question")]
        ko = ko_clause(c, "question", False, predicate=where)
        return Example("", en, ko, de, end="?", lemmas=_lemmas(c))
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
    ko = [*ko_subject, chunk(korean.with_particle(noun.ko, "이"), "O.n"), chunk("몇", "W"),
          chunk(COUNTERS.get(noun.cls, "개"), "W"), chunk("있어요", "V")]
    return Example("", en, ko, de, end="?", lemmas={noun.id} | subject.lemmas())


def imperative(kind: str):
    """kind: plain ('Open the door.' / '문을 여세요.' / 'Öffnen Sie die Tür.'), please, dont."""
    def build(g: Gen) -> Example:
        frame = g.pick(("tr", "tr", "intr", "motion"), used=False)
        verb = g.pick([v for v in g.verbs(frame) if v.en not in STATIVE])
        c = Clause(Subject(pronoun=PRONOUNS["you"]), verb, "present", kind == "dont")
        if frame == "tr":
            c.obj = g.phrase(verb.obj, dets=("the", "a", "poss", "this"), adjective=0.2)
        if frame == "motion":
            c.place, c.place_to = g.pick(g.lex.places), True
        place = [chunk(c.place.en_to, "P")] if c.place else []
        en_v = [chunk(verb.en, "V")]
        if kind == "please":
            en_v = [chunk("please", "PLEASE"), *en_v]
        if kind == "dont":
            en_v = [chunk("don't", "NEG"), *en_v]
        en = [*en_v, *_obj_en(c, ""), *place]
        finite, prefix = german.present(verb.de, 5)
        kind_obj, obj = _obj_de(c, "")
        please = [chunk("bitte", "PLEASE")] if kind == "please" else []
        kein = any(w.startswith("kein") for w, _ in obj)        # "Kaufen Sie keinen Apfel.": no nicht as well
        nicht = [chunk("nicht", "NEG")] if kind == "dont" and not kein else []
        de_place = [chunk(c.place.de_to, "P")] if c.place else []
        if kind_obj == "pp":
            tail = [*please, *nicht, *obj, *de_place]
        else:
            tail = [*please, *obj, *nicht, *de_place]
        de = [chunk(finite, "V"), chunk("Sie", "S", "V"), *tail, *([chunk(prefix, "V")] if prefix else [])]
        stem = korean.stem(verb.ko, verb.ko_irr, verb.ko in KO_DESCRIPTIVE)
        endings = {"plain": [("으세요", "EF")], "please": [("어", "EC"), ("주", "VX"), ("세요", "EF")],
                   "dont": [("지", "EC"), ("말", "VX"), ("세요", "EF")]}[kind]
        words = korean.predicate(stem, endings).split(" ")
        tags = {"please": ("V", "PLEASE"), "dont": ("NEG",)}
        ko_v = [chunk(words[0], "V")] + [chunk(w, *tags.get(kind, ("V",))) for w in words[1:]]
        ko_place = [chunk(korean.with_particle(c.place.ko, "에"), "P")] if c.place else []
        ko = [*ko_place, *_obj_ko(c, ""), *ko_v]
        return Example("", en, ko, de, lemmas=_lemmas(c))
    return build


def modal(kind: str, neg: bool, ask: bool = False):
    """kind 'can': 'I can read a book.' -> '나는 책을 읽을 수 있다.' -> 'Ich kann ein Buch lesen.';
    kind 'want': 'I want to eat an apple.' -> '나는 사과를 먹고 싶다.' -> 'Ich will einen Apfel essen.'"""
    def build(g: Gen) -> Example:
        frame = g.pick(("tr", "tr", "intr", "motion"), used=False)
        c = _clause(g, frame, "present", neg, 0.3)
        person = c.subject.en_person
        if kind == "can":
            word = "can't" if neg and g.chance(0.5) else "cannot" if neg else "can"
            en_mod = [chunk(word, "MOD", *(("NEG",) if neg else ()))]
        else:
            want = english.verb("want", "VBZ" if person == 3 else "VB")
            if neg:
                aux = ("doesn't" if person == 3 else "don't") if g.chance(0.5) else \
                    ("does not" if person == 3 else "do not")
                en_mod = [chunk(aux, "NEG"), chunk("want", "MOD"), chunk("to", "MOD")]
            else:
                en_mod = [chunk(want, "MOD"), chunk("to", "MOD")]
        place = [chunk(c.place.en_to if c.place_to else c.place.en_at, "P")] if c.place else []
        time = [chunk(c.time.en, "T")] if c.time else []
        if ask:
            first = "Can" if kind == "can" else ("Does" if person == 3 else "Do")
            rest = [] if kind == "can" else [chunk("want", "MOD"), chunk("to", "MOD")]
            en = [chunk(first, "MOD"), *c.subject.en(), *rest, chunk(c.verb.en, "V"), *_obj_en(c, ""), *place, *time]
        else:
            en = [*c.subject.en(), *en_mod, chunk(c.verb.en, "V"), *_obj_en(c, ""), *place, *time]
        modal_verb = "können" if kind == "can" else "wollen"
        finite = german.present(modal_verb, c.subject.de_person)[0]
        verb = DeVerb(finite, [german.infinitive(c.verb.de)])
        kind_obj, obj = _obj_de(c, "")
        de_place = [("pp", [chunk(c.place.de_to if c.place_to else c.place.de_at, "P")])] if c.place else []
        kein = any(w.startswith("kein") for w, _ in obj)
        mid = [("time", [chunk(c.time.de, "T")] if c.time else []), (kind_obj, obj), *de_place]
        if ask:
            de = de_clause([], verb, c.subject.de(), mid, neg and not kein)
        else:
            de = de_clause(c.subject.de(), verb, [], mid, neg and not kein)
        de = [(t, tags | {"MOD"} if t == finite else tags) for t, tags in de]
        stem = korean.stem(c.verb.ko, c.verb.ko_irr, c.verb.ko in KO_DESCRIPTIVE)
        last = "어요" if ask else "다"
        if kind == "can":
            text = korean.join([stem, ("을", "ETM"), ("수", "NNB"), ("없" if neg else "있", "VA"), (last, "EF")])
        else:
            more = [("지", "EC"), ("않", "VX")] if neg else []
            text = korean.join([stem, ("고", "EC"), ("싶", "VX"), *more, (last, "EF")])
        words = text.split(" ")
        ko_v = [chunk(words[0], "V")] + [chunk(w, "MOD", *(("NEG",) if w.startswith(("않", "없")) else ()))
                                         for w in words[1:]]
        ko = ko_clause(c, "question" if ask else "statement", False, predicate=ko_v)
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=_lemmas(c))
    return build


def comparative(g: Gen) -> Example:
    """'My bag is bigger than your bag.' -> '내 가방은 너의 가방보다 크다.' -> 'Meine Tasche ist größer als deine Tasche.'"""
    classes = [c for c in ("animal", "food", "thing", "readable", "clothing", "vehicle", "furniture")
               if any(c in a.applies and a.en_comp != "-" for a in g.lex.adjectives)]
    cls = g.pick(classes, used=False)
    adjective = g.adjective_for(cls, comparative=True)
    a = g.phrase((cls,), dets=("the", "poss", "this"), adjective=0, plural=False)
    b = g.phrase((cls,), dets=("the", "poss"), adjective=0, plural=False)
    en = [*a.en("S"), chunk(english.be("present", 3), "V"), chunk(english.comparative(adjective.en, adjective.en_comp), "A"),
          chunk("than", "THAN"), *b.en("O")]
    de = [*a.de("S", "nom"), chunk("ist", "V"), chunk(adjective.de_comp, "A"), chunk("als", "THAN"), *b.de("O", "nom")]
    ko_b = b.ko("O", "보다")
    text, tags = ko_b[-1]
    ko_b[-1] = (text, tags | {"THAN"})
    ko = [*a.ko("S", "은"), *ko_b, chunk(korean.predicate(korean.stem(adjective.ko, adjective.ko_irr, True),
                                                            korean.STATEMENT["present"]), "A", "V")]
    return Example("", en, ko, de, lemmas=a.lemmas() | b.lemmas() | {adjective.id})


def weather(tense: str, ask: bool = False):
    """'It was cold yesterday.' -> '어제는 추웠다.' -> 'Es war gestern kalt.'"""
    def build(g: Gen) -> Example:
        adjective = g.pick([a for a in g.lex.adjectives if "weather" in a.applies])
        time = g.pick([t for t in g.lex.times if tense in t.tenses and not t.ko.endswith("에")])
        be = "was" if tense == "past" else "is"
        de_be = "war" if tense == "past" else "ist"
        if tense == "future":
            en_v, de_v, de_right = [chunk("will", "V"), chunk("be", "V")], "wird", [chunk("sein", "V")]
        else:
            en_v, de_v, de_right = [chunk(be, "V")], de_be, []
        if ask:
            en = [chunk(en_v[0][0], "V"), chunk("it", "S"), *en_v[1:], chunk(adjective.en, "A"), chunk(time.en, "T")]
            de = [chunk(de_v, "V"), chunk("es", "S"), chunk(time.de, "T"), chunk(adjective.de, "A"), *de_right]
        else:
            en = [chunk("it", "S"), *en_v, chunk(adjective.en, "A"), chunk(time.en, "T")]
            de = [chunk("es", "S"), chunk(de_v, "V"), chunk(time.de, "T"), chunk(adjective.de, "A"), *de_right]
        endings = (korean.QUESTION if ask else korean.STATEMENT)[tense]
        pred = korean.predicate(korean.stem(adjective.ko, adjective.ko_irr, True), endings)
        every = time.ko.startswith("매")     # 오늘은 춥다, but 매일 춥다 (no topic after "every")
        ko_time = time.ko if every else korean.with_particle(time.ko, "은")
        ko = [chunk(ko_time, "T"), *(chunk(w, "A", "V") for w in pred.split(" "))]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas={adjective.id, time.id})
    return build


def two_clauses(word: str, tense: str):
    """'I eat bread and Minsu drinks milk.' -> '나는 빵을 먹고 민수는 우유를 마신다.' -> 'Ich esse Brot und Minsu trinkt Milch.'
    word 'but' -> 먹지만, aber; the second clause is negated."""
    def build(g: Gen) -> Example:
        first = _clause(g, "tr", tense, False, 0.0)
        second = _clause(g, "tr", tense, word == "but", 0.0)
        join_en, join_de = ("and", "und") if word == "and" else ("but", "aber")
        en_first = en_clause(first, False, False, g.chance(0.5))
        if word == "but":
            text, tags = en_first[-1]
            en_first[-1] = (text + ",", tags)
        en = [*en_first, chunk(join_en, "CONJ"), *en_clause(second, False, False, g.chance(0.5), k="2")]
        de_first = de_main(first, False, False)
        if word == "but":
            text, tags = de_first[-1]
            de_first[-1] = (text + ",", tags)
        de = [*de_first, chunk(join_de, "CONJ"), *de_main(second, False, False, k="2")]
        connective = "고" if word == "and" else "지만"
        ko_first = ko_clause(first, "statement", False, connective=connective)
        text, tags = ko_first[-1]
        ko_first[-1] = (text, tags | {"CONJ"})
        ko = [*ko_first, *ko_clause(second, "statement", False, k="2")]
        return Example("", en, ko, de, lemmas=_lemmas(first) | _lemmas(second))
    return build


def reason(word: str):
    """'I drink water because I am thirsty.' -> '나는 목마르기 때문에 물을 마신다.' -> 'Ich trinke Wasser, weil ich durstig bin.'
    word 'when' -> '나는 목마를 때 물을 마신다.' -> 'Ich trinke Wasser, wenn ich durstig bin.'"""
    def build(g: Gen) -> Example:
        c = _clause(g, "tr", "present", False, 0.0)
        c.subject = Subject(pronoun=g.pick([p for p in PRONOUNS.values()]))
        adjective = g.adjective_for("person")
        g.lemmas.add(adjective.id)
        p = c.subject.pronoun
        en = [*en_clause(c, False, False, False), chunk(word, "CONJ"), chunk(p.en, "2S"),
              chunk(english.be("present", p.en_person), "2V"), chunk(adjective.en, "A")]
        de_main_clause = de_main(c, False, False)
        text, tags = de_main_clause[-1]
        de_main_clause[-1] = (text + ",", tags)
        de = [*de_main_clause, chunk("weil" if word == "because" else "wenn", "CONJ"), chunk(p.de, "2S"),
              chunk(adjective.de, "A"), chunk(german.present("sein", p.de_person)[0], "2V")]
        stem = korean.stem(adjective.ko, adjective.ko_irr, True)
        if word == "because":
            sub = korean.join([stem, ("기", "ETN")]).split(" ") + ["때문에"]
        else:
            sub = korean.join([stem, ("을", "ETM")]).split(" ") + ["때"]
        sub_chunks = [chunk(w, "A", "2V") for w in sub[:-1]] + [chunk(sub[-1], "CONJ")]
        main = ko_clause(c, "statement", False)
        subject_len = len(c.subject.ko("은"))
        ko = [*main[:subject_len], *sub_chunks, *main[subject_len:]]
        return Example("", en, ko, de, lemmas=_lemmas(c) | {adjective.id})
    return build


def can_you_please(g: Gen) -> Example:
    """'Can you help me, please?' -> '저를 도와줄 수 있어요?' -> 'Können Sie mir bitte helfen?'"""
    verbs = [v for v in g.verbs("tr") if v.en in PLEASE_HELP and not v.de_prep]
    verb = g.pick(verbs)
    me = (DE_ME[verb.de_case] if verb.de_case in DE_ME else "mich")
    en = [chunk("can", "MOD"), chunk("you", "S"), chunk(verb.en, "V"), chunk("me,", "O"), chunk("please", "PLEASE")]
    de = [chunk("können", "MOD"), chunk("Sie", "S"), chunk(me, "O"), chunk("bitte", "PLEASE"),
          chunk(german.infinitive(verb.de), "V")]
    stem = korean.stem(verb.ko, verb.ko_irr, False)
    text = korean.join([stem, ("어", "EC"), ("주", "VX"), ("을", "ETM"), ("수", "NNB"), ("있", "VA"), ("어요", "EF")])
    words = text.split(" ")
    me_ko = korean.with_particle("저", verb.ko_case)
    ko = [chunk(me_ko, "O"), chunk(words[0], "V", "PLEASE"), *(chunk(w, "MOD") for w in words[1:])]
    return Example("", en, ko, de, end="?", lemmas={verb.id})


# ---- the first units of a textbook: colors, age, names, the clock, where things are, rain and snow ----


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


def _person(g: Gen, ask: bool) -> Subject:
    """I (in statements), you (in questions), he, she, a name, or my/your... brother, sister, friend."""
    r = g.rng.random()
    if r < 0.5:
        keys = ["you", "he", "she"] if ask else ["I", "I", "he", "she"]
        return Subject(pronoun=PRONOUNS[g.rng.choice(keys)])
    if r < 0.75:
        return Subject(name=g.pick(g.lex.names))
    noun = g.pick([n for n in g.nouns(("person",)) if n.en in AGE_PEOPLE])
    return Subject(phrase=NounPhrase(noun, "poss", owner=g.pick(list(PRONOUNS.values()) + list(g.lex.names))))


def age(ask: bool):
    """'I am ten years old.' -> '나는 열 살이다.' -> 'Ich bin zehn Jahre alt.';
    'How old are you?' -> '몇 살이에요?' -> 'Wie alt bist du?' (Korean counts years of age with native numbers and 살)."""
    def build(g: Gen) -> Example:
        subject = _person(g, ask)
        be = english.be("present", subject.en_person)
        de_be = german.present("sein", subject.de_person)[0]
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        if ask:
            en = [chunk("how", "W"), chunk("old", "OLD"), chunk(be, "V"), *subject.en()]
            de = [chunk("wie", "W"), chunk("alt", "OLD"), chunk(de_be, "V"), *subject.de()]
            ko = [*ko_subject, chunk("몇", "W"), chunk(korean.copula("살", question=True), "OLD", "V")]
            return Example("", en, ko, de, end="?", lemmas=subject.lemmas())
        number = g.pick([n for n in g.lex.numbers if n.n > 1 or g.chance(0.2)])
        years = "year" if number.n == 1 else "years"
        en = [*subject.en(), chunk(be, "V"), chunk(number.en, "NUM"), chunk(years, "Y"), chunk("old", "OLD")]
        de = [*subject.de(), chunk(de_be, "V"), chunk(number.de, "NUM"), chunk("Jahr" if number.n == 1 else "Jahre", "Y"),
              chunk("alt", "OLD")]
        ko = [*ko_subject, chunk(number.ko_attr, "NUM"), chunk(korean.copula("살"), "Y", "OLD", "V")]
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


def clock(ask: bool):
    """'It is three o'clock.' -> '세 시이다.' -> 'Es ist drei Uhr.';
    'What time is it?' -> '몇 시예요?' -> 'Wie spät ist es?' (native numbers count the hours: 세 시)."""
    def build(g: Gen) -> Example:
        now = g.chance(0.3)
        en_now, ko_now, de_now = ([chunk("now", "T")], [chunk("지금", "T")], [chunk("jetzt", "T")]) if now else ([], [], [])
        if ask:
            en = [chunk("what", "W"), chunk("time", "H"), chunk("is", "V"), chunk("it", "S"), *en_now]
            de = [chunk("wie", "W"), chunk("spät", "H"), chunk("ist", "V"), chunk("es", "S"), *de_now]
            ko = [*ko_now, chunk("몇", "W"), chunk(korean.copula("시", question=True), "H", "V")]
            return Example("", en, ko, de, end="?")
        hour = _hour(g)
        en = [chunk("it", "S"), chunk("is", "V"), chunk(hour.en, "NUM"), chunk("o'clock", "H"), *en_now]
        de = [chunk("es", "S"), chunk("ist", "V"), *de_now, chunk(hour.de, "NUM"), chunk("Uhr", "H")]
        ko_now = [chunk("지금은", "T")] if now else []
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
        _, after = en_verb(verb.en, tense, 3, False, False, False)
        en = [*en_s, *after, chunk("at", "AT"), chunk(hour.en, "NUM"), *([chunk("o'clock", "H")] if oclock else [])]
        de_hour = [chunk(hour.de, "NUM"), chunk("Uhr", "H")] if oclock else [chunk("eins" if hour.n == 1 else hour.de, "NUM")]
        dv = de_verb(verb.de, verb.de_aux, tense, 2)
        de = de_clause(de_s, dv, [], [("pp", [chunk("um", "AT"), *de_hour])], False)
        ko = [*ko_s, chunk(hour.ko_attr, "NUM"), chunk("시에", "AT", "H"),
              *ko_verb(verb.ko, verb.ko_irr, tense, False, "statement")]
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
        np = NounPhrase(np.noun, np.det, np.plural, np.owner if np.det == "poss" else None)
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


def weather_verb(tense: str, neg: bool = False, ask: bool = False):
    """'It is raining now.' -> '지금 비가 오고 있다.' -> 'Es regnet jetzt.'; 'It rained yesterday.' -> '어제 비가 왔다.'
    -> 'Es hat gestern geregnet.'; 'Will it snow tomorrow?' -> '내일 눈이 올 거예요?' -> 'Wird es morgen schneien?'"""
    def build(g: Gen) -> Example:
        verb = g.pick(g.verbs("weather"))
        times = [t for t in g.lex.times if tense in t.tenses and not any(w in t.en for w in ("week", "month", "year"))]
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


def _frames() -> dict[str, Callable[[Gen], Example]]:
    frames: dict[str, Callable[[Gen], Example]] = {}
    for frame in ("intr", "tr", "motion", "intr_place", "tr_place"):
        for tense in TENSES:
            for neg in (False, True):
                pol = "neg" if neg else "pos"
                frames[f"{frame}.{tense}.{pol}"] = statement(frame, tense, neg)
                if frame in ("tr", "motion", "intr"):
                    frames[f"tf.{frame}.{tense}.{pol}"] = statement(frame, tense, neg, time_first=True)
            frames[f"q.{frame}.{tense}"] = question(frame, tense)
    for tense in ("present", "past"):
        for neg in (False, True):
            pol = "neg" if neg else "pos"
            frames[f"be_adj.{tense}.{pol}"] = be_adjective(tense, neg)
            frames[f"be_noun.{tense}.{pol}"] = be_noun(tense, neg)
        frames[f"q.be_adj.{tense}"] = be_adjective(tense, False, ask=True)
        frames[f"q.be_noun.{tense}"] = be_noun(tense, False, ask=True)
    frames["this_is"] = this_is(False)
    frames["q.this_is"] = this_is(True)
    frames["there_is.pos"] = there_is(False)
    frames["there_is.neg"] = there_is(True)
    frames["where_is"] = where_is
    for tense in TENSES:
        frames[f"wh_what.{tense}"] = wh_what(tense)
        frames[f"wh_where.intr.{tense}"] = wh_where("intr", tense)
        frames[f"wh_where.motion.{tense}"] = wh_where("motion", tense)
    frames["how_many"] = how_many
    for kind in ("plain", "please", "dont"):
        frames[f"imperative.{kind}"] = imperative(kind)
    for kind in ("can", "want"):
        for neg in (False, True):
            frames[f"{kind}.{'neg' if neg else 'pos'}"] = modal(kind, neg)
        frames[f"q.{kind}"] = modal(kind, False, ask=True)
    frames["can_you_please"] = can_you_please
    frames["comparative"] = comparative
    for tense in ("present", "past", "future"):
        frames[f"weather.{tense}"] = weather(tense)
    frames["q.weather.present"] = weather("present", ask=True)
    for word in ("and", "but"):
        for tense in ("present", "past"):
            frames[f"{word}.{tense}"] = two_clauses(word, tense)
    frames["because"] = reason("because")
    frames["when"] = reason("when")
    for ask in (False, True):
        q = "q." if ask else ""
        frames[f"{q}color"] = color(ask)
        frames[f"{q}age"] = age(ask)
        frames[f"{q}name"] = name_is(ask)
        frames[f"{q}clock"] = clock(ask)
        frames[f"{q}birthday"] = birthday(ask)
    for tense in ("present", "past"):
        frames[f"starts_at.{tense}"] = starts_at(tense)
        frames[f"q.starts_at.{tense}"] = starts_at(tense, ask=True)
    frames["position.pos"] = position(False)
    frames["position.neg"] = position(True)
    frames["q.position"] = position(False, ask=True)
    for near in (True, False):
        frames[f"distance.{'near' if near else 'far'}"] = distance(near)
        frames[f"q.distance.{'near' if near else 'far'}"] = distance(near, ask=True)
    for tense in ("progressive", "past", "future", "present"):
        frames[f"weather_verb.{tense}.pos"] = weather_verb(tense)
    for tense in ("progressive", "past"):
        frames[f"weather_verb.{tense}.neg"] = weather_verb(tense, neg=True)
        frames[f"q.weather_verb.{tense}"] = weather_verb(tense, ask=True)
    return frames


FRAMES = _frames()


def build(name: str, rng: random.Random, lex: Lexicon) -> Example:
    g = Gen(rng, lex)
    example = FRAMES[name](g)
    example.frame = name
    example.lemmas |= g.lemmas
    return example
