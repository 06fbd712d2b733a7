"""Projector mode in a real browser (headless Chromium): on the home page and the decoding page, at
1024×768 and 1920×1080, every token of the sentence is a tick label of the attention heatmaps, at 18 px
or more, and no two tick labels overlap.  The default mode: no overlaps, the word-start mark.  Every page's
first screen in projector mode is checked in tests/test_browser_a11y.py's projector passes."""
from pathlib import Path

import pytest

from pages.ui.theme import short_label, token_label
from test_browser import BUNDLED_DIR, HEALTH_TIMEOUT_S, SCREENSHOT_DIR, settle
from transformer_core.checkpoints.load import load_checkpoint

SIZES = [(1024, 768), (1920, 1080)]
TICKS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].filter(gd => gd.querySelector('.heatmaplayer'))
  .map(gd => {
    const ticks = [...gd.querySelectorAll('.xtick text, .ytick text')];
    const boxes = ticks.map(t => t.getBoundingClientRect());
    let overlaps = 0;
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.width && b.width && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        overlaps++;
    }
    return {labels: ticks.map(t => t.textContent), sizes: ticks.map(t => parseFloat(getComputedStyle(t).fontSize)),
            overlaps};
  })"""


@pytest.fixture(scope="module")
def tabs(context):
    """tabs(size) -> a new tab of that size, in the module's browser context (conftest)."""
    def new(size):
        tab = context.new_page()
        tab.set_viewport_size({"width": size[0], "height": size[1]})
        return tab

    return new


def heatmap_ticks(tabs, url: str, size, present: bool, shot: Path | None = None) -> list[dict]:
    """The tick labels of every heatmap on the page; shot: a screenshot of the first one's view there."""
    page = tabs(size)
    try:
        page.goto(url + ("&present=1" if present else ""), timeout=HEALTH_TIMEOUT_S * 1000)
        page.wait_for_selector(".js-plotly-plot .heatmaplayer", timeout=HEALTH_TIMEOUT_S * 1000)
        settle(page, HEALTH_TIMEOUT_S)                            # every chart drawn
        if shot:                                                  # the first screen, as the class sees it
            page.mouse.move(size[0] - 1, size[1] - 1)
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot), animations="disabled")
        return page.evaluate(TICKS_JS)
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("page", ["", "decode"])
def test_projector_mode_shows_every_token_large_without_overlap(bundled_server, tabs, size, page):
    ckpt = load_checkpoint(BUNDLED_DIR / "ende")
    sentence = ckpt.examples[0]["src"]                             # what the home page opens with
    ids = [ckpt.config.bos_id, *ckpt.tokenizer.encode(sentence), ckpt.config.eos_id]
    tokens = {short_label(token_label(p)) for p in ckpt.tokenizer.pieces(ids)}
    plots = heatmap_ticks(tabs, f"{bundled_server}/{page}?lang=en&model=ende", size, present=True)
    assert plots
    for plot in plots:
        assert tokens <= {label.rstrip("\u200b\u2060") for label in plot["labels"]}, plot["labels"]
        assert min(plot["sizes"]) >= 18 and plot["overlaps"] == 0, plot


def test_default_mode_writes_the_word_start_mark_not_an_underscore(bundled_server, tabs):
    plots = heatmap_ticks(tabs, f"{bundled_server}/?lang=en&model=ende", SIZES[1], present=False)
    labels = "".join(label for plot in plots for label in plot["labels"])
    assert "·" in labels and "▁" not in labels and "_" not in labels


def first_example_tokens(model: str) -> set[str]:
    """The labels of the source pieces of the sentence a page opens with (the model's first example)."""
    ckpt = load_checkpoint(BUNDLED_DIR / model)
    ids = [ckpt.config.bos_id, *ckpt.tokenizer.encode(ckpt.examples[0]["src"]), ckpt.config.eos_id]
    return {token_label(p) for p in ckpt.tokenizer.pieces(ids)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("page", ["", "decode"])
@pytest.mark.parametrize("model", ["ende", "enko"])        # an 11-token and a 6-token first example
def test_default_mode_shows_every_token_without_overlap(bundled_server, tabs, size, page, model):
    plots = heatmap_ticks(tabs, f"{bundled_server}/{page}?lang=en&model={model}", size, present=False)
    assert plots
    for plot in plots:
        drawn = {label.rstrip("\u200b\u2060") for label in plot["labels"]}
        if page == "":                                     # the home page's heatmaps are over the source
            assert first_example_tokens(model) <= drawn, plot["labels"]
        assert min(plot["sizes"]) >= 9 and plot["overlaps"] == 0, plot


def test_projector_mode_screenshot_shows_the_lecture_sentence_large(bundled_server, tabs):
    """docs/screenshot_present.png (with ATLAS_SCREENSHOTS=docs): the home page in projector mode at
    1024×768, in Korean, on the English→Korean model and the lecture's sentence."""
    shot = SCREENSHOT_DIR / "screenshot_present.png"
    plots = heatmap_ticks(tabs, f"{bundled_server}/?model=enko", SIZES[0], present=True, shot=shot)
    labels = {label.rstrip("\u200b\u2060") for label in plots[0]["labels"]}
    assert {"<s>", "·I", "·like", "</s>"} <= labels and min(plots[0]["sizes"]) >= 18
    assert shot.stat().st_size > 10_000
