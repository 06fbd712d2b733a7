"""Hugging Face Marian checkpoints (MarianMT, e.g. Helsinki-NLP/opus-mt-en-de) as this project's Transformer.

A Marian folder holds config.json (model_type "marian"), model.safetensors (or pytorch_model.bin, read
with torch.load(weights_only=True): no code is unpickled), source.spm, target.spm and vocab.json.
It is read with json, safetensors and sentencepiece alone: transformers is not needed.

Marian is the paper's model (post-norm, biases in every projection, LayerNorm ε = 1e-5, q·kᵀ / √d_k)
with these differences, each a ModelConfig option:
  * the FFN's activation: swish (SiLU) in OPUS-MT, or GELU / ReLU (activation)
  * the sinusoids in halves: the d_model/2 sines first, then the cosines (sinusoid_layout "halves")
  * final_logits_bias added to the logits (logits_bias)
  * embeddings that may be untied: the encoder's (share_src_embedding), the output's (tie_output)
  * the decoder starts with <pad> (decoder_start_token_id): bos_id is that id here.
Decoding as transformers' generate does (its num_beams and length_penalty α, |Y|^α, its stopping rule, the forced
</s>) takes options of greedy_decode and beam_search, which the Checkpoint's `search` holds (generate_options).
Text: source text -> source.spm pieces -> ids through vocab.json (a piece it lacks -> <unk>) + </s>, no BOS;
output ids -> pieces through vocab.json -> target.spm's decode_pieces.
"""
from __future__ import annotations

import math
import re
import zipfile
from pathlib import Path

import sentencepiece as spm
import torch

from ..model.config import LANGUAGE, ConfigError, ModelConfig
from ..model.positional import sinusoidal_encoding
from ..model.transformer import from_state, state_shapes
from . import quantized, validate
from .files import CARD, CONFIG, WEIGHTS, Checkpoint, CheckpointError, read_card
from .validate import MAX_TENSORS, check_names_and_shapes, check_state, read_safetensors, safetensors_header

VOCAB, SOURCE_SPM, TARGET_SPM = "vocab.json", "source.spm", "target.spm"
TORCH_WEIGHTS = "pytorch_model.bin"       # the older format: a torch.save zip, read with weights_only=True
README, TOKENIZER_CONFIG = CARD, "tokenizer_config.json"   # the Hub's model card (README.md); source_lang, target_lang
GENERATION_CONFIG = "generation_config.json"  # how transformers' generate decodes it
REQUIRED = (CONFIG, WEIGHTS, SOURCE_SPM, TARGET_SPM, VOCAB)      # (or TORCH_WEIGHTS for WEIGHTS, but not uploaded)
FILES = (SOURCE_SPM, TARGET_SPM, VOCAB, TOKENIZER_CONFIG, GENERATION_CONFIG)  # besides config and weights
MAX_BEAMS = 8                             # num_beams of generate's config: the app decodes at most this wide
HF_ACTIVATIONS = {"swish": "swish", "silu": "swish", "gelu": "gelu", "relu": "relu"}  # Hugging Face's -> ours
LANGUAGE_CODE = re.compile(r"^>>[^<>\s]+<<")  # multilingual targets: ">>fra<< text" picks the output language

# What other Hugging Face architectures have that this model has not (the app names each in its language:
# models.hf_feature.<key>).  BART's network alone would map exactly with a learned position table per stack
# at offset 2 and layernorm_embedding (measured on a tiny random BART: logits equal); its tokenizer would not.
FEATURES = {
    "relative_positions": "relative position buckets instead of absolute positions",
    "rmsnorm": "RMSNorm without bias",
    "gated_ffn": "a gated-GELU FFN",
    "learned_positions": "learned positions of their own in encoder and decoder, offset by 2",
    "layernorm_embedding": "a LayerNorm on the embeddings",
    "byte_bpe": "a byte-level BPE tokenizer (vocab.json + merges.txt) instead of SentencePiece",
    "pre_norm": "pre-norm layers",
    "moe": "a mixture-of-experts FFN",
    "two_vocabularies": "separate source and target vocabularies",
}
UNSUPPORTED = {
    "t5": ("relative_positions", "rmsnorm"),
    "mt5": ("relative_positions", "rmsnorm", "gated_ffn"),
    "bart": ("learned_positions", "layernorm_embedding", "byte_bpe"),
    "mbart": ("pre_norm", "learned_positions", "layernorm_embedding"),
    "m2m_100": ("pre_norm",),
    "nllb-moe": ("pre_norm", "moe"),
    "pegasus": ("pre_norm",),
    "fsmt": ("two_vocabularies",),
}


class UnsupportedModel(CheckpointError):
    """A Hugging Face model type other than Marian: .model_type, and .features (keys of FEATURES; none known
    for a type not in UNSUPPORTED)."""

    def __init__(self, model_type):
        self.model_type, self.features = model_type, UNSUPPORTED.get(model_type, ())
        what = "; ".join(FEATURES[f] for f in self.features) or "an architecture this model does not have"
        super().__init__(f"{CONFIG}: Hugging Face model_type {model_type!r} is not supported ({what}); "
                         "only Marian (model_type 'marian') checkpoints can be loaded")


def model_type(data) -> str | None:
    """config.json's model_type (a Hugging Face config) as text, or None (this project's own config)."""
    value = data.get("model_type") if isinstance(data, dict) else None
    return None if value is None else str(value)[:40]


def hf_model_type(config_path: Path) -> str | None:
    """model_type of the config.json file, or None (this project's own config, or no JSON)."""
    try:
        return model_type(validate.read_json(config_path))
    except (OSError, CheckpointError):
        return None


class MarianTokenizer:
    """Marian's text <-> ids: two SentencePiece models (source, target) and one vocabulary (vocab.json).

    The same interface as tokenizer.Tokenizer; text is not normalized (Marian's own Moses punctuation
    normalizer is optional in transformers too)."""

    source_bos = False                     # the source is pieces + </s>

    def __init__(self, source: spm.SentencePieceProcessor, target: spm.SentencePieceProcessor,
                 vocab: dict[str, int], pad_id: int, eos_id: int, bos_id: int):
        self.source, self.target, self.vocab = source, target, vocab
        self.by_id = {i: piece for piece, i in vocab.items()}
        self.pad_id, self.eos_id, self.bos_id, self.unk_id = pad_id, eos_id, bos_id, vocab["<unk>"]

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def encode(self, text: str) -> list[int]:
        """Source text -> ids, without </s>: a leading >>lang<< code is one token, the rest source.spm's pieces."""
        text = " ".join(text.split())
        code = LANGUAGE_CODE.match(text)
        pieces = [code.group()] if code else []
        pieces += self.source.encode(text[code.end():] if code else text, out_type=str)
        return [self.vocab.get(p, self.unk_id) for p in pieces]

    def encode_target(self, text: str) -> list[int]:
        """Target text -> ids through target.spm (a forced beginning of a translation)."""
        pieces = self.target.encode(" ".join(text.split()), out_type=str)
        return [self.vocab.get(p, self.unk_id) for p in pieces]

    def decode(self, ids) -> str:
        """Output ids -> text with target.spm; <pad> and </s> are skipped."""
        skip = (self.pad_id, self.eos_id, self.bos_id)
        return self.target.decode_pieces([self.by_id[int(i)] for i in ids if int(i) not in skip])

    def id_to_piece(self, id_: int) -> str:
        return self.by_id[int(id_)]

    def piece_to_id(self, piece: str) -> int | None:
        return self.vocab.get(piece)

    def pieces(self, ids) -> list[str]:
        return [self.id_to_piece(i) for i in ids]


def read_json(path: Path) -> dict:
    """A JSON object of the folder, read within its cap (validate.file_cap)."""
    data = validate.read_json(path, {})
    if not isinstance(data, dict):
        raise CheckpointError(f"{path.name} must hold a JSON object")
    return data


def _spm(path: Path) -> spm.SentencePieceProcessor:
    sp = spm.SentencePieceProcessor()
    try:
        sp.LoadFromSerializedProto(path.read_bytes())
    except (RuntimeError, OSError, TypeError) as err:
        raise CheckpointError(f"{path.name}: not a SentencePiece model: {err}") from None
    return sp


def read_vocab(folder: Path) -> dict[str, int]:
    vocab = read_json(folder / VOCAB)
    if not all(type(i) is int for i in vocab.values()) or sorted(vocab.values()) != list(range(len(vocab))) \
            or "<unk>" not in vocab:
        raise CheckpointError(f"{VOCAB} must map pieces to the ids 0 … n−1, <unk> among them")
    if (folder / "target_vocab.json").is_file():
        raise CheckpointError("separate source and target vocabularies (target_vocab.json) are not supported")
    return vocab


def marian_config(hf: dict, languages: tuple[str, str], unk_id: int) -> ModelConfig:
    """Marian's config.json -> ModelConfig (the embedding ties are read off the weights: marian_state;
    until then, one shared matrix)."""
    def same(a: str, b: str):
        if hf.get(a) != hf.get(b):
            raise CheckpointError(f"{CONFIG}: {a} ({hf.get(a)}) and {b} ({hf.get(b)}) differ; "
                                  "this model has one value for both")
        return hf.get(a)
    activation = hf.get("activation_function", "gelu")
    if activation not in HF_ACTIVATIONS:
        raise CheckpointError(f"{CONFIG}: activation_function {activation!r} is not supported "
                              f"(only {', '.join(HF_ACTIVATIONS)})")
    vocab_size = hf.get("vocab_size")
    if hf.get("decoder_vocab_size") not in (None, vocab_size):
        raise CheckpointError(f"{CONFIG}: a target vocabulary of its own (decoder_vocab_size "
                              f"{hf['decoder_vocab_size']} ≠ vocab_size {vocab_size}) is not supported")
    if hf.get("decoder_start_token_id") != hf.get("pad_token_id"):
        raise CheckpointError(f"{CONFIG}: decoder_start_token_id must be pad_token_id, as in Marian")
    try:
        return ModelConfig(
            vocab_size=vocab_size, d_model=hf.get("d_model"),
            n_heads=same("encoder_attention_heads", "decoder_attention_heads"),
            n_encoder_layers=hf.get("encoder_layers"), n_decoder_layers=hf.get("decoder_layers"),
            d_ff=same("encoder_ffn_dim", "decoder_ffn_dim"), dropout=hf.get("dropout", 0.1),
            max_len=hf.get("max_position_embeddings"), positional="sinusoidal", sinusoid_layout="halves",
            activation=HF_ACTIVATIONS[activation], scale_embedding=bool(hf.get("scale_embedding", False)),
            pad_id=hf.get("pad_token_id"), unk_id=unk_id, bos_id=hf.get("decoder_start_token_id"),
            eos_id=hf.get("eos_token_id"), src_lang=languages[0], tgt_lang=languages[1]).validate()
    except (ConfigError, TypeError) as err:
        raise CheckpointError(f"{CONFIG}: {err}") from None


# Our parameter names -> Marian's, within one layer ("encoder.0." -> "model.encoder.layers.0.")
SUBLAYERS = {"self_attn": "self_attn", "cross_attn": "encoder_attn", "ffn.linear1": "fc1", "ffn.linear2": "fc2"}
PROJECTIONS = {"w_q": "q_proj", "w_k": "k_proj", "w_v": "v_proj", "w_o": "out_proj"}
NORMS = {"encoder": {"add_norm1": "self_attn_layer_norm", "add_norm2": "final_layer_norm"},
         "decoder": {"add_norm1": "self_attn_layer_norm", "add_norm2": "encoder_attn_layer_norm",
                     "add_norm3": "final_layer_norm"}}


def marian_name(ours: str) -> str:
    """encoder.0.self_attn.w_q.weight -> model.encoder.layers.0.self_attn.q_proj.weight"""
    stack, i, rest = ours.split(".", 2)
    module, param = rest.rsplit(".", 1)
    if module.startswith("add_norm"):
        module = NORMS[stack][module.removesuffix(".norm")]
    elif module.startswith("ffn."):
        module = SUBLAYERS[module]
    else:
        attn, proj = module.split(".")
        module = f"{SUBLAYERS[attn]}.{PROJECTIONS[proj]}"
    return f"model.{stack}.layers.{i}.{module}.{param}"


def marian_shapes(cfg: ModelConfig) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """(the tensors a Marian file of this config must hold, those it may hold) by Marian's names and shapes."""
    d, v = cfg.d_model, cfg.vocab_size
    needed = {marian_name(name): shape for name, shape in state_shapes(cfg).items()
              if name.startswith(("encoder.", "decoder."))}
    optional = {"model.shared.weight": (v, d), "model.encoder.embed_tokens.weight": (v, d),
                "model.decoder.embed_tokens.weight": (v, d), "lm_head.weight": (v, d), "final_logits_bias": (1, v),
                "model.encoder.embed_positions.weight": (cfg.max_len, d),
                "model.decoder.embed_positions.weight": (cfg.max_len, d)}
    return needed, optional


def _check_torch_zip(path: Path, limit: int) -> None:
    """pytorch_model.bin must be in torch.save's zip format, with stored (uncompressed) members of at most
    `limit` bytes in all: compressed storages would inflate inside torch.load, past every cap."""
    if not zipfile.is_zipfile(path):      # the legacy format allocates each storage at the size it declares
        raise CheckpointError(f"{TORCH_WEIGHTS} is in torch's legacy format: only the zip format of "
                              "torch.save (PyTorch 1.6 and later) is read")
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise CheckpointError(f"{TORCH_WEIGHTS} is not torch.save's zip format ({err})") from None
    if len(infos) > MAX_TENSORS or any(i.compress_type != zipfile.ZIP_STORED for i in infos) \
            or sum(i.file_size for i in infos) > limit:
        raise CheckpointError(f"{TORCH_WEIGHTS} holds compressed or oversized members; torch.save writes neither")


def read_weights(folder: Path, cfg: ModelConfig) -> tuple[dict[str, torch.Tensor], str]:
    """model.safetensors (its header checked against cfg first), or else pytorch_model.bin unpickled with
    weights_only=True (stored members only).  -> (state, file name)"""
    needed, optional = marian_shapes(cfg)
    if (folder / WEIGHTS).is_file():
        header = safetensors_header(folder / WEIGHTS)
        check_names_and_shapes({n: shape for n, (_, shape) in header.items()}, needed, WEIGHTS, optional)
        return read_safetensors(folder / WEIGHTS), WEIGHTS
    if not (folder / TORCH_WEIGHTS).is_file():
        raise CheckpointError(f"a Marian checkpoint needs {WEIGHTS} or {TORCH_WEIGHTS}")
    _check_torch_zip(folder / TORCH_WEIGHTS, 2 * (folder / TORCH_WEIGHTS).stat().st_size + (1 << 20))
    try:
        state = torch.load(folder / TORCH_WEIGHTS, map_location="cpu", weights_only=True)
    except Exception as err:  # noqa: BLE001 - any fault of an untrusted file is the file's
        raise CheckpointError(f"{TORCH_WEIGHTS} cannot be read as plain tensors "
                              f"(torch.load with weights_only=True: {type(err).__name__})") from None
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise CheckpointError(f"{TORCH_WEIGHTS} must hold a dict of named tensors")
    check_names_and_shapes({n: tuple(t.shape) for n, t in state.items()}, needed, TORCH_WEIGHTS, optional)
    return state, TORCH_WEIGHTS


def marian_state(state: dict[str, torch.Tensor], cfg: ModelConfig, file: str) -> tuple[ModelConfig, dict]:
    """Marian's tensors -> (cfg with the embedding ties the weights show, our state dict)."""
    for name, tensor in state.items():          # one tensor at a time: names and shapes were checked before
        if tensor.dtype not in (torch.float32, torch.float16, torch.bfloat16):
            raise CheckpointError(f"tensor '{name}' has dtype {tensor.dtype}; expected float32, float16 or bfloat16")
        state[name] = tensor.float()
    shared = state.pop("model.shared.weight", None)
    source = state.pop("model.encoder.embed_tokens.weight", shared)
    target = state.pop("model.decoder.embed_tokens.weight", shared)
    output = state.pop("lm_head.weight", target)
    if source is None or target is None:
        raise CheckpointError(f"{file} lacks the token embeddings (model.shared.weight)")
    bias = state.pop("final_logits_bias", None)
    for stack in ("encoder", "decoder"):     # older files keep the sinusoids: they must be ours
        table = state.pop(f"model.{stack}.embed_positions.weight", None)
        if table is not None and (table.shape != (cfg.max_len, cfg.d_model) or
                                  (table - sinusoidal_encoding(cfg.max_len, cfg.d_model, "halves")).abs().max() > 1e-4):
            raise CheckpointError(f"{file}: model.{stack}.embed_positions.weight is not Marian's sinusoid table")
    cfg = ModelConfig(**{**vars(cfg), "share_src_embedding": bool(torch.equal(source, target)),
                         "tie_output": bool(torch.equal(output, target)), "logits_bias": bias is not None})
    ours = {"embedding.weight": target}
    if not cfg.share_src_embedding:
        ours["src_embedding.weight"] = source
    if not cfg.tie_output:
        ours["output.weight"] = output
    if bias is not None:
        ours["logits_bias"] = bias.reshape(-1)
    for name in state_shapes(cfg):
        if name.startswith(("encoder.", "decoder.")):
            key = marian_name(name)
            if key not in state:
                raise CheckpointError(f"{file} lacks the tensor {key}")
            ours[name] = state.pop(key)
    if state:
        raise CheckpointError(f"{file} has tensors a Marian model does not: {', '.join(sorted(state)[:5])}")
    return cfg, ours


def generate_options(hf: dict, generation: dict) -> dict:
    """The options that make greedy_decode and beam_search decode as transformers' generate does with
    this config: its beam width (num_beams, when over 1) and α (length_penalty, default 1.0), |Y|^α, its
    stopping rule, no renormalizing after banning <pad>, the forced </s>."""
    def option(name, default):
        return generation.get(name, hf.get(name, default))
    alpha, beams = option("length_penalty", 1.0), option("num_beams", 1)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not math.isfinite(alpha) or abs(alpha) > 10:
        raise CheckpointError(f"{GENERATION_CONFIG}: length_penalty must be a number from -10 to 10, got {alpha!r}")
    if isinstance(beams, bool) or not isinstance(beams, int) or not 1 <= beams <= MAX_BEAMS:
        raise CheckpointError(f"{GENERATION_CONFIG}: num_beams must be a whole number from 1 to {MAX_BEAMS}, "
                              f"got {beams!r}")
    beam = {"beam": beams} if beams > 1 else {}          # 1 (greedy): the app's beam mode keeps 4
    return {**beam, "alpha": float(alpha), "penalty": "hf", "early_stopping": option("early_stopping", False) is True,
            "renormalize": bool(option("renormalize_logits", False)),
            "force_eos": option("forced_eos_token_id", None) == hf.get("eos_token_id")}


def load_marian(folder: Path, hf: dict | None = None) -> Checkpoint:
    """A Hugging Face Marian folder -> Checkpoint, the model in eval mode on the CPU.  hf: config.json's
    content, when the caller has parsed it."""
    hf = read_json(folder / CONFIG) if hf is None else hf
    if model_type(hf) != "marian":
        raise UnsupportedModel(model_type(hf))
    missing = [f for f in (VOCAB, SOURCE_SPM, TARGET_SPM) if not (folder / f).is_file()]
    if missing:
        raise CheckpointError(f"Marian checkpoint is missing {', '.join(missing)} (it holds {CONFIG}, "
                              f"{WEIGHTS} or {TORCH_WEIGHTS}, {SOURCE_SPM}, {TARGET_SPM}, {VOCAB})")
    tok_config = read_json(folder / TOKENIZER_CONFIG) if (folder / TOKENIZER_CONFIG).is_file() else {}
    languages = tuple(code if isinstance(code, str) and len(code) <= 16 and LANGUAGE.fullmatch(code) else default
                      for code, default in ((tok_config.get("source_lang"), "src"), (tok_config.get("target_lang"), "tgt")))
    vocab = read_vocab(folder)
    cfg = marian_config(hf, languages, vocab["<unk>"])
    if len(vocab) != cfg.vocab_size:
        raise CheckpointError(f"vocabulary mismatch: {VOCAB} has {len(vocab)} pieces, "
                              f"{CONFIG} says vocab_size = {cfg.vocab_size}")
    if (vocab.get("<pad>"), vocab.get("</s>")) != (cfg.pad_id, cfg.eos_id):
        raise CheckpointError(f"vocabulary mismatch: {CONFIG}'s pad_token_id and eos_token_id must be "
                              f"<pad> and </s> of {VOCAB}")
    tokenizer = MarianTokenizer(_spm(folder / SOURCE_SPM), _spm(folder / TARGET_SPM), vocab,
                                cfg.pad_id, cfg.eos_id, cfg.bos_id)
    quantization = quantized.scheme(folder)
    if quantization:                    # prepared for a school: this project's state dict, quantized
        cfg = quantized.ties(folder / WEIGHTS, cfg)
        model = quantized.load_model(folder / WEIGHTS, cfg, quantization)
    else:
        state, file = read_weights(folder, cfg)
        cfg, state = marian_state(state, cfg, file)
        check_state(state, state_shapes(cfg), file)
        model = from_state(cfg, state)           # no random init to overwrite: 1.0 s for opus-mt-en-de, 2.8 s big
    card, card_file = read_card(folder)
    generation = read_json(folder / GENERATION_CONFIG) if (folder / GENERATION_CONFIG).is_file() else {}
    return Checkpoint(folder, cfg, model, tokenizer, card, search=generate_options(hf, generation), card_file=card_file,
                      prepared=quantized.read_prepared(folder))
