"""Two ideas in one sentence: comparatives, two clauses joined by and/but, a reason (because, when) and
what follows from it (so)."""
from __future__ import annotations

from dataclasses import replace

from .. import english, german, korean
from ..lexicon import Verb
from ..phrases import FIRST_PERSON, PRONOUNS, NounPhrase, Pronoun, Subject
from ..sentence import Chunk, Example, chunk, with_comma
from .clause import Clause, de_main, en_clause, ko_clause
from .gen import BARE, BY_KIND, PAIRS, Gen, fits
from .requests import imperative, ones_own
from .statements import lemmas_of, make_clause
from .verbs import de_clause, de_verb, en_verb, ko_stem


def comparative(g: Gen) -> Example:
    """'My bag is bigger than your bag.' -> '내 가방은 너의 가방보다 크다.' -> 'Meine Tasche ist größer als deine Tasche.'"""
    classes = [c for c in ("animal", "food", "thing", "readable", "clothing", "vehicle", "furniture")
               if any(n.en not in PAIRS for n in g.nouns((c,))) and any(c in a.applies and a.en_comp != "-"
                                                                          for a in g.lex.adjectives)]
    cls = g.pick(classes, used=False)
    adjective = g.adjective_for(cls, comparative=True)
    # not "longer than the goat" (fits), nor "These boots is …" (a pair)
    nouns = tuple(n.id for n in g.nouns((cls,)) if fits(adjective, n) and n.en not in PAIRS) or (cls,)
    a = g.phrase(nouns, dets=("the", "poss", "this"), adjective=0, plural=False)
    if adjective.en in BY_KIND:     # "This bag is bigger than your bag.", not "The mouse is heavier than the cow."
        b = g.phrase((a.noun.id,), dets=("poss",), adjective=0, plural=False)
        while b.owner == a.owner:
            b = g.phrase((a.noun.id,), dets=("poss",), adjective=0, plural=False)
    else:
        b = g.phrase(nouns, dets=("the", "poss"), adjective=0, plural=False)
        while b.noun == a.noun and len(g.nouns(nouns)) > 1:     # not "Max's sailboat is nicer than the sailboat."
            b = g.phrase(nouns, dets=("the", "poss"), adjective=0, plural=False)
    en = [*a.en("S"), chunk(english.be("present", 3), "V"), chunk(english.comparative(adjective.en, adjective.en_comp), "A"),
          chunk("than", "THAN"), *b.en("O")]
    de = [*a.de("S", "nom"), chunk("ist", "V"), chunk(adjective.de_comp, "A"), chunk("als", "THAN"), *b.de("O", "nom")]
    ko_b = b.ko("O", "보다")
    text, tags = ko_b[-1]
    ko_b[-1] = (text, tags | {"THAN"})
    ko = [*a.ko("S", "은"), *ko_b, chunk(korean.predicate(korean.stem(adjective.ko, adjective.ko_irr, True),
                                                            korean.STATEMENT["present"]), "A", "V")]
    return Example("", en, ko, de, lemmas=a.lemmas() | b.lemmas() | {adjective.id})


def two_clauses(tense: str):
    """'I eat bread and Minsu drinks milk.' -> '나는 빵을 먹고 민수는 우유를 마신다.' -> 'Ich esse Brot und Minsu trinkt Milch.'"""
    def build(g: Gen) -> Example:
        first = make_clause(g, "tr", tense, False, 0.0)
        second = make_clause(g, "tr", tense, False, 0.0)
        while first.subject.pronoun is None and second.subject.pronoun in (PRONOUNS["he"], PRONOUNS["she"]):
            # "Jimin's mother studies history and she draws": Korean drops a subject that is the first's (and
            # keeps its honorific), so a he or she there reads as someone else: 그녀는 … 그린다
            second.subject = g.subject()
        en = [*en_clause(first, False, False, g.chance(0.5)), chunk("and", "CONJ"),
              *en_clause(second, False, False, g.chance(0.5), k="2")]
        de = [*de_main(first, False, False), chunk("und", "CONJ"), *de_main(second, False, False, k="2")]
        ko = [*ko_joined(first, "고"), *ko_clause(second, "statement", False, k="2")]
        return Example("", en, ko, de, lemmas=lemmas_of(first) | lemmas_of(second))
    return build


def ko_joined(c: Clause, connective: str) -> list[Chunk]:
    """The first of two Korean clauses, ending in its connective (먹고, 먹지만), which also says and or but."""
    out = ko_clause(c, "statement", False, connective=connective)
    text, tags = out[-1]
    return [*out[:-1], (text, tags | {"CONJ"})]


# What one does to one thing and not to another of its kind ("I don't eat meat, but I eat fish."): verbs that
# take many of a kind and say the same in every language whatever the object
INSTEAD = {"like", "eat", "drink", "buy", "read", "study", "learn", "play"}


def but_clauses(tense: str):
    """A contrast, said as short as each language says it: someone else does not do the same ('I like cats, but my
    brother doesn't.' -> '나는 고양이를 좋아하지만 내 남동생은 좋아하지 않는다.' -> 'Ich mag Katzen, aber mein Bruder
    nicht.'), or one does it to another thing of the kind instead ('I don't eat meat, but I eat fish.' -> '나는
    고기는 먹지 않지만 생선은 먹는다.' -> 'Ich esse kein Fleisch, aber ich esse Fisch.')."""
    def build(g: Gen) -> Example:
        verbs = [v for v in g.verbs("tr") if v.en in INSTEAD and kinds(g, v)]
        if verbs and g.chance(0.4):
            return instead(g, tense, g.pick(verbs))
        first = make_clause(g, "tr", tense, False, 0.0)
        second = contrast(g, first)
        _, after = en_verb(second.verb.en, tense, second.subject.en_person, True, False, g.chance(0.6), k="2")
        aux = [(text, tags | {"2V"}) for text, tags in after[:-1]]     # "but my brother doesn't": for the verb
        en = [*with_comma(en_clause(first, False, False, g.chance(0.5))), chunk("but", "CONJ"),
              *second.subject.en("2S"), *aux]
        de = [*with_comma(de_main(first, False, False)), chunk("aber", "CONJ"), *second.subject.de("2S"),
              chunk("nicht", "2NEG")]
        ko = [*ko_joined(first, "지만"), *ko_clause(replace(second, obj=None, obj2=None), "statement", False, k="2")]
        return Example("", en, ko, de, lemmas=lemmas_of(first) | lemmas_of(second))
    return build


def kinds(g: Gen, verb: Verb) -> list[str]:
    """The kinds of thing the verb takes that have two things or more: food, drink, subject …"""
    return [c for c in verb.obj if not c.startswith("noun:") and c != "person" and len(g.nouns((c,))) > 1]


def instead(g: Gen, tense: str, verb: Verb) -> Example:
    """'I don't eat meat, but I eat fish.': one subject, one verb, two bare things of one kind; Korean sets the
    two apart with 은/는 and says the subject once."""
    kind = g.pick(kinds(g, verb))
    def thing() -> NounPhrase:     # an instrument one learns is a skill, singular: "I learn violin."
        np = g.phrase((kind,), dets=("bare",), adjective=0)
        return NounPhrase(np.noun, "bare") if kind == "instrument" else np
    one, other = thing(), thing()
    while other.noun == one.noun:
        other = thing()
    subject = Subject(pronoun=PRONOUNS[g.pick(["I", "you", "he", "she", "we", "they"])])
    verb = replace(verb, ko_case="은")       # 고기는 먹지 않지만 생선은 먹는다
    first = Clause(subject, verb, tense, neg=True, obj=one)
    second = Clause(subject, verb, tense, obj=other)
    en = [*with_comma(en_clause(first, False, False, g.chance(0.6))), chunk("but", "CONJ"),
          *en_clause(second, False, False, False, k="2")]
    de = [*with_comma(de_main(first, False, False)), chunk("aber", "CONJ"), *de_main(second, False, False, k="2")]
    ko = [*ko_joined(first, "지만"),
          *[c for c in ko_clause(second, "statement", False, k="2") if not any(t.startswith("2S") for t in c[1])]]
    return Example("", en, ko, de, lemmas=lemmas_of(first) | lemmas_of(second))


def contrast(g: Gen, first: Clause) -> Clause:
    """The second half of a 'but': someone else does not do what the first did."""
    subject = g.subject()
    while subject == first.subject or subject.name and first.obj.owner == subject.name:
        subject = g.subject()
    return replace(first, subject=subject, neg=True, companion=None, adverb=None)


# What a feeling makes one do, and to what: "I drink water because I am thirsty.", "I call my friend when I am
# lonely." (None: whatever the verb takes), never "They have a fork because they are generous."
PEOPLE_CLOSE = ("noun:friend", "noun:mother", "noun:father", "noun:grandmother", "noun:mom", "noun:dad")
MOTIVES = {
    "hungry": {"eat": None, "cook": None},
    "thirsty": {"drink": ("noun:water", "noun:juice", "noun:milk", "noun:lemonade", "noun:tea")},
    "sleepy": {"drink": ("noun:coffee", "noun:tea")},
    "tired": {"drink": ("noun:coffee",)},
    "bored": {"read": ("noun:book", "noun:comic book", "noun:magazine", "noun:novel"), "play": None},
    "sad": {"listen to": ("noun:music", "noun:song"), "eat": ("noun:chocolate", "noun:ice cream"),
            "call": PEOPLE_CLOSE},
    "happy": {"listen to": ("noun:music", "noun:song")},
    "lonely": {"call": PEOPLE_CLOSE, "visit": PEOPLE_CLOSE, "meet": ("noun:friend",)},
    "scared": {"call": PEOPLE_CLOSE[1:], "hug": PEOPLE_CLOSE[1:]},
    "worried": {"call": PEOPLE_CLOSE[1:]},
    "sick": {"drink": ("noun:tea", "noun:water"), "eat": ("noun:soup",)},
}
# How one feels after what happened: "I am sad because I lost my bag.", "I am proud because I made a cake.";
# never "thirsty because I sent these emails"
BELONGINGS = ("noun:bag", "noun:key", "noun:wallet", "noun:phone", "noun:umbrella", "noun:watch", "noun:ticket",
              "noun:backpack", "noun:pencil case", "noun:camera", "noun:hat")
GIFTS = ("noun:gift", "noun:letter", "noun:card", "noun:postcard")
FELT_AFTER = {
    "happy": {"find": BELONGINGS, "receive": GIFTS, "meet": ("noun:friend", "noun:cousin"),
              "visit": ("noun:grandmother", "noun:grandfather", "noun:cousin", "noun:friend"),
              "buy": ("noun:bike", "noun:dress", "noun:guitar", "noun:camera", "noun:kite")},
    "glad": {"find": BELONGINGS, "receive": GIFTS, "meet": ("noun:friend", "noun:cousin")},
    "sad": {"lose": BELONGINGS}, "unhappy": {"lose": BELONGINGS},
    "upset": {"lose": BELONGINGS, "spill": ("noun:milk", "noun:juice", "noun:coffee"),
              "forget": ("noun:homework", "noun:umbrella", "noun:key")},
    "worried": {"lose": BELONGINGS, "forget": ("noun:homework", "noun:key")},
    "proud": {"finish": ("noun:homework", "noun:book", "noun:report"), "make": ("noun:cake", "noun:cookie", "noun:kite"),
              "cook": None, "help": PEOPLE_CLOSE},
    "tired": {"clean": ("noun:desk", "noun:window", "noun:car"), "cook": None, "help": PEOPLE_CLOSE,
              "wait for": ("noun:bus", "noun:train")},
    "bored": {"wait for": ("noun:bus", "noun:train")},
    "full": {"eat": None},
}


# What the weather makes one do: "It is cold, so please close the window.", "It is raining, so take an umbrella.";
# never "It is raining, so please exercise." nor "It rained, so they brushed a throat."
WARM_CLOTHES = ("noun:coat", "noun:scarf", "noun:glove", "noun:jacket", "noun:sweater", "noun:hat")
BOOKS = ("noun:book", "noun:comic book", "noun:magazine", "noun:novel")
WEATHER_MOTIVES = {
    "cold": {"drink": ("noun:tea", "noun:hot chocolate", "noun:coffee"), "wear": WARM_CLOTHES,
             "close": ("noun:window", "noun:door")},
    "chilly": {"wear": WARM_CLOTHES, "close": ("noun:window",)},
    "windy": {"wear": ("noun:jacket", "noun:scarf"), "close": ("noun:window", "noun:door")},
    "hot": {"drink": ("noun:water", "noun:juice", "noun:lemonade"), "eat": ("noun:ice cream", "noun:watermelon"),
            "open": ("noun:window",)},
    "warm": {"open": ("noun:window",), "eat": ("noun:ice cream",)},
    "humid": {"open": ("noun:window",), "drink": ("noun:water",)},
    "sunny": {"wear": ("noun:hat", "noun:cap"), "play": None},
    "rain": {"take": ("noun:umbrella", "noun:raincoat"), "read": BOOKS, "wear": ("noun:raincoat", "noun:boot")},
    "snow": {"wear": ("noun:boot", "noun:glove", "noun:coat", "noun:scarf")},
}


def motive(g: Gen, causes, table: dict) -> tuple:
    """One of the causes (a feeling, the weather) that the table knows, and what it makes one do:
    (cause, verb, the nouns it is done to)."""
    verbs = {v.en: v for v in g.verbs("tr")}
    options = [(a, verbs[v], g.nouns(objects or verbs[v].obj)) for a in causes if a.en in table
               for v, objects in table[a.en].items() if v in verbs]
    return g.pick([o for o in options if o[2]])


def done_to(g: Gen, noun, p: Pronoun | None, own: bool = False) -> NounPhrase:
    """The phrase of what a motive is done to.  The people one turns to are one's own, and with own=True one's
    things too ("I lost my bag": 내 가방, meine Tasche)."""
    mine = own and noun.countable and noun.cls not in ("food", "drink")
    if p and (noun.cls == "person" or mine and g.chance(0.6)):
        return NounPhrase(noun, "poss", owner=p)
    if not noun.countable or noun.cls in BARE or noun.en in PAIRS:      # "so wear boots", not "a boot"
        det = "bare"
    else:       # books or cookies, but a window or the window: not "It was warm, so you opened windows."
        det = g.pick(("a", "bare") if noun.cls in ("food", "readable") and not own else ("a", "the"))
    return NounPhrase(noun, det, plural=det == "bare" and noun.countable)


def felt(g: Gen, cls: str) -> list:
    """The adjectives said of a person, or of the weather."""
    return [a for a in g.lex.adjectives if cls in a.applies]


def acted(g: Gen, p: Pronoun | None, causes, table: dict, own: bool = False) -> tuple:
    """A motive and its object: (cause, verb as said with the object, object)."""
    cause, verb, nouns = motive(g, causes, table)
    obj = done_to(g, g.pick(nouns), p, own)
    return cause, g.verb_for(verb, obj), obj


def opinion(ask: bool):
    """What one thinks: 'I think (that) Doyun likes apples.' -> '나는 도윤이 사과를 좋아한다고 생각한다.' -> 'Ich glaube,
    dass Doyun Äpfel mag.'; ask: 'Do you think (that) it will rain?' -> '… 온다고 생각해요?' -> 'Glaubst du, dass …?'
    Korean quotes the thought in 한다체 + 고, its subject with 이/가; German puts it after dass, the verb last.  The
    one who thinks is someone else than the one thought of (not 나는 내가 …)."""
    def build(g: Gen) -> Example:
        thinker = PRONOUNS["you"] if ask else g.pick([PRONOUNS[k] for k in ("I", "I", "I", "he", "she", "we", "they")])
        tense = g.pick(("present", "past", "future", "progressive"), used=False)
        c = make_clause(g, g.pick(("tr", "tr", "intr", "motion"), used=False), tense, g.chance(0.25), 0.3)
        while c.verb.en == "think":         # not "Do you think Minji will think for an hour?"
            c = make_clause(g, "intr", tense, c.neg, 0.3)
        while c.subject.pronoun is not None and (c.subject.pronoun is thinker or c.subject.pronoun in FIRST_PERSON
                                                 or c.subject.is_you):
            c.subject = g.subject(you_ok=False, me_ok=False)
        that_en = [chunk("that", "CONJ")] if g.chance(0.4) else []
        think = "thinks" if thinker.en_person == 3 else "think"
        body_en = en_clause(c, False, False, g.chance(0.5), k="2")
        glaube = german.present("glauben", thinker.de_person)[0]
        dass = chunk("dass", "CONJ" if that_en else "V")      # with "think" where English leaves "that" out
        body_de = de_main(c, False, False, k="2", front=[dass], subordinate=True)
        body_ko = ko_clause(c, "statement", False, k="2", particle="이")
        text, tags = body_ko[-1]
        quoted = text[:-2] + "이라고" if text.endswith("것이다") else text + "고"    # 간다고, 갈 것이라고
        body_ko[-1] = (quoted, tags | {"CONJ"})
        if ask:
            en = [chunk("do", "V"), chunk("you", "S"), chunk("think", "V"), *that_en, *body_en]
            de = [chunk(glaube, "V"), chunk("du,", "S"), *body_de]
            ko = [*body_ko, chunk("생각해요", "V")]
        else:
            en = [chunk(thinker.en, "S"), chunk(think, "V"), *that_en, *body_en]
            de = [chunk(thinker.de, "S"), chunk(glaube + ",", "V"), *body_de]
            ko = [*Subject(pronoun=thinker).ko("은"), *body_ko, chunk("생각한다", "V")]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=lemmas_of(c))
    return build


def reason(word: str):
    """'I drink water because I am thirsty.' -> '나는 목마르기 때문에 물을 마신다.' -> 'Ich trinke Wasser, weil ich durstig bin.'
    word 'when' -> '나는 목마를 때 물을 마신다.' -> 'Ich trinke Wasser, wenn ich durstig bin.'  The feeling fits the act
    (MOTIVES)."""
    def build(g: Gen) -> Example:
        p = g.pick(list(PRONOUNS.values()))
        adjective, verb, obj = acted(g, p, felt(g, "person"), MOTIVES)
        c = Clause(Subject(pronoun=p), verb, "present", obj=obj)
        g.lemmas.add(adjective.id)
        en = [*en_clause(c, False, False, False), chunk(word, "CONJ"), chunk(p.en, "2S"),
              chunk(english.be("present", p.en_person), "2V"), chunk(adjective.en, "A")]
        de = [*with_comma(de_main(c, False, False)), chunk("weil" if word == "because" else "wenn", "CONJ"), chunk(p.de, "2S"),
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
        return Example("", en, ko, de, lemmas=lemmas_of(c) | {adjective.id})
    return build


def feeling_because(g: Gen) -> Example:
    """How someone feels and what happened: 'He is sad because he lost his bag.' -> '그는 가방을 잃어버려서
    슬프다.' -> 'Er ist traurig, weil er seine Tasche verloren hat.'  Korean gives the reason with -아서/-어서
    before the feeling, the subject they share first.  The feeling follows from what happened (FELT_AFTER)."""
    p = g.pick(list(PRONOUNS.values()))
    adjective, verb, obj = acted(g, p, felt(g, "person"), FELT_AFTER, own=True)
    time = g.time("past", how_long=False, verb=verb.en) if g.chance(0.2) else None
    c = Clause(Subject(pronoun=p), verb, "past", obj=obj, time=time)
    g.lemmas.add(adjective.id)
    en = [chunk(p.en, "S"), chunk(english.be("present", p.en_person), "A"), chunk(adjective.en, "A"),
          chunk("because", "CONJ"), *en_clause(c, False, False, False, k="2")]
    de = [chunk(p.de, "S"), chunk(german.present("sein", p.de_person)[0], "A"), chunk(adjective.de + ",", "A"),
          *de_main(c, False, False, k="2", front=[chunk("weil", "CONJ")], subordinate=True)]
    reason_ko = ko_clause(c, "statement", False, k="2", connective="어서")
    reason_ko = reason_ko[len(c.subject.ko("은", "2S")):]
    *words, last = reason_ko
    ko = [*Subject(pronoun=p).ko("은"), *words, (last[0], last[1] | {"CONJ"}),
          chunk(korean.adjective_predicate(adjective.ko, adjective.ko_irr, "present", False, False,
                                           others=c.subject.feels_outside()), "A")]
    return Example("", en, ko, de, lemmas=lemmas_of(c) | {adjective.id})


# What one feels so because of: English, Korean (before 때문에), German after wegen (genitive), and the feelings
# it brings ("nervous because of the test", "tired because of the heat"; never "full because of the rain")
WORRYING = {"nervous", "worried", "scared"}
CAUSES = (("the test", "시험", "des Tests", WORRYING | {"tired"}),
          ("the test tomorrow", "내일 있을 시험", "des Tests morgen", WORRYING),
          ("the rain", "비", "des Regens", {"bored", "sad", "unhappy"}),
          ("the heavy rain", "많은 비", "des starken Regens", {"bored", "worried", "scared"}),
          ("the snow", "눈", "des Schnees", {"happy", "glad", "bored"}), ("the storm", "폭풍", "des Sturms", WORRYING),
          ("the noise", "소음", "des Lärms", {"tired", "sleepy"}),
          ("the homework", "숙제", "der Hausaufgaben", {"tired", "bored", "worried", "nervous", "sleepy"}),
          ("the heat", "더위", "der Hitze", {"tired", "thirsty", "sleepy", "sick"}),
          ("the cold", "추위", "der Kälte", {"tired", "sick", "unhappy"}),
          ("the wind", "바람", "des Windes", {"scared", "tired"}),
          ("the traffic", "교통 체증", "des Verkehrs", {"tired", "bored", "nervous"}),
          ("my cold", "내 감기", "meiner Erkältung", {"tired", "sleepy", "sick", "unhappy"}),
          ("the school trip", "수학여행", "der Klassenfahrt", {"happy", "glad", "nervous", "tired"}),
          ("the game", "경기", "des Spiels", {"nervous", "happy", "sad", "tired", "proud", "upset"}),
          ("the news", "그 소식", "der Nachricht", {"happy", "glad", "sad", "worried", "upset", "scared"}))


def because_of(tense: str):
    """'I am nervous because of the test.' -> '나는 시험 때문에 초조하다.' -> 'Ich bin wegen des Tests nervös.';
    'We were tired because of the heat.' -> '우리는 더위 때문에 피곤했다.' -> 'Wir waren wegen der Hitze müde.'  The
    feeling is one the cause brings (CAUSES)."""
    def build(g: Gen) -> Example:
        p = g.pick(list(PRONOUNS.values()))
        feelings = {a.en for a in g.lex.adjectives}
        cause_en, cause_ko, cause_de, felt = g.pick([c for c in CAUSES if c[3] & feelings     # my cold is mine
                                                     and (p.en == "I" or not c[0].startswith("my "))], used=False)
        adjective = g.pick([a for a in g.lex.adjectives if a.en in felt])
        g.lemmas.add(adjective.id)
        de_be = german.present("sein", p.de_person)[0] if tense == "present" else german.preterite("sein", p.de_person)
        en = [chunk(p.en, "S"), chunk(english.be(tense, p.en_person), "V"), chunk(adjective.en, "A"),
              chunk("because", "CONJ"), chunk("of", "CONJ"), chunk(cause_en, "R")]
        de = [chunk(p.de, "S"), chunk(de_be, "V"), chunk("wegen", "CONJ"), chunk(cause_de, "R"),
              chunk(adjective.de, "A")]
        pred = korean.adjective_predicate(adjective.ko, adjective.ko_irr, tense, False, False,
                                          others=Subject(pronoun=p).feels_outside())
        ko = [*Subject(pronoun=p).ko("은"), chunk(cause_ko, "R"), chunk("때문에", "CONJ"),
              *(chunk(w, "A", "V") for w in pred.split(" "))]
        return Example("", en, ko, de, lemmas={adjective.id})
    return build


def causes(g: Gen, cause: str) -> tuple:
    """(what can be the cause, the table of what it makes one do) for a "so" sentence's kind of cause."""
    if cause == "person":
        return felt(g, "person"), MOTIVES
    return (g.verbs("weather") if cause == "rain" else felt(g, "weather")), WEATHER_MOTIVES


def _cause(g: Gen, cause: str, said, tense: str, connective: str, pronoun: Pronoun | None = None):
    """The first clause of a "so" sentence in each language, a comma after it: a pronoun's feeling ('I am
    hungry,'), the weather ('It was cold,') or rain or snow ('It is raining,'), said by the adjective or the
    weather verb.  Its Korean is one word, the predicate in the connective (배고파서, 추우니까), which also says
    "so"."""
    ending = (connective, "EC")
    g.lemmas.add(said.id)
    if cause == "rain":
        verb = said
        en_tense = "progressive" if tense == "present" else "past"
        _, after = en_verb(verb.en, en_tense, 3, False, False, False, "2")
        en = [chunk("it", "2S"), *after[:-1], (after[-1][0], after[-1][1] | {"RAIN"})]
        dv = de_verb(verb.de, verb.de_aux, en_tense, 2)
        lexical = dv.finite if tense == "present" else dv.right[-1]
        de = [(w, tags | {"RAIN"}) if w == lexical else (w, tags)
              for w, tags in de_clause([chunk("es", "2S")], dv, [], [], False, "2")]
        noun, verb_ko = verb.ko.rsplit(" ", 1)
        ko = [chunk(noun, "RAIN"), chunk(korean.join([ko_stem(verb_ko, verb.ko_irr), ending]), "2V", "CONJ")]
    else:
        adjective = said
        words = (pronoun.en, pronoun.de, pronoun.en_person, pronoun.de_person) if cause == "person" else ("it", "es", 3, 2)
        subject_en, subject_de, en_person, de_person = words
        de_be = german.present("sein", de_person)[0] if tense == "present" else german.preterite("sein", de_person)
        en = [chunk(subject_en, "2S"), chunk(english.be(tense, en_person), "2V"), chunk(adjective.en, "A")]
        de = [chunk(subject_de, "2S"), chunk(de_be, "2V"), chunk(adjective.de, "A")]
        stem = korean.stem(adjective.ko, adjective.ko_irr, True)
        ko = [chunk(korean.join([stem, ending]), "A", "2V", "CONJ")]
    return with_comma(en), with_comma(de), ko


def consequence(cause: str, tense: str):
    """'I am hungry, so I eat bread.' -> '나는 배고파서 빵을 먹는다.' -> 'Ich bin hungrig, also esse ich Brot.'
    cause 'weather': 'It was cold, so Minsu drank tea.' -> '추워서 민수는 차를 마셨다.' -> 'Es war kalt, also hat
    Minsu Tee getrunken.'; cause 'rain': 'It is raining, so I read a book.' -> '비가 와서 나는 책을 읽는다.'
    -> 'Es regnet, also lese ich ein Buch.'"""
    def build(g: Gen) -> Example:
        subject = Subject(pronoun=g.pick(list(PRONOUNS.values()))) if cause == "person" else g.subject()
        said, verb, obj = acted(g, subject.pronoun, *causes(g, cause))    # the same subject in both clauses
        if subject.de_person >= 3 and obj.det in ("a", "the") and ones_own(obj.noun):
            obj = NounPhrase(obj.noun, "bare", plural=True)    # each their own: "so the sons take raincoats", not "a raincoat"
        c = Clause(subject, verb, tense, obj=obj)
        en_first, de_first, ko_first = _cause(g, cause, said, tense, "어서", c.subject.pronoun)
        en = [*en_first, chunk("so", "CONJ"), *en_clause(c, False, False, False)]
        de = [*de_first, *de_main(c, False, False, front=[chunk("also", "CONJ")])]
        main = ko_clause(c, "statement", False)
        if cause == "person":        # the subject they share comes first: 나는 배고파서 빵을 먹는다
            subject_len = len(c.subject.ko("은"))
            ko = [*main[:subject_len], *ko_first, *main[subject_len:]]
        else:
            ko = [*ko_first, *main]
        return Example("", en, ko, de, lemmas=lemmas_of(c))
    return build


def so_please(cause: str):
    """A request that follows from the weather: 'It is cold, so please close the window.' -> '추우니까 창문을
    닫아 주세요.' -> 'Es ist kalt, also schließen Sie bitte das Fenster.'  Korean asks with -(으)니까, since
    -아서/-어서 never comes before a request.  One in three asks without please: 'It is raining, so take an
    umbrella.' -> '비가 오니까 우산을 가져가세요.'"""
    def build(g: Gen) -> Example:
        said, verb, nouns = motive(g, *causes(g, cause))
        en_first, de_first, ko_first = _cause(g, cause, said, "present", "으니까")
        request = imperative("plain" if g.chance(1 / 3) else "please", act=(verb, nouns))(g)
        return Example("", [*en_first, chunk("so", "CONJ"), *request.en], [*ko_first, *request.ko],
                       [*de_first, chunk("also", "CONJ"), *request.de], lemmas=request.lemmas)
    return build
