"""The checkpoint, whatever its format: the Checkpoint every reader returns, its error, and the file names
of this project's own folder (config.json, model.safetensors, spm.model and the optional files)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..model.config import ModelConfig
from ..model.decoding import ALPHA, BEAM
from ..model.tokenizer import Tokenizer
from ..model.transformer import Transformer
from . import seen

CONFIG, WEIGHTS, TOKENIZER, LOG, CARD, EXAMPLES, TRAINING, HISTORY = (
    "config.json", "model.safetensors", "spm.model", "train_log.jsonl",
    "README.md",      # the model card, as the Hub shows it: YAML metadata, then the text (model_card.py)
    "examples.json",
    "training.json",  # train.py's record (args, data manifest, results) the card is made from
    "attention_history.safetensors")  # the probe set's attention at every validation (history.py)
OLD_CARD = "MODEL_CARD.md"     # the card's name before it became README.md: still read where there is no README.md
CARDS = (CARD, OLD_CARD)       # where a card is looked for, in this order
GOLD = "gold_alignments.tsv"   # src, tgt, Pharaoh links: generated pairs with their gold word alignment
PREPARED = "prepared.json"     # a folder prepared for a school (prepare.py): its name, quantization, speed
MAX_GOLD_BYTES = 1 << 20
REQUIRED = (CONFIG, WEIGHTS, TOKENIZER)
FILES = (*REQUIRED, LOG, CARD, OLD_CARD, EXAMPLES, TRAINING, HISTORY, GOLD, seen.WORDS, PREPARED)
MB = 1 << 20


class CheckpointError(ValueError):
    """A checkpoint that cannot be loaded; the message says why."""


def read_card(folder: Path) -> tuple[str, str]:
    """The folder's model card and the file it was read from: README.md, else MODEL_CARD.md (a folder written
    before the card was renamed); ("", README.md) when there is none.  Its size was checked (validate.file_cap)."""
    name = next((name for name in CARDS if (Path(folder) / name).is_file()), CARD)
    path = Path(folder) / name
    return (path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""), name


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
    card_file: str = CARD                       # the file the card was read from (README.md, or an older MODEL_CARD.md)
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
