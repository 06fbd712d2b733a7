"""Token-based batches from length buckets (§5.1: "batched together by approximate sequence length")."""
from __future__ import annotations

import random

import torch


def make_batches(lengths: list[tuple[int, int]], max_tokens: int, seed: int) -> list[list[int]]:
    """Group example indices so each batch holds about max_tokens padded tokens per side.

    lengths: (src_len, tgt_len) per example.  Examples are sorted by length (with a little noise so
    epochs differ), cut into batches whose padded size max_len × count stays within max_tokens,
    and the batches shuffled.
    """
    rng = random.Random(seed)
    order = sorted(range(len(lengths)), key=lambda i: (max(lengths[i]) + rng.random(), i))
    batches, batch, longest = [], [], 0
    for i in order:
        longest_if_added = max(longest, *lengths[i])
        if batch and longest_if_added * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, longest_if_added = [], max(lengths[i])
        batch.append(i)
        longest = longest_if_added
    if batch:
        batches.append(batch)
    rng.shuffle(batches)
    return batches


def collate(pairs: list[tuple[list[int], list[int]]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Pad (src ids, tgt ids) pairs into src: (B, S) and tgt: (B, T+1); tgt keeps BOS … EOS so that
    the decoder input is tgt[:, :-1] (shifted right) and the labels are tgt[:, 1:]."""
    S = max(len(s) for s, _ in pairs)
    T = max(len(t) for _, t in pairs)
    src = torch.full((len(pairs), S), pad_id, dtype=torch.long)
    tgt = torch.full((len(pairs), T), pad_id, dtype=torch.long)
    for b, (s, t) in enumerate(pairs):
        src[b, :len(s)] = torch.tensor(s)
        tgt[b, :len(t)] = torch.tensor(t)
    return src, tgt
