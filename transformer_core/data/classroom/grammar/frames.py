"""FRAMES: every frame by name, and build(), which makes one example of a frame."""
from __future__ import annotations

import random
from collections.abc import Callable

from .. import english
from ..lexicon import Lexicon
from ..sentence import Example
from .directions import directions
from .experience import experience
from .expressions import free_time, good_luck, see_you, thanks
from .gen import TENSES, Gen
from .health import hurts, illness
from .instructions import instruction
from .linked import (
    because_of,
    but_clauses,
    comparative,
    consequence,
    feeling_because,
    opinion,
    reason,
    so_please,
    two_clauses,
)
from .questions import how_many, wh_adverb, wh_what, wh_where, where_is
from .requests import can_i_have, can_you_please, imperative, lets, modal
from .shopping import opening_hours, price, temperature, whose
from .statements import be_adjective, be_noun, question, statement, there_is, this_is, two_adjectives
from .textbook import (
    age,
    birthday,
    clock,
    color,
    distance,
    favorite,
    likes_best,
    likes_doing,
    name_is,
    position,
    starts_at,
    takes,
    weather,
    weather_verb,
)


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
    for word in ("and", "but"):
        frames[f"be_adj2.{word}"] = two_adjectives(word)
    frames["opinion"] = opinion(False)
    frames["q.opinion"] = opinion(True)
    frames["this_is"] = this_is(False)
    frames["q.this_is"] = this_is(True)
    frames["there_is.pos"] = there_is(False)
    frames["there_is.neg"] = there_is(True)
    frames["where_is"] = where_is
    for tense in TENSES:
        frames[f"wh_what.{tense}"] = wh_what(tense)
        frames[f"wh_where.intr.{tense}"] = wh_where("intr", tense)
        frames[f"wh_where.motion.{tense}"] = wh_where("motion", tense)
        for word in ("why", "when"):
            frames[f"wh_{word}.{tense}"] = wh_adverb(word, tense)
    for tense in ("present", "past", "future"):
        for neg in (False, True):
            frames[f"dwell.{tense}.{'neg' if neg else 'pos'}"] = statement("dwell", tense, neg)
        frames[f"q.dwell.{tense}"] = question("dwell", tense)
    for tense in ("present", "past"):
        frames[f"wh_where.dwell.{tense}"] = wh_where("dwell", tense)
    frames["how_many"] = how_many
    for kind in ("plain", "please", "dont"):
        frames[f"imperative.{kind}"] = imperative(kind)
    for kind in ("can", "want"):
        for neg in (False, True):
            frames[f"{kind}.{'neg' if neg else 'pos'}"] = modal(kind, neg)
        frames[f"q.{kind}"] = modal(kind, False, ask=True)
    frames["can_you_please"] = can_you_please
    for kind in ("plain", "please"):
        frames[f"instruction.{kind}"] = instruction(kind)
    frames["lets"] = lets
    for how in ("ask", "please", "like"):
        frames[f"have.{how}"] = can_i_have(how)
    frames["comparative"] = comparative
    for tense in ("present", "past", "future"):
        frames[f"weather.{tense}"] = weather(tense)
    frames["q.weather.present"] = weather("present", ask=True)
    for tense in ("present", "past"):
        frames[f"and.{tense}"] = two_clauses(tense)
    for tense in ("present", "past"):
        frames[f"but.{tense}"] = but_clauses(tense)
    frames["because"] = reason("because")
    frames["feeling_because"] = feeling_because
    for tense in ("present", "past"):
        frames[f"because_of.{tense}"] = because_of(tense)
    frames["when"] = reason("when")
    for cause in ("person", "weather", "rain"):
        for tense in ("present", "past"):
            frames[f"so.{cause}.{tense}"] = consequence(cause, tense)
    for cause in ("weather", "rain"):
        frames[f"so.{cause}.please"] = so_please(cause)
    for ask in (False, True):
        q = "q." if ask else ""
        frames[f"{q}color"] = color(ask)
        frames[f"{q}age"] = age(ask)
        frames[f"{q}name"] = name_is(ask)
        frames[f"{q}clock"] = clock(ask)
        frames[f"{q}birthday"] = birthday(ask)
        frames[f"{q}favorite"] = favorite(ask)
    for tense in ("present", "past"):
        frames[f"starts_at.{tense}"] = starts_at(tense)
        frames[f"q.starts_at.{tense}"] = starts_at(tense, ask=True)
    frames["position.pos"] = position(False)
    frames["position.neg"] = position(True)
    frames["q.position"] = position(False, ask=True)
    for kind in ("turn", "straight", "cross", "bus", "off"):
        frames[f"directions.{kind}"] = directions(kind)
    frames["price"] = price(False)
    frames["q.price"] = price(True)
    frames["temperature"] = temperature
    frames["whose"] = whose
    frames["hours.from"] = opening_hours("from")
    for kind in ("open", "close"):
        frames[f"hours.{kind}"] = opening_hours(kind)
        frames[f"q.hours.{kind}"] = opening_hours(kind, ask=True)
    for kind in ("free", "ask", "plans"):
        frames[f"free_time.{kind}"] = free_time(kind)
    frames["good_luck"] = good_luck
    frames["thanks"] = thanks
    frames["see_you"] = see_you
    frames["likes_best"] = likes_best(False)
    frames["q.likes_best"] = likes_best(True)
    frames["likes_doing.pos"] = likes_doing(False)
    frames["likes_doing.neg"] = likes_doing(True)
    frames["q.likes_doing"] = likes_doing(False, ask=True)
    frames["takes"] = takes(False)
    frames["q.takes"] = takes(True)
    for near in (True, False):
        frames[f"distance.{'near' if near else 'far'}"] = distance(near)
        frames[f"q.distance.{'near' if near else 'far'}"] = distance(near, ask=True)
    for tense in ("progressive", "past", "future", "present"):
        frames[f"weather_verb.{tense}.pos"] = weather_verb(tense)
    for tense in ("progressive", "past"):
        frames[f"weather_verb.{tense}.neg"] = weather_verb(tense, neg=True)
        frames[f"q.weather_verb.{tense}"] = weather_verb(tense, ask=True)
    for tense in ("present", "past"):
        frames[f"hurts.{tense}"] = hurts(tense)
        frames[f"illness.{tense}"] = illness(tense)
    frames["q.hurts"] = hurts("present", ask=True)
    for kind in ("been", "done"):
        frames[f"ever.{kind}.pos"] = experience(kind)
        frames[f"ever.{kind}.neg"] = experience(kind, neg=True)
        frames[f"q.ever.{kind}"] = experience(kind, ask=True)
    frames["q.illness"] = illness("present", ask=True)
    return frames


FRAMES = _frames()
HUMBLE = {"나는": "저는", "내가": "제가", "나를": "저를", "내": "제", "나에게": "저에게", "나와": "저와", "나보다": "저보다"}


def polite(ko: list) -> list:
    """A sentence in 해요체 speaks of oneself humbly (저는 왜 늦었어요?, 제 가방을 가져오세요) and leaves out the
    casual 너의 ("생일이 언제예요?"). A verb that only looks like 나는 (날다: 나는 것) stays."""
    return [(text if any(t.endswith("V") for t in tags) else HUMBLE.get(text, text), tags)
            for text, tags in ko if text != "너의"]
BRITISH_P = 0.2     # how often the English is in British spelling: "my favourite colour"


def build(name: str, rng: random.Random, lex: Lexicon) -> Example:
    g = Gen(rng, lex)
    example = FRAMES[name](g)
    example.frame = name
    example.lemmas |= g.lemmas
    if example.end == "?" or example.ko[-1][0].endswith("요"):     # 해요체: polite to the one spoken to
        example.ko = polite(example.ko)
    if rng.random() < BRITISH_P:
        example.en = [(english.british(text), tags) for text, tags in example.en]
    return example
