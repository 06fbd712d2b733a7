"""Every page runs under streamlit.testing in both languages, and the widgets drive the figures."""
import base64
import json
import math
from pathlib import Path

import numpy as np
import plotly.io as pio
import pytest
import sacrebleu
import torch
from streamlit.testing.v1 import AppTest

from apppages import chart as drawn_chart
from apppages import chart_specs
from transformer_core.explainer.toy import whitespace_batch
from transformer_core.model.masks import make_src_mask, make_trg_mask
from transformer_core.model.positional import sinusoidal_encoding
from transformer_core.training.schedule import lrate_curve

ROOT = Path(__file__).resolve().parents[1]


def load(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "assets" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))

APP = str(ROOT / "app.py")
PAGES = ["translate", "diagram", "decoding", "attention_lab", "shapes", "positional", "masks", "training", "bleu",
         "models"]
MINE = ["attention_lab", "positional", "masks", "training", "bleu"]
TIMEOUT = 60


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """Small tensors on a shared CPU (see conftest.one_thread)."""


def open_page(page: str, lang: str = "ko") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    if page != "translate":
        at.switch_page(f"pages/{page}.py").run()
    return at


def arr(value) -> np.ndarray:
    """A figure's data array as numpy (plotly sends numpy arrays as typed base64 'bdata')."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if shape:
            flat = flat.reshape([int(n) for n in str(shape).split(",")])
        return flat.astype(float)
    return np.asarray(value, dtype=float)


def chart(at: AppTest, key: str):
    """The plotly figure drawn with the given key (show_figure's key defaults to fig_<name>) and its config."""
    spec, config = drawn_chart(at, key)
    return pio.from_json(spec), config


WRONG_NAMES = ("<bos>", "<eos>", "&lt;bos&gt;", "&lt;eos&gt;", "\u2581")       # ▁: SentencePiece's raw word-start mark


def shown_text(at) -> str:
    """Every text the page shows: Markdown, captions, alerts, tables (cells, index, columns) and charts."""
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "success", "error", "title", "header",
                                 "subheader") for e in getattr(at, kind)]
    for frame in [*at.dataframe, *at.table]:
        value = frame.value
        parts += [str(value.to_dict()), " ".join(map(str, value.index)), " ".join(map(str, value.columns))]
    parts += list(chart_specs(at).values())
    return "\n".join(parts).replace("\\u2581", "\u2581")                  # a chart's JSON escapes ▁


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_and_names_tokens_one_way(page, lang):
    """Every page runs, under its title; and it names each special token and the word-start mark one way: what a
    class reads never says <bos>/<eos> beside <s>/</s>, nor '▁나는' in a table beside '·나는' in a chart
    (pages/ui/theme.py)."""
    at = open_page(page, lang)
    assert not at.exception, [e.value for e in at.exception]
    if page in MINE:
        key = {"attention_lab": "lab", "positional": "pe"}.get(page, page)
        assert at.title[0].value == load(lang)[f"{key}.title"]
    text = shown_text(at)
    for wrong in WRONG_NAMES:
        assert wrong not in text, (page, wrong, text[max(0, text.find(wrong) - 80):text.find(wrong) + 80])


def test_url_paths_differ_from_file_names():
    """Streamlit's automatic pages/ mode would run a page named like its file without app.py."""
    import ast

    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    pages = next(ast.literal_eval(n.value) for n in ast.walk(tree)
                 if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "PAGES")
    assert [Path(p).stem for p, _, _ in pages] == PAGES
    assert all(Path(p).stem != url for p, url, _ in pages)


def test_unknown_language_falls_back_to_korean():
    at = open_page("bleu", "xx")
    assert not at.exception and at.title[0].value == load("ko")["bleu.title"]


def test_sidebar_switches_language():
    at = open_page("masks", "ko")
    at.sidebar.selectbox[0].set_value("en").run()
    assert at.title[0].value == load("en")["masks.title"] and at.query_params["lang"] in ("en", ["en"])


def test_png_export_is_named_after_page_figure_and_language():
    at = open_page("positional", "en")
    _, config = chart(at, "fig_pe_heatmap")
    assert config["toImageButtonOptions"] == {"format": "png", "scale": 2,
                                              "filename": "attention-atlas_positional-encoding_pe_heatmap_en"}
    assert config["displaylogo"] is False


def test_positional_sliders_update_the_figures():
    at = open_page("positional", "en")
    at.slider(key="pe_d_model").set_value(32)
    at.slider(key="pe_max_len").set_value(12).run()
    assert not at.exception
    fig, _ = chart(at, "fig_pe_heatmap")
    assert np.allclose(arr(fig.data[0].z), sinusoidal_encoding(12, 32).numpy())
    sim, _ = chart(at, "fig_pe_similarity")
    pe = sinusoidal_encoding(12, 32).double().numpy()
    assert np.allclose(arr(sim.data[0].z), pe @ pe.T)
    # the rotation: T(k)·PE(pos) lands on PE(pos+k) for the chosen pair
    at.slider(key="pe_pair").set_value(3)
    at.slider(key="pe_k").set_value(4).run()
    rot, _ = chart(at, "fig_rotation")
    rotated, target = rot.data[-1], rot.data[-2]
    assert np.allclose([rotated.x[1], rotated.y[1]], [target.x[1], target.y[1]], atol=1e-5)
    assert not at.exception


def test_positional_alternatives_table_and_bad_lengths():
    at = open_page("positional", "en")
    table = at.dataframe[-1].value if hasattr(at.dataframe[-1], "value") else None
    assert table is not None
    at.slider(key="pe_short").set_value(30)
    at.slider(key="pe_long").set_value(20).run()
    assert not at.exception and any(w.value == load("en")["pe.alt.lengths_warning"] for w in at.warning)


def test_masks_follow_the_sentences():
    at = open_page("masks", "en")
    lines = ["one two three four", "five"]
    at.text_area(key="masks_text_en").set_value("\n".join(lines)).run()
    assert not at.exception
    ids, tokens, _ = whitespace_batch(lines)
    pad, _ = chart(at, "fig_padding_mask")
    assert np.array_equal(arr(pad.data[0].z), make_src_mask(ids, 0)[:, 0, 0, :].int().numpy())
    at.selectbox(key="masks_pick").set_value(1).run()
    combined, _ = chart(at, "fig_combined_mask")
    assert np.array_equal(arr(combined.data[0].z), make_trg_mask(ids, 0)[1, 0].int().numpy())
    weights, _ = chart(at, "fig_scores_weights_combined")
    assert np.allclose(arr(weights.data[0].z).sum(axis=1), 1.0)


def test_masks_leak_rows_before_the_change_are_untouched():
    at = open_page("masks", "en")
    fig, _ = chart(at, "fig_causal_leak")
    with_mask, without = arr(fig.data[0].y), arr(fig.data[1].y)
    pos = at.slider(key=[s.key for s in at.slider if s.key.startswith("masks_leak_pos")][0]).value
    assert (with_mask[:pos] == 0).all() and (without[:pos] > 0).all()


@pytest.mark.parametrize("text", ["", "   \n\n", "x " * 3000, "<script>alert(1)</script>\n" * 20, "ａ\u200b\tb"])
def test_masks_bad_input_gives_a_message_not_a_traceback(text):
    at = open_page("masks", "en")
    at.text_area(key="masks_text_en").set_value(text[:2000]).run()
    assert not at.exception


def test_training_sliders_update_the_lr_curve():
    at = open_page("training", "en")
    at.select_slider(key="train_d_model").set_value(512)
    at.slider(key="train_warmup").set_value(2000)
    at.slider(key="train_total").set_value(10000).run()
    assert not at.exception
    fig, _ = chart(at, "fig_lrate")
    full = lrate_curve(10000, 512, 2000)
    xs = list(fig.data[0].x)
    assert 2000 in xs and list(fig.data[0].y) == [full[s - 1] for s in xs]
    paper = lrate_curve(10000, 512, 4000)
    assert list(fig.data[1].y) == [paper[s - 1] for s in xs]


def test_training_label_smoothing_figure():
    at = open_page("training", "en")
    at.slider(key="train_eps").set_value(0.2).run()
    fig, _ = chart(at, "fig_label_smoothing")
    smoothed = arr(fig.data[1].y)
    V = len(smoothed)
    assert np.isclose(smoothed.sum(), 1.0) and np.isclose(smoothed.min(), 0.2 / V)


def pick_log(at: AppTest, name: str) -> None:
    """Choose the training log of the folder `name` on the Training page."""
    box = next(b for b in at.selectbox if str(b.key).startswith("train_log_pick_"))
    box.set_value(list(box.options).index(name)).run()


def test_training_log_from_a_checkpoint_and_live_paths(tmp_path, monkeypatch):
    log = tmp_path / "checkpoints" / "tiny" / "train_log.jsonl"
    log.parent.mkdir(parents=True)
    rows = [{"step": s, "lr": lr, "loss": 5.0 - s / 100, "tokens_per_s": 1000.0, "elapsed": s / 10}
            for s, lr in zip((50, 100, 150), (1e-4, 2e-4, 3e-4), strict=True)]
    rows.append({"step": 150, "lr": 3e-4, "valid_loss": 4.0, "bleu": 3.5, "elapsed": 16.0})
    log.write_text("".join(json.dumps(r) + "\n" for r in rows) + "{broken", encoding="utf-8")
    (log.parent / "config.json").write_text(json.dumps({"d_model": 128}), encoding="utf-8")
    monkeypatch.setenv("ATLAS_ROOT", str(tmp_path))
    at = open_page("training", "en")
    assert not at.exception
    pick_log(at, "tiny")                                # the active model's own log comes first
    fig, _ = chart(at, "fig_log_ckpt")
    assert list(fig.data[0].y) == [4.5, 4.0, 3.5] and list(fig.data[2].y) == [3.5]
    at.selectbox(key="train_overlay").set_value(0).run()
    lr_fig, _ = chart(at, "fig_lrate")
    assert list(lr_fig.data[-1].y) == [1e-4, 2e-4, 3e-4, 3e-4]
    at.toggle(key="train_live_on").set_value(True)
    for path, message in [("/etc/passwd", "training.live.err.outside"), ("runs/../../x.jsonl", "training.live.err.outside"),
                          ("checkpoints/tiny/none.jsonl", "training.live.err.not_found")]:
        at.text_input(key="train_live_path").set_value(path).run()
        assert not at.exception and any(w.value == load("en")[message] for w in at.warning), path
    at.text_input(key="train_live_path").set_value("checkpoints/tiny/train_log.jsonl").run()
    live, _ = chart(at, "fig_log_live")
    assert list(live.data[0].x) == [50, 100, 150]


def test_training_without_logs_says_so(tmp_path, monkeypatch, app_checkpoints):
    """No log under ATLAS_ROOT, and the active model (a toy checkpoint) has none of its own."""
    monkeypatch.setenv("ATLAS_ROOT", str(tmp_path))
    at = open_page("training", "ko")
    assert not at.exception and any(i.value == load("ko")["training.log.none"] for i in at.info)


def test_attention_lab_lecture_example_numbers():
    at = open_page("attention_lab", "en")
    qk, _ = chart(at, "fig_qk")
    assert math.isclose(float(arr(qk.data[0].z)[0, 0]), 0.4, rel_tol=1e-9)
    scaled, _ = chart(at, "fig_scaled")
    assert math.isclose(float(arr(scaled.data[0].z)[0, 0]), 0.2, rel_tol=1e-9)
    out, _ = chart(at, "fig_output")
    assert np.allclose(arr(out.data[0].z)[0], [0.5, 0.8, 0.7, 0.9])


def test_attention_lab_self_attention_with_causal_mask():
    at = open_page("attention_lab", "en")
    at.radio(key="lab_preset").set_value("self").run()
    at.toggle(key="lab_causal").set_value(True).run()
    assert not at.exception
    masked, _ = chart(at, "fig_masked")
    z = arr(masked.data[0].z)
    assert np.isnan(z[0, 1:]).all() and masked.data[0].text[0][2] == load("en")["common.neg_inf"]
    weights, _ = chart(at, "fig_weights")
    assert np.allclose(arr(weights.data[0].z)[0], [1, 0, 0])


def test_attention_lab_saturation_follows_the_sliders():
    at = open_page("attention_lab", "en")
    at.slider(key="lab_factor").set_value(50)
    at.text_input(key="lab_z").set_value("0.3, 0.4, -0.2").run()
    fig, _ = chart(at, "fig_softmax_saturation")
    z = torch.tensor([0.3, 0.4, -0.2], dtype=torch.float64)
    assert np.allclose(fig.data[0].y, torch.softmax(z, -1).numpy())
    assert np.allclose(fig.data[1].y, torch.softmax(50 * z, -1).numpy())
    at.select_slider(key="lab_dk").set_value(256).run()
    assert at.metric[1].value == "16.00"
    at.text_input(key="lab_z").set_value("abc").run()
    assert not at.exception and any(w.value == load("en")["lab.sat.bad_z"] for w in at.warning)


def test_bleu_page_matches_sacrebleu_and_handles_bad_input(tmp_path, monkeypatch):
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", tmp_path)     # no model: the fixed example pair
    at = open_page("bleu", "en")
    hyp, ref = "the the the the", "the cat"
    at.text_area(key="bleu_hyp_en").set_value(hyp)
    at.text_area(key="bleu_refs_en").set_value(ref).run()
    assert not at.exception
    assert at.metric[0].value == f"{sacrebleu.sentence_bleu(hyp, [ref]).score:.2f}"
    fig, _ = chart(at, "fig_precisions")
    assert math.isclose(fig.data[0].y[0], 25.0)
    at.button(key="bleu_ex_default").click().run()
    assert at.text_area(key="bleu_hyp_en").value == load("en")["bleu.default_hyp"]
    at.button(key="bleu_ex_clip").click().run()
    assert at.text_area(key="bleu_hyp_en").value == "the the the the" and not at.exception
    at.text_area(key="bleu_hyp_en").set_value("").run()
    assert not at.exception and any(i.value == load("en")["bleu.err.no_hyp"] for i in at.info)
    at.text_area(key="bleu_hyp_en").set_value("x " * 1000)
    at.text_area(key="bleu_refs_en").set_value("\n".join(["y"] * 10)).run()
    assert not at.exception


def test_bleu_default_is_the_models_output_against_a_reference(app_checkpoints):
    """With a model, the first pair is its beam translation of its first example against that example's ref."""
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer.translate import translate

    ckpt = load_checkpoint(app_checkpoints / "toy-en")
    example = ckpt.examples[0]
    at = open_page("bleu", "en")
    assert not at.exception
    assert at.text_area(key="bleu_hyp_en").value == translate(ckpt, example["src"], beam=4).text
    assert at.text_area(key="bleu_refs_en").value == example["ref"]


@pytest.fixture(scope="module")
def tiny_checkpoints(tmp_path_factory, toy_spm):
    """A checkpoints/ folder with one tiny, untrained model (enough to trace its heads)."""
    from transformer_core.checkpoints.folder import save_checkpoint
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import Tokenizer
    from transformer_core.model.transformer import Transformer

    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=Tokenizer.load(toy_spm).vocab_size, d_model=16, n_heads=2, n_encoder_layers=1,
                      n_decoder_layers=1, d_ff=32, max_len=24)
    folder = tmp_path_factory.mktemp("atlas") / "checkpoints"
    save_checkpoint(folder / "lab-tiny", Transformer(cfg), toy_spm,
                    examples=[{"src": "the cat sees the house.", "ref": "die katze sieht das haus."}])
    return folder, cfg


def test_attention_lab_real_head_of_a_model(tiny_checkpoints, monkeypatch):
    """With a checkpoint, the lab shows a head's real Q and K and recomputes its weights."""
    from pages.ui import model_state

    folder, cfg = tiny_checkpoints
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", folder)
    at = open_page("attention_lab", "en")
    assert not at.exception
    q, _ = chart(at, "fig_real_q")
    assert arr(q.data[0].z).shape[1] == cfg.d_k
    at.radio(key="lab_real_kind").set_value("cross").run()
    assert not at.exception
    weights, _ = chart(at, "fig_real_weights")
    assert np.allclose(arr(weights.data[0].z).sum(axis=1), 1.0, atol=1e-6)
    metric = {m.label: m.value for m in at.metric}
    s = load("en")
    assert float(metric[s["lab.real.check"]]) < 1e-5          # attention_steps == the model's own weights
    q, _ = chart(at, "fig_real_q")                             # why the scaled scores stay large: ‖q‖, ‖k‖, √d_k
    assert float(metric[s["lab.real.q_norm"]]) == pytest.approx(np.linalg.norm(arr(q.data[0].z), axis=1).mean(), abs=0.006)
    assert float(metric[s["lab.real.unit_norm"]]) == pytest.approx(cfg.d_k ** 0.5, abs=0.006)
    assert any(i.value.startswith(s["lab.real.why_large"].split("{")[0]) for i in at.info)


def test_masks_with_the_model_tokenizer(tiny_checkpoints, monkeypatch):
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", tiny_checkpoints[0])
    at = open_page("masks", "en")
    at.radio(key="masks_splitter").set_value("model").run()
    assert not at.exception
    pad, _ = chart(at, "fig_padding_mask")
    z = arr(pad.data[0].z)
    assert z.shape[0] == 3 and (z[:, 0] == 1).all() and (z == 0).any()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_training_plays_back_attention_being_learned(tmp_path, toy_spm, toy_pairs, monkeypatch, lang):
    """A checkpoint with attention_history.safetensors: the Training page's step slider and play button
    run over frames holding exactly the recorded weights, the loss marker at each step."""
    from transformer_core.checkpoints.folder import save_checkpoint
    from transformer_core.explainer import history
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import Tokenizer
    from transformer_core.model.transformer import Transformer

    tok = Tokenizer.load(toy_spm)
    cfg = ModelConfig(vocab_size=tok.vocab_size, d_model=16, n_heads=2, n_encoder_layers=1, n_decoder_layers=2,
                      d_ff=32, max_len=40, tgt_lang="de")
    folder = tmp_path / "checkpoints" / "tiny"
    hist = history.empty(history.probe_set(tok, "de", toy_pairs[:2]))
    for step, seed in ((0, 0), (100, 1), (200, 2)):
        torch.manual_seed(seed)
        history.record(hist, Transformer(cfg), step)
    save_checkpoint(folder, Transformer(cfg), toy_spm)
    history.save(hist, folder / history.HISTORY)
    rows = [{"step": s, "lr": 1e-4, "loss": 6.0 - s / 100, "tokens_per_s": 1.0, "elapsed": s} for s in (50, 100, 200)]
    (folder / "train_log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setenv("ATLAS_ROOT", str(tmp_path))
    at = open_page("training", lang)
    assert not at.exception
    pick_log(at, "tiny")
    expected = history.load(folder / history.HISTORY).weights[0]["cross"][:, 1, 0]   # cross, last layer, head 1

    def drawn():
        fig, _ = chart(at, "fig_train_history")
        return arr(fig.data[0].z), fig.data[2].x[0], fig.data[2].y[0]

    z, x, y = drawn()
    np.testing.assert_allclose(z, expected[0], atol=1e-6)
    assert x == 0
    at.select_slider(key="train_hist_step").set_value(2).run()             # the slider moves both
    z, x, y = drawn()
    np.testing.assert_allclose(z, expected[2], atol=1e-6)
    assert (x, y) == (200, pytest.approx(4.0))
    at.select_slider(key="train_hist_step").set_value(0).run()
    play = at.button(key="train_hist_play")
    assert play.label == load(lang)["training.hist.play"]
    play.click().run()                                                    # ▶: one record on at each run
    z, x, _ = drawn()
    np.testing.assert_allclose(z, expected[1], atol=1e-6)
    assert x == 100 and at.button(key="train_hist_play").label == load(lang)["training.hist.pause"]
    at.run()
    assert drawn()[1] == 200 and at.button(key="train_hist_play").label == load(lang)["training.hist.play"]  # the end
    at.selectbox(key="train_hist_kind").set_value("enc_self").run()
    np.testing.assert_allclose(drawn()[0], history.load(folder / history.HISTORY).weights[0]["enc_self"][-1, 0, 0],
                               atol=1e-6)
    assert hist.probes[0].src == "I like apples."                  # the lecture's sentence comes first


def test_training_page_follows_the_chosen_model():
    """?model=enko: the training log and the attention replay are en→ko's, not the first model's."""
    from transformer_core.training.trainlog import read_log

    for name in ("enko", "ende"):
        at = AppTest.from_file(APP, default_timeout=TIMEOUT)
        at.query_params["lang"] = "en"
        at.query_params["model"] = name
        at.run()
        at.switch_page("pages/training.py").run()
        assert not at.exception
        fig, _ = chart(at, "fig_log_ckpt")
        log = read_log(ROOT / "checkpoints" / name / "train_log.jsonl")
        assert list(fig.data[0].x) == [s for s, y in zip(log.train["step"], log.train["loss"], strict=True) if y is not None]
        from transformer_core.explainer import history

        history_fig, _ = chart(at, "fig_train_history")
        first = history.load(ROOT / "checkpoints" / name / history.HISTORY).weights[0]["cross"][0, -1, 0]
        np.testing.assert_allclose(arr(history_fig.data[0].z), first, atol=1e-3)      # this model's record


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_training_says_why_a_malformed_attention_history_is_not_shown(tmp_path, monkeypatch, lang):
    """A probe without its other fields (history.load refuses it): a translated warning, not a traceback."""
    from safetensors.numpy import save_file

    from transformer_core.checkpoints.files import HISTORY

    folder = tmp_path / "checkpoints" / "tiny"
    folder.mkdir(parents=True)
    (folder / "train_log.jsonl").write_text(json.dumps({"step": 50, "lr": 1e-4, "loss": 5.0}) + "\n")
    save_file({}, str(folder / HISTORY), metadata={"history": json.dumps({"steps": [0], "probes": [{"src": "x"}]})})
    monkeypatch.setenv("ATLAS_ROOT", str(tmp_path))
    at = open_page("training", lang)
    pick_log(at, "tiny")
    assert not at.exception
    headline = load(lang)["training.hist.invalid"].split("{")[0]
    assert [w.value for w in at.warning if w.value.startswith(headline) and "probe 0 is not" in w.value]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_hangul_into_the_english_reader_is_named_and_not_shown_as_a_translation(lang):
    """en→ko reads English only: a Korean sentence gets the real reason (a script it never read as a
    source), and what the decoder writes is shown struck through as not a translation."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.query_params["model"] = "enko"
    at.run()
    at.text_input(key="tr_text").input("나는 사과를 좋아한다").run()
    assert not at.exception
    s = load(lang)
    notice = [w.value for w in at.warning if w.value.startswith(s["sentence.unreadable.script"].split("{")[0])]
    assert notice and "pieces are unknown" not in notice[0] and "조각이" not in notice[0]
    assert any(c.value == s["translate.not_meaningful"] for c in at.caption)
    assert any(m.value.startswith("~~") for m in at.markdown)


def test_figures_that_misled_a_class_now_say_what_they_show():
    """The Jacobian on a fixed ±1/4 scale, the PE slider at the model's d_model, the BLEU page opening on a
    pair that differs, the training log saying why validation scores so well, steps written out."""
    at = open_page("attention_lab", "en")
    jac, _ = chart(at, "fig_softmax_jacobian")
    assert (jac.data[0].zmin, jac.data[0].zmax) == (-0.25, 0.25)
    at = open_page("positional", "en")
    assert at.slider(key="pe_d_model").value == 256                     # the bundled models' d_model
    at = open_page("bleu", "en")
    assert at.text_area(key="bleu_hyp_en").value != at.text_area(key="bleu_refs_en").value
    at = open_page("training", "en")
    assert any(c.value == load("en")["training.log.why_low"] for c in at.caption)
    log, _ = chart(at, "fig_log_ckpt")
    assert log.layout.xaxis.exponentformat == "none"


def test_integrated_gradients_past_the_bound_fall_back_to_what_fits(monkeypatch):
    """A sentence whose integrated gradients would cost more than one run may (serving/cost.py) gets the
    cheaper plan that fits (fewer steps, or saliency), and a notice that says so.  The bound is made 1 s here
    so that an 8-piece sentence passes it (16 steps fit, not 32): at the real 10 s it takes a sentence of 65
    pieces, whose runs took 11-14 s of this test.  The real bound against the heaviest runs: tests/test_cost.py."""
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer import attribution
    from transformer_core.explainer.translate import translate
    from transformer_core.serving import cost

    monkeypatch.setattr(cost, "MAX_SECONDS", 1.0)
    sentence = "My grandmother lives with us."
    s = load("en")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"], at.query_params["model"] = "en", "enko"
    at.session_state["tr_kind"], at.session_state["atlas_sentence"] = s["translate.attr.tab"], sentence
    at.run()
    assert at.text_input(key="tr_text").value == sentence
    assert not at.exception
    ckpt = load_checkpoint(ROOT / "checkpoints" / "enko")
    tr = translate(ckpt, sentence)                              # the home page's default: the model's beam search
    method, steps = cost.attribution_plan(ckpt.config, len(tr.src_ids), len(tr.out_ids), "integrated_gradients")
    assert (method, steps) != ("integrated_gradients", attribution.STEPS)
    notice = s["translate.attr.cheaper"].format(method=s["translate.attr.integrated_gradients"], n=len(tr.src_ids),
                                                instead=s[f"translate.attr.{method}"], steps=steps)
    assert notice in [i.value for i in at.info]
    fig, _ = chart(at, "tr_attr_fig")
    want = attribution.shares(attribution.attribute(ckpt.model, tr.src_ids, tr.out_ids, method, steps))
    np.testing.assert_allclose(arr(fig.data[0].z), want, atol=1e-3)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_what_if_on_the_home_page(lang):
    """The home page's 'what if' tab is the decoding page's view on the home page's sentence: force
    '나는 배를' and the model goes on with 좋아한다."""
    s = load(lang)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"], at.query_params["model"] = lang, "enko"
    at.session_state["tr_kind"] = s["translate.whatif.tab"]
    at.run()
    at.text_input(key="tr_whatif_text").input("나는 배를").run()
    assert not at.exception
    shown = [m.value.removeprefix("#### ").replace("\\", "") for m in at.markdown if m.value.startswith("#### ")]
    assert shown[-2:] == ["나는 사과를 좋아한다.", "나는 배를 좋아한다."]
    assert chart(at, "tr_whatif_cross")[0].data[0].z is not None


def test_clicking_a_token_of_the_translation_changes_it_from_there():
    """The translation's tokens are buttons: with the second one clicked, the forced beginning is the
    model's first token and then the alternative chosen among step 2's top 5 (its second choice by
    default), and the model continues from there."""
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.serving import runs

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"], at.query_params["model"] = "en", "enko"
    at.run()
    at.switch_page("pages/decoding.py").run()
    ckpt = load_checkpoint(ROOT / "checkpoints" / "enko")
    base = runs.greedy_steps(ckpt, "I like apples.")
    labels = at.button_group(key="dec_whatif_step").options
    assert len(labels) == len(base["steps"])
    at.button_group(key="dec_whatif_step").set_value(1).run()
    assert not at.exception
    second = base["steps"][1]["topk_ids"][1]
    assert at.selectbox(key="dec_whatif_alt_1").value == second
    want = runs.greedy_steps(ckpt, "I like apples.", (base["ids"][0], second))
    assert want["ids"][:2] == [base["ids"][0], second]
    shown = [m.value.removeprefix("#### ").replace("\\", "") for m in at.markdown if m.value.startswith("#### ")]
    assert shown[-1] == " ".join(want["text"].split()) and want["ids"] != base["ids"]   # markdown: one space


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_decoding_page_what_if_and_sampling(lang):
    """Force '나는 배를': the model goes on with 좋아한다, both log-probabilities shown; sampling at
    temperature 0 draws the greedy translation five times, and a seed draws the same again."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"], at.query_params["model"] = lang, "enko"
    at.run()
    at.switch_page("pages/decoding.py").run()
    at.text_input(key="dec_whatif_text").input("나는 배를").run()
    assert not at.exception
    shown = [m.value.removeprefix("#### ").replace("\\", "") for m in at.markdown if m.value.startswith("#### ")]
    assert shown == ["나는 사과를 좋아한다.", "나는 배를 좋아한다."]
    s = load(lang)
    assert sum(c.value.startswith(s["decoding.whatif.model"].split("{")[0]) or
               c.value.startswith(s["decoding.whatif.forced"].split("{")[0]) for c in at.caption) == 2
    table = at.dataframe[-1].value
    at.number_input(key="dec_seed").set_value(7).run()
    first = at.dataframe[-1].value
    at.run()
    assert first.equals(at.dataframe[-1].value) and len(table) == 5
    at.slider(key="dec_temp").set_value(0.0).run()
    drawn = at.dataframe[-1].value.iloc[:, 1].tolist()
    assert drawn == ["나는 사과를 좋아한다."] * 5
    at.slider(key="dec_temp").set_value(1.0).run()
    at.button(key="dec_sample_again").click().run()                   # five more: the next five seeds
    assert at.number_input(key="dec_seed").value == 12 and at.dataframe[-1].value.iloc[:, 0].tolist() == [12, 13, 14, 15, 16]
    # the first step's distribution after each filter in turn, as sampling computes it
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer.translate import source_ids
    from transformer_core.model.decoding import filtered_distribution, first_log_probs
    at.slider(key="dec_temp").set_value(1.5)
    at.slider(key="dec_topk_k").set_value(4)
    at.slider(key="dec_topp").set_value(0.5).run()
    fig, _ = chart(at, "dec_sample_dist")
    ckpt = load_checkpoint(ROOT / "checkpoints" / "enko")
    logp = first_log_probs(ckpt.model, source_ids(ckpt.tokenizer, "I like apples.", ckpt.config.max_len)[0])
    ids = logp.topk(10).indices
    want = [logp.exp(), filtered_distribution(logp, 1.5), filtered_distribution(logp, 1.5, 4),
            filtered_distribution(logp, 1.5, 4, 0.5)]
    assert [bar.name for bar in fig.data] == [s[f"decoding.sample.stage.{n}"] for n in
                                              ("model", "temperature", "top_k", "top_p")]
    for bar, probs in zip(fig.data, want, strict=True):
        np.testing.assert_allclose(arr(bar.x), probs[ids].numpy(), atol=1e-6)
    assert (arr(fig.data[2].x) > 0).sum() == 4 and (arr(fig.data[3].x) > 0).sum() < 4


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_gradients_beside_attention_on_the_home_page(lang):
    """The 'gradients vs attention' tab draws each predicted token's attribution on the cross-attention's
    axes (rows sum to 1 as attention's do) and says how far each head agrees."""
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer import attribution
    from transformer_core.explainer.translate import translate

    s = load(lang)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"], at.query_params["model"] = lang, "enko"
    at.session_state["tr_kind"] = s["translate.attr.tab"]
    at.session_state["tr_attr_method"] = "saliency"
    at.run()
    assert not at.exception
    fig, _ = chart(at, "tr_attr_fig")
    z = arr(fig.data[0].z)
    ckpt = load_checkpoint(ROOT / "checkpoints" / "enko")
    tr = translate(ckpt, "I like apples.", beam=1)
    want = np.abs(attribution.attribute(ckpt.model, tr.src_ids, tr.out_ids, "saliency"))
    np.testing.assert_allclose(z, want / want.sum(1, keepdims=True), atol=1e-3)
    assert any(m.value.startswith(s["translate.attr.agree"].split("{")[0][:20]) for m in at.markdown)
    assert at.dataframe[-1].value.shape == (3, 4)                     # layers × heads of en→ko
    # the lecture's sentence has a gold alignment: the gradients' AER beside the heads'
    from transformer_core.explainer import alignment
    tgt, links = ckpt.gold["I like apples."]
    words = alignment.to_words(want / want.sum(1, keepdims=True), ckpt.tokenizer, "I like apples.", tgt)
    assert words.shape == (len(tgt.split()), 3)
    aer = alignment.aer(words, alignment.parse(links))
    heads = alignment.score_heads(ckpt.model, ckpt.tokenizer, [("I like apples.", tgt, alignment.parse(links))])
    line = [m.value for m in at.markdown if m.value.startswith(s["translate.attr.aer"].split("{")[0])]
    assert len(line) == 1 and f"**{aer:.2f}**" in line[0] and f"**{heads['mean']:.2f}**" in line[0], line
    # integrated gradients (the default method) say how complete their rows are
    at.session_state["tr_attr_method"] = "integrated_gradients"
    at.run()
    ig = attribution.attribute(ckpt.model, tr.src_ids, tr.out_ids, "integrated_gradients")
    gap = np.abs(attribution.completeness_gap(ckpt.model, tr.src_ids, tr.out_ids, ig))
    rel = gap / np.abs(ig.sum(1) - attribution.completeness_gap(ckpt.model, tr.src_ids, tr.out_ids, ig))
    shown = [c.value for c in at.caption if c.value.startswith(s["translate.attr.complete"][:25])]
    assert len(shown) == 1 and f"{100 * np.median(rel):.1f} %" in shown[0] and f"{100 * rel.max():.0f} %" in shown[0]
