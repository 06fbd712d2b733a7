"""python -m transformer_core COMMAND … run in this test process: its main() with stdin, stdout and stderr as
strings, the global state a command sets (grad mode, torch's threads, sys.argv) put back afterwards.  A
second Python would spend 1.3 s importing torch; tests/test_layout.py checks the `python -m` door itself.

    in_process(["translate", "--checkpoint", folder, "-"], text="I like apples.\n") -> CompletedProcess"""
from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

import torch

from transformer_core.__main__ import main


def in_process(argv: list[str], text: str | None = None) -> subprocess.CompletedProcess:
    argv = [str(a) for a in argv]
    out, err, threads = io.StringIO(), io.StringIO(), torch.get_num_threads()
    try:
        with mock.patch.object(sys, "stdin", io.StringIO(text or "")), mock.patch.object(sys, "argv", ["x"]), \
                redirect_stdout(out), redirect_stderr(err), torch.enable_grad():
            try:
                code = main(argv)
            except SystemExit as stop:           # argparse's errors
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        torch.set_num_threads(threads)
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())
