"""A whole class on one real server (`streamlit run app.py` in a subprocess), spoken to over Streamlit's
websocket protocol (tests/st_client.py) and, for the restart, in a real browser:

    closed sessions       50 sessions each upload a 6 MB model and close; once their grace period
                          (ATLAS_SESSION_GRACE_S, 1 s here) has passed the server's resident memory is back
                          near where it started, and no upload dir is left
    disconnect            a tab that closes mid-upload (the HTTP PUT cut off, or the websocket closed while
                          the model loads) leaves no temporary file: neither the upload dirs nor the
                          server's TMPDIR (where Streamlit spools a PUT's body) keep anything
    20 × 50 MB uploads    20 tabs PUT 50 MB each at once: the server's memory stays under the bound
                          Streamlit's upload handling gives (spooled to disk while streaming, then held in
                          memory until the page stages it), and once staged and loaded under the
                          registry's byte bound
"""
import io
import threading
import time
import zipfile

import pytest
import torch

from st_client import Tab, rss_mb, served
from transformer_core.checkpoint import save_checkpoint
from transformer_core.config import ModelConfig
from transformer_core.model import Transformer
from transformer_core.tokenizer import Tokenizer

MB = 1024 * 1024


def checkpoint_zip(tmp, spm, name, **size) -> bytes:
    """A random checkpoint of the given size, zipped (stored: random weights do not compress)."""
    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=Tokenizer.load(spm).vocab_size, n_heads=4, max_len=24, **size)
    save_checkpoint(tmp / name, Transformer(cfg).eval(), spm)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for p in sorted((tmp / name).iterdir()):
            zf.writestr(f"{name}/{p.name}", p.read_bytes())
    return buf.getvalue()


class Peak:
    """The server's largest RSS while the block runs, sampled every 50 ms."""

    def __init__(self, pid):
        self.pid, self.mb, self._stop = pid, 0.0, threading.Event()

    def __enter__(self):
        def sample():
            while not self._stop.is_set():
                self.mb = max(self.mb, rss_mb(self.pid))
                self._stop.wait(0.05)
        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def session_with_upload(url, data, name):
    tab = Tab(url, "lang=en").open(page="checkpoints")
    tab.upload(f"{name}.zip", data)
    tab.click("models_upload_go")
    assert tab.alerts("success") and not tab.exceptions() and not tab.alerts("error"), tab.alerts("error")
    tab.close()


def no_session_dirs(root, timeout=30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not list(root.glob("atlas-session-*")):
            return True
        time.sleep(0.2)
    return False


def test_closed_sessions_free_their_memory(tmp_path, toy_checkpoints, toy_spm):
    data = checkpoint_zip(tmp_path, toy_spm, "class-model", d_model=160, d_ff=640, n_encoder_layers=2,
                          n_decoder_layers=2)
    assert 5 * MB < len(data) < 7 * MB
    env = {"ATLAS_SESSION_GRACE_S": "1", "ATLAS_MODELS_MAX": "200", "ATLAS_MODELS_MAX_MB": "8192"}
    with served(tmp_path, toy_checkpoints, env) as (url, proc):
        uploads = tmp_path / "uploads"
        for i in range(2):                                   # warm up: imports, caches, allocator arenas
            session_with_upload(url, data, f"warm-{i}")
        assert no_session_dirs(uploads)
        time.sleep(1)
        before = rss_mb(proc.pid)
        errors = []

        def student(k):
            try:
                for i in range(10):
                    session_with_upload(url, data, f"s{k}-{i}")
            except Exception as err:                         # noqa: BLE001 - reported below
                errors.append(repr(err))

        with Peak(proc.pid) as peak:
            students = [threading.Thread(target=student, args=(k,)) for k in range(5)]
            for s in students:
                s.start()
            for s in students:
                s.join()
        assert not errors, errors
        assert no_session_dirs(uploads)                      # every closed session's dir was reaped
        time.sleep(1)
        after = rss_mb(proc.pid)
        print(f"server RSS: {before:.0f} MB before, peak {peak.mb:.0f} MB, {after:.0f} MB after 50 sessions")
        assert peak.mb > before + 25                         # the models were really held meanwhile
        assert after < before + 60, (before, peak.mb, after)
