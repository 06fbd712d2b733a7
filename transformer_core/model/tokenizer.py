"""One joint SentencePiece model for both languages, and the map from pieces back to words.

Every text goes through `normalize` before SentencePiece sees it, in training and in every
encode, so `don't` (typed) and `don’t` (Debian's data) give the same ids.

Pieces -> words: a piece that begins with "▁" starts a new word, the others continue the word
before them; <s>, </s> and <pad> are words of their own.

Attention pieces -> words (`merge_to_words`), for weights (..., Tq, Tk) whose rows sum to 1:
  * key side:   SUM over the pieces of a word: the attention mass a query gives to a word is the
                mass it gives to the word's pieces, so every row still sums to 1;
  * query side: MEAN over the pieces of a word: a word attends the way its pieces do on average,
                which is again a distribution.
"""
from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

import sentencepiece as spm
import torch

from .config import ModelConfig

PAD_ID, UNK_ID, BOS_ID, EOS_ID = ModelConfig.pad_id, ModelConfig.unk_id, ModelConfig.bos_id, ModelConfig.eos_id
SPECIAL_PIECES = {PAD_ID: "<pad>", BOS_ID: "<s>", EOS_ID: "</s>"}
SAMPLE_NBEST = 64                   # segmentations that subword sampling draws from
WORD_START = "▁"  # U+2581, SentencePiece's mark for "a space came before this piece"

_QUOTES = str.maketrans({
    **dict.fromkeys("’‘‛‚′`´‹›", "'"),
    **dict.fromkeys("“”„‟″«»", '"'),
    **dict.fromkeys("\u00ad\u200b\ufeff", None),  # soft hyphen, zero-width space, BOM
})


class TokenizerError(ValueError):
    """A SentencePiece model that is missing, unreadable, or has the wrong special ids."""


def normalize(text: str) -> str:
    """NFC, one kind of quote and apostrophe, single spaces, no leading or trailing space."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES)
    return " ".join(text.split())


class Tokenizer:
    """A SentencePiece processor that normalizes its input and knows the special ids."""

    pad_id, unk_id, bos_id, eos_id = PAD_ID, UNK_ID, BOS_ID, EOS_ID  # checked in __init__
    source_bos = True              # the encoder's input is BOS + pieces + EOS (Marian's: pieces + EOS)

    def __init__(self, sp: spm.SentencePieceProcessor):
        ids = (sp.pad_id(), sp.unk_id(), sp.bos_id(), sp.eos_id())
        if ids != (PAD_ID, UNK_ID, BOS_ID, EOS_ID):
            raise TokenizerError(f"SentencePiece model has pad/unk/bos/eos ids {ids}, "
                                 f"expected {(PAD_ID, UNK_ID, BOS_ID, EOS_ID)}")
        self.sp = sp

    @classmethod
    def from_serialized(cls, data: bytes) -> Tokenizer:
        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(data)
        except (RuntimeError, OSError, TypeError) as err:
            raise TokenizerError(f"not a SentencePiece model: {err}") from None
        return cls(sp)

    @classmethod
    def load(cls, path: str | Path) -> Tokenizer:
        path = Path(path)
        if not path.is_file():
            raise TokenizerError(f"SentencePiece model not found: {path.name}")
        return cls.from_serialized(path.read_bytes())      # its errors name no path: the caller names the file

    def serialized_model(self) -> bytes:
        return self.sp.serialized_model_proto()

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.serialized_model())

    @property
    def vocab_size(self) -> int:
        return self.sp.vocab_size()

    def encode(self, text: str, sample_alpha: float | None = None) -> list[int]:
        """Normalized text -> piece ids, without BOS/EOS: the most likely segmentation, or with sample_alpha
        one drawn from the SAMPLE_NBEST most likely with probability ∝ P(segmentation)^alpha (subword
        regularization, Kudo 2018; smaller alpha, more varied; seed it with seed_sampling)."""
        if sample_alpha is None:
            return self.sp.encode(normalize(text), out_type=int)
        return self.sp.encode(normalize(text), out_type=int, enable_sampling=True, alpha=sample_alpha,
                              nbest_size=SAMPLE_NBEST)

    def encode_target(self, text: str) -> list[int]:
        """Target-side text -> ids (a forced beginning of a translation): one joint vocabulary, so encode."""
        return self.encode(text)

    @staticmethod
    def seed_sampling(seed: int) -> None:
        """Seed SentencePiece's sampling (one generator for the whole process)."""
        spm.set_random_generator_seed(seed)

    def decode(self, ids: Iterable[int]) -> str:
        """Piece ids -> text; <pad>, <s> and </s> are skipped."""
        return self.sp.decode([int(i) for i in ids if int(i) not in SPECIAL_PIECES])

    def id_to_piece(self, id_: int) -> str:
        return SPECIAL_PIECES.get(int(id_)) or self.sp.id_to_piece(int(id_))

    def piece_to_id(self, piece: str) -> int | None:
        """The id of a piece, or None when the vocabulary lacks it."""
        id_ = self.sp.piece_to_id(piece)
        return None if id_ == self.unk_id and piece != self.sp.id_to_piece(self.unk_id) else id_

    def pieces(self, ids: Iterable[int]) -> list[str]:
        """Piece ids -> piece strings for display, e.g. ['<s>', '▁I', '▁like', '▁app', 'les', '.', '</s>']."""
        return [self.id_to_piece(i) for i in ids]


def wrap_source(tokenizer, ids: Sequence[int]) -> list[int]:
    """The encoder's input around piece ids: BOS + ids + EOS, or ids + EOS for a tokenizer whose
    source_bos is False (Marian's: its BOS-like start token belongs to the decoder)."""
    head = [tokenizer.bos_id] if tokenizer.source_bos else []
    return [*head, *ids, tokenizer.eos_id]


def train_tokenizer(texts: Iterable[str], model_path: str | Path, vocab_size: int,
                    character_coverage: float = 1.0) -> Tokenizer:
    """Train a unigram SentencePiece model on normalized `texts`, save it to `model_path`.

    vocab_size is an upper bound: a small corpus gives a smaller vocabulary (read it back from
    .vocab_size).  character_coverage 1.0 suits alphabets; ~0.9995 suits Korean or Chinese.
    """
    sentences = [s for s in (normalize(t) for t in texts) if s]
    if not sentences:
        raise TokenizerError("no text to train the tokenizer on")
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences), model_writer=model,
        model_type="unigram", vocab_size=vocab_size, hard_vocab_limit=False,
        character_coverage=character_coverage,
        pad_id=PAD_ID, unk_id=UNK_ID, bos_id=BOS_ID, eos_id=EOS_ID,
        pad_piece="<pad>", unk_piece="<unk>", bos_piece="<s>", eos_piece="</s>",
        input_sentence_size=0, shuffle_input_sentence=False, num_threads=1, minloglevel=2,
    )
    tokenizer = Tokenizer.from_serialized(model.getvalue())
    tokenizer.save(model_path)
    return tokenizer


def word_ids(pieces: Sequence[str]) -> list[int]:
    """For each piece, the index of the word it belongs to.  ['<s>','▁app','les','.'] -> [0, 1, 1, 1]."""
    ids, word, after_special = [], -1, True
    for piece in pieces:
        special = piece in SPECIAL_PIECES.values()
        if special or after_special or piece.startswith(WORD_START):
            word += 1
        ids.append(word)
        after_special = special
    return ids


def words(pieces: Sequence[str]) -> list[str]:
    """The words the pieces make.  ['<s>','▁app','les','.'] -> ['<s>', 'apples.']."""
    out: list[str] = []
    for piece, word in zip(pieces, word_ids(pieces), strict=False):
        if word == len(out):
            out.append("")
        out[word] += piece
    return [w.removeprefix(WORD_START) for w in out]


def _membership(ids: Sequence[int], like: torch.Tensor) -> torch.Tensor:
    """word ids (T,) -> one-hot (W, T): entry [w, t] is 1 if piece t belongs to word w."""
    ids = torch.as_tensor(list(ids), device=like.device)
    words_ = torch.arange(int(ids.max()) + 1, device=like.device)
    return (words_.unsqueeze(1) == ids.unsqueeze(0)).to(like.dtype)


def merge_to_words(weights: torch.Tensor, query_word_ids: Sequence[int],
                   key_word_ids: Sequence[int]) -> torch.Tensor:
    """Attention over pieces (..., Tq, Tk) -> over words (..., Wq, Wk): mean over query pieces, sum over key pieces."""
    if len(query_word_ids) != weights.size(-2) or len(key_word_ids) != weights.size(-1):
        raise ValueError(f"weights {tuple(weights.shape)} do not match {len(query_word_ids)} query "
                         f"and {len(key_word_ids)} key pieces")
    q = _membership(query_word_ids, weights)             # (Wq, Tq)
    q = q / q.sum(-1, keepdim=True)                      # each word row averages its pieces
    k = _membership(key_word_ids, weights).transpose(0, 1)  # (Tk, Wk)
    return q @ weights @ k                               # (..., Wq, Wk)
