"""The one validation step every checkpoint format goes through before anything is allocated: each file's
size against its cap (file_cap), JSON read within its cap, the weights file's header (names, dtypes,
shapes, offsets) against the shapes the config implies, and the tensors read (floating point, finite)
before a model is built.  Weights are only ever read with safetensors here: nothing is unpickled."""
from __future__ import annotations

import json
import math
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file

from . import seen
from .files import HISTORY, MB, WEIGHTS, CheckpointError

MAX_HEADER_BYTES = MB                      # a safetensors header: the JSON before the tensors
MAX_TENSORS = 4096                         # entries in it (a Marian model of 6 + 6 layers has 260)
MAX_DIMS = 8                               # dimensions of a tensor (the models here have at most 2)
MAX_DIM = 1 << 40                          # the size of one dimension is below this
DTYPES = {"F32": 4, "F16": 2, "BF16": 2}   # the weights' element types read, with their sizes in bytes
QUANTIZED_DTYPES = {**DTYPES, "I8": 1}     # a quantized model's (model/quantize.py): int8 matrices too
DTYPE_NAMES = {"F32": "float32", "F16": "float16", "BF16": "bfloat16", "I8": "int8"}


def file_cap(name: str) -> int | None:
    """The most bytes a checkpoint file may hold, by its name (None: weights, which the upload limits cap):
    JSON, the card and gold alignments 1 MB, training logs, tokenizers and vocab.json 8 MB, the attention
    history 16 MB.  Uploads are checked when copied (upload.py) and every folder again when loaded."""
    if name == HISTORY:
        return 16 * MB
    if name.endswith((".safetensors", ".bin")):
        return None
    if name == seen.WORDS:
        return seen.MAX_BYTES
    if name.endswith((".jsonl", ".model", ".spm")) or name == "vocab.json":
        return 8 * MB
    return MB


def check_file_sizes(folder: Path, names) -> None:
    """Every file of `names` present in folder fits its cap; else CheckpointError, before anything is read."""
    for name in names:
        cap = file_cap(name)
        path = folder / name
        if cap is not None and path.is_file() and path.stat().st_size > cap:
            raise CheckpointError(f"{name} is larger than {cap // MB} MB, the most it may be")


def read_json(path: Path, default=None):
    """An optional JSON file of a checkpoint (default when the folder has none), read once, within its cap."""
    if not path.is_file():
        return default
    check_file_sizes(path.parent, [path.name])
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as err:      # ValueError: also bad UTF-8, a number of over 4,300 digits
        raise CheckpointError(f"{path.name} is not valid JSON: {err}") from None


def safetensors_header(path: Path, dtypes: dict[str, int] = DTYPES) -> dict[str, tuple[str, tuple[int, ...]]]:
    """{tensor name: (dtype, shape)} of a safetensors file, read from its header alone (an 8-byte length,
    then JSON): at most MAX_HEADER_BYTES and MAX_TENSORS entries, float32/16 or bfloat16, each tensor's
    bytes inside the file and as large as its shape says.  The number of dimensions is checked before
    anything else of a shape, each under MAX_DIM, so the check takes time linear in the header's size (no
    product of thousands of numbers).  Nothing is allocated for the tensors."""
    name = path.name
    size = path.stat().st_size
    with open(path, "rb") as f:
        length = int.from_bytes(f.read(8), "little")
        if not 2 <= length <= min(MAX_HEADER_BYTES, size - 8):
            raise CheckpointError(f"{name} is not a valid safetensors file (a header of {length:,} bytes; "
                                  f"at most {MAX_HEADER_BYTES:,} are read)")
        try:
            header = json.loads(f.read(length))
        except (ValueError, RecursionError) as err:  # ValueError: also bad UTF-8, a number of over 4,300 digits
            raise CheckpointError(f"{name} is not a valid safetensors file (its header: {err})") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{name} is not a valid safetensors file (its header is not a JSON object)")
    header.pop("__metadata__", None)
    if len(header) > MAX_TENSORS:
        raise CheckpointError(f"{name} holds {len(header):,} tensors, more than the {MAX_TENSORS:,} read")
    entries, data = {}, size - 8 - length
    for tensor, info in header.items():
        shape = info.get("shape") if isinstance(info, dict) else None
        if isinstance(shape, list) and len(shape) > MAX_DIMS:
            raise CheckpointError(f"{name} is not a valid safetensors file (tensor {tensor!r} has {len(shape):,} "
                                  f"dimensions, more than the {MAX_DIMS} read)")
        ok = isinstance(shape, list) \
            and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < MAX_DIM for n in shape) \
            and isinstance(info.get("data_offsets"), list) and len(info["data_offsets"]) == 2 \
            and all(isinstance(n, int) and not isinstance(n, bool) for n in info["data_offsets"])
        if not ok:
            raise CheckpointError(f"{name} is not a valid safetensors file (tensor {tensor!r} is described wrongly)")
        if info.get("dtype") not in dtypes:
            names = [DTYPE_NAMES[d] for d in dtypes]
            raise CheckpointError(f"tensor '{tensor}' has dtype {info.get('dtype')}; expected "
                                  f"{', '.join(names[:-1])} or {names[-1]}")
        start, end = info["data_offsets"]
        if not 0 <= start <= end <= data or end - start != math.prod(shape) * dtypes[info["dtype"]]:
            raise CheckpointError(f"{name} is not a valid safetensors file (tensor {tensor!r} lies outside the "
                                  "file or does not fill its shape)")
        entries[tensor] = (info["dtype"], tuple(shape))
    return entries


def check_names_and_shapes(found: dict[str, tuple[int, ...]], expected: dict[str, tuple[int, ...]], file: str,
                           optional: dict[str, tuple[int, ...]] | None = None) -> None:
    """The weights file holds every expected tensor with its shape, and nothing but those (and `optional`)."""
    optional = optional or {}
    missing = sorted(set(expected) - set(found))
    unexpected = sorted(set(found) - set(expected) - set(optional))
    if missing:
        raise CheckpointError(f"{file} lacks tensors the config needs: {', '.join(missing[:5])}"
                              + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""))
    if unexpected:
        raise CheckpointError(f"{file} has tensors the config does not know: {', '.join(unexpected[:5])}")
    for name, shape in found.items():
        want = expected.get(name, optional.get(name))
        if tuple(shape) != tuple(want):
            raise CheckpointError(f"tensor '{name}' has shape {tuple(shape)}, but config.json implies {want}")


def read_safetensors(path: Path) -> dict[str, torch.Tensor]:
    """The tensors of a safetensors file whose header was checked (safetensors_header)."""
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError) as err:
        raise CheckpointError(f"{path.name} is not a valid safetensors file ({err})") from None


def check_state(state: dict[str, torch.Tensor], expected: dict[str, tuple[int, ...]], file: str = WEIGHTS) -> None:
    """The tensors read: the names and shapes the config implies (model.transformer.state_shapes), floating
    point, finite.  Called before the model is built."""
    check_names_and_shapes({name: tuple(t.shape) for name, t in state.items()}, expected, file)
    for name, tensor in state.items():
        if tensor.dtype not in (torch.float32, torch.float16, torch.bfloat16):
            raise CheckpointError(f"tensor '{name}' has dtype {tensor.dtype}; expected float32, float16 or bfloat16")
        if not finite(tensor):
            raise CheckpointError(f"tensor '{name}' holds NaN or infinite values")


def finite(tensor: torch.Tensor) -> bool:
    """No NaN or ±inf in a floating-point tensor: its least and greatest values are finite (min and max carry a
    NaN through).  Without a copy: isfinite(tensor).all() made a bool tensor of its size (and of a bfloat16 one a
    float32 copy first), 4-6x as slow (7.6 M weights of checkpoints/enko: ~10 against ~45 ms)."""
    if tensor.numel() == 0:
        return True
    low, high = torch.aminmax(tensor)
    return bool(torch.isfinite(low) & torch.isfinite(high))
