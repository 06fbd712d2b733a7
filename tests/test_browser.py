"""End to end in a real browser: `streamlit run app.py` in a subprocess, driven by Playwright in
Debian's headless Chromium (/usr/bin/chromium, installed by `make test`; ATLAS_CHROMIUM overrides the
path; Playwright never downloads a browser).  No Chromium or no Playwright FAILS with a hint, never skips.

    home page, Korean by default   title, navigation and language box in Korean; a typed sentence + Enter
                                   draws a translation in .st-key-translation and the open tab's attention
                                   heatmaps, whose plotly data has the sentence's source pieces on both axes
    downloads                      the focus heatmap's CSV and JSON buttons give the matrix it draws
    full screen                    the charts' own button (i18n'd) fills the screen and returns
    ?lang=en                       the same in English
    every page, both languages     one pass through the sidebar navigation, no [data-testid=stException]
    markup in token text           <b>x</b> <img src=x onerror=alert(1)> typed, as an example button and in
                                   the model card: drawn as text, never as HTML (no <img>, nothing bold,
                                   no dialog) on the home page (tokens and alignment words), decoding, models
    out/screenshots/*.png          1400×1700, the home page after "I like apples." with the bundled
                                   checkpoints/ende (ATLAS_SCREENSHOTS=docs: into docs/, for the README);
                                   without it only this step is skipped, nothing written

One server and two browser tabs (ko, en: two Streamlit sessions, loading at once) serve the whole module:
a first page load costs seconds on a loaded machine.  The tests run in file order on those tabs.

Which checkpoints the server gets (ATLAS_CHECKPOINTS_DIR, read by pages/ui/model_state.py): the bundled
ones when checkpoints/ holds any, else a tiny random-init one ("toy-en", conftest's toy_pairs and model
recipe) built in tmp while the server starts.  ATLAS_BROWSER_CHECKPOINTS=toy forces the tiny one (a
checkout with local dev checkpoints).  Its tokenizer also learns the characters of HTML (conftest's
toy_spm turns "<" into <unk>), so markup reaches the axis labels and the alignment's words for real.
The server's ATLAS_ROOT is a tmp folder: the Training page follows no live log of runs/ here.
"""
from __future__ import annotations

import html
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from pages.ui.theme import token_label
from streamlit_proc import free_port, healthy, stop

ROOT = Path(__file__).resolve().parents[1]
VIEWPORT = {"width": 1400, "height": 900}
SCREENSHOT_VIEWPORT = {"width": 1400, "height": 1700}
BUNDLED_DIR = ROOT / "checkpoints"
SCREENSHOT_MODEL = "ende"
OPEN_TRIES, OPEN_WAIT_S = 3, 10           # opening the Models page's select box (choose_model)
# Written under out/ (ignored), so `make test` leaves the checkout clean; ATLAS_SCREENSHOTS=docs refreshes
# the README's pictures.
SCREENSHOT_DIR = ROOT / os.environ.get("ATLAS_SCREENSHOTS", "out/screenshots")
SCREENSHOTS = {"ko": SCREENSHOT_DIR / "screenshot.png", "en": SCREENSHOT_DIR / "screenshot_en.png"}
SENTENCE = "I like apples."
MARKUP = "<b>x</b> <img src=x onerror=alert(1)>"
HEALTH_TIMEOUT_S = 90
FIRST_RUN_TIMEOUT_S = 150       # the first script run imports torch and loads the model (a loaded 2-core box)
RUN_TIMEOUT_S = 60              # any later run


def strings(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "assets" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


I18N = {lang: strings(lang) for lang in ("ko", "en")}


def app_pages() -> list[tuple[str, str]]:
    """(URL path, i18n key) of app.py's navigation, home first (read from app.py, not imported: it
    would run Streamlit calls)."""
    import ast

    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    pages = next(ast.literal_eval(n.value) for n in ast.walk(tree)
                 if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "PAGES")
    return [(url, key) for _, url, key in pages]


PAGES = app_pages()


def bundled_names(folder: Path) -> list[str]:
    """As pages.ui.model_state.bundled_names: the folders holding a config.json, in name order."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if (p / "config.json").is_file())


# ---------------------------------------------------------------- fixtures

def build_tiny_checkpoints(root: Path, toy_pairs) -> Path:
    """conftest's toy_checkpoints recipe (toy_pairs, tiny random-init model), one checkpoint "toy-en",
    with a tokenizer that also knows the characters of HTML, examples and a model card with markup."""
    import torch

    from transformer_core.checkpoints.folder import save_checkpoint
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import train_tokenizer
    from transformer_core.model.transformer import Transformer

    spm_path = root / "spm.model"
    tok = train_tokenizer([text for pair in toy_pairs for text in pair] + [f"the cat sees {MARKUP}."],
                          spm_path, vocab_size=96)
    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=tok.vocab_size, d_model=32, n_heads=2, n_encoder_layers=2,
                      n_decoder_layers=2, d_ff=64, max_len=40, tgt_lang="de")   # MARKUP: 32 pieces
    examples = [{"src": src, "ref": ref} for src, ref in toy_pairs[:2]] + [{"src": MARKUP, "ref": "x"}]
    save_checkpoint(root / "checkpoints" / "toy-en", Transformer(cfg).eval(), spm_path, examples=examples,
                    card=f"# toy-en\n\nA card with markup: {MARKUP} <script>alert(2)</script>\n")
    return root / "checkpoints"


@contextmanager
def streamlit_server(tmp: Path, folder: Path, while_starting=lambda: None, models: Path | None = None,
                     warm: bool = True):
    """`streamlit run app.py` on a free port serving the checkpoints in folder (and the prepared models in
    models: none by default, whatever the checkout's models/ holds) -> its URL; killed on exit whatever
    happens.  while_starting() runs while the server starts (it reads the folder lazily).  warm: its first
    script run done through /_stcore/script-health-check, as the Docker HEALTHCHECK does, so that any page
    opens first without the "Page not found" notice (test_after_the_script_health_check_...): a test may run
    first on its module's server, in whatever order pytest-xdist hands a worker the tests."""
    log_path = tmp / "streamlit.log"
    env = {**os.environ, "ATLAS_CHECKPOINTS_DIR": str(folder), "ATLAS_MODELS_DIR": str(models or tmp / "no-models"),
           "ATLAS_ROOT": str(tmp),                          # training page: no live logs of runs/ in tests
           "ATLAS_UPLOAD_DIR": str(tmp / "uploads"),
           "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
           "--browser.gatherUsageStats", "false"]
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        while_starting()
        deadline = time.monotonic() + HEALTH_TIMEOUT_S
        while not healthy(url):
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited with {proc.returncode} before it was healthy:\n{tail(log_path)}")
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit not healthy after {HEALTH_TIMEOUT_S} s:\n{tail(log_path)}")
            time.sleep(0.2)
        if warm:
            urllib.request.urlopen(url + "/_stcore/script-health-check", timeout=FIRST_RUN_TIMEOUT_S).read()
        yield url
    finally:
        stop(proc)
        if proc.returncode not in (0, -signal.SIGTERM):
            print(f"streamlit exited with {proc.returncode}:\n{tail(log_path)}", file=sys.stderr)


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """The app's server for the module -> (URL, the checkpoints folder it serves): conftest's bundled_server,
    or one on the tiny checkpoint when ATLAS_BROWSER_CHECKPOINTS=toy or nothing is bundled."""
    if os.environ.get("ATLAS_BROWSER_CHECKPOINTS") != "toy" and bundled_names(BUNDLED_DIR):
        yield request.getfixturevalue("bundled_server"), BUNDLED_DIR
        return
    tmp = tmp_path_factory.mktemp("browser")

    def build():
        build_tiny_checkpoints(tmp, request.getfixturevalue("toy_pairs"))

    with streamlit_server(tmp, tmp / "checkpoints", build) as url:
        yield url, tmp / "checkpoints"


@pytest.fixture(scope="module")
def served(server) -> Path:
    """The checkpoints folder the server serves."""
    return server[1]


def tail(path: Path, n: int = 4000) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-n:]
    except OSError:
        return "(no log)"


class Session:
    """One browser tab = one Streamlit session in one language, kept for the module (a first page load costs
    seconds on a loaded machine); dialogs are recorded and dismissed, never shown."""

    def __init__(self, browser, server: str, lang: str, model: str):
        self.lang, self.server = lang, server
        self.model = model                  # this session's model: the first bundled one, see choose_model
        self.context = browser.new_context(viewport=VIEWPORT)
        self.context.set_default_timeout(RUN_TIMEOUT_S * 1000)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.opened = False
        query = "" if lang == "ko" else f"?lang={lang}"          # Korean is the default: no ?lang=
        self.page.goto(f"{server}/{query}", wait_until="commit")   # loads while the other tab works

    def home(self) -> Session:
        """The home page: the first load's end the first time, then via the sidebar navigation."""
        if not self.opened:
            self.opened = True              # a failed first load fails one test; the next ones use the nav
            wait_for_page(self.page, self.lang, "translate", FIRST_RUN_TIMEOUT_S)
        elif self.title() != I18N[self.lang]["translate.title"]:
            self.go(*PAGES[0])
        return self

    def title(self) -> str:
        h1 = self.page.query_selector("h1")
        return h1.inner_text().strip() if h1 else ""

    def click_nav(self, url_path: str) -> None:
        """The sidebar link of a page of app.PAGES (the home page's link is the server's root)."""
        index = [url for url, _ in PAGES].index(url_path)
        self.page.locator('[data-testid="stSidebarNavLink"]').nth(index).click()

    def go(self, url_path: str, key: str) -> None:
        """Click the page's link in the sidebar navigation (same session) and wait for it."""
        self.click_nav(url_path)
        wait_for_page(self.page, self.lang, key)


@pytest.fixture(scope="module")
def sessions(browser, server, served):
    """sessions(lang) -> that language's tab, on its home page.  Both tabs start loading at once."""
    opened: dict[str, Session] = {}

    def get(lang: str) -> Session:
        return opened[lang].home()

    try:
        for lang in ("ko", "en"):
            opened[lang] = Session(browser, server[0], lang, active_model(served))
        yield get
    finally:
        for s in opened.values():
            s.context.close()


# ---------------------------------------------------------------- helpers

WAIT_FOR_PAGE = """([title]) => {
    if (document.querySelector('[data-testid="stException"]')) return true;
    const app = document.querySelector('[data-testid="stApp"]');
    const h1 = document.querySelector('h1');
    return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
           && !!h1 && h1.innerText.trim() === title;
}"""


# A page is settled, as a class sees it, when its script run is over, its title is drawn, every plotly chart has
# its drawing, and nothing in the document has changed for `quiet` ms (a MutationObserver that the first poll
# installs; a new document installs its own).  It replaces fixed sleeps: an idle machine waits half a second,
# a busy one as long as its charts take.
SETTLED_JS = """(quiet) => {
  if (window.__atlasChanged === undefined) {
    window.__atlasChanged = performance.now();
    new MutationObserver(() => { window.__atlasChanged = performance.now(); }).observe(document.documentElement,
      {subtree: true, childList: true, attributes: true, characterData: true});
  }
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning' && !!document.querySelector('h1')
    && [...document.querySelectorAll('.js-plotly-plot')].every(gd => gd.querySelector('.main-svg'))
    && performance.now() - window.__atlasChanged >= quiet;
}"""


def settle(page, timeout_s: float = RUN_TIMEOUT_S, quiet_ms: int = 500) -> None:
    """Until the page is settled (SETTLED_JS)."""
    page.wait_for_function(SETTLED_JS, arg=quiet_ms, timeout=timeout_s * 1000, polling=100)


def exceptions(page) -> list[str]:
    return [e.inner_text()[:1500] for e in page.query_selector_all('[data-testid="stException"]')]


def wait_for_page(page, lang: str, key: str, timeout_s: float = RUN_TIMEOUT_S) -> None:
    """Until the page's title is drawn and its script run is over (or an exception is shown)."""
    title = I18N[lang][f"{key}.title"]
    try:
        page.wait_for_function(WAIT_FOR_PAGE, arg=[title], timeout=timeout_s * 1000, polling=100)
    except Exception as err:
        h1 = page.query_selector("h1")
        raise AssertionError(f"{key} ({lang}): no title {title!r} or run not over after {timeout_s} s "
                             f"(h1: {h1.inner_text() if h1 else None!r}, url {page.url})") from err
    assert not exceptions(page), f"{key} ({lang}): {exceptions(page)}"


def nav_labels(page) -> list[str]:
    return page.eval_on_selector_all('[data-testid="stSidebarNavLink"]',
                                     "els => els.map(a => a.innerText.trim().split('\\n').pop().trim())")


def unlabel(text: str) -> str:
    """A plotly label as the user sees it: HTML entities decoded, the zero-width spaces that keep repeated
    pieces distinct removed."""
    return html.unescape(str(text)).replace("\u200b", "")


def source_pieces(served: Path, model: str, text: str) -> list[str]:
    """The encoder's pieces for text, from the tokenizer of the checkpoint the server uses."""
    from transformer_core.explainer.translate import source_ids
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import Tokenizer

    tok = Tokenizer.load(served / model / "spm.model")
    max_len = ModelConfig.load(served / model / "config.json").max_len
    return tok.pieces(source_ids(tok, text, max_len)[0])


# The home page is done with a sentence when the run is over, the translation box has text and a drawn
# plotly chart has a heatmap with the sentence's source pieces on both axes (the encoder self-attention).
TRANSLATED = """([pieces]) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    if (document.querySelector('[data-testid="stException"]')) return true;
    const box = document.querySelector('.st-key-translation');
    if (!box || !box.innerText.trim()) return false;
    const clean = s => { const t = document.createElement('textarea'); t.innerHTML = String(s);
                         return t.value.replaceAll('\\u200b', ''); };
    const labels = v => JSON.stringify(Array.isArray(v) || ArrayBuffer.isView(v) ? [...v].map(clean) : []);
    const want = JSON.stringify(pieces);
    return [...document.querySelectorAll('.js-plotly-plot')].some(g => g._fullLayout && (g.data || []).some(
        t => labels(t.x) === want && labels(t.y) === want));
}"""

PLOTS = """() => { const list = v => Array.isArray(v) || ArrayBuffer.isView(v) ? [...v].map(String) : [];
  return [...document.querySelectorAll('.js-plotly-plot')].filter(g => g._fullLayout).map(g => ({
    traces: (g.data || []).map(t => ({type: t.type, x: list(t.x), y: list(t.y)})),
    ticks: [...g.querySelectorAll('.xaxislayer-above text, .yaxislayer-above text')].map(t => t.textContent),
    texts: [...g.querySelectorAll('svg text')].map(t => t.textContent)})); }"""


def translate(session: Session, text: str, pieces: list[str]) -> str:
    """Type text into the sentence box + Enter; wait until its translation and attention are drawn.
    Returns the translation: the box's text without its caption line."""
    page = session.page
    box = page.get_by_test_id("stTextInputField")
    box.fill(text)
    box.press("Enter")
    try:
        page.wait_for_function(TRANSLATED, arg=[[token_label(p) for p in pieces]], timeout=RUN_TIMEOUT_S * 1000,
                               polling=100)
    except Exception as err:
        raise AssertionError(f"no translation with a heatmap over the source pieces {pieces} after "
                             f"{RUN_TIMEOUT_S} s") from err
    assert not exceptions(page), exceptions(page)
    box = page.locator(".st-key-translation")
    captions = [c.strip() for c in box.locator('[data-testid="stCaptionContainer"]').all_inner_texts()]
    assert captions and captions[0].startswith(I18N[session.lang]["translate.output"].split("(")[0]), captions
    got = "\n".join(line.strip() for line in box.inner_text().splitlines()
                    if line.strip() and line.strip() not in captions)
    empty = I18N[session.lang]["translate.empty_output"].replace("*", "").replace("`", "")
    assert got and got != empty, f"no translation in the box: {box.inner_text()!r}"
    return got


def active_model(served: Path) -> str:
    """The model a new session starts on (pages.ui.model_state.active_key): the first bundled one."""
    return bundled_names(served)[0]


def model_label(served: Path, name: str, lang: str) -> str:
    """How the app names a bundled checkpoint (model_state.folder_label): by its config's languages."""
    from transformer_core.model.config import ModelConfig, base_language

    cfg = ModelConfig.load(served / name / "config.json")
    return " → ".join(I18N[lang][f"srclang.{base_language(code)}"] for code in (cfg.src_lang, cfg.tgt_lang))


def choose_model(session: Session, name: str, served: Path = BUNDLED_DIR) -> None:
    """Make a bundled checkpoint this session's model on the Models page, then back to the home page."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = session.page
    session.go("checkpoints", "models")
    label = model_label(served, name, session.lang)
    option = page.get_by_role("option", name=f"■ {label}", exact=True)
    for attempt in range(OPEN_TRIES):           # a late rerun can close the list just opened: open it again
        page.locator(".st-key-models_select input").click()
        try:
            option.wait_for(state="visible", timeout=OPEN_WAIT_S * 1000)
            break
        except PlaywrightTimeout:
            if attempt == OPEN_TRIES - 1:
                raise
            page.keyboard.press("Escape")
    option.click()
    page.wait_for_function("""([n]) => document.querySelector('[data-testid="stApp"]')
        .getAttribute('data-test-script-state') === 'notRunning'
        && document.querySelector('.st-key-models_select input')?.value.endsWith(n)""", arg=[label], polling=100)
    session.model = name
    session.go(*PAGES[0])


def screenshot(session: Session, served: Path) -> None:
    """docs/screenshot(_en).png: the home page after SENTENCE with the bundled ende model.  Without that model
    only this step is skipped (nothing written); the test's own checks have run already."""
    path = SCREENSHOTS[session.lang]
    if served != BUNDLED_DIR or SCREENSHOT_MODEL not in bundled_names(served):
        print(f"no bundled checkpoints/{SCREENSHOT_MODEL}: {path.name} not written", file=sys.stderr)
        return
    page = session.page
    if session.model != SCREENSHOT_MODEL:
        choose_model(session, SCREENSHOT_MODEL)
        translate(session, SENTENCE, source_pieces(served, SCREENSHOT_MODEL, SENTENCE))
    page.set_viewport_size(SCREENSHOT_VIEWPORT)               # tall enough to show the heatmap grid
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.mouse.move(SCREENSHOT_VIEWPORT["width"] - 1, SCREENSHOT_VIEWPORT["height"] - 1)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.wait_for_function("""() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
        .every(c => c.querySelector('.js-plotly-plot') && c.querySelector('.js-plotly-plot')._fullLayout)""",
                           polling=100)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), animations="disabled")     # e.g. the input's focus colour fading out
    page.set_viewport_size(VIEWPORT)


def assert_no_markup_rendered(session: Session, where: str) -> None:
    """No element made from the text: no <img src=x>, no onerror, no <b>x</b> (HTML or plotly bold), no dialog."""
    found = session.page.evaluate("""() => ({
        img: [...document.querySelectorAll('img')].filter(i => i.getAttribute('src') === 'x').length,
        onerror: document.querySelectorAll('[onerror]').length,
        script: [...document.querySelectorAll('script')].filter(s => s.textContent.includes('alert(')).length,
        bold: [...document.querySelectorAll('b, strong')].filter(b => b.textContent.trim() === 'x').length,
        svg_bold: [...document.querySelectorAll('svg tspan')].filter(t => t.textContent === 'x'
                   && /bold/.test(t.getAttribute('style') || '')).length})""")
    assert found == {"img": 0, "onerror": 0, "script": 0, "bold": 0, "svg_bold": 0}, (where, found)
    assert not session.dialogs, (where, session.dialogs)


# ---------------------------------------------------------------- tests

def test_home_page_in_korean_translates_and_draws_the_attention(sessions, served):
    ko = sessions("ko")                                   # no ?lang=: Korean is the default
    page = ko.page
    assert ko.title() == I18N["ko"]["translate.title"]
    assert nav_labels(page) == [I18N["ko"][f"nav.{key}"] for _, key in PAGES]
    assert page.locator(".st-key-lang input").input_value() == I18N["ko"]["lang.ko"]
    pieces = source_pieces(served, ko.model, SENTENCE)
    assert translate(ko, SENTENCE, pieces)

    plots = page.evaluate(PLOTS)
    assert plots, "no plotly chart drawn"
    # the heatmaps over the source (encoder self-attention, the open tab): every trace's axes are the pieces,
    # and what plotly drew on those axes (it may leave some category ticks out) is among them
    labels = [token_label(p) for p in pieces]            # as every axis writes them: '▁' as the word-start mark
    source = [p for p in plots if p["traces"] and all([unlabel(s) for s in t["x"]] == labels
                                                      and [unlabel(s) for s in t["y"]] == labels for t in p["traces"])]
    assert source, [[t["x"] for t in p["traces"]] for p in plots]
    drawn = [t.replace("\u200b", "") for p in source for t in p["ticks"]]
    assert drawn and set(drawn) <= set(labels), drawn
    assert labels[0] in drawn, drawn                     # <s>: a piece that looks like markup, drawn as text
    assert_no_markup_rendered(ko, "home")
    screenshot(ko, served)


def download(page, key: str) -> tuple[str, bytes]:
    """Click the download button st.download_button(key=key) -> (file name, contents)."""
    with page.expect_download() as info:
        page.locator(f".st-key-{key} button").click()
    got = info.value
    return got.suggested_filename, Path(got.path()).read_bytes()


def test_the_focus_heatmap_downloads_the_numbers_it_draws(sessions, served):
    """After the first test's sentence: the open tab's focus heatmap (encoder self-attention, layer 1, head 1)
    as CSV and JSON.  Both hold the drawn matrix at full precision (the figure's z is rounded to 4
    decimals), with the pieces as row and column labels; each row is a softmax, summing to 1."""
    import io

    import numpy as np
    import pandas as pd

    ko = sessions("ko")
    page = ko.page
    pieces = source_pieces(served, ko.model, SENTENCE)
    z = page.evaluate("""() => document.querySelector('.st-key-tr_focus_enc_self .js-plotly-plot').data[0].z
                             .map(row => [...row])""")
    name, csv = download(page, "tr_focus_dl_enc_self_csv")
    assert name == "attention-atlas_home_enc_self_L1_H1_ko.csv", name
    frame = pd.read_csv(io.BytesIO(csv), index_col=0)
    assert [unlabel(p) for p in frame.index] == pieces and [unlabel(p) for p in frame.columns] == pieces
    assert np.abs(frame.to_numpy() - np.array(z, dtype=float)).max() <= 5e-5
    assert np.allclose(frame.to_numpy().sum(axis=1), 1.0, atol=1e-5)
    name, raw = download(page, "tr_focus_dl_enc_self_json")
    assert name.endswith("_L1_H1_ko.json")
    data = json.loads(raw)["data"]
    assert np.array_equal(np.array(data["data"]), frame.to_numpy()) and data["index"] == list(frame.index)


def test_a_chart_goes_full_screen_and_back(sessions, served):
    """The charts' own full-screen button (pages.ui.live_chart, labelled from the i18n files): the focus
    heatmap fills the screen, then returns to its own height."""
    ko = sessions("ko")
    page = ko.page
    plot = page.locator(".st-key-tr_focus_enc_self .js-plotly-plot")
    height = page.wait_for_function("""() => { const g = document.querySelector(
        '.st-key-tr_focus_enc_self .js-plotly-plot'); return g && g._fullLayout && g._fullLayout.height; }""",
                                    polling=100).json_value()
    plot.hover()
    page.locator(f'.st-key-tr_focus_enc_self .modebar-btn[data-title="{I18N["ko"]["common.fullscreen"]}"]').click()
    page.wait_for_function("""() => { const g = document.querySelector('.st-key-tr_focus_enc_self .js-plotly-plot');
        return document.fullscreenElement === g && g._fullLayout.height === window.innerHeight; }""", polling=100)
    page.evaluate("() => document.exitFullscreen()")
    page.wait_for_function("""([h]) => { const g = document.querySelector('.st-key-tr_focus_enc_self .js-plotly-plot');
        return !document.fullscreenElement && g._fullLayout.height === h; }""", arg=[height], polling=100)


def test_english_ui_with_lang_en(sessions, served):
    en = sessions("en")
    page = en.page
    assert en.title() == I18N["en"]["translate.title"]
    assert nav_labels(page) == [I18N["en"][f"nav.{key}"] for _, key in PAGES]
    assert page.locator(".st-key-lang input").input_value() == I18N["en"]["lang.en"]
    assert translate(en, SENTENCE, source_pieces(served, en.model, SENTENCE))
    screenshot(en, served)


def test_every_page_opens_without_an_exception_in_both_languages(sessions, served):
    """One pass through the navigation in two tabs at once (ko, en): click both, then wait for both."""
    from transformer_core.checkpoints.files import CARD

    tabs = [sessions("ko"), sessions("en")]
    for url_path, key in PAGES[1:]:
        for s in tabs:
            s.click_nav(url_path)
        for s in tabs:
            t0 = time.monotonic()
            wait_for_page(s.page, s.lang, key)
            print(f"{s.lang} {url_path}: {time.monotonic() - t0:.1f} s", file=sys.stderr)
            assert_no_markup_rendered(s, f"{url_path} ({s.lang})")
            if s.lang == "en":
                assert "lang=en" in s.page.url, (url_path, s.page.url)
            card = served / s.model / CARD
            if url_path == "checkpoints" and card.is_file() and MARKUP in card.read_text(encoding="utf-8"):
                assert MARKUP in s.page.inner_text("body"), "the model card's HTML is not shown as text"


def test_markup_in_tokens_is_shown_as_text(sessions, served):
    ko = sessions("ko")
    page = ko.page
    model = ko.model
    pieces = source_pieces(served, model, MARKUP)
    assert translate(ko, MARKUP, pieces)
    assert_no_markup_rendered(ko, "home, token view")
    # example buttons (markdown-escaped) show their markup as text
    examples_file = served / model / "examples.json"
    examples = json.loads(examples_file.read_text()) if examples_file.is_file() else []
    if any(e.get("src") == MARKUP for e in examples):
        assert page.get_by_role("button", name=MARKUP, exact=True).count() == 1
    # the alignment tab writes the source WORDS: with a tokenizer that knows every character of MARKUP
    # (the tiny one), the words "<b>x</b>" and "onerror=alert(1)>" must be drawn literally, not as bold "x"
    page.get_by_role("tab", name=I18N["ko"]["translate.align.tab"]).click()
    knows_markup = "<unk>" not in pieces and any("<" in p for p in pieces)     # the tiny model: yes
    words = ["<b>x</b>", "onerror=alert(1)>"] if knows_markup else []
    try:
        page.wait_for_function("""([words]) => {
            const app = document.querySelector('[data-testid="stApp"]');
            if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
            const g = [...document.querySelectorAll('.js-plotly-plot')].find(
                g => g._fullLayout && (g.data || []).some(t => t.mode === 'text'));   // the words, as scatter text
            if (!g) return false;
            const texts = [...g.querySelectorAll('svg text')].map(t => t.textContent);
            return words.every(w => texts.includes(w)); }""",
                               arg=[words], timeout=RUN_TIMEOUT_S * 1000, polling=100)
    except Exception as err:
        texts = page.eval_on_selector_all(".js-plotly-plot svg text", "els => els.map(t => t.textContent)")
        raise AssertionError(f"alignment words {words} not drawn as text; drawn: {texts}") from err
    assert not exceptions(page), exceptions(page)
    assert_no_markup_rendered(ko, "home, alignment")
    # the sentence is shared: the decoding page lists its pieces and the output step by step
    ko.go(*PAGES[1])
    assert_no_markup_rendered(ko, PAGES[1][0])


def test_a_gold_sentence_button_loads_that_sentence_and_its_alignment(sessions, served):
    """The alignment tab offers sentences with a gold alignment, the lecture's first; its button sits in a
    fragment, yet it must load the sentence into the box, translate it and show the gold overlay."""
    from transformer_core.checkpoints.load import load_checkpoint

    en = sessions("en")
    page = en.page
    assert load_checkpoint(served / en.model).gold, f"{en.model} ships no gold_alignments.tsv"
    other = "My sister reads a book."
    translate(en, other, source_pieces(served, en.model, other))
    page.get_by_role("tab", name=I18N["en"]["translate.align.tab"]).click()
    button = page.locator(".st-key-tr_gold_0 button")
    button.wait_for()
    assert button.inner_text().strip() == SENTENCE
    button.click()
    page.wait_for_function("""([s]) => document.querySelector('[data-testid="stApp"]')
        .getAttribute('data-test-script-state') === 'notRunning'
        && document.querySelector('[data-testid="stTextInputField"]').value === s""", arg=[SENTENCE],
                           timeout=RUN_TIMEOUT_S * 1000, polling=100)
    gold_target = load_checkpoint(served / en.model).gold[SENTENCE][0]
    page.locator(".st-key-translation").get_by_text(gold_target, exact=True).wait_for()
    shown = I18N["en"]["translate.gold.shown"].split("{")[0].strip()
    page.get_by_text(shown).first.wait_for()                  # the gold overlay and the heads that align it best
    assert not exceptions(page), exceptions(page)


HISTORY_DRAWN = """() => { const g = document.querySelector('.st-key-fig_train_history .js-plotly-plot');
    if (!g || !g._fullData || !g._fullData[0] || !g._fullData[2]) return null;
    return {z: Array.from(g._fullData[0].z, r => Array.from(r)), step: Number(g._fullData[2].x[0])}; }"""


def test_the_training_replay_plays_in_the_browser(sessions, served):
    """The Training page's "attention being learned": ▶ moves the heatmap and the loss marker step by step,
    in a real browser, to the last record (the exported weights), where it stops.  With
    ATLAS_SCREENSHOTS=docs it also refreshes docs/replay_first.png and docs/replay_last.png."""
    from transformer_core.explainer import history

    en = sessions("en")
    page = en.page
    hist = history.load(served / en.model / history.HISTORY)
    assert hist is not None and hist.steps[0] == 0 and len(hist.steps) >= 10
    en.go("train", "training")
    play = page.locator(".st-key-train_hist_play button")
    play.scroll_into_view_if_needed()
    page.wait_for_function(HISTORY_DRAWN, polling=100)
    first = page.evaluate(HISTORY_DRAWN)
    assert first["step"] == 0
    shot("replay_first.png", page, ".st-key-fig_train_history")
    assert play.inner_text().strip() == I18N["en"]["training.hist.play"]
    play.click()
    page.wait_for_function(f"() => {{ const d = ({HISTORY_DRAWN})(); return d && d.step > 0; }}",
                           timeout=RUN_TIMEOUT_S * 1000, polling=100)
    moving = page.evaluate(HISTORY_DRAWN)
    assert moving["z"] != first["z"]                       # the heatmap moved with the marker
    page.wait_for_function(f"() => {{ const d = ({HISTORY_DRAWN})(); return d && d.step === {hist.steps[-1]}; }}",
                           timeout=RUN_TIMEOUT_S * 1000, polling=100)
    page.wait_for_function("([label]) => document.querySelector('.st-key-train_hist_play button')"
                           "?.innerText.trim() === label", arg=[I18N["en"]["training.hist.play"]], polling=100)
    last = page.evaluate(HISTORY_DRAWN)
    assert last["z"] != first["z"] and not exceptions(page), exceptions(page)
    shot("replay_last.png", page, ".st-key-fig_train_history")


LOG_LINES = """() => { const g = document.querySelector('.st-key-fig_log_ckpt .js-plotly-plot');
    return g && g.layout ? (g.layout.shapes || []).filter(s => s.type === 'line').map(s => s.x0) : null; }"""


def test_a_fine_tuned_models_log_marks_where_each_run_began(sessions, served):
    """The Training page on a model fine-tuned from another (its log goes on from its base's): a dashed line
    where each later run began, on the loss, BLEU and speed panels, numbered where the number fits, named in
    the legend; a model trained in one run has none.  With ATLAS_SCREENSHOTS=docs it refreshes docs/training_rounds.png."""
    from transformer_core.training.trainlog import round_starts_of

    en = sessions("en")
    starts = {name: round_starts_of(served / name) for name in bundled_names(served)}
    assert any(starts.values()), "no bundled model was fine-tuned from another"
    first = en.model
    try:
        for name in sorted(starts, key=lambda n: n != first):          # the session's own model first
            if name != en.model:
                choose_model(en, name, served)
            en.go("train", "training")
            en.page.wait_for_function(f"() => {{ const l = ({LOG_LINES})(); return l && l.length === "
                                      f"{3 * len(starts[name])}; }}", polling=100)
            assert sorted(en.page.evaluate(LOG_LINES)) == sorted(starts[name] * 3)
            caption = en.page.get_by_text(I18N["en"]["training.log.round_start"])   # the legend's entry (#42)
            assert (caption.count() >= 1) == bool(starts[name]), caption.count()
            if starts[name]:
                shot("training_rounds.png", en.page, ".st-key-fig_log_ckpt")
    finally:
        if en.model != first:
            choose_model(en, first, served)
    assert not exceptions(en.page), exceptions(en.page)


def shot(name: str, page, selector: str) -> None:
    """A screenshot of one element into SCREENSHOT_DIR (out/screenshots, or docs/ with ATLAS_SCREENSHOTS=docs)."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.locator(selector).screenshot(path=str(SCREENSHOT_DIR / name), animations="disabled")


MASKED_DRAWN = """([name]) => { const g = document.querySelector('.st-key-tr_focus_dec_self .js-plotly-plot');
    if (!g || !g._fullData) return null;
    const cover = g._fullData.find(t => t.name === name);
    return cover ? Array.from(cover.z, r => Array.from(r, v => v === null || Number.isNaN(v) ? 0 : 1)) : null; }"""
TOPK_DRAWN = """() => { const g = document.querySelector('.st-key-dec_topk .js-plotly-plot');
    return g && g._fullData ? Array.from(g._fullData[0].text) : null; }"""


def test_the_decoders_future_is_drawn_masked_and_small_probabilities_keep_their_digits(sessions, served):
    """The masked decoder self-attention draws its upper triangle in the mask grey (not as weights of 0);
    the decoding page's top-k bars each print their probability with digits and its log-probability."""
    en = sessions("en")
    page = en.page
    translate(en, SENTENCE, source_pieces(served, en.model, SENTENCE))
    page.get_by_role("tab", name=I18N["en"]["attn.kind.dec_self"]).click()
    name = html.escape(I18N["en"]["translate.masked"], quote=False)
    page.wait_for_function(f"() => ({MASKED_DRAWN})([{json.dumps(name)}]) !== null", polling=100)
    cover = page.evaluate(MASKED_DRAWN, [name])
    n = len(cover)
    assert n > 2 and cover == [[int(j > i) for j in range(n)] for i in range(n)]
    en.go("decode", "decoding")
    page.wait_for_function(f"() => ({TOPK_DRAWN})() !== null", polling=100)
    texts = page.evaluate(TOPK_DRAWN)
    assert len(texts) == 5 and all("(log " in text and float(text.split(" ")[0]) > 0 for text in texts), texts


def test_what_if_decoding_and_sampling_in_the_browser(sessions, served):
    """On the decoding page: typing a forced beginning shows the model's continuation from it (the
    sampling controls are checked with AppTest, tests/test_pages.py)."""
    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer.translate import continue_from
    from transformer_core.explainer.translate import translate as model_translate

    en = sessions("en")
    page = en.page
    en.go("decode", "decoding")
    ckpt = load_checkpoint(served / en.model)
    sentence = page.get_by_test_id("stTextInputField").first.input_value()
    # a click on the translation's second token: its first token stays, the second is step 2's second choice
    from transformer_core.serving import runs
    base = runs.greedy_steps(ckpt, sentence)
    if len(base["steps"]) > 1:
        forced = runs.greedy_steps(ckpt, sentence, (base["ids"][0], base["steps"][1]["topk_ids"][1]))
        page.locator(".st-key-dec_whatif_step button").nth(1).click()
        page.get_by_text(" ".join(forced["text"].split()), exact=True).first.wait_for()
    beginning = model_translate(ckpt, sentence, beam=1).text.split()[0] + " "
    box = page.locator(".st-key-dec_whatif_text input")
    box.fill(beginning + "x")
    box.press("Enter")
    want = continue_from(ckpt, sentence, beginning + "x").text
    page.get_by_text(want, exact=True).first.wait_for()
    assert not exceptions(page), exceptions(page)
    page.wait_for_function("() => !!document.querySelector('.st-key-dec_whatif_cross .js-plotly-plot')?._fullLayout")
    shot("whatif.png", page, ".st-key-dec_whatif_cross")


ATTR_ROWS = """() => { const g = document.querySelector('.st-key-tr_attr_fig .js-plotly-plot');
    return g && g._fullData && g._fullData[0] ? Array.from(g._fullData[0].z, r => Array.from(r).reduce((a, b) => a + b, 0))
                                              : null; }"""
SAMPLE_STAGES = """() => { const g = document.querySelector('.st-key-dec_sample_dist .js-plotly-plot');
    return g && g._fullData && g._fullData.length === 4 ? g._fullData.map(t => Array.from(t.x).filter(v => v > 0).length)
                                                      : null; }"""


def test_gradients_tab_and_the_sampling_filters_in_the_browser(sessions, served):
    """The home page's 'gradients vs attention' tab draws rows of shares (each sums to 1) and, on the
    lecture's sentence with its gold alignment, the AER line; on the decoding page, moving the top-k slider
    with the keyboard leaves that many tokens after top-k.  Screenshots: attribution.png, sampling.png."""
    en = sessions("en")
    page = en.page
    translate(en, SENTENCE, source_pieces(served, en.model, SENTENCE))
    page.get_by_role("tab", name=I18N["en"]["translate.attr.tab"]).click()
    page.wait_for_function(f"() => ({ATTR_ROWS})() !== null", timeout=RUN_TIMEOUT_S * 1000, polling=100)
    rows = page.evaluate(ATTR_ROWS)
    assert len(rows) > 1 and all(abs(r - 1) < 2e-3 for r in rows), rows
    page.get_by_text(I18N["en"]["translate.attr.agree"].split("**")[1]).first.wait_for()
    page.get_by_text(I18N["en"]["translate.attr.aer"].split("**")[1]).first.wait_for()
    shot("attribution.png", page, ".st-key-tr_attr_fig")
    en.go("decode", "decoding")
    page.wait_for_function(f"() => ({SAMPLE_STAGES})() !== null", polling=100)
    thumb = page.locator('.st-key-dec_topk_k input[type=range]')          # the slider's own input
    thumb.scroll_into_view_if_needed()
    thumb.focus()
    for _ in range(3):
        thumb.press("ArrowRight")
    page.wait_for_function(f"() => {{ const n = ({SAMPLE_STAGES})(); return n && n[2] === 3 && n[3] <= 3; }}",
                           timeout=RUN_TIMEOUT_S * 1000, polling=100)
    assert not exceptions(page), exceptions(page)
    shot("sampling.png", page, ".st-key-dec_sample_dist")


def test_words_the_model_never_saw_are_named_with_their_counts(sessions, served):
    """A sentence with a word the model's training source never had: the home page names it, with its count,
    above the translation.  Screenshot: unseen_words.png."""
    from transformer_core.checkpoints import seen
    from transformer_core.checkpoints.load import load_checkpoint

    en = sessions("en")
    page = en.page
    ckpt = load_checkpoint(served / en.model)
    sentence = "My grandmother owns a zeppelin."
    rare = seen.unfamiliar(ckpt.words, sentence)
    assert ("zeppelin", 0) in rare, rare
    translate(en, sentence, source_pieces(served, en.model, sentence))
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="zeppelin (0)")
    alert.first.wait_for()
    assert all(f"{w} ({n:,})" in alert.first.inner_text() for w, n in rare)
    shot("unseen_words.png", page, '[data-testid="stAlert"]:has-text("zeppelin (0)")')


# An everyday sentence each bundled model translates with a token under confidence.THRESHOLD (beam 4).
UNSURE = {"enko": "I have a math test on Friday.", "ende": "We are reading a story about a brave girl."}


def test_the_least_certain_tokens_are_marked_in_both_languages(sessions, served):
    """The translation's tokens under confidence.THRESHOLD are highlighted in italics, a run of them as one mark
    (its text unchanged), and named with their probabilities in a note beside the unseen words.
    Screenshots: uncertain_tokens(_en).png."""
    from itertools import groupby

    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.explainer import confidence
    from transformer_core.serving import runs

    for lang in ("ko", "en"):
        session = sessions(lang)
        page = session.page
        ckpt = load_checkpoint(served / session.model)
        sentence = UNSURE[session.model]
        res = runs.translation(ckpt, sentence, ckpt.beam_options["beam"], ())    # the page's default: beam search
        flagged = confidence.uncertain(res["probs"])
        assert flagged, "the model is sure of every token: choose another sentence"
        assert translate(session, sentence, source_pieces(served, session.model, sentence)) == res["text"]
        runs_of_flagged = [list(run) for mark, run in groupby(range(len(res["probs"])), lambda i: i in flagged) if mark]  # noqa: B023 called within the iteration
        marks = page.locator(".st-key-translation h3 em")
        assert marks.all_inner_texts() == ["".join(res["token_texts"][i] for i in run).strip() for run in runs_of_flagged]
        note = page.locator('[data-testid="stAlert"]').filter(has_text=I18N[lang]["translate.uncertain"].split(":**")[0][2:])
        text = note.inner_text()
        assert all(f"{token_label(res['pred_pieces'][i])} ({res['probs'][i]:.2f})" in text for i in flagged), text
        assert f"{confidence.THRESHOLD}" in text
        page.set_viewport_size(SCREENSHOT_VIEWPORT)               # the box and the note both in view
        box, bottom = page.locator(".st-key-translation").bounding_box(), note.bounding_box()
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT_DIR / f"uncertain_tokens{'' if lang == 'ko' else '_en'}.png"),
                        clip={"x": box["x"], "y": box["y"], "width": box["width"],
                              "height": bottom["y"] + bottom["height"] - box["y"]}, animations="disabled")
        page.set_viewport_size(VIEWPORT)


def test_after_the_script_health_check_a_bookmarked_page_opens_without_a_notice(browser, served, tmp_path):
    """A fresh server, as a school's container after a restart.  Its first script run goes through Streamlit's
    older pages/ mode, where our URLs do not exist: a first visit to /attention-masks would show the
    "Page not found" notice.  /_stcore/script-health-check (the Docker HEALTHCHECK; on in
    .streamlit/config.toml) runs that first run in a throwaway session, so the visitor gets the page alone."""
    url_path, key = next((u, k) for u, k in PAGES if u == "attention-masks")
    with streamlit_server(tmp_path, served, warm=False) as url:
        with urllib.request.urlopen(url + "/_stcore/script-health-check", timeout=FIRST_RUN_TIMEOUT_S) as r:
            assert (r.status, r.read()) == (200, b"ok")
        ctx = browser.new_context(viewport=VIEWPORT)
        try:
            page = ctx.new_page()
            page.goto(f"{url}/{url_path}?lang=en")
            wait_for_page(page, "en", key)
            assert "does not seem to exist" not in page.inner_text("body")
        finally:
            ctx.close()


# where each word of the alignment figure and each cell of the head grid sits on the page (CSS pixels)
POINTS = """([sel]) => { const g = document.querySelector(sel + ' .js-plotly-plot');
    if (!g || !g._fullLayout || !g.__atlasFocus) return null;
    const box = g.getBoundingClientRect(), xa = g._fullLayout.xaxis, ya = g._fullLayout.yaxis;
    const at = (x, y) => [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(y)];
    const focus = g.layout.meta.focus;
    if (focus.kind === 'grid') return {focus: focus, grid: g.layout.meta.grid, origin: at(0, 0),
                                      step: [xa.l2p(1) - xa.l2p(0), ya.l2p(1) - ya.l2p(0)]};
    return {focus: focus, src: Array.from(g.data[focus.src].y, y => at(0, y)),
            tgt: Array.from(g.data[focus.tgt].y, y => at(1, y))}; }"""
# per line trace of the alignment: how many segments it draws now; the words' selectedpoints
LINES_NOW = """() => { const g = document.querySelector('.st-key-tr_align_fig .js-plotly-plot');
    const f = g.layout.meta.focus;
    return {segments: f.bins.map(([trace]) => g.data[trace].y.length / 3),
            src: g.data[f.src].selectedpoints ?? null, tgt: g.data[f.tgt].selectedpoints ?? null}; }"""
COVER_NOW = """() => { const g = document.querySelector('.st-key-tr_grid_enc_self .js-plotly-plot');
    const f = g.layout.meta.focus;
    return {cover: Array.from(g.data[f.trace].z || [], r => Array.from(r, v => v === null ? 0 : 1)),
            base: Array.from(g.data[0].z, r => Array.from(r, v => v === null ? 0 : 1))}; }"""


def test_resting_on_a_token_keeps_its_lines_and_cells(sessions, served):
    """BertViz's head view: in the alignment view, the pointer on a source word keeps only that word's
    lines (the other words fade), and away from it every line is back; a tap keeps it until a second tap
    (a projector has no pointer).  In the head grid, the pointer on a cell keeps that query token's row in
    every head of its layer and covers every other cell.  ATLAS_SCREENSHOTS=docs refreshes
    docs/focus_alignment.png and docs/focus_grid.png."""
    en = sessions("en")
    page = en.page
    translate(en, SENTENCE, source_pieces(served, en.model, SENTENCE))
    # the head grid of the encoder self-attention (the open tab)
    page.wait_for_function(f"() => ({POINTS})(['.st-key-tr_grid_enc_self']) !== null", polling=100)
    page.locator(".st-key-tr_grid_enc_self").scroll_into_view_if_needed()      # the pointer needs it on screen
    grid = page.evaluate(POINTS, [".st-key-tr_grid_enc_self"])
    L, H, Tq, Tk, gr, gc = grid["grid"]
    groups = grid["focus"]["groups"]
    pr, pc, q, k = 0, min(1, len(groups[0]) - 1), 1, 2                   # panel row 0, second panel, query 1
    x = grid["origin"][0] + (pc * (Tk + gc) + k) * grid["step"][0]
    y = grid["origin"][1] + (pr * (Tq + gr) + q) * grid["step"][1]
    page.mouse.move(x, y)
    page.wait_for_function(f"() => ({COVER_NOW})().cover.length > 0", polling=100)
    now = page.evaluate(COVER_NOW)
    layer = groups[pr][pc]
    for r, row in enumerate(now["base"]):
        for c, drawn in enumerate(row):
            rp, cp = r // (Tq + gr), c // (Tk + gc)
            kept = r - rp * (Tq + gr) == q and groups[rp][cp] == layer
            assert now["cover"][r][c] == (drawn and not kept), (r, c)
    assert sum(now["base"][r][c] and not now["cover"][r][c] for r in range(len(now["base"]))
               for c in range(len(now["base"][0]))) == Tk * sum(g == layer for row in groups for g in row)
    shot("focus_grid.png", page, ".st-key-tr_grid_enc_self")
    page.mouse.move(5, 5)
    page.wait_for_function(f"() => ({COVER_NOW})().cover.length === 0", polling=100)
    # the alignment view
    page.get_by_role("tab", name=I18N["en"]["translate.align.tab"]).click()
    page.wait_for_function(f"() => ({POINTS})(['.st-key-tr_align_fig']) !== null", polling=100)
    page.locator(".st-key-tr_align_fig").scroll_into_view_if_needed()
    pos = page.evaluate(POINTS, [".st-key-tr_align_fig"])
    everything = page.evaluate(LINES_NOW)["segments"]
    links = [link for _, trace_links in pos["focus"]["bins"] for link in trace_links]
    j = max(range(len(pos["src"])), key=lambda s: sum(1 for _, js in links if js == s))   # the word with most lines
    own = [sum(1 for _, js in trace_links if js == j) for _, trace_links in pos["focus"]["bins"]]
    assert 0 < sum(own) < sum(everything)
    page.mouse.move(*pos["src"][j])
    page.wait_for_function(f"([want]) => JSON.stringify(({LINES_NOW})().segments) === JSON.stringify(want)",
                           arg=[own], polling=100)
    assert page.evaluate(LINES_NOW)["src"] == [j]
    shot("focus_alignment.png", page, ".st-key-tr_align_fig")
    page.mouse.move(5, 5)
    page.wait_for_function(f"([want]) => JSON.stringify(({LINES_NOW})().segments) === JSON.stringify(want)",
                           arg=[everything], polling=100)
    # a tap on a target word keeps its lines after the pointer leaves; a second tap lets go
    i = len(pos["tgt"]) - 2                                   # the last word before </s>
    mine = [sum(1 for is_, _ in trace_links if is_ == i) for _, trace_links in pos["focus"]["bins"]]
    page.mouse.click(*pos["tgt"][i])
    page.mouse.move(5, 5)
    page.wait_for_timeout(300)
    assert page.evaluate(LINES_NOW)["segments"] == mine
    page.mouse.click(*pos["tgt"][i])
    page.mouse.move(5, 5)
    page.wait_for_function(f"([want]) => JSON.stringify(({LINES_NOW})().segments) === JSON.stringify(want)",
                           arg=[everything], polling=100)
    assert not exceptions(page), exceptions(page)
