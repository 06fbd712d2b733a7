"""The command line's translate and attribution: the explainer's runs, each counted first as the pages count it
(cost.py) and refused past one run's bounds, as on the server.

    python -m transformer_core translate --checkpoint DIR [--beam N] [FILE|-]
    python -m transformer_core translate --checkpoint DIR --prefix "나는 배를" -          # what-if: a forced beginning
    python -m transformer_core translate --checkpoint DIR --sample --temperature 0.8 --top-k 20 --top-p 0.9 --seed 1 -
    python -m transformer_core attribution --checkpoint DIR --method integrated_gradients --json "I like apples."
    python -m transformer_core attribution --checkpoint DIR --method saliency --gold --limit 200   # AER vs heads

translate prints one translation per input line (greedy with --beam 1; with --prefix, greedy from that beginning;
with --sample, drawn from the filtered next-token distribution, the same for the same seed).  A line whose
decoding would cost more than one run may (a model that never stops, a sentence too long for the model's size)
is refused before anything runs: an empty output line, the reason on stderr, exit status 1; the other lines
decode in batches that hold at most what one run may.  attribution refuses such a sentence (with --gold it
leaves the pair out and counts it).  --no-limit lifts the bounds, for a model you trust on a machine of your own.
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np
import torch

from ..checkpoints.files import Checkpoint, CheckpointError
from ..checkpoints.load import load_checkpoint
from ..explainer import attribution
from ..explainer.translate import continue_from, sample, source_ids, translate, translate_lines
from . import cost
from .runs import check_attribution, checked_source

BATCH = 64                   # sentences translate decodes together, within one run's bytes


def within_bounds(ckpt: Checkpoint, lines: list[str], beam: int) -> tuple[dict[int, str], int]:
    """The lines whose decoding with `beam` hypotheses is past one run's bounds (cost.check), with why, and how
    many of the others may decode in one batch (translate_lines) holding at most what one run may."""
    refused, largest = {}, 1
    for i, line in enumerate(lines):
        src, _ = source_ids(ckpt.tokenizer, line, ckpt.config.max_len)
        try:
            largest = max(largest, cost.check(ckpt.config, "decoding", len(src), beam).nbytes)
        except cost.RunTooLarge as err:
            refused[i] = str(err)
    return refused, max(1, min(BATCH, cost.MAX_BYTES // largest))


def translate_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Translate sentences with a checkpoint.")
    parser.add_argument("--checkpoint", required=True, help="checkpoint folder")
    parser.add_argument("--beam", type=int, help="beam size; 1 = greedy (default: the model's, 4 for ours)")
    parser.add_argument("--prefix", help="what-if decoding: every translation begins with this text")
    parser.add_argument("--sample", action="store_true", help="draw each next token instead of the most likely")
    parser.add_argument("--temperature", type=float, default=1.0, help="with --sample; 0 is greedy")
    parser.add_argument("--top-k", type=int, default=0, help="with --sample: only the k most likely (0: all)")
    parser.add_argument("--top-p", type=float, default=1.0, help="with --sample: the smallest set of most likely "
                                                                   "tokens reaching this probability")
    parser.add_argument("--seed", type=int, default=0, help="with --sample: the same seed draws the same")
    parser.add_argument("--no-limit", action="store_true", help="decode every line, whatever it costs (a model you "
                                                                    "trust, on your own machine)")
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
    beam = 1 if args.prefix is not None or args.sample else (args.beam or ckpt.beam_options["beam"])
    refused, batch = ({}, BATCH) if args.no_limit else within_bounds(ckpt, lines, beam)
    for i, why in refused.items():
        print(f"error: line {i + 1}: {why}", file=sys.stderr)
    lines = ["" if i in refused else line for i, line in enumerate(lines)]
    if args.prefix is not None:
        outputs = [continue_from(ckpt, line, args.prefix).text if line.strip() else "" for line in lines]
    elif args.sample:
        outputs = [sample(ckpt, line, args.temperature, args.top_k, args.top_p, args.seed).text
                   if line.strip() else "" for line in lines]
    else:
        outputs = translate_lines(ckpt, lines, args.beam, batch)
    for text in outputs:
        print(text)
    return 1 if refused else 0


def explain_sentence(ckpt: Checkpoint, text: str, method: str, steps: int, bounded: bool = True) -> dict:
    """The translation (greedy) of text and its attribution: {"source", "target", "translation", "method",
    "scores"}.  bounded: the decoding, then the attribution, refused past one run's bounds (cost.RunTooLarge)."""
    if bounded:
        checked_source(ckpt, text, "decoding")
    tr = translate(ckpt, text, beam=1)
    if bounded:
        check_attribution(ckpt, tr.src_ids, tr.out_ids, method, steps)
    scores = attribution.attribute(ckpt.model, tr.src_ids, tr.out_ids, method, steps)      # (T, S)
    tok = ckpt.tokenizer
    return {"source": tok.pieces(tr.src_ids), "target": tok.pieces([*tr.out_ids, ckpt.config.eos_id]),
            "translation": tr.text, "method": method, "scores": np.round(scores, 6).tolist()}


def fits_attribution(ckpt: Checkpoint, method: str, steps: int):
    """gold_aer's `fits`: whether attributing (src_ids, out_ids) stays within one run's bounds."""
    def fits(src_ids: list[int], out_ids: list[int]) -> bool:
        try:
            check_attribution(ckpt, src_ids, out_ids, method, steps)
        except cost.RunTooLarge:
            return False
        return True
    return fits


def attribution_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Attribution beside attention: how much each source token moves "
                                                 "the log-probability of each target token.")
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--method", choices=attribution.METHODS, default="integrated_gradients")
    parser.add_argument("--steps", type=int, default=attribution.STEPS, help="integrated gradients: points on the path")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output for now)")
    parser.add_argument("--gold", action="store_true", help="instead of a sentence: AER against the checkpoint's "
                                                            "gold alignments, beside the heads'")
    parser.add_argument("--limit", type=int, help="--gold: at most this many sentences")
    parser.add_argument("--no-limit", action="store_true", help="run whatever it costs (a model you trust, on your "
                                                                    "own machine)")
    parser.add_argument("sentence", nargs="?")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    if (args.sentence is None) != args.gold:
        parser.error("give a sentence, or --gold")
    torch.set_num_threads(1)
    try:
        ckpt = load_checkpoint(args.checkpoint)
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.gold:
        if not ckpt.gold:
            print(f"error: {args.checkpoint} has no gold_alignments.tsv", file=sys.stderr)
            return 2
        fits = {} if args.no_limit else {"fits": fits_attribution(ckpt, args.method, args.steps)}
        print(json.dumps(attribution.gold_aer(ckpt, args.method, args.limit, args.steps, **fits)))
        return 0
    try:
        explained = explain_sentence(ckpt, args.sentence, args.method, args.steps, bounded=not args.no_limit)
    except cost.RunTooLarge as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(json.dumps(explained, ensure_ascii=False))
    return 0
