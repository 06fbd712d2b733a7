"""What one has ever done: 'Have you ever been to Busan?' -> '부산에 가 본 적이 있어요?' -> 'Warst du schon
einmal in Busan?'; 'I have eaten kimchi twice.' -> '나는 김치를 두 번 먹어 본 적이 있다.' -> 'Ich habe schon
zweimal Kimchi gegessen.'  Korean says it with -아/어 본 적이 있다 (없다: never), German with schon / noch nie."""
from __future__ import annotations

from .. import english, german, korean
from ..sentence import Example, chunk
from .clause import Clause, obj_de, obj_en, obj_ko
from .gen import KO_DESCRIPTIVE, Gen
from .textbook import person
from .verbs import DeVerb, de_clause, de_verb

VISITED = {"museum", "zoo", "aquarium", "amusement park", "stadium", "castle", "palace", "temple", "ski resort",
           "art museum", "concert hall", "island", "beach", "mountain", "waterfall", "cave", "desert", "jungle",
           "countryside", "farm", "hospital", "airport"}
TRIED = {"eat", "drink", "read", "watch", "ride", "cook", "make", "play", "learn", "visit", "meet", "climb", "catch",
         "bake", "grow", "build", "taste", "draw", "plant", "sew", "fly"}
# How many times: English, Korean, German
TIMES = (("once", "한 번", "einmal"), ("twice", "두 번", "zweimal"), ("three times", "세 번", "dreimal"),
         ("many times", "여러 번", "oft"))


def experience(kind: str, neg: bool = False, ask: bool = False):
    """kind 'been': to a place (war … in Busan, 가 본 적); kind 'done': a transitive verb and its object
    ("Has Minsu ever ridden a horse?" -> '민수는 말을 타 본 적이 있어요?' -> 'Ist Minsu schon einmal ein Pferd
    geritten?')."""
    def build(g: Gen) -> Example:
        subject = person(g, ask)
        times = None if ask or neg or g.chance(0.5) else g.pick(TIMES, used=False)
        if kind == "been":
            place = g.pick([p for p in g.lex.places if p.kind in ("country", "city") or p.en in VISITED])
            g.lemmas.add(place.id)
            en_do = [chunk("been", "V"), chunk(place.en_to, "P")]
            ko_what = [chunk(korean.with_particle(place.ko, "에"), "P")]
            stem = ("가", "VV")
            de_v = DeVerb(german.preterite("sein", subject.de_person), [])
            de_mid = [("pp", [chunk(place.de_at, "P")])]
            lemmas = subject.lemmas() | {place.id}
        else:
            verb = g.pick([v for v in g.verbs("tr") if v.en in TRIED])
            c = Clause(subject, verb, "past")
            c.obj = g.object(verb, ("bare", "a"), adjective=0.1)
            c.verb = verb = g.verb_for(verb, c.obj)
            en_do = [chunk(english.verb(verb.en, "VBN"), "V"), *obj_en(c, "")]
            ko_what = obj_ko(c, "")
            said = verb.ko      # "tasted" is 먹어 본 적, 마셔 본 적: 맛봐 본 적 says 보다 twice
            if verb.en == "taste":
                said = "마시다" if c.obj.noun.cls == "drink" else "먹다"
            stem = korean.stem(said, verb.ko_irr, said in KO_DESCRIPTIVE)
            de_v = de_verb(verb.de, verb.de_aux, "past", subject.de_person)
            de_mid = [obj_de(c, "")]
            lemmas = subject.lemmas() | {verb.id} | c.obj.lemmas()
        have = "has" if subject.en_person == 3 else "have"
        if ask:
            ever_en, ever_de = [chunk("ever", "EVER")], [chunk("schon", "EVER"), chunk("einmal", "EVER")]
        elif neg:
            ever_en, ever_de = [chunk("never", "EVER", "NEG")], [chunk("noch", "EVER"), chunk("nie", "EVER", "NEG")]
        else:
            ever_en = []
            ever_de = [chunk("schon", "EVER"), chunk(times[2], "N") if times else chunk("einmal", "EVER")]
        en_times = [chunk(times[0], "N")] if times else []
        ko_times = [chunk(times[1], "N")] if times else []
        de_time = [("time", ever_de)]
        if ask:
            en = [chunk(have, "V", "EVER"), *subject.en(), *ever_en, *en_do]
            de = de_clause([], de_v, subject.de(), [*de_time, *de_mid], False)
        else:
            en = [*subject.en(), chunk(have, "V", "EVER"), *ever_en, *en_do, *en_times]
            de = de_clause(subject.de(), de_v, [], [*de_time, *de_mid], False)
        ending = "어요" if ask else "다"
        tried = korean.join([stem, ("어", "EC"), ("보", "VX"), ("ᆫ", "ETM")])
        have_ko = korean.join([("없" if neg else "있", "VA"), (ending, "EF")])
        ko_subject = [] if ask and subject.is_you else subject.ko("은")
        ko = [*ko_subject, *ko_what, *ko_times, chunk(tried, "V"), chunk("적이", "EVER"),
              chunk(have_ko, "EVER", *(("NEG",) if neg else ()))]
        return Example("", en, ko, de, end="?" if ask else ".", lemmas=lemmas)
    return build
