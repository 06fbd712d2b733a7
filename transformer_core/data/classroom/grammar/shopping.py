"""Prices, the temperature and whose a thing is: numbers and questions a class uses every day."""
from __future__ import annotations

from .. import german, korean
from ..phrases import NounPhrase
from ..sentence import Example, chunk
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
    if where_de:
        de = [chunk(where_de, "T"), chunk("sind", "V"), *es, *deg]
    else:
        de = [*es, chunk("sind", "V"), *deg]
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
