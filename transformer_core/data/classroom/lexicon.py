"""The classroom lexicon: hand-written, reviewable TSV files in lexicon/, one row per lemma (two where Korean has
two words for it: a hot thing is 뜨겁다, a hot day 덥다).

    nouns.tsv       en  en_plural  ko  de  de_gender  de_plural  class (person, animal, food, drink, thing,
                    readable, clothing, vehicle, body, nature, subject, sport, instrument, furniture, time_unit,
                    event, abstract, sound)
    places.tsv      en  ko  de  de_gender  en_at  en_to  de_at  de_to  kind
    verbs.tsv       en  ko  ko_irr  de  de_aux  frame  obj  ko_case  de_prep  de_case
    adjectives.tsv  en  en_comp  ko  ko_irr  de  de_comp  applies
    time.tsv        en  ko  de  tenses
    names.tsv       en  ko  de  gender
    numbers.tsv     n  en  de  ko_native  ko_attr

'#' lines are comments; "-" in a plural or comparative column means "none" (mass nouns, colours).
Each lemma has an id ("noun:apple", "verb:eat") by which the split holds words out of training
(held_out.txt) and the generator draws the core words more often (core.txt).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

FOLDER = Path(__file__).with_name("lexicon")


def read_ids(path: Path) -> list[str]:
    """The ids of a list such as lexicon/core.txt, one a line, '#' lines being comments."""
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def read_tsv(name: str) -> list[dict[str, str]]:
    """The rows of lexicon/<name> as dicts keyed by its header."""
    lines = [line for line in (FOLDER / name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        cells = [cell.strip() for cell in line.split("\t")]
        if len(cells) != len(header):
            raise ValueError(f"{name}: {line!r} has {len(cells)} fields, the header {len(header)}")
        rows.append(dict(zip(header, cells, strict=False)))
    return rows


def _list(cell: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in cell.split(";") if part.strip())


@dataclass(frozen=True)
class Noun:
    en: str
    en_plural: str      # "-": a mass noun
    ko: str
    de: str
    de_gender: str      # m, f, n, or pl: a noun German says only in the plural (homework: Hausaufgaben)
    de_plural: str      # "-": a mass noun
    cls: str

    @cached_property
    def id(self) -> str:
        return f"noun:{self.en}"

    @cached_property
    def countable(self) -> bool:
        return self.en_plural != "-"


@dataclass(frozen=True)
class Place:
    en: str
    ko: str
    de: str
    de_gender: str
    en_at: str          # "at the train station"
    en_to: str          # "to the train station"
    de_at: str          # "am Bahnhof"
    de_to: str          # "zum Bahnhof"
    kind: str           # town, room, home, nature, country, city, furniture, other

    @cached_property
    def id(self) -> str:
        return f"place:{self.en}"


@dataclass(frozen=True)
class Verb:
    en: str             # base form; a phrasal verb inflects its first word ("listen to")
    ko: str             # dictionary form: 먹다; a weather verb's with its noun: 비가 오다
    ko_irr: str         # ㅂ ㄷ 르 ㅅ ㅎ, or ""
    de: str             # infinitive, separable prefix split by "|": auf|stehen
    de_aux: str         # haben, sein
    frame: str          # intr, tr, motion, weather (it rains), event (the movie starts)
    obj: tuple[str, ...]    # noun classes the object may be (tr), or single nouns: noun:music
    ko_case: str        # 을, 이, 에게, 와
    de_prep: str        # preposition of a prepositional object, or ""
    de_case: str        # acc, dat

    @cached_property
    def id(self) -> str:
        return f"verb:{self.en}"


@dataclass(frozen=True)
class Adjective:
    en: str
    en_comp: str        # "-": no comparative
    ko: str             # dictionary form: 크다
    ko_irr: str         # also "N": a color that Korean says with a noun (초록색 가방, 가방은 초록색이다)
    de: str
    de_comp: str
    applies: tuple[str, ...]    # noun classes it describes, "weather", "place", "color" (the color words)

    @cached_property
    def id(self) -> str:
        return f"adj:{self.en}"


@dataclass(frozen=True)
class TimeExpr:
    en: str
    ko: str
    de: str
    tenses: tuple[str, ...]

    @cached_property
    def id(self) -> str:
        return f"time:{self.en}"


@dataclass(frozen=True)
class Name:
    en: str
    ko: str
    de: str
    gender: str

    @cached_property
    def id(self) -> str:
        return f"name:{self.en}"


@dataclass(frozen=True)
class Number:
    n: int
    en: str
    de: str
    ko_native: str
    ko_attr: str
    digits: bool = False    # written in digits in all three languages: "28 students", "학생 28명", "28 Schüler"

    @cached_property
    def id(self) -> str:
        return f"number:{self.n}"

    @classmethod
    def in_digits(cls, n: int) -> Number:
        """n as digits: a counter follows it without a space in Korean (3개, 12살, 28명)."""
        return cls(n, str(n), str(n), str(n), str(n), digits=True)


@dataclass(frozen=True)
class Lexicon:
    nouns: tuple[Noun, ...]
    places: tuple[Place, ...]
    verbs: tuple[Verb, ...]
    adjectives: tuple[Adjective, ...]
    times: tuple[TimeExpr, ...]
    names: tuple[Name, ...]
    numbers: tuple[Number, ...]

    def entries(self):
        return (*self.nouns, *self.places, *self.verbs, *self.adjectives, *self.times, *self.names, *self.numbers)

    def without(self, ids: set[str]) -> Lexicon:
        """The lexicon less the lemmas whose id is in ids."""
        keep = lambda items: tuple(item for item in items if item.id not in ids)  # noqa: E731
        return Lexicon(*(keep(getattr(self, name)) for name in self.__dataclass_fields__))


@cache
def core() -> frozenset[str]:
    """The ids of the core words (lexicon/core.txt), drawn CORE_WEIGHT times as often as the others."""
    return frozenset(read_ids(FOLDER / "core.txt"))


@cache
def load() -> Lexicon:
    return Lexicon(
        nouns=tuple(Noun(r["en"], r["en_plural"], r["ko"], r["de"], r["de_gender"], r["de_plural"], r["class"])
                    for r in read_tsv("nouns.tsv")),
        places=tuple(Place(**r) for r in read_tsv("places.tsv")),
        verbs=tuple(Verb(r["en"], r["ko"], r["ko_irr"], r["de"], r["de_aux"], r["frame"], _list(r["obj"]),
                         r["ko_case"] or "을", r["de_prep"], r["de_case"] or "acc") for r in read_tsv("verbs.tsv")),
        adjectives=tuple(Adjective(r["en"], r["en_comp"], r["ko"], r["ko_irr"], r["de"], r["de_comp"],
                                   _list(r["applies"])) for r in read_tsv("adjectives.tsv")),
        times=tuple(TimeExpr(r["en"], r["ko"], r["de"], _list(r["tenses"])) for r in read_tsv("time.tsv")),
        names=tuple(Name(**r) for r in read_tsv("names.tsv")),
        numbers=tuple(Number(int(r["n"]), r["en"], r["de"], r["ko_native"], r["ko_attr"])
                      for r in read_tsv("numbers.tsv")),
    )
