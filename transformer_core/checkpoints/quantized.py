"""Reading a quantized checkpoint folder (model/quantize.py says how the weights are stored).

A folder prepared for a school (prepare.py) holds the files of the folder it was made from, this project's
or Marian's, and prepared.json; when prepared.json names a quantization ("int8" or "bf16"), model.safetensors
holds the quantized state dict of this project's Transformer (by our parameter names, the matrices int8 or
bfloat16).  Every format's reader (folder.py, marian.py) asks scheme() and, for a quantized folder, builds
the model with load_model(): the header is checked against the shapes and dtypes the config implies before
anything is read, and no float32 copy of the weights is ever made.
"""
from __future__ import annotations

from pathlib import Path

from ..model.config import ModelConfig
from ..model.quantize import SCHEMES, build_quantized, quantized_shapes
from ..model.transformer import Transformer
from .files import PREPARED, CheckpointError
from .validate import QUANTIZED_DTYPES, check_names_and_shapes, finite, read_json, read_safetensors, safetensors_header

UNTIED = {"src_embedding.weight_q": "share_src_embedding", "output.weight_q": "tie_output"}  # present: not shared


FIELDS = {"family": str, "source": str, "quantization": str, "greedy_ms": (int, float), "greedy_tokens": int,
          "measured": str}                               # what prepare.py writes, and the app reads


def read_prepared(folder: Path) -> dict:
    """prepared.json's known fields of the right types, text at most 100 characters ({} when there is none)."""
    data = read_json(folder / PREPARED, {})
    if not isinstance(data, dict):
        raise CheckpointError(f"{PREPARED} must hold a JSON object")
    return {key: value for key, value in data.items() if key in FIELDS and isinstance(value, FIELDS[key])
            and not isinstance(value, bool) and len(str(value)) <= 100}


def scheme(folder: Path) -> str | None:
    """The folder's quantization scheme ("int8", "bf16"), or None for float weights."""
    value = read_prepared(folder).get("quantization")
    if value is not None and value not in SCHEMES:
        raise CheckpointError(f"{PREPARED}: quantization must be one of {', '.join(SCHEMES)}, got {str(value)[:20]!r}")
    return value


def ties(path: Path, cfg: ModelConfig) -> ModelConfig:
    """cfg with the embedding ties and the logits bias that the quantized file's tensor names show (a Marian
    config.json does not say them; they were read off the float weights when the folder was quantized)."""
    names = set(safetensors_header(path, QUANTIZED_DTYPES))
    flags = {flag: name not in names for name, flag in UNTIED.items()}
    return ModelConfig(**{**vars(cfg), **flags, "logits_bias": "logits_bias" in names})


def load_model(path: Path, cfg: ModelConfig, quantization: str) -> Transformer:
    """The quantized model of model.safetensors: names, shapes and dtypes checked from the header against
    quantized_shapes(cfg), then the tensors read (floats finite, scales positive) and taken as they are."""
    expected = quantized_shapes(cfg, quantization)
    header = safetensors_header(path, QUANTIZED_DTYPES)
    check_names_and_shapes({name: shape for name, (_, shape) in header.items()},
                           {name: shape for name, (shape, _) in expected.items()}, path.name)
    state = read_safetensors(path)
    for name, tensor in state.items():
        dtype = expected[name][1]
        if tensor.dtype != dtype:
            raise CheckpointError(f"tensor '{name}' has dtype {tensor.dtype}; a {quantization} model has {dtype}")
        if tensor.is_floating_point() and not finite(tensor):
            raise CheckpointError(f"tensor '{name}' holds NaN or infinite values")
        if name.endswith(".scale") and not bool((tensor > 0).all()):
            raise CheckpointError(f"tensor '{name}' holds scales that are not positive")
    return build_quantized(cfg, quantization, state)
