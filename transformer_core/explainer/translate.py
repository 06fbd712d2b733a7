"""Translate sentences with a checkpoint.

    python -m transformer_core translate --checkpoint DIR [--beam N] [FILE|-]
    python -m transformer_core translate --checkpoint DIR --prefix "나는 배를" -          # what-if: a forced beginning
    python -m transformer_core translate --checkpoint DIR --sample --temperature 0.8 --top-k 20 --top-p 0.9 --seed 1 -

prints one translation per input line (greedy with --beam 1; with --prefix, greedy from that beginning; with
--sample, drawn from the filtered next-token distribution, the same for the same seed).
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass

import torch

from ..checkpoints.files import Checkpoint, CheckpointError
from ..checkpoints.load import load_checkpoint
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--checkpoint", required=True, help="checkpoint folder")
    parser.add_argument("--beam", type=int, help="beam size; 1 = greedy (default: the model's, 4 for ours)")
    parser.add_argument("--prefix", help="what-if decoding: every translation begins with this text")
    parser.add_argument("--sample", action="store_true", help="draw each next token instead of the most likely")
    parser.add_argument("--temperature", type=float, default=1.0, help="with --sample; 0 is greedy")
    parser.add_argument("--top-k", type=int, default=0, help="with --sample: only the k most likely (0: all)")
    parser.add_argument("--top-p", type=float, default=1.0, help="with --sample: the smallest set of most likely "
                                                                   "tokens reaching this probability")
    parser.add_argument("--seed", type=int, default=0, help="with --sample: the same seed draws the same")
    parser.add_argument("input", nargs="?", default="-", help="text file, one sentence per line, or - for stdin")
    args = parser.parse_args(argv)
    if args.beam is not None and args.beam < 1:
        parser.error("--beam must be at least 1")
    if args.temperature < 0 or not 0 < args.top_p <= 1 or args.top_k < 0:
        parser.error("--temperature must be ≥ 0, --top-p in (0, 1], --top-k ≥ 0")
    try:
        ckpt = load_checkpoint(args.checkpoint)
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        with sys.stdin if args.input == "-" else open(args.input, encoding="utf-8") as stream:
            lines = [line.rstrip("\n") for line in stream]
    except (OSError, UnicodeDecodeError) as err:
        print(f"error: cannot read {args.input}: {err}", file=sys.stderr)
        return 2
    torch.set_grad_enabled(False)
    if args.prefix is not None:
        outputs = [continue_from(ckpt, line, args.prefix).text if line.strip() else "" for line in lines]
    elif args.sample:
        outputs = [sample(ckpt, line, args.temperature, args.top_k, args.top_p, args.seed).text
                   if line.strip() else "" for line in lines]
    else:
        outputs = translate_lines(ckpt, lines, args.beam)
    for text in outputs:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())


def split_sentences(text: str) -> list[str]:
    """A paragraph -> its sentences, split after . ! ? (and their full-width forms) followed by a space."""
    return [part for part in re.split(r"(?<=[.!?。！？])\s+", text.strip()) if part]
