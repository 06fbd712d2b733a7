"""The step-by-step decoding page with AppTest in both languages: its figures and tables are the
StepTrace numbers of translate(…, trace=True)."""

import numpy as np
import pytest

from apppages import chart_spec as spec
from apppages import chart_specs, open_app
from pages.ui import figures
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer.translate import translate

pytestmark = pytest.mark.usefixtures("one_thread")

PAGE = "pages/decoding.py"


@pytest.fixture(scope="module")
def ckpt(toy_checkpoints):
    return load_checkpoint(toy_checkpoints / "toy-en")


def app(lang: str, **state):
    return open_app(lang, PAGE, **state)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("mode,beam", [("greedy", 1), ("beam", 4)])
def test_every_step_shows_the_step_trace(app_checkpoints, ckpt, lang, mode, beam):
    text = ckpt.examples[1]["src"]
    at = app(lang, atlas_sentence=text, atlas_mode=mode)
    assert not at.exception
    ref = translate(ckpt, text, beam=beam, trace=True).decoded.steps
    assert [w.key for w in at.slider if w.key == "dec_step"] == (["dec_step"] if len(ref) > 1 else [])
    for s in sorted({1, 2, len(ref)}):
        if len(ref) > 1:
            at.slider(key="dec_step").set_value(s).run()
        assert not at.exception
        step = ref[s - 1]
        topk = spec(at, "dec_topk")["data"][0]
        np.testing.assert_allclose(topk["x"], np.round(step.topk_probs[0], 4), atol=1e-12)
        assert len(topk["y"]) == len(step.topk_ids[0])
        cross = spec(at, "dec_cross")["data"][0]
        L, H, S = step.cross[0].shape
        np.testing.assert_array_equal(np.array(cross["z"]), np.round(step.cross[0].numpy().reshape(L * H, S).astype(float), 4))
        table = at.dataframe[0].value                          # decoder input over what it predicts
        assert list(table.iloc[0]) == ckpt.tokenizer.pieces(step.prefixes[0])
        beams = at.dataframe[1].value
        assert len(beams) == len(step.beams)
        np.testing.assert_allclose(beams.iloc[:, 3].to_numpy(dtype=float), [round(sc, 4) for _, sc in step.beams])


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_beam_hypotheses_can_be_inspected(app_checkpoints, ckpt, lang):
    text = ckpt.examples[0]["src"]
    ref = translate(ckpt, text, beam=4, trace=True).decoded.steps
    s = next((i + 1 for i, st_ in enumerate(ref) if len(st_.prefixes) > 1), None)
    if s is None:
        pytest.skip("every step had one live hypothesis")
    at = app(lang, atlas_sentence=text, atlas_mode="beam", dec_step=s, dec_hyp=1)
    assert not at.exception
    topk = spec(at, "dec_topk")["data"][0]
    np.testing.assert_allclose(topk["x"], np.round(ref[s - 1].topk_probs[1], 4), atol=1e-12)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_empty_and_long_input(app_checkpoints, lang):
    at = app(lang, atlas_sentence="")
    assert not at.exception and at.info and not chart_specs(at)
    at.text_input(key="dec_text").input(" ".join(["the cat sees the house"] * 20)).run()
    assert not at.exception and at.warning
    assert at.slider(key="dec_step").max >= 1


def test_sentence_is_shared_with_the_translate_page(app_checkpoints):
    at = app("en")
    at.text_input(key="dec_text").input("the dog sees the tree.").run()
    at.switch_page("pages/translate.py").run()
    assert not at.exception
    assert at.text_input(key="tr_text").value == "the dog sees the tree."


def test_topk_figure_draws_the_probabilities():
    fig = figures.topk_figure(["▁ich", "<unk>", "▁du"], [0.7, 0.2, 0.05], chosen=[0, 2], decimals=None)
    import plotly.graph_objects as go
    go.Figure(fig.to_dict())
    assert list(fig.data[0].x) == [0.7, 0.2, 0.05]
    assert list(fig.data[0].y) == ["·ich", "&lt;unk&gt;", "·du"]          # theme.token_label
    colors = list(fig.data[0].marker.color)
    assert colors[0] == colors[2] != colors[1]


def test_topk_figure_tells_small_probabilities_apart():
    """Not one bar and four '0.000': every probability with its own digits, and its log-probability."""
    probs = [0.9962, 0.0021, 0.00043, 0.000031, 2.2e-6]
    text = list(figures.topk_figure(list("abcde"), probs).data[0].text)
    assert text == ["0.996 (log −0.00)", "0.0021 (log −6.17)", "0.00043 (log −7.75)", "3.1e-05 (log −10.38)",
                    "2.2e-06 (log −13.03)"]
