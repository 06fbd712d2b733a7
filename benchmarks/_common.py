"""Shared helpers for the benchmark scripts: timing statistics, environment record, JSON output."""
from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:            # run as `python benchmarks/x.py` from anywhere
    sys.path.insert(0, str(ROOT))
OUT = ROOT / "out" / "bench"


def percentile(values: list[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 100]."""
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "p90": percentile(values, 90), "min": min(values),
            "max": max(values), "n": len(values)}


def time_calls(fn, repeats: int, warmup: int) -> tuple[list[float], list[float]]:
    """Seconds of `repeats` calls of fn(), after `warmup` untimed calls: (wall clock, process CPU time).

    On a shared machine the wall clock includes the time other processes held the core; the CPU time
    of this (single-threaded) process does not, so it shows what the code itself costs."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def time_interleaved(fns: dict, repeats: int, warmup: int) -> dict[str, tuple[list[float], list[float]]]:
    """time_calls for several functions at once, alternating A B, B A, … so that a change of load on a
    shared machine falls on all of them alike.  -> {name: (wall seconds, CPU seconds)}"""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    out = {name: ([], []) for name in fns}
    order = list(fns)
    for i in range(repeats):
        for name in order if i % 2 == 0 else order[::-1]:
            start, start_cpu = time.perf_counter(), time.process_time()
            fns[name]()
            out[name][0].append(time.perf_counter() - start)
            out[name][1].append(time.process_time() - start_cpu)
    return out


def environment() -> dict:
    import torch

    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        rev = ""
    return {"torch": torch.__version__, "threads": torch.get_num_threads(), "python": platform.python_version(),
            "cpu": platform.processor() or platform.machine(), "cpu_count": os.cpu_count(),
            # the vector instructions torch uses; VNNI decides model/quantize.py's int8 kernel
            "cpu_capability": torch.backends.cpu.get_cpu_capability(), "avx512_vnni": torch.cpu._is_vnni_supported(),
            "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
            "git_rev": rev, "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def add_smoke(parser) -> None:
    """The --smoke flag every benchmark has: tiny sizes, one repeat, its result in out/bench/<name>-smoke.json."""
    parser.add_argument("--smoke", action="store_true",
                        help="a check that the script still runs (seconds): tiny sizes, one repeat, the result in "
                             "out/bench/<name>-smoke.json (never the real result's file)")


def parse_args(parser, argv, smoke: dict):
    """parser.parse_args(argv); with --smoke, `smoke` replaces the defaults (an option given still wins)."""
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**smoke)
        args = parser.parse_args(argv)
    return args


def result_name(name: str, smoke: bool) -> str:
    """The result file's name: <name>, or <name>-smoke for a --smoke run (never overwriting the real one)."""
    return f"{name}-smoke" if smoke else name


def write_result(name: str, result: dict, path: str | None = None) -> Path:
    target = Path(path) if path else OUT / f"{name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return target
