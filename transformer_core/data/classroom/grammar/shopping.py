"""Prices, the temperature and whose a thing is: numbers and questions a class uses every day."""
from __future__ import annotations

from .. import german, korean
from ..phrases import NounPhrase
from ..sentence import Example, chunk, time_chunks
from .gen import Gen

WARES = ("food", "thing", "readable", "clothing", "instrument")
# (amount, English, German): Korean writes the figure, as a price tag does (10달러).
AMOUNTS = ((1, "one", "einen"), (2, "two", "zwei"), (5, "five", "fünf"), (10, "ten", "zehn"),
           (20, "twenty", "zwanzig"), (50, "fifty", "fünfzig"), (100, "a hundred", "hundert"))
CURRENCIES = (("dollar", "dollars", "달러", "Dollar"), ("euro", "euros", "유로", "Euro"))
DEGREES = ((0, "zero", "null"), (3, "three", "drei"), (5, "five", "fünf"), (10, "ten", "zehn"),
           (15, "fifteen", "fünfzehn"), (20, "twenty", "zwanzig"), (25, "twenty-five", "fünfundzwanzig"),
           (30, "thirty", "dreißig"), (35, "thirty-five", "fünfunddreißig"))
WHERE = (("", "", ""), ("today", "오늘은", "heute"), ("outside", "밖은", "draußen"), ("now", "지금은", "jetzt"))


def _ware(g: Gen) -> NounPhrase:
    """'this bag', 'these shoes', 'the red pen': what a price is asked of."""
    return g.phrase(WARES, dets=("this", "the"), adjective=0.2, plural=None)


def price(ask: bool):
    """'How much is this bag?' -> '이 가방은 얼마예요?' -> 'Wie viel kostet diese Tasche?';
    'These shoes cost twenty euros.' -> '이 신발은 20유로이다.' -> 'Diese Schuhe kosten zwanzig Euro.'"""
    def build(g: Gen) -> Example:
        np = _ware(g)
        while not np.noun.countable:
            np = _ware(g)
        ko_np = np.ko("S", None)
        ko_np = [*ko_np[:-1], chunk(korean.with_particle(ko_np[-1][0], "은"), *ko_np[-1][1])]
        kostet = "kosten" if np.plural else "kostet"
        if ask:
            en = [chunk("how much", "W"), chunk("are" if np.plural else "is", "V"), *np.en("S")]
            de = [chunk("wie viel", "W"), chunk(kostet, "V"), *np.de("S", "nom")]
            return Example("", en, [*ko_np, chunk("얼마예요", "W", "V")], de, end="?", lemmas=np.lemmas())
        n, en_n, de_n = g.pick(AMOUNTS, used=False)
        one, many, ko_c, de_c = g.pick(CURRENCIES, used=False)
        en = [*np.en("S"), chunk("cost" if np.plural else "costs", "V"),
              chunk(f"{en_n} {one if n == 1 else many}", "N")]
        de = [*np.de("S", "nom"), chunk(kostet, "V"), chunk(f"{de_n} {de_c}", "N")]
        ko = [*ko_np, chunk(korean.copula(f"{n}{ko_c}"), "N", "V")]
        return Example("", en, ko, de, lemmas=np.lemmas())
    return build


def temperature(g: Gen) -> Example:
    """'It is minus five degrees outside.' -> '밖은 영하 5도이다.' -> 'Draußen sind es minus fünf Grad.'"""
    n, en_n, de_n = g.pick(DEGREES, used=False)
    minus = n and n <= 15 and g.chance(0.4)
    where_en, where_ko, where_de = g.pick(WHERE, used=False)
    en = [chunk("it", "S"), chunk("is", "V"), *([chunk("minus", "N")] if minus else []),
          chunk(f"{en_n} degrees", "N"), *([chunk(where_en, "T")] if where_en else [])]
    ko_n = ("영하 " if minus else "") + f"{n}도"
    ko = [*([chunk(where_ko, "T")] if where_ko else []), chunk(korean.copula(ko_n), "N", "V")]
    es = [chunk("es", "S")]
    deg = [*([chunk("minus", "N")] if minus else []), chunk(f"{de_n} Grad", "N")]
    de = [chunk(where_de, "T"), chunk("sind", "V"), *es, *deg] if where_de else [*es, chunk("sind", "V"), *deg]
    return Example("", en, ko, de)


def whose(g: Gen) -> Example:
    """'Whose umbrella is this?' -> '이것은 누구의 우산이에요?' -> 'Wem gehört dieser Regenschirm?'"""
    np = g.phrase(("thing", "readable", "clothing", "instrument", "animal"), dets=("this",), adjective=0.1)
    en = [chunk("whose", "W"), *np.en("S")[1:], chunk("are" if np.plural else "is", "V"),
          chunk("these" if np.plural else "this", "S.det")]
    de = [chunk("wem", "W"), chunk("gehören" if np.plural else "gehört", "V"), *np.de("S", "nom")]
    ko_np = [c for c in np.ko("S", None) if c[0] != "이"]
    ko = [chunk("이것은", "S.det"), chunk("누구의", "W"), *ko_np[:-1],
          chunk(korean.copula(ko_np[-1][0], question=True), *ko_np[-1][1], "V")]
    return Example("", en, ko, de, end="?", lemmas=np.lemmas())


OPEN_PLACES = {"supermarket", "market", "shop", "store", "shopping mall", "bakery", "bookstore", "flower shop",
               "restaurant", "café", "toy store", "hair salon", "library", "bank", "post office", "pharmacy",
               "museum", "zoo", "swimming pool", "cafeteria", "gym", "hospital", "art museum", "ice cream shop",
               "department store", "stationery store", "pet shop", "city hall"}
OPEN_DAYS = {"on Saturdays", "on Sundays", "on weekends", "on weekdays", "today"}


def opening_hours(kind: str, ask: bool = False):
    """kind 'from': 'The bakery is open from seven to six.' -> '빵집은 일곱 시부터 여섯 시까지 문을 연다.' -> 'Die
    Bäckerei ist von sieben bis sechs geöffnet.'; kind 'open' or 'close': 'The library closes at five o'clock.' ->
    '도서관은 다섯 시에 문을 닫는다.' -> 'Die Bibliothek schließt um fünf Uhr.'; asked: 'What time does the bank
    open on Saturdays?' -> '은행은 매주 토요일에 몇 시에 문을 열어요?' -> 'Um wie viel Uhr öffnet die Bank samstags?'"""
    def build(g: Gen) -> Example:
        place = g.pick([p for p in g.lex.places if p.en in OPEN_PLACES])
        day = g.pick([t for t in g.lex.times if t.en in OPEN_DAYS]) if g.chance(0.35) else None
        hours = {h.n: h for h in g.lex.numbers if 1 <= h.n <= 12}
        en_s = [chunk("the", "S.det"), chunk(place.en, "S.n")]
        de_s = [chunk(german.article("def", place.de_gender, "nom"), "S.det"), chunk(place.de, "S.n")]
        ko_s = [chunk(korean.with_particle(place.ko, "은"), "S.n")]
        en_day, ko_day, de_day = time_chunks(day)
        lemmas = {place.id} | ({day.id} if day else set())
        if kind == "from":
            a, b = hours[g.rng.choice((7, 8, 9, 10, 11))], hours[g.rng.choice((5, 6, 7, 8, 9, 10))]
            en = [*en_s, chunk("is", "V"), chunk("open", "V"), chunk("from", "FROM"), chunk(a.en, "A"),
                  chunk("to", "TO"), chunk(b.en, "B"), *en_day]
            de = [*de_s, chunk("ist", "V"), *de_day, chunk("von", "FROM"), chunk(a.de, "A"), chunk("bis", "TO"),
                  chunk(b.de, "B"), chunk("geöffnet", "V")]
            ko = [*ko_s, *ko_day, chunk(a.ko_attr, "A"), chunk("시부터", "A", "FROM"), chunk(b.ko_attr, "B"),
                  chunk("시까지", "B", "TO"), chunk("문을", "V"), chunk("연다", "V")]
            return Example("", en, ko, de, lemmas=lemmas)
        verb_en, verb_de, verb_ko = {"open": ("open", "öffnet", "열다"), "close": ("close", "schließt", "닫다")}[kind]
        ending = korean.QUESTION["present"] if ask else korean.STATEMENT["present"]
        ko_v = [chunk("문을", "V"), chunk(korean.predicate(korean.stem(verb_ko, "", False), ending), "V")]
        if ask:
            en = [chunk("what", "W"), chunk("time", "W"), chunk("does", "V"), *en_s, chunk(verb_en, "V"), *en_day]
            de = [chunk("um wie viel Uhr", "W"), chunk(verb_de, "V"), *de_s, *de_day]
            ko = [*ko_s, *ko_day, chunk("몇", "W"), chunk("시에", "W"), *ko_v]
            return Example("", en, ko, de, end="?", lemmas=lemmas)
        h = hours[g.rng.choice(range(1, 13))]
        en = [*en_s, chunk(verb_en + "s", "V"), chunk("at", "AT"), chunk(h.en, "N"), chunk("o'clock", "N"), *en_day]
        de = [*de_s, chunk(verb_de, "V"), *de_day, chunk("um", "AT"), chunk(h.de, "N"), chunk("Uhr", "N")]
        ko = [*ko_s, *ko_day, chunk(h.ko_attr, "N"), chunk("시에", "N", "AT"), *ko_v]
        return Example("", en, ko, de, lemmas=lemmas)
    return build
