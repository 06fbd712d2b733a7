"""A whole class on one real server (`streamlit run app.py` in a subprocess), spoken to over Streamlit's
websocket protocol (tests/st_client.py) and, for the restart, in a real browser:

    closed sessions       50 sessions each upload a 6 MB model and close; once their grace period
                          (ATLAS_SESSION_GRACE_S, 1 s here) has passed the server's resident memory is back
                          near where it started, and no upload dir is left
    disconnect            a tab that closes mid-upload (the HTTP PUT cut off, or the websocket closed while
                          the model loads) leaves no temporary file: neither the upload dirs nor the
                          server's TMPDIR (where Streamlit spools a PUT's body) keep anything
    20 × 50 MB uploads    20 tabs PUT 50 MB each at once (a 6 MB model and 44 MB of notes the upload
                          skips): the server's memory stays under the bound Streamlit's upload handling
                          gives (spooled to disk while streaming, then held in memory until the page
                          stages it: 20 × 50 MB + 200 MB), and once staged and loaded the uploads leave
                          memory (the 20 models held + 150 MB); the store's server quota raised for it
    upload quotas         a tab past its session's upload quota gets 413 and its page, run again by the
                          server, says so in its language; another tab still uploads; a file never loaded
                          is released after ATLAS_UPLOAD_KEEP_S (3 s here) and the page says so
    server restart        a browser on ?model=toy-ko&lang=en; the server killed and started again on the
                          same port: the tab reconnects, the page runs again and shows toy-ko in English
"""
import io
import os
import socket
import threading
import time
import zipfile
from pathlib import Path

import torch

from st_client import Tab, rss_mb, served
from transformer_core.checkpoints.folder import save_checkpoint
from transformer_core.model.config import ModelConfig
from transformer_core.model.tokenizer import Tokenizer
from transformer_core.model.transformer import Transformer

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


def spooled_files(pid, folder) -> list[str]:
    """The server's open files under folder (a PUT's body spooled to disk is unlinked but still open)."""
    found = []
    for fd in (Path(f"/proc/{pid}/fd")).iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(str(folder)):
            found.append(target)
    return found


def test_a_tab_that_disconnects_mid_upload_leaves_no_temporary_file(tmp_path, toy_checkpoints, toy_spm):
    spool = tmp_path / "server-tmp"
    spool.mkdir()
    data = checkpoint_zip(tmp_path, toy_spm, "class-model", d_model=160, d_ff=640, n_encoder_layers=2,
                          n_decoder_layers=2)
    with served(tmp_path, toy_checkpoints, {"ATLAS_SESSION_GRACE_S": "1", "TMPDIR": str(spool)}) as (url, proc):
        uploads = tmp_path / "uploads"
        # 1. the HTTP PUT cut off halfway: Streamlit spools the body to TMPDIR, and drops it
        tab = Tab(url, "lang=en").open(page="checkpoints")
        tab.upload("first.zip", data)                     # this session's upload dir exists now
        urls, _ = tab.put("x", b"")                        # a URL for the next file
        boundary = "atlasboundary"
        head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.zip\"\r\n"
                "Content-Type: application/zip\r\n\r\n").encode()
        host, port_ = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port_))) as raw:
            raw.sendall((f"PUT {urls.upload_url} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {40 * MB}\r\n"
                         f"Content-Type: multipart/form-data; boundary={boundary}\r\n\r\n").encode() + head)
            for _ in range(8):
                raw.sendall(os.urandom(MB))
            deadline = time.monotonic() + 20
            while not spooled_files(proc.pid, spool) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert spooled_files(proc.pid, spool), "the body was not spooled to TMPDIR"
        deadline = time.monotonic() + 20                   # the connection is gone: so is the spooled body
        while spooled_files(proc.pid, spool) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert spooled_files(proc.pid, spool) == [] and list(spool.iterdir()) == []
        # 2. the websocket closed while the model stages and loads
        tab.click("models_upload_go", wait=False)
        deadline = time.monotonic() + 30
        while not list(uploads.glob("atlas-session-*/atlas-upload-*")) and time.monotonic() < deadline:
            time.sleep(0.01)
        tab.close()                                        # as soon as the upload is being staged
        assert no_session_dirs(uploads)                    # reaped once the grace period passed
        assert list(spool.iterdir()) == []
        assert not [p for p in uploads.rglob("*")]


def test_twenty_concurrent_50_mb_uploads_stay_under_the_memory_bound(tmp_path, toy_checkpoints, toy_spm):
    data = checkpoint_zip(tmp_path, toy_spm, "big", d_model=160, d_ff=640, n_encoder_layers=2, n_decoder_layers=2)
    padding = 50 * MB - 4096 - len(data)                # an ignored member (notes) fills the upload to 50 MB
    buf = io.BytesIO(data)
    with zipfile.ZipFile(buf, "a", zipfile.ZIP_STORED) as zf:
        zf.writestr("big/notes.txt", os.urandom(padding))
    data = buf.getvalue()
    assert 49 * MB < len(data) <= 50 * MB
    with served(tmp_path, toy_checkpoints, {"ATLAS_UPLOAD_STORE_MAX_MB": "1100"}) as (url, proc):   # 20 × 50 MB held
        tabs = [Tab(url, "lang=en", timeout=120).open(page="checkpoints") for _ in range(20)]
        time.sleep(1)
        before = rss_mb(proc.pid)
        errors = []

        def each(tab, work):
            try:
                work(tab)
            except Exception as err:                       # noqa: BLE001 - reported below
                errors.append(repr(err))

        def together(work):
            threads = [threading.Thread(target=each, args=(tab, work)) for tab in tabs]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            assert not errors, errors

        with Peak(proc.pid) as streaming:
            together(lambda tab: tab.upload("big.zip", data))
        with Peak(proc.pid) as loading:
            together(lambda tab: tab.click("models_upload_go"))
        loaded = sum(any(a.startswith("Loaded") for a in tab.alerts("warning")) for tab in tabs)   # notes skipped
        after = rss_mb(proc.pid)
        print(f"server RSS: {before:.0f} MB before, peak {streaming.mb:.0f} MB while 20 × 50 MB streamed in, "
              f"peak {loading.mb:.0f} MB while they were staged and loaded ({loaded} loaded), {after:.0f} MB after")
        for tab in tabs:
            tab.close()
        assert loaded == 20, [tab.alerts("error") for tab in tabs][:2]
        # Streamlit spools a PUT's body to disk, then holds each uploaded file in memory until the page
        # stages it: 20 × 50 MB, and some slack for the parsing
        assert streaming.mb < before + 20 * 50 + 200
        # staged, the uploads leave memory: 20 models of 6 MB are held (under the registry's byte bound)
        assert after < before + 20 * 6 + 150


def test_a_session_past_its_upload_quota_is_told_and_a_file_never_loaded_is_released(tmp_path, toy_checkpoints):
    """On a real server (the store's quotas are installed by the reaper's start, the rerun goes through
    Streamlit's session): a tab holding 1 MB of its 2 MB tries a 2 MB file: 413, and its page, run again
    by the server without the tab asking, says why in English; a Korean tab still uploads; the first tab's
    file, never loaded, leaves the store after ATLAS_UPLOAD_KEEP_S and its next run says so."""
    from pages.ui.i18n import translate
    from pages.ui.widgets import escape_md

    env = {"ATLAS_UPLOAD_SESSION_MB": "2", "ATLAS_UPLOAD_KEEP_S": "3"}
    with served(tmp_path, toy_checkpoints, env) as (url, proc):
        full = Tab(url, "lang=en").open(page="checkpoints")
        full.upload("first.zip", os.urandom(MB))
        full.elements = []
        _, answer = full.put("second.zip", os.urandom(2 * MB))
        assert answer.status_code == 413
        full._until(lambda m: m.WhichOneof("type") == "script_finished")          # the server's own rerun
        assert full.alerts("error") == [translate("en", "models.upload.session_full", name=escape_md("second.zip"),
                                                  size_mb="2", quota_mb="2", held_mb="1", minutes="0.05")]
        other = Tab(url, "lang=ko").open(page="checkpoints")
        other.upload("third.zip", os.urandom(MB))                                    # its own quota: accepted
        assert not other.alerts("error")
        time.sleep(3 + 5 + 1)                                                        # KEEP_S, the reaper's 5 s
        full.click("models_upload_go")
        assert full.alerts("warning") == [translate("en", "models.upload.expired", minutes="0.05",
                                                    names=escape_md("first.zip"))]
        assert not full.alerts("success") and not full.exceptions()
        full.close()
        other.close()


def test_the_page_comes_back_after_a_server_restart_with_the_model_and_language_of_its_url(tmp_path, toy_checkpoints):
    """A browser on ?model=toy-ko&lang=en; the server is killed and started again on the same port: the tab
    reconnects by itself, the page runs again, and shows the same model in the same language."""
    from playwright.sync_api import sync_playwright

    from st_client import port, start
    from streamlit_proc import CHROMIUM_ARGS, stop

    at_port = port()
    url, proc = start(tmp_path, toy_checkpoints, {}, at_port)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"{url}/checkpoints?model=toy-ko&lang=en", timeout=120_000)

            def shows_model_and_language():
                page.wait_for_selector(".st-key-sidebar_model", timeout=120_000)
                page.wait_for_function("""() => { const b = document.querySelector('.st-key-sidebar_model');
                    const app = document.querySelector('[data-testid="stApp"]');
                    const box = b && b.querySelector('input');
                    return box && box.value === 'English → Korean' && app.getAttribute('data-test-script-state') === 'notRunning'
                           && !document.querySelector('[data-testid="stException"]'); }""", timeout=120_000)
                assert page.inner_text(".st-key-sidebar_model").strip() == "Model"    # English, not 모델
                assert page.locator("h1").first.inner_text().startswith("Models")

            shows_model_and_language()
            stop(proc)                                               # the server goes away mid-lesson
            page.wait_for_selector('[data-testid="stStatusWidget"]', timeout=60_000)   # "connecting"
            url, proc = start(tmp_path, toy_checkpoints, {}, at_port)
            page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=120_000)  # back
            shows_model_and_language()
            assert not page.get_by_text("Page not found").count()
            shows_model_and_language()
            assert "model=toy-ko" in page.url and "lang=en" in page.url
            browser.close()
    finally:
        stop(proc)
