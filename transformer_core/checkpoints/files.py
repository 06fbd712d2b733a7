"""The checkpoint, whatever its format: the Checkpoint every reader returns, its error, and the file names
of this project's own folder (config.json, model.safetensors, spm.model and the optional files)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import seen
from ..model.config import ModelConfig
from ..model.decoding import ALPHA, BEAM
from ..model.tokenizer import Tokenizer
from ..model.transformer import Transformer

CONFIG, WEIGHTS, TOKENIZER, LOG, CARD, EXAMPLES, TRAINING, HISTORY = (
    "config.json", "model.safetensors", "spm.model", "train_log.jsonl", "MODEL_CARD.md", "examples.json",
    "training.json",  # train.py's record (args, data manifest, results) the card is made from
    "attention_history.safetensors")  # the probe set's attention at every validation (history.py)
GOLD = "gold_alignments.tsv"   # src, tgt, Pharaoh links: generated pairs with their gold word alignment
PREPARED = "prepared.json"     # a folder prepared for a school (prepare.py): its name, quantization, speed
MAX_GOLD_BYTES = 1 << 20
REQUIRED = (CONFIG, WEIGHTS, TOKENIZER)
FILES = (*REQUIRED, LOG, CARD, EXAMPLES, TRAINING, HISTORY, GOLD, seen.WORDS, PREPARED)
MB = 1 << 20


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
    prepared: dict = field(default_factory=dict)  # prepared.json of a folder prepared for a server (prepare.py)

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
