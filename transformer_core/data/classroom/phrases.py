"""Noun phrases and subjects in the three languages: determiners, possessives, adjectives, numbers.

Tags: a phrase's chunks carry ROLE.det, ROLE.adj, ROLE.num and ROLE.n, so that "my red bag",
"내 빨간 가방을" and "meine rote Tasche" align word by word.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import english, german, korean
from .lexicon import Adjective, Name, Noun, Number
from .sentence import Chunk, chunk

COUNTERS = {"person": "명", "animal": "마리", "readable": "권", "clothing": "벌", "vehicle": "대"}   # else 개
# Words that Korean counts otherwise than their class: letters 통, sheets 장, newspapers 부, stories 편, pairs of
# shoes 켤레, and hats, scarves, words and questions 개.
NOUN_COUNTERS = {
    **dict.fromkeys(("편지", "이메일"), "통"),
    **dict.fromkeys(("지도", "카드", "엽서", "학습지", "시간표", "초대장", "메모", "달력", "담요", "영수증", "표", "사진", "종이",
                     "스티커", "수건"), "장"),
    "신문": "부",
    **dict.fromkeys(("이야기", "시", "동화"), "편"),
    **dict.fromkeys(("단어", "문장", "질문", "답", "숙제", "메뉴", "보고서"), "개"),
    **dict.fromkeys(("신발", "양말", "장갑", "부츠", "운동화", "샌들"), "켤레"),
    **dict.fromkeys(("모자", "야구 모자", "목도리", "벨트", "넥타이"), "개"),
}


def counter(noun) -> str:
    """The Korean counter of a noun: 사과 세 개, 책 두 권, 편지 한 통."""
    return NOUN_COUNTERS.get(noun.ko) or COUNTERS.get(noun.cls, "개")


# People a Korean sentence speaks of with respect: the verb takes -(으)시- (우리 어머니는 일하신다), "my" is
# 우리 (우리 할머니), and 부모 is 부모님.
ELDERS = {"mother", "father", "mom", "dad", "parent", "grandmother", "grandfather", "grandma", "grandpa", "uncle",
          "aunt", "teacher", "principal"}
HONORIFIC_NOUNS = {"부모": "부모님"}
PLURAL_MARKED = ("person", "animal")    # Korean says 들 of the people and animals one means, not of things
BOTH = {"parent"}       # 부모님 is both parents already
OURS = ELDERS | {"family"}          # "my family" is 우리 가족 too
YOUNGER = {"brother", "sister"}     # 남동생, 여동생: "my little brother" -> "mein kleiner Bruder"
SIBLINGS = {"남동생": "남자 형제", "여동생": "여자 형제"}    # counted, of any age: "two sisters" -> 여자 형제 두 명


def counted(noun: Noun, little: bool = False) -> str:
    """The Korean word of a counted noun: a brother or a sister of any age is 남자 형제, 여자 형제 ("How many sisters
    do you have?" -> 여자 형제가 몇 명 있어요?), a little one 남동생, 여동생."""
    return noun.ko if little else SIBLINGS.get(noun.ko, noun.ko)


@dataclass(frozen=True)
class Pronoun:
    en: str
    en_object: str
    en_poss: str
    ko: str         # before a particle: 나, 너, ...
    ko_poss: str
    de: str
    de_poss: str    # ein-word stem
    de_person: int  # ablaut's index
    en_person: int  # 1: I, 3: 3rd singular, 0: other


PRONOUNS = {
    "I": Pronoun("I", "me", "my", "나", "내", "ich", "mein", 0, 1),
    "you": Pronoun("you", "you", "your", "너", "너의", "du", "dein", 1, 0),
    "he": Pronoun("he", "him", "his", "그", "그의", "er", "sein", 2, 3),
    "she": Pronoun("she", "her", "her", "그녀", "그녀의", "sie", "ihr", 2, 3),
    "we": Pronoun("we", "us", "our", "우리", "우리", "wir", "unser", 3, 0),
    "they": Pronoun("they", "them", "their", "그들", "그들의", "sie", "ihr", 5, 0),
}
FIRST_PERSON = (PRONOUNS["I"], PRONOUNS["we"])     # who speaks: 내, 우리 are said where 그의 is not


@dataclass(frozen=True)
class NounPhrase:
    """det: 'a', 'the', 'this', 'bare' (plural or mass, no article), 'poss', 'num'."""
    noun: Noun
    det: str
    plural: bool = False
    owner: Pronoun | Name | None = None
    adjective: Adjective | None = None
    number: Number | None = None
    little: bool = False        # "little brother": 남동생 says it already; German says "kleiner Bruder"

    @property
    def en_person(self) -> int:
        return 0 if self.plural else 3

    @property
    def de_person(self) -> int:
        return 5 if self.plural or self.noun.de_gender == "pl" else 2    # die Hausaufgaben sind ...

    @property
    def indefinite(self) -> bool:
        return self.det in ("a", "bare", "num")

    def lemmas(self) -> set[str]:
        return {x.id for x in (self.noun, self.owner, self.adjective, self.number) if x is not None
                and not isinstance(x, Pronoun)}

    def en(self, role: str) -> list[Chunk]:
        noun = english.plural(self.noun.en, self.noun.en_plural) if self.plural else self.noun.en
        adj = [chunk(self.adjective.en, role + ".adj")] if self.adjective else []
        little = [chunk("little", role + ".n")] if self.little else []
        head = [*adj, *little, chunk(noun, role + ".n")]
        if self.det == "a":
            return [chunk(english.article(" ".join(t for t, _ in head)), role + ".det"), *head]
        if self.det in ("the", "this"):
            word = "the" if self.det == "the" else ("these" if self.plural else "this")
            return [chunk(word, role + ".det"), *head]
        if self.det == "poss":
            owner = self.owner.en_poss if isinstance(self.owner, Pronoun) else self.owner.en + "'s"
            return [chunk(owner, role + ".det"), *head]
        if self.det == "num":
            return [chunk(self.number.en, role + ".num"), *head]
        return head

    @property
    def elder(self) -> bool:
        return self.noun.en in ELDERS

    def ko(self, role: str, particle: str | None) -> list[Chunk]:
        out = []
        if self.det == "poss":
            owner = self.owner.ko_poss if isinstance(self.owner, Pronoun) else self.owner.ko + "의"
            if self.noun.en in OURS and self.owner is PRONOUNS["I"]:      # 우리 어머니, not 내 어머니
                owner = PRONOUNS["we"].ko_poss
            out.append(chunk(owner, role + ".det"))
        elif self.det == "this":
            out.append(chunk("이", role + ".det"))
        if self.adjective:
            a = self.adjective
            out.append(chunk(korean.attributive(a.ko, a.ko_irr), role + ".adj"))
        if self.det == "num":
            unit = counter(self.noun)
            last = korean.with_particle(unit, particle) if particle else unit
            amount = [chunk(self.number.ko_attr + last, role + ".num")] if self.number.digits else \
                [chunk(self.number.ko_attr, role + ".num"), chunk(last, role + ".num")]      # 3개를, 세 개를
            return [*out, chunk(counted(self.noun, self.little), role + ".n"), *amount]
        noun = HONORIFIC_NOUNS.get(self.noun.ko, self.noun.ko)
        if self.plural and self.det in ("the", "poss", "this") and self.noun.cls in PLURAL_MARKED \
                and self.noun.en not in BOTH:
            noun += "들"         # the ones meant are many: 내 남동생들은, 이 고양이들을; a bare plural is general: 학생을 돕는다
        noun = korean.with_particle(noun, particle) if particle else noun
        return [*out, chunk(noun, role + ".n")]

    def de(self, role: str, case: str, negated: str = "") -> list[Chunk]:
        """negated: the tag of the negation that an indefinite phrase then expresses with kein ("keinen Apfel",
        "keine Äpfel"), aligned to the English not/no of its own clause ("NEG", "2NEG")."""
        n = self.noun
        gender = "pl" if self.plural else n.de_gender
        noun = german.noun_forms(n.de, n.de_gender, n.de_plural)[(case, self.plural)]
        kind = {"a": "ein", "the": "def", "this": "this"}.get(self.det)
        if self.det == "poss":
            kind = self.owner.de_poss if isinstance(self.owner, Pronoun) else None
        if negated and self.det in ("a", "bare"):
            kind = "kein"
        out = []
        if kind:
            tags = (role + ".det", negated) if kind == "kein" else (role + ".det",)   # keine <- not / no
            out.append(chunk(german.article(kind, gender, case), *tags))
        elif self.det == "poss":     # a name's: Minsus, Max'
            out.append(chunk(german.name_genitive(self.owner.de), role + ".det"))
        if self.det == "num":
            out.append(chunk(self.number.de, role + ".num"))
        if self.adjective:
            out.append(chunk(german.adjective_form(self.adjective.de, kind, gender, case), role + ".adj"))
        if self.little:
            out.append(chunk(german.adjective_form("klein", kind, gender, case), role + ".n"))
        return [*out, chunk(noun, role + ".n")]


@dataclass(frozen=True)
class Subject:
    """A pronoun, a name or a noun phrase, as the subject of a clause."""
    pronoun: Pronoun | None = None
    name: Name | None = None
    phrase: NounPhrase | None = None

    @property
    def en_person(self) -> int:
        if self.pronoun:
            return self.pronoun.en_person
        return 3 if self.name else self.phrase.en_person

    @property
    def de_person(self) -> int:
        if self.pronoun:
            return self.pronoun.de_person
        return 2 if self.name else self.phrase.de_person

    @property
    def is_you(self) -> bool:
        return self.pronoun is PRONOUNS["you"]

    @property
    def gender(self) -> str:
        """'f' or 'm' where the subject says it (she, Clara; he, Minsu), else ''."""
        if self.name:
            return self.name.gender
        return {"she": "f", "he": "m"}.get(self.pronoun.en, "") if self.pronoun else ""

    def feels_outside(self, ask: bool = False) -> bool:
        """Whether Korean says this subject's feeling from outside, with -아/어하다 (그는 슬퍼한다): anyone but
        the speaker in a statement (너는 무서워한다), anyone but the speaker and the one asked in a question
        (너는 무서워요?)."""
        return self.pronoun is None or self.pronoun.en in ("he", "she", "they") or (self.is_you and not ask)

    @property
    def honorific(self) -> bool:
        """A subject owed respect: the Korean verb takes -(으)시-."""
        return self.phrase is not None and self.phrase.elder

    def lemmas(self) -> set[str]:
        if self.name:
            return {self.name.id}
        return self.phrase.lemmas() if self.phrase else set()

    def en(self, role: str = "S") -> list[Chunk]:
        if self.pronoun:
            return [chunk(self.pronoun.en, role)]
        if self.name:
            return [chunk(self.name.en, role)]
        return self.phrase.en(role)

    def ko(self, particle: str, role: str = "S") -> list[Chunk]:
        if self.pronoun or self.name:
            word = self.pronoun.ko if self.pronoun else self.name.ko
            return [chunk(korean.with_particle(word, particle), role)]
        return self.phrase.ko(role, particle)

    def de(self, role: str = "S") -> list[Chunk]:
        if self.pronoun:
            return [chunk(self.pronoun.de, role)]
        if self.name:
            return [chunk(self.name.de, role)]
        return self.phrase.de(role, "nom")
