"""Korean morphology with kiwipiepy (Apache-2.0): its morpheme join conjugates verbs (irregular ones too)
and picks each particle's form after the final consonant (은/는, 이/가, 을/를, 와/과, (으)로).

Style: statements in the lectures' plain style 한다체 ("나는 사과를 좋아한다."); questions and requests in
the polite 해요체 ("사과를 좋아해요?", "문을 열어 주세요.").
"""
from __future__ import annotations

from functools import cache

from kiwipiepy import Kiwi

from .english import request_in_english

# Particle (given in its consonant form) -> kiwi tag.
PARTICLE_TAGS = {"은": "JX", "이": "JKS", "을": "JKO", "와": "JC", "으로": "JKB", "에": "JKB", "에서": "JKB",
                 "의": "JKG", "보다": "JKB", "에게": "JKB", "께": "JKB", "도": "JX"}
# Endings after the stem, per style and tense; "NEG" marks where 지 않 goes.
STATEMENT = {
    "present": [("는다", "EF")],
    "past": [("었", "EP"), ("다", "EF")],
    "future": [("을", "ETM"), ("것", "NNB"), ("이", "VCP"), ("다", "EF")],
    "progressive": [("고", "EC"), ("있", "VX"), ("다", "EF")],
}
QUESTION = {
    "present": [("어요", "EF")],
    "past": [("었", "EP"), ("어요", "EF")],
    "future": [("을", "ETM"), ("거", "NNB"), ("예요", "EF")],
    "progressive": [("고", "EC"), ("있", "VX"), ("어요", "EF")],
}
NEGATION = [("지", "EC"), ("않", "VX")]
CANNOT = [("지", "EC"), ("못", "MAG"), ("하", "VX")]     # what one did not manage: 찾지 못했다 (찾지 않았다 is chose not to)
NEGATED_BY = {"있다": ("없다", ""), "알다": ("모르다", "르")}     # verbs negated by another verb, and its irregular class
# Posture verbs: their -ing is the state they end in, "is sitting" is 앉아 있다 (has sat down), not 앉고 있다 (is
# sitting down); and where one sits is 에, not 에서: 의자에 앉다, 침대에 눕다
POSTURE = {"앉다", "서다", "눕다"}
# Honorifics: a subject owed respect (우리 어머니는, 선생님은) takes -(으)시- on the verb, and these verbs
# change outright: 우리 할머니는 사과를 드신다, 주무신다.
HONORIFIC = ("으시", "EP")
HONORIFIC_VERBS = {"먹다": "드시다", "마시다": "드시다", "자다": "주무시다", "말하다": "말씀하시다"}
# What one does for someone owed respect, said humbly (객체 높임): 할머니를 도와드린다, 조부모님을 찾아뵌다,
# 선생님께 여쭈어보았다, 어머니께 전화드린다; 에게 becomes 께
HUMBLY = {"돕다": "도와드리다", "방문하다": "찾아뵈다", "묻다": "여쭈어보다", "전화하다": "전화드리다",
          "감사하다": "감사드리다", "인사하다": "인사드리다"}
TOWARD = {"오다": "가다", "돌아오다": "돌아가다"}     # "Can I come to the bus stop?" asks one who is there: 갈 수 있어요?
IRREGULAR_TAGGED = ("ㅂ", "ㄷ", "ㅅ")
# Adjectives of feeling: of someone else, Korean says them with -아/어하다 (그는 슬퍼한다)
FEELINGS = {"슬프다", "외롭다", "초조하다", "무섭다", "걱정스럽다", "속상하다", "자랑스럽다", "기쁘다", "행복하다",
            "심심하다"}
FINALS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ",
          "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")


@cache
def kiwi() -> Kiwi:
    return Kiwi()


def join(morphs: list[tuple[str, str]]) -> str:
    return _join(tuple(morphs))


@cache              # a few thousand distinct words, joined hundreds of thousands of times
def _join(morphs: tuple[tuple[str, str], ...]) -> str:
    return kiwi().join(morphs)


def with_particle(noun: str, particle: str) -> str:
    """'사과' + '을' -> '사과를'; a noun of several words takes it on its last word."""
    head, _, last = noun.rpartition(" ")
    word = join([(last, "NNG"), (particle, PARTICLE_TAGS[particle])])
    return f"{head} {word}" if head else word


def final_consonant(text: str) -> str:
    """The final consonant (받침) of the last syllable: '닫' -> 'ㄷ', '먹' -> 'ㄱ', '가' -> ''."""
    code = ord(text[-1]) - 0xAC00
    return FINALS[code % 28] if 0 <= code < 11172 else ""


def stem(dictionary_form: str, irregular: str, adjective: bool) -> tuple[str, str]:
    """'먹다' -> ('먹', 'VV').  ㅂ, ㄷ and ㅅ irregular stems get kiwi's -I tag (짓다 -> 지었다), regular ones
    with those finals its -R tag (씻다 -> 씻었다, 닫다 -> 닫아요); kiwi conjugates 르 and ㅎ stems by itself (its
    -I on 르 means the 러 class: 이르러)."""
    tag = "VA" if adjective else "VV"
    stem_form = dictionary_form[:-1]
    if irregular in IRREGULAR_TAGGED:
        return stem_form, tag + "-I"
    if final_consonant(stem_form) in IRREGULAR_TAGGED:      # kiwi guesses 닫아요 as 달아요 unless told -R
        return stem_form, tag + "-R"
    return stem_form, tag


def predicate(stem_morph: tuple[str, str], endings: list[tuple[str, str]], negative: bool = False,
              honorific: bool = False, cannot: bool = False) -> str:
    """Conjugate: predicate(('먹', 'VV'), STATEMENT['past'], negative=True) -> '먹지 않았다';
    honorific: predicate(('가', 'VV'), STATEMENT['present'], honorific=True) -> '가신다' (보고 계신다, 가세요?,
    가지 않으신다);
    cannot, the negation of what one did not manage: ('찾', 'VV') past -> '찾지 못했다'."""
    adjective = stem_morph[1].startswith("VA")
    stem = [stem_morph]
    progressive = endings[:2] in ([("고", "EC"), ("있", "VX")], [("어", "EC"), ("있", "VX")])
    if honorific and progressive:                        # 있다 of the progressive is 계시다, a verb: 보고 계신다
        endings = [endings[0], ("계시", "VX"), *[("는다", "EF") if e == ("다", "EF") else e for e in endings[2:]]]
    negation = CANNOT if cannot and negative and not progressive else NEGATION     # not 찾고 있지 못하다
    if honorific and not progressive and not stem_morph[0].endswith("시"):     # 드시다, 주무시다 are honorific already
        if negative:                    # -시- on the last verb: 읽지 않으신다, 찾지 못하셨다
            negation = [*negation, HONORIFIC]
        else:
            stem.append(HONORIFIC)
    if negative and progressive:                          # 먹고 있지 않다, 보고 계시지 않는다
        text = join([*stem, *endings[:2], *negation, *_plain(endings[2:], not honorific)])
    elif negative:
        text = join([*stem, *negation, *_plain(endings, adjective)])
    else:
        text = join([*stem, *_plain(endings, adjective)])
    if honorific and text.endswith("셔요"):      # kiwi's 가셔요: the standard is 가세요 (but 마셔요 stays)
        return text[:-2] + "세요"
    return text


def _plain(endings: list[tuple[str, str]], adjective: bool) -> list[tuple[str, str]]:
    """Adjectives (and 않다 after one) take 다 where verbs take 는다."""
    if adjective and endings[:1] == [("는다", "EF")]:
        return [("다", "EF")]
    return endings


# A noun said otherwise before a noun: 가방은 새것이다, but 새 가방 (새롭다 is new to one's mind: 새로운 생각)
BEFORE_A_NOUN = {"새것": "새"}


def attributive(adjective: str, irregular: str) -> str:
    """The form before a noun: 빨갛다 -> 빨간 (가방); 있다 and 없다 take 는: 맛있다 -> 맛있는 (빵); a noun color
    stays as it is: 초록색 (가방), and 새것 is 새 (가방)."""
    if irregular == "N":
        return BEFORE_A_NOUN.get(adjective, adjective)
    ending = "는" if adjective.endswith(("있다", "없다")) else "은"
    return predicate(stem(adjective, irregular, True), [(ending, "ETM")])


BOUND = ("book", "notebook", "textbook", "dictionary", "magazine", "comic book", "novel", "picture book", "diary",
         "storybook")
BY_OBJECT = {   # (verb, object) -> the verb Korean says with that object, and its irregular class
    **{("입다", n): ("쓰다", "") for n in ("hat", "cap")},                         # 모자를 쓰다
    **{("입다", n): ("신다", "") for n in ("shoe", "sock", "boot", "sneaker", "sandal")},   # 신발을 신다
    ("입다", "glove"): ("끼다", ""), ("입다", "belt"): ("매다", ""), ("입다", "tie"): ("매다", ""),
    ("입다", "scarf"): ("두르다", "르"),
    **{("열다", n): ("펴다", "") for n in BOUND}, **{("닫다", n): ("덮다", "") for n in BOUND},   # 책을 펴다, 덮다
    ("열다", "umbrella"): ("펴다", ""), ("닫다", "umbrella"): ("접다", ""),                      # 우산을 펴다, 접다
    **{("요리하다", n): ("준비하다", "") for n in ("breakfast", "lunch", "dinner")},             # 아침 식사를 준비하다
    **{("깎다", n): ("까다", "") for n in ("banana", "orange", "tangerine", "onion", "egg")},  # 바나나를 까다
    ("닦다", "hair"): ("빗다", ""),                                                             # 머리를 빗다
    **{("들다", n): ("나르다", "르") for n in ("table", "chair", "desk", "sofa", "bench", "armchair", "bookshelf",
                                           "trash can", "box", "suitcase")},   # 의자를 나르다, but 가방을 들다 (in hand)
}


def adjective_predicate(adjective: str, irregular: str, tense: str, negative: bool, question: bool,
                        honorific: bool = False, others: bool = False) -> str:
    """'빨갛다' -> '빨갛다', '빨갛지 않았다', '빨개요'; a noun color takes the copula: '초록색이다', '초록색이 아니다';
    honorific: '친절하다' -> '친절하시다'.  others: the feeling of someone else, which Korean says with the verb
    -아/어하다 ('그는 슬퍼한다', not 그는 슬프다; '걱정스러워했다')."""
    past = tense == "past"
    if others and adjective in FEELINGS:
        verb = join([stem(adjective, irregular, True), ("어", "EC")]) + "하다"
        endings = (QUESTION if question else STATEMENT)[tense]
        return predicate(stem(verb, "", False), endings, negative=negative, honorific=honorific)
    if irregular != "N":
        endings = (QUESTION if question else STATEMENT)[tense]
        return predicate(stem(adjective, irregular, True), endings, negative=negative, honorific=honorific)
    if negative:
        ending = "다" if not question else "어요" if past else "에요"     # 아니에요, 아니었어요
        return with_particle(adjective, "이") + " " + join([("아니", "VCN"), *([("었", "EP")] if past else []), (ending, "EF")])
    return copula(adjective, past, question)


def connected(adjective: str, irregular: str, connective: str) -> str:
    """The first of two predicates joined by 고 or 지만: 맵지만, 덥고; a noun color with the copula: 초록색이고."""
    if irregular == "N":
        return join([(adjective, "NNG"), ("이", "VCP"), (connective, "EC")])
    return join([stem(adjective, irregular, True), (connective, "EC")])


def time_topic(time: str) -> str:
    """A time as the topic of a sentence about the weather: 오늘은, 겨울에는; but 매일, 10분마다 and a length of
    time (일주일 동안, 오랫동안) take no 은."""
    plain = time.startswith("매") or time.endswith(("마다", "동안"))
    return time if plain else with_particle(time, "은")


def weekly(time: str, negated: bool, how_often: bool) -> str:
    """매주 토요일에 says every Saturday. The days on which one does not do a thing are set apart with 는, without 매주
    (우리는 토요일에는 학교에 가지 않는다, 평일에는), and where an adverb says how often, it says so alone (가끔
    화요일에, not 가끔 매주 화요일에); other times stay."""
    if time == "평일에" or time.startswith("매주 ") and time.endswith("에") and " " not in time[3:]:
        days = time.removeprefix("매주 ")
        if negated:
            return days + "는"
        if how_often:
            return days
    return time


def has_final_consonant(word: str) -> bool:
    """Whether the last Hangul syllable has a final consonant (받침): 학생 yes, 의사 no."""
    return final_consonant(word) != ""


def copula(noun: str, past: bool = False, question: bool = False) -> str:
    """'학생' -> '학생이다', '학생이었다', '학생이에요'; '의사' -> '의사이다', '의사였다', '의사예요'."""
    if question and not past:       # kiwi writes 의사에요; the standard is 의사예요
        return noun + ("이에요" if has_final_consonant(noun) else "예요")
    if not past and not question:   # the lectures' full form: 의사이다 (kiwi contracts it to 의사다)
        return noun + "이다"
    return join([(noun, "NNG"), ("이", "VCP"), ("었", "EP"), ("어요" if question else "다", "EF")])


# Casual (반말) sentence endings as kiwi writes them: 먹어, 가, 달아 and 해 are all 어; 학생이야, 뭐야 are 야.
CASUAL_ENDINGS = {"어", "야"}
# Before these the plain statement ending is 다 (있다, 달다, 먹었다, 먹고 싶다), before a verb 는다 (먹는다, 간다).
PLAIN_DA_TAGS = ("VA", "XSA", "EP", "VCN")
PLAIN_DA_AUXILIARIES = {"있", "없", "싶", "계시"}
VERB_TAGS = ("VV", "VX", "XSV")


def lecture_style(korean: str, english: str) -> str:
    """A casual (반말) Korean sentence in the lectures' style, the generator's: statements in 한다체, questions and
    requests in 해요체.  '톰은 아직도 자고 있어?' -> '톰은 아직도 자고 있어요?', '내 차는 너무 달아.' -> '내 차는
    너무 달다.', '기다려.' (Wait.) -> '기다리세요.'.  Other endings (습니다, 해요, 지, 네…) are kept as written."""
    tokens = kiwi().tokenize(korean)
    request = request_in_english(english) and not any(t.tag == "JKS" or t.form in ("은", "는") for t in tokens)
    pieces, done = [], 0
    for i, ef in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if ef.tag != "EF" or ef.form not in CASUAL_ENDINGS or (after is not None and after.tag != "SF") or i == 0:
            continue
        word = [t for t in tokens[:i] if (t.sent_position, t.word_position) == (ef.sent_position, ef.word_position)]
        if not word:
            continue
        question = after is not None and after.form == "?"
        start, before = word[0].start, word[-1]
        if before.tag == "VCP":                                  # 학생이야 -> 학생이다 / 학생이에요?
            noun = korean[start:before.start]
            new = copula("것" if noun == "거" and not question else noun, question=question)    # 갈 것이다
        else:
            if question:
                ending = "에요" if before.tag == "VCN" else "어요"       # 아니에요?, 가요?
            elif request and before.tag.startswith(VERB_TAGS) and before.form not in PLAIN_DA_AUXILIARIES:
                ending = "어요" if word[0].form == "부탁" else "으세요"     # 부탁해요 (please), 기다리세요 (wait)
            elif before.tag.startswith(PLAIN_DA_TAGS) or before.form in PLAIN_DA_AUXILIARIES or _after_adjective(
                    tokens, i - 1):
                ending = "다"
            elif before.tag.startswith(VERB_TAGS):
                ending = "는다"
            else:
                continue
            new = join([(t.form, t.tag) for t in word] + [(ending, "EF")])
        pieces += [korean[done:start], new]
        done = ef.start + ef.len
    return "".join(pieces) + korean[done:]


def _after_adjective(tokens, i: int) -> bool:
    """않 after an adjective is plain 다 (좋지 않다, 같진 않다); after a verb, 는다 (먹지 않는다)."""
    if tokens[i].form != "않":
        return False
    head = next((t for t in reversed(tokens[:i]) if t.tag.startswith(("VV", "VA", "XSV", "XSA"))), None)
    return head is not None and head.tag.startswith(("VA", "XSA"))
