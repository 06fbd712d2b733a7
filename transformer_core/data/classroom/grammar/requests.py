"""Requests: imperatives, the modals (can, want to, have to, may), "can you please"."""
from __future__ import annotations

from dataclasses import replace

from .. import english, german, korean
from ..phrases import FIRST_PERSON, PRONOUNS, Subject
from ..sentence import Example, chunk, with_comma
from .clause import Clause, ko_clause, obj_de, obj_en, obj_ko, with_de, with_en
from .gen import ABLE, ANIMAL_ONLY, DE_ME, INVOLUNTARY, KO_DESCRIPTIVE, PLEASE_HELP, STATIVE, Gen, going
from .statements import active_clause, lemmas_of
from .verbs import DeVerb, de_clause, ko_stem

ADDRESSEES = {"du": 5, "ihr": 2, "Sie": 3}      # whom a German request speaks to: a pupil, the class, a stranger
IN_CLASS = {"du": 2, "ihr": 3}       # whom a teacher speaks to: a pupil or the class, not Sie
YOUR = {"du": "dein", "ihr": "euer", "Sie": "Ihr"}
CARRIED = {"umbrella", "bag", "backpack"}      # one's own, as clothes are: one of them is asked of one person


def ones_own(noun) -> bool:
    """Whether each person has their own: clothes and CARRIED things (several people take raincoats, not one)."""
    return noun.cls == "clothing" or noun.en in CARRIED


def addressee(g: Gen, whom: dict[str, int] = ADDRESSEES) -> str:
    return g.rng.choices(list(whom), list(whom.values()))[0]


def de_request(verb: str, address: str, middle: list) -> list:
    """A German request: the imperative, "Sie" after it where one speaks to Sie, the middle, the prefix last:
    de_request('ab|biegen', 'du', [an der Ecke, links]) -> 'bieg an der Ecke links ab'."""
    finite, prefix = german.imperative(verb, address)
    sie = [chunk("Sie", "S", "V")] if address == "Sie" else []
    return [chunk(finite, "V"), *sie, *middle, *([chunk(prefix, "V")] if prefix else [])]


MANNER_P = 0.25     # how often a request that can say how does: "Please close the door quietly."
PACE = (("slowly", "천천히", "langsam"), ("quickly", "빨리", "schnell"), ("more slowly", "더 천천히", "langsamer"))
CAREFUL = (("carefully", "조심해서", "vorsichtig"),)     # cautiously, not thoroughly: not "count carefully"
CAREFUL_VERBS = {"drive", "carry", "cut", "pour", "cross", "climb", "ride", "go", "come", "walk", "open", "close"}
SOUND = (("quietly", "조용히", "leise"), ("louder", "더 크게", "lauter"), ("more quietly", "더 조용히", "leiser"))
PACED = {"speak", "talk", "read", "write", "eat", "drink", "walk", "run", "drive", "cut", "carry", "pour", "go",
         "come", "climb", "ride", "explain", "answer", "clean", "wash", "count", "swim", "cross", "open", "close"}
VOICED = {"speak", "talk", "read", "sing", "close", "open", "laugh"}


def imperative(kind: str, act: tuple | None = None):
    """kind: plain ('Open the door.' / '문을 여세요.' / 'Mach die Tür auf.', 'Macht …', 'Machen Sie …'), please,
    dont. German speaks to du, ihr or Sie, and "your" follows: "Öffnet bitte eure Bücher."  act: (verb, the nouns
    it may be done to), when what is asked is given ("It is cold, so please close the window.")."""
    def build(g: Gen) -> Example:
        frame = "tr" if act else g.pick(("tr", "tr", "intr", "motion"), used=False)
        verb = act[0] if act else g.pick([v for v in g.verbs(frame) if v.en not in STATIVE | INVOLUNTARY])
        address = addressee(g)
        c = Clause(Subject(pronoun=PRONOUNS["you"]), verb, "present", kind == "dont")
        if frame == "tr":
            dets = ("the", "a", "poss", "this")
            c.obj = (g.phrase(tuple(n.id for n in act[1]), dets, adjective=0) if act
                     else g.object(verb, dets, adjective=0.2))
            c.verb = verb = g.verb_for(verb, c.obj)
            if address == "ihr" and not c.obj.plural and ones_own(c.obj.noun):
                address = g.rng.choice(("du", "Sie"))       # the class does not share one raincoat: "Tragt …"
            if c.obj.owner is PRONOUNS["you"]:     # Korean drops 너의 before a polite -세요
                c.obj = replace(c.obj, owner=replace(PRONOUNS["you"], de_poss=YOUR[address], ko_poss=""))
        if frame == "motion":
            c.place, c.place_to = g.place(verb), True
            c.verb = verb = going(verb, c.place)
        place = [chunk(c.place.en_to, "P")] if c.place else []
        en_v = [chunk(verb.en, "V")]
        if kind == "please":
            en_v = [chunk("please", "PLEASE"), *en_v]
        if kind == "dont":
            en_v = [chunk("don't", "NEG"), *en_v]
        en = [*en_v, *obj_en(c, ""), *place]
        kind_obj, obj = obj_de(c, "")
        please = [chunk("bitte", "PLEASE")] if kind == "please" else []
        kein = any(w.startswith("kein") for w, _ in obj)        # "Kaufen Sie keinen Apfel.": no nicht as well
        nicht = [chunk("nicht", "NEG")] if kind == "dont" and not kein else []
        de_place = [chunk(c.place.de_to, "P")] if c.place else []
        tail = [*nicht, *obj, *de_place] if kind_obj == "pp" else [*obj, *nicht, *de_place]
        stem = korean.stem(verb.ko, verb.ko_irr, verb.ko in KO_DESCRIPTIVE)
        endings = {"plain": [("으세요", "EF")], "please": [("어", "EC"), ("주", "VX"), ("세요", "EF")],
                   "dont": [("지", "EC"), ("말", "VX"), ("세요", "EF")]}[kind]
        text = korean.predicate(stem, endings)
        honoured = ko_stem(verb.ko, verb.ko_irr, honorific=True)[0]
        if kind == "plain" and honoured.endswith("시"):     # 드세요, 주무세요: -세요 after the honorific verb's 시
            text = honoured[:-1] + "세요"
        words = text.split(" ")
        tags = {"please": ("V", "PLEASE"), "dont": ("NEG",)}
        ko_v = [chunk(words[0], "V")] + [chunk(w, *tags.get(kind, ("V",))) for w in words[1:]]
        ko_place = [chunk(korean.with_particle(c.place.ko, "에"), "P")] if c.place else []
        manners = ((PACE if verb.en in PACED else ()) + (SOUND if verb.en in VOICED else ())
                   + (CAREFUL if verb.en in CAREFUL_VERBS else ()))
        how = []
        # How: last in English, before the Korean verb; in German after a definite object ("Trink bitte das
        # Wasser langsam"), else before it ("Trink bitte langsam ein Glas Wasser").
        if kind != "dont" and manners and g.chance(MANNER_P):
            en_how, ko_how, de_how = g.pick(manners, used=False)
            en, how = [*en, chunk(en_how, "HOW")], [chunk(ko_how, "HOW")]
            known = c.obj is not None and kind_obj == "obj" and c.obj.det in ("the", "poss", "this")
            tail = [*obj, chunk(de_how, "HOW"), *de_place] if known else [chunk(de_how, "HOW"), *tail]
        de = de_request(verb.de, address, [*please, *tail])
        ko = [*ko_place, *obj_ko(c, ""), *how, *ko_v]
        return Example("", en, ko, de, lemmas=lemmas_of(c))
    return build


def animal_can(g: Gen, c: Clause) -> None:
    """What an animal can do: fly, if it does ("The eagle can fly."), or what ABLE says ("The frog can jump.", not
    "The bees can swim.", "The snail can run."); what it cannot do is fly, said of one that does not ("The hippos
    can't fly."). Where, when and with whom go, as they were the other verb's ("The parrot can swim after class.")."""
    flies, able = ANIMAL_ONLY["fly"], set().union(*ABLE.values())

    def worth_saying(noun) -> bool:
        return noun.id not in flies if c.neg else noun.id in flies or noun.en in able

    noun = c.subject.phrase.noun
    if not worth_saying(noun):
        said_of = [n.id for n in g.nouns(("animal",)) if worth_saying(n)]
        c.subject = Subject(phrase=g.phrase(said_of, dets=("the", "poss"), adjective=0.15))
        noun = c.subject.phrase.noun
    said = ("fly",) if c.neg or noun.id in flies else [verb for verb, animals in ABLE.items() if noun.en in animals]
    c.verb = g.pick([v for v in g.verbs("intr", animal=True) if v.en in said])
    c.place, c.place_to, c.time, c.companion = None, False, None, None


def modal(kind: str, neg: bool, ask: bool = False):
    """kind 'can': 'I can read a book.' -> '나는 책을 읽을 수 있다.' -> 'Ich kann ein Buch lesen.';
    kind 'want': 'I want to eat an apple.' -> '나는 사과를 먹고 싶다.' -> 'Ich will einen Apfel essen.'"""
    def build(g: Gen) -> Example:
        c = active_clause(g, ("tr", "tr", "intr", "motion"), neg, 0.3)      # not "I want to have cars" (있고 싶다)
        if ask and kind == "want" and c.subject.pronoun in FIRST_PERSON:
            c.subject = Subject(pronoun=PRONOUNS["you"])     # "Do we want to …?" is a suggestion: 우리 … 갈래요?
        if ask and c.verb.ko in korean.TOWARD and c.subject.pronoun in FIRST_PERSON:
            c.verb = replace(c.verb, ko=korean.TOWARD[c.verb.ko])     # asked of one who is there: 가도 돼요?
        if kind == "can" and c.subject.phrase and c.subject.phrase.noun.cls == "animal":
            animal_can(g, c)
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
            en = [chunk(first, "MOD"), *c.subject.en(), *rest, chunk(c.verb.en, "V"), *obj_en(c, ""), *with_en(c, ""),
                  *place, *time]
        else:
            en = [*c.subject.en(), *en_mod, chunk(c.verb.en, "V"), *obj_en(c, ""), *with_en(c, ""), *place, *time]
        modal_verb = "können" if kind == "can" else "wollen"
        finite = german.present(modal_verb, c.subject.de_person)[0]
        verb = DeVerb(finite, [german.infinitive(c.verb.de)])
        kind_obj, obj = obj_de(c, "")
        de_place = [("pp", [chunk(c.place.de_to if c.place_to else c.place.de_at, "P")])] if c.place else []
        kein = any(w.startswith("kein") for w, _ in obj)
        mid = [("time", [*([chunk(c.time.de, "T")] if c.time else []), *with_de(c, "")]), (kind_obj, obj), *de_place]
        if ask:
            de = de_clause([], verb, c.subject.de(), mid, neg and not kein)
        else:
            de = de_clause(c.subject.de(), verb, [], mid, neg and not kein)
        de = [(t, tags | {"MOD"} if t == finite else tags) for t, tags in de]
        stem = korean.stem(c.verb.ko, c.verb.ko_irr, c.verb.ko in KO_DESCRIPTIVE)
        last = "어요" if ask else "다"
        if kind == "can":
            text = korean.join([stem, ("을", "ETM"), ("수", "NNB"), ("없" if neg else "있", "VA"), (last, "EF")])
        elif not c.subject.feels_outside(ask):     # one's own wish, or asked of the one spoken to: 가고 싶어요?
            more = [("지", "EC"), ("않", "VX")] if neg else []
            text = korean.join([stem, ("고", "EC"), ("싶", "VX"), *more, (last, "EF")])
        else:       # another's wish is seen from outside: 가고 싶어한다, 가고 싶어하세요?
            endings = (korean.QUESTION if ask else korean.STATEMENT)["present"]
            text = korean.join([stem, ("고", "EC")]) + " " + korean.predicate(
                ("싶어하", "VV"), endings, negative=neg, honorific=c.subject.honorific)
        words = text.split(" ")
        ko_v = [chunk(words[0], "V")] + [chunk(w, "MOD", *(("NEG",) if w.startswith(("않", "없")) else ()))
                                         for w in words[1:]]
        ko = ko_clause(c, "question" if ask else "statement", False, predicate=ko_v)
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=lemmas_of(c))
    return build


def can_you_please(g: Gen) -> Example:
    """'Can you help me, please?' -> '저를 도와줄 수 있어요?' -> 'Kannst du mir bitte helfen?' / 'Können Sie …';
    'Could you …' -> '저를 도와 주시겠어요?' -> 'Könntest du mir bitte helfen?' / 'Könnten Sie …'"""
    verbs = [v for v in g.verbs("tr") if v.en in PLEASE_HELP and not v.de_prep]
    verb = g.pick(verbs)
    could = g.chance(0.5)
    sie = g.chance(0.5)             # a stranger (Sie) or a classmate (du)
    me = DE_ME.get(verb.de_case, "mich")
    en = [chunk("could" if could else "can", "MOD"), chunk("you", "S"), chunk(verb.en, "V"), chunk("me,", "O"),
          chunk("please", "PLEASE")]
    modal = {(False, False): "kannst", (False, True): "können", (True, False): "könntest", (True, True): "könnten"}
    de = [chunk(modal[could, sie], "MOD"), chunk("Sie" if sie else "du", "S"), chunk(me, "O"), chunk("bitte", "PLEASE"),
          chunk(german.infinitive(verb.de), "V")]
    stem = korean.stem(verb.ko, verb.ko_irr, False)
    ending = [("시", "EP"), ("겠", "EP"), ("어요", "EF")] if could else \
        [("을", "ETM"), ("수", "NNB"), ("있", "VA"), ("어요", "EF")]
    text = korean.join([stem, ("어", "EC"), ("주", "VX"), *ending])
    words = text.split(" ")
    me_ko = korean.with_particle("저", verb.ko_case)
    ko = [chunk(me_ko, "O"), chunk(words[0], "V", "PLEASE"), *(chunk(w, "MOD") for w in words[1:])]
    return Example("", en, ko, de, end="?", lemmas={verb.id})


# How a drink or a food without a plural is counted: (English, plural, Korean counter, German, gender, plural).
GLASS = ("glass", "glasses", "잔", "Glas", "n", "Glas")          # zwei Glas Wasser: a measure stays singular
CUP = ("cup", "cups", "잔", "Tasse", "f", "Tassen")
BOTTLE = ("bottle", "bottles", "병", "Flasche", "f", "Flaschen")
BOWL = ("bowl", "bowls", "그릇", "Schüssel", "f", "Schüsseln")
PIECE = ("piece", "pieces", "조각", "Stück", "n", "Stück")
MEASURES = {"coffee": (CUP,), "tea": (CUP,), "hot chocolate": (CUP,), "water": (GLASS, BOTTLE),
            "mineral water": (GLASS, BOTTLE), "cola": (GLASS, BOTTLE), "rice": (BOWL,), "soup": (BOWL,),
            "cereal": (BOWL,), "fried rice": (BOWL,), "ice cream": (BOWL,), "popcorn": (BOWL,),
            "bread": (PIECE,), "cheese": (PIECE,), "chocolate": (PIECE,), "toast": (PIECE,), "chicken": (PIECE,)}
ASK = {"can": ("can", "I", "kann", "ich"), "could": ("could", "I", "könnte", "ich"), "may": ("may", "I", "darf", "ich"),
       "can_we": ("can", "we", "können", "wir")}


def _measured(g: Gen):
    """'a glass of water' / '물 한 잔' / 'ein Glas Wasser' (accusative), or a thing: 'two tickets' / '표 두 장' /
    'zwei Fahrkarten'.  -> (en, ko, de chunks, whether Korean may soften the request with 좀)."""
    if g.chance(0.6):
        np = g.phrase(("food", "thing", "readable"), dets=("a", "the", "num", "this"), adjective=0)
        return np.en("O"), np.ko("O", None), np.de("O", "acc"), np.det != "num"
    noun = g.pick([n for n in g.nouns(("drink", "food")) if n.en in MEASURES])
    en, en_pl, counter, de, gender, de_pl = g.pick(MEASURES[noun.en])
    number = g.pick([n for n in g.lex.numbers if n.n <= 3])
    if number.n == 1:
        en_m = [chunk(english.article(en), "O.num"), chunk(en, "O.num")]
        de_m = [chunk(german.article("ein", gender, "acc"), "O.num"), chunk(de, "O.num")]
    else:
        en_m = [chunk(number.en, "O.num"), chunk(en_pl, "O.num")]
        de_m = [chunk(number.de, "O.num"), chunk(de_pl, "O.num")]
    ko = [chunk(noun.ko, "O.n"), chunk(number.ko_attr, "O.num"), chunk(counter, "O.num")]
    return [*en_m, chunk("of", "O.num"), chunk(noun.en, "O.n")], ko, [*de_m, chunk(noun.de, "O.n")], False


def can_i_have(how: str):
    """Ordering and asking for things: how 'ask': 'Can I have a glass of water, please?' -> '물 한 잔 주시겠어요?' ->
    'Kann ich bitte ein Glas Wasser haben?'; 'please': 'The bill, please.' -> '계산서 주세요.' -> 'Die Rechnung,
    bitte.'; 'like': 'I would like two cups of tea.' -> '차 두 잔 주세요.' -> 'Ich hätte gern zwei Tassen Tee.'"""
    def build(g: Gen) -> Example:
        en_np, ko_np, de_np, some = _measured(g)
        please = g.chance(0.7)
        en_please = [chunk("please", "PLEASE")] if please else []
        de_please = [chunk("bitte", "PLEASE")] if please else []
        if how == "ask":
            en_mod, en_s, de_mod, de_s = ASK[g.pick(sorted(ASK), used=False)]
            en = [chunk(en_mod, "MOD"), chunk(en_s, "S"), chunk("have", "V"), *(with_comma(en_np) if please else en_np),
                  *en_please]
            de = [chunk(de_mod, "MOD"), chunk(de_s, "S"), *de_please, *de_np, chunk("haben", "V")]
            ko_some = [chunk("좀", "PLEASE")] if some else []
            return Example("", en, [*ko_np, *ko_some, chunk("주시겠어요", "V", "MOD")], de, end="?")
        if how == "please":
            en = [*with_comma(en_np), chunk("please", "PLEASE")]
            de = [*with_comma(de_np), chunk("bitte", "PLEASE")]
            return Example("", en, [*ko_np, chunk("주세요", "V", "PLEASE")], de)
        if please:
            en_np, de_np = with_comma(en_np), with_comma(de_np)
        en = [chunk("I", "S"), chunk("would", "V"), chunk("like", "V"), *en_np, *en_please]
        de = [chunk("ich", "S"), chunk("hätte", "V"), chunk("gern", "V"), *de_np, *de_please]
        return Example("", en, [*ko_np, chunk("주세요", "V")], de)
    return build


def lets(g: Gen) -> Example:
    """'Let's play soccer after lunch!' -> '점심 식사 후에 축구를 해요!' -> 'Lass uns nach dem Mittagessen Fußball
    spielen!': a proposal in 해요체, German "lass uns" and the infinitive last."""
    c = active_clause(g, ("tr", "tr", "intr", "motion"), False, 0.3)      # not "Let's have cars."
    while c.verb.ko in korean.POSTURE:       # "Let's stand!" is 서요!, read first as "Stop!"
        c = active_clause(g, ("tr", "tr", "intr", "motion"), False, 0.3)
    c.subject, c.companion = Subject(pronoun=PRONOUNS["we"]), None
    place = [chunk(c.place.en_to if c.place_to else c.place.en_at, "P")] if c.place else []
    time = [chunk(c.time.en, "T")] if c.time else []
    en = [chunk("let's", "S", "MOD"), chunk(c.verb.en, "V"), *obj_en(c, ""), *place, *time]
    kind_obj, obj = obj_de(c, "")
    de_place = [("pp", [chunk(c.place.de_to if c.place_to else c.place.de_at, "P")])] if c.place else []
    mid = [("time", [chunk(c.time.de, "T")] if c.time else []), (kind_obj, obj), *de_place]
    de = de_clause([], DeVerb("lass", [german.infinitive(c.verb.de)]), [chunk("uns", "S")], mid, False)
    de = [(t, tags | {"MOD"} if t == "lass" else tags) for t, tags in de]
    text = korean.predicate(ko_stem(c.verb.ko, c.verb.ko_irr), [("어요", "EF")])
    ko_time = [chunk(c.time.ko, "T")] if c.time else []
    ko_place = [chunk(korean.with_particle(c.place.ko, "에" if c.place_to else "에서"), "P")] if c.place else []
    ko = [*ko_time, *ko_place, *obj_ko(c, ""), *(chunk(w, "V") for w in text.split(" "))]
    return Example("", en, ko, de, end=g.pick(("!", "."), used=False), lemmas=lemmas_of(c))
