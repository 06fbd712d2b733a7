"""The classroom generator's morphology against hand-made tables (at least 30 forms per language)."""
import pytest

from transformer_core.data.classroom import english, german, korean, lexicon
from transformer_core.data.classroom.grammar.verbs import ko_verb
from transformer_core.data.classroom.phrases import NounPhrase

ST, Q = korean.STATEMENT, korean.QUESTION

KOREAN = [
    # (stem, irregular class, adjective?, endings, negative) -> form
    (("좋아하다", "", False), ST["present"], False, "좋아한다"),     # the lecture's verb
    (("먹다", "", False), ST["present"], False, "먹는다"),
    (("가다", "", False), ST["present"], False, "간다"),
    (("살다", "", False), ST["present"], False, "산다"),            # ㄹ drops before ㄴ
    (("만들다", "", False), ST["present"], False, "만든다"),
    (("먹다", "", False), ST["past"], False, "먹었다"),
    (("가다", "", False), ST["past"], False, "갔다"),
    (("오다", "", False), ST["past"], False, "왔다"),
    (("마시다", "", False), ST["past"], False, "마셨다"),
    (("공부하다", "", False), ST["past"], False, "공부했다"),
    (("돕다", "ㅂ", False), ST["past"], False, "도왔다"),            # ㅂ irregular
    (("닫다", "", False), Q["present"], False, "닫아요"),             # ㄷ regular, which kiwi alone reads as 달아요
    (("듣다", "ㄷ", False), ST["past"], False, "들었다"),            # ㄷ irregular
    (("걷다", "ㄷ", False), Q["present"], False, "걸어요"),
    (("부르다", "르", False), Q["present"], False, "불러요"),          # 르 irregular
    (("모르다", "르", False), ST["past"], False, "몰랐다"),
    (("짓다", "ㅅ", False), ST["past"], False, "지었다"),            # ㅅ irregular
    (("춥다", "ㅂ", True), ST["past"], False, "추웠다"),
    (("빨갛다", "ㅎ", True), [("은", "ETM")], False, "빨간"),          # ㅎ irregular
    (("하얗다", "ㅎ", True), [("은", "ETM")], False, "하얀"),
    (("크다", "", True), [("은", "ETM")], False, "큰"),
    (("크다", "", True), ST["present"], False, "크다"),
    (("먹다", "", False), ST["future"], False, "먹을 것이다"),
    (("가다", "", False), ST["future"], False, "갈 것이다"),
    (("읽다", "", False), ST["progressive"], False, "읽고 있다"),
    (("먹다", "", False), ST["present"], True, "먹지 않는다"),
    (("먹다", "", False), ST["past"], True, "먹지 않았다"),
    (("크다", "", True), ST["present"], True, "크지 않다"),
    (("읽다", "", False), ST["progressive"], True, "읽고 있지 않다"),
    (("좋아하다", "", False), Q["present"], False, "좋아해요"),
    (("먹다", "", False), Q["past"], False, "먹었어요"),
    (("가다", "", False), Q["future"], False, "갈 거예요"),
    (("열다", "", False), [("으세요", "EF")], False, "여세요"),
    (("열다", "", False), [("어", "EC"), ("주", "VX"), ("세요", "EF")], False, "열어 주세요"),
]
# Colors that Korean says with a noun and the copula (adjectives.tsv, ko_irr N), and the copula of 살 and 시.
KOREAN_COLORS = [
    (("초록색", "N", "present", False, False), "초록색이다"), (("초록색", "N", "present", True, False), "초록색이 아니다"),
    (("초록색", "N", "present", True, True), "초록색이 아니에요"), (("갈색", "N", "past", False, False), "갈색이었다"),
    (("회색", "N", "present", False, True), "회색이에요"), (("보라색", "N", "past", True, True), "보라색이 아니었어요"),
    (("빨갛다", "ㅎ", "present", False, False), "빨갛다"), (("하얗다", "ㅎ", "present", False, True), "하얘요"),
]
KOREAN_ATTRIBUTIVE = [(("분홍색", "N"), "분홍색"), (("주황색", "N"), "주황색"), (("노랗다", "ㅎ"), "노란"),
                      (("까맣다", "ㅎ"), "까만"), (("맛있다", ""), "맛있는"), (("재미없다", ""), "재미없는"),
                      (("춥다", "ㅂ"), "추운")]
KOREAN_COPULA = [(("살", False, False), "살이다"), (("살", False, True), "살이에요"), (("시", False, False), "시이다"),
                 (("시", False, True), "시예요"), (("민수", False, False), "민수이다"), (("색", False, True), "색이에요")]
PARTICLES = [("나", "은", "나는"), ("사과", "을", "사과를"), ("책", "을", "책을"), ("고양이", "이", "고양이가"),
             ("책", "이", "책이"), ("사과", "와", "사과와"), ("빵", "와", "빵과"), ("학교", "으로", "학교로"),
             ("집", "으로", "집으로"), ("연필", "으로", "연필로"), ("기차역", "은", "기차역은"), ("바나나", "은", "바나나는")]


@pytest.mark.parametrize("verb, endings, negative, expected", KOREAN)
def test_korean_conjugation(verb, endings, negative, expected):
    form, irregular, adjective = verb
    assert korean.predicate(korean.stem(form, irregular, adjective), endings, negative=negative) == expected


@pytest.mark.parametrize("noun, particle, expected", PARTICLES)
def test_korean_particles_follow_the_final_consonant(noun, particle, expected):
    assert korean.with_particle(noun, particle) == expected


@pytest.mark.parametrize("args, expected", KOREAN_COLORS)
def test_korean_color_predicates(args, expected):
    assert korean.adjective_predicate(*args) == expected


@pytest.mark.parametrize("args, expected", KOREAN_ATTRIBUTIVE)
def test_korean_adjectives_before_a_noun(args, expected):
    assert korean.attributive(*args) == expected


@pytest.mark.parametrize("args, expected", KOREAN_COPULA)
def test_korean_copula_of_age_hour_and_name(args, expected):
    noun, past, question = args
    assert korean.copula(noun, past, question) == expected


# Tatoeba's casual Korean in the lectures' style: statements 한다체, questions and requests 해요체.
KOREAN_REGISTER = [
    ("He reads a book.", "그는 책을 읽어.", "그는 책을 읽는다."),                # verb: 는다
    ("I go to school.", "나는 학교에 가.", "나는 학교에 간다."),                  # after a vowel: ㄴ다
    ("My tea is too sweet.", "내 차는 너무 달아.", "내 차는 너무 달다."),         # adjective: 다
    ("I won!", "내가 이겼어!", "내가 이겼다!"),                                   # past: 다
    ("Is Tom still sleeping?", "톰은 아직도 자고 있어?", "톰은 아직도 자고 있어요?"),
    ("Tom is sleeping.", "톰은 자고 있어.", "톰은 자고 있다."),
    ("I want to eat.", "나는 먹고 싶어.", "나는 먹고 싶다."),
    ("I don't eat it.", "나는 그걸 먹지 않아.", "나는 그걸 먹지 않는다."),
    ("I don't think so.", "그런 것 같진 않아.", "그런 것 같진 않다."),              # 않 after an adjective: 다
    ("Unemployment is a major problem.", "실업은 주요한 문제야.", "실업은 주요한 문제이다."),
    ("Are you a student?", "넌 학생이야?", "넌 학생이에요?"),
    ("What is it?", "뭐야?", "뭐예요?"),
    ("Why not?", "왜 아니야?", "왜 아니에요?"),
    ("I'll go tomorrow.", "나 내일 갈 거야.", "나 내일 갈 것이다."),
    ("What's this? It's a book.", "이거 뭐야? 책이야.", "이거 뭐예요? 책이다."),     # each sentence
    ("Wait.", "기다려.", "기다리세요."),                                          # requests
    ("Take the medicine.", "그 약을 먹어.", "그 약을 먹으세요."),
    ("Check again.", "다시 확인해.", "다시 확인하세요."),
    ("Don't do that.", "그거 하지 마.", "그거 하지 마세요."),
    ("Louder, please.", "좀더 큰소리로 부탁해.", "좀더 큰소리로 부탁해요."),
    ("Water boils at 100 degrees.", "물은 100도에서 끓어.", "물은 100도에서 끓는다."),  # a subject: a statement
    ("Blood is red.", "피는 붉다.", "피는 붉다."),                                 # already plain
    ("Do you know who I am?", "제가 누군지 아시나요?", "제가 누군지 아시나요?"),       # already polite
    ("I'll be back soon.", "금방 돌아올게.", "금방 돌아올게."),                      # other endings kept
]


KOREAN_HONORIFIC = [
    ((("가", "VV"), korean.STATEMENT["present"], False), "가신다"),
    ((("살", "VV"), korean.STATEMENT["present"], False), "사신다"),              # ㄹ drops before 시
    ((("읽", "VV"), korean.STATEMENT["past"], False), "읽으셨다"),
    ((("가", "VV"), korean.QUESTION["present"], False), "가세요"),               # not kiwi's 가셔요
    ((("보", "VV"), korean.QUESTION["progressive"], False), "보고 계세요"),
    ((("보", "VV"), korean.STATEMENT["progressive"], True), "보고 계시지 않는다"),
    ((("드시", "VV"), korean.STATEMENT["present"], False), "드신다"),            # honorific verbs: one 시
    ((("가", "VV"), korean.STATEMENT["future"], True), "가지 않으실 것이다"),     # -시- on the last verb
    ((("읽", "VV"), korean.STATEMENT["past"], True), "읽지 않으셨다"),
    ((("읽", "VV"), korean.QUESTION["present"], True), "읽지 않으세요"),
    ((("드시", "VV"), korean.STATEMENT["present"], True), "드시지 않는다"),
    ((("가져오", "VV"), [("고", "EC")], False), "가져오시고"),                   # a connective 고 is not progressive
]
KOREAN_QUESTIONS = [("마시다", False, "마셔요"), ("마시다", True, "드세요"), ("가르치다", True, "가르치세요"),
                    ("가다", True, "가세요"), ("기다리다", False, "기다려요")]      # 마셔요 is not an honorific 마세요
KOREAN_HONORIFIC_VERBS = [("먹다", "present", "드신다"), ("저녁을 먹다", "past", "저녁을 드셨다"),    # a phrase's last word
                          ("자러 가다", "present", "자러 가신다")]


@pytest.mark.parametrize("args, expected", KOREAN_HONORIFIC)
def test_korean_honorific_predicates(args, expected):
    stem, endings, negative = args
    assert korean.predicate(stem, endings, negative=negative, honorific=True) == expected


@pytest.mark.parametrize("verb, honorific, expected", KOREAN_QUESTIONS)
def test_korean_present_questions(verb, honorific, expected):
    assert ko_verb(verb, "", "present", False, "question", honorific=honorific)[0][0] == expected


@pytest.mark.parametrize("verb, tense, expected", KOREAN_HONORIFIC_VERBS)
def test_korean_honorific_verbs_replace_the_last_word(verb, tense, expected):
    words = ko_verb(verb, "", tense, False, "statement", honorific=True)
    assert " ".join(w for w, _ in words) == expected


def test_korean_honorific_adjectives():
    assert korean.adjective_predicate("친절하다", "", "present", False, False, honorific=True) == "친절하시다"
    assert korean.adjective_predicate("바쁘다", "", "past", False, True, honorific=True) == "바쁘셨어요"


@pytest.mark.parametrize("english, casual, expected", KOREAN_REGISTER)
def test_korean_casual_endings_in_the_lectures_style(english, casual, expected):
    assert korean.lecture_style(casual, english) == expected


GERMAN_ARTICLES = [
    (("def", "m", "nom"), "der"), (("def", "m", "acc"), "den"), (("def", "m", "dat"), "dem"),
    (("def", "f", "dat"), "der"), (("def", "n", "acc"), "das"), (("def", "pl", "dat"), "den"),
    (("ein", "m", "acc"), "einen"), (("ein", "f", "nom"), "eine"), (("ein", "n", "dat"), "einem"),
    (("kein", "pl", "acc"), "keine"), (("mein", "m", "acc"), "meinen"), (("unser", "f", "dat"), "unserer"),
    (("this", "n", "nom"), "dieses"),
]
GERMAN_ADJECTIVES = [
    (("rot", "def", "m", "nom"), "rote"), (("rot", "ein", "m", "nom"), "roter"), (("rot", "ein", "m", "acc"), "roten"),
    (("klein", "ein", "n", "nom"), "kleines"), (("klein", None, "pl", "nom"), "kleine"),
    (("groß", "def", "pl", "dat"), "großen"), (("teuer", "ein", "n", "acc"), "teures"),
    (("dunkel", "def", "f", "nom"), "dunkle"), (("hoch", None, "m", "dat"), "hohem"),
    (("müde", "ein", "m", "nom"), "müder"), (("leise", "def", "n", "dat"), "leisen"),
    (("grün", "ein", "f", "acc"), "grüne"), (("braun", "def", "m", "dat"), "braunen"), (("grau", None, "pl", "nom"), "graue"),
    (("rosa", "ein", "f", "nom"), "rosa"), (("lila", "def", "m", "dat"), "lila"), (("orange", "mein", "n", "acc"), "orange"),
]
GERMAN_VERBS = [
    (("essen", 1), ("isst", "")), (("lesen", 2), ("liest", "")), (("mögen", 0), ("mag", "")),
    (("schlafen", 2), ("schläft", "")), (("auf|stehen", 0), ("stehe", "auf")), (("an|rufen", 2), ("ruft", "an")),
    (("helfen", 1), ("hilfst", "")), (("sein", 3), ("sind", "")), (("haben", 2), ("hat", "")),
    (("können", 0), ("kann", "")), (("werden", 2), ("wird", "")),
    (("regnen", 2), ("regnet", "")), (("schneien", 2), ("schneit", "")), (("heißen", 0), ("heiße", "")),
    (("heißen", 1), ("heißt", "")), (("beginnen", 2), ("beginnt", "")), (("enden", 2), ("endet", "")),
    (("zu Abend essen", 3), ("essen", "zu Abend")), (("ins Bett gehen", 0), ("gehe", "ins Bett")),   # verb phrases
]
GERMAN_PARTICIPLES = [("essen", "gegessen"), ("gehen", "gegangen"), ("auf|stehen", "aufgestanden"),
                      ("besuchen", "besucht"), ("an|rufen", "angerufen"), ("kaufen", "gekauft"), ("regnen", "geregnet"),
                      ("schneien", "geschneit"), ("beginnen", "begonnen"), ("enden", "geendet"),
                      ("zu Mittag essen", "zu Mittag gegessen"), ("ins Bett gehen", "ins Bett gegangen")]
# Requests to du, ihr and Sie (ablaut's imperative), the separable prefix or a verb phrase's words last.
GERMAN_IMPERATIVES = [(("geben", "du"), ("gib", "")), (("ab|geben", "ihr"), ("gebt", "ab")),
                      (("öffnen", "Sie"), ("öffnen", "")), (("zu Abend essen", "du"), ("iss", "zu Abend")),
                      (("wollen", "du"), ("wollen", ""))]      # no imperative: Sie
GERMAN_NOUNS = [(("Kind", "n", "Kinder"), ("dat", True), "Kindern"), (("Junge", "m", "Jungen"), ("acc", False), "Jungen"),
                (("Apfel", "m", "Äpfel"), ("dat", True), "Äpfeln"), (("Auto", "n", "Autos"), ("dat", True), "Autos"),
                (("Löwe", "m", "Löwen"), ("dat", False), "Löwen"), (("Tasche", "f", "Taschen"), ("acc", False), "Tasche")]


@pytest.mark.parametrize("args, expected", GERMAN_ARTICLES)
def test_german_articles(args, expected):
    assert german.article(*args) == expected


@pytest.mark.parametrize("args, expected", GERMAN_ADJECTIVES)
def test_german_adjective_endings(args, expected):
    assert german.adjective_form(*args) == expected


@pytest.mark.parametrize("args, expected", GERMAN_VERBS)
def test_german_present_with_separable_prefixes(args, expected):
    assert german.present(*args) == expected


@pytest.mark.parametrize("args, expected", GERMAN_IMPERATIVES)
def test_german_imperatives(args, expected):
    assert german.imperative(*args) == expected


@pytest.mark.parametrize("verb, expected", GERMAN_PARTICIPLES)
def test_german_participles(verb, expected):
    assert german.participle(verb) == expected


@pytest.mark.parametrize("noun, form, expected", GERMAN_NOUNS)
def test_german_noun_declension_from_german_nouns(noun, form, expected):
    assert german.noun_forms(*noun)[form] == expected


GERMAN_GENITIVES = [(("Bahnhof", "m"), ("des", "Bahnhofs")), (("Schule", "f"), ("der", "Schule")),
                    (("Kino", "n"), ("des", "Kinos")), (("Museum", "n"), ("des", "Museums")),
                    (("Krankenhaus", "n"), ("des", "Krankenhauses")), (("Fluss", "m"), ("des", "Flusses")),
                    (("Park", "m"), ("des", "Parks")), (("Flughafen", "m"), ("des", "Flughafens"))]


@pytest.mark.parametrize("noun, expected", GERMAN_GENITIVES)
def test_german_genitive_after_in_der_naehe(noun, expected):
    assert german.genitive(*noun) == expected


ENGLISH = [
    (("eat", "VBD"), "ate"), (("go", "VBD"), "went"), (("go", "VBZ"), "goes"), (("sit", "VBG"), "sitting"),
    (("swim", "VBD"), "swam"), (("study", "VBZ"), "studies"), (("have", "VBZ"), "has"), (("run", "VBG"), "running"),
    (("listen to", "VBD"), "listened to"), (("get up", "VBZ"), "gets up"), (("buy", "VBD"), "bought"),
    (("write", "VBG"), "writing"), (("like", "VBZ"), "likes"), (("read", "VBD"), "read"), (("make", "VBD"), "made"),
    (("rain", "VBG"), "raining"), (("rain", "VBD"), "rained"), (("snow", "VBG"), "snowing"), (("start", "VBZ"), "starts"),
    (("end", "VBD"), "ended"), (("begin", "VBD"), "began"),
]
ARTICLES = [("apple", "an"), ("pear", "a"), ("umbrella", "an"), ("university", "a"), ("hour", "an"),
            ("orange", "an"), ("red apple", "a"), ("old book", "an"), ("orange bag", "an"), ("green bag", "a")]
PLURALS = [("child", "children"), ("mouse", "mice"), ("box", "boxes"), ("apple", "apples"), ("knife", "knives"),
           ("train station", "train stations"), ("baby", "babies")]


@pytest.mark.parametrize("args, expected", ENGLISH)
def test_english_verb_forms(args, expected):
    assert english.verb(*args) == expected


@pytest.mark.parametrize("phrase, expected", ARTICLES)
def test_english_a_or_an(phrase, expected):
    assert english.article(phrase) == expected


@pytest.mark.parametrize("singular, expected", PLURALS)
def test_english_plurals(singular, expected):
    assert english.plural(singular) == expected


@pytest.mark.parametrize("noun, n, expected", [("book", 3, "책 세 권을"), ("letter", 2, "편지 두 통을"),
                                               ("map", 3, "지도 세 장을"), ("shoe", 2, "신발 두 켤레를"),
                                               ("shirt", 4, "셔츠 네 벌을"), ("hat", 2, "모자 두 개를"),
                                               ("cat", 3, "고양이 세 마리를")])
def test_korean_counts_each_noun_with_its_counter(noun, n, expected):
    lex = lexicon.load()
    phrase = NounPhrase([x for x in lex.nouns if x.en == noun][0], "num", plural=True,
                        number=[x for x in lex.numbers if x.n == n][0])
    assert " ".join(text for text, _ in phrase.ko("O", "을")) == expected
