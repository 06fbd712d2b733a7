"""The bundled models on the sentences the app offers: each example translates to its reference, and the
lecture's sentences come out as the lectures write them.  The only test that decodes with a real model."""
import json
from pathlib import Path

import pytest

from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer.translate import translate

pytestmark = pytest.mark.usefixtures("one_thread")
CHECKPOINTS = Path(__file__).resolve().parents[1] / "checkpoints"
# the lecture's sentences they get right
LECTURE = {"enko": {"I like apples.": "나는 사과를 좋아한다.", "Where is the train station?": "기차역은 어디에 있어요?"},
           "ende": {"I like apples.": "Ich mag Äpfel.", "Where is the train station?": "Wo ist der Bahnhof?"}}


@pytest.mark.parametrize("name", ["enko", "ende"])
def test_every_example_the_app_offers_translates_correctly(name):
    ckpt = load_checkpoint(CHECKPOINTS / name)
    examples = json.loads((CHECKPOINTS / name / "examples.json").read_text(encoding="utf-8"))
    assert len(examples) >= 6
    # both of the app's modes: greedy (the page's default) and beam search
    wrong = [(e["src"], beam, translate(ckpt, e["src"], beam=beam).text, e["ref"]) for e in examples
             for beam in (1, None)]
    wrong = [w for w in wrong if w[2] != w[3]]
    assert not wrong, wrong
    refs = {e["src"]: e["ref"] for e in examples}
    for src, ref in LECTURE[name].items():
        assert refs.get(src) == ref, src                         # offered, with the lecture's translation
