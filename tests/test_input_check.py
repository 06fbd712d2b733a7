"""Input the model cannot read: the wrong script, or too many unknown pieces."""
from pathlib import Path

from transformer_core.explainer.input_check import check, script
from transformer_core.model.tokenizer import Tokenizer

ENDE = Tokenizer.load(Path(__file__).resolve().parents[1] / "checkpoints" / "ende" / "spm.model")


def test_script_of_a_text():
    assert script("I like apples.") == "LATIN"
    assert script("나는 사과를 좋아한다.") == "HANGUL"
    assert script("사과를 좋아해요 apple") == "HANGUL"        # most letters
    assert script("12 + 3 = 15") is None


def test_hangul_into_an_english_source_model_is_flagged():
    korean = check(ENDE, "en", "나는 사과를 좋아한다.")
    assert korean.wrong_script and not korean.readable and korean.script == "HANGUL" and korean.expected == "LATIN"
    english = check(ENDE, "en", "I like apples.")
    assert english.readable and english.unknown == 0 and english.pieces > 0


def test_many_unknown_pieces_are_flagged_even_in_the_right_script():
    mixed = check(ENDE, "en", "I like ☃☃☃☃☃☃ ⚽⚽⚽⚽ apples")
    assert not mixed.wrong_script and mixed.unknown > 0.1 * mixed.pieces and not mixed.readable


def test_a_korean_source_reads_hangul_whatever_its_code():
    """Marian's tokenizer_config.json may name the languages in ISO 639-2/3 (kor, eng) or with a region."""
    for code in ("ko", "kor", "ko-KR", "KO"):
        korean, english = check(ENDE, code, "나는 사과를 좋아한다."), check(ENDE, code, "I like apples.")
        assert korean.expected == "HANGUL" and not korean.wrong_script, code
        assert english.wrong_script and english.script == "LATIN" and not english.readable, code
    assert check(ENDE, "eng", "나는 사과를 좋아한다.").wrong_script
    assert check(ENDE, "src", "나는 사과를 좋아한다.").expected is None          # an unknown language: no script check


def test_latin_words_in_korean_are_still_korean():
    """Everyday Korean writes names in Latin letters: a third of the letters in Hangul is Korean enough, while
    Hangul with a Latin word typed into an English model is still flagged."""
    mixed = "나는 MacBook을 샀다."                               # 7 Latin letters, 5 Hangul syllables
    assert script(mixed) == "LATIN"
    assert not check(ENDE, "ko", mixed).wrong_script
    assert check(ENDE, "en", "사과를 정말 좋아해요 OK").wrong_script        # 2 Latin letters of 10
