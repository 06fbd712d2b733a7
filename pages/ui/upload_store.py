"""Streamlit's store of uploaded files (its MemoryUploadedFileManager: every stored file is a `bytes` in the
server's memory): a quota per session and one for the whole server, installed once when the server
starts; files not loaded in time released; the files of a session dropped when it ends.

The uploader takes many files and Streamlit caps only each file's size: without a quota one tab could pile
up upload bytes until the server runs out of memory, and many tabs together still could without the
server's.  A file past either quota is answered 413 (the uploader shows it as refused) before it is stored,
and the page says why in the interface language (take_notice; the session's page is run again at once
so it can).  A file stays in the store only until its page loads it (pages/models.py releases the files of
a load, or of a refused load) or for KEEP_S after it arrived: a file picked and never loaded does not hold
the server's quota until its session ends.

    ATLAS_UPLOAD_SESSION_MB   what one session may hold (default SESSION_QUOTA_MB, and at most one
                              upload's limit, ATLAS_UPLOAD_MAX_MB, + 16 MB)
    ATLAS_UPLOAD_STORE_MAX_MB what all sessions together may hold (default SERVER_QUOTA_MB)
    ATLAS_UPLOAD_KEEP_S       how long a file not loaded is kept (default KEEP_S)

Memory, honestly: while a file arrives, Starlette spools its body to TMPDIR past 1 MB (the image's /tmp)
and then reads it whole into memory; only then is it offered to the store and its quotas.  So besides
what the store holds, every upload in flight holds up to Streamlit's server.maxUploadSize (50 MB in the
image) in memory and as much in /tmp until its request ends.  docs/security.md has the arithmetic.
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from starlette.exceptions import HTTPException
from streamlit.runtime import Runtime

from transformer_core.checkpoints.upload import MB, UploadLimits

SESSION_QUOTA_MB = 64       # one file at the image's 50 MB cap (the weights) and the rest of a checkpoint
SERVER_QUOTA_MB = 320       # 5 sessions at their quota; fits the pod beside the idle server (docs/security.md)
KEEP_S = 180                # 3 minutes from a file's arrival to its load (a load takes seconds)
MAX_NAMES = 16              # released files named to a session (the uploader takes 16 files at most)

_lock = threading.Lock()
_arrived: dict[tuple[str, str], float] = {}        # (session id, file id) -> when it was stored (the clock's time)
_notices: dict[str, dict] = {}                      # session id -> {"refused": {...}, "expired": [names]}


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


def session_quota_bytes() -> int:
    """What one session may hold in the store: ATLAS_UPLOAD_SESSION_MB (default SESSION_QUOTA_MB), and never
    more than one upload at the server's limit and a little more (no load could use more)."""
    return min(int(_env_number("ATLAS_UPLOAD_SESSION_MB", SESSION_QUOTA_MB) * MB),
               UploadLimits.from_env().max_total_bytes + 16 * MB)


def server_quota_bytes() -> int:
    """What all sessions together may hold: ATLAS_UPLOAD_STORE_MAX_MB (default SERVER_QUOTA_MB)."""
    return int(_env_number("ATLAS_UPLOAD_STORE_MAX_MB", SERVER_QUOTA_MB) * MB)


def keep_seconds() -> float:
    """How long a file not loaded stays in the store: ATLAS_UPLOAD_KEEP_S (default KEEP_S)."""
    return _env_number("ATLAS_UPLOAD_KEEP_S", KEEP_S)


def session_bytes(manager, session_id: str, but: str | None = None) -> int:
    """Bytes the session holds in the store (leaving out the file `but`, which is being replaced)."""
    files = getattr(manager, "file_storage", {})
    files = files.get(session_id, {}) if isinstance(files, dict) else {}
    return sum(len(f.data) for file_id, f in list(files.items()) if file_id != but)


def held_bytes(session_id: str) -> int:
    """Bytes this session holds in the server's store now (0 without a server)."""
    return session_bytes(Runtime.instance().uploaded_file_mgr, session_id) if Runtime.exists() else 0


def _note_refusal(session_id: str, which: str, file, held: int) -> None:
    _notices.setdefault(session_id, {})["refused"] = {
        "which": which, "name": file.name, "size": len(file.data), "held": held,
        "quota": session_quota_bytes() if which == "session" else server_quota_bytes()}


def install(manager=None, clock: Callable[[], float] = time.monotonic) -> None:
    """Put the quotas on the manager's add_file (Runtime's, by default) and note when each file arrives;
    a second call does nothing.  A refused file is noted for its session's page, whose page is asked to run
    again (it shows the note), and answered 413."""
    manager = manager or Runtime.instance().uploaded_file_mgr
    if getattr(manager, "_atlas_quota", False) or not hasattr(manager, "file_storage"):
        return
    add = manager.add_file

    def add_file(session_id, file):
        with _lock:
            held = session_bytes(manager, session_id, but=file.file_id)
            everyone = sum(session_bytes(manager, sid) for sid in list(manager.file_storage))
            if held + len(file.data) > session_quota_bytes():
                which = "session"
            elif everyone - (session_bytes(manager, session_id) - held) + len(file.data) > server_quota_bytes():
                which = "server"
            else:
                add(session_id, file)
                _arrived[(session_id, file.file_id)] = clock()
                return
            _note_refusal(session_id, which, file, held)
        _rerun(session_id)
        raise HTTPException(status_code=413, detail=f"Upload quota of this {which} exceeded")

    manager.add_file = add_file
    manager._atlas_quota = True
    manager._atlas_clock = clock


def release_unloaded(manager=None, now: float | None = None,
                     is_active: Callable[[str], bool] | None = None) -> list[tuple[str, str]]:
    """Remove every file stored more than keep_seconds() ago (a load would have released it by now) and
    note their names for their sessions' pages -> [(session id, file name)] removed; the notes of sessions
    is_active() denies go.  `now` is the install clock's time (its clock by default).  The reaper thread
    (model_state._reap_forever) calls it every few seconds."""
    if manager is None:
        if not Runtime.exists():
            return []
        manager = Runtime.instance().uploaded_file_mgr
    storage = getattr(manager, "file_storage", None)
    if not isinstance(storage, dict):
        return []
    now = getattr(manager, "_atlas_clock", time.monotonic)() if now is None else now
    oldest, released = now - keep_seconds(), []
    with _lock:
        present = {(sid, fid): f for sid, files in list(storage.items()) for fid, f in list(files.items())}
        for key in [key for key in _arrived if key not in present]:      # loaded, refused or its session gone
            del _arrived[key]
        for (sid, fid), f in present.items():
            if _arrived.setdefault((sid, fid), now) <= oldest:         # a file stored before install: from now
                manager.remove_file(sid, fid)
                del _arrived[(sid, fid)]
                names = _notices.setdefault(sid, {}).setdefault("expired", [])
                names[:] = [*names, f.name][-MAX_NAMES:]
                released.append((sid, f.name))
        if is_active is not None:                                      # a closed session's notes go too
            for sid in [sid for sid in _notices if not is_active(sid)]:
                del _notices[sid]
    return released


def take_notice(session_id: str) -> dict:
    """What happened to this session's uploads since its page last asked: {"refused": {"which": "session" or
    "server", "name", "size", "held", "quota"}, "expired": [file names]}, each key only when it happened."""
    with _lock:
        return _notices.pop(session_id, {})


def forget_expired(session_id: str) -> None:
    """A load used this session's files: a note that some expired meanwhile no longer matters."""
    with _lock:
        _notices.get(session_id, {}).pop("expired", None)


def _rerun(session_id: str) -> None:
    """Best effort: run the session's page again (with the widget values it last sent), so that it shows the
    refusal in the interface language at once; the uploader itself shows only 'status code 413'.  Not while
    a run is under way (it would be stopped): that run's end, or the next, shows it."""
    try:
        from streamlit.runtime.app_session import AppSessionState

        info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
        session = info.session if info else None
        if session is not None and session._state is AppSessionState.APP_NOT_RUNNING:
            session.request_rerun(session._client_state)
    except Exception:  # noqa: BLE001 - Streamlit's internals may change; the note still waits for the page
        pass


def drop_files(session_id: str) -> None:
    """All of the session's files leave the store (its page starts a fresh pick)."""
    with _lock:
        for key in [key for key in _arrived if key[0] == session_id]:
            del _arrived[key]
    if Runtime.exists():
        Runtime.instance().uploaded_file_mgr.remove_session_files(session_id)


def drop_session(session_id: str) -> None:
    """A closed session's files leave the store, and its notes go."""
    with _lock:
        _notices.pop(session_id, None)
    drop_files(session_id)
