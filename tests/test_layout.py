"""transformer_core's house (transformer_core/README.md): every module in a room by concern, the rooms on
floors that import only downwards, no import circle, one door per checkpoint format, no Streamlit."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "transformer_core"
# floor of each room: a module imports from its own room or from rooms on lower floors only
FLOORS = {"model": 0, "checkpoints": 1, "data": 1, "explainer": 2, "training": 3, "serving": 3}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """{module: the transformer_core modules it imports} (a name imported from a package counts as that
    submodule when it is one, else as the package)."""
    modules = {module_name(p): p for p in CORE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                elif (node.module or "").split(".")[0] == "transformer_core":
                    target = node.module
                else:
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    found.add(sub if sub in modules else target)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in modules)
        graph[name] = {m for m in found if m != name and m in modules}
    return graph


def room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in FLOORS) else None


def test_every_module_lives_in_a_room():
    loose = [m for m in imports() if room(m) is None and m not in ("transformer_core", "transformer_core.__main__")]
    assert loose == []


def test_rooms_import_only_downwards():
    wrong = [(a, b) for a, bs in imports().items() for b in bs
             if room(a) and room(b) and room(a) != room(b) and FLOORS[room(b)] >= FLOORS[room(a)]]
    assert wrong == []


def test_no_import_circle():
    graph, state, circles = imports(), {}, []

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"
    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert circles == []


def test_one_door_per_checkpoint_format():
    """load.py alone tells the formats apart; no reader imports it; both readers validate with validate.py."""
    graph = imports()
    door = "transformer_core.checkpoints.load"
    readers = {"transformer_core.checkpoints.folder", "transformer_core.checkpoints.marian"}
    assert readers <= graph[door]
    for reader in readers:
        assert door not in graph[reader] and "transformer_core.checkpoints.validate" in graph[reader]
    assert {m for m, deps in graph.items() if door in deps} & readers == set()


def test_the_core_never_imports_streamlit():
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "streamlit" for n in names), path


def test_the_command_line_door_lists_every_command():
    """`python -m transformer_core` as a shell runs it (each command's own --help: the test below, in this process,
    as a subprocess would give it but without importing torch again)."""
    from transformer_core.__main__ import COMMANDS

    done = subprocess.run([sys.executable, "-m", "transformer_core", "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0 and all(c in done.stderr for c in COMMANDS)
    bad = subprocess.run([sys.executable, "-m", "transformer_core", "nonsense"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "usage" in bad.stderr


@pytest.mark.parametrize("command", sorted(__import__("transformer_core.__main__").__main__.COMMANDS))
def test_every_command_answers_help(command, capsys, monkeypatch):
    """Each command's --help prints its usage under the door's name (argparse exits 0), never a traceback."""
    from transformer_core.__main__ import main

    monkeypatch.setattr(sys, "argv", ["pytest"])         # the door names the program in sys.argv[0]
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0 and f"python -m transformer_core {command}" in capsys.readouterr().out
