"""Translate sentences with a checkpoint: beam search or greedy (translate), what-if decoding from a forced
beginning (continue_from), a draw from the filtered next-token distribution (sample), and many lines in
batches (translate_lines).  The command line's `python -m transformer_core translate` is serving/commands.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import torch

from ..checkpoints.files import Checkpoint
from ..model.decoding import Decoded, beam_search, beam_search_batch, greedy_decode, greedy_decode_batch, sample_decode
from ..model.tokenizer import Tokenizer, wrap_source


@dataclass
class Translation:
    src_ids: list[int]       # BOS … EOS, as the encoder sees them
    out_ids: list[int]       # the output, without BOS / EOS
    text: str
    truncated: bool          # the input was cut to the model's max_len
    decoded: Decoded


def source_ids(tokenizer: Tokenizer, text: str, max_len: int) -> tuple[list[int], bool]:
    """BOS + pieces + EOS (no BOS where tokenizer.source_bos is False), cut to max_len tokens.
    Returns (ids, whether it was cut)."""
    ids = tokenizer.encode(text)
    room = max_len - len(wrap_source(tokenizer, []))
    return wrap_source(tokenizer, ids[:room]), len(ids) > room


def translate(ckpt: Checkpoint, text: str, beam: int | None = None, alpha: float | None = None,
              trace: bool = False, heads_off: dict[str, list[int]] | None = None) -> Translation:
    """Beam search with the checkpoint's options (Checkpoint.beam_options), of which beam and alpha may be
    given here; greedy for beam 1."""
    src, truncated = source_ids(ckpt.tokenizer, text, ckpt.config.max_len)
    options = ckpt.beam_options
    options.update({k: v for k, v in (("beam", beam), ("alpha", alpha)) if v is not None})
    if options["beam"] > 1:
        out = beam_search(ckpt.model, src, trace=trace, heads_off=heads_off, **options)
    else:
        out = greedy_decode(ckpt.model, src, trace=trace, heads_off=heads_off,
                            force_eos=options.get("force_eos", False))
    return Translation(src, out.ids, ckpt.tokenizer.decode(out.ids), truncated, out)


def continue_from(ckpt: Checkpoint, text: str, prefix: str, trace: bool = False) -> Translation:
    """What-if decoding: the translation that begins with `prefix` (target text), greedy after it."""
    src, truncated = source_ids(ckpt.tokenizer, text, ckpt.config.max_len)
    forced = ckpt.tokenizer.encode_target(prefix) if prefix.strip() else []
    out = greedy_decode(ckpt.model, src, trace=trace, prefix=forced[: ckpt.config.max_len - 2])
    return Translation(src, out.ids, ckpt.tokenizer.decode(out.ids), truncated, out)


def sample(ckpt: Checkpoint, text: str, temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0,
           seed: int = 0, trace: bool = False) -> Translation:
    """A translation drawn token by token from the filtered distribution (decoding.sample_decode)."""
    src, truncated = source_ids(ckpt.tokenizer, text, ckpt.config.max_len)
    out = sample_decode(ckpt.model, src, temperature, top_k, top_p, seed, trace=trace)
    return Translation(src, out.ids, ckpt.tokenizer.decode(out.ids), truncated, out)


def translate_lines(ckpt: Checkpoint, lines: list[str], beam: int | None = None, batch_size: int = 64) -> list[str]:
    """Translate many sentences in batches of similar length, on the model's device: batched greedy for
    beam 1, else batched beam search (the checkpoint's beam width when beam is None)."""
    cfg = ckpt.config
    options = {**ckpt.beam_options, **({"beam": beam} if beam is not None else {})}
    srcs = [source_ids(ckpt.tokenizer, line, cfg.max_len)[0] for line in lines]
    order = sorted(range(len(srcs)), key=lambda i: len(srcs[i]))  # similar lengths share a batch
    results: dict[int, str] = {}
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        width = max(len(srcs[i]) for i in idx)
        src = torch.tensor([srcs[i] + [cfg.pad_id] * (width - len(srcs[i])) for i in idx], device=ckpt.model.device)
        if options["beam"] > 1:
            outputs = beam_search_batch(ckpt.model, src, **options)
        else:
            outputs = greedy_decode_batch(ckpt.model, src, force_eos=options.get("force_eos", False))
        for i, ids in zip(idx, outputs, strict=False):
            results[i] = ckpt.tokenizer.decode(ids) if lines[i].strip() else ""
    return [results[i] for i in range(len(lines))]




def split_sentences(text: str) -> list[str]:
    """A paragraph -> its sentences, split after . ! ? (and their full-width forms) followed by a space."""
    return [part for part in re.split(r"(?<=[.!?。！？])\s+", text.strip()) if part]
