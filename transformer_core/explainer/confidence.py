"""How sure the model was of each token it wrote: the probability decoding gave the chosen token at its
step, P(y_t | y_<t, x), and the tokens under THRESHOLD, which the home page marks.

The probabilities are read off the teacher-forced pass on [BOS] + the output that the attention views
draw (explain.teacher_forced): its row t is what decoding computed at step t for this output, step by
step over a KV cache (the same numbers, to float rounding), whether greedy or beam search chose it.

    token_probabilities(model, logits, out_ids)   (T,) P of each output token, EOS left out
    uncertain(probs)                              the indices of the tokens under THRESHOLD
    token_texts(tokenizer, out_ids)               the text each token adds to the translation
    numbers_changed(source, translation)          the source's digit numbers the translation lacks, and those it
                                                  adds (the bundled models may write 12 for 15, or 28 twice)
    python -m transformer_core confidence --checkpoint DIR --tsv FILE --column ko   # how THRESHOLD was chosen
    python -m transformer_core confidence --checkpoint DIR --numbers FILE           # how often numbers come through

THRESHOLD = 0.5 (docs/uncertainty.md): on tests/data/everyday.tsv, translated with beam 4 by the bundled
models, the tokens under 0.5 are not in the reference 68 % (en→ko) and 54 % (en→de) of the time, against
28 % and 22 % of all tokens: the highest threshold at which a marked token is more often wrong than right
for both models (at 0.6, en→de's are 49 %).  It marks 12 % and 10 % of the tokens, about one a sentence.
"""
from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import numpy as np
import torch

from ..checkpoints.load import load_checkpoint
from ..model.decoding import log_probs
from ..model.transformer import Transformer
from .explain import teacher_forced
from .translate import translate

THRESHOLD = 0.5
NUMBER = re.compile(r"\d+")                       # a number written in digits: 28 in "28명" and in "28 Schüler"
BINS = np.linspace(0.0, 1.0, 11)                 # the command's table: tenths of probability
CANDIDATES = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def token_probabilities(model: Transformer, logits: torch.Tensor, out_ids: Sequence[int],
                        renormalize: bool = True) -> np.ndarray:
    """logits (T + 1, V) of the teacher-forced pass on [BOS] + output (its last row predicts EOS) ->
    (T,) P(output token t | the tokens before it, the source), as decoding scores it (decoding.log_probs:
    PAD and BOS never produced; renormalize as the decoding that chose the output)."""
    ids = torch.tensor([int(i) for i in out_ids], dtype=torch.long)              # (T,)
    logp = log_probs(model, logits[: len(ids)].double().clone(), renormalize)      # (T, V)
    return logp.gather(1, ids.view(-1, 1))[:, 0].exp().numpy()                    # (T,)


def renormalized(ckpt, beam: int) -> bool:
    """Whether the decoding that chose the output renormalized P(next token) after banning PAD and BOS:
    greedy does, beam search as the checkpoint's options say (Marian's generate does not)."""
    return beam == 1 or ckpt.beam_options.get("renormalize", True)


def uncertain(probs: Sequence[float], threshold: float = THRESHOLD) -> list[int]:
    """The indices of the tokens whose probability is under threshold."""
    return [i for i, p in enumerate(probs) if p < threshold]


def numbers_changed(source: str, translation: str) -> tuple[list[str], list[str]]:
    """(the numbers in digits the source has and the translation lacks, those the translation has and the source
    lacks), each as often as it is missing or extra: ("We bought 15 eggs.", "우리는 계란 12개를 샀다.") ->
    (["15"], ["12"]).  A number the translation spells out in words ("zwölf" for 12) is missing here too."""
    said, written = Counter(NUMBER.findall(source)), Counter(NUMBER.findall(translation))
    return sorted((said - written).elements(), key=int), sorted((written - said).elements(), key=int)


def token_texts(tokenizer, out_ids: Sequence[int]) -> list[str]:
    """The text each output token adds to the translation (decode of the first t + 1 tokens less that of
    the first t): joined, they are tokenizer.decode(out_ids).  A word-start piece brings its space."""
    texts = [tokenizer.decode(out_ids[:t]) for t in range(len(out_ids) + 1)]
    return [after[len(before):] for before, after in pairwise(texts)]


# ---------------------------------------------------------------- choosing THRESHOLD

def in_reference(out_ids: Sequence[int], ref_ids: Sequence[int]) -> list[bool]:
    """For each output token, whether the reference has it (each reference token matched once, in order:
    BLEU's clipped unigram match, on pieces)."""
    left = Counter(ref_ids)
    found = []
    for i in out_ids:
        found.append(left[i] > 0)
        left[i] -= 1
    return found


def calibration(ckpt, pairs: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """Each (source, reference) translated as the home page does (the checkpoint's beam) -> the
    probabilities of all output tokens (N,) and whether each is in its reference (N,)."""
    probs, right = [], []
    for src, ref in pairs:
        tr = translate(ckpt, src)
        logits, _ = teacher_forced(ckpt.model, tr.src_ids, tr.out_ids)
        probs += list(token_probabilities(ckpt.model, logits, tr.out_ids, renormalized(ckpt, ckpt.beam_options["beam"])))
        right += in_reference(tr.out_ids, ckpt.tokenizer.encode_target(ref))
    return np.array(probs), np.array(right)


def share(mask: np.ndarray) -> str:
    """The share of True in mask as a percentage, "–" for none."""
    return f"{mask.mean():.0%}" if mask.size else "–"


def report(probs: np.ndarray, right: np.ndarray) -> str:
    """Markdown tables: the share of tokens not in the reference per tenth of probability, and what each
    candidate threshold flags."""
    wrong = ~right
    lines = [f"{len(probs):,} tokens, {share(wrong)} not in the reference", "",
             "| P(token) | tokens | not in the reference |", "| --- | --- | --- |"]
    index = np.minimum(np.digitize(probs, BINS) - 1, len(BINS) - 2)
    for b in range(len(BINS) - 1):
        lines.append(f"| {BINS[b]:.1f}–{BINS[b + 1]:.1f} | {(index == b).sum():,} | {share(wrong[index == b])} |")
    lines += ["", "| threshold | tokens flagged | of them not in the reference | of the tokens not in the "
              "reference, flagged | unflagged tokens not in the reference |", "| --- | --- | --- | --- | --- |"]
    for threshold in CANDIDATES:
        flagged = probs < threshold
        lines.append(f"| {threshold:.1f} | {share(flagged)} | {share(wrong[flagged])} | {share(flagged[wrong])} | "
                     f"{share(wrong[~flagged])} |")
    return "\n".join(lines)


def numbers_report(ckpt, sentences: list[str]) -> str:
    """Each sentence's translation (beam 4) with the numbers it lacks and adds, then how many kept them exactly."""
    rows, exact, lacking, invented = [], 0, 0, 0
    for sentence in sentences:
        out = translate(ckpt, sentence, beam=4).text
        missing, extra = numbers_changed(sentence, out)
        exact, lacking, invented = exact + (not missing and not extra), lacking + bool(missing), invented + bool(extra)
        rows.append(f"{sentence}\t{out}\tlacks {' '.join(missing) or '-'}\tadds {' '.join(extra) or '-'}")
    n = len(sentences)
    return "\n".join(rows + [f"numbers kept exactly: {exact}/{n}; a number lacking: {lacking}/{n}; "
                             f"a number not in the sentence: {invented}/{n}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, required=True)
    parser.add_argument("--tsv", type=Path, help="tab-separated, with a header naming its columns")
    parser.add_argument("--source", default="en", help="the column of the sentences to translate")
    parser.add_argument("--column", help="the column of their reference translations")
    parser.add_argument("--numbers", type=Path, help="instead: a sentence a line, each with numbers in digits; "
                                                     "how many translations (beam 4) keep them exactly")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    if args.numbers:
        lines = [line.strip() for line in args.numbers.read_text(encoding="utf-8").splitlines() if line.strip()]
        print(numbers_report(load_checkpoint(args.checkpoint), lines))
        return 0
    if not (args.tsv and args.column):
        parser.error("--tsv and --column (or --numbers)")
    with args.tsv.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows or args.source not in rows[0] or args.column not in rows[0]:
        print(f"error: {args.tsv} needs the columns {args.source} and {args.column}", file=sys.stderr)
        return 2
    probs, right = calibration(load_checkpoint(args.checkpoint), [(r[args.source], r[args.column]) for r in rows])
    print(report(probs, right))
    return 0


if __name__ == "__main__":
    sys.exit(main())
