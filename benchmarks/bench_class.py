"""A whole class at once: simulated students on one server, each speaking Streamlit's own websocket
protocol as a browser tab does, under Locust.

    python benchmarks/bench_class.py                                  # 40 students, 5 minutes, own server
    python benchmarks/bench_class.py --sessions 10 --duration 60
    python benchmarks/bench_class.py --host http://127.0.0.1:8501 --server-pid 1234   # a running server
    python benchmarks/bench_class.py --smoke         # a check that it runs: 2 students, one lesson each
    python benchmarks/bench_class.py --model models/enko-big   # every student on a prepared model instead

--smoke: 2 students (the first uploads a checkpoint), thinking 0.2-0.5 s, each does one lesson (below) and
leaves (--lessons 1: the run ends when both are done, at most --duration 120 s), so that every kind of action
happens once at least; out/bench/class-smoke.json, class-smoke.png and class-smoke.server.log, never the real
run's files.  Any option given still wins over these.

Without --host it starts `streamlit run app.py --server.headless true --server.port <port>` in the
repository (so with .streamlit/config.toml: XSRF protection on, 50 MB uploads, static serving), on a
snapshot of checkpoints/ copied to a temporary folder (ATLAS_CHECKPOINTS_DIR, so a training run that
rewrites a checkpoint cannot change the models halfway), warms it up as `make run` does
(scripts/warm_up.py: both bundled models loaded) and stops it at the end.

Each student (a Locust User; --spawn-rate of them join per second) is one browser tab:
  open             GET /_stcore/health (the XSRF cookie), the websocket at /_stcore/stream (subprotocols
                   "streamlit" and the XSRF token), then the rerun_script BackMsg of a first page load with
                   the tab's query string: the home page (translate), its first example's translation and
                   heatmaps.  Students alternate the en→de and en→ko models and the Korean and English UI
  sentence         types a new sentence into the home page's box (the text input's widget state, as Enter
                   sends it): an example sentence of a bundled model (checkpoints/*/examples.json) or an
                   everyday one, with a name and a time of day that make each sentence of the run new, so
                   no cache answers it
  tab              opens another attention tab (encoder, decoder, cross, alignment): the tabs' widget state
                   in a rerun of the page's attention fragment (its fragment_id)
  page             moves to another page of the menu (the rerun_script's page_script_hash), and back home
  upload           every --upload-every-th student first goes to the Models page and uploads a checkpoint:
                   a .zip of the bundled en→de folder, as st.file_uploader sends it (the file_urls_request
                   BackMsg, an HTTP PUT of the file to the /_stcore/upload_file/... URL the server gives,
                   with the X-Xsrftoken header, then the uploader's widget state)
  load_checkpoint  presses the load button (a trigger value); done when the page shows that the model
                   loaded (a success message)
A lesson is a sentence, a tab, a page and back home (an uploader first goes to the Models page, uploads and
loads its checkpoint and comes back); a student repeats lessons until --duration, or stops after --lessons.
With --attacker, one more session (not a student: its actions are reported apart) uploads a crafted model (a
zip of a few hundred KB: 12 + 12 layers, d_model 512, 16 heads, every weight 0 and an EOS logit of −100, so it
never ends a sentence),
opens the home page's gradients tab and types one long sentence after another without pausing: the heaviest
run the server's run-cost model (transformer_core/serving/cost.py) accepts, again and again.
Between actions each student thinks a few seconds (--think, uniform).  A student sends only the widget
states it changed; for the others the server keeps the values of its last run, as it would for a browser.

Timing: from sending the BackMsg (for an upload: the file_urls_request) to the script_finished ForwardMsg
that ends the run (not one that ends a run early for a rerun), all of whose messages, the heatmaps'
data among them, have arrived by then.  Every ForwardMsg received is checked: an exception element, an
st.error element, page_not_found or a script compilation error counts as an error of the action; so do a
run that does not end within --timeout, a closed websocket, an open, sentence or tab run without a chart,
a sentence whose heatmaps do not show it (where the open tab has the source on an axis, the name it starts
with is among the labels) and a load without its success message.  After --duration no student starts a new action; those under way
finish.  Left out: a browser's static files (the app's JavaScript and plotly.min.js, cached after the
first visit) and its drawing; benchmarks/bench_app.py measures those for one user.

Meanwhile the server's process tree (psutil, the server process and its children) is sampled each second:
resident memory (RSS, and PSS, which counts the pages its processes share once) and CPU (100 % = one core), and so are this
process (the students' side) and the machine (100 % = all cores: on a shared machine, what else ran).  Writes
out/bench/class.json (per action, and per page for the page switches: count, errors, p50, p95, max) and
out/bench/class.png (the actions' times, the server's RSS and CPU over time), and the server's output
(out/bench/class.server.log, for a server it started).  Exit status 1 when any
action failed.
"""
from __future__ import annotations

# isort: off
import locust  # noqa: F401  (first: gevent's monkey patching, before anything opens a socket)
# isort: on

import argparse
import io
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import gevent
import psutil
import requests
import websocket
from gevent.queue import Empty, Queue
from locust import User, task
from locust.env import Environment
from locust.exception import StopUser
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from _common import OUT, ROOT, add_smoke, environment, parse_args, percentile, write_result
from pages.ui.i18n import LANGS, strings
from tests.st_protocol import EARLY, TabProtocol, uploader_state
from tests.streamlit_proc import free_port, healthy, stop
from transformer_core.checkpoints.upload import classify_name
from transformer_core.explainer.explain import ATTENTION_KINDS

ACTIONS = ("open", "sentence", "tab", "page", "upload", "load_checkpoint")
HOME, MODELS = "", "checkpoints"      # url paths in the menu: the default page (app.py's home) has none
TEXT_KEY, TABS_KEY = "tr_text", "tr_kind"            # widget keys of pages/translate.py (regular expressions)
# translate.py's tabs are explain.ATTENTION_KINDS, then the alignment; these show the source on an axis
SOURCE_TABS = (ATTENTION_KINDS.index("enc_self"), ATTENTION_KINDS.index("cross"))
UPLOADER_KEY, LOAD_KEY = r"models_upload_\d+", "models_upload_go"    # pages/models.py
QUERY_STRINGS = ("", "model=enko", "lang=en", "lang=en&model=enko")
XSRF_COOKIE = "_streamlit_xsrf"
UPLOAD_MODEL = "ende"
COMPILE_ERROR = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_WITH_COMPILE_ERROR")
ERROR_ALERT, SUCCESS_ALERT = Alert.Format.Value("ERROR"), Alert.Format.Value("SUCCESS")
BUSY = {strings(lang)["app.busy"] for lang in LANGS}   # app.py's "the server is busy, try again" (a warning)

EVERYDAY = ("I am hungry.", "The bus is late again.", "My sister plays the piano.", "We need more milk.",
            "Where are my keys?", "The weather is nice.", "I have two brothers.", "Please close the door.",
            "The children are playing in the park.", "He drinks coffee every morning.",
            "Can I borrow your pen?", "The shop opens at nine.", "She is writing a letter to her friend.",
            "We are watching a film.", "My father works in a hospital.", "The soup is too hot.",
            "I lost my umbrella.", "They live near the river.", "Is this seat free?", "The train is full.")
NAMES = ("Anna", "Peter", "Maria", "Thomas", "Julia", "Minho", "Sarah", "Daniel", "Laura", "Jiwoo", "Lisa",
         "Stefan", "Clara", "Jonas", "Emma", "Seoyeon", "Sophie", "Felix", "Nina", "Paul", "Lena", "Hana")
SMOKE = dict(sessions=2, spawn_rate=2.0, think=(0.2, 0.5), upload_every=2, lessons=1, duration=120, timeout=120,
             out=str(OUT / "class-smoke.json"), plot=str(OUT / "class-smoke.png"))
TIMES = ("today", "tomorrow", "this morning", "tonight", "on Monday", "after school", "at noon",
         "every weekend", "in the summer", "right now")


# ---------------------------------------------------------------- what the students type and upload

def sentences(examples: list[str], seed: int):
    """Endless different sentences: an example or everyday sentence addressed to a name, with a time of
    day before its final mark ("Anna, where is the train station today?"); once all are used, numbered."""
    bases = list(dict.fromkeys([*examples, *EVERYDAY]))
    combos = list(itertools.product(bases, NAMES, TIMES))
    random.Random(seed).shuffle(combos)
    for round_ in itertools.count():
        for base, name, when in combos:
            body, mark = (base[:-1], base[-1]) if base[-1] in ".?!" else (base, ".")
            body = body if body.startswith("I ") else body[0].lower() + body[1:]
            yield f"{name}, {body} {when}{' ' + str(round_ + 1) if round_ else ''}{mark}"


def figure_of(el) -> dict:
    """The plotly figure of a live chart (pages/ui/live_chart.py: its data's "spec") or of st.plotly_chart."""
    if el.WhichOneof("type") == "plotly_chart":
        return json.loads(el.plotly_chart.spec or "{}")
    return json.loads(json.loads(el.bidi_component.json or "{}").get("spec") or "{}")


def bundled_examples(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.glob("*/examples.json")):
        out += [e["src"] for e in json.loads(path.read_text(encoding="utf-8")) if str(e.get("src", "")).strip()]
    return out


def checkpoint_zip(folder: Path) -> bytes:
    """The files of a checkpoint folder that an upload takes, zipped under the folder's name."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            if path.is_file() and classify_name(path.name)[0] == "file":
                archive.write(path, f"{folder.name}/{path.name}")
    return buf.getvalue()


CRAFTED = dict(d_model=512, n_heads=16, n_encoder_layers=12, n_decoder_layers=12, d_ff=1024, max_len=40)
LONG = ("my grandmother and my grandfather live with my family in a small house near the river and every morning "
        "we walk to the market together")


def crafted_zip(tokenizer_folder: Path) -> bytes:
    """The attacker's checkpoint: CRAFTED with every weight 0 (float16), on a bundled model's tokenizer, zipped."""
    import torch
    from safetensors.torch import save_file

    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import Tokenizer
    from transformer_core.model.transformer import state_shapes

    tok = Tokenizer.load(tokenizer_folder / "spm.model")
    cfg = ModelConfig(**{**CRAFTED, "vocab_size": tok.vocab_size, "pad_id": tok.pad_id, "unk_id": tok.unk_id,
                         "bos_id": tok.bos_id, "eos_id": tok.eos_id, "logits_bias": True})
    state = {name: torch.zeros(shape, dtype=torch.float16) for name, shape in state_shapes(cfg).items()}
    state["logits_bias"][cfg.eos_id] = -100.0                       # it never ends a sentence
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "crafted"
        folder.mkdir()
        save_file(state, str(folder / "model.safetensors"))
        cfg.save(folder / "config.json")
        shutil.copyfile(tokenizer_folder / "spm.model", folder / "spm.model")
        return checkpoint_zip(folder)


# ---------------------------------------------------------------- one browser tab

class ActionError(Exception):
    def __init__(self, text: str, fatal: bool = False):
        super().__init__(text)
        self.fatal = fatal          # the websocket is gone: the student cannot go on


@dataclass
class Run:
    """What came back for one action."""
    messages: int = 0
    bytes: int = 0
    charts: int = 0                   # live charts (a Streamlit component) or st.plotly_chart elements
    heatmaps: int = 0                 # heatmap traces in them
    success: bool = False             # an st.success element
    busy: bool = False                # the page said "the server is busy" instead of drawing the model run
    axes: list[str] = field(default_factory=list)      # each heatmap's axis labels, letters and digits only
    detail: str = ""                  # the page, the tab or the sentence
    errors: list[str] = field(default_factory=list)


class Tab(TabProtocol):
    """One browser tab of the app: its websocket, read all the time by a greenlet (as a browser does), and
    what the browser keeps: the session id, the query string, the pages, the current page (TabProtocol),
    the widget states it set and where each widget lives (its fragment)."""

    def __init__(self, base_url: str, query_string: str, timeout: float):
        super().__init__(base_url, query_string)
        self.timeout = timeout
        self.http = requests.Session()
        self.widgets: dict[str, tuple[str, str]] = {}       # widget id -> (kind, fragment id)
        self.states: dict[str, WidgetState] = {}            # the widget states this tab set
        self.tab_labels: dict[str, list[str]] = {}          # tab container id -> labels
        self.tab_open: dict[str, int] = {}                  # tab container id -> open tab
        self._tab_paths: dict[tuple, str] = {}
        self.page_busy = False                              # the last page run answered "busy"
        self.inbox: Queue = Queue()
        self.ws = None
        self.reader = None

    # -- connection
    def connect(self) -> None:
        self.http.get(self.base + "/_stcore/health", timeout=self.timeout).raise_for_status()
        xsrf = self.http.cookies.get(XSRF_COOKIE, "")
        url = "ws" + self.base.removeprefix("http") + "/_stcore/stream"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items()) or None
        self.ws = websocket.create_connection(url, timeout=self.timeout, cookie=cookie,
                                              subprotocols=["streamlit", xsrf] if xsrf else ["streamlit"])
        self.ws.settimeout(None)
        self.reader = gevent.spawn(self._read)

    def close(self) -> None:
        if self.reader is not None:
            self.reader.kill(block=False)
        if self.ws is not None:
            self.ws.close()
        self.http.close()

    def _read(self) -> None:
        while True:
            try:
                data = self.ws.recv()
            except (websocket.WebSocketException, OSError) as err:
                self.inbox.put(("closed", f"websocket closed: {err or type(err).__name__}"))
                return
            msg = ForwardMsg()
            msg.ParseFromString(data)
            self.inbox.put((len(data), msg))

    # -- messages
    def _take(self, msg: ForwardMsg, run: Run) -> None:
        """What a browser takes from one ForwardMsg; errors go to run.errors."""
        kind = self.take_session(msg)
        if kind == "page_not_found":
            run.errors.append(f"page not found: {msg.page_not_found.page_name!r}")
        elif kind == "session_event" and msg.session_event.HasField("script_compilation_exception"):
            run.errors.append("script compilation error: " + msg.session_event.script_compilation_exception.message)
        elif kind == "delta":
            self._take_delta(msg, run)

    def _take_delta(self, msg: ForwardMsg, run: Run) -> None:
        delta, path = msg.delta, tuple(msg.metadata.delta_path)
        if delta.HasField("new_element"):
            el = delta.new_element
            which = el.WhichOneof("type")
            inner = getattr(el, which) if which else None
            if which == "exception":
                where = " | ".join(line.strip() for line in el.exception.stack_trace[-4:])
                run.errors.append(f"exception: {el.exception.type}: {el.exception.message}"[:500] + f" at {where}"[:800])
            elif which == "alert" and el.alert.format == ERROR_ALERT:
                run.errors.append(f"st.error: {el.alert.body}"[:500])
            elif which == "alert" and el.alert.format == SUCCESS_ALERT:
                run.success = True
            elif which == "alert" and el.alert.body in BUSY:
                run.busy = True
            elif which in ("bidi_component", "plotly_chart"):
                run.charts += 1
                heat = [trace for trace in figure_of(el).get("data", []) if trace.get("type") == "heatmap"]
                run.heatmaps += len(heat)
                run.axes += [re.sub(r"[\W_]", "", "".join(map(str, trace.get(a) or []))) for trace in heat for a in "xy"]
            if inner is not None and getattr(inner, "id", ""):
                self.widgets[inner.id] = (which, delta.fragment_id)
        elif delta.HasField("add_block"):
            block = delta.add_block
            if block.HasField("tab_container") and block.tab_container.id:
                tid = block.tab_container.id
                self.widgets[tid] = ("tabs", delta.fragment_id)
                self.tab_labels[tid], self.tab_open[tid] = [], block.tab_container.default_tab_index
                self._tab_paths[path] = tid
            elif block.HasField("tab") and path[:-1] in self._tab_paths:
                self.tab_labels[self._tab_paths[path[:-1]]].append(block.tab.label)

    def _next(self, deadline: float):
        try:
            got = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        except Empty:
            raise ActionError(f"no end of the run within {self.timeout:.0f} s") from None
        if got[0] == "closed":
            raise ActionError(got[1], fatal=True)
        return got

    def drain(self, run: Run) -> None:
        """Take what arrived since the last action (late messages, errors among them)."""
        while not self.inbox.empty():
            self._count(*self._next(time.monotonic() + 1), run)

    def _count(self, size: int, msg: ForwardMsg, run: Run) -> None:
        run.messages += 1
        run.bytes += size
        self._take(msg, run)

    def until_finished(self, run: Run) -> None:
        """Take messages until a script_finished that ends the run (not one ending it early for a rerun)."""
        deadline = time.monotonic() + self.timeout
        while True:
            size, msg = self._next(deadline)
            self._count(size, msg, run)
            if msg.WhichOneof("type") == "script_finished" and msg.script_finished != EARLY:
                if msg.script_finished == COMPILE_ERROR:
                    run.errors.append("the script did not compile")
                return

    # -- what the browser sends
    def send(self, back: BackMsg) -> None:
        self.ws.send_binary(back.SerializeToString())

    def rerun(self, run: Run, *, page: str | None = None, fragment: str = "", triggers=()) -> None:
        if not fragment:            # a whole page run draws every widget again: forget the last page's
            self.widgets.clear()    # (after a busy answer its tabs are gone, and switching them must fail)
        self.send(self.rerun_msg([*self.states.values(), *triggers], page=page, fragment=fragment))
        self.until_finished(run)
        if not fragment:
            self.page_busy = run.busy

    def widget(self, key: str, kind: str) -> tuple[str, str]:
        """(id, fragment id) of the newest widget of this kind whose user key matches key: a widget's id
        ends in "-<its key>"."""
        found = [(wid, frag) for wid, (k, frag) in self.widgets.items() if k == kind and re.search(f"-{key}$", wid)]
        if not found:
            raise ActionError(f"no {kind} widget {key!r} on the page")
        return found[-1]

    # -- actions
    def open(self, run: Run) -> None:
        self.connect()
        self.rerun(run, page="")

    def type_sentence(self, text: str, run: Run) -> None:
        wid, frag = self.widget(TEXT_KEY, "text_input")
        self.states[wid] = WidgetState(id=wid, string_value=text)
        run.detail = text
        self.rerun(run, fragment=frag)
        # The open tab's heatmaps are the new sentence's: where the source is on an axis (the encoder's and
        # the cross-attention tab, SOURCE_TABS), the sentence's first word (its name) is among the labels.
        tid, _ = self.widget(TABS_KEY, "tabs")
        name = re.sub(r"[\W_]", "", text.split(",")[0])
        if self.tab_open[tid] in SOURCE_TABS and not any(name in axis for axis in run.axes):
            run.errors.append(f"the heatmaps do not show the new sentence {text!r}")

    def switch_tab(self, rng: random.Random, run: Run) -> None:
        if self.page_busy and not any(kind == "tabs" for kind, _ in self.widgets.values()):
            run.busy = True         # the page said "busy" instead of its tabs: the student has none to switch
            return
        tid, frag = self.widget(TABS_KEY, "tabs")
        labels, current = self.tab_labels[tid], self.tab_open[tid]
        choice = rng.choice([i for i in range(len(labels)) if i != current])
        self.states[tid] = WidgetState(id=tid, string_value=labels[choice])
        run.detail = labels[choice]
        self.rerun(run, fragment=frag)

    def open_tab(self, label: str, run: Run) -> None:
        tid, frag = self.widget(TABS_KEY, "tabs")
        self.states[tid] = WidgetState(id=tid, string_value=label)
        run.detail = label
        self.rerun(run, fragment=frag)

    def go(self, url_path: str, run: Run) -> None:
        if url_path not in self.pages:
            raise ActionError(f"no page {url_path!r} in the menu {sorted(self.pages)}")
        self.states.clear()                          # the old page's widgets are gone
        self.widgets.clear()
        self._tab_paths.clear()
        run.detail = url_path or "home"
        self.rerun(run, page=self.pages[url_path])

    def upload(self, name: str, data: bytes, run: Run) -> None:
        uid, frag = self.widget(UPLOADER_KEY, "file_uploader")
        request_id, back = self.file_urls_msg(name)
        self.send(back)
        deadline = time.monotonic() + self.timeout
        while request_id not in self.file_urls:
            self._count(*self._next(deadline), run)
        response = self.file_urls.pop(request_id)
        if response.error_msg or not response.file_urls:
            raise ActionError(f"no upload URL: {response.error_msg}")
        urls = response.file_urls[0]
        headers = {"X-Xsrftoken": self.http.cookies[XSRF_COOKIE]} if XSRF_COOKIE in self.http.cookies else {}
        put = self.http.put(self.base + urls.upload_url, files={"file": (name, data, "application/zip")},
                            headers=headers, timeout=self.timeout)
        if put.status_code >= 400:
            raise ActionError(f"upload PUT answered {put.status_code}: {put.text[:200]}")
        self.states[uid] = uploader_state(uid, name, len(data), urls)
        self.rerun(run, fragment=frag)

    def load_checkpoint(self, run: Run) -> None:
        bid, frag = self.widget(LOAD_KEY, "button")
        self.rerun(run, fragment=frag, triggers=[WidgetState(id=bid, trigger_value=True)])
        uid, _ = self.widget(UPLOADER_KEY, "file_uploader")
        self.states.pop(uid, None)                   # the page shows a fresh, empty uploader after a load
        if not run.success:
            run.errors.append("the model did not load (no success message)")


# ---------------------------------------------------------------- the students

@dataclass
class Plan:
    """Everything the students share: set before they start."""
    base_url: str
    deadline: float
    think: tuple[float, float]
    timeout: float
    upload_every: int
    texts: object
    query_strings: tuple[str, ...]
    upload_name: str
    upload_data: bytes
    t0: float
    seed: int
    lessons: int = 0                                 # a student leaves after this many lessons (0: at the deadline)
    attacker_data: bytes | None = None               # --attacker: the crafted checkpoint's zip
    results: list = field(default_factory=list)     # one dict per action
    active: int = 0
    started: int = 0


class Session(User):
    """One browser tab on the server: opens the home page, then acts (a Student, or the Attacker)."""
    abstract = True
    plan: Plan = None                                # set by main()
    attacker = False

    def wait_time(self):
        return self.rng.uniform(*self.plan.think)

    def on_start(self):
        plan = self.plan
        self.index = plan.started
        plan.started += 1
        plan.active += 1
        self.rng = random.Random(plan.seed * 1000 + self.index)
        self.last = None
        self.lessons = 0
        self.uploader = plan.upload_every > 0 and self.index % plan.upload_every == 0
        self.tab = Tab(plan.base_url, plan.query_strings[self.index % len(plan.query_strings)], plan.timeout)
        self.act("open", self.tab.open)

    def on_stop(self):
        self.tab.close()
        self.plan.active -= 1

    def act(self, name: str, fn, *args) -> None:
        """One timed action; a failed one is recorded with its errors (and a dead websocket ends the student)."""
        if time.monotonic() > self.plan.deadline:
            raise StopUser()
        run, late = Run(), Run()
        start, fatal = time.monotonic(), False
        try:
            self.tab.drain(late)                      # what came after the last action's run: its errors are that action's
            if late.errors and self.last is not None:
                self.last["errors"] += [f"after its run: {e}" for e in late.errors]
            start = time.monotonic()
            fn(*args, run)
        except ActionError as err:
            run.errors.append(str(err))
            fatal = err.fatal
        except (requests.RequestException, websocket.WebSocketException, OSError) as err:
            run.errors.append(f"{type(err).__name__}: {err}")
            fatal = True
        ms = 1000 * (time.monotonic() - start)
        if name in ("open", "sentence", "tab") and not run.charts and not run.errors and not run.busy:
            run.errors.append("no chart arrived")
        self.last = {"action": name, "detail": run.detail, "student": self.index, "attacker": self.attacker,
                     "t_s": round(start - self.plan.t0, 2), "ms": round(ms, 1), "messages": run.messages,
                     "kib": round(run.bytes / 1024, 1), "charts": run.charts, "heatmaps": run.heatmaps,
                     "busy": run.busy, "errors": run.errors}
        self.plan.results.append(self.last)
        self.environment.events.request.fire(request_type="WS", name=name, response_time=ms,
                                             response_length=run.bytes, context={},
                                             exception=ActionError("; ".join(run.errors)) if run.errors else None)
        if fatal:
            raise StopUser()

    def think(self) -> None:
        self.wait()


class Student(Session):
    @task
    def lesson(self):
        tab, plan = self.tab, self.plan
        if self.uploader:                             # a student with a checkpoint of their own: uploads it first
            self.uploader = False
            self.think()
            self.act("page", tab.go, MODELS)
            self.think()
            self.act("upload", tab.upload, plan.upload_name, plan.upload_data)
            self.think()
            self.act("load_checkpoint", tab.load_checkpoint)
            self.think()
            self.act("page", tab.go, HOME)
        self.think()
        self.act("sentence", tab.type_sentence, next(plan.texts))
        self.think()
        self.act("tab", tab.switch_tab, self.rng)
        self.think()
        self.act("page", tab.go, self.rng.choice([p for p in tab.pages if p != HOME]))
        self.think()
        self.act("page", tab.go, HOME)
        self.lessons += 1
        if plan.lessons and self.lessons >= plan.lessons:
            raise StopUser()


class Attacker(Session):
    """--attacker: one session that uploads the crafted model, opens the gradients tab and types long sentences
    without pausing, each new (no cache answers it), until the deadline."""
    attacker = True
    fixed_count = 1

    def on_start(self):
        self.plan.started -= 1                       # not a student: the class's count stays as it was
        self.plan.active -= 1
        super().on_start()
        self.uploader = False

    def on_stop(self):
        self.tab.close()

    def wait_time(self):
        return 0.0

    @task
    def attack(self):
        tab, plan = self.tab, self.plan
        if not getattr(self, "armed", False):
            self.act("page", tab.go, MODELS)
            self.act("upload", tab.upload, "crafted.zip", plan.attacker_data)
            self.act("load_checkpoint", tab.load_checkpoint)
            self.act("page", tab.go, HOME)
            self.act("tab", tab.open_tab, strings("en")["translate.attr.tab"])
            self.armed, self.n = True, 0
        self.n += 1
        self.act("sentence", tab.type_sentence, f"{LONG} {self.n}")


# ---------------------------------------------------------------- the server and its samples

def sample_server(pid: int | None, plan: Plan, samples: list, me: list) -> None:
    """Each second: RSS and CPU of the server's process tree, the students connected, this process's CPU."""
    root = psutil.Process(pid) if pid else None
    own = psutil.Process()
    psutil.cpu_percent()                              # the machine's CPU (100 = all cores) from here on
    last = None
    while True:
        now, rss, pss, cpu, procs = time.monotonic(), 0, 0, 0.0, []
        own_cpu = sum(own.cpu_times()[:2])
        try:
            procs = [root, *root.children(recursive=True)] if root is not None else []
            for p in procs:
                with p.oneshot():
                    mem = p.memory_full_info()      # pss: shared pages (torch's libraries) counted once
                    rss, pss = rss + mem.rss, pss + mem.pss
                    cpu += sum(p.cpu_times()[:2])
        except psutil.NoSuchProcess:
            return
        if last is not None:
            if procs:
                samples.append({"t_s": round(now - plan.t0, 2), "rss_mb": round(rss / 2 ** 20, 1),
                                "pss_mb": round(pss / 2 ** 20, 1),
                                "cpu_percent": round(100 * (cpu - last[1]) / (now - last[0]), 1),
                                "processes": len(procs), "sessions": plan.active,
                                "machine_cpu_percent": psutil.cpu_percent()})
            me.append(round(100 * (own_cpu - last[2]) / (now - last[0]), 1))
        last = (now, cpu, own_cpu)
        gevent.sleep(1.0)


def listening_pid(port: int) -> int | None:
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            return conn.pid
    return None


def process_name(pid: int | None) -> str:
    """What the sampled process is (its command's name), or why there is none."""
    if pid is None:
        return "none"
    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return "gone"


def start_server(port: int, tmp: Path, model: Path | None) -> tuple[subprocess.Popen, Path]:
    snapshot = tmp / "checkpoints"
    shutil.copytree(ROOT / "checkpoints", snapshot)
    env = {**os.environ, "ATLAS_CHECKPOINTS_DIR": str(snapshot), "ATLAS_UPLOAD_DIR": str(tmp / "uploads"),
           "ATLAS_MODELS_DIR": str(tmp / "models")}
    if model is not None:                                     # the prepared model, listed under its folder's name
        (tmp / "models").mkdir()
        (tmp / "models" / model.name).symlink_to(model.resolve())
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port)]
    with open(tmp / "server.log", "wb") as log:               # the server has its own copy of the file
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    start = time.monotonic()
    while not healthy(url):
        if proc.poll() is not None or time.monotonic() - start > 180:
            stop(proc)
            raise SystemExit(f"streamlit did not start:\n{(tmp / 'server.log').read_text()[-3000:]}")
        time.sleep(0.2)
    # as `make run`: the app runs once before the first visitor (both bundled models loaded)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "warm_up.py"), str(port)], check=True, timeout=300)
    return proc, snapshot


# ---------------------------------------------------------------- the report

def stats(rows: list) -> dict:
    ms = [r["ms"] for r in rows]
    return {"n": len(rows), "errors": sum(1 for r in rows if r["errors"]), "busy": sum(1 for r in rows if r["busy"]),
            "p50_ms": round(percentile(ms, 50), 1) if ms else None,
            "p95_ms": round(percentile(ms, 95), 1) if ms else None, "max_ms": round(max(ms), 1) if ms else None}


def summarize(results: list, samples: list, me: list) -> dict:
    attacker = [r for r in results if r.get("attacker")]
    results = [r for r in results if not r.get("attacker")]
    actions = {name: stats([r for r in results if r["action"] == name]) for name in ACTIONS}
    pages = sorted({r["detail"] for r in results if r["action"] == "page"})
    by_page = {page: stats([r for r in results if r["action"] == "page" and r["detail"] == page]) for page in pages}
    cpu = [s["cpu_percent"] for s in samples]
    machine = [s["machine_cpu_percent"] for s in samples]
    rss = [s["rss_mb"] for s in samples]
    pss = [s["pss_mb"] for s in samples]
    return {"actions": actions, "page_actions": by_page, "action_count": len(results),
            "errors": sum(1 for r in results if r["errors"]),
            "attacker": {name: stats([r for r in attacker if r["action"] == name]) for name in ACTIONS} if attacker else None,
            "attacker_errors": sorted({e for r in attacker for e in r["errors"]})[:10],
            "server": {"rss_mb_max": max(rss, default=None), "rss_mb_first": rss[0] if rss else None,
                       "rss_mb_last": rss[-1] if rss else None, "pss_mb_max": max(pss, default=None),
                       "cpu_percent_mean": round(sum(cpu) / len(cpu), 1) if cpu else None,
                       "cpu_percent_p95": round(percentile(cpu, 95), 1) if cpu else None,
                       "cpu_percent_max": max(cpu, default=None)},
            "machine_cpu_percent_mean": round(sum(machine) / len(machine), 1) if machine else None,
            "students_side_cpu_percent_mean": round(sum(me) / len(me), 1) if me else None}


def plot(report: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2, ax3) = plt.subplots(3, 1, figsize=(10, 9), sharex=True, constrained_layout=True)
    students = [r for r in report["results"] if not r["attacker"]]
    for name in ACTIONS:
        rows = [r for r in students if r["action"] == name]
        if rows:
            ax1.scatter([r["t_s"] for r in rows], [r["ms"] / 1000 for r in rows], s=12, label=name)
    attacker = [r for r in report["results"] if r["attacker"]]      # its runs, and its tries refused for its share
    if attacker:
        ax1.scatter([r["t_s"] for r in attacker], [r["ms"] / 1000 for r in attacker], s=8, marker="+", color="grey",
                    label="attacker")
    bad = [r for r in students if r["errors"]]
    if bad:
        ax1.scatter([r["t_s"] for r in bad], [r["ms"] / 1000 for r in bad], s=60, marker="x", color="red",
                    label="error")
    ax1.set_ylabel("action time (s)")
    ax1.set_yscale("log")
    ax1.legend(fontsize=8, ncol=4)
    ax1.set_title(f"{report['sessions']} sessions, {report['duration_s']:.0f} s: {report['action_count']} actions, "
                  f"{report['errors']} errors")
    samples = report["server_samples"]
    t = [s["t_s"] for s in samples]
    ax2.plot(t, [s["rss_mb"] for s in samples])
    ax2.set_ylabel("server RSS (MB)")
    ax3.plot(t, [s["cpu_percent"] for s in samples], label="server (100 = 1 core)")
    ax3.plot(t, [s["machine_cpu_percent"] for s in samples], label="machine (100 = all cores)", alpha=0.6)
    ax3.set_ylabel("CPU (%)")
    ax3.legend(fontsize=8, loc="upper left")
    sessions = ax3.twinx()
    sessions.step(t, [s["sessions"] for s in samples], where="post", color="grey", alpha=0.6)
    sessions.set_ylabel("students connected", color="grey")
    ax3.set_xlabel("time since the first student (s)")
    for ax in (ax1, ax2, ax3):
        ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=40, help="simulated students (browser tabs)")
    ap.add_argument("--duration", type=float, default=300, help="seconds during which actions start")
    ap.add_argument("--spawn-rate", type=float, default=2.0, help="students joining per second")
    ap.add_argument("--think", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN", "MAX"),
                    help="a student's pause between actions, seconds (uniform)")
    ap.add_argument("--upload-every", type=int, default=8, help="every n-th student uploads a checkpoint (0: none)")
    ap.add_argument("--timeout", type=float, default=180, help="seconds an action may take before it fails")
    ap.add_argument("--host", help="an already running server, e.g. http://127.0.0.1:8501 (else one is started)")
    ap.add_argument("--server-pid", type=int, help="with --host: the server's process, for its RSS and CPU "
                                                   "(default: whatever listens on the host's port here)")
    ap.add_argument("--port", type=int, default=0, help="port of the started server (default: a free one)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lessons", type=int, default=0,
                    help="each student leaves after this many lessons; the run ends when all have (0: at --duration)")
    ap.add_argument("--attacker", action="store_true", help="one more session repeats the heaviest accepted run of a "
                                                             "crafted model (reported apart)")
    ap.add_argument("--model", help="a prepared model's folder (python -m transformer_core hub pull ... --to, or "
                                    "quantize): every student uses it (with --host: the folder name the server lists)")
    ap.add_argument("--out", default=str(OUT / "class.json"))
    ap.add_argument("--plot", default=str(OUT / "class.png"))
    add_smoke(ap)
    args = parse_args(ap, argv, SMOKE)

    tmp = Path(tempfile.mkdtemp(prefix="bench-class-"))
    proc = None
    try:
        if args.host:
            base, folder = args.host.rstrip("/"), ROOT / "checkpoints"
            parsed = urlparse(base)
            pid = args.server_pid or (listening_pid(parsed.port or 80) if parsed.hostname in
                                      ("127.0.0.1", "localhost") else None)
        else:
            port = args.port or free_port()
            proc, folder = start_server(port, tmp, Path(args.model) if args.model else None)
            base, pid = f"http://127.0.0.1:{port}", proc.pid
        sampled = process_name(pid)        # through a proxy, what listens here is the proxy, not the app
        print(f"server {base} (sampled: pid {pid}, {sampled}); {args.sessions} students for "
              f"{f'{args.lessons} lesson(s) each, at most ' if args.lessons else ''}{args.duration:.0f} s",
              flush=True)
        env_at_start = environment()
        t0 = time.monotonic()
        plan = Plan(base_url=base, deadline=t0 + args.duration, think=tuple(args.think), timeout=args.timeout,
                    upload_every=args.upload_every, texts=sentences(bundled_examples(folder), args.seed),
                    query_strings=(f"model={Path(args.model).name}", f"lang=en&model={Path(args.model).name}")
                    if args.model else QUERY_STRINGS,
                    upload_name=f"{UPLOAD_MODEL}.zip", upload_data=checkpoint_zip(folder / UPLOAD_MODEL),
                    t0=t0, seed=args.seed, lessons=args.lessons,
                    attacker_data=crafted_zip(folder / UPLOAD_MODEL) if args.attacker else None)
        Session.plan = plan
        samples, me = [], []
        sampler = gevent.spawn(sample_server, pid, plan, samples, me)
        env = Environment(user_classes=[Student, Attacker] if args.attacker else [Student])
        runner = env.create_local_runner()
        runner.start(args.sessions + (1 if args.attacker else 0), spawn_rate=args.spawn_rate)
        if args.lessons:                              # until every student has had its lessons (or the deadline)
            while time.monotonic() < plan.deadline and (plan.started < args.sessions or plan.active > 0):
                gevent.sleep(0.5)
        else:
            gevent.sleep(args.duration)
        grace = time.monotonic() + args.timeout + args.think[1]
        while (plan.active > 0 or plan.started < args.sessions) and time.monotonic() < grace:
            gevent.sleep(0.5)
        runner.quit()
        sampler.kill()
        elapsed = time.monotonic() - t0
        # an exception a student's code did not expect (Locust logs it and goes on): counted as an error too
        crashes = [{"error": e["msg"], "count": e["count"]} for e in runner.exceptions.values()]
    finally:
        if proc is not None:
            stop(proc)
            log = Path(args.out).with_suffix(".server.log")       # the server's output, beside the report
            log.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tmp / "server.log", log)
        shutil.rmtree(tmp, ignore_errors=True)
    report = {"command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]), "host": args.host or "own server",
              "model": args.model,
              "sessions": args.sessions, "sessions_started": plan.started, "duration_s": args.duration,
              "elapsed_s": round(elapsed, 1), "spawn_rate": args.spawn_rate, "think_s": list(args.think),
              "upload_every": args.upload_every, "lessons": args.lessons, "smoke": args.smoke, "timeout_s": args.timeout,
              "load_average_at_end": os.getloadavg(),
              **summarize(plan.results, samples, me), "server_pid": pid, "server_process": sampled,
              "env": env_at_start,
              "server_samples": samples, "results": plan.results}
    report["errors"] += sum(c["count"] for c in crashes)
    students = [r for r in plan.results if not r["attacker"]]
    report["sessions_with_errors"] = len({r["student"] for r in students if r["errors"]})
    report["unexpected_exceptions"] = crashes
    report["error_messages"] = sorted({e for r in students for e in r["errors"]} | {c["error"] for c in crashes})[:50]
    path = write_result("class", report, args.out)
    plot(report, Path(args.plot))
    print(f"\n{report['sessions_started']} sessions, {report['action_count']} actions, {report['errors']} errors "
          f"({report['sessions_with_errors']} sessions with errors) in {elapsed:.0f} s")
    print(f"{'action':<16}{'n':>6}{'errors':>8}{'busy':>6}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for name, a in report["actions"].items():
        fmt = lambda v: f"{v:>10.0f}" if v is not None else f"{'-':>10}"   # noqa: E731
        print(f"{name:<16}{a['n']:>6}{a['errors']:>8}{a['busy']:>6}{fmt(a['p50_ms'])}{fmt(a['p95_ms'])}{fmt(a['max_ms'])}")
    print("page switches, by page: " + ", ".join(f"{page} {a['p50_ms']:.0f}/{a['p95_ms']:.0f} ms ({a['n']})"
                                                 for page, a in report["page_actions"].items()) + "  (p50/p95 (n))")
    s = report["server"]
    if s["rss_mb_max"] is not None:
        print(f"server ({sampled}): RSS {s['rss_mb_first']:.0f} → {s['rss_mb_last']:.0f} MB (max {s['rss_mb_max']:.0f}; PSS max "
              f"{s['pss_mb_max']:.0f}), CPU mean "
              f"{s['cpu_percent_mean']:.0f} %, p95 {s['cpu_percent_p95']:.0f} %, max {s['cpu_percent_max']:.0f} % "
              f"(100 % = one core); the students' side {report['students_side_cpu_percent_mean']} %; the machine "
              f"{report['machine_cpu_percent_mean']} % of all {os.cpu_count()} cores, load average "
              f"{report['env']['load_average_at_start'][0]:.1f} at start, {report['load_average_at_end'][0]:.1f} at end")
    if report["attacker"]:
        a = report["attacker"]["sentence"]
        print(f"attacker: {a['n']} long sentences on the crafted model, p50 {a['p50_ms']} ms, max {a['max_ms']} ms; "
              f"its errors: {report['attacker_errors'] or 'none'}")
    for msg in report["error_messages"][:10]:
        print("  error:", msg)
    print(f"wrote {path} and {args.plot}")
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
