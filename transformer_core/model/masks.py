"""The masks, as in the lectures' make_src_mask / make_trg_mask.

Convention: True (1) = may attend, False (0) = masked (its score becomes -inf).
"""
import torch


def make_src_mask(src: torch.Tensor, pad_id: int) -> torch.Tensor:
    """Padding mask for the keys of the source.  src: (B, S) -> (B, 1, 1, S)."""
    return (src != pad_id).unsqueeze(1).unsqueeze(2)


def subsequent_mask(size: int, device=None) -> torch.Tensor:
    """No-peek mask: position i sees positions <= i.  -> (T, T), lower triangular."""
    return torch.tril(torch.ones(size, size, dtype=torch.bool, device=device))


def make_trg_mask(trg: torch.Tensor, pad_id: int) -> torch.Tensor:
    """Decoder self-attention mask = padding mask & subsequent mask.  trg: (B, T) -> (B, 1, T, T).

    The first position is the decoder's start token, never padding, even where it is <pad> (Marian)."""
    trg_pad_mask = make_src_mask(trg, pad_id)                     # (B, 1, 1, T)
    trg_pad_mask[..., 0] = True
    return trg_pad_mask & subsequent_mask(trg.size(1), trg.device)  # (B, 1, T, T)
