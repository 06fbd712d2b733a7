"""The whole app on a Hugging Face Marian model: a tiny random MarianMTModel (transformers, a test
dependency; opus-mt's 8 heads and d_model 512, 2 + 2 layers) with its README.md card, its languages in
tokenizer_config.json and generate's options in generation_config.json, served as the app's checkpoints
folder.  Every page runs in both languages; the pages name its start token (<pad>), its α and beam width,
its heads, d_model and activation, and its card."""
import json
import re

import huggingface_hub
import pytest

from pages.ui import figures
from pages.ui.i18n import strings
from transformer_core import explain
from transformer_core.checkpoint import load_checkpoint
from transformer_core.marian import GENERATION_CONFIG, README, TOKENIZER_CONFIG
from transformer_core.translate import translate

from apppages import chart_spec, open_app
from marian_tiny import save_marian, write_vocabulary

pytest.importorskip("transformers")
pytestmark = pytest.mark.usefixtures("one_thread")

NAME = "opus-mt-tiny-en-de"
SPEC = (2, 2, 512, 8, "swish", True, True, True)      # opus-mt-en-de's width, heads, activation and ties
BEAMS, ALPHA = 3, 0.8                                  # generation_config.json: not the paper's 4 and 0.6
SENTENCE = "the cat sees the house."
CARD_TITLE = "opus-mt-tiny-en-de (random weights)"
PAGES = [None, "decoding", "shapes", "masks", "attention_lab", "positional", "training", "bleu", "models"]


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


@pytest.fixture
def marian_app(marian_root, monkeypatch):
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", marian_root)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    return load_checkpoint(marian_root / NAME)


def app(lang, page=None, **state):
    at = open_app(lang, page and f"pages/{page}.py", atlas_sentence=SENTENCE, **state)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def texts(at) -> str:
    return "\n".join(e.value for kind in ("markdown", "caption", "info", "warning") for e in at.get(kind))


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("mode", ["greedy", "beam"])
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p or "translate")
def test_every_page_runs_on_a_marian_model(marian_app, page, lang, mode):
    at = app(lang, page, atlas_mode=mode, masks_splitter="model")
    assert at.sidebar.selectbox(key="sidebar_model").options == [NAME]
    if page in (None, "decoding", "shapes"):
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
    assert [m.value for m in at.markdown if m.value.startswith("### ")][0].removeprefix("### ").replace("\\", "") \
        == tr.text
    for kind in explain.ATTENTION_KINDS:
        at = app(lang, atlas_mode="beam", tr_kind=s[f"attn.kind.{kind}"])
        grid = chart_spec(at, f"tr_grid_{kind}")
        assert len(grid["data"]) >= 1
        if kind != "enc_self":
            assert figures.escape(start) in json.dumps(grid)            # the decoder's first row is <pad>
    at = app(lang, atlas_mode="beam", tr_kind=s["translate.align.tab"])
    assert chart_spec(at, "tr_align_fig")["data"]
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
