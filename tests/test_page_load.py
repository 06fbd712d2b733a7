"""Shared resources under AppTest: the server-wide registry of uploaded models (a session past its fair
share evicted for a newcomer, named to its owner in both languages, its files removed; a model that would
push out a session within its share refused, and one larger than the server's bound),
closed sessions reaped, and the compute pool's "server is busy" instead of a hang (full queue, time limit).

AppTest gives every session the same session id, so here each AppTest session owns its models under a
token of its own session state (the real server's session ids: tests/test_server_load.py).
"""
import os
import shutil
import threading
import time
import uuid

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from test_page_models import ROOT, active, errors, tr, upload, zip_of
from test_upload import tiny_disk  # noqa: F401 - a fixture: a 64 kB filesystem

from apppages import chart_spec, open_app
from pages.ui import model_state, sentence
from transformer_core.checkpoints.files import CARD
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.serving import runs
from transformer_core.serving.registry import ModelRegistry, checkpoint_bytes
from transformer_core.serving.workpool import Busy, WorkPool

pytestmark = pytest.mark.usefixtures("one_thread")


@pytest.fixture(autouse=True)
def env(tmp_path, monkeypatch, app_checkpoints):
    monkeypatch.setenv("ATLAS_UPLOAD_DIR", str(tmp_path / "uploads"))
    monkeypatch.setattr(model_state, "owner", lambda: st.session_state.setdefault("test_owner", uuid.uuid4().hex))
    return tmp_path


@pytest.fixture
def folder(tmp_path, toy_checkpoints):
    out = tmp_path / "class-model"
    shutil.copytree(toy_checkpoints / "toy-en", out)
    return out


def open_page(lang="en") -> AppTest:
    """The Models page through app.py (which names evicted models and catches Busy): app.py runs first."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/models.py").run()
    assert not at.exception, at.exception
    return at


def registry(monkeypatch, **bounds) -> ModelRegistry:
    reg = ModelRegistry(**bounds)
    monkeypatch.setattr(model_state, "REGISTRY", reg)
    return reg


def staged(env) -> int:
    return len(list((env / "uploads").glob("atlas-session-*/atlas-upload-*")))


def toy_bytes(folder) -> int:
    """What the registry counts for the toy model in folder."""
    return checkpoint_bytes(load_checkpoint(folder))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_session_past_its_share_is_evicted_for_a_newcomer_and_told(lang, folder, env, monkeypatch):
    reg = registry(monkeypatch, per_owner=3, max_models=24, max_bytes=toy_bytes(folder) * 3 // 2)
    first = upload(open_page(lang), [("first-model.zip", zip_of(folder, prefix="first-model/"))])
    assert active(first).endswith("first-model")                # alone: the whole server is its share
    other = open_page(lang)
    upload(other, [("b.zip", zip_of(folder, prefix="b/"))])    # two sessions: first's model is past its half
    assert reg.usage()[0] == 1 and staged(env) == 1             # its files went with it
    first.run()
    notice = [w.value for w in first.warning]
    assert notice == [tr("model.evicted", lang, labels="first\\-model")], notice
    assert active(first).startswith("bundled:")
    assert not [o for o in first.selectbox(key="models_select").options if "first-model" in o]
    first.run()
    assert not first.warning                                    # said once
    assert [w.value for w in other.run().warning] == []         # the other session lost nothing
    assert active(other).endswith("b")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_model_that_would_push_out_a_session_within_its_share_is_refused(lang, folder, env, monkeypatch):
    size = toy_bytes(folder)
    reg = registry(monkeypatch, per_owner=3, max_models=24, max_bytes=size * 21 // 10)
    first = upload(open_page(lang), [("first-model.zip", zip_of(folder, prefix="first-model/"))])
    (folder / CARD).write_text("x" * (size // 2))              # half as large again: past the other half
    other = upload(open_page(lang), [("big.zip", zip_of(folder, prefix="big/"))])
    head = tr("models.err.no_room", lang, size_mb="§", share_mb="§", sessions=2).split("§")[0]
    assert errors(other)[0].startswith(head), errors(other)
    assert active(other).startswith("bundled:") and staged(env) == 1
    assert reg.usage()[0] == 1 and active(first.run()).endswith("first-model") and not first.warning


def test_a_model_larger_than_the_server_bound_is_refused_and_its_files_removed(folder, env, monkeypatch):
    registry(monkeypatch, max_bytes=1000)                       # the toy model has ~100 kB of parameters
    at = upload(open_page(), [("class-model.zip", zip_of(folder))])
    assert errors(at)[0].startswith(tr("models.err.server_full", size_mb="§", limit_mb="§").split("§")[0])
    assert active(at).startswith("bundled:") and staged(env) == 0


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_full_disk_while_staging_is_a_clear_error_in_the_interface_language(lang, folder, tiny_disk, monkeypatch):  # noqa: F811 the fixture imported above
    monkeypatch.setenv("ATLAS_UPLOAD_DIR", str(tiny_disk))
    at = open_page(lang)
    at.selectbox(key="models_select").set_value("bundled:toy-ko").run()
    upload(at, [("class-model.zip", zip_of(folder))])
    assert errors(at)[0].startswith(tr("models.err.disk_full", lang)), errors(at)
    assert tr("models.err.kept", lang, label=f'{tr("srclang.en", lang)} → {tr("srclang.ko", lang)}') in errors(at)[0]
    assert active(at) == "bundled:toy-ko"
    assert not list(tiny_disk.glob("atlas-session-*/atlas-upload-*"))       # nothing half-written is left


def test_a_closed_session_is_reaped_after_the_grace_period(folder, env, monkeypatch):
    reg = registry(monkeypatch)
    monkeypatch.setattr(model_state, "GRACE_S", 0.0)
    at = upload(open_page(), [("class-model.zip", zip_of(folder))])
    sid = at.session_state["test_owner"]
    assert reg.owners() == {sid} and staged(env) == 1
    assert model_state.reap_closed_sessions(lambda s: True) == []
    assert model_state.reap_closed_sessions(lambda s: s != sid) == [sid]
    assert reg.usage() == (0, 0) and not list((env / "uploads").glob("atlas-session-*"))


def test_a_session_that_reconnects_within_the_grace_period_keeps_its_models(folder, env, monkeypatch):
    reg = registry(monkeypatch)
    monkeypatch.setattr(model_state, "GRACE_S", 3600.0)
    at = upload(open_page(), [("class-model.zip", zip_of(folder))])
    assert model_state.reap_closed_sessions(lambda s: False) == []          # gone for a moment
    assert model_state.reap_closed_sessions(lambda s: True) == []           # back
    assert reg.usage()[0] == 1 and active(at.run()).endswith("class-model")


@pytest.mark.parametrize("lang, processes", [("ko", False), ("en", False), ("ko", True)])
def test_a_busy_pool_shows_the_busy_message_and_the_page_recovers(lang, processes, monkeypatch):
    pool = WorkPool(workers=1, queue=0, timeout_s=30, processes=processes)
    monkeypatch.setattr(sentence, "PROCESSES", pool if processes else None)    # bundled models' runs
    if not processes:
        monkeypatch.setattr(sentence, "POOL", pool)
    gate = threading.Event()
    hold = (time.sleep, 3) if processes else (gate.wait,)                   # another session's long input
    hog = threading.Thread(target=pool.run, args=hold)
    hog.start()
    try:
        at = open_app(lang, tr_text=f"the cat sees the car {lang} {uuid.uuid4().hex[:6]}.")
        assert not at.exception, at.exception
        assert tr("app.busy", lang) in [w.value for w in at.warning]     # queue full: said at once
    finally:
        gate.set()
        hog.join()
    deadline = time.monotonic() + 10             # the hog's place is given back as its run ends
    while not at.run().exception and tr("app.busy", lang) in [w.value for w in at.warning]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert not at.exception and tr("app.busy", lang) not in [w.value for w in at.warning]
    assert [m.value for m in at.markdown if m.value.startswith(("### ", "~~"))]   # the output is drawn (struck
    # through: the random tag leaves the toy model too many unknown pieces to read it)


def test_a_class_typing_the_same_sentence_computes_its_gradients_once(monkeypatch):
    """A teacher says "type this sentence" and 40 students open the gradients tab: integrated gradients of a
    bundled model are shared by every session (they were each session's own: 40 runs of 1-2 s on two cores)."""
    calls, real = [], runs.RUNS["attribution"]
    monkeypatch.setitem(runs.RUNS, "attribution", lambda *args: calls.append(args) or real(*args))
    text, drawn = f"the cat sees the car {uuid.uuid4().hex[:6]}.", []
    for lang in ("ko", "en"):                                          # two sessions, each with its own state
        at = open_app(lang, atlas_sentence=text, tr_kind=tr("translate.attr.tab", lang))
        assert not at.exception and tr("app.busy", lang) not in [w.value for w in at.warning]
        drawn.append(chart_spec(at, "tr_attr_fig")["data"][0]["z"])   # the scores each session's chart draws
    assert len(calls) == 1 and drawn[0] == drawn[1]


def test_a_trace_never_waits_behind_integrated_gradients(monkeypatch):
    """`bench_class.py --attacker`, 2026-11-29: with attribution runs on POOL's threads, 40 students' Architecture
    page waited 2.6 s (median) for its trace behind integrated gradients; they now have threads of their own, at a
    lower priority than the server's other threads."""
    assert sentence.GRADIENTS.run(os.nice, 0) == min(19, os.nice(0) + sentence.BELOW_CLASS)
    gradients = WorkPool(workers=1, queue=0, timeout_s=30)
    monkeypatch.setattr(sentence, "GRADIENTS", gradients)
    gate = threading.Event()
    hog = threading.Thread(target=gradients.run, args=(gate.wait,))       # another student's integrated gradients
    hog.start()
    try:
        text = f"the cat sees the car {uuid.uuid4().hex[:6]}."
        at = open_app("en", "pages/diagram.py", atlas_sentence=text)      # its full trace: on POOL
        assert not at.exception, at.exception
        assert tr("app.busy") not in [w.value for w in at.warning]
        at = open_app("en", atlas_sentence=text, tr_kind=tr("translate.attr.tab"))   # attribution: on GRADIENTS
        assert not at.exception and tr("app.busy") in [w.value for w in at.warning]
    finally:
        gate.set()
        hog.join()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_model_whose_files_go_while_its_run_waits_answers_busy(lang, folder, env, monkeypatch):
    """Found by `bench_class.py --attacker`: the attacker's model, evicted while its run waited for the sessions'
    worker, was half removed when the worker loaded it (a CheckpointError, the page's error box); now the page
    says the server is busy (app.py names an evicted model on the next run)."""
    monkeypatch.setattr(sentence, "OWN", WorkPool(1, 1, 120, processes=True, initializer=runs.worker, initargs=(1, 0)))
    at = upload(open_page(lang), [("class-model.zip", zip_of(folder))])
    [weights] = (env / "uploads").rglob("model.safetensors")           # the session's copy, loaded
    weights.unlink()                                                    # its folder being removed, the worker yet to read it
    at.session_state["tr_kind"] = tr("translate.attr.tab", lang)        # integrated gradients: on OWN (a translation
    at.switch_page("pages/translate.py").run()                          # is quick: on a thread, from memory)
    assert not at.exception, at.exception
    assert tr("app.busy", lang) in [w.value for w in at.warning]


def test_the_time_limit_answers_busy_while_the_worker_is_taken(monkeypatch):
    pool = WorkPool(workers=1, queue=1, timeout_s=0.3)
    monkeypatch.setattr(sentence, "PROCESSES", None)
    monkeypatch.setattr(sentence, "POOL", pool)
    gate = threading.Event()
    hog = threading.Thread(target=lambda: pytest.raises(Busy, pool.run, gate.wait))
    hog.start()
    try:
        at = open_app("en", tr_text=f"the dog likes the book {uuid.uuid4().hex[:6]}.")
        assert not at.exception and tr("app.busy", "en") in [w.value for w in at.warning]
    finally:
        gate.set()
        hog.join()


def test_a_quick_run_of_a_light_model_is_one_a_bundled_model_could_make(monkeypatch):
    """sentence.quick: a translation, its steps or a what-if within QUICK_S and QUICK_BYTES on its sentence (cost.py,
    as if the model never stopped), of a model within QUICK_MODEL_BYTES; never sampling or attribution; a crafted
    deep model's long sentence is not."""
    import copy

    from transformer_core.model.config import ModelConfig

    ckpt = load_checkpoint(ROOT / "checkpoints" / "ende")
    text = "Maria, the children are playing in the park on Monday."
    assert [sentence.quick(kind, ckpt, text, 4, ()) for kind in ("translation", "steps", "samples", "attribution")] == [
        True, True, False, False]
    assert sentence.quick("greedy_steps", ckpt, text, (5, 6))                  # (text, prefix): one greedy decoding
    crafted = copy.copy(ckpt)
    crafted.config = ModelConfig(vocab_size=ckpt.config.vocab_size, d_model=512, n_heads=16, n_encoder_layers=12,
                                 n_decoder_layers=12, d_ff=1024, max_len=40)    # bench_class.py's CRAFTED
    assert not sentence.quick("translation", crafted, text, 4, ()) and not sentence.quick("translation", crafted, text, 1, ())
    assert sentence.quick("translation", crafted, "I.", 1, ())               # 3 pieces, greedy: ~0.4 s at most
    monkeypatch.setattr(sentence, "QUICK_MODEL_BYTES", checkpoint_bytes(ckpt) - 1)
    assert not sentence.quick("translation", ckpt, text, 4, ())               # a larger model than the bundled ones


def test_a_students_own_model_translates_while_a_crafted_models_run_holds_the_own_worker(folder, monkeypatch):
    """`bench_class.py --attacker`, 2026-11-29: 11 of the class's 18 slowest sentences were the students' who had
    uploaded a model, waiting 1-5 s behind the attacker's runs on the sessions' models' worker (OWN). A quick run
    now has a worker of its own (OWN_QUICK); a long one (integrated gradients) still waits for OWN."""
    own = WorkPool(workers=1, queue=0, timeout_s=30)
    monkeypatch.setattr(sentence, "OWN", own)
    monkeypatch.setattr(sentence, "OWN_QUICK", WorkPool(workers=1, queue=1, timeout_s=60, processes=True,
                                                        initializer=runs.worker, initargs=(1,)))
    gate = threading.Event()
    hog = threading.Thread(target=own.run, args=(gate.wait,))           # the attacker's 10 s run
    hog.start()
    try:
        at = upload(open_page(), [("class-model.zip", zip_of(folder))])
        assert active(at).endswith("class-model")
        at.session_state["atlas_sentence"] = f"the cat sees the car {uuid.uuid4().hex[:6]}."
        at.switch_page("pages/translate.py").run()
        assert not at.exception and tr("app.busy") not in [w.value for w in at.warning]
        assert at.get_by_key("translation") is not None
        at.session_state["tr_kind"] = tr("translate.attr.tab")
        at.run()
        assert not at.exception and tr("app.busy") in [w.value for w in at.warning]
    finally:
        gate.set()
        hog.join()
