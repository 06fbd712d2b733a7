"""The model card is README.md, as the Hugging Face Hub shows it: the bundled cards' metadata, parsed with
huggingface_hub offline, carries the languages, the licence, the data, the tags and a model-index whose
numbers are training.json's; a folder that still has the old MODEL_CARD.md shows its card too."""
import json
import pathlib
import shutil

import huggingface_hub.constants
import pytest
from huggingface_hub import ModelCard
from streamlit.testing.v1 import AppTest

from transformer_core.checkpoints import hub, prepare, upload
from transformer_core.checkpoints.files import CARD, OLD_CARD
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.model_card import KO_HEADING, TAGS, card_body, command_line, in_language, render_card

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUNDLED = ["ende", "enko"]


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """Nothing here may reach the Hub."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


def _expected_scores(training: dict) -> dict:
    """(set name, metric) -> score, straight from training.json: the test split, then each named evaluation."""
    folder = pathlib.Path(training["data"]["folder"]).name
    sets = [(f"{folder} test split", training["test"])] + [(e["name"], e) for e in training.get("evaluations", [])]
    return {(name, metric): record[metric] for name, record in sets for metric in ("chrf", "bleu")}


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_card_metadata_carries_the_measured_scores(name):
    folder = ROOT / "checkpoints" / name
    training = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    card = ModelCard.load(folder / CARD)                        # a local file: read, not downloaded
    meta = card.data
    cfg = training["config"]
    assert CARD == "README.md" and not (folder / OLD_CARD).exists()
    assert meta.language == [cfg["src_lang"], cfg["tgt_lang"]]
    assert meta.license == "other" and meta.license_name and meta.pipeline_tag == "translation"
    assert set(TAGS) <= set(meta.tags) and {"translation", "transformer", "education"} <= set(meta.tags)
    source = training["data"]["manifest"]["source"]
    assert meta.datasets == [source["name"]] + [m["source"]["name"] for m in source["mixed_with"]]
    scores = {(r.dataset_name, r.metric_type): r.metric_value for r in meta.eval_results}
    assert scores == _expected_scores(training) and len(scores) == 2 * (1 + len(training["evaluations"]))
    assert all(r.task_type == "translation" and r.metric_config for r in meta.eval_results)
    test_split = [r for r in meta.eval_results if r.dataset_split == "test" and r.dataset_name.endswith("test split")]
    assert {r.metric_type: r.metric_value for r in test_split} == {"chrf": training["test"]["chrf"],
                                                                   "bleu": training["test"]["bleu"]}
    assert ModelCard(card.content).data.to_dict() == meta.to_dict()            # the text parses the same way


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_card_is_the_commands_output_in_english_and_korean(name):
    folder = ROOT / "checkpoints" / name
    training = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    text = (folder / CARD).read_text(encoding="utf-8")
    assert text == render_card(training), "rerun: python -m transformer_core model_card checkpoints/" + name
    body = card_body(text)
    assert body.startswith("# en→") and "model-index" not in body
    english, korean = body.split(f"\n{KO_HEADING}\n")
    for part, heads in ((english, ["## Data", "## Test results", "## How it was made", "## Licence"]),
                        (korean, ["## 데이터", "## 평가 결과", "## 재현 방법", "## 라이선스"])):
        assert all(head in part for head in heads), heads
        assert "python -m transformer_core train" in part and f"--data {training['args']['data']}" in part
        assert training["data"]["manifest"]["command"] in part
        for (_, metric), value in _expected_scores(training).items():
            assert f"{value:.2f}" in part, (metric, value)
    for m in training["data"]["manifest"]["source"]["mixed_with"]:           # the data's licences, both languages
        assert m["source"]["licence"] in english.split("## Licence")[1] and m["source"]["licence"] in korean
    assert in_language(text, "ko").startswith(KO_HEADING) and in_language(text, "en").startswith("# en→")


@pytest.mark.parametrize("name", BUNDLED)
def test_the_cards_train_command_gives_back_the_recorded_arguments(name):
    import shlex

    from transformer_core.training.train import parse_args

    args = json.loads((ROOT / "checkpoints" / name / "training.json").read_text(encoding="utf-8"))["args"]
    words = shlex.split(command_line(args))
    assert words[:4] == ["python", "-m", "transformer_core", "train"] and vars(parse_args(words[4:])) == args
    flagged = {**args, "compile": True, "remap_vocab": True, "out": "runs/with space"}
    assert vars(parse_args(shlex.split(command_line(flagged, world_size=4))[5:])) == flagged     # after torchrun …
    assert command_line(args, world_size=4).startswith("torchrun --nproc_per_node=4 -m transformer_core train --data")


def _toy(tmp_path, toy_checkpoints, name="old-card"):
    folder = tmp_path / "models" / name
    shutil.copytree(toy_checkpoints / "toy-en", folder)
    return folder


def test_a_folder_with_only_the_old_card_name_still_has_its_card(tmp_path, toy_checkpoints):
    folder = _toy(tmp_path, toy_checkpoints)
    assert not (folder / CARD).exists()
    assert load_checkpoint(folder).card == "" and load_checkpoint(folder).card_file == CARD
    (folder / OLD_CARD).write_text("# An older card\n", encoding="utf-8")
    ckpt = load_checkpoint(folder)
    assert ckpt.card == "# An older card\n" and ckpt.card_file == OLD_CARD
    (folder / CARD).write_text("---\nlanguage: en\n---\n# The card\n", encoding="utf-8")
    ckpt = load_checkpoint(folder)                                           # README.md first
    assert ckpt.card.endswith("# The card\n") and ckpt.card_file == CARD
    for names in (hub.HUB_FILES, prepare.COPIED):                            # pushed, pulled, prepared: both names
        assert CARD in names and OLD_CARD in names and len(names) == len(set(names))
    assert upload._CANONICAL["readme.md"] == CARD and upload._CANONICAL["model_card.md"] == OLD_CARD
    copy = hub.save_pretrained(load_checkpoint(folder), tmp_path / "copy")
    assert (copy / CARD).is_file() and (copy / OLD_CARD).is_file()


def test_push_says_when_the_hub_would_show_no_card(tmp_path, toy_checkpoints, monkeypatch, capsys):
    folder = _toy(tmp_path, toy_checkpoints)
    (folder / OLD_CARD).write_text("# An older card\n", encoding="utf-8")
    pushed = []
    monkeypatch.setattr(hub, "offline_env", lambda: False)
    monkeypatch.setattr(hub, "push_to_hub", lambda f, repo, token=None, private=False: pushed.append(f) or "url")
    assert hub.main(["push", str(folder), "user/repo"]) == 0 and pushed == [folder]     # nothing reaches the Hub
    err = capsys.readouterr().err
    assert f"has no {CARD}" in err and OLD_CARD in err
    (folder / CARD).write_text("---\nlicense: other\n---\n# Card\n", encoding="utf-8")
    assert hub.main(["push", str(folder), "user/repo"]) == 0 and "note:" not in capsys.readouterr().err


def test_writing_a_card_replaces_the_old_file(tmp_path, toy_checkpoints):
    from transformer_core.checkpoints.folder import write_card

    folder = _toy(tmp_path, toy_checkpoints)
    (folder / OLD_CARD).write_text("# old\n", encoding="utf-8")
    write_card(folder, "# new\n")
    assert (folder / CARD).read_text(encoding="utf-8") == "# new\n" and not (folder / OLD_CARD).exists()


def test_card_body_and_language_parts():
    card = "---\nlanguage:\n- en\n---\n\n# Title\n\nEnglish.\n\n# 한국어\n\n한국어 설명.\n"
    assert card_body(card) == "# Title\n\nEnglish.\n\n# 한국어\n\n한국어 설명.\n"
    assert in_language(card, "en") == "# Title\n\nEnglish.\n\n---\n\n# 한국어\n\n한국어 설명.\n"
    assert in_language(card, "ko") == "# 한국어\n\n한국어 설명.\n\n---\n\n# Title\n\nEnglish.\n"
    assert in_language("# Marian\n\ntext\n", "ko") == "# Marian\n\ntext\n"     # no Korean part: as it is
    assert card_body("---\nno end") == "---\nno end" and card_body("# a\n---\nb\n---\n") == "# a\n---\nb\n---\n"
    assert card_body("---\n" + "\n" * 200_000) == "---\n" + "\n" * 200_000   # linear: no regex backtracking


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_models_page_shows_the_old_card_and_a_readme_without_its_metadata(lang, tmp_path, toy_checkpoints,
                                                                          monkeypatch):
    from pages.ui import model_state

    old = _toy(tmp_path, toy_checkpoints, "a-old")
    (old / OLD_CARD).write_text("# Card of the older folder\n", encoding="utf-8")
    new = _toy(tmp_path, toy_checkpoints, "b-new")
    (new / CARD).write_text("---\nlicense: other\nmodel-index: []\n---\n# English part\n\n# 한국어\n\n한국어 부분\n",
                            encoding="utf-8")
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", tmp_path / "models")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.switch_page("pages/models.py").run()
    assert not at.exception, at.exception
    shown = [m.value for m in at.markdown]
    assert any(f"({OLD_CARD})" in m for m in shown) and "# Card of the older folder" in [m.strip() for m in shown]
    at.selectbox(key="models_select").set_value("bundled:b-new").run()
    assert not at.exception, at.exception
    shown = [m.value for m in at.markdown]
    card = next(m for m in shown if "English part" in m)
    assert any(f"({CARD})" in m for m in shown) and "model-index" not in card and "license" not in card
    first = "# 한국어" if lang == "ko" else "# English part"
    assert card.startswith(first) and "한국어 부분" in card
