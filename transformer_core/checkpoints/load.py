"""The one door: load_checkpoint(folder) checks every file's size against its cap, reads config.json
once, tells the format by it (a Hugging Face config names its model_type) and hands the folder to that
format's reader: this project's (folder.py) or Marian's (marian.py).  Every reader returns the same
Checkpoint and goes through validate.py before building a model; no reader imports this module."""
from __future__ import annotations

from pathlib import Path

from . import folder as own
from . import marian
from .files import CONFIG, FILES, Checkpoint, CheckpointError
from .validate import check_file_sizes, read_json


def load_checkpoint(folder: str | Path, config: dict | None = None) -> Checkpoint:
    """Load and validate a checkpoint folder of any format; the model is returned in eval mode on the CPU.
    config: config.json's content when the caller has parsed it already (it is parsed once)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CheckpointError(f"checkpoint folder not found: {folder.name}")
    check_file_sizes(folder, dict.fromkeys((*FILES, *marian.FILES, marian.README)))
    try:
        data = config if config is not None else read_json(folder / CONFIG)
    except CheckpointError as err:
        raise CheckpointError(f"{CONFIG}: {err}") from None
    kind = marian.model_type(data)
    if kind is None:
        return own.load_folder(folder, data)
    if kind != "marian":
        raise marian.UnsupportedModel(kind)
    return marian.load_marian(folder, data)
