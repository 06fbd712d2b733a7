"""Quantized models (model/quantize.py, checkpoints/quantized.py, checkpoints/prepare.py): int8 and bf16
follow the float model under teacher forcing (the bundled models on the everyday set, and random models of
each OPUS-MT configuration built with transformers), a prepared folder loads without a float copy and
refuses malformed files, and every view runs on a quantized model."""
import copy
import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from marian_tiny import OPUS, OPUS_LANGUAGES, marian_config, write_vocabulary
from transformer_core.checkpoints import hub
from transformer_core.checkpoints import prepare as prepare_module
from transformer_core.checkpoints.files import PREPARED, WEIGHTS, CheckpointError
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.marian import SOURCE_SPM, TARGET_SPM, VOCAB
from transformer_core.checkpoints.prepare import family, prepare
from transformer_core.explainer import attribution, explain
from transformer_core.explainer.translate import continue_from, sample, source_ids, translate
from transformer_core.model.quantize import agreement, quantize_model, scheme_of

ROOT = Path(__file__).resolve().parents[1]
EVERYDAY = [line.split("\t") for line in (ROOT / "tests/data/everyday.tsv").read_text(encoding="utf-8").splitlines()[1:]]
# The largest attention difference allowed.  The goal is 0.02, and bf16 is held to it (over the whole everyday
# set 0.013 on ende and 0.014 on enko round 24, whose query and key projections take float inputs: 0.025 with
# bfloat16 inputs).  int8 does not reach it (on every other everyday sentence, int8 × int8 products: 0.084 on
# ende since round 23, 0.095 on enko round 24; int8 weights times bfloat16 inputs, AVX2's kernel: 0.046 and
# 0.087; the bundled models' attention is sharp; 0.03 on the random OPUS configurations): its bound guards
# against a broken scheme, not the goal (docs/performance.md).
GAP = {"int8": 0.1, "bf16": 0.02}

pytestmark = pytest.mark.usefixtures("one_thread")


def teacher_pairs(ckpt, sentences: list[tuple[str, str]]) -> list[tuple[list[int], list[int]]]:
    """(source ids, <s> + the reference's ids) of each (source, reference) pair."""
    room = ckpt.config.max_len - 2
    return [(source_ids(ckpt.tokenizer, src, ckpt.config.max_len)[0],
             [ckpt.config.bos_id, *ckpt.tokenizer.encode_target(ref)[:room]]) for src, ref in sentences]


@pytest.mark.parametrize("scheme", ["int8", "bf16"])
@pytest.mark.parametrize("name, column", [("ende", 2), ("enko", 1)])
def test_a_quantized_bundled_model_follows_the_float_model(name, column, scheme):
    ckpt = load_checkpoint(ROOT / "checkpoints" / name)
    quantized = quantize_model(copy.deepcopy(ckpt.model), scheme)
    agree, gap = agreement(ckpt.model, quantized, teacher_pairs(ckpt, [(r[0], r[column]) for r in EVERYDAY[::2]]))
    assert agree >= 0.99, f"top-1 agrees at {agree:.4f} of the steps"
    assert gap <= GAP[scheme], f"attention differs by up to {gap:.4f}"


def trained_scale(model) -> None:
    """Random weights at a trained model's scale: each matrix N(0, 1/fan_in), so activations keep their size
    and attention is about as sharp as a trained model's (marian_tiny.randomize's larger weights make one-hot
    attention and logits so far apart that no precision matters, or so chaotic that every one does)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "layer_norm" in name:
                p.copy_((1.0 if name.endswith("weight") else 0.0) + 0.1 * torch.randn_like(p))
            else:
                p.normal_(0, p.size(1) ** -0.5 if p.dim() == 2 else 0.1)
        model.final_logits_bias.normal_(0, 0.5)


@pytest.fixture(scope="module")
def opus_folder(tmp_path_factory, toy_pairs):
    """name -> a random MarianMTModel of that OPUS-MT configuration (trained_scale), 2 + 2 layers at full width,
    saved as the Hub holds it, with a tiny vocabulary (</s> at the configuration's EOS id); built when first
    asked for."""
    import transformers
    from transformers.initialization import no_init_weights

    @cache
    def build(name):
        folder = tmp_path_factory.mktemp(name)
        vocab = write_vocabulary(folder, toy_pairs)
        eos = OPUS[name]["eos_token_id"]
        pieces = sorted(vocab, key=vocab.get)
        pieces[0], pieces[eos] = pieces[eos], pieces[0]                 # </s> at the configuration's EOS id
        (folder / VOCAB).write_text(json.dumps({p: i for i, p in enumerate(pieces)}))
        (folder / "tokenizer_config.json").write_text(json.dumps(dict(zip(("source_lang", "target_lang"),
                                                                          OPUS_LANGUAGES[name], strict=True))))
        cfg = marian_config(name, vocab_size=len(pieces), pad_token_id=len(pieces) - 1, encoder_layers=2,
                            decoder_layers=2, max_position_embeddings=64)
        with no_init_weights():         # trained_scale sets every weight; no_init_weights also skips the tying
            model = transformers.MarianMTModel(cfg).eval()
        model.tie_weights()             # one embedding matrix for both sides and the output, as the Hub's models
        torch.manual_seed(0)
        trained_scale(model)
        model.save_pretrained(folder)
        return folder
    return build


VOCABULARY = ("vocab_size", "pad_token_id", "eos_token_id")   # the tiny grammar's vocabulary replaces these
# each configuration's layers once (opus-mt-ko-en's are opus-mt-en-de's: on the tiny vocabulary, the same model)
LAYERS = {tuple(v for k, v in OPUS[name].items() if k not in VOCABULARY): name for name in reversed(OPUS)}


@pytest.mark.parametrize("scheme", ["int8", "bf16"])
@pytest.mark.parametrize("name", LAYERS.values())
def test_a_quantized_opus_configuration_follows_the_float_model(opus_folder, toy_pairs, name, scheme):
    ckpt = load_checkpoint(opus_folder(name))
    assert (ckpt.config.d_model, ckpt.config.n_heads, ckpt.config.d_ff) == (
        OPUS[name]["d_model"], OPUS[name]["encoder_attention_heads"], OPUS[name]["encoder_ffn_dim"])
    quantized = quantize_model(copy.deepcopy(ckpt.model), scheme)
    # every fourth pair of the tiny grammar: every other pair gave the same verdicts at twice the time (each
    # configuration and scheme: top-1 agreement 1.0000 both ways, attention gaps within 0.001 of each other and
    # at most 0.0253 for int8, 0.0041 for bf16), as all 100 had against every other (int8 99.94 % and 99.89 %)
    agree, gap = agreement(ckpt.model, quantized, teacher_pairs(ckpt, toy_pairs[::4]))
    assert agree >= 0.99, f"top-1 agrees at {agree:.4f} of the steps"
    assert gap <= GAP[scheme], f"attention differs by up to {gap:.4f}"


def test_a_prepared_folder_holds_int8_and_loads_without_a_float_copy(opus_folder, tmp_path, monkeypatch):
    monkeypatch.setattr(prepare_module, "TIMING_RUNS", 1)     # a time is written; its median is not the question
    source = load_checkpoint(opus_folder("opus-mt-tc-big-en-ko"))
    expected = quantize_model(copy.deepcopy(source.model), "int8")
    out = prepare(source, tmp_path / "enko-big", "int8", source="Helsinki-NLP/opus-mt-tc-big-en-ko")
    info = json.loads((out / PREPARED).read_text())
    assert info["family"] == "OPUS-MT big" and info["quantization"] == "int8" and info["greedy_ms"] > 0
    stored = load_file(str(out / WEIGHTS))
    assert {t.dtype for n, t in stored.items() if n.endswith(".weight_q")} == {torch.int8}
    assert not [n for n, t in stored.items() if t.dtype == torch.float32 and t.dim() == 2]   # no float matrix
    ckpt = load_checkpoint(out)
    assert scheme_of(ckpt.model) == "int8" and ckpt.prepared["source"] == "Helsinki-NLP/opus-mt-tc-big-en-ko"
    assert ckpt.model.num_parameters() == source.model.num_parameters()
    assert not [n for n, p in ckpt.model.named_parameters() if p.dtype == torch.float32 and p.dim() == 2]
    in_memory = copy.copy(source)
    in_memory.model = expected
    for text in ("the cat sees the house.", "the dog likes the apple."):
        assert translate(ckpt, text, beam=1).out_ids == translate(in_memory, text, beam=1).out_ids


def test_the_family_names_read_well():
    assert family("Helsinki-NLP/opus-mt-tc-big-en-ko") == "OPUS-MT big"
    assert family("Helsinki-NLP/opus-mt-ko-en") == "OPUS-MT"
    assert family("ende") == "ende"


@pytest.mark.parametrize("avx512_bf16", [False, True])
def test_bf16_on_a_cpu_without_avx512_bf16_is_said_to_be_slower(toy_checkpoints, tmp_path, monkeypatch, capsys, avx512_bf16):
    """`quantize --bf16` where every bfloat16 product is converted (an AVX2 CPU) says that --int8 is the fast scheme
    there; int8, and bf16 on a CPU with AVX-512 BF16, say nothing of it."""
    from transformer_core.checkpoints import prepare as prepare_cli
    from transformer_core.model import quantize

    monkeypatch.setattr(quantize, "BF16_NATIVE", avx512_bf16)
    for scheme in ("bf16", "int8"):
        assert prepare_cli.main([str(toy_checkpoints / "toy-en"), str(tmp_path / scheme), f"--{scheme}"]) == 0
        said = capsys.readouterr()
        assert f"{scheme}," in said.out
        assert (prepare_cli.SLOWER_NOTE in said.err) == (scheme == "bf16" and not avx512_bf16), said.err


def test_hub_pull_prepares_an_int8_marian_folder_from_the_local_cache(opus_folder, tmp_path, monkeypatch, capsys):
    from test_upload import hf_cache

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    cache = hf_cache(tmp_path, opus_folder("opus-mt-ko-en"))
    out = tmp_path / "koen"
    assert hub.main(["pull", "user/repo", "--cache-dir", str(cache), "--to", str(out), "--int8"]) == 0
    assert f"prepared {out}: int8" in capsys.readouterr().out
    ckpt = load_checkpoint(out)
    assert scheme_of(ckpt.model) == "int8" and (ckpt.config.src_lang, ckpt.config.tgt_lang) == ("ko", "en")
    assert {SOURCE_SPM, TARGET_SPM, VOCAB, PREPARED} <= {p.name for p in out.iterdir()}
    with pytest.raises(SystemExit):                       # --int8 without --to
        hub.main(["pull", "user/repo", "--cache-dir", str(cache), "--int8"])


@pytest.fixture(scope="module")
def int8_enko(tmp_path_factory):
    out = tmp_path_factory.mktemp("prepared") / "enko-int8"
    prepare(load_checkpoint(ROOT / "checkpoints" / "enko"), out, "int8")
    return out


def _broken(int8_enko, tmp_path, change) -> str:
    folder = tmp_path / "broken"
    folder.mkdir(parents=True)
    for path in int8_enko.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    change(folder)
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(folder)
    return str(info.value)


def _edit_state(edit):
    def change(folder):
        state = load_file(str(folder / WEIGHTS))
        edit(state)
        save_file(state, str(folder / WEIGHTS))
    return change


def test_malformed_quantized_folders_are_refused(int8_enko, tmp_path):
    def scheme(value):
        return lambda folder: (folder / PREPARED).write_text(json.dumps({"quantization": value}))
    assert "quantization must be one of int8, bf16" in _broken(int8_enko, tmp_path / "a", scheme("int4"))
    assert "must hold a JSON object" in _broken(int8_enko, tmp_path / "b",
                                                lambda f: (f / PREPARED).write_text("[1]"))
    name = "decoder.0.ffn.linear1"
    assert "not positive" in _broken(int8_enko, tmp_path / "c", _edit_state(
        lambda s: s[f"{name}.scale"].__setitem__(0, -1.0)))
    assert "a int8 model has torch.int8" in _broken(int8_enko, tmp_path / "d", _edit_state(
        lambda s: s.__setitem__(f"{name}.weight_q", s[f"{name}.weight_q"].float())))
    assert "lacks tensors" in _broken(int8_enko, tmp_path / "e", _edit_state(lambda s: s.pop(f"{name}.scale")))
    assert "NaN or infinite" in _broken(int8_enko, tmp_path / "f", _edit_state(
        lambda s: s[f"{name}.bias"].__setitem__(0, float("nan"))))
    assert "expected float32, float16, bfloat16 or int8" in _broken(int8_enko, tmp_path / "g", _edit_state(
        lambda s: s.__setitem__(f"{name}.bias", s[f"{name}.bias"].long())))


def test_every_view_runs_on_a_quantized_model(int8_enko):
    ckpt = load_checkpoint(int8_enko)
    reference = load_checkpoint(ROOT / "checkpoints" / "enko")
    text = "I like apples."
    assert translate(ckpt, text).text == translate(reference, text).text == "나는 사과를 좋아한다."
    traced = translate(ckpt, text, beam=1, trace=True)
    assert traced.decoded.steps and traced.decoded.steps[0].cross.shape[1:3] == (3, 4)   # (n, layers, h, S)
    whatif = continue_from(ckpt, text, "나는 배를")
    assert whatif.text.startswith("나는 배를")
    assert sample(ckpt, text, temperature=0.7, seed=1).out_ids == sample(ckpt, text, temperature=0.7, seed=1).out_ids
    out = translate(ckpt, text).out_ids
    weights = explain.teacher_forced_attention(ckpt.model, traced.src_ids, out)
    assert weights["cross"].shape == (3, 4, len(out) + 1, len(traced.src_ids))
    for method in ("integrated_gradients", "saliency"):
        scores = attribution.attribute(ckpt.model, traced.src_ids, out, method, steps=8)
        expected = attribution.attribute(reference.model, traced.src_ids, out, method, steps=8)
        assert scores.shape == expected.shape == (len(out) + 1, len(traced.src_ids))
        assert np.corrcoef(scores.ravel(), expected.ravel())[0, 1] >= 0.99     # measured: 0.999
    trace = explain.full_trace(ckpt.model, traced.src_ids, out)
    assert trace.src.shape == (1, len(traced.src_ids))


@pytest.mark.parametrize("scheme", ["int8", "bf16"])
@pytest.mark.parametrize("reused", [False, True])
def test_a_quantized_product_differentiates_through_its_float_matrix(scheme, reused):
    """x Wᵀ for W stored quantized, with x requiring a gradient: the value and the gradient of the float W."""
    from contextlib import nullcontext

    from transformer_core.model.quantize import dequantize, project, quantize_matrix, reused_floats

    torch.manual_seed(0)
    q, scale = quantize_matrix(torch.randn(48, 32), scheme)
    w = dequantize(q, scale)                                                    # (48, 32)
    x = torch.randn(3, 5, 32, requires_grad=True)
    g = torch.randn(3, 5, 48)
    with reused_floats() if reused else nullcontext():
        y = project(x, q, scale)
        (grad,) = torch.autograd.grad((y * g).sum(), x)
    torch.testing.assert_close(y, x @ w.t())
    torch.testing.assert_close(grad, g @ w)


@pytest.mark.parametrize("int8_activations", [True, False])
@pytest.mark.parametrize("rows", [1, 4, 20])                # greedy, beam 4, a sentence's teacher-forced pass
def test_both_int8_kernels_compute_the_product_of_the_stored_matrix(monkeypatch, int8_activations, rows):
    """Whichever kernel the CPU gets (quantize.INT8_ACTIVATIONS): x Wᵀ for the W = s · Q it stores, within the
    rounding of x (int8 per row, or bfloat16) and of the bfloat16 sums."""
    from transformer_core.model import quantize

    monkeypatch.setattr(quantize, "INT8_ACTIVATIONS", int8_activations)
    torch.manual_seed(0)
    q, scale = quantize.quantize_matrix(torch.randn(512, 256) / 16, "int8")
    x = torch.randn(2, rows, 256)
    exact = x @ quantize.dequantize(q, scale).t()                               # (2, rows, 512)
    y = quantize.project(x, q, scale)
    assert y.shape == exact.shape and y.dtype == torch.float32
    assert float((y - exact).abs().max()) <= 0.02 * float(exact.abs().max())    # measured: ≤ 0.011


@pytest.mark.parametrize("bf16_native", [True, False])
@pytest.mark.parametrize("rows", [1, 4, 20])
def test_bf16_rounds_its_inputs_only_where_that_is_the_fast_product(monkeypatch, bf16_native, rows):
    """bf16: x Wᵀ for the stored bfloat16 W.  x is rounded to bfloat16 (a bfloat16 product) where the CPU has
    AVX-512 BF16 (quantize.BF16_NATIVE) or for fewer than FLOAT_ROWS rows; else W is made float for the product
    and x stays as it is."""
    from transformer_core.model import quantize

    monkeypatch.setattr(quantize, "BF16_NATIVE", bf16_native)
    torch.manual_seed(0)
    w, _ = quantize.quantize_matrix(torch.randn(512, 256) / 16, "bf16")
    x = torch.randn(rows, 256)
    exact = x @ w.float().t()                                                   # (rows, 512)
    y = quantize.project(x, w, None)
    assert y.shape == exact.shape and y.dtype == torch.float32
    error = float((y - exact).abs().max()) / float(exact.abs().max())
    if bf16_native or rows < quantize.FLOAT_ROWS:
        assert 1e-4 < error <= 0.02, error                  # x and the sums rounded to bfloat16
    else:
        assert error <= 1e-5, error                         # float32 throughout


def test_attribution_on_a_quantized_model_keeps_no_float_copy_of_its_matrices(int8_enko):
    """No tensor the backward passes keep is a float matrix of a weight's shape (a big model's would be ~1 GB
    at once), and the buffer the float matrices are made in is gone afterwards."""
    from transformer_core.model import quantize

    ckpt = load_checkpoint(int8_enko)
    src = source_ids(ckpt.tokenizer, "I like apples.", ckpt.config.max_len)[0]
    out = translate(ckpt, "I like apples.").out_ids
    weight_shapes = {tuple(m.weight_q.shape) for m in ckpt.model.modules() if hasattr(m, "weight_q")}
    weight_shapes |= {s[::-1] for s in weight_shapes}
    kept = []

    def pack(t):
        if t.is_floating_point() and t.dim() == 2:
            kept.append(tuple(t.shape))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        attribution.attribute(ckpt.model, src, out, "integrated_gradients", steps=4)
    assert kept and not weight_shapes & set(kept), sorted(weight_shapes & set(kept))
    assert quantize._scratch.buffer is None


def test_the_cost_of_attribution_counts_a_quantized_model_making_its_matrices_float(int8_enko):
    from transformer_core.serving import cost

    cfg = load_checkpoint(int8_enko).config
    plain, quantized = (cost.estimate(cfg, "attribution", 20, steps=8, out_len=20, quantized=q) for q in (False, True))
    assert quantized.seconds > plain.seconds
    assert quantized.nbytes - plain.nbytes == cfg.vocab_size * cfg.d_model * 4     # the buffer: the largest matrix
