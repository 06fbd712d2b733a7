"""Models: pick the checkpoint every page of this session uses, upload one, or load one from the
Hugging Face Hub; see its settings, parameter count and model card.

Bundled checkpoints (checkpoints/) are shared by the whole server; uploaded and Hub checkpoints belong
to this session, held in the server's bounded registry (pages/ui/model_state.py: ATLAS_MODELS_PER_SESSION,
ATLAS_MODELS_MAX, ATLAS_MODELS_MAX_MB); its uploaded files go with the model.  Uploads are untrusted:
every check (no pickles, size caps, zip bombs, paths from archives, model size, a full disk) is in
transformer_core/checkpoints/upload.py; this page only hands it the files, a per-session temp dir and the limits,
and turns its errors into messages.
A failed load changes nothing: the active model stays active.

Limits: ATLAS_UPLOAD_MAX_MB (all files, default 200), ATLAS_UPLOAD_MAX_FILE_MB (each file; Streamlit's
server.maxUploadSize also caps each file), ATLAS_UPLOAD_DIR (where session temp dirs go).
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.runtime import Runtime

from pages.ui import model_state, theme, upload_store
from pages.ui.i18n import current_lang, t
from pages.ui.widgets import escape_md, page_header
from transformer_core.checkpoints.files import Checkpoint, CheckpointError
from transformer_core.checkpoints.hub import cache_dir_env, from_pretrained, offline_env
from transformer_core.checkpoints.marian import UnsupportedModel
from transformer_core.checkpoints.model_card import in_language
from transformer_core.checkpoints.upload import (
    MB,
    UploadError,
    UploadLimits,
    checkpoint_error_kind,
    load_upload,
    mb,
    sweep_stale,
)
from transformer_core.serving.registry import NoRoom, TooLarge

# language-free option labels (the value survives a language switch), in characters Debian's Chromium draws with
# the CJK fonts of the image (emoji such as 📦 came out as empty boxes)
KIND_ICONS = {"bundled": "■", "upload": "↑", "hub": "↓"}
KIND_MATERIAL = {"bundled": ":material/inventory_2:", "upload": ":material/upload:", "hub": ":material/cloud_download:"}
UPLOAD_TYPES = ["zip", "json", "safetensors", "model", "spm", "jsonl", "md"]   # spm: a Marian folder's source.spm, target.spm
MAX_CARD_CHARS = 20_000
CONCURRENT_LOADS = 2            # checkpoint loads at once, server-wide (a whole class may click together)
LOAD_WAIT_S = 20                # how long a load waits for a slot before it answers "busy"

SELECT_KEY = "models_select"
UPLOADER_N_KEY = "models_uploader_n"       # bumped to clear the uploader after a successful load
FLASH_KEY = "models_flash"
INFO_KEY = "models_info"                   # session key -> {"kind": "upload"|"hub", "folder"?, "repo"?}
USED_LABELS_KEY = "models_used_labels"     # never reuse a label (model keys derive from it)
TMP_KEY = "models_tmpdir"
PENDING_KEY = "models_pending"             # "upload" | "hub": set by a button's callback, done by the script


# ---------------------------------------------------------------- server-wide helpers

def upload_root() -> Path:
    return Path(os.environ.get("ATLAS_UPLOAD_DIR") or Path(tempfile.gettempdir()) / "attention-atlas-uploads")


@st.cache_resource(show_spinner=False)
def _startup_sweep() -> bool:
    """Once per process: remove session dirs a crashed server left behind."""
    sweep_stale(upload_root(), prefix="atlas-session-")
    return True


@st.cache_resource(show_spinner=False)
def _load_slots() -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(CONCURRENT_LOADS)


def release(files) -> None:
    """Drop Streamlit's in-memory copies of uploaded files once they are staged on disk: it would keep them
    until the session ends (even minutes after its tab closed, for a reconnect), 50 MB a file; files never
    loaded go after upload_store.keep_seconds()."""
    upload_store.forget_expired(model_state.owner())         # this load had its files, whatever expired since
    if Runtime.exists():
        manager = Runtime.instance().uploaded_file_mgr
        for f in files:
            manager.remove_file(model_state.owner(), f.file_id)


def upload_notice(notice: dict) -> None:
    """Why a picked file was refused by the store's quotas, or released unloaded (upload_store.take_notice)."""
    minutes = f"{upload_store.keep_seconds() / 60:.3g}"
    refused = notice.get("refused")
    if refused:
        st.error(t(f"models.upload.{refused['which']}_full", name=escape_md(refused["name"]), size_mb=mb(refused["size"]),
                   quota_mb=mb(refused["quota"]), held_mb=mb(refused["held"]), minutes=minutes),
                 icon=":material/block:")
    if notice.get("expired"):
        st.warning(t("models.upload.expired", minutes=minutes, names=escape_md(", ".join(notice["expired"][:8]))),
                   icon=":material/timer_off:")


def limits() -> UploadLimits:
    return UploadLimits.from_env()


def session_dir() -> Path:
    """This session's private temp dir; removed when the session has been closed for a while
    (model_state.reap_closed_sessions), when its state is dropped, or at exit."""
    holder = st.session_state.get(TMP_KEY)
    if holder is None or not Path(holder.name).is_dir():
        _startup_sweep()
        root = upload_root()
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        holder = tempfile.TemporaryDirectory(prefix="atlas-session-", dir=root, ignore_cleanup_errors=True)
        st.session_state[TMP_KEY] = holder
        model_state.track_session_dir(Path(holder.name))
    return Path(holder.name)


# ---------------------------------------------------------------- this session's models

def infos() -> dict[str, dict]:
    return st.session_state.setdefault(INFO_KEY, {})


def clean_label(text: str, fallback: str = "model") -> str:
    """A display name from untrusted text: letters, digits and . _ - / @ only, at most 48 characters."""
    text = re.sub(r"[^\w.\-/@ ]+", "", str(text), flags=re.UNICODE).strip(" .")
    return text[:48] or fallback


def unique_label(label: str) -> str:
    used: set = st.session_state.setdefault(USED_LABELS_KEY, set())
    candidate, n = label, 2
    while candidate in used:
        candidate, n = f"{label} ({n})", n + 1
    used.add(candidate)
    return candidate


def forget(key: str) -> None:
    """Drop one of this session's models (its uploaded files go with it: remember's on_drop)."""
    model_state.forget(key)
    infos().pop(key, None)


def remember(ckpt: Checkpoint, label: str, **info) -> str:
    """Keep ckpt for this session and make it active; the registry may evict this session's least recently
    used models, then those of sessions past their fair share, or refuse it (NoRoom).  Its uploaded folder is
    removed when it goes."""
    folder = info.get("folder")
    if folder and Path(folder).resolve().is_relative_to(session_dir().resolve()):
        on_drop = lambda: shutil.rmtree(folder, ignore_errors=True)     # noqa: E731
    else:
        on_drop = None
    key = model_state.add_session_model(ckpt, unique_label(label), on_drop)
    infos()[key] = info
    return key


def kind_of(key: str) -> str:
    if key.startswith(model_state.BUNDLED):
        return "bundled"
    return infos().get(key, {}).get("kind", "upload")


# ---------------------------------------------------------------- messages

def flash(kind: str, text: str, detail: str = "") -> None:
    st.session_state[FLASH_KEY] = {"kind": kind, "text": text, "detail": detail}


def show_flash() -> None:
    msg = st.session_state.pop(FLASH_KEY, None)
    if not msg:
        return
    body = msg["text"] + (f"\n\n{t('models.err.details')}: `{msg['detail']}`" if msg["detail"] else "")
    if msg["kind"] == "error":
        st.error(body, icon=":material/error:")
    elif msg["kind"] == "warning":
        st.warning(body, icon=":material/warning:")
    else:
        st.success(body, icon=":material/check_circle:")


def _safe(params: dict) -> dict:
    return {k: escape_md(v) for k, v in params.items()}


def unsupported_text(err: UnsupportedModel) -> str:
    """A Hugging Face model type other than Marian, and what it has that this model lacks, in the interface language."""
    what = ", ".join(t(f"models.hf_feature.{f}") for f in err.features) or t("models.hf_feature.other")
    return t("models.ckpt.hf_unsupported", model_type=escape_md(str(err.model_type)), what=what)


def error_text(err: Exception) -> tuple[str, str]:
    """(translated headline, the plain technical message) for an upload / checkpoint error."""
    if isinstance(err, UploadError):
        head = t(f"models.err.{err.code}", **_safe(err.params))
        if head == f"models.err.{err.code}":
            head = t("models.err.other")
    elif isinstance(err, UnsupportedModel):
        head = unsupported_text(err)
    elif isinstance(err, CheckpointError):
        head = t(f"models.ckpt.{checkpoint_error_kind(err)}")
    elif isinstance(err, TooLarge):
        head = t("models.err.server_full", size_mb=mb(err.nbytes), limit_mb=mb(err.max_bytes))
    elif isinstance(err, NoRoom):
        head = t("models.err.no_room", size_mb=mb(err.nbytes), share_mb=mb(err.share_bytes), sessions=err.owners)
    else:
        head = t("models.err.unexpected")
    active = model_state.active_key()
    kept = t("models.err.kept", label=escape_md(dict(model_state.model_choices()).get(active, active))) if active \
        else t("models.err.kept_none")
    detail = str(err) if isinstance(err, (UploadError, CheckpointError, TooLarge, NoRoom)) \
        else f"{type(err).__name__}: {err}"
    detail = " ".join(detail.replace("`", "'").split())          # one line: it is shown as an inline code span
    return f"{head} {kept}", detail[:600] + ("…" if len(detail) > 600 else "")


def try_load(load, label_for) -> None:
    """Run load() -> (ckpt, info); on success keep it and make it active, else flash the error."""
    info = {}
    slots = _load_slots()
    if not slots.acquire(timeout=LOAD_WAIT_S):          # every slot held (slow Hub, big uploads): say so
        flash("warning", t("app.busy"))
        return
    try:
        try:
            ckpt, info = load()
        finally:
            slots.release()
        key = remember(ckpt, label_for(info), **info)
    except Exception as err:  # noqa: BLE001 - nothing a bad upload does may break the page
        if info.get("folder"):                                  # loaded, but the server cannot keep it
            shutil.rmtree(info["folder"], ignore_errors=True)
        flash("error", *error_text(err))
        return
    text = t("models.loaded", label=escape_md(dict(model_state.model_choices()).get(key, key)))
    ignored = info.get("ignored") or []
    if ignored:
        flash("warning", text + "\n\n" + t("models.upload.ignored", names=escape_md(", ".join(ignored[:8]))))
    else:
        flash("success", text)
    st.rerun()


# ---------------------------------------------------------------- the chooser

def _sync_choice() -> None:
    st.session_state[model_state.ACTIVE_KEY] = st.session_state[SELECT_KEY]


def chooser() -> None:
    st.subheader(t("models.choose.header"))
    for name, error in model_state.broken_bundled().items():
        why = unsupported_text(error) if isinstance(error, UnsupportedModel) else escape_md(str(error))
        st.warning(t("models.broken", name=escape_md(name), error=why), icon=":material/broken_image:")
    choices = model_state.model_choices()
    if not choices:
        st.info(t("models.none"), icon=":material/inventory_2:")
        return
    labels = dict(choices)
    active = model_state.active_key()
    if st.session_state.get(SELECT_KEY) != active:
        st.session_state[SELECT_KEY] = active
    st.selectbox(t("models.choose.label"), list(labels), key=SELECT_KEY, on_change=_sync_choice,
                 format_func=lambda k: f"{KIND_ICONS[kind_of(k)]} {labels.get(k, k)}",
                 help=t("models.choose.help"))
    kind = kind_of(active)
    repo = infos().get(active, {}).get("repo", "")
    cols = st.columns([4, 1], vertical_alignment="center")
    cols[0].caption(f"{KIND_MATERIAL[kind]} " + t(f"models.source.{kind}", repo=escape_md(repo)))
    if kind != "bundled":
        cols[1].button(t("models.forget"), key="models_forget", icon=":material/delete:", type="tertiary",
                       on_click=_forget_active, args=(active, labels.get(active, active)))


def _forget_active(key: str, label: str) -> None:
    forget(key)
    flash("success", t("models.forgotten", label=escape_md(label)))


# ---------------------------------------------------------------- adding a model
# The load buttons only note the request (on_click); the script does the work where the button is, with
# a spinner.  A request kept in session_state survives a rerun that would drop a button's one-shot value.

def _request(what: str) -> None:
    st.session_state[PENDING_KEY] = what


def _take_request(what: str) -> bool:
    if st.session_state.get(PENDING_KEY) != what:
        return False
    del st.session_state[PENDING_KEY]
    return True


def upload_tab() -> None:
    lim = limits()
    server_mb = st.get_option("server.maxUploadSize") or 0
    file_bytes = min(lim.max_file_bytes, server_mb * MB) if server_mb else lim.max_file_bytes
    n = st.session_state.setdefault(UPLOADER_N_KEY, 0)
    notice = upload_store.take_notice(model_state.owner())
    if notice.get("expired"):              # some picked files are gone: a fresh uploader, the others go too
        upload_store.drop_files(model_state.owner())
        n = st.session_state[UPLOADER_N_KEY] = n + 1
        _take_request("upload")
    st.html(theme.uploader_css(t("models.upload.button_browse"), t("models.upload.drop")))   # not Streamlit's English
    files = st.file_uploader(t("models.upload.label"), type=UPLOAD_TYPES, accept_multiple_files=True,
                             key=f"models_upload_{n}", help=t("models.upload.help"))
    st.caption(t("models.upload.limits", file_mb=mb(file_bytes), total_mb=mb(lim.max_total_bytes),
                 members=lim.max_members) + " " +
               t("models.upload.store", held_mb=mb(upload_store.held_bytes(model_state.owner())),
                 quota_mb=mb(upload_store.session_quota_bytes()), minutes=f"{upload_store.keep_seconds() / 60:.3g}"))
    upload_notice(notice)
    st.button(t("models.upload.button"), key="models_upload_go", icon=":material/upload:", disabled=not files,
              type="primary", on_click=_request, args=("upload",))
    if _take_request("upload") and files:
        def load():
            ckpt, staged = load_upload(files, session_dir(), lim)
            return ckpt, {"kind": "upload", "folder": str(staged.folder), "ignored": staged.ignored,
                          "name": staged.label}

        def label_for(info):
            st.session_state[UPLOADER_N_KEY] = n + 1          # a fresh, empty uploader after a success
            release(files)
            return clean_label(info["name"], "upload")

        with st.spinner(t("models.upload.loading")):
            try_load(load, label_for)
        st.session_state[UPLOADER_N_KEY] = n + 1       # refused (a success reruns before this): the bytes go too,
        release(files)                                  # and the next run shows the message by an empty uploader
        st.rerun()


def hub_tab() -> None:
    forced = offline_env()
    repo = st.text_input(t("models.hub.repo"), key="models_hub_repo", placeholder="user/repo",
                         help=t("models.hub.repo_help"), max_chars=200)
    revision = st.text_input(t("models.hub.revision"), key="models_hub_rev", placeholder="main",
                             help=t("models.hub.revision_help"), max_chars=200)
    offline = st.toggle(t("models.hub.offline"), value=forced, key="models_hub_offline",
                        help=t("models.hub.offline_help"), disabled=forced)
    if forced:
        st.caption(t("models.hub.offline_forced"))
    st.button(t("models.hub.button"), key="models_hub_go", icon=":material/cloud_download:", type="primary",
              on_click=_request, args=("hub",))
    if _take_request("hub"):
        repo_id, rev = (repo or "").strip(), (revision or "").strip() or None
        if not repo_id:
            flash("error", t("models.hub.need_repo"))
            return

        def load():
            ckpt = from_pretrained(repo_id, rev, cache_dir_env(), local_files_only=offline or forced, limits=limits())
            return ckpt, {"kind": "hub", "repo": repo_id + (f"@{rev}" if rev else "")}

        with st.spinner(t("models.hub.loading", repo=escape_md(repo_id))):
            try_load(load, lambda info: clean_label(info["repo"], "hub"))


def add_section() -> None:
    st.subheader(t("models.add.header"))
    with st.container(border=True):
        up, hub = st.tabs([t("models.tab.upload"), t("models.tab.hub")])
        with up:
            upload_tab()
        with hub:
            hub_tab()
    show_flash()


# ---------------------------------------------------------------- the active model

def config_rows(ckpt: Checkpoint) -> pd.DataFrame:
    c = ckpt.config
    n_params = sum(p.numel() for p in ckpt.model.parameters())
    rows = [("vocab_size", c.vocab_size), ("d_model", c.d_model), ("n_heads", f"h = {c.n_heads}"),
            ("d_k", f"{c.d_k} = {c.d_model} / {c.n_heads}"), ("n_encoder_layers", f"N = {c.n_encoder_layers}"),
            ("n_decoder_layers", f"N = {c.n_decoder_layers}"), ("d_ff", c.d_ff), ("dropout", f"{c.dropout:g}"),
            ("max_len", c.max_len), ("positional", c.positional), ("langs", f"{c.src_lang} → {c.tgt_lang}"),
            ("special_ids", f"pad {c.pad_id} · unk {c.unk_id} · bos {c.bos_id} · eos {c.eos_id}"),
            ("parameters", f"{n_params:,} ({n_params / 1e6:.2f} M)"),
            ("quantization", ckpt.prepared.get("quantization", "float32")),
            ("disk", f"{sum(p.stat().st_size for p in ckpt.path.iterdir() if p.is_file()) / 2**20:.1f} MB")]
    if isinstance(ckpt.prepared.get("greedy_ms"), (int, float)):
        rows.append(("speed", f"{ckpt.prepared['greedy_ms']:g} ms"))
    return pd.DataFrame({t("models.config.col.setting"): [name for name, _ in rows],
                         t("models.config.col.value"): [str(value) for _, value in rows],
                         t("models.config.col.meaning"): [t(f"models.cfg.{name}", tokens=ckpt.prepared.get("greedy_tokens"),
                                                            date=ckpt.prepared.get("measured")) for name, _ in rows]})


def parameter_rows(ckpt: Checkpoint) -> pd.DataFrame:
    parts: dict[str, int] = {}
    for name, p in ckpt.model.named_parameters():
        part = name.split(".", 1)[0]
        parts[part] = parts.get(part, 0) + p.numel()
    total = sum(parts.values()) or 1
    names = [t(f"models.params.part.{part}") if t(f"models.params.part.{part}") != f"models.params.part.{part}"
             else part for part in parts]
    return pd.DataFrame({t("models.params.col.part"): names + [t("models.params.part.total")],
                         t("models.params.col.count"): [f"{v:,}" for v in parts.values()] + [f"{total:,}"],
                         t("models.params.col.share"): [f"{100 * v / total:.1f} %" for v in parts.values()] + ["100 %"]})


def defuse_card(text: str) -> str:
    """An untrusted model card for st.markdown (which escapes HTML): images become plain links, so the page
    loads nothing from elsewhere; very long cards are cut."""
    text = text.replace("\x00", "")
    if len(text) > MAX_CARD_CHARS:
        text = text[:MAX_CARD_CHARS] + "\n\n" + t("models.card.truncated", n=f"{MAX_CARD_CHARS:,}")
    return text.replace("![", ":material/image: [")


def details() -> None:
    key = model_state.active_key()
    if key is None:
        return
    ckpt = model_state.active()
    if ckpt is None:
        return
    label = dict(model_state.model_choices()).get(key, key)
    st.subheader(t("models.details.header", label=escape_md(label)))
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown(f"**{t('models.config.header')}**")
        config = config_rows(ckpt)
        st.table(config.set_index(config.columns[0]))          # static: every row visible on a projector
    with right:
        st.markdown(f"**{t('models.params.header')}**")
        params = parameter_rows(ckpt)
        st.table(params.set_index(params.columns[0]))
        st.caption(t("models.extras", examples=len(ckpt.examples),
                     log=t("models.yes") if ckpt.log_path else t("models.no")))
    st.markdown(f"**{t('models.card.header')}** ({ckpt.card_file})")
    card = in_language(ckpt.card, current_lang())      # without the YAML metadata; the reader's language first
    if card.strip():
        st.caption(t("models.card.note"))
        card = defuse_card(card)
        with st.container(border=True, height=560 if card.count("\n") > 40 else "content"):
            st.markdown(card)           # no unsafe_allow_html: HTML is shown as text
    else:
        st.caption(t("models.card.none", file=ckpt.card_file))


page_header("models")
chooser()
add_section()
st.divider()
details()
