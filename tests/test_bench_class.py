"""The class load test (benchmarks/bench_class.py) on a short run, so that it cannot rot: 5 simulated
students for 20 s against a server of its own, speaking Streamlit's websocket protocol.  Every kind of
action happens (every 5th student uploads a checkpoint), none fails, and the report has its fields."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_short_class_run(tmp_path):
    out, png = tmp_path / "class.json", tmp_path / "class.png"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_class.py"), "--sessions", "5",
                           "--duration", "20", "--upload-every", "5", "--timeout", "120",
                           "--out", str(out), "--plot", str(png)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["errors"] == 0, report["error_messages"]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    assert report["sessions"] == report["sessions_started"] == 5
    assert report["sessions_with_errors"] == 0 and report["unexpected_exceptions"] == []
    kinds = ("open", "sentence", "tab", "page", "upload", "load_checkpoint")
    assert set(report["actions"]) == set(kinds)
    for kind in kinds:
        stats = report["actions"][kind]
        assert stats["n"] >= 1, f"no {kind} action in the run"
        assert stats["errors"] == 0
        assert 0 < stats["p50_ms"] <= stats["p95_ms"] <= stats["max_ms"]
    assert report["actions"]["open"]["n"] == 5
    pages = report["page_actions"]
    assert "checkpoints" in pages and "home" in pages                         # the uploader's way there and back
    assert sum(p["n"] for p in pages.values()) == report["actions"]["page"]["n"]
    assert report["action_count"] == len(report["results"]) == sum(a["n"] for a in report["actions"].values())

    sentences = [r for r in report["results"] if r["action"] == "sentence"]
    assert len({r["detail"] for r in sentences}) == len(sentences)           # every sentence new
    assert all(r["heatmaps"] >= 1 for r in sentences)                         # its heatmaps arrived

    samples = report["server_samples"]
    assert report["server_process"].startswith("python")                    # the server it started, sampled
    assert len(samples) >= 15                                                 # one a second
    assert all(s["rss_mb"] > 100 and s["cpu_percent"] >= 0 and 0 <= s["machine_cpu_percent"] <= 100 for s in samples)
    assert max(s["sessions"] for s in samples) >= 1
    server = report["server"]
    assert server["rss_mb_max"] == max(s["rss_mb"] for s in samples)
    assert server["cpu_percent_mean"] is not None

    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
