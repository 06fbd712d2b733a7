"""The Translate & attention page (home) with AppTest in both languages, and its figure builders on
the data they draw: the heatmap z is the model's attention from one teacher-forced trace."""
import json
from itertools import groupby
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from apppages import MARK, chart_specs, live_charts, open_app, translation_markdown, translation_text
from apppages import chart_spec as spec
from pages.ui import figures, theme
from pages.ui.i18n import strings
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import explain
from transformer_core.explainer.translate import translate

pytestmark = pytest.mark.usefixtures("one_thread")

KINDS = explain.ATTENTION_KINDS
TAB = {"ko": {"enc_self": "인코더 셀프 어텐션", "dec_self": "마스크드 디코더 셀프 어텐션", "cross": "인코더-디코더 어텐션",
              "align": "정렬: 원문 ↔ 번역 단어"},
       "en": {"enc_self": "Encoder self-attention", "dec_self": "Masked decoder self-attention",
              "cross": "Encoder-decoder attention", "align": "Alignment: source ↔ translation words"}}


@pytest.fixture(scope="module")
def ckpt(toy_checkpoints):
    return load_checkpoint(toy_checkpoints / "toy-en")


def reference(ckpt, text: str, beam: int | None = None, heads_off=None):
    """What the page should show, computed here without the page: translate (by default with the model's
    beam search, as the page), then model.trace."""
    tr = translate(ckpt, text, beam=beam, heads_off=heads_off)
    src = torch.tensor([tr.src_ids])
    tgt = torch.tensor([[ckpt.config.bos_id, *tr.out_ids]])
    _, probe = ckpt.model.trace(src, tgt)
    return tr, probe


def app(lang: str, **state):
    return open_app(lang, **state)


# ---------------------------------------------------------------- the page

@pytest.mark.parametrize("lang", ["ko", "en"])
def test_home_page_translates_the_first_example_and_draws_every_head(app_checkpoints, ckpt, lang):
    at = app(lang)
    assert not at.exception
    text = ckpt.examples[0]["src"]
    assert at.session_state["tr_text"] == text
    tr, probe = reference(ckpt, text)
    assert translation_text(at) == tr.text.replace("\\", "")
    grid = spec(at, "tr_grid_enc_self")          # only the open tab (encoder self-attention) is drawn
    assert set(chart_specs(at)) == {"tr_grid_enc_self", "tr_focus_enc_self"}
    H = ckpt.config.n_heads
    for layer in range(ckpt.config.n_encoder_layers):
        for head in range(H):
            z = figures.grid_panel(grid, layer, head)
            want = probe.weights("enc_self", layer)[0, head].numpy()
            np.testing.assert_array_equal(z, np.round(want.astype(float), 4))
    assert grid["data"][0]["hovertemplate"].startswith("%{y} → %{x}: %{z")


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("kind", ["dec_self", "cross"])
def test_other_tabs_layer_and_head_selection(app_checkpoints, ckpt, lang, kind):
    at = app(lang, tr_kind=TAB[lang][kind], **{f"tr_layer_{kind}": 1, f"tr_head_{kind}": 1})
    assert not at.exception
    _, probe = reference(ckpt, ckpt.examples[0]["src"])
    focus = spec(at, f"tr_focus_{kind}")
    want = probe.weights(kind, 1)[0, 1].numpy().astype(float)
    np.testing.assert_array_equal(np.array(focus["data"][0]["z"]), np.round(want, 4))
    grid = spec(at, f"tr_grid_{kind}")
    assert grid["layout"]["meta"]["grid"][:2] == [ckpt.config.n_decoder_layers, ckpt.config.n_heads]
    np.testing.assert_array_equal(figures.grid_panel(grid, 1, 1), np.round(want, 4))
    assert any(shape["type"] == "rect" for shape in grid["layout"]["shapes"])     # the selected panel is framed
    if kind == "dec_self":
        z = np.array(focus["data"][0]["z"])
        assert np.all(np.triu(z, k=1) == 0)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_word_level_merges_pieces(app_checkpoints, ckpt, lang):
    at = app(lang, tr_level="word", tr_kind=TAB[lang]["cross"])
    assert not at.exception
    tr, probe = reference(ckpt, ckpt.examples[0]["src"])
    pieces_src = ckpt.tokenizer.pieces(tr.src_ids)
    predicted = ckpt.tokenizer.pieces([*tr.out_ids, ckpt.config.eos_id])   # a row is named by what it predicts
    merged, qw, kw = explain.to_words(probe.weights("cross", 0)[0, 0].numpy(), predicted, pieces_src)
    focus = spec(at, "tr_focus_cross")
    np.testing.assert_allclose(np.array(focus["data"][0]["z"]), np.round(merged, 4), atol=1e-12)
    assert len(focus["data"][0]["x"]) == len(kw) and len(focus["data"][0]["y"]) == len(qw)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_beam_search_by_default_greedy_on_request_and_typed_sentence(app_checkpoints, ckpt, lang):
    at = app(lang)
    at.text_input(key="tr_text").input("the dog likes the car.").run()
    assert not at.exception and at.session_state["tr_mode"] == "beam"
    s = strings(lang)
    assert s["translate.output"].format(tgt=s["srclang.de"], mode=s["sentence.mode.beam"]) in [c.value for c in at.caption]
    tr, _ = reference(ckpt, "the dog likes the car.", beam=4)
    assert translation_text(at) == tr.text.replace("\\", "")
    at.session_state["tr_mode"] = "greedy"
    at.run()
    assert not at.exception
    tr, _ = reference(ckpt, "the dog likes the car.", beam=1)
    assert translation_text(at) == tr.text.replace("\\", "")
    assert s["translate.output"].format(tgt=s["srclang.de"], mode=s["sentence.mode.greedy"]) in [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_empty_and_long_input_get_messages_not_tracebacks(app_checkpoints, lang):
    at = app(lang)
    at.text_input(key="tr_text").input("   ").run()
    assert not at.exception
    assert at.info and not chart_specs(at)
    long = " ".join(["the cat sees the house"] * 20)
    at.text_input(key="tr_text").input(long).run()
    assert not at.exception
    assert at.warning                                        # the truncation notice
    assert spec(at, "tr_grid_enc_self")["data"][0]["z"]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_html_in_the_input_is_shown_as_text(app_checkpoints, lang):
    at = app(lang)
    at.text_input(key="tr_text").input("<b>the cat</b> <script>x</script>").run()
    assert not at.exception
    specs = chart_specs(at)
    assert specs
    for text in specs.values():
        assert "<script>" not in text and "<b>the" not in text


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_example_button_sets_the_sentence(app_checkpoints, ckpt, lang):
    at = app(lang)
    at.button(key="tr_ex_2").click().run()
    assert not at.exception
    assert at.session_state["tr_text"] == ckpt.examples[2]["src"]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_least_certain_tokens_are_marked_and_explained(lang):
    """The bundled en→ko model's tokens under confidence.THRESHOLD: marked in the translation (a run of them
    once), listed with their probabilities and what the mark means; a sure translation says none is marked,
    and an input the model cannot read gets neither."""
    from pages.ui.widgets import escape_md
    from transformer_core.explainer import confidence
    from transformer_core.serving import runs

    ckpt = load_checkpoint(Path(__file__).resolve().parents[1] / "checkpoints" / "enko")
    s = strings(lang)
    text = "We will go on a school trip next week."                   # tests/data/everyday.tsv: never trained on
    res = runs.translation(ckpt, text, 4, ())
    flagged = confidence.uncertain(res["probs"])
    assert flagged, "the model is sure of every token: choose another sentence"
    at = app(lang, active_model="bundled:enko", atlas_sentence=text)
    assert not at.exception
    assert translation_text(at) == res["text"]
    marks = [m.split(MARK[1])[0].replace("\\", "") for m in translation_markdown(at).split(MARK[0])[1:]]
    runs_of_flagged = [list(run) for mark, run in groupby(range(len(res["probs"])), lambda i: i in flagged) if mark]
    assert marks == ["".join(res["token_texts"][i] for i in run).strip() for run in runs_of_flagged]
    listed = ", ".join(f"{escape_md(theme.token_label(res['pred_pieces'][i]))} ({res['probs'][i]:.2f})" for i in flagged)
    assert s["translate.uncertain"].format(tokens=listed, threshold=confidence.THRESHOLD) in [i.value for i in at.info]

    at = app(lang, active_model="bundled:enko", atlas_sentence="I like apples.")
    assert not at.exception and MARK[0] not in translation_markdown(at)
    assert s["translate.uncertain.none"].format(threshold=confidence.THRESHOLD) in [c.value for c in at.caption]

    at = app(lang, active_model="bundled:enko", atlas_sentence="나는 사과를 좋아한다.")     # Hangul into English
    assert not at.exception
    assert not any(s["translate.uncertain"].split("{")[0] in i.value for i in at.info)
    assert s["translate.uncertain.none"].format(threshold=confidence.THRESHOLD) not in [c.value for c in at.caption]
    assert all(MARK[0] not in m.value for m in at.markdown)


def test_numbers_changed_counts_each_number_missing_or_added():
    from transformer_core.explainer.confidence import numbers_changed

    assert numbers_changed("We bought 15 eggs.", "우리는 계란 12개짜를 샀다.") == (["15"], ["12"])
    assert numbers_changed("There are 28 students in my class.", "In meiner Klasse sind 28 28.") == ([], ["28"])
    assert numbers_changed("My brother is 12 years old.", "Mein Bruder ist zwölf Jahre alt.") == (["12"], [])
    assert numbers_changed("I have 3 apples and 10 pears.", "Ich habe 3 Äpfel und 10 Birnen.") == ([], [])
    assert numbers_changed("I like apples.", "나는 사과를 좋아한다.") == ([], [])


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_translation_whose_numbers_changed_says_which(lang):
    """The bundled en→ko model writes 350 for 3500: the home page says so beside the translation; a
    translation that keeps its numbers gets no such note."""
    from transformer_core.serving import runs

    ckpt = load_checkpoint(Path(__file__).resolve().parents[1] / "checkpoints" / "enko")
    s = strings(lang)
    text = "It costs 3500 won."
    res = runs.translation(ckpt, text, 4, ())
    assert "3500" not in res["text"] and "350" in res["text"], res["text"]   # the model's weak spot, as measured
    at = app(lang, active_model="bundled:enko", atlas_sentence=text)
    assert not at.exception
    changes = " ".join([s["translate.numbers.missing"].format(numbers="3500"),
                        s["translate.numbers.extra"].format(numbers="350")])
    assert s["translate.numbers"].format(changes=changes) in [w.value for w in at.warning]
    at = app(lang, active_model="bundled:ende", atlas_sentence="I have 3 apples.")
    assert not at.exception and translation_text(at) == "Ich habe 3 Äpfel."
    assert not any(s["translate.numbers"].split("{")[0] in w.value for w in at.warning)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_switching_heads_off_retranslates(app_checkpoints, ckpt, lang):
    at = app(lang)
    at.button(key="tr_off_all_cross").click().run()
    assert not at.exception
    chosen = at.session_state["tr_heads_off"]
    assert chosen and all(kind == "cross" for kind, _, _ in chosen)
    off = explain.heads_off_map(chosen)
    tr_off = translate(ckpt, ckpt.examples[0]["src"], heads_off=off)
    shown = [m.value.replace("\\", "") for m in at.markdown]
    assert (tr_off.text.replace("\\", "") in shown) or not tr_off.text
    at.button(key="tr_off_clear").click().run()
    assert not at.exception and at.session_state["tr_heads_off"] == []


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_alignment_and_korean_word_order_note(app_checkpoints, lang):
    from transformer_core.explainer.translate import translate as tr_

    at = app(lang, active_model="bundled:toy-ko", tr_kind=TAB[lang]["align"], tr_align_head=0, tr_align_layer=0,
             tr_align_threshold=0.0)
    assert not at.exception
    note = "SOV"
    assert any(note in i.value for i in at.info)
    ckpt_ko = load_checkpoint(app_checkpoints / "toy-ko")
    text = at.session_state["tr_text"]
    tr = tr_(ckpt_ko, text)
    _, probe = ckpt_ko.model.trace(torch.tensor([tr.src_ids]), torch.tensor([[2, *tr.out_ids]]))
    cross = probe.weights("cross", 0)[0, 0].numpy()
    merged, _, _ = explain.to_words(cross, ckpt_ko.tokenizer.pieces([*tr.out_ids, 3]),
                                    ckpt_ko.tokenizer.pieces(tr.src_ids))
    hover = spec(at, "tr_align_fig")["data"][-1]["customdata"]
    assert len(hover) == merged.size                         # threshold 0: every pair drawn
    for i, j, w in hover:
        assert w == pytest.approx(merged[i, j], abs=5e-5)


def test_no_sov_note_for_german(app_checkpoints):
    at = app("en", tr_kind=TAB["en"]["align"])
    assert not at.exception and spec(at, "tr_align_fig")
    assert not any("SOV" in i.value for i in at.info)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_sov_note_in_the_cross_attention_tab(app_checkpoints, lang):
    at = app(lang, active_model="bundled:toy-ko", tr_kind=TAB[lang]["cross"])
    assert not at.exception and any("SOV" in i.value for i in at.info)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_domain_note_names_what_the_model_learned_from(toy_checkpoints, tmp_path, monkeypatch, lang):
    """A bundled model built from ko-docs says it speaks software-manual language; one without a
    training record says nothing."""
    import shutil

    from pages.ui import model_state

    root = tmp_path / "checkpoints"
    shutil.copytree(toy_checkpoints / "toy-ko", root / "docs-ko")
    shutil.copytree(toy_checkpoints / "toy-en", root / "plain-en")
    (root / "docs-ko" / "training.json").write_text(json.dumps({"data": {"manifest": {"source": {"name": "ko-docs"}}}}))
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)
    note = strings(lang)["translate.domain.ko-docs"]
    at = app(lang, active_model="bundled:docs-ko")
    assert not at.exception and any(i.value == note for i in at.info)
    at = app(lang, active_model="bundled:plain-en")
    assert not at.exception and not any(i.value.startswith(note[:20]) for i in at.info)


# ---------------------------------------------------------------- builders, on the data they draw

@pytest.fixture(scope="module")
def attn(ckpt):
    tr, probe = reference(ckpt, "the man hears the apple.")
    return tr, probe


def test_attention_grid_z_equals_probe_weights_exactly(ckpt, attn):
    tr, probe = attn
    w = explain.teacher_forced_attention(ckpt.model, tr.src_ids, tr.out_ids)["cross"]
    q = ckpt.tokenizer.pieces([2, *tr.out_ids])
    k = ckpt.tokenizer.pieces(tr.src_ids)
    titles = [[f"L{li} H{h}" for h in range(w.shape[1])] for li in range(w.shape[0])]
    fig = figures.attention_grid(w, q, k, panel_titles=titles, decimals=None, selected=(1, 0))
    go.Figure(fig.to_dict())                                  # a valid figure once validated
    H = w.shape[1]
    for layer in range(w.shape[0]):
        for head in range(H):
            want = probe.weights("cross", layer)[0, head].numpy().astype(float)
            assert np.array_equal(figures.grid_panel(fig, layer, head), want)
    # one trace of weights (one shared colour scale), and the browser's empty cover for one token's cells
    assert [t.name for t in fig.data] == [None, "focus"] and len(fig.data[1].z) == 0
    assert fig.data[1].showscale is False and fig.layout.meta["focus"] == {
        "kind": "grid", "trace": 1, "dim": 0.75, "groups": [[layer] * H for layer in range(w.shape[0])]}
    assert fig.data[0].zmin == 0 and fig.data[0].zmax == 1
    z = np.array(fig.data[0].z, dtype=float)
    assert np.isnan(z).sum() == z.size - w.size                 # only the gaps between panels are blank
    rounded = figures.attention_grid(w, q, k, panel_titles=titles, decimals=3)
    np.testing.assert_array_equal(figures.grid_panel(rounded, 0, 0), np.round(w[0, 0].astype(float), 3))
    assert len(fig.to_json()) > len(rounded.to_json())


def test_attention_grid_keeps_repeated_tokens_apart():
    labels = ["<s>", "▁the", "▁cat", "▁the", "</s>"]
    ticks = figures.tick_labels(labels)
    # theme.token_label: the word-start mark
    assert len(set(ticks)) == 5 and ticks[0] == "&lt;s&gt;" and ticks[3].startswith("·the")
    w = np.full((1, 2, 5, 5), 0.2)
    fig = figures.attention_grid(w, labels, labels, panel_titles=[["x", "y"]])
    assert list(fig.data[0].x)[:5] == ticks
    assert len(set(fig.data[0].x)) == len(fig.data[0].x) == 11     # every panel's columns and the gap apart


def test_attention_heatmap_values_and_hover(attn):
    _, probe = attn
    m = probe.weights("enc_self", 1)[0, 1].numpy()
    fig = figures.attention_heatmap(m, [str(i) for i in range(m.shape[0])], [str(i) for i in range(m.shape[1])],
                                    decimals=None)
    go.Figure(fig.to_dict())
    np.testing.assert_array_equal(np.array(fig.data[0].z), m.astype(float))
    assert fig.data[0].hovertemplate == "%{y} → %{x}: %{z:.3f}<extra></extra>"
    small = figures.attention_heatmap([[0.75, 0.25], [0.001, 0.999]], ["a", "b"], ["c", "d"])
    assert [list(row) for row in small.data[0].text] == [["0.75", "0.25"], ["", "1.00"]]


def test_alignment_figure_draws_each_weight_above_threshold():
    w = np.array([[0.6, 0.3, 0.1], [0.02, 0.08, 0.9]])
    fig = figures.alignment_figure(w, ["I", "like", "apples"], ["ich", "mag"], threshold=0.05, decimals=None)
    go.Figure(fig.to_dict())
    hover = fig.data[-1].customdata
    assert sorted(tuple(h) for h in hover) == [(0, 0, 0.6), (0, 1, 0.3), (0, 2, 0.1), (1, 1, 0.08), (1, 2, 0.9)]
    lines = [d for d in fig.data if d.mode == "lines"]
    assert sum(len(d.x) // 3 for d in lines) == 5
    widest = max(lines, key=lambda d: d.line.width)
    assert 1.0 in widest.x and widest.opacity > 0.8             # the 0.9 line is the boldest


@pytest.mark.parametrize("L,H,T", [(3, 4, 22), (6, 8, 5), (2, 2, 1), (1, 1, 30)])
def test_attention_grid_domains_and_thumbnails(L, H, T):
    w = np.full((L, H, T, T), 1.0 / T)
    labels = [f"t{i}" for i in range(T)]
    titles = [[f"{layer}.{h}" for h in range(H)] for layer in range(L)]
    fig = figures.attention_grid(w, labels, labels, panel_titles=titles, x_title="key", y_title="query")
    go.Figure(fig.to_dict())                                   # a valid figure
    thumbs = T > 12
    assert fig.layout.xaxis.showticklabels != thumbs and fig.layout.yaxis.showticklabels != thumbs
    assert fig.layout.xaxis.title.text == "key" and fig.layout.yaxis.title.text == "query"
    assert len(fig.layout.annotations) == L * H
    for layer in range(L):
        for head in range(H):
            np.testing.assert_array_equal(figures.grid_panel(fig, layer, head), np.round(w[layer, head], 4))


def test_a_session_model_is_cached_in_the_session(app_checkpoints, ckpt):
    from pages.ui import model_state

    key = "session:0:mine"
    handle = model_state.REGISTRY.add("test session id", "mine", ckpt, 0)     # AppTest's session id
    at = app("en", session_models={key: ("mine", handle)}, active_model=key)
    assert not at.exception
    runs = at.session_state["atlas_runs"]
    assert [k[:2] for k in runs] == [("translation", key)]
    tr, _ = reference(ckpt, ckpt.examples[0]["src"])
    assert translation_text(at) == tr.text.replace("\\", "")
    at.text_input(key="tr_text").input("the woman finds the book.").run()
    assert not at.exception and len(at.session_state["atlas_runs"]) == 2
    model_state.REGISTRY.remove(handle)


def test_the_charts_are_redrawn_in_place_with_the_package_plotly_js(app_checkpoints):
    """pages.ui.live_chart: each chart goes to the browser as data for one element per key (redrawn there with
    Plotly.react), with its PNG export settings and the URL of plotly.js, which static/ serves: the plotly
    package's own copy.  With static serving off, the same figure is drawn with st.plotly_chart instead."""
    import filecmp

    import streamlit as st

    from pages.ui import live_chart

    at = app("ko")
    live = live_charts(at)
    assert set(live) == {"tr_grid_enc_self", "tr_focus_enc_self"}
    for data in live.values():
        export = data["config"]["toImageButtonOptions"]
        assert export["format"] == "png" and export["scale"] == 2
        assert export["filename"].startswith("attention-atlas_home_enc_self_") and export["filename"].endswith("_ko")
        assert data["src"] == "/app/static/plotly.min.js"
        assert data["fullscreen"] == strings("ko")["common.fullscreen"]
    assert filecmp.cmp(live_chart.PLOTLY_JS, live_chart.PLOTLY_JS_SOURCE, shallow=False)

    static_serving = st.get_option("server.enableStaticServing")
    st.config.set_option("server.enableStaticServing", False)
    live_chart._ready.clear()
    try:
        plain = app("ko")
        assert not live_charts(plain)
        drawn = {c.key: json.loads(c.proto.spec) for c in plain.get("plotly_chart")}
        for spec in drawn.values():         # Streamlit's placeholder template, which its chart element fills in
            assert spec["layout"].pop("template")
        assert drawn == {k: json.loads(d["spec"]) for k, d in live.items()}
    finally:
        st.config.set_option("server.enableStaticServing", static_serving)
        live_chart._ready.clear()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_korean_typed_into_an_english_source_model_gets_a_notice(app_checkpoints, ckpt, lang):
    at = app(lang, atlas_sentence="나는 사과를 좋아한다.")
    assert not at.exception
    s = strings(lang)
    notices = [w.value for w in at.warning]
    script = s["sentence.unreadable.script"].split("**")[1]
    none = s["sentence.unreadable.none"].format(language=s["srclang.en"])       # "Try a sentence in English."
    assert any(script in n and s["script.HANGUL"] in n and none in n for n in notices), notices
    at = app(lang, atlas_sentence=ckpt.examples[0]["src"])
    assert not any(script in w.value for w in at.warning)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_long_paragraph_is_cut_visibly_split_and_every_sentence_translated(app_checkpoints, ckpt, lang):
    from pages.ui.sentence import MAX_CHARS

    first, second = ckpt.examples[0]["src"], ckpt.examples[1]["src"]
    paragraph = " ".join([first, second] * 200)                     # far over the limit
    at = app(lang, atlas_sentence=paragraph)
    assert not at.exception
    s = strings(lang)
    assert any(w.value == s["sentence.cut"].format(n=len(paragraph), limit=MAX_CHARS) for w in at.warning)
    assert any(c.value == s["sentence.count"].format(n=MAX_CHARS, limit=MAX_CHARS) for c in at.caption)
    picker = at.selectbox(key="tr_pick")
    assert len(picker.options) == 20                                  # MAX_SENTENCES, with a notice
    assert any(w.value.startswith(s["sentence.too_many"].split("{")[0]) for w in at.warning)
    picker.set_value(1).run()                                         # the second sentence's attention
    assert not at.exception
    assert translation_text(at) == reference(ckpt, second)[0].text
    items = [m.value for m in at.markdown if m.value.startswith(("1. ", "2. "))]
    assert items and reference(ckpt, first)[0].text.replace(".", "") in items[0].replace("\\", "").replace(".", "")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_alignment_view_overlays_a_gold_alignment_and_names_the_best_head(toy_checkpoints, tmp_path, monkeypatch, lang):
    import shutil

    from pages.ui import model_state
    from transformer_core.checkpoints.files import GOLD

    folder = tmp_path / "checkpoints"
    shutil.copytree(toy_checkpoints, folder)
    config = json.loads((folder / "toy-en" / "config.json").read_text())
    (folder / "toy-en" / "config.json").write_text(json.dumps({**config, "max_len": 64}))  # room to teacher-force
    src = load_checkpoint(folder / "toy-en").examples[0]["src"]
    gold = folder / "toy-en" / GOLD
    gold.write_text(f"{src}\tnot this translation\t0-0\nbroken line\n", encoding="utf-8")
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", folder)
    s = strings(lang)
    model_state.load_bundled.clear()
    at = app(lang, atlas_sentence=src, tr_kind=s["translate.align.tab"])
    assert not at.exception
    assert any("not this translation" in i.value for i in at.info)          # the model says otherwise: no overlay
    gold.write_text(f"{src}\t{translation_text(at)}\t0-0\n", encoding="utf-8")
    model_state.load_bundled.clear()
    at = app(lang, atlas_sentence=src, tr_kind=s["translate.align.tab"])
    assert any(m.value.startswith(s["translate.gold.shown"].split("{")[0]) for m in at.success)
    fig = spec(at, "tr_align_fig")
    (line,) = [d for d in fig["data"] if d.get("name") == s["translate.gold.name"]]
    assert line["x"] == [0.0, 1.0, None]                 # one link: source word 0 (after <s>) -> target word 0
    words = [d for d in fig["data"] if d.get("mode") == "text"]
    assert line["y"][:2] == [words[0]["y"][1], words[1]["y"][0]]
    model_state.load_bundled.clear()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_domain_note_of_a_classroom_model_names_its_mix(toy_checkpoints, tmp_path, monkeypatch, lang):
    import shutil

    from pages.ui import model_state

    root = tmp_path / "checkpoints"
    shutil.copytree(toy_checkpoints / "toy-ko", root / "class-ko")
    source = {"name": "classroom", "mixed_with": [{"folder": "data/enko", "source": {"name": "ko-docs"}}]}
    (root / "class-ko" / "training.json").write_text(json.dumps({"data": {"manifest": {"source": source}}}))
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)
    s = strings(lang)
    at = app(lang, active_model="bundled:class-ko")
    assert not at.exception
    assert any(i.value == s["translate.domain.classroom.ko"].format(mix=s["translate.mix.ko-docs"]) for i in at.info)


def test_the_session_cache_is_bounded_in_bytes(app_checkpoints, ckpt, monkeypatch):
    """A session's own runs are kept while they hold at most SESSION_CACHE_BYTES together: past it the oldest
    go, never the newest."""
    from pages.ui import model_state, sentence
    from transformer_core.serving.registry import python_bytes

    key = "session:0:mine"
    handle = model_state.REGISTRY.add("test session id", "mine", ckpt, 0)
    at = app("en", session_models={key: ("mine", handle)}, active_model=key)
    one = next(iter(at.session_state["atlas_runs"].values()))
    assert one[1] == python_bytes(one[0])                         # each run with what it holds
    monkeypatch.setattr(sentence, "SESSION_CACHE_BYTES", int(2.5 * one[1]))
    for text in ("the woman finds the book.", "the cat sees the house.", "the dog likes the apple."):
        at.text_input(key="tr_text").input(text).run()
        assert not at.exception
        held = at.session_state["atlas_runs"]
        assert sum(size for _, size in held.values()) <= sentence.SESSION_CACHE_BYTES or len(held) == 1
    assert [k[2] for k in held][-1] == "the dog likes the apple."
    assert len(held) < 4
    model_state.REGISTRY.remove(handle)
