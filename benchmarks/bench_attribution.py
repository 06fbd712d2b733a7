"""Attribution latency on the CPU, one thread: saliency, input × gradient and integrated gradients (32
steps) of a 20-token source sentence and a 20-row translation, on a bundled checkpoint.

    python benchmarks/bench_attribution.py --checkpoint checkpoints/enko

    python benchmarks/bench_attribution.py --baseline edfa2e7     # before the rows went in chunks

Target: integrated gradients ≤ 1 s (median).  The baseline, timed in the same run and interleaved, is
transformer_core/explainer/attribution.py as of git revision --baseline, on the same model, or without it one
decoder pass for all target rows (chunk = T); both must give the same scores.  The source is benchmarks/bench_decode.py's
SENTENCE cut to 18 pieces between BOS and EOS; the translation is the first 19 greedy output tokens
(repeated if shorter) and </s>.  Writes out/bench/attribution.json.

    python benchmarks/bench_attribution.py --tsv tests/data/everyday.tsv   # also: real translations

--tsv also times integrated gradients on the English sentences of a TSV (column "en") whose source has
--src-len ± 2 tokens, each with its own greedy translation as the rows (what the app does), and reports
the median over those sentences.

    python benchmarks/bench_attribution.py --smoke     # seconds: an 8-token source, 5 rows, 1 timed run of each
                                                       # method, no warm-up, and 1 sentence of tests/data/everyday.tsv

--smoke writes out/bench/attribution-smoke.json: a check that the script runs, not a figure.
"""
from __future__ import annotations

import argparse
import csv
import statistics
import sys

import numpy as np
import torch
from bench_decode import baseline_modules, source_ids

from _common import ROOT, add_smoke, environment, parse_args, result_name, summary, time_interleaved, write_result
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import attribution
from transformer_core.model.decoding import greedy_decode

SMOKE = dict(checkpoint=str(ROOT / "checkpoints" / "enko"), src_len=8, rows=5, repeats=1, warmup=0,
             tsv=str(ROOT / "tests" / "data" / "everyday.tsv"), sentences=1)


def real_sentences(ckpt, tsv: str, src_len: int, repeats: int, limit: int | None = None, warmup: int = 1) -> dict:
    """Integrated gradients of each English sentence of tsv with src_len ± 2 source tokens (the first `limit`
    of them), on its own greedy translation: [(source tokens, rows, median seconds)] and the median over
    the sentences."""
    from transformer_core.explainer.translate import translate

    with open(tsv, encoding="utf-8", newline="") as f:
        english = [row["en"] for row in csv.DictReader(f, delimiter="\t")]
    found = []
    for text in english:
        if limit is not None and len(found) >= limit:
            break
        if abs(len(ckpt.tokenizer.encode(text)) + 2 - src_len) > 2:
            continue
        tr = translate(ckpt, text, beam=1)
        run = {"ig": lambda: attribution.attribute(ckpt.model, tr.src_ids, tr.out_ids)}  # noqa: B023 called within the iteration
        wall, _ = time_interleaved(run, repeats, warmup)["ig"]
        found.append((len(tr.src_ids), len(tr.out_ids) + 1, statistics.median(wall)))
    return {"sentences": found, "median_s": statistics.median(x[2] for x in found) if found else None}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--checkpoint", default="checkpoints/enko")
    p.add_argument("--src-len", type=int, default=20, help="source tokens, BOS and EOS included")
    p.add_argument("--rows", type=int, default=20, help="target rows (output tokens and </s>)")
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--baseline", metavar="REV", help="time transformer_core/explainer/attribution.py of this git revision")
    p.add_argument("--tsv", help="also time the sentences of this TSV (column en) of about --src-len tokens")
    p.add_argument("--sentences", type=int, help="with --tsv: only the first this many sentences (default all)")
    p.add_argument("--out", help="JSON result (default out/bench/attribution.json)")
    add_smoke(p)
    args = parse_args(p, argv, SMOKE)
    torch.set_num_threads(1)
    ckpt = load_checkpoint(args.checkpoint)
    model = ckpt.model
    src = source_ids(model, args.src_len, ckpt.tokenizer)
    out = list(greedy_decode(model, src, max_len=args.rows).ids) or [model.cfg.unk_id]
    while len(out) < args.rows - 1:
        out += out
    out = out[:args.rows - 1]
    old = baseline_modules(args.baseline, ("explainer.attribution",))[0] if args.baseline else None
    result = {"model": str(ckpt.path), "baseline": args.baseline or f"chunk {len(out) + 1}", "src_len": len(src),
              "rows": len(out) + 1, "steps": attribution.STEPS, "chunk": attribution.CHUNK, "repeats": args.repeats,
              "smoke": args.smoke, "env": environment(), "s": {}}
    for method in attribution.METHODS:
        fns = {"chunked": lambda m=method: attribution.attribute(model, src, out, m),
               "baseline": (lambda m=method: old.attribute(model, src, out, m)) if old else
                           (lambda m=method: attribution.attribute(model, src, out, m, chunk=len(out) + 1))}
        same = np.allclose(fns["chunked"](), fns["baseline"](), rtol=1e-4, atol=1e-5)
        times = time_interleaved(fns, args.repeats, args.warmup)
        result["s"][method] = {name: summary(wall) for name, (wall, _) in times.items()} | {"same_scores": same}
        print(f"{method:22s} chunked {result['s'][method]['chunked']['median']:.3f} s   "
              f"baseline {result['s'][method]['baseline']['median']:.3f} s   (medians of {args.repeats}; "
              f"same scores: {same})")
    if args.tsv:
        result["tsv"] = real_sentences(ckpt, args.tsv, args.src_len, args.repeats, args.sentences, args.warmup)
        print(f"integrated gradients, {len(result['tsv']['sentences'])} sentences of {args.tsv} with their own "
              f"translations: median {result['tsv']['median_s']:.3f} s (each: "
              f"{', '.join(f'{x[2]:.2f} s for {x[0]}x{x[1]}' for x in result['tsv']['sentences'])})")
    print("wrote", write_result(result_name("attribution", args.smoke), result, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
