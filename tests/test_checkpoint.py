"""Checkpoint folders: the save/load round trip, every error the loader reports, and the Hugging Face cache."""
import json
import math
import pickle
import re
from pathlib import Path

import huggingface_hub.constants
import pytest
import torch
from safetensors.torch import load_file, save_file

from transformer_core.checkpoints.files import (
    CARD,
    CONFIG,
    EXAMPLES,
    LOG,
    TOKENIZER,
    TRAINING,
    WEIGHTS,
    CheckpointError,
)
from transformer_core.checkpoints.folder import save_checkpoint
from transformer_core.checkpoints.hub import from_pretrained, push_to_hub, save_pretrained
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.upload import UploadError
from transformer_core.model.config import ModelConfig
from transformer_core.model.tokenizer import Tokenizer
from transformer_core.model.transformer import Transformer

pytestmark = pytest.mark.usefixtures("one_thread")

EXAMPLES_DATA = [{"src": "the cat sees the house.", "ref": "die katze sieht das haus."}]


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """No test here may reach the network: Hugging Face offline mode, read at import and at call time."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.fixture
def saved(tmp_path, toy_spm):
    """A small checkpoint folder written by save_checkpoint, and the model it holds."""
    tok = Tokenizer.load(toy_spm)
    cfg = ModelConfig(vocab_size=tok.vocab_size, d_model=16, n_heads=2, n_encoder_layers=1,
                      n_decoder_layers=1, d_ff=32, max_len=24)
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    folder = save_checkpoint(tmp_path / "ckpt", model, toy_spm, card="# A card\n", examples=EXAMPLES_DATA)
    (folder / LOG).write_text('{"step": 1, "lr": 0.001, "loss": 3.0, "tokens_per_s": 10.0, "elapsed": 0.1}\n')
    return folder, model


def _inputs(model):
    src = torch.tensor([[2, 5, 6, 7, 3], [2, 8, 3, 0, 0]])
    tgt_in = torch.tensor([[2, 9, 10], [2, 11, 0]])
    return src, tgt_in


def _load_error(folder) -> str:
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(folder)
    return str(info.value)


def _rewrite_config(folder, **changes):
    data = json.loads((folder / CONFIG).read_text())
    data.update(changes)
    (folder / CONFIG).write_text(json.dumps(data))


def _rewrite_weights(folder, change):
    state = load_file(str(folder / WEIGHTS))
    change(state)
    save_file(state, str(folder / WEIGHTS))


# --- round trip ---------------------------------------------------------------------------------

@torch.no_grad()
def test_save_load_round_trip_gives_identical_logits(saved):
    folder, model = saved
    ckpt = load_checkpoint(folder)
    assert ckpt.config == model.cfg
    assert not ckpt.model.training
    src, tgt_in = _inputs(model)
    assert torch.equal(ckpt.model(src, tgt_in), model(src, tgt_in))
    assert ckpt.card == "# A card\n"
    assert ckpt.examples == EXAMPLES_DATA
    assert ckpt.log_path == folder / LOG
    assert ckpt.tokenizer.vocab_size == model.cfg.vocab_size
    assert ckpt.name == "ckpt"


def test_optional_files_may_be_absent(saved):
    folder, _ = saved
    for name in (CARD, EXAMPLES, LOG):
        (folder / name).unlink()
    ckpt = load_checkpoint(folder)
    assert ckpt.card == "" and ckpt.examples == [] and ckpt.log_path is None


def test_config_json_from_before_the_marian_options_loads_as_before(saved):
    """config.json files written before sinusoid_layout, activation, … existed: the defaults are the old model."""
    folder, model = saved
    data = json.loads((folder / CONFIG).read_text())
    new = ("sinusoid_layout", "activation", "scale_embedding", "share_src_embedding", "tie_output", "logits_bias")
    (folder / CONFIG).write_text(json.dumps({k: v for k, v in data.items() if k not in new}))
    ckpt = load_checkpoint(folder)
    assert ckpt.config == model.cfg
    assert set(ckpt.model.state_dict()) == set(model.state_dict())
    src, tgt_in = _inputs(model)
    with torch.no_grad():
        assert torch.equal(ckpt.model(src, tgt_in), model(src, tgt_in))


@pytest.mark.parametrize("changes, message", [
    ({"activation": "tanh"}, "activation must be one of relu, gelu, swish, got 'tanh'"),
    ({"sinusoid_layout": "shuffled"}, "sinusoid_layout must be one of interleaved, halves, got 'shuffled'"),
    ({"tie_output": "yes"}, "tie_output must be true or false, got 'yes'"),
])
def test_config_bad_model_option(saved, changes, message):
    folder, _ = saved
    _rewrite_config(folder, **changes)
    assert _load_error(folder) == f"{CONFIG}: {message}"


# --- every error the loader raises ---------------------------------------------------------------

def test_missing_folder(tmp_path):
    assert _load_error(tmp_path / "nowhere") == "checkpoint folder not found: nowhere"     # no server path


@pytest.mark.parametrize("name", [CONFIG, WEIGHTS, TOKENIZER])
def test_each_missing_required_file(saved, name):
    folder, _ = saved
    (folder / name).unlink()
    assert _load_error(folder) == (f"checkpoint is missing {name} "
                                   f"(a checkpoint holds {CONFIG}, {WEIGHTS}, {TOKENIZER})")


def test_config_not_json(saved):
    folder, _ = saved
    (folder / CONFIG).write_text("{vocab_size: 52,")
    assert _load_error(folder).startswith(f"{CONFIG}: config.json is not valid JSON: ")
    (folder / CONFIG).write_bytes(b"\xff\xfe{}")
    assert _load_error(folder).startswith(f"{CONFIG}: config.json is not valid JSON: ")


def test_config_not_an_object(saved):
    folder, _ = saved
    (folder / CONFIG).write_text("[1, 2]")
    assert _load_error(folder) == f"{CONFIG}: config.json must hold a JSON object"


@pytest.mark.parametrize("changes, message", [
    ({"d_model": "abc"}, "config field 'd_model' must be a whole number from 1 to 2,147,483,647, got abc"),
    ({"n_heads": 0}, "config field 'n_heads' must be a whole number from 1 to 2,147,483,647, got 0"),
    ({"vocab_size": True}, "config field 'vocab_size' must be a whole number from 1 to 2,147,483,647, got True"),
    ({"max_len": 10**400}, "config field 'max_len' must be a whole number from 1 to 2,147,483,647, got 10000000000000000000"),
    ({"tgt_lang": "![x](http://evil/x.png)"}, "tgt_lang must be a language code such as en, ko or pt-BR, got '![x](http://evil/x.p'"),
    ({"n_heads": 3}, "d_model (16) must be divisible by n_heads (3)"),
    ({"positional": "rotary"}, "positional must be 'sinusoidal' or 'learned', got 'rotary'"),
    ({"dropout": 1.5}, "dropout must be in [0, 1), got 1.5"),
    ({"eos_id": 10**6}, "eos_id must be a token id below vocab_size, got 1000000"),
])
def test_config_bad_field(saved, changes, message):
    folder, _ = saved
    _rewrite_config(folder, **changes)
    assert _load_error(folder) == f"{CONFIG}: {message}"


@pytest.mark.parametrize("dropout", [None, [0.1], math.nan])
def test_config_dropout_not_a_number(saved, dropout):
    folder, _ = saved
    _rewrite_config(folder, dropout=dropout)
    assert _load_error(folder).startswith(f"{CONFIG}: ")


def test_config_non_numeric_dropout(saved):
    folder, _ = saved
    _rewrite_config(folder, dropout="lots")
    assert _load_error(folder) == f"{CONFIG}: dropout must be in [0, 1), got 'lots'"


def test_config_unknown_field(saved):
    folder, _ = saved
    _rewrite_config(folder, n_layers=6, colour="blue")
    assert _load_error(folder) == f"{CONFIG}: config.json has unknown fields: colour, n_layers"


def test_weights_not_safetensors_a_torch_pickle(saved):
    folder, model = saved
    torch.save(model.state_dict(), folder / WEIGHTS)                      # the classic .pt/.bin
    assert _load_error(folder).startswith(f"{WEIGHTS} is not a valid safetensors file (")


class _Payload:
    """Unpickling this calls open(path, "w"): it creates a file.  It must never be unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return open, (str(self.path), "w")


def test_malicious_pickle_is_never_unpickled(saved, tmp_path):
    folder, _ = saved
    proof = tmp_path / "proof_the_payload_works"
    pickle.loads(pickle.dumps(_Payload(proof))).close()                   # the bait is real ...
    assert proof.exists()
    marker = tmp_path / "pwned"
    (folder / WEIGHTS).write_bytes(pickle.dumps(_Payload(marker)))
    assert _load_error(folder).startswith(f"{WEIGHTS} is not a valid safetensors file (")
    assert not marker.exists()                                             # ... but the loader never bites


def test_weights_garbage_or_empty(saved):
    folder, _ = saved
    (folder / WEIGHTS).write_bytes(b"")
    assert _load_error(folder).startswith(f"{WEIGHTS} is not a valid safetensors file (")
    (folder / WEIGHTS).write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not a header}")
    assert _load_error(folder).startswith(f"{WEIGHTS} is not a valid safetensors file (")


def test_missing_tensor(saved):
    folder, _ = saved
    _rewrite_weights(folder, lambda s: s.pop("decoder.0.ffn.linear2.bias"))
    assert _load_error(folder) == f"{WEIGHTS} lacks tensors the config needs: decoder.0.ffn.linear2.bias"


def test_many_missing_tensors_are_counted(saved):
    folder, _ = saved
    _rewrite_weights(folder, lambda s: [s.pop(k) for k in [k for k in s if k.startswith("decoder.")]])
    message = _load_error(folder)
    assert message.startswith(f"{WEIGHTS} lacks tensors the config needs: decoder.0.")
    n_decoder = sum(1 for k in Transformer(saved[1].cfg).state_dict() if k.startswith("decoder."))
    assert message.endswith(f" and {n_decoder - 5} more")


def test_unexpected_tensor(saved):
    folder, _ = saved
    _rewrite_weights(folder, lambda s: s.update({"encoder.9.extra": torch.zeros(3)}))
    assert _load_error(folder) == f"{WEIGHTS} has tensors the config does not know: encoder.9.extra"


def test_learned_positions_in_a_sinusoidal_config(saved):
    folder, _ = saved
    _rewrite_weights(folder, lambda s: s.update({"pos_embedding.weight": torch.zeros(24, 16)}))
    assert _load_error(folder) == f"{WEIGHTS} has tensors the config does not know: pos_embedding.weight"


def test_wrong_shape(saved):
    folder, _ = saved
    _rewrite_weights(folder, lambda s: s.update({"encoder.0.self_attn.w_q.weight": torch.zeros(16, 8)}))
    assert _load_error(folder) == ("tensor 'encoder.0.self_attn.w_q.weight' has shape (16, 8), "
                                   "but config.json implies (16, 16)")


def test_config_disagrees_with_weights(saved):
    folder, _ = saved
    _rewrite_config(folder, d_ff=48)
    # which FFN tensor is named first depends on the file's order; each disagrees the same way
    assert re.fullmatch(r"tensor '(en|de)coder\.0\.ffn\.linear[12]\.(weight|bias)' has shape \((?P<a>[0-9, ]*)32(?P<b>[0-9, ]*)\), "
                        r"but config\.json implies \((?P=a)48(?P=b)\)", _load_error(folder))


def test_non_float_dtype(saved):
    folder, _ = saved
    _rewrite_weights(folder, lambda s: s.update({"encoder.0.ffn.linear1.bias": torch.zeros(32, dtype=torch.int64)}))
    assert _load_error(folder) == "tensor 'encoder.0.ffn.linear1.bias' has dtype I64; expected float32, float16 or bfloat16"


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_nan_or_infinite_values(saved, bad):
    folder, _ = saved

    def poison(state):
        state["decoder.0.add_norm1.norm.weight"][3] = bad
    _rewrite_weights(folder, poison)
    assert _load_error(folder) == "tensor 'decoder.0.add_norm1.norm.weight' holds NaN or infinite values"


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_finite_finds_one_nan_or_infinity_anywhere(dtype):
    """validate.finite reads a tensor's least and greatest values: one NaN or ±inf, first, last or anywhere, in a
    small tensor or one a vectorized loop reads in blocks, or in a transposed one, is found."""
    from transformer_core.checkpoints.validate import finite

    gen = torch.Generator().manual_seed(0)
    for shape in ((1,), (7,), (1000,), (513, 257), (300, 400)):
        clean = torch.randn(shape, generator=gen).to(dtype)
        assert finite(clean) and finite(clean.t() if clean.dim() == 2 else clean)
        for bad in (math.nan, math.inf, -math.inf):
            for i in (0, clean.numel() - 1, int(torch.randint(clean.numel(), (), generator=gen))):
                poisoned = clean.clone()
                poisoned.view(-1)[i] = bad
                assert not finite(poisoned) and not finite(poisoned.t() if poisoned.dim() == 2 else poisoned)
    assert finite(torch.zeros(0, 4, dtype=dtype))


def test_vocabulary_size_mismatch(saved):
    folder, model = saved
    n = model.cfg.vocab_size
    _rewrite_config(folder, vocab_size=n + 8)
    assert _load_error(folder) == (f"vocabulary mismatch: {TOKENIZER} has {n} pieces, "
                                   f"{CONFIG} says vocab_size = {n + 8}")


def test_special_id_mismatch(saved):
    folder, _ = saved
    _rewrite_config(folder, bos_id=4)
    assert _load_error(folder) == f"vocabulary mismatch: {TOKENIZER} has bos_id = 2, {CONFIG} says 4"


def test_tokenizer_not_sentencepiece(saved):
    folder, _ = saved
    (folder / TOKENIZER).write_bytes(b"this is not a SentencePiece model")
    assert _load_error(folder).startswith(f"{TOKENIZER}: not a SentencePiece model")   # no server path


def test_tokenizer_with_other_special_ids(saved, toy_pairs):
    """A SentencePiece model trained with the library's defaults (unk 0, bos 1, eos 2, no pad)."""
    import io

    import sentencepiece as spm

    folder, _ = saved
    buffer = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter([s for pair in toy_pairs for s in pair]),
                                   model_writer=buffer, vocab_size=40, hard_vocab_limit=False, minloglevel=2)
    (folder / TOKENIZER).write_bytes(buffer.getvalue())
    assert _load_error(folder) == (f"{TOKENIZER}: SentencePiece model has pad/unk/bos/eos "
                                   "ids (-1, 0, 1, 2), expected (0, 1, 2, 3)")


@pytest.mark.parametrize("name, content, message", [
    (EXAMPLES, "[{\"src\": \"a\"", f"{EXAMPLES} is not valid JSON: "),
    (EXAMPLES, '{"src": "a", "ref": "b"}', f"{EXAMPLES} must be a list of {{\"src\": …, \"ref\": …}} objects"),
    (EXAMPLES, '["the cat"]', f"{EXAMPLES} must be a list of {{\"src\": …, \"ref\": …}} objects"),
    (EXAMPLES, '[{"src": 5, "ref": "b"}]', f"{EXAMPLES} must be a list of {{\"src\": …, \"ref\": …}} objects"),
    (TRAINING, "{\"data\": ", f"{TRAINING} is not valid JSON: "),
    (TRAINING, "[1, 2]", f"{TRAINING} must hold a JSON object"),
])
def test_bad_examples_or_training_record(saved, name, content, message):
    folder, _ = saved
    (folder / name).write_text(content)
    assert _load_error(folder).startswith(message)


def test_training_record_is_loaded(saved):
    folder, _ = saved
    (folder / TRAINING).write_text(json.dumps({"data": {"folder": "data/x"}, "steps": 7}))
    assert load_checkpoint(folder).training == {"data": {"folder": "data/x"}, "steps": 7}


# --- Hugging Face, offline -------------------------------------------------------------------------

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _hf_cache(tmp_path, folder, repo="user/repo") -> Path:
    """A Hugging Face hub cache made by hand: models--user--repo/{refs/main, snapshots/<commit>/<files>}
    (blobs/ is optional: the snapshot's files may be plain files instead of links into it)."""
    cache = tmp_path / "hf_cache"
    repo_dir = cache / ("models--" + repo.replace("/", "--"))
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text(COMMIT)
    save_pretrained(load_checkpoint(folder), repo_dir / "snapshots" / COMMIT)
    return cache


def test_save_pretrained_copies_every_file(saved, tmp_path):
    folder, _ = saved
    out = save_pretrained(load_checkpoint(folder), tmp_path / "export")
    for name in (CONFIG, WEIGHTS, TOKENIZER, LOG, CARD, EXAMPLES):
        assert (out / name).read_bytes() == (folder / name).read_bytes()


@torch.no_grad()
def test_from_pretrained_loads_from_local_cache(saved, tmp_path):
    folder, model = saved
    cache = _hf_cache(tmp_path, folder)
    src, tgt_in = _inputs(model)
    for kwargs in ({"local_files_only": True}, {}, {"revision": COMMIT, "local_files_only": True}):
        ckpt = from_pretrained("user/repo", cache_dir=cache, **kwargs)   # {}: offline mode falls back to the cache
        assert ckpt.path.parent.name == "snapshots" and ckpt.path.name == COMMIT
        assert torch.equal(ckpt.model(src, tgt_in), model(src, tgt_in))
        assert ckpt.examples == EXAMPLES_DATA


def test_from_pretrained_repo_not_in_cache(saved, tmp_path):
    cache = _hf_cache(tmp_path, saved[0])
    for kwargs in ({"local_files_only": True}, {}):
        with pytest.raises(CheckpointError) as info:
            from_pretrained("user/other-repo", cache_dir=cache, **kwargs)
        assert str(info.value) == ("'user/other-repo' is not in the local Hugging Face cache "
                                   "and the Hub cannot be reached")


def test_from_pretrained_invalid_repo_id(tmp_path):
    with pytest.raises(CheckpointError, match=r"^'not//a repo' is not a valid Hugging Face repo id: "):
        from_pretrained("not//a repo", cache_dir=tmp_path, local_files_only=True)


def test_from_pretrained_broken_cached_checkpoint(saved, tmp_path):
    cache = _hf_cache(tmp_path, saved[0])
    (cache / "models--user--repo" / "snapshots" / COMMIT / WEIGHTS).write_bytes(b"junk")
    # a Hub repo is checked like an upload: 4 bytes cannot hold the weights the config describes
    with pytest.raises(UploadError, match=f"but {WEIGHTS} holds only 4 bytes: the weights cannot match the config"):
        from_pretrained("user/repo", cache_dir=cache, local_files_only=True)


def test_push_to_hub_validates_before_any_upload(saved):
    folder, _ = saved
    (folder / WEIGHTS).unlink()
    with pytest.raises(CheckpointError, match="^checkpoint is missing model.safetensors"):
        push_to_hub(folder, "user/repo", token="hf_not_used")
