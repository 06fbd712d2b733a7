"""A `streamlit run` subprocess and headless Chromium, for the browser tests and benchmarks/bench_app.py:
a free port, the health check, stopping the server's whole process group, Chromium's flags."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import urllib.request

CHROMIUM = os.environ.get("ATLAS_CHROMIUM") or "/usr/bin/chromium"   # Debian's; Playwright downloads none
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the server's own process group (it was started in a new session), SIGKILL after 10 s."""
    if proc.poll() is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(10)
            return
        except subprocess.TimeoutExpired:
            continue
