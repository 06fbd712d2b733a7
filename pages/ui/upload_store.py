"""Streamlit's store of uploaded files (its UploadedFileManager, in the server's memory): a quota per
session and one for the whole server, installed once when the server starts, and the files of a session
dropped when it ends.

The uploader takes many files and Streamlit caps only each file's size: without a quota one tab could
pile up upload bytes until the server runs out of memory, and many tabs together still could without the
server's.  A file past either quota is answered 413 (the uploader shows it as refused) before it is stored.
"""
from __future__ import annotations

import os
import threading

from starlette.exceptions import HTTPException
from streamlit.runtime import Runtime

from transformer_core.checkpoints.upload import MB, UploadLimits

_lock = threading.Lock()


def quota_bytes() -> int:
    """What one session may hold in the store: one upload at the server's limit, and a little more."""
    return UploadLimits.from_env().max_total_bytes + 16 * MB


SERVER_QUOTA_MB = 1024      # a class of 20 uploading a 50 MB model (Streamlit's cap in the image) at once


def server_quota_bytes() -> int:
    """What all sessions together may hold: ATLAS_UPLOAD_STORE_MAX_MB (default SERVER_QUOTA_MB)."""
    try:
        return int(float(os.environ.get("ATLAS_UPLOAD_STORE_MAX_MB", "") or SERVER_QUOTA_MB) * MB)
    except ValueError:
        return SERVER_QUOTA_MB * MB


def session_bytes(manager, session_id: str, but: str | None = None) -> int:
    """Bytes the session holds in the store (leaving out the file `but`, which is being replaced)."""
    files = manager.file_storage.get(session_id, {})
    return sum(len(f.data) for file_id, f in list(files.items()) if file_id != but)


def install(manager=None) -> None:
    """Put the quota on the manager's add_file (Runtime's, by default); a second call does nothing."""
    manager = manager or Runtime.instance().uploaded_file_mgr
    if getattr(manager, "_atlas_quota", False) or not hasattr(manager, "file_storage"):
        return
    add = manager.add_file

    def add_file(session_id, file):
        with _lock:
            held = session_bytes(manager, session_id, but=file.file_id)
            everyone = sum(session_bytes(manager, sid) for sid in list(manager.file_storage))
            if held + len(file.data) > quota_bytes():
                raise HTTPException(status_code=413, detail="Upload quota of this session exceeded")
            if everyone - (session_bytes(manager, session_id) - held) + len(file.data) > server_quota_bytes():
                raise HTTPException(status_code=413, detail="Upload quota of this server exceeded")
            add(session_id, file)

    manager.add_file = add_file
    manager._atlas_quota = True


def drop_session(session_id: str) -> None:
    """A closed session's files leave the store."""
    if Runtime.exists():
        Runtime.instance().uploaded_file_mgr.remove_session_files(session_id)
