"""A Streamlit session without a browser, for the server tests: the websocket protocol a browser tab
speaks (websocket-client, Streamlit's protobufs), a `streamlit run` subprocess, its memory.

    with served(tmp, checkpoints, env) as (url, proc):
        tab = Tab(url, "lang=en").open(page="checkpoints")   # a first page load, then the Models page
        tab.upload("m.zip", data)                            # file_urls_request, HTTP PUT, the widget state
        tab.click("models_upload_go")                        # a button, the run it starts
        tab.alerts("success"), tab.session_id
        tab.close()
    rss_mb(proc.pid)                                          # the server's resident memory

The server runs with XSRF protection off (a tab here has no cookie jar); everything else is as served.
"""
from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import requests
import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from st_protocol import EARLY, TabProtocol, uploader_state
from streamlit_proc import free_port, healthy, stop

ROOT = Path(__file__).resolve().parents[1]
ALERTS = {"error": 1, "warning": 2, "info": 3, "success": 4}          # Alert.Format


def port() -> int:
    """A free port: from ATLAS_TEST_PORTS ("8620-8629") when set, else any."""
    span = os.environ.get("ATLAS_TEST_PORTS")
    if not span:
        return free_port()
    low, high = map(int, span.split("-"))
    import socket
    for p in range(low, high + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", p))
                return p
            except OSError:
                continue
    raise RuntimeError(f"no free port in {span}")


def rss_mb(pid: int) -> float:
    """Resident memory of pid (VmRSS) in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def start(tmp: Path, checkpoints: Path, env: dict, at_port: int | None = None) -> tuple[str, subprocess.Popen]:
    at_port = at_port or port()
    full = {**os.environ, "ATLAS_CHECKPOINTS_DIR": str(checkpoints), "ATLAS_ROOT": str(tmp),
            "ATLAS_UPLOAD_DIR": str(tmp / "uploads"), "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1", **env}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.port", str(at_port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false", "--server.enableXsrfProtection", "false"]
    with open(tmp / f"streamlit-{at_port}.log", "ab") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{at_port}"
    deadline = time.monotonic() + 90
    while not healthy(url):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError(f"streamlit did not start: {(tmp / f'streamlit-{at_port}.log').read_text()[-3000:]}")
        time.sleep(0.2)
    # as `make run` (scripts/warm_up.py) and the Docker HEALTHCHECK do: one run of app.py, after which
    # Streamlit serves a page's own URL (/checkpoints) without its "Page not found" notice
    urllib.request.urlopen(url + "/_stcore/script-health-check", timeout=120).read()
    return url, proc


@contextmanager
def served(tmp: Path, checkpoints: Path, env: dict | None = None):
    url, proc = start(tmp, checkpoints, env or {})
    try:
        yield url, proc
    finally:
        stop(proc)


class Tab(TabProtocol):
    """One browser tab: its websocket, session id, pages, widgets (id by key) and the widget states it set."""

    def __init__(self, url: str, query_string: str = "", timeout: float = 60):
        super().__init__(url, query_string)
        self.timeout = timeout
        self.widgets: dict[str, str] = {}                  # widget id -> kind
        self.states: dict[str, WidgetState] = {}
        self.elements: list = []                           # the last run's new elements
        self.inbox: queue.Queue = queue.Queue()
        self.ws = None

    def open(self, page: str | None = None) -> Tab:
        self.ws = websocket.create_connection(self.base.replace("http", "ws", 1) + "/_stcore/stream",
                                              timeout=self.timeout, subprotocols=["streamlit"])
        self.ws.settimeout(None)
        threading.Thread(target=self._read, daemon=True).start()
        self.rerun(page="", page_name=page or "")          # straight to the page, as its URL would
        return self

    def _read(self) -> None:
        """Read all the time, as a browser does (recv() also answers the server's pings)."""
        while True:
            try:
                data = self.ws.recv()
                if not isinstance(data, bytes):            # "" once the socket is closed
                    raise websocket.WebSocketConnectionClosedException("closed")
            except (websocket.WebSocketException, OSError) as err:
                self.inbox.put(err)
                return
            msg = ForwardMsg()
            msg.ParseFromString(data)
            self.inbox.put(msg)

    def close(self) -> None:
        self.ws.close()

    def _take(self, msg: ForwardMsg) -> None:
        if self.take_session(msg) == "delta" and msg.delta.HasField("new_element"):
            el = msg.delta.new_element
            which = el.WhichOneof("type")
            self.elements.append(el)
            inner = getattr(el, which) if which else None
            if inner is not None and getattr(inner, "id", ""):
                self.widgets[inner.id] = which

    def _until(self, done) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self.inbox.get(timeout=max(0.1, deadline - time.monotonic()))
            if isinstance(msg, Exception):
                raise msg
            self._take(msg)
            if done(msg):
                return

    def send(self, back: BackMsg) -> None:
        self.ws.send_binary(back.SerializeToString())

    def rerun(self, page: str | None = None, triggers=(), wait: bool = True, page_name: str = "") -> None:
        self.elements = []
        self.send(self.rerun_msg([*self.states.values(), *triggers], page=page, page_name=page_name))
        if wait:
            self._until(lambda m: m.WhichOneof("type") == "script_finished" and m.script_finished != EARLY)

    def widget(self, key: str, kind: str) -> str:
        found = [wid for wid, k in self.widgets.items() if k == kind and re.search(f"-{key}$", wid)]
        if not found:
            raise AssertionError(f"no {kind} widget {key!r} on the page")
        return found[-1]

    def put(self, name: str, data: bytes) -> tuple[object, requests.Response]:
        """The file_urls_request, then the HTTP PUT of the file -> (the file's URLs, the response)."""
        request_id, back = self.file_urls_msg(name)
        self.send(back)
        self._until(lambda m: request_id in self.file_urls)
        urls = self.file_urls.pop(request_id).file_urls[0]
        return urls, requests.put(self.base + urls.upload_url, files={"file": (name, data, "application/zip")},
                                  timeout=self.timeout)

    def upload(self, name: str, data: bytes, key: str = r"models_upload_\d+") -> None:
        """Pick a file in the uploader with this key (as a browser does: PUT, then the widget state)."""
        uid = self.widget(key, "file_uploader")
        urls, answer = self.put(name, data)
        answer.raise_for_status()
        self.states[uid] = uploader_state(uid, name, len(data), urls)
        self.rerun()

    def click(self, key: str, wait: bool = True) -> None:
        self.rerun(triggers=[WidgetState(id=self.widget(key, "button"), trigger_value=True)], wait=wait)
        if wait and key == "models_upload_go":
            self.states = {k: v for k, v in self.states.items() if self.widgets.get(k) != "file_uploader"}

    def alerts(self, kind: str) -> list[str]:
        return [el.alert.body for el in self.elements if el.WhichOneof("type") == "alert"
                and el.alert.format == ALERTS[kind]]

    def exceptions(self) -> list[str]:
        return [f"{el.exception.type}: {el.exception.message}" for el in self.elements
                if el.WhichOneof("type") == "exception"]
