"""Score a checkpoint on a data split with sacrebleu.

    python -m transformer_core evaluate --checkpoint DIR --split test [--data DIR] [--beam N]
    python -m transformer_core evaluate --checkpoint DIR --tsv tests/data/classroom.tsv   # the classroom set

prints BLEU and chrF with sacrebleu's signatures.
"""
from __future__ import annotations

import argparse
import multiprocessing
import shlex
import sys
from pathlib import Path

import torch
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from ..checkpoints.files import CheckpointError
from ..checkpoints.load import load_checkpoint
from ..checkpoints.model_card import record
from ..data.sources.files import read_split
from ..explainer.translate import translate_lines
from ..model.config import base_language


def bleu_tokenize(lang: str) -> str:
    """sacrebleu tokenizer for the target language: 13a, or MeCab-ko morphemes for Korean (ko, kor, ko-KR)."""
    return "ko-mecab" if base_language(lang) == "ko" else "13a"


def score(hyps: list[str], refs: list[str], lang: str) -> dict:
    bleu, chrf = BLEU(tokenize=bleu_tokenize(lang)), CHRF()
    b, c = bleu.corpus_score(hyps, [refs]), chrf.corpus_score(hyps, [refs])
    return {"bleu": round(b.score, 2), "chrf": round(c.score, 2), "n": len(hyps),
            "bleu_signature": str(bleu.get_signature()), "chrf_signature": str(chrf.get_signature())}


def chrf_p_value(baseline: list[str], hyps: list[str], refs: list[str], samples: int = 1000) -> float:
    """How likely a chrF difference this large between two systems' translations of the same sentences is
    by chance: sacrebleu's paired bootstrap resampling (Koehn 2004; its fixed seed, so reproducible).  The
    same translations differ in nothing: 1 (sacrebleu would count a zero difference as never by chance)."""
    if hyps == baseline:
        return 1.0
    _, results = PairedTest([("baseline", baseline), ("system", hyps)], {"chrF": CHRF()}, [refs],
                            test_type="bs", n_samples=samples)()
    return round(results["chrF2"][1].p_value, 4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--split", default="test", choices=["train", "valid", "test"])
    parser.add_argument("--data", help="data folder (default: the one the checkpoint was trained on)")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--limit", type=int, help="score only the first N pairs")
    parser.add_argument("--record", metavar="NAME", help="also write the scores under NAME into the checkpoint's "
                                                        "training.json and its model card")
    parser.add_argument("--tsv", type=Path, help="score on a TSV file instead, whose header names the languages "
                                                 "(en, ko, de): the hand-written classroom set")
    parser.add_argument("--workers", type=int, default=1, help="translate in this many processes of one thread "
                                                               "each (the same translations, sooner)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)    # a small model gains little from more; beside other jobs, more threads cost much
    try:
        ckpt = load_checkpoint(args.checkpoint)
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    cfg = ckpt.config
    if args.tsv:
        try:
            pairs = read_tsv_pairs(args.tsv, cfg.src_lang, cfg.tgt_lang)
        except (OSError, ValueError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        return report(ckpt, pairs[:args.limit] if args.limit else pairs, args.beam, str(args.tsv), args.record, argv,
                      args.workers)
    data = args.data
    if data is None:
        data = ckpt.training.get("data", {}).get("folder")
    if data is None:
        print("error: pass --data: the checkpoint does not say which data it was trained on", file=sys.stderr)
        return 2
    try:
        pairs = read_split(Path(data), args.split, cfg.src_lang, cfg.tgt_lang)
    except FileNotFoundError as err:
        print(f"error: {err}. Build the data first (python -m transformer_core data --help).", file=sys.stderr)
        return 2
    pairs = pairs[:args.limit] if args.limit else pairs
    return report(ckpt, pairs, args.beam, f"{args.split} split of {data}", args.record, argv, args.workers)


def read_tsv_pairs(path: Path, src_lang: str, tgt_lang: str) -> list[tuple[str, str]]:
    """(src, tgt) pairs from the columns of a TSV file named by its header line."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    if src_lang not in header or tgt_lang not in header:
        raise ValueError(f"{path} has columns {header}, not {src_lang} and {tgt_lang}")
    i, j = header.index(src_lang), header.index(tgt_lang)
    return [(cells[i], cells[j]) for cells in (line.split("\t") for line in lines[1:] if line.strip())]


def _translate_share(folder: str, lines: list[str], beam: int) -> list[str]:
    torch.set_num_threads(1)
    return translate_lines(load_checkpoint(folder), lines, beam=beam)


def translate_all(ckpt, lines: list[str], beam: int, workers: int = 1) -> list[str]:
    """translate_lines, shared out over `workers` processes: worker i takes lines i, i + workers, …
    (long and short sentences alike), and the translations come back in the lines' order."""
    if workers <= 1 or len(lines) < 2:
        return translate_lines(ckpt, lines, beam=beam)
    workers = min(workers, len(lines))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        shares = pool.starmap(_translate_share, [(str(ckpt.path), lines[i::workers], beam) for i in range(workers)])
    hyps = [""] * len(lines)
    for i, share in enumerate(shares):
        hyps[i::workers] = share
    return hyps


def report(ckpt, pairs, beam: int, what: str, name: str | None = None, argv: list[str] | None = None,
           workers: int = 1) -> int:
    hyps = translate_all(ckpt, [s for s, _ in pairs], beam, workers)
    result = score(hyps, [t for _, t in pairs], ckpt.config.tgt_lang)
    if name:
        command = "python -m transformer_core evaluate " + shlex.join(sys.argv[1:] if argv is None else argv)
        record(ckpt.path, "evaluations", {"name": name, "data": what, "beam": beam, "command": command, **result})
    print(f"BLEU = {result['bleu']:.2f}  ({result['bleu_signature']})")
    print(f"chrF = {result['chrf']:.2f}  ({result['chrf_signature']})")
    print(f"{result['n']} sentences, {what}, beam {beam}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
