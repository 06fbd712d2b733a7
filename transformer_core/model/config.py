"""The model's hyper-parameters, saved as config.json next to the weights."""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path

ACTIVATIONS = ("relu", "gelu", "swish")      # swish(x) = x·sigmoid(x), also called SiLU
SINUSOID_LAYOUTS = ("interleaved", "halves")
LANGUAGE = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,3}")   # a BCP-47-like code: en, ko, pt-BR, zh-Hant
# ISO 639-2/3 codes that some Marian models give (tokenizer_config.json: "kor", "eng") -> ISO 639-1
LANGUAGE_CODES = {"eng": "en", "kor": "ko", "deu": "de", "ger": "de", "fra": "fr", "fre": "fr", "spa": "es",
                  "jpn": "ja", "zho": "zh", "chi": "zh", "cmn": "zh", "rus": "ru"}
MAX_INT = 2**31 - 1       # any size field; the upload limits (upload.UploadLimits) bound them much lower


def base_language(code) -> str:
    """The language of a code, lower-case, without its region or script: "ko", "kor", "ko-KR", "KO_kr" -> "ko";
    a code this project does not map stays as it is, lower-cased ("fi" -> "fi"); no code: ""."""
    code = str(code or "").strip().lower().replace("_", "-").split("-")[0]
    return LANGUAGE_CODES.get(code, code)


class ConfigError(ValueError):
    """A config.json that cannot describe a valid model."""


@dataclass
class ModelConfig:
    vocab_size: int = 8000
    d_model: int = 256
    n_heads: int = 4               # h; d_k = d_v = d_model / h
    n_encoder_layers: int = 3      # N
    n_decoder_layers: int = 3
    d_ff: int = 1024
    dropout: float = 0.1           # residual dropout P_drop
    max_len: int = 128             # longest sequence, in tokens, BOS/EOS included
    positional: str = "sinusoidal"  # or "learned"
    # What other encoder-decoder checkpoints (Hugging Face Marian, marian.py) do differently; the
    # defaults are this project's own model.
    sinusoid_layout: str = "interleaved"  # sin, cos in dims (2i, 2i+1); "halves": all sines, then all cosines
    activation: str = "relu"       # the FFN's nonlinearity: relu | gelu | swish
    scale_embedding: bool = True   # token embeddings times √d_model
    share_src_embedding: bool = True  # the encoder reads the target embedding; False: a source embedding of its own
    tie_output: bool = True        # the pre-softmax projection is the target embedding; False: a matrix of its own
    logits_bias: bool = False      # a bias added to the logits (Marian's final_logits_bias)
    pad_id: int = 0
    unk_id: int = 1
    bos_id: int = 2
    eos_id: int = 3
    src_lang: str = "en"
    tgt_lang: str = "de"

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    def validate(self) -> ModelConfig:
        ints = ("vocab_size", "d_model", "n_heads", "n_encoder_layers", "n_decoder_layers", "d_ff", "max_len")
        for name in ints:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_INT:
                raise ConfigError(f"config field '{name}' must be a whole number from 1 to {MAX_INT:,}, "
                                  f"got {str(value)[:20]}")
        if self.d_model % self.n_heads:
            raise ConfigError(f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})")
        if self.positional not in ("sinusoidal", "learned"):
            raise ConfigError(f"positional must be 'sinusoidal' or 'learned', got {self.positional!r}")
        if self.sinusoid_layout not in SINUSOID_LAYOUTS:
            raise ConfigError(f"sinusoid_layout must be one of {', '.join(SINUSOID_LAYOUTS)}, got {self.sinusoid_layout!r}")
        if self.activation not in ACTIVATIONS:
            raise ConfigError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {self.activation!r}")
        for name in ("scale_embedding", "share_src_embedding", "tie_output", "logits_bias"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if isinstance(self.dropout, bool) or not isinstance(self.dropout, (int, float)) \
                or not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"dropout must be in [0, 1), got {self.dropout!r}")
        for name in ("pad_id", "unk_id", "bos_id", "eos_id"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value < self.vocab_size:
                raise ConfigError(f"{name} must be a token id below vocab_size, got {str(value)[:20]}")
        for name in ("src_lang", "tgt_lang"):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > 16 or not LANGUAGE.fullmatch(value):
                raise ConfigError(f"{name} must be a language code such as en, ko or pt-BR, got {str(value)[:20]!r}")
        return self

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_dict(cls, data: dict) -> ModelConfig:
        if not isinstance(data, dict):
            raise ConfigError("config.json must hold a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"config.json has unknown fields: {', '.join(unknown)}")
        return cls(**data).validate()

    @classmethod
    def load(cls, path: str | Path) -> ModelConfig:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ConfigError(f"config.json is not valid JSON: {err}") from None
        return cls.from_dict(data)
