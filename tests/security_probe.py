"""Run an attack in a fresh Python process under an address-space limit, and report its peak memory.

    run_probe(code) -> Probe(returncode, output, peak_mb)

The code runs after `import torch` and the project's loaders, so the baseline (the same process with
code "pass") holds what every probe pays; a fixed attack stays near it.  RLIMIT_AS stops a regression
from taking the machine down: the probe then fails with MemoryError instead."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRELUDE = """
import resource, json, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
import torch
torch.set_num_threads(1)
from transformer_core.checkpoints import hub, upload, marian
from transformer_core.checkpoints.load import load_checkpoint
result = {{}}
try:
{body}
except Exception as err:
    result["error"] = type(err).__name__
    result["code"] = getattr(err, "code", None)
    result["message"] = str(err)
# VmHWM, the peak resident memory of this program (ru_maxrss would also count the parent's before exec)
result["peak_mb"] = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")) / 1024
print("PROBE" + json.dumps(result))
"""


@dataclass
class Probe:
    returncode: int
    result: dict
    output: str

    @property
    def peak_mb(self) -> float:
        return self.result.get("peak_mb", float("inf"))


def run_probe(body: str, limit_mb: int = 6000, env: dict | None = None, timeout: float = 120) -> Probe:
    code = PRELUDE.format(limit=limit_mb << 20, body=textwrap.indent(textwrap.dedent(body).strip() or "pass", "    "))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin", **(env or {})})
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("PROBE")), None)
    return Probe(done.returncode, json.loads(line[5:]) if line else {}, done.stdout + done.stderr)


_BASELINE: list[float] = []


def baseline_mb() -> float:
    """Peak memory of a probe that does nothing (measured once per test session)."""
    if not _BASELINE:
        _BASELINE.append(run_probe("pass").peak_mb)
    return _BASELINE[0]
