"""Hugging Face Marian folders loaded into our Transformer agree with transformers' MarianMTModel.

Tiny random Marian models (transformers, a test dependency only) with tiny SentencePiece models and a
shared vocab.json are saved with save_pretrained and loaded with load_checkpoint.  In eval mode the
encoder output, the logits and every attention weight agree to 1e-5, and greedy and beam-4 outputs
equal generate's.  Nothing reaches the network.
"""
import json
import pickle
import shutil

import huggingface_hub
import pytest
import torch

from marian_tiny import save_marian, write_vocabulary
from transformer_core.checkpoints.files import CONFIG, WEIGHTS, CheckpointError
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.marian import GENERATION_CONFIG, SOURCE_SPM, TARGET_SPM, TORCH_WEIGHTS, VOCAB
from transformer_core.explainer.translate import source_ids, translate, translate_lines
from transformer_core.model.decoding import beam_search, default_max_len, greedy_decode
from transformer_core.model.masks import make_src_mask
from transformer_core.model.positional import sinusoidal_encoding

transformers = pytest.importorskip("transformers")

pytestmark = pytest.mark.usefixtures("one_thread")

TOL = 1e-5
MAX_LENGTH = 16          # generate's max_length: the start token and up to 15 more
ALPHA = 1.0              # generate's default length_penalty
SENTENCES = ["the cat sees the house.", "the woman likes the apple.", "the child hears the dog.",
             "the dog finds Ωmega the car."]   # Ω: no piece of source.spm, so <unk>

# (encoder layers, decoder layers, d_model, heads, activation, share_encoder_decoder_embeddings,
#  tie_word_embeddings, scale_embedding)
CONFIGS = {
    "1+1-swish-tied": (1, 1, 16, 2, "swish", True, True, True),
    "2+2-gelu-untied-output": (2, 2, 32, 4, "gelu", True, False, True),
    "2+1-relu-own-source-embedding": (2, 1, 24, 4, "relu", False, True, False),
    "1+2-swish-all-untied": (1, 2, 32, 2, "swish", False, False, True),
}


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.fixture(scope="module")
def vocabulary(tmp_path_factory, toy_pairs):
    """source.spm (English), target.spm (German) and one vocab.json for both (marian_tiny.write_vocabulary)."""
    folder = tmp_path_factory.mktemp("marian_vocab")
    return folder, write_vocabulary(folder, toy_pairs)


def _marian(folder, vocabulary, spec, seed=0):
    """A random MarianMTModel saved into folder with the vocabulary; -> the model as transformers loads it."""
    import transformers

    save_marian(folder, *vocabulary, spec, seed)
    return transformers.MarianMTModel.from_pretrained(folder, attn_implementation="eager").eval()


def _pair(name, tmp_path_factory, vocabulary):
    out = tmp_path_factory.mktemp(name)
    hf = _marian(out, vocabulary, CONFIGS[name])
    return load_checkpoint(out), hf


@pytest.fixture(scope="module", params=list(CONFIGS))
def pair(request, tmp_path_factory, vocabulary):
    """(our Checkpoint, transformers' model) for one config."""
    return _pair(request.param, tmp_path_factory, vocabulary)


def _max_diff(a, b) -> float:
    return float((a.double() - b.double()).abs().max())


def test_config_maps_onto_ours(pair):
    ckpt, hf = pair
    c, h = ckpt.config, hf.config
    assert (c.n_encoder_layers, c.n_decoder_layers, c.d_model, c.n_heads, c.d_ff) == (
        h.encoder_layers, h.decoder_layers, h.d_model, h.encoder_attention_heads, h.encoder_ffn_dim)
    assert c.activation == h.activation_function and c.sinusoid_layout == "halves" and c.logits_bias
    assert (c.pad_id, c.eos_id, c.bos_id) == (h.pad_token_id, h.eos_token_id, h.decoder_start_token_id)
    src_shared = torch.equal(hf.model.encoder.embed_tokens.weight, hf.model.decoder.embed_tokens.weight)
    assert c.share_src_embedding == src_shared
    assert c.tie_output == torch.equal(hf.lm_head.weight, hf.model.decoder.embed_tokens.weight)
    assert c.scale_embedding == h.scale_embedding and c.max_len == h.max_position_embeddings


def test_tokenizer_matches_marian_tokenizer(pair, vocabulary):
    ckpt, _ = pair
    folder, _ = vocabulary
    with pytest.warns(UserWarning, match="sacremoses") if not _has_sacremoses() else _nothing():
        hf_tok = transformers.MarianTokenizer(vocab=str(folder / VOCAB), source_spm=str(folder / SOURCE_SPM),
                                              target_spm=str(folder / TARGET_SPM))
    for text in [*SENTENCES, ">>deu<< the cat sees the house.", "  the   dog\tsees  the car. "]:
        ids, cut = source_ids(ckpt.tokenizer, text, ckpt.config.max_len)
        assert ids == hf_tok(text).input_ids and not cut
    assert ckpt.tokenizer.unk_id in source_ids(ckpt.tokenizer, SENTENCES[2], 64)[0]  # "ar" (of hears) is not in vocab.json
    target = hf_tok(text_target="die katze sieht das haus.").input_ids
    assert ckpt.tokenizer.decode(target) == hf_tok.decode(target, skip_special_tokens=True,
                                                         use_source_tokenizer=False) == "die katze sieht das haus."


def _has_sacremoses() -> bool:
    try:
        import sacremoses  # noqa: F401
    except ImportError:
        return False
    return True


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _batch(ckpt):
    """Two sources, the second padded, and a decoder input: the start token <pad> and target pieces."""
    srcs = [source_ids(ckpt.tokenizer, s, ckpt.config.max_len)[0] for s in SENTENCES[:2]]
    srcs[1] = srcs[1][:4]
    srcs[1][-1] = ckpt.config.eos_id
    width = max(map(len, srcs))
    src = torch.tensor([s + [ckpt.config.pad_id] * (width - len(s)) for s in srcs])
    torch.manual_seed(1)
    tgt_in = torch.randint(1, ckpt.config.vocab_size - 1, (2, 7))
    tgt_in[:, 0] = ckpt.config.bos_id
    return src, tgt_in


@torch.no_grad()
def test_encoder_logits_and_attention_agree(pair):
    ckpt, hf = pair
    model, cfg = ckpt.model, ckpt.config
    src, tgt_in = _batch(ckpt)
    attention_mask = (src != cfg.pad_id).long()
    ref = hf(input_ids=src, attention_mask=attention_mask, decoder_input_ids=tgt_in, output_attentions=True)
    memory = model.encode(src, make_src_mask(src, cfg.pad_id))
    logits, probe = model.trace(src, tgt_in)
    diffs = {"encoder": _max_diff(memory, ref.encoder_last_hidden_state), "logits": _max_diff(logits, ref.logits)}
    for kind, theirs in (("enc_self", ref.encoder_attentions), ("dec_self", ref.decoder_attentions),
                         ("cross", ref.cross_attentions)):
        ours = probe.all_weights(kind)
        assert len(ours) == len(theirs)
        diffs[kind] = max(_max_diff(o, t) for o, t in zip(ours, theirs, strict=True))
    print(f"max |ours - transformers|: {diffs}")
    assert all(d < TOL for d in diffs.values()), diffs


# Hugging Face's generate: its defaults (with OPUS-MT's generation_config.json, which bans <pad>) and the
# same options in ours; and ours by default (stop at `beam` ended, renormalize without <pad>, no forced </s>).
GENERATE_DEFAULTS = {"early_stopping": False, "renormalize": False, "force_eos": True}
OURS = {"early_stopping": True, "renormalize": True, "force_eos": False}


@pytest.mark.parametrize("beams, options", [(1, GENERATE_DEFAULTS), (4, GENERATE_DEFAULTS), (4, OURS)],
                         ids=["greedy", "beam4-generate-defaults", "beam4-ours"])
def test_greedy_and_beam_equal_generate(pair, beams, options):
    ckpt, hf = pair
    cfg = ckpt.config
    assert hf.generation_config.forced_eos_token_id == cfg.eos_id       # Marian's default
    generate = {} if options is GENERATE_DEFAULTS else {"early_stopping": True, "renormalize_logits": True,
                                                        "forced_eos_token_id": None}
    outputs = []
    for text in SENTENCES:
        src, _ = source_ids(ckpt.tokenizer, text, cfg.max_len)
        ref = hf.generate(input_ids=torch.tensor([src]), num_beams=beams, do_sample=False, max_length=MAX_LENGTH,
                          length_penalty=ALPHA, bad_words_ids=[[cfg.pad_id]], **generate)[0].tolist()
        assert ref[0] == cfg.bos_id
        expected = [t for t in ref[1:] if t not in (cfg.eos_id, cfg.pad_id)]
        if beams == 1:
            ours = greedy_decode(ckpt.model, src, max_len=MAX_LENGTH - 1, force_eos=options["force_eos"])
        else:
            ours = beam_search(ckpt.model, src, beam=beams, alpha=ALPHA, max_len=MAX_LENGTH - 1, penalty="hf",
                               **options)
        assert ours.ids == expected, text
        outputs.append(expected)
    assert any(outputs)


def test_beam_and_eos_cases_are_exercised(tmp_path_factory, vocabulary):
    """The random weights give beams that differ from greedy, outputs that end with </s> early, and
    sentences where early_stopping, renormalize and force_eos each change the output: the parity above
    is not one of identical answers."""
    ckpt, _ = _pair("1+1-swish-tied", tmp_path_factory, vocabulary)
    srcs = [source_ids(ckpt.tokenizer, text, ckpt.config.max_len)[0] for text in SENTENCES]

    def beam(src, **options):
        return beam_search(ckpt.model, src, beam=4, alpha=ALPHA, max_len=MAX_LENGTH - 1, penalty="hf", **options).ids
    greedy = [greedy_decode(ckpt.model, s, max_len=MAX_LENGTH - 1).ids for s in srcs]
    beams = [beam(s) for s in srcs]
    assert greedy != beams
    assert any(0 < len(ids) < MAX_LENGTH - 1 for ids in greedy + beams)
    assert any(beam(s, early_stopping=False) != b for s, b in zip(srcs, beams, strict=True))
    assert any(beam(s, renormalize=False) != b for s, b in zip(srcs, beams, strict=True))
    assert any(greedy_decode(ckpt.model, s, max_len=MAX_LENGTH - 1, force_eos=True).ids != g
               for s, g in zip(srcs, greedy, strict=True))


def test_translate_decodes_a_marian_checkpoint_as_generate_does(pair):
    """translate() uses the options the checkpoint's config.json and generation_config.json give generate."""
    ckpt, hf = pair
    assert ckpt.search == {"alpha": ALPHA, "penalty": "hf", **GENERATE_DEFAULTS}   # num_beams 1: no beam width
    cfg = ckpt.config
    for beams in (1, 4):
        out = translate(ckpt, SENTENCES[0], beam=beams, alpha=ALPHA, trace=True)
        assert out.src_ids[0] != cfg.bos_id and out.src_ids[-1] == cfg.eos_id
        assert len(out.decoded.steps) >= len(out.out_ids)
        ref = hf.generate(input_ids=torch.tensor([out.src_ids]), num_beams=beams, length_penalty=ALPHA,
                          max_length=default_max_len(ckpt.model, len(out.src_ids)) + 1,
                          bad_words_ids=[[cfg.pad_id]])[0].tolist()
        assert out.out_ids == [t for t in ref[1:] if t not in (cfg.eos_id, cfg.pad_id)]
        assert out.text == ckpt.tokenizer.decode(out.out_ids)
    for text in SENTENCES:             # the CLI's batched greedy (one sentence: the same max length)
        assert translate_lines(ckpt, [text], beam=1) == [translate(ckpt, text, beam=1).text]


def test_num_beams_and_length_penalty_of_generation_config_json_are_the_models(pair, tmp_path):
    """A generation_config.json with num_beams and length_penalty: translate() with no beam or α given
    decodes with them, as generate does; the defaults of our own checkpoints stay the paper's."""
    ckpt, hf = pair
    folder = tmp_path / "marian"
    shutil.copytree(ckpt.path, folder)
    generation = json.loads((folder / GENERATION_CONFIG).read_text())
    (folder / GENERATION_CONFIG).write_text(json.dumps({**generation, "num_beams": 3, "length_penalty": 0.7}))
    other = load_checkpoint(folder)
    assert (other.beam_options["beam"], other.beam_options["alpha"]) == (3, 0.7)
    for text in SENTENCES:
        out = translate(other, text)
        ref = hf.generate(input_ids=torch.tensor([out.src_ids]), num_beams=3, length_penalty=0.7,
                          max_length=default_max_len(other.model, len(out.src_ids)) + 1,
                          bad_words_ids=[[other.config.pad_id]])[0].tolist()
        assert out.out_ids == [t for t in ref[1:] if t not in (other.config.eos_id, other.config.pad_id)]
    for bad, message in (({"length_penalty": "long"}, "length_penalty must be a number"),
                         ({"length_penalty": float("nan")}, "length_penalty must be a number"),
                         ({"num_beams": 0}, "num_beams must be a whole number from 1 to 8"),
                         ({"num_beams": 200_000}, "num_beams must be a whole number from 1 to 8")):
        (folder / GENERATION_CONFIG).write_text(json.dumps({**generation, **bad}))
        with pytest.raises(CheckpointError, match=f"^{GENERATION_CONFIG}: {message}"):
            load_checkpoint(folder)


@torch.no_grad()
def test_pytorch_model_bin_loads_the_same(pair, tmp_path):
    ckpt, hf = pair
    folder = ckpt.path
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    for name in (CONFIG, SOURCE_SPM, TARGET_SPM, VOCAB):
        (bin_folder / name).write_bytes((folder / name).read_bytes())
    torch.save(hf.state_dict(), bin_folder / TORCH_WEIGHTS)
    other = load_checkpoint(bin_folder)
    src, tgt_in = _batch(ckpt)
    assert torch.equal(other.model(src, tgt_in), ckpt.model(src, tgt_in))
    assert other.config == ckpt.config


# --- what is refused ---------------------------------------------------------------------------

class _Payload:
    """Unpickling this calls open(path, "w"): it creates a file.  It must never be unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return open, (str(self.path), "w")


@pytest.fixture
def marian_folder(tmp_path, vocabulary):
    out = tmp_path / "marian"
    _marian(out, vocabulary, CONFIGS["1+1-swish-tied"])
    return out


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
@pytest.mark.parametrize("as_zip", [False, True])
def test_malicious_pytorch_model_bin_is_never_unpickled(marian_folder, tmp_path, as_zip):
    proof = tmp_path / "proof_the_payload_works"
    pickle.loads(pickle.dumps(_Payload(proof))).close()   # the bait is real ...
    assert proof.exists()
    marker = tmp_path / "pwned"
    (marian_folder / WEIGHTS).unlink()
    if as_zip:        # torch.save's zip format, as a real pytorch_model.bin
        torch.save({"model.shared.weight": _Payload(marker)}, marian_folder / TORCH_WEIGHTS)
    else:
        (marian_folder / TORCH_WEIGHTS).write_bytes(pickle.dumps(_Payload(marker)))
    refusal = (f"^{TORCH_WEIGHTS} cannot be read as plain tensors \\(torch.load with weights_only=True: " if as_zip
               else f"^{TORCH_WEIGHTS} is in torch's legacy format")      # not even handed to torch.load
    with pytest.raises(CheckpointError, match=refusal):
        load_checkpoint(marian_folder)
    assert not marker.exists()                             # ... but the loader never bites


@pytest.mark.parametrize("model_type, named", [
    ("t5", "relative position buckets instead of absolute positions; RMSNorm without bias"),
    ("bart", "learned positions of their own in encoder and decoder, offset by 2; a LayerNorm on the embeddings; "
             "a byte-level BPE tokenizer"),
    ("bert", "an architecture this model does not have"),
])
def test_other_hugging_face_models_are_refused_by_name(tmp_path, model_type, named):
    (tmp_path / CONFIG).write_text(json.dumps({"model_type": model_type, "d_model": 16}))
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{CONFIG}: Hugging Face model_type '{model_type}' is not supported ({named}")
    assert message.endswith("only Marian (model_type 'marian') checkpoints can be loaded")


def test_t5_saved_by_transformers_is_refused(tmp_path):
    cfg = transformers.T5Config(vocab_size=32, d_model=16, d_kv=8, d_ff=32, num_layers=1, num_heads=2)
    cfg.save_pretrained(tmp_path)
    with pytest.raises(CheckpointError, match="relative position buckets"):
        load_checkpoint(tmp_path)


@pytest.mark.parametrize("change, message", [
    ({"activation_function": "gelu_new"}, "activation_function 'gelu_new' is not supported"),
    ({"decoder_vocab_size": 7}, "a target vocabulary of its own"),
    ({"decoder_ffn_dim": 8}, "encoder_ffn_dim (32) and decoder_ffn_dim (8) differ"),
])
def test_marian_options_we_lack_are_named(marian_folder, change, message):
    data = json.loads((marian_folder / CONFIG).read_text())
    data.update(change)
    (marian_folder / CONFIG).write_text(json.dumps(data))
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(marian_folder)
    assert message in str(info.value)


def test_positions_of_another_layout_are_refused(marian_folder):
    """Older files keep the sinusoid tables; an interleaved one is not what this config.json builds."""
    state = transformers.MarianMTModel.from_pretrained(marian_folder).state_dict()
    table = state["model.encoder.embed_positions.weight"]
    assert torch.equal(table, sinusoidal_encoding(*table.shape, "halves"))
    state["model.encoder.embed_positions.weight"] = sinusoidal_encoding(*table.shape)
    (marian_folder / WEIGHTS).unlink()
    torch.save(state, marian_folder / TORCH_WEIGHTS)
    with pytest.raises(CheckpointError, match=f"^{TORCH_WEIGHTS}: model.encoder.embed_positions.weight is not "
                                              "Marian's sinusoid table"):
        load_checkpoint(marian_folder)


@pytest.mark.parametrize("name", [SOURCE_SPM, TARGET_SPM, VOCAB])
def test_missing_marian_file(marian_folder, name):
    (marian_folder / name).unlink()
    with pytest.raises(CheckpointError, match=f"^Marian checkpoint is missing {name} "):
        load_checkpoint(marian_folder)


# --- an upload, the Hugging Face cache ---------------------------------------------------------

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@torch.no_grad()
def test_an_uploaded_marian_folder_loads(marian_folder, tmp_path):
    from transformer_core.checkpoints.upload import load_upload

    files = [marian_folder / n for n in (CONFIG, WEIGHTS, SOURCE_SPM, TARGET_SPM, VOCAB)]
    ckpt, staged = load_upload(files, tmp_path / "sessions")
    reference = load_checkpoint(marian_folder)
    assert ckpt.config == reference.config and staged.folder != marian_folder
    src, tgt_in = _batch(ckpt)
    assert torch.equal(ckpt.model(src, tgt_in), reference.model(src, tgt_in))


def test_an_upload_lacking_a_marian_file_names_it(marian_folder, tmp_path):
    from transformer_core.checkpoints.upload import UploadError, load_upload

    with pytest.raises(UploadError, match=f"^the upload lacks {VOCAB} \\(a checkpoint holds {CONFIG}, {WEIGHTS}, "
                                          f"{SOURCE_SPM}, {TARGET_SPM}, {VOCAB}\\)"):
        load_upload([marian_folder / n for n in (CONFIG, WEIGHTS, SOURCE_SPM, TARGET_SPM)], tmp_path / "sessions")


def test_an_uploaded_pytorch_model_bin_is_refused_unopened(marian_folder, tmp_path):
    from transformer_core.checkpoints.upload import UploadError, load_upload

    torch.save({}, marian_folder / TORCH_WEIGHTS)
    with pytest.raises(UploadError, match=f"'{TORCH_WEIGHTS}' is a pickle-based file"):
        load_upload([marian_folder / n for n in (CONFIG, TORCH_WEIGHTS, SOURCE_SPM, TARGET_SPM, VOCAB)],
                    tmp_path / "sessions")


def test_an_upload_describing_a_huge_marian_model_is_refused_before_building_it(marian_folder, tmp_path):
    from transformer_core.checkpoints.upload import UploadError, load_upload

    data = json.loads((marian_folder / CONFIG).read_text())
    (marian_folder / CONFIG).write_text(json.dumps({**data, "d_model": 4096, "encoder_ffn_dim": 16384,
                                                    "decoder_ffn_dim": 16384}))
    with pytest.raises(UploadError, match="describes a model too large for this server: .* parameters"):
        load_upload([marian_folder / n for n in (CONFIG, WEIGHTS, SOURCE_SPM, TARGET_SPM, VOCAB)], tmp_path / "s")


@pytest.mark.parametrize("weights", [WEIGHTS, TORCH_WEIGHTS])
def test_a_marian_repo_in_the_hugging_face_cache_loads(marian_folder, tmp_path, weights):
    """models--Helsinki-NLP--opus-mt-tiny/snapshots/<commit>/: from_pretrained reads it offline."""
    from transformer_core.checkpoints.hub import from_pretrained

    repo = tmp_path / "hf_cache" / "models--Helsinki-NLP--opus-mt-tiny"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(COMMIT)
    snap = repo / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    for name in (CONFIG, SOURCE_SPM, TARGET_SPM, VOCAB):
        (snap / name).write_bytes((marian_folder / name).read_bytes())
    if weights == WEIGHTS:
        (snap / WEIGHTS).write_bytes((marian_folder / WEIGHTS).read_bytes())
    else:
        torch.save(transformers.MarianMTModel.from_pretrained(marian_folder).state_dict(), snap / TORCH_WEIGHTS)
    (snap / "README.md").write_text("# opus-mt-tiny\n")
    ckpt = from_pretrained("Helsinki-NLP/opus-mt-tiny", cache_dir=tmp_path / "hf_cache", local_files_only=True)
    reference = load_checkpoint(marian_folder)
    assert ckpt.path == snap and ckpt.config == reference.config and ckpt.card == "# opus-mt-tiny\n"
    src, tgt_in = _batch(ckpt)
    with torch.no_grad():
        assert torch.equal(ckpt.model(src, tgt_in), reference.model(src, tgt_in))
