"""What the model has seen (transformer_core/checkpoints/seen.py): the training source side's word counts, shipped with
each checkpoint, and the home page's note on the words it saw rarely or never."""
import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from transformer_core.checkpoints import seen
from transformer_core.checkpoints.load import load_checkpoint

ROOT = Path(__file__).resolve().parents[1]


def test_the_counts_equal_the_corpus(tmp_path):
    lines = ["I like apples.", "I like pears!", "(Apples) are red, apples are sweet."]
    path = seen.save(tmp_path / seen.WORDS, lines, "en")
    counts = seen.load(path)
    want = Counter()
    for line in lines:
        want.update(w.strip(".,!()").lower() for w in line.split())
    assert counts == dict(want) and counts["apples"] == 3
    assert json.loads(gzip.decompress(path.read_bytes()))["sentences"] == 3
    assert seen.unfamiliar(counts, "I like red bananas.") == [("i", 2), ("like", 2), ("red", 1), ("bananas", 0)]


def test_a_bad_or_inflating_counts_file_is_ignored(tmp_path):
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b'{"words": {"a": 1}, "x": "' + b" " * (20 << 20) + b'"}'))
    assert bomb.stat().st_size < seen.MAX_BYTES and seen.load(bomb) == {}
    (tmp_path / "bad.json.gz").write_bytes(gzip.compress(b'{"words": {"a": "many"}}'))
    assert seen.load(tmp_path / "bad.json.gz") == {} and seen.load(tmp_path / "none.json.gz") == {}


def test_the_bundled_models_ship_their_counts():
    for name in ("enko", "ende"):
        ckpt = load_checkpoint(ROOT / "checkpoints" / name)
        assert ckpt.words["apples"] > 50 and "necktie" not in ckpt.words        # a core word: seen often


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_home_page_names_the_words_the_model_never_saw(lang):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"], at.query_params["model"] = lang, "enko"
    at.run()
    at.text_input(key="tr_text").input("My father wears a necktie.").run()
    assert not at.exception
    strings = json.loads((ROOT / "assets" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    notes = [w.value for w in at.warning if w.value.startswith(strings["translate.seen.never"][:12])]
    assert notes and "necktie (0)" in notes[0]
