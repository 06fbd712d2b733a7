"""What a teacher tells a class: 'Raise your hand.' -> '손을 드세요.' -> 'Heb die Hand.'; 'Please open your
books to page twenty.' -> '책 20쪽을 펴 주세요.' -> 'Schlagt bitte eure Bücher auf Seite zwanzig auf.'  Korean
asks in 해요체 as every request does; German speaks to one pupil (du) or the class (ihr), not to Sie."""
from __future__ import annotations

from .. import korean
from ..sentence import Example, chunk
from .gen import Gen
from .requests import IN_CLASS, addressee, de_request

# (English after the verb, the verb; Korean object or adverb, its verb and irregular class; German verb, the
# words of its middle field with {your} for the possessive stem; where one pupil (du) has one thing, not several,
# the English and German words said to one pupil ("" the same; None: never said to one pupil, only to the class))
INSTRUCTIONS = (
    ("raise", "your hand", "손을", "들다", "", "heben", "die Hand", "", ""),
    ("repeat", "after me", "저를 따라", "하다", "", "nach|sprechen", "mir", "", ""),
    ("look", "at the board", "칠판을", "보다", "", "an|schauen", "die Tafel", "", ""),
    ("listen", "carefully", "잘", "듣다", "ㄷ", "zu|hören", "gut", "", ""),
    ("work", "in pairs", "짝과 함께", "활동하다", "", "arbeiten", "zu zweit", None, None),
    ("take out", "your pencils", "연필을", "꺼내다", "", "heraus|nehmen", "{your}e Stifte", "your pencil", "deinen Stift"),
    ("put away", "your phones", "휴대폰을", "집어넣다", "", "weg|legen", "{your}e Handys", "your phone", "dein Handy"),
    ("sit", "in your seats", "자리에", "앉다", "", "setzen", "dich auf {your}en Platz", "in your seat", ""),
)
YOUR_STEM = {"du": "dein", "ihr": "eur"}     # before an ending: deine, eure
PAGE_P = 0.35       # how often a teacher's request is to open the book at a page


def instruction(kind: str):
    """kind 'plain' or 'please'."""
    def build(g: Gen) -> Example:
        address = addressee(g, IN_CLASS)
        please_en = [chunk("please", "PLEASE")] if kind == "please" else []
        please_de = [chunk("bitte", "PLEASE")] if kind == "please" else []
        endings = [("으세요", "EF")] if kind == "plain" else [("어", "EC"), ("주", "VX"), ("세요", "EF")]
        if g.chance(PAGE_P):
            page = g.pick([n for n in g.lex.numbers if n.n > 1])
            g.lemmas.add(page.id)
            one = address == "du"           # one pupil opens one book
            en = [*please_en, chunk("open", "V"), chunk("your", "O"), chunk("book" if one else "books", "O"),
                  chunk("to", "P"), chunk("page", "P"), chunk(page.en, "N")]
            books = ["dein", "Buch"] if one else ["eure", "Bücher"]
            de = de_request("auf|schlagen", address, [*please_de, *(chunk(w, "O") for w in books),
                                                      chunk("auf", "P"), chunk("Seite", "P"), chunk(page.de, "N")])
            opened = korean.predicate(korean.stem("펴다", "", False), endings).split(" ")
            ko = [chunk("책", "O"), chunk(f"{page.n}쪽을", "P", "N"), *(chunk(w, "V") for w in opened)]
            return Example("", en, ko, de)
        verb_en, rest_en, ko_what, verb_ko, irr, verb_de, rest_de, en_du, de_du = g.pick(INSTRUCTIONS, used=False)
        if de_du is None:
            address = "ihr"
        if address == "du":
            rest_en, rest_de = en_du or rest_en, de_du or rest_de
        rest_de = rest_de.format(your=YOUR_STEM[address])
        if address == "ihr":
            rest_de = rest_de.replace("dich", "euch")
        en = [*please_en, chunk(verb_en, "V"), chunk(rest_en, "O")]
        first, _, rest = rest_de.partition(" ")
        if first in ("mir", "dich", "euch"):        # a pronoun before bitte: "Setz dich bitte …"
            middle = [chunk(first, "O"), *please_de, *([chunk(rest, "O")] if rest else [])]
        else:
            middle = [*please_de, chunk(rest_de, "O")]
        de = de_request(verb_de, address, middle)
        told = korean.predicate(korean.stem(verb_ko, irr, False), endings).split(" ")
        ko = [*(chunk(w, "O") for w in ko_what.split(" ")), *(chunk(w, "V") for w in told)]
        return Example("", en, ko, de)
    return build
