"""Issue #42 (items 5-14): the app says one thing one way: one row convention, true titles, honest labels,
readable model names, no English or code names left in the Korean interface."""
import html
import json
import shutil
from pathlib import Path

import pytest

from apppages import open_app
from pages.ui.i18n import strings

pytestmark = pytest.mark.usefixtures("one_thread")
ROOT = Path(__file__).resolve().parents[1]


def _classroom(toy_checkpoints, tmp_path, monkeypatch, name: str, folder: str):
    from pages.ui import model_state

    root = tmp_path / "checkpoints"
    shutil.copytree(toy_checkpoints / name, root / folder)     # a name of its own: load_bundled caches by name
    source = {"name": "classroom", "mixed_with": []}
    (root / folder / "training.json").write_text(json.dumps({"data": {"manifest": {"source": source}}}))
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item12_the_korean_style_note_is_only_for_a_korean_target(toy_checkpoints, tmp_path, monkeypatch, lang):
    _classroom(toy_checkpoints, tmp_path, monkeypatch, "toy-en", "class-de")     # English -> German
    at = open_app(lang, active_model="bundled:class-de")
    assert not at.exception
    notes = [i.value for i in at.info if i.value.startswith(strings(lang)["translate.domain.classroom"][:20])]
    assert notes and not any("한다체" in n or "해요체" in n for n in notes)


def test_item9_normalized_indexing_example_is_true_and_shows_the_claim():
    """Normalized indexing gives the same position different values in sentences of different lengths: the
    text's example says so, with the values encoding_table computes."""
    from transformer_core.model.positional import encoding_table

    at = open_app("ko", "pages/positional.py")
    assert not at.exception
    short, long_ = float(encoding_table("normalized", 10, 8)[4, 0]), float(encoding_table("normalized", 20, 8)[4, 0])
    assert short != long_
    for lang in ("ko", "en"):
        text = strings(lang)["pe.alt.explain"]
        assert "= position 8" not in text and "8번째 = " not in text
        assert f"{short:.2f}" in text and f"{long_:.2f}" in text and "4/9" in text and "4/19" in text
    assert any(m.value == strings("ko")["pe.alt.explain"] for m in at.markdown)


CODE_NAMES = ("attention_steps", "check_criteria", "Probe", "train.py")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item14_no_code_names_in_what_students_read(lang):
    shown = {key: text for key, text in strings(lang).items() if any(name in text for name in CODE_NAMES)}
    assert not shown


def _title(spec: dict) -> str:
    title = spec["layout"].get("title", {})
    return title.get("text", "") if isinstance(title, dict) else str(title)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item6_the_grid_title_says_how_the_heads_are_laid_out(lang):
    """A sentence long enough that fewer than 4 heads fit a row: the title says so, not layers × heads."""
    from apppages import chart_spec

    s = strings(lang)
    kind = s["attn.kind.enc_self"]
    text = "My little brother likes to read books at school."     # 12 tokens: 2 heads to a row
    at = open_app(lang, tr_text=text)
    at.query_params["model"] = "enko"
    at.run()
    assert not at.exception
    title = _title(chart_spec(at, "tr_grid_enc_self"))
    assert title != s["translate.grid.title"].format(kind=kind)
    assert title in {s["translate.grid.title.wrapped"].format(kind=kind, n=n) for n in (1, 2, 3)}, title


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item7_the_averaged_attention_is_not_called_the_mean_of_the_table(lang):
    """The agreement of the heads' averaged attention is said to be that, beside the table's own mean."""

    s = strings(lang)
    at = open_app(lang, tr_kind=s["translate.attr.tab"], tr_attr_method="saliency")
    at.query_params["model"] = "enko"
    at.run()
    assert not at.exception
    table = at.dataframe[-1].value.to_numpy(dtype=float)
    line = [m.value for m in at.markdown if m.value.startswith(s["translate.attr.agree"][:20])]
    assert len(line) == 1 and f"**{table.mean():.2f}**" in line[0], (line, table.mean())
    for key in ("translate.attr.agree", "translate.attr.aer", "translate.gold.shown"):
        assert "{table_mean}" in s[key] or key == "translate.gold.shown"
        assert "mean of all heads" not in s[key] and "모든 헤드의 평균" not in s[key] and "모든 헤드 평균" not in s[key]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item11_models_are_named_by_their_languages_and_the_url_keeps_the_folder(lang):
    s = strings(lang)
    ende = f"{s['srclang.en']} → {s['srclang.de']}"
    enko = f"{s['srclang.en']} → {s['srclang.ko']}"
    at = open_app(lang)
    at.query_params["model"] = "ende"
    at.run()
    assert not at.exception
    box = at.sidebar.selectbox(key="sidebar_model")
    assert box.value == "bundled:ende" and at.query_params["model"] in ("ende", ["ende"])
    assert box.options == [ende, enko], box.options
    assert at.text_input(key="tr_text").label == s["sentence.input"].format(src=s["srclang.en"], tgt=s["srclang.de"])
    shown = " ".join(c.value for c in at.caption)
    assert s["translate.output"].split("(")[0] in shown and f"({s['srclang.de']}, " in shown
    at.switch_page("pages/models.py").run()
    assert not at.exception
    picked = at.selectbox(key="models_select").options
    assert all(o.endswith((ende, enko)) for o in picked) and len(picked) == 2, picked
    at.switch_page("pages/training.py").run()
    assert not at.exception
    offered = [o for b in at.selectbox for o in b.options]
    assert not any(o in ("ende", "enko") for o in offered) and any(ende in o or enko in o for o in offered), offered


def test_item5_a_decoder_row_has_one_name_on_training_home_and_the_lab():
    """Layer 3, head 1, encoder-decoder attention of "I like apples." (ende, last record): the Training page
    names the rows by the token each predicts, as Home does (·Ich is the row choosing ·Ich), and says so."""
    from apppages import chart_spec
    from pages.ui import theme
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer import history
    from transformer_core.serving import runs

    ckpt = load_checkpoint(ROOT / "checkpoints" / "ende")
    hist = history.load(ROOT / "checkpoints" / "ende" / "attention_history.safetensors")
    probe = next(i for i, p in enumerate(hist.probes) if p.src == "I like apples.")
    s = strings("ko")
    at = open_app("ko", train_hist_kind="cross", train_hist_layer=2, train_hist_head=0, train_hist_probe=probe,
                  train_hist_step=len(hist.steps) - 1)
    at.query_params["model"] = "ende"
    at.run()
    at.switch_page("pages/training.py").run()
    assert not at.exception
    rows = [html.unescape(r) for r in chart_spec(at, "fig_train_history")["data"][0]["y"]]
    p = hist.probes[probe]
    assert rows[0] != theme.token_label(p.tgt_pieces[0])                      # not <s>
    assert rows == theme.token_labels([*p.tgt_pieces[1:], p.src_pieces[-1]])  # ·Ich ·mag ·Äpfel . </s>
    assert s["attn.rows_named"] in [c.value for c in at.caption]
    home = runs.translation(ckpt, "I like apples.", 1, ())
    if home["text"].strip() == p.ref:                                         # the same sentence: the same names
        assert rows == theme.token_labels(home["pred_pieces"])
    at.switch_page("pages/attention_lab.py")
    at.session_state["lab_real_kind"] = "cross"
    at.run()
    assert not at.exception
    spec = chart_spec(at, "fig_real_weights")
    lab_rows = [html.unescape(str(r)) for r in spec["layout"]["yaxis"].get("ticktext") or spec["data"][0]["y"]]
    assert lab_rows[-1] == "</s>" and "<s>" not in lab_rows and s["attn.rows_named"] in [c.value for c in at.caption]


def test_item13_what_the_app_draws_in_korean_has_no_english_left():
    """The head multiselect and the positional dims offer no English "Select all"; the lab's output formula,
    the gradients' methods and the training chart's speed legend are in Korean."""
    s = strings("ko")
    for key in ("training.log.speed", "translate.attr.saliency", "translate.attr.integrated_gradients",
                "lab.latex.output", "lab.latex.weight", "models.upload.button_browse", "models.upload.drop"):
        assert not any(word in s[key] for word in ("tokens", "saliency", "integrated", "output", "softmax", "Upload")), key
    at = open_app("ko")
    assert not at.exception
    assert at.multiselect(key="tr_heads_off").proto.select_all == 0
    at.switch_page("pages/positional.py").run()
    assert at.multiselect(key="pe_dims").proto.select_all == 0
    at.switch_page("pages/attention_lab.py").run()
    assert not at.exception
    formulas = [m.value for m in at.latex] if hasattr(at, "latex") else []
    formulas += [m.value for m in at.markdown if "\\sum_j" in m.value]
    assert any("출력" in f and "가중치" in f for f in formulas) and not any("\\text{output}" in f for f in formulas)
    at.switch_page("pages/models.py").run()
    assert not at.exception
    css = [h.proto.body for h in at.get("html") if "stFileUploaderDropzone" in h.proto.body]
    assert css and s["models.upload.button_browse"] in css[0] and s["models.upload.drop"] in css[0]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item8_the_bleu_hypothesis_says_whether_it_is_the_models_translation(app_checkpoints, lang):
    from transformer_core.checkpoints.load import load_checkpoint

    s = strings(lang)
    example = load_checkpoint(app_checkpoints / "toy-en").examples[0]
    at = open_app(lang, "pages/bleu.py")
    assert not at.exception
    box = at.text_area(key=f"bleu_hyp_{lang}")
    assert "model" not in box.label.lower() and "모델" not in box.label
    captions = [c.value for c in at.caption]
    assert any(c.startswith(s["bleu.hyp.from_model"].split("{")[0]) and example["src"].split()[0] in c for c in captions)
    at.button(key="bleu_ex_clip").click().run()                     # the paper's clipping pair: not the model's
    assert s["bleu.hyp.not_model"] in [c.value for c in at.caption]
    assert not any(c.startswith(s["bleu.hyp.from_model"].split("{")[0]) for c in [c.value for c in at.caption])


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item10_a_typed_beginning_leaves_no_old_choice_shown(lang):
    """The German model's placeholder is German; with a typed beginning the token pills show no choice and are
    off, the alternative's box is gone and a caption says why; emptying the box brings the choice back."""
    from transformer_core.explainer.examples import beginning

    s = strings(lang)
    at = open_app(lang, "pages/decoding.py")
    at.query_params["model"] = "ende"
    at.run()
    assert not at.exception
    box = at.text_input(key="dec_whatif_text")
    assert box.placeholder == s["decoding.whatif.typed_placeholder"].format(example=beginning("de"))
    pills = lambda: next(w for w in at.get("button_group") if w.key == "dec_whatif_step")   # noqa: E731
    pills().set_value(1).run()
    assert pills().value == 1
    at.text_input(key="dec_whatif_text").input("Ich habe").run()
    assert not at.exception
    assert pills().value is None and pills().disabled
    assert not any(b.key.startswith("dec_whatif_alt_") for b in at.selectbox)
    assert s["decoding.whatif.typed_in_use"] in [c.value for c in at.caption]
    at.text_input(key="dec_whatif_text").input("").run()
    assert pills().value == 1 and not pills().disabled
    assert any(b.key == "dec_whatif_alt_1" for b in at.selectbox)


def test_item5_the_shapes_page_names_decoder_rows_as_every_page_does():
    """Shapes: the decoder's queries and positions are named by the token they predict, its keys by the tokens
    it reads (the home page's columns), with the same caption."""
    from apppages import chart_spec

    s = strings("en")
    at = open_app("en", "pages/shapes.py", sh_heads_kind="dec_self", sh_heads_tensor="q")
    assert not at.exception
    spec = chart_spec(at, "sh_heads_whole")
    rows = [html.unescape(str(r)) for r in spec["layout"]["yaxis"].get("ticktext") or spec["data"][0]["y"]]
    assert rows[-1] == "</s>" and "<s>" not in rows, rows
    assert s["attn.rows_named"] in [c.value for c in at.caption]
    at.session_state["sh_heads_tensor"] = "k"
    at.run()
    spec = chart_spec(at, "sh_heads_whole")
    rows = [html.unescape(str(r)) for r in spec["layout"]["yaxis"].get("ticktext") or spec["data"][0]["y"]]
    assert rows[0] == "<s>", rows


def test_item5_the_architecture_page_names_decoder_rows_as_every_page_does():
    from streamlit.testing.v1 import AppTest

    from apppages import APP, chart_spec

    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = "en"
    at.session_state["active_model"] = "bundled:enko"
    at.session_state["atlas_sentence"] = "I like apples."
    at.query_params["block"] = "decoder.2.cross_attn"
    at.run()
    at.switch_page("pages/diagram.py").run()
    assert not at.exception
    spec = chart_spec(at, "ar_attn_fig")
    rows = {html.unescape(str(r)).replace("\u2060", "") for r in spec["data"][0]["y"]}   # joiners keep repeats apart
    assert "</s>" in rows and "<s>" not in rows, rows
    assert strings("en")["attn.rows_named"] in [c.value for c in at.caption]
