"""The checkpoint folder: config.json, model.safetensors, spm.model, train_log.jsonl, MODEL_CARD.md.

Loading validates everything and raises CheckpointError with a clear message on each fault, and allocates
only what it has checked: every file's size against its cap (file_cap) before it is read, and the
weights file's header (names, dtypes, shapes, offsets) against the config before the model is built.
The same folder works with the Hugging Face Hub: see hub.py (save_pretrained / from_pretrained / push_to_hub).
Weights are only ever read with safetensors: nothing is unpickled.  A Hugging Face Marian folder (config.json
with model_type "marian") is read by marian.py into the same model; other Hugging Face models are refused.
"""
from __future__ import annotations

import json
import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from .config import ConfigError, ModelConfig
from .decoding import ALPHA, BEAM
from . import seen
from .model import Transformer, state_shapes
from .tokenizer import Tokenizer, TokenizerError

CONFIG, WEIGHTS, TOKENIZER, LOG, CARD, EXAMPLES, TRAINING, HISTORY = (
    "config.json", "model.safetensors", "spm.model", "train_log.jsonl", "MODEL_CARD.md", "examples.json",
    "training.json",  # train.py's record (args, data manifest, results) the card is made from
    "attention_history.safetensors")  # the probe set's attention at every validation (history.py)
GOLD = "gold_alignments.tsv"   # src, tgt, Pharaoh links: generated pairs with their gold word alignment
MAX_GOLD_BYTES = 1 << 20
REQUIRED = (CONFIG, WEIGHTS, TOKENIZER)
FILES = (*REQUIRED, LOG, CARD, EXAMPLES, TRAINING, HISTORY, GOLD, seen.WORDS)
MB = 1 << 20
MAX_HEADER_BYTES = MB                      # a safetensors header: the JSON before the tensors
MAX_TENSORS = 4096                         # entries in it (a Marian model of 6 + 6 layers has 260)
DTYPES = {"F32": 4, "F16": 2, "BF16": 2}   # the weights' element types read, with their sizes in bytes


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
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise CheckpointError(f"{path.name} is not valid JSON: {err}") from None


def safetensors_header(path: Path) -> dict[str, tuple[str, tuple[int, ...]]]:
    """{tensor name: (dtype, shape)} of a safetensors file, read from its header alone (an 8-byte length,
    then JSON): at most MAX_HEADER_BYTES and MAX_TENSORS entries, float32/16 or bfloat16, each tensor's
    bytes inside the file and as large as its shape says.  Nothing is allocated for the tensors."""
    name = path.name
    size = path.stat().st_size
    with open(path, "rb") as f:
        length = int.from_bytes(f.read(8), "little")
        if not 2 <= length <= min(MAX_HEADER_BYTES, size - 8):
            raise CheckpointError(f"{name} is not a valid safetensors file (a header of {length:,} bytes; "
                                  f"at most {MAX_HEADER_BYTES:,} are read)")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
            raise CheckpointError(f"{name} is not a valid safetensors file (its header: {err})") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{name} is not a valid safetensors file (its header is not a JSON object)")
    header.pop("__metadata__", None)
    if len(header) > MAX_TENSORS:
        raise CheckpointError(f"{name} holds {len(header):,} tensors, more than the {MAX_TENSORS:,} read")
    entries, data = {}, size - 8 - length
    for tensor, info in header.items():
        ok = isinstance(info, dict) and isinstance(info.get("shape"), list) \
            and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 1 << 40 for n in info["shape"]) \
            and isinstance(info.get("data_offsets"), list) and len(info["data_offsets"]) == 2 \
            and all(isinstance(n, int) and not isinstance(n, bool) for n in info["data_offsets"])
        if not ok:
            raise CheckpointError(f"{name} is not a valid safetensors file (tensor {tensor!r} is described wrongly)")
        if info.get("dtype") not in DTYPES:
            raise CheckpointError(f"tensor '{tensor}' has dtype {info.get('dtype')}; expected float32, float16 "
                                  "or bfloat16")
        start, end = info["data_offsets"]
        if not 0 <= start <= end <= data or end - start != math.prod(info["shape"]) * DTYPES[info["dtype"]]:
            raise CheckpointError(f"{name} is not a valid safetensors file (tensor {tensor!r} lies outside the "
                                  "file or does not fill its shape)")
        entries[tensor] = (info["dtype"], tuple(info["shape"]))
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


class CheckpointError(ValueError):
    """A checkpoint that cannot be loaded; the message says why."""


@dataclass
class Checkpoint:
    path: Path
    config: ModelConfig
    model: Transformer
    tokenizer: Tokenizer
    card: str = ""
    examples: list[dict] = field(default_factory=list)  # [{"src": …, "ref": …}], the app's example sentences
    training: dict = field(default_factory=dict)        # training.json, when the folder has one
    gold: dict[str, tuple[str, str]] = field(default_factory=dict)  # src -> (tgt, links), from GOLD
    search: dict = field(default_factory=dict)  # decoding options the model was made for (Marian: generate's)
    card_file: str = CARD                       # where the card comes from (a Hugging Face repo's: README.md)
    words: dict[str, int] = field(default_factory=dict)  # the training source side's word counts (seen.py)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def beam_options(self) -> dict:
        """beam_search's options for this model: the paper's (beam 4, α 0.6, GNMT's lp), overridden by the
        ones it was made for (search; a Marian checkpoint's come from generate's config)."""
        return {"beam": BEAM, "alpha": ALPHA, "penalty": "gnmt", **self.search}

    @property
    def log_path(self) -> Path | None:
        log = self.path / LOG
        return log if log.is_file() else None


def save_weights(model: Transformer, path: Path) -> None:
    """The model's state dict as one safetensors file."""
    state = {k: v.detach().contiguous().cpu() for k, v in model.state_dict().items()}
    save_file(state, str(path), metadata={"format": "pt"})
    path.chmod(0o644)  # safetensors writes 0600; an unprivileged server (Docker) must read it


def save_checkpoint(folder: str | Path, model: Transformer, tokenizer_file: str | Path,
                    card: str | None = None, examples: list[dict] | None = None) -> Path:
    """Write config, weights and tokenizer (and optionally card and examples) into folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model.cfg.save(folder / CONFIG)
    save_weights(model, folder / WEIGHTS)
    if Path(tokenizer_file).resolve() != (folder / TOKENIZER).resolve():
        shutil.copyfile(tokenizer_file, folder / TOKENIZER)
    if card is not None:
        (folder / CARD).write_text(card, encoding="utf-8")
    if examples is not None:
        (folder / EXAMPLES).write_text(json.dumps(examples, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return folder


def average_weights(files: list[Path]) -> dict[str, torch.Tensor]:
    """The element-wise mean of several safetensors files of one model's weights."""
    total = {k: v.double() for k, v in load_file(str(files[0])).items()}
    for f in files[1:]:
        for k, v in load_file(str(f)).items():
            total[k] += v.double()
    return {k: (v / len(files)).float() for k, v in total.items()}


def same_tokenizer(folder: Path, other: Path) -> bool:
    """Whether two folders (checkpoints or data folders) hold the same SentencePiece model, byte for byte."""
    return (Path(folder) / TOKENIZER).read_bytes() == (Path(other) / TOKENIZER).read_bytes()


def _read_weights(path: Path) -> dict[str, torch.Tensor]:
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError) as err:
        raise CheckpointError(f"{WEIGHTS} is not a valid safetensors file ({err})") from None


def _check_state(state: dict[str, torch.Tensor], model: Transformer) -> None:
    """The tensors read: the names and shapes of the model's state dict, floating point, finite."""
    check_names_and_shapes({name: tuple(t.shape) for name, t in state.items()},
                           {name: tuple(t.shape) for name, t in model.state_dict().items()}, WEIGHTS)
    for name, tensor in state.items():
        if tensor.dtype not in (torch.float32, torch.float16, torch.bfloat16):
            raise CheckpointError(f"tensor '{name}' has dtype {tensor.dtype}; expected float32, float16 or bfloat16")
        if not torch.isfinite(tensor.float()).all():
            raise CheckpointError(f"tensor '{name}' holds NaN or infinite values")


def load_checkpoint(folder: str | Path, config: dict | None = None) -> Checkpoint:
    """Load and validate a checkpoint folder; the model is returned in eval mode on the CPU.
    config: config.json's content when the caller has parsed it already (it is parsed once)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CheckpointError(f"checkpoint folder not found: {folder.name}")
    from . import marian    # (marian imports this module)
    check_file_sizes(folder, (*FILES, *marian.FILES, marian.README))
    try:
        data = config if config is not None else read_json(folder / CONFIG)
    except CheckpointError as err:
        raise CheckpointError(f"{CONFIG}: {err}") from None
    kind = marian.model_type(data)
    if kind is not None:
        if kind != "marian":
            raise marian.UnsupportedModel(kind)
        return marian.load_marian(folder, data)
    missing = [f for f in REQUIRED if not (folder / f).is_file()]
    if missing:
        raise CheckpointError(f"checkpoint is missing {', '.join(missing)} (a checkpoint holds {', '.join(REQUIRED)})")
    try:
        config = ModelConfig.from_dict(data)
    except (ConfigError, TypeError, ValueError, OverflowError) as err:
        raise CheckpointError(f"{CONFIG}: {err}") from None
    try:
        tokenizer = Tokenizer.load(folder / TOKENIZER)
    except TokenizerError as err:
        raise CheckpointError(f"{TOKENIZER}: {err}") from None
    if tokenizer.vocab_size != config.vocab_size:
        raise CheckpointError(f"vocabulary mismatch: {TOKENIZER} has {tokenizer.vocab_size} pieces, "
                              f"{CONFIG} says vocab_size = {config.vocab_size}")
    specials = {"pad_id": tokenizer.pad_id, "unk_id": tokenizer.unk_id,
                "bos_id": tokenizer.bos_id, "eos_id": tokenizer.eos_id}
    for name, value in specials.items():
        if getattr(config, name) != value:
            raise CheckpointError(f"vocabulary mismatch: {TOKENIZER} has {name} = {value}, "
                                  f"{CONFIG} says {getattr(config, name)}")
    header = safetensors_header(folder / WEIGHTS)
    check_names_and_shapes({name: shape for name, (_, shape) in header.items()}, state_shapes(config), WEIGHTS)
    state = _read_weights(folder / WEIGHTS)
    model = Transformer(config)
    _check_state(state, model)
    model.load_state_dict(state)
    del state
    model.eval()
    card = (folder / CARD).read_text(encoding="utf-8", errors="replace") if (folder / CARD).is_file() else ""
    return Checkpoint(folder, config, model, tokenizer, card, read_examples(folder / EXAMPLES),
                      read_training(folder / TRAINING), _read_gold(folder / GOLD), words=seen.load(folder / seen.WORDS))


def read_examples(path: Path) -> list[dict]:
    """examples.json: a list of {"src": text, "ref": text (optional)}."""
    examples = read_json(path, [])
    if not isinstance(examples, list) or not all(
            isinstance(e, dict) and isinstance(e.get("src"), str) and isinstance(e.get("ref", ""), str)
            for e in examples):
        raise CheckpointError(f"{EXAMPLES} must be a list of {{\"src\": …, \"ref\": …}} objects with text values")
    return examples


def read_training(path: Path) -> dict:
    """training.json: an object, whose parts the app reads are well formed: alignment.best (a layer and a
    head), data.manifest.source (an object, its mixed_with a list of objects)."""
    training = read_json(path, {})
    if not isinstance(training, dict):
        raise CheckpointError(f"{TRAINING} must hold a JSON object")
    best = training.get("alignment", {}).get("best", [0, 0]) if isinstance(training.get("alignment", {}), dict) else None
    if not (isinstance(best, list) and len(best) == 2 and all(isinstance(i, int) and not isinstance(i, bool)
                                                                and 0 <= i < 1000 for i in best)):
        raise CheckpointError(f"{TRAINING}: alignment.best must be a layer and a head, e.g. [2, 3]")
    data = training.get("data", {})
    manifest = data.get("manifest", {}) if isinstance(data, dict) else None
    source = manifest.get("source", {}) if isinstance(manifest, dict) else None
    mixed = source.get("mixed_with", []) if isinstance(source, dict) else None
    if not (isinstance(mixed, list) and all(isinstance(m, dict) and isinstance(m.get("source", {}), dict)
                                            for m in mixed)):
        raise CheckpointError(f"{TRAINING}: data.manifest.source must be an object, its mixed_with a list of objects")
    return training


def _read_gold(path: Path) -> dict[str, tuple[str, str]]:
    """GOLD's well-formed lines (src, tgt, links of word indices in range); other lines are skipped."""
    if not path.is_file() or path.stat().st_size > MAX_GOLD_BYTES:
        return {}
    gold = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        cells = line.split("\t")
        if len(cells) != 3:
            continue
        src, tgt, links = cells
        try:
            pairs = [tuple(int(x) for x in link.split("-")) for link in links.split()]
        except ValueError:
            continue
        if pairs and all(len(p) == 2 and 0 <= p[0] < len(src.split()) and 0 <= p[1] < len(tgt.split()) for p in pairs):
            gold[src] = (tgt, links)
    return gold
