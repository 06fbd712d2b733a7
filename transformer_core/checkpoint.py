"""The checkpoint folder: config.json, model.safetensors, spm.model, train_log.jsonl, MODEL_CARD.md.

Loading validates everything and raises CheckpointError with a clear message on each fault.
The same folder works with the Hugging Face Hub: see hub.py (save_pretrained / from_pretrained / push_to_hub).
Weights are only ever read with safetensors: nothing is unpickled.  A Hugging Face Marian folder (config.json
with model_type "marian") is read by marian.py into the same model; other Hugging Face models are refused.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from .config import ConfigError, ModelConfig
from .decoding import ALPHA, BEAM
from .model import Transformer
from .tokenizer import Tokenizer, TokenizerError

CONFIG, WEIGHTS, TOKENIZER, LOG, CARD, EXAMPLES, TRAINING, HISTORY = (
    "config.json", "model.safetensors", "spm.model", "train_log.jsonl", "MODEL_CARD.md", "examples.json",
    "training.json",  # train.py's record (args, data manifest, results) the card is made from
    "attention_history.safetensors")  # the probe set's attention at every validation (history.py)
GOLD = "gold_alignments.tsv"   # src, tgt, Pharaoh links: generated pairs with their gold word alignment
MAX_GOLD_BYTES = 1 << 20
REQUIRED = (CONFIG, WEIGHTS, TOKENIZER)
FILES = (*REQUIRED, LOG, CARD, EXAMPLES, TRAINING, HISTORY, GOLD)


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
    expected = model.state_dict()
    missing = sorted(set(expected) - set(state))
    unexpected = sorted(set(state) - set(expected))
    if missing:
        raise CheckpointError(f"{WEIGHTS} lacks tensors the config needs: {', '.join(missing[:5])}"
                              + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""))
    if unexpected:
        raise CheckpointError(f"{WEIGHTS} has tensors the config does not know: {', '.join(unexpected[:5])}")
    for name, tensor in state.items():
        want = tuple(expected[name].shape)
        if tuple(tensor.shape) != want:
            raise CheckpointError(f"tensor '{name}' has shape {tuple(tensor.shape)}, but config.json implies {want}")
        if not tensor.is_floating_point():
            raise CheckpointError(f"tensor '{name}' has dtype {tensor.dtype}; expected floating point")
        if not torch.isfinite(tensor).all():
            raise CheckpointError(f"tensor '{name}' holds NaN or infinite values")


def load_checkpoint(folder: str | Path) -> Checkpoint:
    """Load and validate a checkpoint folder; the model is returned in eval mode on the CPU."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CheckpointError(f"checkpoint folder not found: {folder}")
    from . import marian    # (marian imports this module)
    model_type = marian.hf_model_type(folder / CONFIG)
    if model_type is not None:
        if model_type != "marian":
            raise marian.UnsupportedModel(model_type)
        return marian.load_marian(folder)
    missing = [f for f in REQUIRED if not (folder / f).is_file()]
    if missing:
        raise CheckpointError(f"checkpoint is missing {', '.join(missing)} (a checkpoint holds {', '.join(REQUIRED)})")
    try:
        config = ModelConfig.load(folder / CONFIG)
    except (ConfigError, TypeError) as err:
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
    model = Transformer(config)
    state = _read_weights(folder / WEIGHTS)
    _check_state(state, model)
    model.load_state_dict(state)
    model.eval()
    card = (folder / CARD).read_text(encoding="utf-8", errors="replace") if (folder / CARD).is_file() else ""
    examples = _read_json(folder / EXAMPLES, [])
    if not isinstance(examples, list) or not all(isinstance(e, dict) and isinstance(e.get("src"), str)
                                                 for e in examples):
        raise CheckpointError(f"{EXAMPLES} must be a list of {{\"src\": …, \"ref\": …}} objects")
    training = _read_json(folder / TRAINING, {})
    if not isinstance(training, dict):
        raise CheckpointError(f"{TRAINING} must hold a JSON object")
    return Checkpoint(folder, config, model, tokenizer, card, examples, training, _read_gold(folder / GOLD))


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


def _read_json(path: Path, default):
    """An optional JSON file of the checkpoint, or default when the folder has none."""
    if not path.is_file():
        return default
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CheckpointError(f"{path.name} is not valid JSON: {err}") from None
