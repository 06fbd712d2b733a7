"""Masks: True = may attend, False = masked (its score becomes -inf)."""
import torch

from transformer_core.model.masks import make_src_mask, make_trg_mask, subsequent_mask

PAD = 0


def test_src_mask_shape_and_values():
    src = torch.tensor([[5, 6, 7, PAD, PAD],
                        [8, 9, PAD, PAD, PAD]])
    mask = make_src_mask(src, PAD)
    assert mask.shape == (2, 1, 1, 5)
    assert mask.dtype == torch.bool
    assert mask[:, 0, 0].tolist() == [[True, True, True, False, False],
                                      [True, True, False, False, False]]


def test_src_mask_respects_pad_id():
    src = torch.tensor([[0, 3, 3]])
    assert make_src_mask(src, pad_id=3)[0, 0, 0].tolist() == [True, False, False]


def test_subsequent_mask_is_lower_triangular():
    mask = subsequent_mask(4)
    assert mask.shape == (4, 4)
    assert mask.tolist() == [[True, False, False, False],
                             [True, True, False, False],
                             [True, True, True, False],
                             [True, True, True, True]]


def test_trg_mask_combines_padding_and_no_peek():
    trg = torch.tensor([[2, 7, 8, 9],
                        [2, 7, PAD, PAD]])
    mask = make_trg_mask(trg, PAD)
    assert mask.shape == (2, 1, 4, 4)
    T, F = True, False
    assert mask[0, 0].tolist() == [[T, F, F, F],
                                   [T, T, F, F],
                                   [T, T, T, F],
                                   [T, T, T, T]]
    # Query rows at padded positions still see the real tokens before them; no key column
    # of a PAD is ever visible, and no row is fully masked (BOS is always visible).
    assert mask[1, 0].tolist() == [[T, F, F, F],
                                   [T, T, F, F],
                                   [T, T, F, F],
                                   [T, T, F, F]]
    assert mask.any(-1).all()


def test_trg_mask_never_masks_the_start_token_even_when_it_is_pad():
    """Marian's decoder starts with <pad>: the first position is still a key every query sees."""
    mask = make_trg_mask(torch.tensor([[PAD, 7, 8, PAD]]), PAD)
    assert mask[0, 0, :, 0].all()
    assert not mask[0, 0, :, 3].any()
