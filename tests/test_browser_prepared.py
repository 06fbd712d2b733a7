"""A model prepared for a school's server (checkpoints/prepare.py: `python -m transformer_core quantize` /
`hub pull --to models/NAME --int8`), in a real browser: the server's model folder (ATLAS_MODELS_DIR) holds
only an int8 copy of checkpoints/enko; the sidebar lists it under its readable name and says it is
quantized, and the home page translates the lecture's sentence with its attention drawn, in both languages.
Screenshots: out/screenshots/prepared_{ko,en}.png."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from test_browser import (
    FIRST_RUN_TIMEOUT_S,
    I18N,
    ROOT,
    SCREENSHOT_DIR,
    VIEWPORT,
    source_pieces,
    streamlit_server,
    translate,
    wait_for_page,
)
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.prepare import prepare

NAME = "enko-int8"
LABEL = {"ko": "영어 → 한국어 (enko, int8)", "en": "English → Korean (enko, int8)"}


@pytest.fixture(scope="module")
def prepared_server(tmp_path_factory):
    """A server with no bundled checkpoint and one prepared int8 model -> (URL, its models folder)."""
    tmp = tmp_path_factory.mktemp("prepared")
    models = tmp / "models"
    prepare(load_checkpoint(ROOT / "checkpoints" / "enko"), models / NAME, "int8")
    (tmp / "checkpoints").mkdir()
    with streamlit_server(tmp, tmp / "checkpoints", models=models) as url:
        yield url, models


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_prepared_int8_model_is_listed_by_name_and_translates(browser, prepared_server, lang):
    url, models = prepared_server
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{url}/?lang={lang}&model={NAME}")
        wait_for_page(page, lang, "translate", FIRST_RUN_TIMEOUT_S)
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert page.locator(".st-key-sidebar_model input").input_value() == LABEL[lang]
        assert I18N[lang]["model.quantized_note"].format(scheme="int8") in sidebar
        got = translate(SimpleNamespace(page=page, lang=lang), "I like apples.",
                        source_pieces(models, NAME, "I like apples."))
        assert got == "나는 사과를 좋아한다."
        assert f"model={NAME}" in page.url                     # the folder name stays in the URL
        Path(SCREENSHOT_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOT_DIR) / f"prepared_{lang}.png"), full_page=True)
    finally:
        context.close()
