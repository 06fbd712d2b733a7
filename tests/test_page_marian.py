"""The whole app on a Hugging Face Marian model: a tiny random MarianMTModel (transformers, a test
dependency; opus-mt's 8 heads and d_model 512, 2 + 2 layers) with its README.md card, its languages in
tokenizer_config.json and generate's options in generation_config.json, served as the app's checkpoints
folder.  Every page runs in both languages; the pages name its start token (<pad>), its α and beam width,
its heads, d_model and activation, and its card.  BART and T5 folders are refused, naming what they have."""
import json
import re
import shutil

import huggingface_hub
import numpy as np
import pytest

from apppages import chart_spec, open_app, translation_text
from marian_tiny import save_marian, write_vocabulary
from pages.ui import figures
from pages.ui.i18n import strings
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.marian import (
    FEATURES,
    GENERATION_CONFIG,
    README,
    TOKENIZER_CONFIG,
    UNSUPPORTED,
    UnsupportedModel,
)
from transformer_core.explainer import explain
from transformer_core.explainer.translate import translate

pytest.importorskip("transformers")
pytestmark = pytest.mark.usefixtures("one_thread")

NAME = "opus-mt-tiny-en-de"


def english_german(lang: str) -> str:
    """How the sidebar names NAME: by its languages."""
    from pages.ui.i18n import translate

    return f"{translate(lang, 'srclang.en')} → {translate(lang, 'srclang.de')}"


SPEC = (2, 2, 512, 8, "swish", True, True, True)      # opus-mt-en-de's width, heads, activation and ties
BEAMS, ALPHA = 3, 0.8                                  # generation_config.json: not the paper's 4 and 0.6
SENTENCE = "the cat sees the house."
CARD_TITLE = "opus-mt-tiny-en-de (random weights)"
PAGES = [None, "diagram", "decoding", "shapes", "masks", "attention_lab", "positional", "training", "bleu", "models"]
SENTENCE_PAGES = (None, "diagram", "decoding", "shapes", "attention_lab")   # the sentence box: greedy or beam


@pytest.fixture(scope="module")
def marian_root(tmp_path_factory, toy_pairs):
    root = tmp_path_factory.mktemp("marian_app")
    folder = root / NAME
    folder.mkdir()
    vocab = write_vocabulary(folder, toy_pairs)
    save_marian(folder, folder, vocab, SPEC, d_ff=256)
    generation = json.loads((folder / GENERATION_CONFIG).read_text())
    (folder / GENERATION_CONFIG).write_text(json.dumps({**generation, "num_beams": BEAMS, "length_penalty": ALPHA}))
    (folder / TOKENIZER_CONFIG).write_text(json.dumps({"source_lang": "en", "target_lang": "de"}))
    (folder / README).write_text(f"# {CARD_TITLE}\n\nA MarianMTModel with random weights, for the app's tests.\n")
    return root


@pytest.fixture(scope="module")
def marian_ckpt(marian_root):
    return load_checkpoint(marian_root / NAME)


@pytest.fixture
def marian_app(marian_root, marian_ckpt, monkeypatch):
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", marian_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    return marian_ckpt


def app(lang, page=None, **state):
    at = open_app(lang, page and f"pages/{page}.py", atlas_sentence=SENTENCE, **state)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def texts(at) -> str:
    return "\n".join(e.value for kind in ("markdown", "caption", "info", "warning") for e in at.get(kind))


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("page, mode", [(page, mode) for page in PAGES
                                        for mode in (("greedy", "beam") if page in SENTENCE_PAGES else ("beam",))],
                         ids=lambda p: p or "translate")
def test_every_page_runs_on_a_marian_model(marian_app, page, lang, mode):
    at = app(lang, page, atlas_mode=mode, masks_splitter="model")
    assert at.sidebar.selectbox(key="sidebar_model").options == [english_german(lang)]          # NAME, by its languages
    if page in (None, "diagram", "decoding", "shapes"):
        assert "`<s>`" not in texts(at)                       # the decoder starts with <pad> here


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_translate_page_heatmaps_alignment_and_head_switch_off(marian_app, lang):
    ckpt, s = marian_app, strings(lang)
    start = "<pad>"
    assert ckpt.tokenizer.id_to_piece(ckpt.config.bos_id) == start
    at = app(lang, atlas_mode="beam")
    shown = texts(at)
    assert s["translate.lesson"].format(start=start) in shown
    tr = translate(ckpt, SENTENCE)                                     # the model's own beam 3, α 0.8
    assert translation_text(at) == tr.text
    for kind in explain.ATTENTION_KINDS:
        at = app(lang, atlas_mode="beam", tr_kind=s[f"attn.kind.{kind}"])
        grid = chart_spec(at, f"tr_grid_{kind}")
        assert len(grid["data"]) >= 1
        if kind == "dec_self":
            assert figures.escape(start) in json.dumps(grid)            # the decoder reads <pad> first
        if kind != "enc_self":                                           # its rows: the tokens they predict
            first = figures.tick_labels(ckpt.tokenizer.pieces(tr.decoded.ids[:1] or [ckpt.config.eos_id]))[0]
            assert first in grid["data"][0]["y"]
    at = app(lang, atlas_mode="beam", tr_kind=s["translate.align.tab"])
    assert chart_spec(at, "tr_align_fig")["data"]
    # gradients vs attention and what if: the same views on a Marian model
    at = app(lang, atlas_mode="beam", tr_kind=s["translate.attr.tab"], tr_attr_method="saliency")
    rows = np.array(chart_spec(at, "tr_attr_fig")["data"][0]["z"], dtype=float)
    assert rows.shape[1] == len(tr.src_ids) and np.allclose(rows.sum(1), 1, atol=1e-3)
    at = app(lang, atlas_mode="beam", tr_kind=s["translate.whatif.tab"])
    assert at.button_group(key="tr_whatif_step").options
    at.button(key="tr_off_all_cross").click().run()
    assert not at.exception
    off = explain.heads_off_map(at.session_state["tr_heads_off"])
    assert sum(len(heads) for heads in off.values()) == 2 * 8         # every head of both cross-attention layers
    tr_off = translate(ckpt, SENTENCE, heads_off=off)
    assert tr_off.text.replace("\\", "") in texts(at).replace("\\", "") or not tr_off.text


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_decoding_page_uses_and_names_the_models_beam_and_alpha(marian_app, lang):
    ckpt, s = marian_app, strings(lang)
    at = app(lang, "decoding", atlas_mode="beam")
    assert s["decoding.lesson"].format(start="<pad>") in texts(at)
    assert s["decoding.alpha_note"].format(beam=BEAMS, alpha=f"{ALPHA:g}", setting=s["sentence.search.model"]) \
        in texts(at)
    assert any(r"|Y|^{\alpha}" in f.value and f"{ALPHA:g}" in f.value for f in at.latex)
    ref = translate(ckpt, SENTENCE, trace=True).decoded.steps
    assert max(len(step.prefixes) for step in ref) <= BEAMS
    assert list(at.dataframe[0].value.iloc[0])[0] == "<pad>"       # the decoder input starts with <pad>
    help_text = next(w for w in at.get("button_group") if w.key == "dec_mode").help
    assert f"α = {ALPHA:g}" in help_text and s["sentence.lp.hf"] in help_text and str(BEAMS) in help_text


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_shapes_page_reads_heads_width_and_activation_from_the_config(marian_app, lang):
    at = app(lang, "shapes")
    cfg = marian_app.config
    caption = strings(lang)["shapes.model"].format(d_model=512, h=8, d_k=64, d_ff=256, n_enc=2, n_dec=2,
                                                   V=cfg.vocab_size)
    assert caption in texts(at)
    assert any(r"\mathrm{swish}" in f.value for f in at.latex) and not any("ReLU" in f.value for f in at.latex)
    assert strings(lang)["shapes.loss.explain"].format(start="<pad>") in texts(at)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_models_page_shows_the_readme_as_its_card(marian_app, lang):
    at = app(lang, "models")
    shown = texts(at)
    assert f"({README})" in shown and CARD_TITLE in shown
    assert re.search(r"pad \d+ · unk 1 · bos \d+ · eos 0", json.dumps([t.value.to_dict() for t in at.table],
                                                                     ensure_ascii=False, default=str))


# --- other Hugging Face architectures: refused, naming what they have -------------------------------

def _bart(folder):
    import transformers

    cfg = transformers.BartConfig(vocab_size=40, d_model=16, encoder_layers=1, decoder_layers=1,
                                  encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                                  decoder_ffn_dim=32, max_position_embeddings=32)
    transformers.BartForConditionalGeneration(cfg).save_pretrained(folder)
    (folder / "vocab.json").write_text(json.dumps({f"t{i}": i for i in range(40)}))      # byte-level BPE's files
    (folder / "merges.txt").write_text("#version: 0.2\nt 1\n")


def _t5(folder, spm_file):
    import transformers

    cfg = transformers.T5Config(vocab_size=40, d_model=16, d_kv=8, d_ff=32, num_layers=1, num_heads=2)
    transformers.T5ForConditionalGeneration(cfg).save_pretrained(folder)
    (folder / "spiece.model").write_bytes(spm_file.read_bytes())


@pytest.fixture(scope="module")
def others(tmp_path_factory, marian_root):
    root = tmp_path_factory.mktemp("hf_others")
    _bart(root / "bart-tiny")
    _t5(root / "t5-tiny", marian_root / NAME / "source.spm")
    return root


@pytest.mark.parametrize("model_type, features", [("bart", UNSUPPORTED["bart"]), ("t5", UNSUPPORTED["t5"])])
def test_bart_and_t5_folders_are_refused_naming_what_they_have(others, tmp_path, model_type, features):
    from transformer_core.checkpoints.upload import load_upload

    folder = others / f"{model_type}-tiny"
    with pytest.raises(UnsupportedModel) as info:
        load_checkpoint(folder)
    assert info.value.model_type == model_type and info.value.features == features
    assert all(FEATURES[f] in str(info.value) for f in features)
    with pytest.raises(UnsupportedModel) as info:            # an upload of its files: the same, not "lacks …"
        load_upload(sorted(folder.iterdir()), tmp_path / "uploads")
    assert info.value.model_type == model_type
    assert not any((tmp_path / "uploads").iterdir())          # its staging folder is gone


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_models_page_names_what_bart_and_t5_have_in_the_interface_language(others, marian_root, marian_app,
                                                                             monkeypatch, tmp_path, lang):
    from pages.ui import model_state

    s = strings(lang)
    root = tmp_path / "checkpoints"
    shutil.copytree(marian_root / NAME, root / NAME)
    shutil.copytree(others / "t5-tiny", root / "t5-tiny")
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)
    monkeypatch.setenv("ATLAS_UPLOAD_DIR", str(tmp_path / "uploads"))

    def named(model_type):
        what = ", ".join(s[f"models.hf_feature.{f}"] for f in UNSUPPORTED[model_type])
        return s["models.ckpt.hf_unsupported"].format(model_type=model_type, what=what)

    at = app(lang, "models")
    assert at.sidebar.selectbox(key="sidebar_model").options == [english_german(lang)]   # NAME; the T5 folder is left out
    assert any(named("t5") in w.value and "t5\\-tiny" in w.value for w in at.warning), [w.value for w in at.warning]
    assert upload(at, others / "bart-tiny", ("config.json", "model.safetensors", "vocab.json")).error[0].value \
        .startswith(named("bart"))
    assert at.selectbox(key="models_select").value == f"bundled:{NAME}"            # the Marian model stays


def upload(at, folder, names):
    """The files chosen one by one in the Models page's uploader, then its button."""
    at.file_uploader[0].set_value([(n, (folder / n).read_bytes(), "application/octet-stream") for n in names]).run()
    at.button(key="models_upload_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_marian_model_uploaded_file_by_file_serves_every_model_page(marian_root, marian_app, tmp_path,
                                                                      monkeypatch, lang):
    """An upload of a Marian folder's files (source.spm and target.spm among them): the session's model,
    on which the model pages run."""
    monkeypatch.setenv("ATLAS_UPLOAD_DIR", str(tmp_path / "uploads"))
    at = app(lang, "models")
    at = upload(at, marian_root / NAME, ("config.json", "model.safetensors", "source.spm", "target.spm", "vocab.json",
                                         GENERATION_CONFIG, TOKENIZER_CONFIG, README))
    assert not at.error, [e.value for e in at.error]
    key = at.selectbox(key="models_select").value
    assert key.startswith("session:")
    for page in ("translate", "diagram", "decoding", "shapes"):
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception and not at.error, (page, [e.value for e in at.exception])
        if page == "diagram":          # the uploaded model's own 2 + 2 layers: the first of each in full, a box each
            svg = next(json.loads(c.proto.json)["svg"] for c in at.get("bidi_component")
                       if c.proto.component_name == "atlas_svg_diagram")
            assert re.findall(r'class="layer-frame" data-layer="([\w.]+)"', svg) == ["encoder.0", "decoder.0"]
            assert re.findall(r'class="block layer" [^>]*data-layer="([\w.]+)"', svg) == ["encoder.1", "decoder.1"]
    assert strings(lang)["shapes.loss.explain"].format(start="<pad>") in texts(at)
