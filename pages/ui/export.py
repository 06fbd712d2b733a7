"""The numbers behind a figure, as CSV and JSON for download (no Streamlit here)."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

Data = pd.DataFrame | Mapping[str, pd.DataFrame]


def unique_labels(tokens: Sequence[str]) -> list[str]:
    """Token labels made unique by their position: ["0 <bos>", "1 I", …]."""
    return [f"{i} {tok}" for i, tok in enumerate(tokens)]


def matrix_frame(matrix, row_labels: Sequence[str] | None = None,
                 col_labels: Sequence[str] | None = None) -> pd.DataFrame:
    """A 2-D array as a DataFrame with (made unique) row and column labels."""
    arr = np.asarray(matrix, dtype=float)
    if arr.ndim == 1:
        arr = arr[None, :]
    rows = list(row_labels) if row_labels is not None else [str(i) for i in range(arr.shape[0])]
    cols = list(col_labels) if col_labels is not None else [str(j) for j in range(arr.shape[1])]
    if len(set(rows)) < len(rows):
        rows = unique_labels(rows)
    if len(set(cols)) < len(cols):
        cols = unique_labels(cols)
    return pd.DataFrame(arr, index=rows, columns=cols)


def _frames(data: Data) -> dict[str, pd.DataFrame]:
    if isinstance(data, pd.DataFrame):
        return {"data": data}
    return {str(name): frame for name, frame in data.items()}


def to_csv(data: Data) -> bytes:
    frames = _frames(data)
    if len(frames) == 1:
        return next(iter(frames.values())).to_csv().encode("utf-8")
    parts = []
    for name, frame in frames.items():
        parts.append(f"# {name}\n" + frame.to_csv())
    return "\n".join(parts).encode("utf-8")


def _clean(value):
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "-inf" if value < 0 else "inf"
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    return value


def to_json(data: Data) -> bytes:
    out = {}
    for name, frame in _frames(data).items():
        split = frame.to_dict(orient="split")
        out[name] = {"index": _clean(list(split["index"])), "columns": _clean(list(split["columns"])),
                     "data": _clean(split["data"])}
    return json.dumps(out, ensure_ascii=False, indent=1).encode("utf-8")


def safe_filename(*parts: str) -> str:
    """attention-atlas_<page>_<figure>_<lang> with only [A-Za-z0-9_-]."""
    name = "_".join(["attention-atlas", *[str(p) for p in parts if p]])
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
