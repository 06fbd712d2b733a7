"""Benchmarks that cannot rot (#44): every script in benchmarks/ runs with --smoke (tiny sizes, one repeat) in a
subprocess, as `python benchmarks/<script> --smoke` from the repository root, exits 0 and writes its result to
out/bench/<name>-smoke.json with the top-level keys its real run has, never touching the real result's file.

A new benchmarks/bench_*.py without an entry in SMOKE_RUNS fails here: give it a --smoke and a line below.

bench_app.py drives Debian's headless Chromium (/usr/bin/chromium; Playwright never downloads a browser) and
bench_class.py a server of its own with two simulated students (one lesson each; the first uploads and loads a
checkpoint): every kind of action happens, none fails.  No Chromium FAILS with a hint, never skips.  About
1.5 minutes in all on two shared cores, most of it the servers' and Chromium's starts.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
OUT = ROOT / "out" / "bench"
CHROMIUM = "/usr/bin/chromium"               # benchmarks/bench_app.py's: Debian's

# script -> (its smoke result in out/bench/, the top-level keys that result must have)
SMOKE_RUNS = {
    "bench_app.py": ("app-smoke.json", {"smoke", "mode", "latency_ms", "latency_parts_median_ms", "cold_start_s",
                                        "server_memory", "server_offline_median_ms", "runs", "env"}),
    "bench_attribution.py": ("attribution-smoke.json", {"smoke", "model", "src_len", "rows", "steps", "s", "tsv",
                                                        "env"}),
    "bench_class.py": ("class-smoke.json", {"smoke", "sessions", "sessions_started", "actions", "page_actions",
                                            "errors", "server", "server_samples", "results", "env"}),
    "bench_cost.py": ("cost-smoke.json", {"environment", "runs"}),
    "bench_decode.py": ("decode-smoke.json", {"smoke", "model", "parameters", "src_len", "greedy_out_len",
                                              "beam_out_len", "ms", "env"}),
    "bench_figures.py": ("figures-smoke.json", {"environment", "smoke", "tokens", "repeats", "baseline", "ms"}),
    "bench_marian.py": ("marian-smoke.json", {"smoke", "environment", "loads", "decode_ms", "ratio_to_bundled_greedy",
                                              "parameters", "folder_mb", "output_tokens"}),
    "bench_train.py": ("train-smoke.json", {"smoke", "config", "parameters", "tokens_per_s", "ratio", "meets_target",
                                            "env"}),
}
SCRIPTS = sorted(p.name for p in BENCH.glob("bench_*.py"))


def test_every_benchmark_has_a_smoke_run():
    assert set(SCRIPTS) <= set(SMOKE_RUNS), (f"{sorted(set(SCRIPTS) - set(SMOKE_RUNS))}: give each a --smoke mode and "
                                             "an entry in tests/test_benchmarks.py's SMOKE_RUNS")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--smoke" in readme and "tests/test_benchmarks.py" in readme
    for script in SCRIPTS:
        doc = (BENCH / script).read_text(encoding="utf-8").split('"""')[1]
        assert f"{script} --smoke" in doc, f"{script}'s docstring does not say how to run its --smoke"


def smoke(script: str, *args: str, result: str | None = None) -> dict:
    """Run the script with --smoke (and args) -> its smoke result (SMOKE_RUNS' file, or `result`), checked to be
    new and to leave the real result alone."""
    name, keys = SMOKE_RUNS[script]
    name = result or name
    target, real = OUT / name, OUT / name.replace("-smoke", "")
    real_before = real.stat().st_mtime_ns if real.exists() else None
    start = time.time()
    proc = subprocess.run([sys.executable, str(BENCH / script), "--smoke", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"})
    took = time.time() - start
    log = f"{script} --smoke: exit {proc.returncode} after {took:.1f} s\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    print(f"{script} --smoke: {took:.1f} s")
    assert proc.returncode == 0, log
    assert target.is_file() and target.stat().st_mtime >= start - 1, f"{target} not written\n{log}"
    assert (real.stat().st_mtime_ns if real.exists() else None) == real_before, f"{real} was touched by --smoke"
    result = json.loads(target.read_text(encoding="utf-8"))
    assert keys <= set(result), f"{target} lacks {sorted(keys - set(result))}"
    if "smoke" in keys:
        assert result["smoke"] is True
    return result


@pytest.mark.parametrize("script", [s for s in SCRIPTS if s not in ("bench_app.py", "bench_class.py")])
def test_smoke_run(script):
    result = smoke(script)
    if script == "bench_decode.py":
        assert {"greedy", "beam4", "trace"} <= set(result["ms"]) and result["ms"]["greedy"]["median"] > 0
    elif script == "bench_attribution.py":
        assert set(result["s"]) == {"saliency", "input_x_gradient", "integrated_gradients"}
        assert all(r["same_scores"] for r in result["s"].values())
        assert len(result["tsv"]["sentences"]) == 1                 # a real sentence, translated and attributed
    elif script == "bench_train.py":
        assert result["ratio"] > 0 and result["rounds"] == 1
    elif script == "bench_marian.py":
        assert {"bundled greedy", "opus-mt-en-de int8 beam4"} <= set(result["decode_ms"])
    elif script == "bench_cost.py":
        assert result["runs"]
    elif script == "bench_figures.py":
        assert {label: stats["median"] > 0 for label, stats in result["ms"].items()} == {
            f"{name} (this tree)": True for name in ("heatmap", "line", "heatmap, projector",
                                                     "training log, 3 panels, 6 rounds", "lrate, warm-up and 6 rounds",
                                                     "replay frame", "encodings, 2 lengths", "cost of attention",
                                                     "mask leak")}


def test_smoke_app_in_chromium():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: bench_app.py needs Debian's chromium "
                    "(`make test` installs it as root; else `sudo apt-get install chromium fonts-noto-cjk`)",
                    pytrace=False)
    result = smoke("bench_app.py")
    timed = [r for r in result["runs"] if not r["warmup"]]
    assert len(timed) == 1 and result["latency_ms"]["n"] == 1
    assert 0 < timed[0]["text_ms"] <= timed[0]["ms"]                # the translation showed, then every heatmap
    assert result["charts_on_page"] >= 1
    assert result["server_memory"]["after_model_loaded"]["rss_mb"] > 100


def test_smoke_architecture_page_in_chromium():
    """bench_app.py --page architecture: Enter on the Architecture page, a block's panel open, its heads redrawn."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: bench_app.py needs Debian's chromium", pytrace=False)
    result = smoke("bench_app.py", "--page", "architecture", result="app-architecture-smoke.json")
    timed = [r for r in result["runs"] if not r["warmup"]]
    assert result["page"] == "architecture" and len(timed) == 1 and result["latency_ms"]["n"] == 1
    assert result["charts_on_page"] >= 1 and 0 < timed[0]["plots_ms"] <= timed[0]["ms"]


def test_smoke_class():
    """What tests/test_bench_class.py checked on a 5-student, 20 s run, now on the smoke run: every kind of
    action happens, none fails, and the report and its plot are complete."""
    start = time.time()
    report = smoke("bench_class.py")
    assert report["errors"] == 0, report["error_messages"]
    assert report["sessions"] == report["sessions_started"] == 2
    assert report["sessions_with_errors"] == 0 and report["unexpected_exceptions"] == []
    kinds = ("open", "sentence", "tab", "page", "upload", "load_checkpoint")
    assert set(report["actions"]) == set(kinds)
    for kind in kinds:
        stats = report["actions"][kind]
        assert stats["n"] >= 1, f"no {kind} action in the run"
        assert stats["errors"] == 0
        assert 0 < stats["p50_ms"] <= stats["p95_ms"] <= stats["max_ms"]
    assert report["actions"]["open"]["n"] == 2
    pages = report["page_actions"]
    assert "checkpoints" in pages and "home" in pages                         # the uploader's way there and back
    assert sum(p["n"] for p in pages.values()) == report["actions"]["page"]["n"]
    assert report["action_count"] == len(report["results"]) == sum(a["n"] for a in report["actions"].values())

    sentences = [r for r in report["results"] if r["action"] == "sentence"]
    assert len({r["detail"] for r in sentences}) == len(sentences)           # every sentence new
    assert all(r["heatmaps"] >= 1 for r in sentences)                         # its heatmaps arrived

    samples = report["server_samples"]
    assert report["server_process"].startswith("python")                    # the server it started, sampled
    assert samples                                                            # one a second
    assert all(s["rss_mb"] > 100 and s["cpu_percent"] >= 0 and 0 <= s["machine_cpu_percent"] <= 100 for s in samples)
    assert max(s["sessions"] for s in samples) >= 1
    assert report["server"]["rss_mb_max"] == max(s["rss_mb"] for s in samples)
    assert report["server"]["cpu_percent_mean"] is not None

    for path in (OUT / "class-smoke.png", OUT / "class-smoke.server.log"):
        assert path.stat().st_mtime >= start - 1, f"{path} not written"
    assert (OUT / "class-smoke.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
