"""Which checkpoint a session is looking at.

Bundled checkpoints (folders under checkpoints/) load once per process with st.cache_resource and
are shared by every session.  Uploaded or Hub checkpoints are held in REGISTRY (transformer_core/
registry.py: bounded per session, and for the server by count and bytes, each session within a fair share);
a session keeps only their handles, under its own session id, so no other session can see them.
A model evicted to make room is named to its owner on its next run (evicted_notice()); a closed
session's models and files go a grace period after it disconnects (reap_closed_sessions()).

    active()                 the active Checkpoint, or None (with the reason shown to the user)
    choose_bundled(name)     make a bundled checkpoint active
    add_session_model(ckpt, label, on_drop) -> key   keep an uploaded checkpoint for this session, active
    forget(key)              drop one of this session's models
    model_choices()          [(key, label)] for a selectbox: bundled first, then this session's
    model_selector()         the choice in the sidebar, kept in the URL; page_model_selector(): on the page

The bundled folder is the repository's checkpoints/, or ATLAS_CHECKPOINTS_DIR when set (read once, at
import; the browser tests point a server at a folder of tiny checkpoints with it).  A school's prepared
models (python -m transformer_core hub pull … --to models/NAME --int8) are listed after them, from
models/ or ATLAS_MODELS_DIR, under readable names (folder_label).
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from transformer_core.checkpoints.files import Checkpoint, CheckpointError
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.serving.registry import ModelRegistry, checkpoint_bytes
from transformer_core.serving.share import ComputeShare

from . import upload_store
from .i18n import current_lang, language_name, t
from .widgets import escape_md

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS_DIR = Path(os.environ.get("ATLAS_CHECKPOINTS_DIR") or ROOT / "checkpoints")
MODELS_DIR = Path(os.environ.get("ATLAS_MODELS_DIR") or ROOT / "models")   # a school's prepared models (prepare.py)
ACTIVE_KEY, SESSION_MODELS_KEY = "active_model", "session_models"
BUNDLED, SESSION = "bundled:", "session:"
REGISTRY = ModelRegistry.from_env()
SHARE = ComputeShare.from_env()      # each session's share of the server's compute (sentence.charged)


def _folder_paths() -> dict[str, Path]:
    """name -> folder of every folder holding a config.json: checkpoints/ first, then the prepared models
    (a name both have is checkpoints/'s), each in name order."""
    paths: dict[str, Path] = {}
    for root in (CHECKPOINTS_DIR, MODELS_DIR):
        if root.is_dir():
            for p in sorted(root.iterdir()):
                if (p / "config.json").is_file():
                    paths.setdefault(p.name, p)
    return paths


def folder_path(name: str) -> Path:
    """Where the listed model `name` lies (checkpoints/ or the prepared models' folder)."""
    return _folder_paths().get(name) or CHECKPOINTS_DIR / name


_LOADS: dict[tuple[Path, float], CheckpointError | None] = {}  # (folder, its mtime) -> why it does not load, or None


def _load_error(name: str, folder: Path) -> CheckpointError | None:
    """None when the listed folder `name` loads, else why not, remembered until the folder changes (asking
    load_bundled's cache, as the model list does many times a run, took ~3 ms a page run: py-spy, page tests)."""
    stamp = (folder, folder.stat().st_mtime)
    if stamp not in _LOADS:
        try:
            load_bundled(name)
            _LOADS[stamp] = None
        except CheckpointError as err:
            _LOADS[stamp] = err.with_traceback(None)
    return _LOADS[stamp]


def bundled_names() -> list[str]:
    """The bundled checkpoints that load, in name order: a corrupt or half-written folder is left out."""
    return [key.removeprefix(BUNDLED) for key, _ in _bundled_choices(current_lang(), _listed())]


def broken_bundled() -> dict[str, CheckpointError]:
    """The folders of checkpoints/ that do not load -> why (the Models page lists them)."""
    return {name: error for name, folder in _folder_paths().items() if (error := _load_error(name, folder)) is not None}


@st.cache_resource(show_spinner=False, max_entries=8)
def load_bundled(name: str) -> Checkpoint:
    """One copy per process, shared by all sessions (read-only: nothing may modify it).

    Then gc.freeze(): the millions of objects alive by now (torch, plotly, Streamlit, the model) are
    left out of every later garbage collection, which otherwise walks them all during a page run that
    builds many small objects (figure JSON); it halves the server's CPU time per run
    (benchmarks/bench_app.py)."""
    ckpt = load_checkpoint(folder_path(name))
    gc.freeze()
    return ckpt


def owner() -> str:
    """This session's id: the owner of its models in REGISTRY."""
    return get_script_run_ctx().session_id


def session_models() -> dict[str, tuple[str, str]]:
    """This session's uploaded / Hub checkpoints still held: key -> (label, REGISTRY handle)."""
    models = st.session_state.setdefault(SESSION_MODELS_KEY, {})
    for key, (_, handle) in list(models.items()):
        if handle not in REGISTRY:                      # evicted to make room (listing is no use: get() would mark it)
            del models[key]
    return models


def folder_label(name: str) -> str:
    """A folder's name as users read it: a prepared model's languages, family and quantization ("English →
    Korean (OPUS-MT big, int8)"); a bundled model's languages from its config ("English → German"); the folder
    name (kept in the URL) only for a model that names no languages."""
    ckpt = load_bundled(name)
    info = ckpt.prepared
    if not info:
        src, tgt = ckpt.config.src_lang, ckpt.config.tgt_lang
        return t("model.bundled_label", src=language_name(src), tgt=language_name(tgt)) if src and tgt else name
    quantization = f", {info['quantization']}" if info.get("quantization") else ""
    return t("model.prepared_label", src=language_name(ckpt.config.src_lang), tgt=language_name(ckpt.config.tgt_lang),
             family=str(info.get("family", name))[:40], quantization=quantization)


def model_choices() -> list[tuple[str, str]]:
    return [*_bundled_choices(current_lang(), _listed()), *((key, label) for key, (label, _) in session_models().items())]


def _listed() -> tuple[tuple[str, Path, float], ...]:
    """(name, folder, its mtime) of every listed folder."""
    return tuple((name, folder, folder.stat().st_mtime) for name, folder in _folder_paths().items())


@functools.lru_cache(maxsize=8)
def _bundled_choices(lang: str, listed: tuple[tuple[str, Path, float], ...]) -> tuple[tuple[str, str], ...]:
    """(key, label) in `lang` of each listed folder (name, folder, its mtime) that loads, remembered until a folder
    or the language changes: the labels asked load_bundled's cache again, many times a page run."""
    names = [name for name, folder, _ in listed if _load_error(name, folder) is None]
    labels = [folder_label(name) for name in names]
    return tuple((BUNDLED + name, label if labels.count(label) == 1 else f"{label} ({name})")   # two of a pair: told apart
                 for name, label in zip(names, labels, strict=True))


def readable_name(folder: str) -> str:
    """A listed model's folder name as users read it (its label in model_choices), else the name itself."""
    return dict(model_choices()).get(BUNDLED + folder, folder)


def choose_bundled(name: str) -> None:
    st.session_state[ACTIVE_KEY] = BUNDLED + name


def add_session_model(ckpt: Checkpoint, label: str, on_drop: Callable[[], None] | None = None) -> str:
    """Keep ckpt for this session (REGISTRY may evict this session's least recently used models, then
    those of sessions past their fair share; registry.TooLarge if it can never fit, registry.NoRoom if it
    cannot fit fairly) and make it active; on_drop runs when it leaves."""
    handle = REGISTRY.add(owner(), label, ckpt, checkpoint_bytes(ckpt), on_drop)
    key = f"{SESSION}{handle[:8]}:{label}"
    session_models()[key] = (label, handle)
    st.session_state[ACTIVE_KEY] = key
    return key


def forget(key: str) -> None:
    """Drop one of this session's models (its on_drop runs)."""
    label_handle = st.session_state.get(SESSION_MODELS_KEY, {}).pop(key, None)
    if label_handle:
        REGISTRY.remove(label_handle[1])
    if st.session_state.get(ACTIVE_KEY) == key:
        st.session_state[ACTIVE_KEY] = None                 # the first bundled model (not the URL's upload)


def _session_checkpoint(key: str) -> Checkpoint | None:
    label_handle = session_models().get(key)
    return REGISTRY.get(label_handle[1]) if label_handle else None


def evicted_notice() -> None:
    """Name this session's models evicted to make room since its last run (each run of app.py)."""
    labels = REGISTRY.take_evicted(owner())
    if labels:
        st.warning(t("model.evicted", labels=escape_md(", ".join(labels))), icon=":material/delete_sweep:")


# ---------------------------------------------------------------- closed sessions

GRACE_S = float(os.environ.get("ATLAS_SESSION_GRACE_S") or 120)   # Streamlit keeps a session for reconnects as long
REAP_EVERY_S = 5.0
_SESSION_DIRS: dict[str, Path] = {}          # session id -> its upload temp dir (pages/models.py)
_gone_since: dict[str, float] = {}


def track_session_dir(path: Path) -> None:
    _SESSION_DIRS[owner()] = path


def reap_closed_sessions(is_active: Callable[[str], bool]) -> list[str]:
    """Drop the models and remove the upload dir of every session is_active() has denied for GRACE_S
    (a reconnect within it keeps them) -> the sessions reaped."""
    now, reaped = time.monotonic(), []
    for sid in REGISTRY.owners() | set(_SESSION_DIRS):
        if is_active(sid):
            _gone_since.pop(sid, None)
        elif now - _gone_since.setdefault(sid, now) >= GRACE_S:
            REGISTRY.drop_owner(sid)
            SHARE.forget(sid)
            upload_store.drop_session(sid)
            folder = _SESSION_DIRS.pop(sid, None)
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            del _gone_since[sid]
            reaped.append(sid)
    if reaped:
        gc.collect()                         # a model in a reference cycle would wait for the next page run
        _return_freed_memory()
    return reaped


M_MMAP_THRESHOLD, MMAP_THRESHOLD = -3, 128 * 1024     # mallopt's parameter (malloc.h); glibc's starting value


def _fix_mmap_threshold() -> None:
    """glibc gives a block of at least 128 KiB its own mmap, unmapped when freed, but raises that threshold to
    the size of each such block freed (up to 32 MiB): after a few uploads and traces, models' tensors and
    upload bytes come from the heap, and the holes they leave stay in the server's RSS.  A fixed threshold
    keeps large blocks out of the heap: under 40 students (benchmarks/bench_class.py) the heap's free
    bytes after 2 minutes went from 168 to 33 MB, and the peak RSS of 5 minutes, summed over the
    processes, from 1,292 to 1,249 MB (one run each)."""
    _glibc("mallopt", M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def _return_freed_memory() -> None:
    """glibc keeps the heap pages freed models leave (their tensors) for reuse, so the server's RSS would
    stay at its peak: malloc_trim hands them back (tests/test_server_load.py: +138 MB after 50 closed
    sessions without it, +29 MB with it)."""
    _glibc("malloc_trim", 0)


def _glibc(function: str, *args) -> None:
    """Call one of glibc's malloc functions; with another C library (none of them there): nothing to do."""
    with contextlib.suppress(OSError, AttributeError):
        getattr(ctypes.CDLL(None), function)(*args)


def _reap_forever() -> None:
    while True:
        time.sleep(REAP_EVERY_S)
        try:
            runtime = Runtime.instance()
        except RuntimeError:            # none yet, or gone (a test's AppTest run ends its runtime): nothing to reap
            continue
        upload_store.release_unloaded(is_active=runtime.is_active_session)   # picked, never loaded
        if not reap_closed_sessions(runtime.is_active_session):
            gc.collect()     # the page runs' cyclic garbage: Streamlit's collection after each run is
                             # off (runner.postScriptGC, a quarter of a busy server's CPU); every 5 s instead


@st.cache_resource(show_spinner=False)
def start_reaper() -> threading.Thread:
    """Once per server: a daemon thread reaping closed sessions, releasing uploads not loaded in time
    (upload_store.release_unloaded) and collecting garbage every REAP_EVERY_S; large blocks of memory kept
    out of the heap (_fix_mmap_threshold); the uploaded-file store's quotas."""
    _fix_mmap_threshold()
    if Runtime.exists():
        upload_store.install()
    thread = threading.Thread(target=_reap_forever, name="atlas-reaper", daemon=True)
    thread.start()
    return thread


def active_key() -> str | None:
    """The key of the active model: the session's choice if still valid, else the first bundled one."""
    keys = [key for key, _ in model_choices()]
    chosen = st.session_state.get(ACTIVE_KEY)
    return chosen if chosen in keys else (keys[0] if keys else None)


def checkpoint_for(key: str) -> Checkpoint | None:
    """The checkpoint behind a model_choices() key, or None when it cannot be loaded."""
    if key.startswith(SESSION):
        return _session_checkpoint(key)
    try:
        return load_bundled(key.removeprefix(BUNDLED))
    except CheckpointError:
        return None


def active(quiet: bool = False) -> Checkpoint | None:
    """The active checkpoint; on failure an i18n'd message is shown (unless quiet) and None returned."""
    key = active_key()
    if key is None:
        if not quiet:
            st.info(t("model.none_available"))
        return None
    if key.startswith(SESSION):
        return _session_checkpoint(key)
    try:
        return load_bundled(key.removeprefix(BUNDLED))
    except CheckpointError as err:
        if not quiet:
            st.error(t("model.load_failed", name=key.removeprefix(BUNDLED), error=str(err)))
        return None


MODEL_PARAM, SIDEBAR_KEY, PAGE_KEY = "model", "sidebar_model", "page_model"
UPLOAD_PARAM = "upload:"          # ?model=upload:LABEL: an uploaded model, which a refresh cannot bring back
GONE_KEY = "atlas_model_gone"


def _sync_url(key: str | None) -> None:
    """?model=NAME names the active bundled model, ?model=upload:LABEL an uploaded one (it dies with the
    session: a refresh then says so, model_selector)."""
    if key and key.startswith(BUNDLED):
        value = key.removeprefix(BUNDLED)
    elif key and key.startswith(SESSION):
        value = UPLOAD_PARAM + dict(model_choices()).get(key, "")[:60]
    else:
        value = None
    if value is None:
        if MODEL_PARAM in st.query_params:
            del st.query_params[MODEL_PARAM]
    elif st.query_params.get(MODEL_PARAM) != value:
        st.query_params[MODEL_PARAM] = value


def _on_choice(widget_key: str) -> None:
    st.session_state[ACTIVE_KEY] = st.session_state[widget_key]
    _sync_url(st.session_state[widget_key])


def _choice_box(where, widget_key: str, label_visibility: str = "visible") -> None:
    """A selectbox of the models in `where` (the sidebar or the page), showing and setting the one choice."""
    choices = dict(model_choices())
    if not choices:
        return
    if st.session_state.get(widget_key) != active_key():
        st.session_state[widget_key] = active_key()
    where.selectbox(t("model.choose"), list(choices), key=widget_key, on_change=_on_choice, args=(widget_key,),
                    label_visibility=label_visibility,
                    format_func=lambda k: choices.get(k, k) if k.startswith(BUNDLED)
                    else t("model.session_label", label=choices.get(k, k)))
    if any(k.startswith(SESSION) for k in choices):
        where.caption(t("model.session_note"))
    ckpt = checkpoint_for(active_key())
    scheme = ckpt and ckpt.prepared.get("quantization")
    if scheme and where is st.sidebar:               # once a page: the sidebar is on every one
        where.caption(t("model.quantized_note", scheme=scheme))


def model_selector() -> None:
    """The sidebar's model choice, on every page, kept in the URL (?model=enko) so a refresh or a shared
    link keeps it.  On a session's first run the URL decides."""
    if ACTIVE_KEY not in st.session_state:
        name = st.query_params.get(MODEL_PARAM)
        if name in bundled_names():
            st.session_state[ACTIVE_KEY] = BUNDLED + name
        elif name:                              # an upload of a closed session, or a name this server lacks
            st.session_state[GONE_KEY] = name
        st.session_state.setdefault(ACTIVE_KEY, None)
    _sync_url(active_key())
    _choice_box(st.sidebar, SIDEBAR_KEY)
    gone = st.session_state.pop(GONE_KEY, None)
    if gone:                                    # never a silent swap: say what the page shows instead
        now = dict(model_choices()).get(active_key() or "", "")
        message = "model.upload_gone" if gone.startswith(UPLOAD_PARAM) else "model.unknown"
        st.warning(t(message, label=escape_md(gone.removeprefix(UPLOAD_PARAM)), now=escape_md(now)),
                   icon=":material/sync_problem:")


def page_model_selector(label_visibility: str = "visible") -> None:
    """The same choice on the page itself, next to the sentence box."""
    _choice_box(st, PAGE_KEY, label_visibility)
