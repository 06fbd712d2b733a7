"""What the app's figures cost the server to build: the generic heatmap (a sentence's attention: tokens on both
axes), a line figure, a heatmap made ready for a projector (theme.projector), the Training page's log, lrate
and replay figures, and the Positional, Attention and Masks pages' figures with panels or marked lines, one
thread, median ms.  With --baseline REV the same builders of `pages/` as of git revision REV are timed in the
same run, interleaved.

    python benchmarks/bench_figures.py --baseline HEAD~1    # writes out/bench/figures.json
    python benchmarks/bench_figures.py --smoke              # one repeat of each: checks that the script runs
"""
from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import ROOT, add_smoke, environment, parse_args, result_name, summary, time_interleaved, write_result


def pages_of(rev: str):
    """pages/ as of git revision rev, imported as the package baseline_pages -> (its figures, its theme)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-figures-"))
    archive = subprocess.run(["git", "archive", rev, "pages"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "pages").rename(folder / "baseline_pages")
    sys.path.insert(0, str(folder))
    return (importlib.import_module("baseline_pages.ui.figures"), importlib.import_module("baseline_pages.ui.theme"))


def calls(figures, theme, tokens: int) -> dict:
    import numpy as np

    rng = np.random.default_rng(0)
    weights = rng.dirichlet(np.ones(tokens), size=tokens)                     # (T, T): rows sum to 1
    labels = [f"▁w{i}" for i in range(tokens)]
    steps = list(range(1, 2001, 10))

    def attention():
        return figures.heatmap(weights, x_labels=labels, y_labels=labels, title="attention", x_title="key",
                               y_title="query", zmin=0.0, zmax=1.0, show_values=tokens <= 12)

    rounds = [400, 800, 1200, 1400, 1600, 1800]                # six fine-tuning rounds, as the bundled models'
    curves = [{"title": name, "series": [{"x": steps, "y": list(rng.random(len(steps))), "name": "train"},
                                         {"x": steps[::5], "y": list(rng.random(len(steps[::5]))), "name": "valid"}]}
              for name in ("loss", "BLEU", "lrate")]
    return {"heatmap": attention,
            "line": lambda: figures.line_figure([{"x": steps, "y": [1 / s for s in steps], "name": "loss"}],
                                                title="loss", x_title="step", y_title="loss", log_y=True),
            "heatmap, projector": lambda: theme.projector(attention()),
            "training log, 3 panels, 6 rounds": lambda: figures.log_figure(curves, x_title="step", round_starts=rounds,
                                                                           round_label="fine-tuning"),
            "lrate, warm-up and 6 rounds": lambda: figures.lr_figure(
                steps, [{"y": [1 / s for s in steps], "name": "lrate"}], title="lrate", x_title="step",
                logged={"x": steps[::5], "y": [1 / s for s in steps[::5]], "name": "logged"}, warmup=400,
                warmup_label="warm-up", round_starts=rounds, round_label="fine-tuning"),
            "replay frame": lambda: figures.history_figure(weights, 1000, labels, labels, steps, [1 / s for s in steps],
                                                           title="head", loss_title="loss", step_label="step"),
            "encodings, 2 lengths": lambda: figures.encoding_figure({"10": rng.normal(size=(10, 16)),
                                                                     "20": rng.normal(size=(20, 16))}, x_title="pos"),
            "cost of attention": lambda: figures.cost_figure(
                steps, {"self-attention": [s * s for s in steps], "recurrent": [512 * s for s in steps]}, crossover=512,
                crossover_label="n = d", marker_n=tokens, marker_label="this sentence"),
            "mask leak": lambda: figures.leak_figure(labels, list(weights[:, 0]), list(weights[:, 1]), tokens // 2,
                                                     with_name="masked", without_name="unmasked", changed_label="changed")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_smoke(parser)
    parser.add_argument("--baseline", metavar="REV", help="also time pages/ of this git revision, interleaved")
    parser.add_argument("--tokens", type=int, default=20, help="the sentence's length: the heatmap is tokens × tokens")
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--out", help="the result's path (default out/bench/figures.json)")
    args = parse_args(parser, argv, {"repeats": 1, "tokens": 6})

    import streamlit  # noqa: F401  (registers the template every figure of the app is made with)
    import torch

    from pages.ui import figures, theme

    torch.set_num_threads(1)
    timed = {f"{name} (this tree)": fn for name, fn in calls(figures, theme, args.tokens).items()}
    if args.baseline:
        timed |= {f"{name} ({args.baseline})": fn for name, fn in calls(*pages_of(args.baseline), args.tokens).items()}
    wall = time_interleaved(timed, args.repeats, warmup=1)
    ms = {label: summary([1000 * s for s in runs]) for label, (runs, _) in wall.items()}
    for label, stats in ms.items():
        print(f"{label:40s} median {stats['median']:7.2f} ms", flush=True)
    result = {"environment": environment(), "smoke": args.smoke, "tokens": args.tokens, "repeats": args.repeats,
              "baseline": args.baseline, "ms": ms}
    print("wrote", write_result(result_name("figures", args.smoke), result, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
