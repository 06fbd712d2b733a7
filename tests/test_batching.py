"""Token-based batches from length buckets, and padding them into tensors."""
import random
from itertools import pairwise

import torch

from transformer_core.data.batching import collate, make_batches

PAD = 0


def _lengths(n=300, seed=0, longest=40):
    rng = random.Random(seed)
    return [(rng.randint(3, longest), rng.randint(3, longest)) for _ in range(n)]


def _pairs(lengths):
    return [([7] * s, [8] * t) for s, t in lengths]


def test_every_example_exactly_once_per_epoch():
    lengths = _lengths()
    for seed in range(3):
        batches = make_batches(lengths, max_tokens=200, seed=seed)
        flat = [i for b in batches for i in b]
        assert sorted(flat) == list(range(len(lengths)))
        assert all(batches)


def test_padded_tokens_per_batch_within_max_tokens():
    lengths = _lengths() + [(150, 5), (7, 120)]          # two examples longer than a whole batch
    pairs = _pairs(lengths)
    max_tokens = 100
    batches = make_batches(lengths, max_tokens=max_tokens, seed=1)
    for batch in batches:
        src, tgt = collate([pairs[i] for i in batch], PAD)
        if len(batch) == 1 and max(lengths[batch[0]]) > max_tokens:
            continue                                      # too long alone: it still gets its own batch
        assert src.numel() <= max_tokens and tgt.numel() <= max_tokens
        assert max(max(lengths[i]) for i in batch) * len(batch) <= max_tokens
    alone = [b for b in batches if len(b) == 1 and max(lengths[b[0]]) > max_tokens]
    assert sorted(i for b in alone for i in b) == [len(lengths) - 2, len(lengths) - 1]


def test_batches_are_full_and_grouped_by_length():
    lengths = _lengths()
    batches = make_batches(lengths, max_tokens=200, seed=2)
    spans = sorted((min(max(lengths[i]) for i in b), max(max(lengths[i]) for i in b)) for b in batches)
    for (_lo1, hi1), (lo2, _hi2) in pairwise(spans):
        assert hi1 <= lo2                                  # length buckets do not interleave
    # Batches are cut only when the next example would overflow, so they are reasonably full.
    padded = sum(max(max(lengths[i]) for i in b) * len(b) for b in batches)
    assert padded > 0.7 * 200 * len(batches)


def test_deterministic_per_seed():
    lengths = _lengths()
    assert make_batches(lengths, 200, seed=5) == make_batches(lengths, 200, seed=5)
    assert make_batches(lengths, 200, seed=5) != make_batches(lengths, 200, seed=6)


def test_collate_pads_and_keeps_bos_eos():
    src, tgt = collate([([2, 5, 6, 3], [2, 9, 3]), ([2, 7, 3], [2, 9, 9, 9, 3])], PAD)
    assert src.tolist() == [[2, 5, 6, 3], [2, 7, 3, PAD]]
    assert tgt.tolist() == [[2, 9, 3, PAD, PAD], [2, 9, 9, 9, 3]]
    assert src.dtype == tgt.dtype == torch.long
