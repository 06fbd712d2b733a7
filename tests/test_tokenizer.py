"""The joint SentencePiece tokenizer, text normalization, and pieces -> words."""
from pathlib import Path

import pytest
import torch

from transformer_core.model.config import ModelConfig
from transformer_core.model.tokenizer import (
    Tokenizer,
    TokenizerError,
    merge_to_words,
    normalize,
    train_tokenizer,
    word_ids,
    words,
)

TEXTS = [
    "I don’t like apples.", "Ich mag keine Äpfel.",
    "Where is the train station?", "Wo ist der Bahnhof?",
    "She doesn't know „why“.", "Sie weiß nicht, warum.",
    "We’ve got some apples.", "Wir haben ein paar Äpfel.",
    "The station is near the house.", "Der Bahnhof ist nahe beim Haus.",
] * 3
BUNDLED_TOKENIZER = Path(__file__).resolve().parents[1] / "checkpoints" / "ende" / "spm.model"


@pytest.fixture(scope="module")
def tok(tmp_path_factory) -> Tokenizer:
    return train_tokenizer(TEXTS, tmp_path_factory.mktemp("spm") / "spm.model", vocab_size=80)


def test_normalize_quotes_whitespace_and_nfc():
    assert normalize("  don’t\u00a0 say  ‘hi’ ") == "don't say 'hi'"
    assert normalize("„Hallo“ «salut» “hi”") == '"Hallo" "salut" "hi"'
    assert normalize("A\u0308pfel") == "Äpfel"          # decomposed Ä -> one code point
    assert normalize("\tline\nbreak\u200b ") == "line break"


def test_straight_and_curly_apostrophes_give_the_same_ids(tok):
    assert tok.encode("I don't like apples.") == tok.encode("I don’t like apples.")
    assert tok.encode("I don´t like apples.") == tok.encode("I don`t like apples.")


def test_special_ids_match_model_config(tok):
    cfg = ModelConfig()
    assert (tok.pad_id, tok.unk_id, tok.bos_id, tok.eos_id) == (cfg.pad_id, cfg.unk_id, cfg.bos_id, cfg.eos_id)
    assert tok.pieces([0, 1, 2, 3]) == ["<pad>", "<unk>", "<s>", "</s>"]


def test_encode_has_no_bos_eos_and_decode_skips_specials(tok):
    ids = tok.encode("Wo ist der Bahnhof?")
    assert ids and tok.bos_id not in ids and tok.eos_id not in ids
    assert tok.decode([tok.bos_id, *ids, tok.eos_id, tok.pad_id, tok.pad_id]) == "Wo ist der Bahnhof?"


def test_sampled_segmentations_vary_spell_the_same_text_and_follow_the_seed():
    """Subword regularization: every draw decodes to the text, draws differ from the best segmentation
    and from each other, a smaller alpha varies more, and the same seed repeats the same draws."""
    tok = Tokenizer.load(BUNDLED_TOKENIZER)
    text = "Where is the train station? I don't like apples."
    best = tok.encode(text)

    def draws(alpha: float, seed: int = 7, n: int = 20) -> list[list[int]]:
        Tokenizer.seed_sampling(seed)
        return [tok.encode(text, sample_alpha=alpha) for _ in range(n)]

    sampled = draws(0.1)
    assert all(tok.decode(ids) == normalize(text) for ids in sampled)
    assert len({tuple(ids) for ids in sampled}) > 10
    assert sum(ids != best for ids in draws(0.1)) > sum(ids != best for ids in draws(2.0))
    assert draws(0.1) == sampled and draws(0.1, seed=8) != sampled
    assert tok.encode(text) == best                                   # no alpha: the best, always


def test_small_corpus_gets_a_smaller_vocabulary(tok):
    assert 4 < tok.vocab_size <= 80
    assert tok.id_to_piece(tok.vocab_size - 1)


def test_training_is_deterministic(tok, tmp_path):
    again = train_tokenizer(TEXTS, tmp_path / "again.model", vocab_size=80)
    assert again.serialized_model() == tok.serialized_model()


def test_save_load_and_serialized_roundtrip(tok, tmp_path):
    tok.save(tmp_path / "copy.model")
    loaded = Tokenizer.load(tmp_path / "copy.model")
    restored = Tokenizer.from_serialized(tok.serialized_model())
    text = "We’ve got some apples."
    assert loaded.encode(text) == restored.encode(text) == tok.encode(text)


def test_load_errors_are_tokenizer_errors(tmp_path):
    with pytest.raises(TokenizerError, match="not found"):
        Tokenizer.load(tmp_path / "missing.model")
    (tmp_path / "junk.model").write_bytes(b"this is not a protobuf")
    with pytest.raises(ValueError, match="not a SentencePiece model"):  # TokenizerError is a ValueError
        Tokenizer.load(tmp_path / "junk.model")


def test_train_on_nothing_fails_clearly(tmp_path):
    with pytest.raises(TokenizerError, match="no text"):
        train_tokenizer(["", "   "], tmp_path / "spm.model", vocab_size=50)


def test_word_ids_and_words():
    pieces = ["<s>", "▁I", "▁like", "▁app", "les", ".", "</s>", "<pad>", "<pad>"]
    assert word_ids(pieces) == [0, 1, 2, 3, 3, 3, 4, 5, 6]
    assert words(pieces) == ["<s>", "I", "like", "apples.", "</s>", "<pad>", "<pad>"]
    assert word_ids(["les", "▁a", "<s>", "b"]) == [0, 1, 2, 3]  # no '▁' after a special: still a new word


def test_real_pieces_map_back_to_the_words_of_the_text(tok):
    text = "Where is the train station?"
    pieces = tok.pieces([tok.bos_id, *tok.encode(text), tok.eos_id])
    assert words(pieces) == ["<s>", *text.split(), "</s>"]


def test_merge_sums_key_pieces_and_averages_query_pieces():
    weights = torch.tensor([[0.5, 0.3, 0.2],
                            [0.1, 0.6, 0.3],
                            [0.0, 0.0, 1.0]])                 # 3 query pieces x 3 key pieces
    merged = merge_to_words(weights, query_word_ids=[0, 0, 1], key_word_ids=[0, 1, 1])
    expected = torch.tensor([[(0.5 + 0.1) / 2, (0.3 + 0.2 + 0.6 + 0.3) / 2],
                             [0.0, 1.0]])
    torch.testing.assert_close(merged, expected)


def test_merged_rows_still_sum_to_one():
    pieces_q = ["<s>", "▁Wo", "▁ist", "▁der", "▁Bahn", "hof", "?"]
    pieces_k = ["▁Where", "▁is", "▁the", "▁train", "▁sta", "tion", "?", "</s>"]
    weights = torch.softmax(torch.randn(2, 4, len(pieces_q), len(pieces_k)), dim=-1)  # (B, h, Tq, Tk)
    merged = merge_to_words(weights, word_ids(pieces_q), word_ids(pieces_k))
    assert merged.shape == (2, 4, 5, 6)
    torch.testing.assert_close(merged.sum(-1), torch.ones(2, 4, 5))


def test_merge_rejects_word_ids_of_the_wrong_length():
    with pytest.raises(ValueError, match="do not match"):
        merge_to_words(torch.ones(2, 3) / 3, [0, 1, 2], [0, 1, 2])
