"""German morphology: verbs from ablaut (MIT/Apache-2.0), noun declension from german-nouns (Wiktionary,
CC-BY-SA-4.0), articles and adjective endings from the grammar tables below.

Cases: nom, acc, dat.  Genders: m, f, n, and pl for plurals.
"""
from __future__ import annotations

from functools import cache

import ablaut

DEFINITE = {"m": ("der", "den", "dem"), "f": ("die", "die", "der"), "n": ("das", "das", "dem"),
            "pl": ("die", "die", "den")}
DIESER = {"m": ("dieser", "diesen", "diesem"), "f": ("diese", "diese", "dieser"), "n": ("dieses", "dieses", "diesem"),
          "pl": ("diese", "diese", "diesen")}
EIN_ENDINGS = {"m": ("", "en", "em"), "f": ("e", "e", "er"), "n": ("", "", "em"), "pl": ("e", "e", "en")}
# Adjective endings after a der-word (weak), an ein-word (mixed) and no article (strong).
WEAK = {"m": ("e", "en", "en"), "f": ("e", "e", "en"), "n": ("e", "e", "en"), "pl": ("en", "en", "en")}
MIXED = {"m": ("er", "en", "en"), "f": ("e", "e", "en"), "n": ("es", "es", "en"), "pl": ("en", "en", "en")}
STRONG = {"m": ("er", "en", "em"), "f": ("e", "e", "er"), "n": ("es", "es", "em"), "pl": ("e", "e", "en")}
CASES = ("nom", "acc", "dat")
INVARIABLE = {"rosa", "lila", "orange"}     # colors that take no ending: eine rosa Tasche
BY_OBJECT = {   # (verb, object) -> the verb German says with that object: one reads a book to its end, one finishes
    **{("zu Ende lesen", n): "fertig machen" for n in ("homework", "worksheet", "report")},     # homework by doing it
    ("putzen", "hair"): "kämmen",                                                               # Zähne putzen
}
PRONOUNS = ("ich", "du", "er", "sie", "es", "wir", "ihr", "sie")
POSSESSIVE = {"ich": "mein", "du": "dein", "er": "sein", "sie": "ihr", "wir": "unser", "sie_pl": "ihr"}
# ablaut's person index: ich 0, du 1, er/sie/es 2, wir 3, ihr 4, sie/Sie 5.


def article(kind: str, gender: str, case: str) -> str:
    """kind: 'def', 'this', or an ein-word stem ('ein', 'kein', 'mein', ...)."""
    i = CASES.index(case)
    if kind == "def":
        return DEFINITE[gender][i]
    if kind == "this":
        return DIESER[gender][i]
    ending = EIN_ENDINGS[gender][i]
    return ("eur" if kind == "euer" and ending else kind) + ending       # eure, not euere


def adjective_stem(adjective: str) -> str:
    """The stem that takes endings: hoch -> hoh, teuer -> teur, dunkel -> dunkl, müde -> müd."""
    if adjective == "hoch":
        return "hoh"
    if adjective.endswith("e"):
        return adjective[:-1]
    if adjective.endswith(("euer", "auer")) or (adjective.endswith("el") and len(adjective) > 3):
        return adjective[:-2] + adjective[-1]
    return adjective


def adjective_form(adjective: str, article_kind: str | None, gender: str, case: str) -> str:
    """gross + weak/mixed/strong ending: adjective_form('rot', 'ein', 'm', 'acc') -> 'roten'."""
    if adjective in INVARIABLE:
        return adjective
    table = STRONG if article_kind is None else WEAK if article_kind in ("def", "this") else MIXED
    return adjective_stem(adjective) + table[gender][CASES.index(case)]


@cache
def name_genitive(name: str) -> str:
    """A name's genitive before a noun: Minsus, Max' (an apostrophe after s, x, z, ß)."""
    return name + ("'" if name.endswith(("s", "x", "z", "ß")) else "s")


FEMININE = {"Arzt": "Ärztin", "Zahnarzt": "Zahnärztin", "Tierarzt": "Tierärztin", "Koch": "Köchin",
            "Bauer": "Bäuerin", "Feuerwehrmann": "Feuerwehrfrau"}


def feminine(noun: str) -> str:
    """A woman's word for a role: Lehrer -> Lehrerin, Arzt -> Ärztin, Feuerwehrmann -> Feuerwehrfrau."""
    return FEMININE.get(noun, noun + "in")


def hour(number: int, word: str) -> str:
    """An hour said alone ("um eins", "halb eins"): 'eins', where before a noun it is 'ein'."""
    return "eins" if number == 1 else word


def genitive(singular: str, gender: str) -> tuple[str, str]:
    """'des Bahnhofs', 'der Schule': the definite article and german-nouns' shortest genitive singular
    (Bahnhofs before Bahnhofes); by rule (+s) for a noun it lacks."""
    article = {"m": "des", "f": "der", "n": "des"}[gender]
    if gender == "f":
        return article, singular
    forms = [v for entry in _nouns()[singular] if entry.get("genus") == gender
             for k, v in entry.get("flexion", {}).items() if k.startswith("genitiv singular")]
    return article, min(forms, key=len) if forms else singular + "s"


@cache
def _nouns():
    from german_nouns.lookup import Nouns
    return Nouns()


def _first(table: dict, key: str):
    """A german-nouns field, or the first of its variants ("akkusativ singular 1")."""
    return table.get(key, table.get(key + " 1"))


@cache
def noun_forms(singular: str, gender: str, plural: str) -> dict[tuple[str, bool], str]:
    """{(case, is_plural): form}: from the german-nouns entry of this gender and plural when it has one
    (weak nouns: den Jungen, dem Löwen, einen Nachbarn), else by rule (dative plural + n).  An entry with two
    variants ("genus 1", "akkusativ singular 1") gives its first."""
    forms = {(case, False): singular for case in CASES}
    if plural != "-":
        forms.update({("nom", True): plural, ("acc", True): plural,
                      ("dat", True): plural if plural.endswith(("n", "s")) else plural + "n"})
    for entry in _nouns()[singular]:
        flexion = entry.get("flexion", {})
        if _first(entry, "genus") != gender or _first(flexion, "nominativ singular") != singular:
            continue
        if plural != "-" and plural not in {v for k, v in flexion.items() if k.startswith("nominativ plural")}:
            continue
        forms[("acc", False)] = _first(flexion, "akkusativ singular") or singular
        forms[("dat", False)] = _first(flexion, "dativ singular") or singular
        if plural != "-":
            suffix = "" if "nominativ plural" in flexion else next(
                k[len("nominativ plural"):] for k, v in flexion.items() if k.startswith("nominativ plural") and v == plural)
            forms[("dat", True)] = flexion.get("dativ plural" + suffix, forms[("dat", True)])
        break
    return forms


@cache
def _conjugation(infinitive: str):
    return ablaut.conjugate(infinitive)


def infinitive(verb: str) -> str:
    return verb.replace("|", "")


def _phrase(verb: str) -> tuple[str, str]:
    """'zu Abend essen' -> ('zu Abend', 'essen'): a verb phrase's fixed words go where a separable prefix goes
    ("Wir essen um sieben zu Abend.", "Wir haben zu Abend gegessen.")."""
    words, _, base = verb.rpartition(" ")
    return words, base


def _with_words(words: str, form: str) -> tuple[str, str]:
    finite, _, prefix = form.partition(" ")
    return finite, " ".join(w for w in (words, prefix) if w)


def present(verb: str, person: int) -> tuple[str, str]:
    """(finite verb, separable prefix or ''): present('auf|stehen', 0) -> ('stehe', 'auf');
    present('ins Bett gehen', 0) -> ('gehe', 'ins Bett')."""
    words, base = _phrase(verb)
    return _with_words(words, _conjugation(infinitive(base)).present[person])


def imperative(verb: str, addressee: str) -> tuple[str, str]:
    """(finite verb, separable prefix or '') said to du, ihr or Sie: imperative('zu|machen', 'du') -> ('mach', 'zu'),
    'ihr' -> ('macht', 'zu'), 'Sie' -> ('machen', 'zu')."""
    words, base = _phrase(verb)
    forms = _conjugation(infinitive(base)).imperative
    if addressee == "Sie" or None in forms:         # mögen, wollen: no imperative
        return present(verb, 5)
    return _with_words(words, forms[("du", "ihr").index(addressee)])


def preterite(verb: str, person: int) -> str:
    return _conjugation(infinitive(verb)).preterite[person]


def participle(verb: str) -> str:
    words, base = _phrase(verb)
    return " ".join(w for w in (words, _conjugation(infinitive(base)).past_participle) if w)


def auxiliary(verb: str) -> str:
    return _conjugation(infinitive(_phrase(verb)[1])).auxiliary
