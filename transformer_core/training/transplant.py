"""Fine-tuning with a new tokenizer: carry a checkpoint's shared embedding over to another vocabulary.

A piece the old vocabulary has keeps its row; a new piece gets the mean of the rows of the old pieces
its text splits into (the usual initialisation when a vocabulary is extended or swapped).  Every other
weight is the checkpoint's own, so the model keeps what it knew while it learns the new pieces.
"""
from __future__ import annotations

import torch

from ..model.tokenizer import WORD_START, Tokenizer
from ..model.transformer import Transformer


def remap_embedding(old: torch.Tensor, old_tok: Tokenizer, new_tok: Tokenizer) -> tuple[torch.Tensor, int]:
    """old: (V_old, d_model) -> ((V_new, d_model), number of pieces copied as they were)."""
    rows, copied = [], 0
    for new_id in range(new_tok.vocab_size):
        piece = new_tok.id_to_piece(new_id)
        old_id = old_tok.piece_to_id(piece)
        if old_id is not None:
            rows.append(old[old_id])
            copied += 1
            continue
        text = piece.replace(WORD_START, " ")
        ids = old_tok.encode(text) or [old_tok.unk_id]
        rows.append(old[ids].mean(dim=0))
    return torch.stack(rows), copied


def transplant(model: Transformer, base: Transformer, old_tok: Tokenizer, new_tok: Tokenizer) -> int:
    """Load base's weights into model (whose vocabulary is new_tok's), the embedding remapped.
    -> the number of pieces whose row was copied."""
    state = dict(base.state_dict())
    state["embedding.weight"], copied = remap_embedding(state["embedding.weight"], old_tok, new_tok)
    model.load_state_dict(state)
    return copied
