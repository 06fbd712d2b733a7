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
