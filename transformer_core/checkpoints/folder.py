"""This project's checkpoint folder: config.json, model.safetensors, spm.model, and optionally
train_log.jsonl, README.md (the model card; MODEL_CARD.md in older folders), examples.json, training.json,
attention_history.safetensors, gold_alignments.tsv and source_words.json.gz.  Its reader (load_folder) and its writers.
The same folder works with the Hugging Face Hub: see hub.py."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from ..model.config import ConfigError, ModelConfig
from ..model.tokenizer import Tokenizer, TokenizerError
from ..model.transformer import Transformer, from_state, state_shapes
from . import quantized, seen
from .files import (
    CARD,
    CONFIG,
    EXAMPLES,
    GOLD,
    MAX_GOLD_BYTES,
    OLD_CARD,
    REQUIRED,
    TOKENIZER,
    TRAINING,
    WEIGHTS,
    Checkpoint,
    CheckpointError,
    read_card,
)
from .validate import check_names_and_shapes, check_state, read_json, read_safetensors, safetensors_header


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
        write_card(folder, card)
    if examples is not None:
        (folder / EXAMPLES).write_text(json.dumps(examples, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return folder


def write_card(folder: Path, card: str) -> Path:
    """Write the model card as README.md (the file the Hub shows), and remove an older MODEL_CARD.md, which
    it replaces."""
    (Path(folder) / CARD).write_text(card, encoding="utf-8")
    (Path(folder) / OLD_CARD).unlink(missing_ok=True)
    return Path(folder) / CARD


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


def load_folder(folder: Path, data: dict) -> Checkpoint:
    """This project's folder -> Checkpoint, the model in eval mode on the CPU.  data: config.json's content."""
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
    quantization = quantized.scheme(folder)
    model = quantized.load_model(folder / WEIGHTS, config, quantization) if quantization \
        else _float_model(folder / WEIGHTS, config)
    card, card_file = read_card(folder)
    return Checkpoint(folder, config, model, tokenizer, card, read_examples(folder / EXAMPLES),
                      read_training(folder / TRAINING), read_gold(folder / GOLD), card_file=card_file,
                      words=seen.load(folder / seen.WORDS), prepared=quantized.read_prepared(folder))


def _float_model(path: Path, config: ModelConfig) -> Transformer:
    """The model of a float32 (or 16-bit) weights file, checked from its header before it is read."""
    expected = state_shapes(config)
    header = safetensors_header(path)
    check_names_and_shapes({name: shape for name, (_, shape) in header.items()}, expected, WEIGHTS)
    state = read_safetensors(path)
    check_state(state, expected)
    return from_state(config, {name: t.float() for name, t in state.items()})     # 16-bit files: float32


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


def read_gold(path: Path) -> dict[str, tuple[str, str]]:
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
