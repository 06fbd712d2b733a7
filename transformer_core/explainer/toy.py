"""Small, seeded stand-ins for a trained model, for the pages that show the mechanics alone.

- whitespace_batch: the user's sentences -> a padded id batch (B, S), <pad> = 0, as a real batch.
- toy_qkv: Q, K, V for a token sequence from seeded random embeddings + sinusoidal PE and seeded
  random projections W^Q, W^K, W^V.  Nothing is learned: the numbers are only there to watch the
  masks and the softmax work.
- causal_leak: what the causal (no-peek) mask protects: change one token and see which rows of
  the attention output change, with and without the mask.
"""
from __future__ import annotations

import zlib
from collections.abc import Sequence

import torch

from ..model.attention import attention_steps
from ..model.masks import make_src_mask, make_trg_mask, subsequent_mask
from ..model.positional import sinusoidal_encoding

PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<bos>", "<eos>"
SPECIALS = (PAD, UNK, BOS, EOS)          # ids 0..3, as ModelConfig's pad/unk/bos/eos ids
PAD_ID = 0


def whitespace_batch(lines: Sequence[str], add_bos_eos: bool = True, max_tokens: int | None = None
                     ) -> tuple[torch.Tensor, list[list[str]], dict[str, int]]:
    """Split each line on whitespace, map words to ids, pad to the longest.

    Returns ids (B, S) long, the tokens per row (padded with "<pad>") and the vocabulary
    (specials first, then words in order of first appearance).
    """
    vocab = {tok: i for i, tok in enumerate(SPECIALS)}
    rows: list[list[str]] = []
    for line in lines:
        words = line.split()
        if max_tokens is not None:
            words = words[:max_tokens]
        rows.append([BOS, *words, EOS] if add_bos_eos else words)
        for w in words:
            vocab.setdefault(w, len(vocab))
    if not rows or not any(rows):
        raise ValueError("no tokens")
    width = max(len(r) for r in rows)
    tokens = [r + [PAD] * (width - len(r)) for r in rows]
    return pad_batch([[vocab[tok] for tok in r] for r in rows], PAD_ID), tokens, vocab


def pad_batch(rows: Sequence[Sequence[int]], pad_id: int = PAD_ID) -> torch.Tensor:
    """Id sequences of different lengths -> (B, S) long, filled up with pad_id."""
    if not rows or not any(rows):
        raise ValueError("no tokens")
    ids = torch.full((len(rows), max(len(r) for r in rows)), pad_id, dtype=torch.long)
    for b, row in enumerate(rows):
        ids[b, :len(row)] = torch.tensor(list(row), dtype=torch.long)
    return ids


def token_vector(token: str, dim: int, seed: int = 0) -> torch.Tensor:
    """A fixed random vector for a token's text (same text -> same vector).  -> (dim,) float64"""
    gen = torch.Generator().manual_seed(zlib.crc32(token.encode("utf-8")) + 7919 * seed)
    return torch.randn(dim, generator=gen, dtype=torch.float64)


def toy_qkv(tokens: Sequence[str], d_k: int = 8, seed: int = 0
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Q, K, V (T, d_k) for a token sequence: x = embedding + PE, Q = x W^Q, K = x W^K, V = x W^V."""
    d_model = d_k + d_k % 2
    x = torch.stack([token_vector(tok, d_model, seed) for tok in tokens])            # (T, d_model)
    x = x + sinusoidal_encoding(len(tokens), d_model).double()
    gen = torch.Generator().manual_seed(1000 + seed)
    w = torch.randn(3, d_model, d_k, generator=gen, dtype=torch.float64) / d_model ** 0.5
    return x @ w[0], x @ w[1], x @ w[2]


def batch_qkv(tokens: Sequence[Sequence[str]], d_k: int = 8, seed: int = 0
              ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """toy_qkv for each row of a padded batch.  -> three (B, 1, T, d_k): one head."""
    qkv = [toy_qkv(row, d_k, seed) for row in tokens]
    return tuple(torch.stack([t[i] for t in qkv]).unsqueeze(1) for i in range(3))


MASK_KINDS = ("none", "padding", "causal", "combined")


def mask_for(kind: str, ids: torch.Tensor, pad_id: int = PAD_ID) -> torch.Tensor | None:
    """The lectures' masks for a batch of ids (B, S): None, (B,1,1,S), (T,T) or (B,1,T,T)."""
    if kind == "none":
        return None
    if kind == "padding":
        return make_src_mask(ids, pad_id)
    if kind == "causal":
        return subsequent_mask(ids.size(1))
    if kind == "combined":
        return make_trg_mask(ids, pad_id)
    raise ValueError(f"unknown mask kind {kind!r}")


def causal_leak(tokens: Sequence[str], changed_pos: int, new_token: str, d_k: int = 8,
                seed: int = 0) -> dict[str, list[float]]:
    """Change the token at changed_pos and measure, for every query row i, max_j |Δ output_ij|.

    Returns {"with_mask": [...], "without_mask": [...]} (one value per position).  With the
    causal mask, rows i < changed_pos do not change at all; without it, every row does.
    """
    if not 0 <= changed_pos < len(tokens):
        raise ValueError("changed_pos out of range")
    changed = list(tokens)
    changed[changed_pos] = new_token
    causal = subsequent_mask(len(tokens))
    out: dict[str, list[float]] = {}
    for name, mask in (("with_mask", causal), ("without_mask", None)):
        before = attention_steps(*toy_qkv(tokens, d_k, seed), mask)["output"]
        after = attention_steps(*toy_qkv(changed, d_k, seed), mask)["output"]
        out[name] = (after - before).abs().max(dim=-1).values.tolist()
    return out
