"""Reading a training log (train.py's train_log.jsonl): JSON lines with step, lr, loss, tokens_per_s,
elapsed on training lines; validation lines add valid_loss and bleu (and may carry lr and loss too).

Reading is forgiving: a line that is not JSON (for example the half-written last line of a
log that is still growing) is skipped and counted, never raised.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

LOG_NAME = "train_log.jsonl"
TRAIN_KEYS = ("lr", "loss", "tokens_per_s", "elapsed")
VALID_KEYS = ("valid_loss", "bleu", "elapsed")
ALLOWED_DIRS = ("runs", "checkpoints")
MAX_BYTES = 64 * 1024 * 1024


class LogPathError(ValueError):
    """A log path the app will not read.  .reason is one of: empty, outside, not_jsonl, not_found."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class TrainLog:
    train: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in ("step", *TRAIN_KEYS)})
    valid: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in ("step", *VALID_KEYS)})
    skipped: int = 0        # lines that were not a JSON object with a step

    @property
    def empty(self) -> bool:
        return not self.train["step"] and not self.valid["step"]

    @property
    def last_step(self) -> int | None:
        steps = self.train["step"] + self.valid["step"]
        return int(max(steps)) if steps else None


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def parse_log(text: str) -> TrainLog:
    log = TrainLog()
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        row = _json(line)
        step = _number(row.get("step")) if row is not None else None
        if step is None:
            log.skipped += 1
            continue
        # a validation line may also carry the training numbers of its step (lr, loss, …)
        kinds = [(TRAIN_KEYS, log.train, any(k in row for k in ("lr", "loss", "tokens_per_s"))),
                 (VALID_KEYS, log.valid, "valid_loss" in row or "bleu" in row)]
        if not any(present for _, _, present in kinds):
            log.skipped += 1
            continue
        for keys, table, present in kinds:
            if present:
                table["step"].append(step)
                for key in keys:
                    table[key].append(_number(row.get(key)))   # None where missing: a gap in the plot
    return log


def round_starts_of(folder: str | Path) -> list[int]:
    """The steps at which a checkpoint's later runs began, when its log goes on from its base's (a fine-tune:
    training.json's init.round_starts); [] for a model trained in one run, or a training.json unread."""
    try:
        training = json.loads((Path(folder) / "training.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    init = training.get("init") if isinstance(training, dict) else None
    starts = init.get("round_starts") if isinstance(init, dict) else None
    return [int(s) for s in starts if _number(s) is not None] if isinstance(starts, list) else []


def continued_text(base: str, run: str) -> str:
    """A fine-tune's log after its base's: each run line's step (and elapsed time) counted on from the
    base's last, so the curves run from the first step of the first round to the last of this one."""
    rows = [row for row in (_json(line) for line in base.splitlines()) if row is not None]
    step = max((r["step"] for r in rows if _number(r.get("step")) is not None), default=0)
    elapsed = max((r["elapsed"] for r in rows if _number(r.get("elapsed")) is not None), default=0.0)
    for row in (_json(line) for line in run.splitlines()):
        if row is not None and _number(row.get("step")) is not None:
            row["step"] += step
            if _number(row.get("elapsed")) is not None:
                row["elapsed"] = round(row["elapsed"] + elapsed, 1)
            rows.append(row)
    return "".join(json.dumps(r) + "\n" for r in rows)


def _json(line: str) -> dict | None:
    try:
        row = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None
    return row if isinstance(row, dict) else None


def read_log(path: str | Path) -> TrainLog:
    """Read a train_log.jsonl (at most the last 64 MiB)."""
    path = Path(path)
    with path.open("rb") as fh:
        size = fh.seek(0, 2)
        fh.seek(max(0, size - MAX_BYTES))
        data = fh.read()
    text = data.decode("utf-8", errors="replace")
    if size > MAX_BYTES:                       # drop the partial first line
        text = text.split("\n", 1)[-1]
    return parse_log(text)


def find_logs(root: str | Path, folder: str = "checkpoints") -> list[Path]:
    """root/checkpoints/<name>/train_log.jsonl files, sorted by name."""
    base = Path(root) / folder
    if not base.is_dir():
        return []
    return sorted(p for p in base.glob(f"*/{LOG_NAME}") if p.is_file())


def resolve_log_path(text: str, root: str | Path, allowed: tuple[str, ...] = ALLOWED_DIRS) -> Path:
    """A user-typed log path, accepted only inside root/runs or root/checkpoints and ending .jsonl.

    Relative paths are taken from root.  Symbolic links and '..' are resolved before the check.
    Raises LogPathError(reason).
    """
    text = (text or "").strip()
    if not text:
        raise LogPathError("empty")
    if "\x00" in text:
        raise LogPathError("outside")
    root = Path(root).resolve()
    candidate = Path(text).expanduser()
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = candidate.resolve()
    if not any(resolved.is_relative_to(root / name) and resolved != root / name for name in allowed):
        raise LogPathError("outside")
    if resolved.suffix != ".jsonl":
        raise LogPathError("not_jsonl")
    if not resolved.is_file():
        raise LogPathError("not_found")
    return resolved
