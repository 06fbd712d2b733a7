"""The Architecture page (pages/diagram.py) with AppTest, in both languages: on the bundled en→ko model the
diagram has its 3 + 3 layers and every arrow the shape of the trace (the shapes page's too); every kind of
block opens from ?block= onto a figure whose numbers are transformer_core's (norms, LayerNorm statistics, the
sublayer against its residual, ReLU's zeros, the top 5, the heads); greedy decoding moves on the diagram; the
residual stream; the link to the same heads on the home page; projector mode; a trace past the run-cost bound
is refused.  Then a random 6 + 6-layer OPUS-MT configuration, float and int8: its layers collapsed, each
opening in full."""
import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest

from apppages import APP, chart_spec, charts
from pages.ui import figures, sentence
from pages.ui.i18n import strings
from pages.ui.theme import token_label
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import architecture, explain
from transformer_core.explainer.translate import translate

pytestmark = pytest.mark.usefixtures("one_thread")

ROOT = Path(__file__).resolve().parents[1]
PAGE = "pages/diagram.py"
SENTENCE = "I like apples."
MODEL = "enko"


@pytest.fixture(scope="module")
def enko():
    ckpt = load_checkpoint(ROOT / "checkpoints" / MODEL)
    tr = translate(ckpt, SENTENCE)                     # the page's default: the model's beam search
    return ckpt, tr, explain.full_trace(ckpt.model, tr.src_ids, tr.out_ids)


def app(lang: str, block: str | None = None, model: str = MODEL, sentence: str = SENTENCE, **state):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = lang
    at.session_state["active_model"] = f"bundled:{model}"
    at.session_state["atlas_sentence"] = sentence
    for key, value in state.items():
        at.session_state[key] = value
    if block:
        at.query_params["block"] = block
    at.run()
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def svg(at) -> str:
    drawn = [json.loads(c.proto.json)["svg"] for c in at.get("bidi_component")
             if c.proto.component_name == "atlas_svg_diagram"]
    assert len(drawn) == 1
    return drawn[0]


def arrow_shapes(svg_text: str) -> dict[str, tuple[int, ...]]:
    return {name: tuple(int(d) for d in shape.split(","))
            for name, shape in re.findall(r'data-arrow="([\w.]+)" data-symbols="[^"]*" data-shape="([\d,]+)"', svg_text)}


def array(value) -> np.ndarray:
    """A figure's data array as numpy (plotly sends numpy arrays as typed base64 'bdata')."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        return flat.reshape([int(n) for n in str(value.get("shape", len(flat))).split(",")])
    return np.array(value, dtype=float)


def texts(at) -> str:
    return "\n".join(e.value for kind in ("markdown", "caption", "info", "warning", "subheader") for e in at.get(kind))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_diagram_has_the_models_layers_and_the_traces_shapes(enko, lang):
    ckpt, tr, full = enko
    at = app(lang)
    drawn = svg(at)
    cfg = ckpt.config
    assert (cfg.n_encoder_layers, cfg.n_decoder_layers) == (3, 3)
    # the paper's Figure 1: each stack's first layer in full, the others one box each (the whole model on one screen)
    frames = re.findall(r'class="layer-frame" data-layer="([\w.]+)"', drawn)
    assert sorted(frames) == ["decoder.0", "encoder.0"]
    boxes = re.findall(r'data-kind="layer" class="block layer" [^>]*data-layer="([\w.]+)"', drawn)
    assert boxes == ["encoder.1", "encoder.2", "decoder.1", "decoder.2"]
    assert set(re.findall(r'data-block="([\w.]+)"', drawn)) == {b["id"] for b in architecture.blocks(cfg)   # a box opens
                                                               if b["layer"] in (None, 0) or b["id"].endswith(".self_attn")}
    assert strings(lang)["arch.collapsed.first"].format(n_enc=3, n_dec=3) in texts(at)
    shown = arrow_shapes(drawn)
    expected = architecture.arrows(full)
    assert {"encoder.0.ffn.hidden", "decoder.0.cross_attn.kv", "encoder.2.add_norm2.out", "decoder.2.add_norm3.out",
            "decoder.embed.sum", "softmax.out"} <= set(shown)
    assert shown == {name: expected[name]["shape"] for name in shown}
    opened = svg(app(lang, "decoder.2.ffn"))                           # a block of another layer: that layer in full
    assert sorted(re.findall(r'class="layer-frame" data-layer="([\w.]+)"', opened)) == ["decoder.2", "encoder.0"]
    s = strings(lang)
    for name in (s["arch.block.add_norm"], s["arch.block.ffn"], s["arch.block.linear"], s["arch.block.softmax"],
                 s["arch.block.input_embedding"], s["arch.block.output_embedding"],
                 s["arch.block.encoder"].format(n=3, h=4), s["arch.block.decoder"].format(n=3, h=4)):
        assert f">{figures.escape(name)}<" in drawn, name
    assert at.info and at.info[0].value == s["arch.hint"]                     # no block open yet
    # the same shapes as the shapes page's walk of the same sentence
    from apppages import open_app
    shapes_page = open_app(lang, "pages/shapes.py", active_model=f"bundled:{MODEL}", atlas_sentence=SENTENCE,
                           sh_walk_enc=2, sh_walk_dec=1)
    table = shapes_page.dataframe[0].value
    by_record = {a["record"]: a["shape"] for a in expected.values()}
    col_record = {"ko": "기록된 텐서", "en": "recorded tensor"}[lang]
    col_shape = {"ko": "실제 모양", "en": "actual shape"}[lang]
    matched = 0
    for record, shape in zip(table[col_record], table[col_shape], strict=True):
        if record in by_record:
            assert shape == str(by_record[record]), record
            matched += 1
    assert matched >= 10


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_embeddings_open_with_their_norms(enko, lang):
    _, _, full = enko
    at = app(lang, "encoder.embed")
    norms = architecture.embedding_norms(full.probe.records["encoder.embed"])
    bars = chart_spec(at, "ar_embed_norms")["data"]
    for trace, name in zip(bars, ("token", "position", "sum"), strict=True):
        np.testing.assert_allclose(trace["y"], norms[name])
    heat = chart_spec(at, "ar_embed_fig")["data"]
    np.testing.assert_allclose(heat[1]["z"], np.round(full.probe.records["encoder.embed"]["position"].numpy(), 3))
    assert strings(lang)["arch.explain.embed"] in texts(at)
    at = app(lang, "decoder.embed")
    norms = architecture.embedding_norms(full.probe.records["decoder.embed"])
    np.testing.assert_allclose(chart_spec(at, "ar_embed_norms")["data"][2]["y"], norms["sum"])


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("block", ["encoder.1.self_attn", "decoder.0.self_attn", "decoder.2.cross_attn"])
def test_attention_blocks_open_onto_their_heads(enko, lang, block):
    ckpt, _, full = enko
    at = app(lang, block)
    w = full.probe.records[block]["weights"][0].numpy()                       # (h, Tq, Tk)
    fig = chart_spec(at, "ar_attn_fig")
    rows, per_row = fig["layout"]["meta"]["grid"][:2]
    for head in range(ckpt.config.n_heads):
        got = figures.grid_panel(fig, *divmod(head, per_row))
        np.testing.assert_allclose(got, np.round(w[head], 4), atol=1e-9)
    assert rows * per_row >= ckpt.config.n_heads
    if block == "decoder.0.self_attn":                                     # the mask, as the model used it
        mask = array(chart_spec(at, "ar_mask_fig")["data"][0]["z"])
        np.testing.assert_array_equal(mask, full.probe.records["masks"]["tgt_mask"][0, 0].numpy().astype(float))
        assert np.triu(mask, 1).sum() == 0 and mask[np.tril_indices(len(mask))].all()
    else:
        assert "ar_mask_fig" not in charts(at)
    assert at.button(key="ar_home")                                        # the same heads on the home page


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("block", ["encoder.0.add_norm2", "decoder.1.add_norm2"])
def test_add_and_norm_shows_layer_norm_statistics_and_the_sublayer_against_its_residual(enko, lang, block):
    ckpt, _, full = enko
    at = app(lang, block)
    stack, layer, which = block.split(".")
    rec = full.probe.records[block]
    norm = getattr((ckpt.model.encoder if stack == "encoder" else ckpt.model.decoder)[int(layer)], which).norm
    ln = explain.layer_norm_stats(rec["before"][0], rec["after"][0], norm)
    data = chart_spec(at, "ar_norm_fig")["data"]
    for trace, name in zip(data, ("mean_before", "mean_after", "std_before", "std_after"), strict=True):
        np.testing.assert_allclose(trace["y"], np.round(ln[name], 5))
    np.testing.assert_allclose(ln["std_after"].mean(), 1.0, atol=0.6)       # γ scales what LayerNorm made 1
    ratio = architecture.residual_ratio(rec)
    bars = chart_spec(at, "ar_ratio_fig")["data"]
    np.testing.assert_allclose(bars[0]["y"], ratio["residual"])
    np.testing.assert_allclose(bars[1]["y"], ratio["sublayer"])
    assert f"{float(np.median(ratio['ratio'])):.2f}" in texts(at)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("block", ["encoder.2.ffn", "decoder.0.ffn"])
def test_feed_forward_shows_its_hidden_units_and_what_relu_zeroes(enko, lang, block):
    _, _, full = enko
    at = app(lang, block)
    hidden = full.probe.records[block]["hidden"][0]                          # (T, d_ff)
    zeroed = architecture.ffn_zeroed(hidden)
    np.testing.assert_allclose(chart_spec(at, "ar_zero_fig")["data"][0]["y"], zeroed)
    np.testing.assert_allclose(zeroed, (hidden.numpy() == 0).mean(-1))       # ReLU: exact zeros
    shown, f = architecture.downsample(hidden, 256)
    z = np.array(chart_spec(at, "ar_ffn_fig")["data"][0]["z"], dtype=float)
    assert f == 4 and z.shape == (hidden.shape[0], 256)                      # d_ff 1024: means of 4 columns
    np.testing.assert_allclose(z, np.round(shown, 3))
    assert f"{100 * float(np.mean(zeroed)):.1f}" in texts(at)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("block", ["linear", "softmax"])
def test_linear_and_softmax_show_each_positions_top_5(enko, lang, block):
    ckpt, tr, full = enko
    at = app(lang, block)
    top = architecture.top_next(ckpt.model, full.logits[0])
    fig = chart_spec(at, "ar_out_fig")["data"][0]
    np.testing.assert_allclose(fig["z"], np.round(top["probs"], 4))
    assert len(fig["z"]) == len(tr.out_ids) + 1 and len(fig["z"][0]) == 5
    words = [[cell.split("<br>")[0] for cell in row] for row in fig["text"]]
    assert words == [[figures.escape(token_label(ckpt.tokenizer.id_to_piece(int(i)))) for i in row] for row in top["ids"]]
    assert fig["y"] == figures.tick_labels(ckpt.tokenizer.pieces([ckpt.config.bos_id, *tr.out_ids]))
    assert words[-1][0] == "&lt;/s&gt;"                                      # after the last token: the end


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_greedy_decoding_moves_the_decoder_side(enko, lang):
    ckpt, _, _ = enko
    greedy = translate(ckpt, SENTENCE, beam=1)
    steps = architecture.steps_of(ckpt.model, greedy.src_ids, greedy.out_ids)
    at = app(lang, ar_decode=True, ar_step=2)
    drawn = svg(at)
    shown = arrow_shapes(drawn)
    assert shown["decoder.input"] == (1, 2) and shown["decoder.0.self_attn.mask"] == (1, 1, 2, 2)
    assert shown["encoder.input"] == (1, len(greedy.src_ids))              # the encoder as computed once
    chosen = ckpt.tokenizer.id_to_piece(greedy.out_ids[1]).replace("▁", "·")
    assert re.search(r'class="chosen">→ ' + re.escape(figures.architecture._x(chosen)), drawn)
    bars = chart_spec(at, "ar_step_fig")["data"][0]
    np.testing.assert_allclose(bars["x"], np.round(steps[1]["probs"], 4))
    assert steps[1]["ids"][0] == greedy.out_ids[1] == steps[1]["chosen"]
    at = app(lang, ar_decode=True, ar_step=len(steps), atlas_mode="greedy")  # the page's own trace, greedy
    assert arrow_shapes(svg(at))["decoder.input"] == (1, len(steps))
    assert svg(at).split('class="chosen">')[1].startswith("→ &lt;/s&gt;")          # the end, last


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_residual_stream(enko, lang):
    _, _, full = enko
    at = app(lang)
    stream = architecture.residual_stream(full)
    data = chart_spec(at, "ar_stream_fig")["data"]
    S, T = full.src.shape[1], full.tgt_in.shape[1]
    assert len(data) == S + T
    for j in range(S):
        np.testing.assert_allclose(data[j]["y"], np.round(stream["encoder"]["norms"][:, j], 4))
    for j in range(T):
        np.testing.assert_allclose(data[S + j]["y"], np.round(stream["decoder"]["norms"][:, j], 4))
    assert len(data[0]["x"]) == 1 + 2 * 3 and len(data[S]["x"]) == 1 + 3 * 3


def test_the_same_heads_on_the_home_page(enko):
    at = app("en", "decoder.2.cross_attn")
    at.button(key="ar_home").click().run()
    assert not at.exception
    s = strings("en")
    assert at.session_state["tr_kind"] == s["attn.kind.cross"] and at.session_state["tr_layer_cross"] == 2
    assert at.title[0].value == s["translate.title"]
    assert at.get_by_key("tr_grid_cross") is not None or "tr_grid_cross" in charts(at)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_projector_mode_draws_larger(enko, lang):
    plain = svg(app(lang, "decoder.1.ffn"))
    at = app(lang, "decoder.1.ffn", present=True)
    large = svg(at)
    size = lambda s: max(float(v) for v in re.findall(r'font-size="([\d.]+)"', s))        # noqa: E731
    assert size(large) > size(plain)
    # on a projector only the open block's layer is drawn in full (the others boxes), with the same shapes
    assert re.findall(r'class="layer-frame" data-layer="([\w.]+)"', large) == ["decoder.1"]
    shown, every = arrow_shapes(large), arrow_shapes(plain)
    assert "decoder.1.ffn.hidden" in shown and all(every[k] == v for k, v in shown.items()) and charts(at)


def test_a_trace_past_the_run_cost_bound_is_refused(enko, monkeypatch):
    from transformer_core.serving import cost

    monkeypatch.setattr(cost, "MAX_BYTES", 1 << 20)
    at = app("en", "decoder.0.ffn", sentence="I like apples and pears and plums and the cat likes the book.")
    s = strings("en")
    assert any(s["app.run_too_large"].split("{")[0] in w.value for w in at.warning), [w.value for w in at.warning]
    assert not [c for c in at.get("bidi_component") if c.proto.component_name == "atlas_svg_diagram"]


# ---------------------------------------------------------------- a 6 + 6 OPUS-MT configuration, float and int8

OPUS_NAME = "opus-mt-6x6-en-de"


@pytest.fixture(scope="module")
def opus_root(tmp_path_factory, toy_pairs):
    """A random MarianMTModel of opus-mt-en-de's configuration with its 6 + 6 layers (d_model 64, 8 heads), and an
    int8 copy prepared for the app (models/)."""
    pytest.importorskip("transformers")
    from marian_tiny import save_opus
    from transformer_core.checkpoints.prepare import prepare

    root = tmp_path_factory.mktemp("opus_arch")
    folder = save_opus(root / "checkpoints" / OPUS_NAME, toy_pairs, d_model=64, encoder_ffn_dim=128,
                       decoder_ffn_dim=128)
    prepare(load_checkpoint(folder), root / "models" / f"{OPUS_NAME}-int8", "int8")
    return root


@pytest.fixture
def opus_app(opus_root, monkeypatch):
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", opus_root / "checkpoints")
    monkeypatch.setattr(model_state, "MODELS_DIR", opus_root / "models")
    return opus_root


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name", [OPUS_NAME, f"{OPUS_NAME}-int8"])
def test_a_6_plus_6_opus_model_draws_its_layers_collapsed_each_opening(opus_app, lang, name):
    folder = opus_app / ("checkpoints" if name == OPUS_NAME else "models") / name
    ckpt = load_checkpoint(folder)
    assert (ckpt.config.n_encoder_layers, ckpt.config.n_decoder_layers, ckpt.config.n_heads) == (6, 6, 8)
    if name != OPUS_NAME:
        from transformer_core.model.quantize import QuantLinear, scheme_of
        assert scheme_of(ckpt.model) == "int8" and isinstance(ckpt.model.decoder[0].ffn.linear1, QuantLinear)
    text = "the cat sees the house."
    tr = translate(ckpt, text)
    full = explain.full_trace(ckpt.model, tr.src_ids, tr.out_ids)
    at = app(lang, model=name, sentence=text)
    drawn = svg(at)
    boxes = re.findall(r'data-kind="layer" class="block layer" [^>]*data-layer="([\w.]+)"', drawn)
    assert boxes == [f"encoder.{i}" for i in range(6)] + [f"decoder.{i}" for i in range(6)]
    assert strings(lang)["arch.collapsed"].format(n_enc=6, n_dec=6) in texts(at)
    expected = {k: a["shape"] for k, a in architecture.arrows(full).items()}
    shown = arrow_shapes(drawn)
    assert {"encoder.5.add_norm2.out", "decoder.5.add_norm3.out", "decoder.embed.sum", "softmax.out"} <= set(shown)
    assert all(shown[k] == expected[k] for k in shown)
    at = app(lang, "decoder.4.ffn", model=name, sentence=text)                  # one layer opened in full
    drawn = svg(at)
    assert re.findall(r'class="layer-frame" data-layer="([\w.]+)"', drawn) == ["decoder.4"]
    assert len(re.findall(r'data-kind="layer" class="block layer"', drawn)) == 11
    shown = arrow_shapes(drawn)
    for key in ("decoder.4.ffn.hidden", "decoder.4.cross_attn.kv", "decoder.4.self_attn.mask", "linear.out"):
        assert shown[key] == architecture.arrows(full)[key]["shape"]
    assert shown["decoder.4.ffn.hidden"] == (1, len(tr.out_ids) + 1, 128)
    hidden = full.probe.records["decoder.4.ffn"]["hidden"][0]
    np.testing.assert_allclose(chart_spec(at, "ar_zero_fig")["data"][0]["y"], architecture.ffn_zeroed(hidden))
    at = app(lang, "encoder.5.self_attn", model=name, sentence=text)
    assert re.findall(r'class="layer-frame" data-layer="([\w.]+)"', svg(at)) == ["encoder.5"]
    fig = chart_spec(at, "ar_attn_fig")
    w = full.probe.records["encoder.5.self_attn"]["weights"][0].numpy()
    per_row = fig["layout"]["meta"]["grid"][1]
    for head in range(8):
        np.testing.assert_allclose(figures.grid_panel(fig, *divmod(head, per_row)), np.round(w[head], 4), atol=1e-9)


def test_a_refused_greedy_trace_is_said_on_the_page_not_raised(enko, monkeypatch):
    """Step mode in beam mode traces greedy's output too, inside the page's fragment: a refusal there is shown
    (widgets.busy_notice), not a traceback."""
    from transformer_core.serving import cost

    def refuse(*args, **kwargs):
        raise cost.RunTooLarge(12.0, 400.0, 6, 3)

    monkeypatch.setattr(architecture, "steps_of", refuse)
    monkeypatch.setattr(sentence, "PROCESSES", None)          # the run on a thread here, where refuse() is
    at = app("ko", ar_decode=True, atlas_mode="beam", sentence="I like pears.")
    s = strings("ko")
    assert any(s["app.run_too_large"].split("{")[0] in w.value for w in at.warning), [w.value for w in at.warning]
