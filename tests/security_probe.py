"""Run an attack in a fresh process under an address-space limit, and report its peak memory.

    run_probe(code) -> Probe(returncode, result, output)

Each probe is a process of its own, forked from a small server that has imported torch once (1.3 s a process
otherwise, most of a probe's time): the child sets RLIMIT_AS, starts its peak-memory count afresh, imports the
project's loaders and runs the code.  The baseline (the same with code "pass") holds what every probe pays, so
a fixed attack stays near it.  RLIMIT_AS stops a regression from taking the machine down: the probe then fails
with MemoryError instead; a probe past its timeout is killed (returncode -9)."""
from __future__ import annotations

import atexit
import json
import subprocess
import sys
import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
PRELUDE = """
import resource, json, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
open("/proc/self/clear_refs", "w").write("5")        # VmHWM from here: what this probe holds, not its server
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
# VmHWM, the peak resident memory of this probe
result["peak_mb"] = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")) / 1024
print("PROBE" + json.dumps(result))
"""
# The server: one JSON request a line ({"code", "timeout"}), a forked child for each, one JSON answer a line
# ({"returncode", "output"}).  The child writes its output to a file of its own, so a pipe never fills.
SERVER = r"""
import json, os, sys, tempfile, time
import torch                                      # what every probe would import: once, here
for line in sys.stdin:
    request = json.loads(line)
    with tempfile.TemporaryFile() as out:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1); os.dup2(out.fileno(), 2)          # sys.stdout and stderr now write there
            code = 0
            try:
                exec(compile(request["code"], "<probe>", "exec"), {"__name__": "__probe__"})
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
            except BaseException:
                import traceback
                traceback.print_exc()
                code = 1
            sys.stdout.flush(); sys.stderr.flush()
            os._exit(code)
        deadline = time.monotonic() + request["timeout"]
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                done, status = os.waitpid(pid, 0)
                break
            time.sleep(0.01)
        out.seek(0)
        answer = {"returncode": os.waitstatus_to_exitcode(status), "output": out.read().decode(errors="replace")}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""


class _Server:
    """The fork server of this test process, started on first use, one probe at a time."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def run(self, code: str, timeout: float) -> dict:
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=ENV, text=True,
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                atexit.register(self.process.kill)
            self.process.stdin.write(json.dumps({"code": code, "timeout": timeout}) + "\n")
            self.process.stdin.flush()
            return json.loads(self.process.stdout.readline())


_SERVER = _Server()


@dataclass
class Probe:
    returncode: int
    result: dict
    output: str

    @property
    def peak_mb(self) -> float:
        return self.result.get("peak_mb", float("inf"))


def run_probe(body: str, limit_mb: int = 6000, timeout: float = 120) -> Probe:
    code = PRELUDE.format(limit=limit_mb << 20, body=textwrap.indent(textwrap.dedent(body).strip() or "pass", "    "))
    done = _SERVER.run(code, timeout)
    line = next((ln for ln in done["output"].splitlines() if ln.startswith("PROBE")), None)
    return Probe(done["returncode"], json.loads(line[5:]) if line else {}, done["output"])


_BASELINE: list[float] = []


def baseline_mb() -> float:
    """Peak memory of a probe that does nothing (measured once per test session)."""
    if not _BASELINE:
        _BASELINE.append(run_probe("pass").peak_mb)
    return _BASELINE[0]
