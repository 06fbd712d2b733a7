"""Issue #42 (items 5-14): the app says one thing one way: one row convention, true titles, honest labels,
readable model names, no English or code names left in the Korean interface."""
import json
import shutil
from pathlib import Path

import pytest

from pages.ui.i18n import strings

from apppages import open_app

pytestmark = pytest.mark.usefixtures("one_thread")
ROOT = Path(__file__).resolve().parents[1]


def _classroom(toy_checkpoints, tmp_path, monkeypatch, name: str):
    from pages.ui import model_state

    root = tmp_path / "checkpoints"
    shutil.copytree(toy_checkpoints / name, root / name)
    source = {"name": "classroom", "mixed_with": []}
    (root / name / "training.json").write_text(json.dumps({"data": {"manifest": {"source": source}}}))
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_item12_the_korean_style_note_is_only_for_a_korean_target(toy_checkpoints, tmp_path, monkeypatch, lang):
    _classroom(toy_checkpoints, tmp_path, monkeypatch, "toy-en")          # English -> German
    at = open_app(lang, active_model="bundled:toy-en")
    assert not at.exception
    notes = [i.value for i in at.info if i.value.startswith(strings(lang)["translate.domain.classroom"][:20])]
    assert notes and not any("한다체" in n or "해요체" in n for n in notes)
