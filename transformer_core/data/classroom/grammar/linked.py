"""Two ideas in one sentence: comparatives, two clauses joined by and/but, and a reason (because, when)."""
from __future__ import annotations

from .. import english, german, korean
from ..phrases import PRONOUNS, Subject
from ..sentence import Example, chunk
from .clause import de_main, en_clause, ko_clause
from .gen import Gen
from .statements import make_clause, lemmas_of


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


def two_clauses(word: str, tense: str):
    """'I eat bread and Minsu drinks milk.' -> '나는 빵을 먹고 민수는 우유를 마신다.' -> 'Ich esse Brot und Minsu trinkt Milch.'
    word 'but' -> 먹지만, aber; the second clause is negated."""
    def build(g: Gen) -> Example:
        first = make_clause(g, "tr", tense, False, 0.0)
        second = make_clause(g, "tr", tense, word == "but", 0.0)
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
        return Example("", en, ko, de, lemmas=lemmas_of(first) | lemmas_of(second))
    return build


def reason(word: str):
    """'I drink water because I am thirsty.' -> '나는 목마르기 때문에 물을 마신다.' -> 'Ich trinke Wasser, weil ich durstig bin.'
    word 'when' -> '나는 목마를 때 물을 마신다.' -> 'Ich trinke Wasser, wenn ich durstig bin.'"""
    def build(g: Gen) -> Example:
        c = make_clause(g, "tr", "present", False, 0.0)
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
        return Example("", en, ko, de, lemmas=lemmas_of(c) | {adjective.id})
    return build
