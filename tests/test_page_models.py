"""The Models page under AppTest: choosing, uploading (good and hostile), Hugging Face from a local cache,
session privacy, the config table and the model card, in Korean and English.

The bundled checkpoints are the toy ones (app_checkpoints); uploads are staged under a tmp dir
(ATLAS_UPLOAD_DIR); Hugging Face is offline with a cache built by hand.
"""
import io
import pathlib
import pickle
import shutil
import zipfile

import huggingface_hub.constants
import pytest
import torch
from safetensors.torch import load_file, save_file
from streamlit.testing.v1 import AppTest

from pages.ui.i18n import strings, translate
from transformer_core.checkpoints.files import CARD, TOKENIZER, WEIGHTS
from transformer_core.checkpoints.load import load_checkpoint

pytestmark = pytest.mark.usefixtures("one_thread")

ROOT = pathlib.Path(__file__).resolve().parents[1]
COMMIT = "00112233445566778899aabbccddeeff00112233"
CARD_TEXT = ("# Uploaded toy\n\nA **tiny** model.\n\n<script>alert('x')</script><b>bold?</b>\n\n"
             "![tracker](http://example.invalid/pixel.png)\n")


@pytest.fixture(autouse=True)
def env(tmp_path, monkeypatch, app_checkpoints):
    monkeypatch.setenv("ATLAS_UPLOAD_DIR", str(tmp_path / "uploads"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    return tmp_path


@pytest.fixture
def folder(tmp_path, toy_checkpoints):
    out = tmp_path / "class-model"
    shutil.copytree(toy_checkpoints / "toy-en", out)
    (out / CARD).write_text(CARD_TEXT, encoding="utf-8")
    return out


def zip_of(folder, prefix="class-model/", extra=(), skip=()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(folder.iterdir()):
            if p.name not in skip:
                zf.writestr(prefix + p.name, p.read_bytes())
        for name, data in extra:
            zf.writestr(name, data)
    return buf.getvalue()


def open_page(lang="en") -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang                               # as a shared link would (?lang=en)
    at.switch_page("pages/models.py").run()                     # straight to the Models page
    assert not at.exception, at.exception
    return at


def upload(at, files) -> AppTest:
    at.file_uploader[0].set_value([(name, data, "application/octet-stream") for name, data in files]).run()
    at.button(key="models_upload_go").click().run()
    assert not at.exception, at.exception
    return at


def active(at) -> str:
    """The model key the page resolved as active in its last run (model_state.active_key())."""
    return at.selectbox(key="models_select").value


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def tr(key, lang="en", **fmt) -> str:
    return translate(lang, key, **fmt)


# --- the page in both languages ------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["ko", "en"])
def test_page_runs_in_both_languages(lang, app_checkpoints):
    at = open_page(lang)
    assert at.title[0].value == tr("models.title", lang)
    assert at.selectbox(key="models_select").label == tr("models.choose.label", lang)
    en, de, ko = (tr(f"srclang.{c}", lang) for c in ("en", "de", "ko"))        # named by their languages
    assert at.selectbox(key="models_select").options == [f"■ {en} → {de}", f"■ {en} → {ko}"]
    config = at.table[0].value
    values = dict(zip(config.index, config.iloc[:, 0], strict=True))
    assert values["d_model"] == "32" and values["d_k"] == "16 = 32 / 2" and values["n_heads"] == "h = 2"
    n = sum(p.numel() for p in load_checkpoint(app_checkpoints / "toy-en").model.parameters())
    assert values["parameters"] == f"{n:,} ({n / 1e6:.2f} M)"
    assert tr("models.card.none", lang, file=CARD) in [c.value for c in at.caption]
    assert {k for k in strings("en") if k.startswith("models.")} == {k for k in strings(lang) if k.startswith("models.")}


def test_page_without_any_model(tmp_path, monkeypatch):
    from pages.ui import model_state
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", tmp_path / "empty")
    at = open_page("ko")
    assert tr("models.none", "ko") in [i.value for i in at.info]
    assert not at.table


def test_choosing_a_bundled_model_is_per_session():
    at = open_page()
    at.selectbox(key="models_select").set_value("bundled:toy-ko").run()
    assert active(at) == "bundled:toy-ko"
    assert "ko" in at.table[0].value.loc["langs"].iloc[0]          # en → ko
    other = open_page()
    assert active(other) != "bundled:toy-ko"


# --- uploads -----------------------------------------------------------------------------------------

def test_valid_zip_becomes_active_in_this_session_only(folder, env):
    at = upload(open_page(), [("class-model.zip", zip_of(folder))])
    key = active(at)
    assert key is not None and key.startswith("session:") and key.endswith("class-model")
    assert at.success[0].value.startswith(tr("models.loaded", label="class\\-model")[:20])
    assert at.subheader[-1].value == tr("models.details.header", label="class\\-model")
    assert at.selectbox(key="models_select").value == key
    # the card: rendered without HTML, its image turned into a plain link
    card = [m for m in at.markdown if "Uploaded toy" in m.value]
    assert len(card) == 1 and not card[0].proto.allow_html
    assert ":material/image: [tracker](http://example.invalid/pixel.png)" in card[0].value and "![" not in card[0].value
    # staged under this session's own dir
    staged = list((env / "uploads").glob("atlas-session-*/atlas-upload-*"))
    assert len(staged) == 1 and (staged[0] / WEIGHTS).is_file()
    # a second session sees only the bundled models
    other = open_page()
    assert [o for o in other.selectbox(key="models_select").options if "class-model" in o] == []
    assert active(other).startswith("bundled:")
    # the uploader was emptied for the next upload
    assert at.file_uploader[0].value in (None, [])


def test_individual_files_upload(folder):
    files = [(p.name, p.read_bytes()) for p in folder.iterdir()] + [("NOTES.md", b"# not ours")]   # an unknown name
    at = upload(open_page(), files)
    assert active(at).startswith("session:")
    warning = at.warning[0].value
    assert warning.startswith(tr("models.loaded", label="upload")[:10]) and "NOTES" in warning


class Payload:
    def __init__(self, marker):
        self.marker = pathlib.Path(marker)

    def __reduce__(self):
        return pathlib.Path.touch, (self.marker,)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_malicious_pickles_are_refused_and_the_model_stays(folder, tmp_path, lang):
    marker = tmp_path / "pwned"
    buf = io.BytesIO()
    torch.save({"w": Payload(marker)}, buf)
    at = open_page(lang)
    at.selectbox(key="models_select").set_value("bundled:toy-ko").run()
    # a pickle named model.safetensors
    upload(at, [("m.zip", zip_of(folder, skip=(WEIGHTS,), extra=[("class-model/" + WEIGHTS, buf.getvalue())]))])
    assert active(at) == "bundled:toy-ko"
    assert errors(at)[0].startswith(tr("models.err.pickle_weights", lang))
    assert tr("models.err.kept", lang, label=f'{tr("srclang.en", lang)} → {tr("srclang.ko", lang)}') in errors(at)[0]
    # model.pt / pytorch_model.bin in a zip
    for name in ("model.pt", "pytorch_model.bin"):
        upload(at, [("m.zip", zip_of(folder, skip=(WEIGHTS,), extra=[("class-model/" + name, buf.getvalue())]))])
        assert errors(at)[0].startswith(tr("models.err.pickle", lang, name=name.replace("_", "\\_").replace(".", "\\.")))
        assert active(at) == "bundled:toy-ko"
    # a raw pickle as a single file
    upload(at, [("config.json", (folder / "config.json").read_bytes()), (TOKENIZER, (folder / TOKENIZER).read_bytes()),
                (WEIGHTS, pickle.dumps(Payload(marker), protocol=4))])
    assert errors(at)[0].startswith(tr("models.err.pickle_weights", lang))
    assert not marker.exists()
    assert at.table[0].value.loc["langs"].iloc[0].endswith("ko")  # the page still shows toy-ko


def test_wrong_shapes_and_zip_slip_through_the_page(folder, env):
    at = open_page()
    good = upload(at, [("class-model.zip", zip_of(folder))])
    first = active(good)
    state = load_file(str(folder / WEIGHTS))
    state["decoder.0.ffn.linear1.weight"] = torch.zeros(3, 3)
    save_file(state, str(folder / WEIGHTS))
    upload(at, [("bad.zip", zip_of(folder))])
    assert errors(at)[0].startswith(tr("models.ckpt.weights_mismatch"))
    assert "decoder.0.ffn.linear1.weight" in errors(at)[0]
    assert active(at) == first
    before = sorted(p for p in env.rglob("*") if p.is_file())
    upload(at, [("slip.zip", zip_of(folder, extra=[("../../escaped.txt", b"x"), ("/abs.txt", b"y")]))])
    assert errors(at)[0].startswith(tr("models.err.unsafe_member", name="slip\\.zip", member="")[:30])
    assert sorted(p for p in env.rglob("*") if p.is_file()) == before
    assert active(at) == first


def test_oversized_upload_is_refused(folder, monkeypatch):
    monkeypatch.setenv("ATLAS_UPLOAD_MAX_MB", "0.05")
    at = open_page()
    upload(at, [("class-model.zip", zip_of(folder))])
    assert errors(at)[0].startswith(tr("models.err.total_too_large", limit_mb="0\\.05"))
    assert active(at).startswith("bundled:")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_page_says_why_the_store_refused_or_released_a_file(lang, monkeypatch):
    """The uploader itself shows only 'status code 413' (in English) for a file the store refused: the page
    says, in the interface language, that this session's quota is full, and that files not loaded within
    3 minutes were released (and starts a fresh uploader); its caption gives the session's quota."""
    from starlette.exceptions import HTTPException
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.uploaded_file_manager import UploadedFileRec

    from pages.ui import upload_store
    from pages.ui.widgets import escape_md

    monkeypatch.setattr(upload_store, "_arrived", {})
    monkeypatch.setattr(upload_store, "_notices", {})
    monkeypatch.setenv("ATLAS_UPLOAD_SESSION_MB", "1")
    clock = [0.0]
    manager = MemoryUploadedFileManager("/upload")           # the server's store, as the reaper sees it
    upload_store.install(manager, clock=lambda: clock[0])
    session = "test session id"                               # AppTest's session
    with pytest.raises(HTTPException):
        manager.add_file(session, UploadedFileRec("f0", "big.zip", "application/zip", b"x" * (2 << 20)))
    manager.add_file(session, UploadedFileRec("f1", "model.zip", "application/zip", b"x" * 1000))
    clock[0] += 181
    assert upload_store.release_unloaded(manager) == [(session, "model.zip")]
    at = open_page(lang)
    assert errors(at) == [tr("models.upload.session_full", lang, name=escape_md("big.zip"), size_mb="2", quota_mb="1",
                             held_mb="0", minutes="3")]
    assert [w.value for w in at.warning] == [tr("models.upload.expired", lang, minutes="3", names=escape_md("model.zip"))]
    assert at.session_state["models_uploader_n"] == 1        # a fresh, empty uploader
    store = tr("models.upload.store", lang, held_mb="0", quota_mb="1", minutes="3")
    assert any(store in c.value for c in at.caption)
    at.run()                                                  # said once
    assert not errors(at) and not at.warning


def test_forget_and_the_session_limit(folder, env):
    at = open_page()
    for _ in range(4):
        upload(at, [("class-model.zip", zip_of(folder))])
    options = at.selectbox(key="models_select").options
    assert len([o for o in options if "class-model" in o]) == 3                  # the oldest was dropped
    assert len(list((env / "uploads").glob("atlas-session-*/atlas-upload-*"))) == 3
    assert active(at).endswith("class-model (4)")
    at.button(key="models_forget").click().run()
    assert active(at).startswith("bundled:")
    assert len(list((env / "uploads").glob("atlas-session-*/atlas-upload-*"))) == 2


# --- Hugging Face, from a local cache --------------------------------------------------------------

def hf_cache(root, folder, repo="user/repo"):
    repo_dir = root / "hf" / ("models--" + repo.replace("/", "--"))
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text(COMMIT)
    shutil.copytree(folder, repo_dir / "snapshots" / COMMIT)
    return root / "hf"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_hub_from_local_cache(folder, tmp_path, monkeypatch, lang):
    monkeypatch.setenv("HF_HUB_CACHE", str(hf_cache(tmp_path, folder)))
    at = open_page(lang)
    assert at.toggle(key="models_hub_offline").value is True
    at.text_input(key="models_hub_repo").input("user/missing")
    at.button(key="models_hub_go").click().run()
    assert errors(at)[0].startswith(tr("models.ckpt.hf_not_cached", lang))
    assert active(at).startswith("bundled:")
    at.text_input(key="models_hub_repo").input("user/repo")
    at.button(key="models_hub_go").click().run()
    assert not at.exception and not errors(at)
    assert active(at).startswith("session:") and active(at).endswith("user/repo")
    assert ":material/cloud_download: " + tr("models.source.hub", lang, repo="user/repo") in [c.value for c in at.caption]
    assert any("Uploaded toy" in m.value for m in at.markdown)
    other = open_page(lang)
    assert not [o for o in other.selectbox(key="models_select").options if "user/repo" in o]


def test_hub_needs_a_repo_id():
    at = open_page()
    at.button(key="models_hub_go").click().run()
    assert errors(at) == [tr("models.hub.need_repo")]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_model_choice_is_in_the_sidebar_beside_the_input_and_in_the_url(lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.query_params["model"] = "toy-ko"                          # a refresh, or a shared link
    at.run()
    assert not at.exception, at.exception
    choice = at.sidebar.selectbox(key="sidebar_model")
    assert choice.label == tr("model.choose", lang) and choice.value == "bundled:toy-ko"
    choice.set_value("bundled:toy-en").run()
    assert at.query_params["model"] in ("toy-en", ["toy-en"])
    at.switch_page("pages/models.py").run()
    assert active(at) == "bundled:toy-en"                          # one choice, every page

    at.switch_page("pages/translate.py").run()                    # the home page: the choice next to the input
    beside = at.selectbox(key="page_model")
    assert beside.label == tr("model.choose", lang) and beside.value == "bundled:toy-en"
    beside.set_value("bundled:toy-ko").run()
    assert not at.exception and at.sidebar.selectbox(key="sidebar_model").value == "bundled:toy-ko"
    assert at.query_params["model"] in ("toy-ko", ["toy-ko"])
    assert at.text_input(key="tr_text").label == tr("sentence.input", lang, src=tr("srclang.en", lang), tgt=tr("srclang.ko", lang))

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["model"] = "no-such-model"                   # an unknown name: the first bundled model
    at.run()
    assert not at.exception and at.sidebar.selectbox(key="sidebar_model").value == "bundled:toy-en"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_corrupt_bundled_folder_is_listed_with_its_error_and_the_others_load(lang, tmp_path, toy_checkpoints,
                                                                                monkeypatch):
    from pages.ui import model_state

    root = tmp_path / "checkpoints"
    shutil.copytree(toy_checkpoints / "toy-en", root / "toy-en")
    half = root / "aaa-half-written"                              # first in name order: it would be the default
    shutil.copytree(toy_checkpoints / "toy-en", half)
    (half / WEIGHTS).write_bytes((half / WEIGHTS).read_bytes()[:1000])
    (root / "aab-no-weights").mkdir()
    (root / "aab-no-weights" / "config.json").write_text("{", encoding="utf-8")
    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    assert at.sidebar.selectbox(key="sidebar_model").options == [f'{tr("srclang.en", lang)} → {tr("srclang.de", lang)}']
    at.switch_page("pages/models.py").run()
    warnings = [w.value for w in at.warning]
    for name in ("aaa-half-written", "aab-no-weights"):
        shown = [w for w in warnings if name.replace("-", "\\-") in w]
        assert len(shown) == 1, warnings
        assert shown[0].startswith(tr("models.broken", lang, name="§", error="").split("§")[0])   # its language
    assert any("safetensors" in w for w in warnings)
    assert active(at) == "bundled:toy-en"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_refresh_after_an_upload_says_the_upload_is_gone(lang):
    """?model=upload:LABEL (what the URL says while an upload is active) in a new session: the page names
    the upload as gone and the bundled model it shows instead, and the URL follows that model."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.query_params["model"] = "upload:my-model"
    at.run()                                                     # the home page, as a refreshed bookmark
    assert not at.exception
    shown = at.query_params["model"]
    from pages.ui.widgets import escape_md

    pair = {"ende": "de", "enko": "ko", "toy-en": "de", "toy-ko": "ko"}[shown if isinstance(shown, str) else shown[-1]]
    readable = f'{tr("srclang.en", lang)} → {tr(f"srclang.{pair}", lang)}'      # named by its languages
    assert [w.value for w in at.warning if "my\\-model" in w.value] == [
        tr("model.upload_gone", lang, label="my\\-model", now=escape_md(readable))]
    at.run()                                                     # said once, not on every run
    assert not any("my\\-model" in w.value for w in at.warning)


def test_a_model_card_list_prints_no_html():
    """A list in a card's data table is written with commas: the page renders no HTML, so <br> showed."""
    import json

    from transformer_core.checkpoints.model_card import render_card

    card = render_card(json.loads((ROOT / "checkpoints" / "enko" / "training.json").read_text(encoding="utf-8")))
    assert "| held_out_words | adj:bitter, adj:heavy," in card and "<br>" not in card
    # the Tatoeba it mixed in was rewritten in the lectures' register: the card says so beside its licence
    assert "| data/tatoeba-enko | 5,566 | 300 | tatoeba (CC-BY-2.0-FR (Tatoeba contributors, tatoeba.org; exported by " \
           "manythings.org/anki); register lecture: casual endings in 한다체" in card
