"""The Architecture page (pages/diagram.py) in Debian's headless Chromium, on a server holding the bundled en→ko
model and a random 6 + 6-layer OPUS-MT configuration (tests/marian_tiny.save_opus, d_model 64):

    the diagram       as many layer blocks as the config says (3 + 3: the first layer of each stack in full, the
                      others one box each, on one 768 px screen; 6 + 6: one box a
                      layer), every arrow's shape equal to the full trace's of the sentence typed
    every kind        a click on it opens its panel with a figure, in the same session (the sentence stays), and
                      puts ?block=ID in the address; that address opens the same panel in a new tab
    a collapsed layer opens in full when clicked
    decoding          the step slider moves the decoder side: its input (B, T) at T = the step
    screenshots       docs/architecture_ko.png and docs/architecture_en.png with ATLAS_SCREENSHOTS=docs (else under
                      out/screenshots/): the page on en→ko with the encoder-decoder attention of layer 2 open
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from test_browser import (
    BUNDLED_DIR,
    FIRST_RUN_TIMEOUT_S,
    I18N,
    RUN_TIMEOUT_S,
    SCREENSHOT_DIR,
    exceptions,
    streamlit_server,
)
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import architecture, explain
from transformer_core.explainer.translate import translate

ENKO, OPUS = "enko", "opus-mt-6x6-en-de"
SENTENCE = {ENKO: "I like apples.", OPUS: "the cat sees the house."}
VIEWPORT = {"width": 1366, "height": 768}
SHOT_VIEWPORT = {"width": 1400, "height": 1800}
SHOTS = {lang: SCREENSHOT_DIR / f"architecture_{lang}.png" for lang in ("ko", "en")}
KINDS = ["encoder.embed", "encoder.0.self_attn", "decoder.0.self_attn", "decoder.1.cross_attn", "decoder.2.add_norm3",
         "encoder.1.ffn", "linear", "softmax"]

DIAGRAM = """() => { const app = document.querySelector('[data-testid="stApp"]');
  if (document.querySelector('[data-testid="stException"]')) return true;
  return app.getAttribute('data-test-script-state') === 'notRunning' && !!document.querySelector('.atlas-svg svg'); }"""
READ = """() => { const svg = document.querySelector('.atlas-svg svg');
  return {arrows: Object.fromEntries([...svg.querySelectorAll('g.arrow-shape')].map(g => [g.dataset.arrow, g.dataset.shape])),
          frames: [...svg.querySelectorAll('g.layer-frame')].map(g => g.dataset.layer),
          boxes: [...svg.querySelectorAll('a.block.layer')].map(a => a.dataset.layer),
          selected: [...svg.querySelectorAll('a.block.selected')].map(a => a.dataset.block),
          chosen: (svg.querySelector('.chosen') || {}).textContent || '',
          height: svg.getBoundingClientRect().height}; }"""
PANEL = """() => { const p = document.querySelector('.st-key-ar_panel');
  if (!p) return null;
  const h = p.querySelector('h3');
  return {title: h ? h.innerText.trim() : '', plots: [...p.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout
          && (g.data || []).length).length}; }"""
PANEL_READY = f"() => {{ const r = ({PANEL})(); return r && r.plots > 0 ? r : null; }}"


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory, toy_pairs) -> Path:
    """The bundled en→ko model (linked) and the random 6 + 6 OPUS-MT configuration."""
    pytest.importorskip("transformers")
    from marian_tiny import save_opus

    if not (BUNDLED_DIR / ENKO / "config.json").is_file():
        pytest.fail(f"the bundled checkpoints/{ENKO} is needed")
    root = tmp_path_factory.mktemp("arch_checkpoints")
    (root / ENKO).symlink_to(BUNDLED_DIR / ENKO, target_is_directory=True)
    save_opus(root / OPUS, toy_pairs, d_model=64, encoder_ffn_dim=128, decoder_ffn_dim=128)
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory, checkpoints):
    with streamlit_server(tmp_path_factory.mktemp("arch"), checkpoints) as url:
        yield url


def reference(checkpoints: Path, model: str):
    ckpt = load_checkpoint(checkpoints / model)
    tr = translate(ckpt, SENTENCE[model])                    # the page's default mode: the model's beam search
    return ckpt, tr, explain.full_trace(ckpt.model, tr.src_ids, tr.out_ids)


def settle(page, condition: str = DIAGRAM, timeout_s: float = RUN_TIMEOUT_S) -> None:
    time.sleep(0.3)                                           # the rerun a click starts has begun
    page.wait_for_function(condition, timeout=timeout_s * 1000, polling=100)
    assert not exceptions(page), exceptions(page)


def open_page(context, server: str, lang: str, model: str, block: str | None = None, viewport=VIEWPORT):
    """A new tab on /architecture (the server is warm: streamlit_server), with the model's sentence typed."""
    page = context.new_page()
    page.set_default_timeout(RUN_TIMEOUT_S * 1000)
    page.set_viewport_size(viewport)
    query = f"?lang={lang}&model={model}" + (f"&block={block}" if block else "")
    page.goto(f"{server}/architecture{query}")
    settle(page, DIAGRAM, FIRST_RUN_TIMEOUT_S)
    box = page.get_by_test_id("stTextInputField")
    if box.input_value() != SENTENCE[model]:
        box.fill(SENTENCE[model])
        box.press("Enter")
        time.sleep(1)
        settle(page)
    assert page.locator("h1").inner_text().strip() == I18N[lang]["arch.title"]
    return page


def read(page) -> dict:
    return page.evaluate(READ)


def click_block(page, block: str) -> dict:
    """Click a block of the diagram, first its layer's box where that layer is drawn as one; -> the panel once it
    shows that block with its figures."""
    layer = ".".join(block.split(".")[:2])
    if not page.locator(f'.atlas-svg a[data-block="{block}"]').count():
        page.locator(f'.atlas-svg a.block.layer[data-layer="{layer}"]').click()
        page.wait_for_function("([l]) => [...document.querySelectorAll('.atlas-svg g.layer-frame')]"
                               ".some(g => g.dataset.layer === l)", arg=[layer], polling=100)
        settle(page)
    page.locator(f'.atlas-svg a[data-block="{block}"]').first.click()
    page.wait_for_function("([b]) => [...document.querySelectorAll('.atlas-svg a.block.selected')]"
                           ".some(a => a.dataset.block === b)", arg=[block], polling=100)
    settle(page, DIAGRAM)
    page.wait_for_function(PANEL_READY, polling=100)
    return page.evaluate(PANEL)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_bundled_model_every_block_opens_by_click_and_by_address(context, server, checkpoints, lang):
    ckpt, tr, full = reference(checkpoints, ENKO)
    page = open_page(context, server, lang, ENKO)
    seen = read(page)
    assert (ckpt.config.n_encoder_layers, ckpt.config.n_decoder_layers) == (3, 3)
    assert sorted(seen["frames"]) == ["decoder.0", "encoder.0"]          # the first layers in full, as Figure 1
    assert seen["boxes"] == ["encoder.1", "encoder.2", "decoder.1", "decoder.2"]
    assert seen["height"] <= VIEWPORT["height"] - 100, seen["height"]  # the whole model on one screen
    expected = {name: ",".join(map(str, a["shape"])) for name, a in architecture.arrows(full).items()}
    assert {"encoder.0.ffn.hidden", "decoder.2.add_norm3.out", "softmax.out"} <= set(seen["arrows"])
    assert seen["arrows"] == {name: expected[name] for name in seen["arrows"]}
    panels = {}
    for block in KINDS:
        panel = click_block(page, block)
        assert panel["plots"] >= 1, (block, panel)
        assert re.search(r"[?&]block=" + re.escape(block) + r"(&|$)", page.url), page.url
        assert page.get_by_test_id("stTextInputField").input_value() == SENTENCE[ENKO]     # the same session
        panels[block] = panel["title"]
    for block in ("decoder.1.cross_attn", "encoder.1.ffn", "softmax"):   # a bookmark opens the same panel
        other = open_page(context, server, lang, ENKO, block=block)
        try:
            other.wait_for_function(PANEL_READY, polling=100)
            assert other.evaluate(PANEL)["title"] == panels[block]
            assert read(other)["selected"] == [block]
        finally:
            other.close()
    page.close()


SVG_TEXT_PX = """() => { const svg = document.querySelector('.atlas-svg svg'); const k = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('text, tspan')].filter(t => t.textContent.trim() && t.getBoundingClientRect().width)
    .map(t => parseFloat(getComputedStyle(t).fontSize) * k); }"""


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_projector_mode_draws_the_diagram_across_the_page_at_18_px(context, server, checkpoints, lang):
    """?present=1 at 1024×768: the diagram takes the page's width, every layer a box until one is opened, and
    no text of it under 18 px on the screen (beside the panel, at 1366 px, it is 12–15 px)."""
    page = open_page(context, server, lang, ENKO, viewport={"width": 1024, "height": 768})
    try:
        page.goto(page.url + "&present=1")
        settle(page)
        seen = read(page)
        assert seen["frames"] == [] and len(seen["boxes"]) == 6
        sizes = page.evaluate(SVG_TEXT_PX)
        assert sizes and min(sizes) >= 18, sorted(sizes)[:5]
        click_block(page, "decoder.1.cross_attn")                     # a layer opens, its panel under the diagram
        assert read(page)["frames"] == ["decoder.1"]
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_greedy_decoding_moves_along_the_decoder(context, server, checkpoints, lang):
    page = open_page(context, server, lang, ENKO)
    try:
        page.get_by_text(I18N[lang]["arch.step.toggle"], exact=True).click()
        settle(page, "() => !!document.querySelector('.atlas-svg .chosen')")
        seen = read(page)
        assert seen["arrows"]["decoder.input"] == "1,1" and seen["chosen"].startswith("→")
        slider = page.get_by_role("slider")
        slider.focus()
        slider.press("ArrowRight")
        settle(page, "() => (document.querySelector('.atlas-svg g[data-arrow=\"decoder.input\"]') || {dataset: {}})"
                     ".dataset.shape === '1,2'")
        assert read(page)["arrows"]["encoder.input"] == f"1,{len(reference(checkpoints, ENKO)[1].src_ids)}"
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_6_plus_6_model_draws_its_layers_collapsed_and_opens_one(context, server, checkpoints, lang):
    ckpt, tr, full = reference(checkpoints, OPUS)
    assert (ckpt.config.n_encoder_layers, ckpt.config.n_decoder_layers) == (6, 6)
    page = open_page(context, server, lang, OPUS)
    try:
        seen = read(page)
        assert seen["boxes"] == [f"encoder.{i}" for i in range(6)] + [f"decoder.{i}" for i in range(6)]
        assert seen["frames"] == []
        expected = {name: ",".join(map(str, a["shape"])) for name, a in architecture.arrows(full).items()}
        assert seen["arrows"] and all(expected[k] == v for k, v in seen["arrows"].items())
        page.locator('.atlas-svg a.block.layer[data-layer="decoder.3"]').click()
        page.wait_for_function("() => [...document.querySelectorAll('.atlas-svg g.layer-frame')]"
                               ".some(g => g.dataset.layer === 'decoder.3')", polling=100)
        settle(page)
        seen = read(page)
        assert seen["frames"] == ["decoder.3"] and len(seen["boxes"]) == 11
        assert seen["arrows"]["decoder.3.ffn.hidden"] == expected["decoder.3.ffn.hidden"]
        assert seen["selected"] == ["decoder.3.self_attn"]
        panel = click_block(page, "decoder.3.ffn")
        assert panel["plots"] >= 1
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_screenshot(context, server, checkpoints, lang):
    """The README's picture: en→ko, the encoder-decoder attention of layer 2 open."""
    page = open_page(context, server, lang, ENKO, block="decoder.1.cross_attn", viewport=SHOT_VIEWPORT)
    try:
        page.wait_for_function(PANEL_READY, polling=100)
        page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
        page.mouse.move(SHOT_VIEWPORT["width"] - 1, SHOT_VIEWPORT["height"] - 1)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        time.sleep(1)
        SHOTS[lang].parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS[lang]), animations="disabled")
        assert SHOTS[lang].stat().st_size > 50_000
    finally:
        page.close()
