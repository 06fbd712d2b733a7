"""Training mixes compared on the same validation sets: runs that differ only in the corpora mixed into
their training data, each scored on every set, the result recorded in a checkpoint's training.json
("mixes") and model card.

    python -m transformer_core mixes --record checkpoints/ende \
        --run "generated + Ding + auf-deutsch=runs/mixA/export" \
        --run "generated + Ding + auf-deutsch + LibreOffice/GNOME=runs/mixB/export" \
        --set "generated=data/cls-ende3" --set "Ding=data/ende" --set "auf-deutsch=data/auf" \
        --set "LibreOffice/GNOME=data/de-docs" --tsv "classroom set=tests/data/classroom.tsv"

Each --set is scored on its valid split (the classroom set, --tsv, is the hand-written test set: it is
shown, not used to choose).  Beam 4, sacrebleu BLEU and chrF as evaluate.py.  Every run after the first
also gets, per set, the p-value of its chrF difference from the first run (paired bootstrap,
evaluate.chrf_p_value): a difference with p >= 0.05 is within what chance gives.
"""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import torch

from ..checkpoints.load import load_checkpoint
from ..checkpoints.model_card import record
from ..data.sources.files import read_split
from .evaluate import chrf_p_value, read_tsv_pairs, score, translate_all


def _named(text: str) -> tuple[str, str]:
    name, sep, path = text.rpartition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"{text!r}: give NAME=PATH")
    return name, path


def compare(runs: list[tuple[str, str]], sets: list[tuple[str, str]], tsvs: list[tuple[str, str]], beam: int,
            workers: int, device: str = "cpu") -> list[dict]:
    """-> one row per run: its name, folder, training data and {set name: {bleu, chrf, n, ...}}; a later run
    of the first run's language pair has chrf_p (against the first run) too."""
    rows, read = [], {}                  # (src, tgt) -> {set name: pairs}, read once for the runs of a pair
    first: dict[str, list[str]] = {}     # set name -> the first run's translations
    first_pair = None                    # the first run's (src, tgt): only its runs are tested against it
    for name, folder in runs:
        ckpt = load_checkpoint(folder)
        ckpt.model.to(device)                # batched beam search there (translate_lines)
        src, tgt = ckpt.config.src_lang, ckpt.config.tgt_lang
        if (src, tgt) not in read:
            read[src, tgt] = {set_name: read_split(Path(data), "valid", src, tgt) for set_name, data in sets}
            read[src, tgt] |= {set_name: read_tsv_pairs(Path(path), src, tgt) for set_name, path in tsvs}
        scores = {}
        for set_name, ps in read[src, tgt].items():
            hyps = translate_all(ckpt, [s for s, _ in ps], beam, workers)
            scores[set_name] = score(hyps, [t for _, t in ps], tgt)
            if not rows:
                first_pair, first[set_name] = (src, tgt), hyps
            elif (src, tgt) == first_pair:
                scores[set_name]["chrf_p"] = chrf_p_value(first[set_name], hyps, [t for _, t in ps])
            print(f"{name} | {set_name}: BLEU {scores[set_name]['bleu']:.2f}, chrF {scores[set_name]['chrf']:.2f}",
                  flush=True)
        data = ckpt.training.get("data", {})
        rows.append({"name": name, "folder": folder, "data_command": data.get("manifest", {}).get("command"),
                     "train_pairs": data.get("train_pairs_used"), "steps": ckpt.training.get("steps"),
                     "scores": scores})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--run", type=_named, action="append", required=True, metavar="NAME=CHECKPOINT")
    parser.add_argument("--set", type=_named, action="append", default=[], metavar="NAME=DATA",
                        help="a data folder whose valid split is scored")
    parser.add_argument("--tsv", type=_named, action="append", default=[], metavar="NAME=TSV")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1, help="CPU processes (with --device cpu)")
    parser.add_argument("--device", default="cpu", help="cpu or cuda: where the runs translate")
    parser.add_argument("--record", metavar="CHECKPOINT", help="write the table into this checkpoint's card")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)    # as evaluate.py: beside other jobs, more threads cost much
    rows = compare(args.run, args.set, args.tsv, args.beam, args.workers if args.device == "cpu" else 1, args.device)
    if args.record:
        command = "python -m transformer_core mixes " + shlex.join(sys.argv[1:] if argv is None else argv)
        record(args.record, "mixes", {"command": command, "beam": args.beam, "runs": rows,
                                      "valid_sets": [name for name, _ in args.set],
                                      "test_sets": [name for name, _ in args.tsv]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
