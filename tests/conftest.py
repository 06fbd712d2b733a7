"""Make the repository root importable (transformer_core, pages.ui) for every test."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_configure(config):
    """The app's runs get ATLAS_COMPUTE_TIMEOUT_S = 120 s here, in AppTest and in the servers the tests start
    (their environment is this one), unless the caller set one: a class's 30 s is a bound for a served machine,
    not for one whose cores the suite's own workers share (on four workers a long sentence's integrated
    gradients passed the 30 s).  The tests of the bound make pools of their own.

    Every AppTest run scans all installed distributions for Streamlit components (0.13 s a run, hundreds of
    runs a suite). The installed packages do not change while the tests run, so the scan is made once per test
    process; its answer is the same.

    Every AppTest run also compiles app.py and its page anew (a fresh ScriptCache a run: Streamlit's magic
    rewrites the script's syntax tree first), 5 s of tests/test_pages.py's and test_page_marian.py's 86 s.
    The compiled code is kept per test process, for the file as it is (its path, modification time and size)."""
    import functools
    import os

    from streamlit import config as streamlit_config
    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    os.environ.setdefault("ATLAS_COMPUTE_TIMEOUT_S", "120")

    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)

    compiled, compile_script = {}, ScriptCache.get_bytecode

    def get_bytecode(self, script_path: str):
        stat = os.stat(script_path)
        key = (os.path.abspath(script_path), stat.st_mtime_ns, stat.st_size,
               streamlit_config.get_option("runner.magicEnabled"))
        if key not in compiled:
            compiled[key] = compile_script(self, script_path)
        return compiled[key]
    ScriptCache.get_bytecode = get_bytecode


# --- Core test fixtures (tests/test_checkpoint.py, tests/test_train.py) ----------------------

import itertools  # noqa: E402

import pytest  # noqa: E402

_SUBJECTS = [("the cat", "die katze"), ("the dog", "der hund"), ("the man", "der mann"),
             ("the woman", "die frau"), ("the child", "das kind")]
_VERBS = [("sees", "sieht"), ("likes", "mag"), ("finds", "findet"), ("hears", "hört")]
_OBJECTS = [("the house", "das haus"), ("the apple", "den apfel"), ("the book", "das buch"),
            ("the car", "das auto"), ("the tree", "den baum")]


@pytest.fixture(scope="session")
def toy_pairs() -> list[tuple[str, str]]:
    """100 generated en -> de sentence pairs of a tiny grammar: 'the cat sees the house.'"""
    return [(f"{s} {v} {o}.", f"{s_de} {v_de} {o_de}.")
            for (s, s_de), (v, v_de), (o, o_de) in itertools.product(_SUBJECTS, _VERBS, _OBJECTS)]


@pytest.fixture(scope="session")
def toy_spm(tmp_path_factory, toy_pairs) -> Path:
    """A tiny joint SentencePiece model (about 50 pieces) trained on toy_pairs; returns spm.model's path."""
    from transformer_core.model.tokenizer import train_tokenizer

    path = tmp_path_factory.mktemp("toy_spm") / "spm.model"
    train_tokenizer([text for pair in toy_pairs for text in pair], path, vocab_size=64)
    return path


@pytest.fixture(scope="module")
def one_thread():
    """torch on one thread for the module (tiny tensors on a shared CPU: more threads only contend)."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


# --- App test fixtures (tests/test_page_*.py) ---------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def page_runs_on_threads():
    """AppTest's page runs compute on the server's threads (sentence.py's one-core way), not in worker processes:
    each test process would otherwise spawn up to three (PROCESSES, OWN, OWN_QUICK), each importing torch and the
    app again (~3.5 CPU-seconds apiece).  A run in a worker process gives what it gives here (tests/test_runs.py);
    the servers the browser and load tests start use their processes as a school's server does, and the tests
    of the pools themselves make their own (test_page_load.py)."""
    from pages.ui import sentence

    sentence.PROCESSES = sentence.OWN = sentence.OWN_QUICK = None


@pytest.fixture(scope="session")
def toy_checkpoints(tmp_path_factory, toy_pairs, toy_spm) -> Path:
    """A checkpoints/ folder with two tiny random-init checkpoints on toy_spm: "toy-en" (en -> de,
    with examples.json) and "toy-ko" (the same weights, tgt_lang "ko").  max_len 24, so long inputs
    get truncated.  Point pages.ui.model_state.CHECKPOINTS_DIR at it (see app_checkpoints)."""
    import torch

    from transformer_core.checkpoints.folder import save_checkpoint
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import Tokenizer
    from transformer_core.model.transformer import Transformer

    vocab = Tokenizer.load(toy_spm).vocab_size
    root = tmp_path_factory.mktemp("checkpoints")
    examples = [{"src": src, "ref": ref} for src, ref in toy_pairs[:3]]
    for name, tgt_lang in (("toy-en", "de"), ("toy-ko", "ko")):
        torch.manual_seed(0)
        cfg = ModelConfig(vocab_size=vocab, d_model=32, n_heads=2, n_encoder_layers=2, n_decoder_layers=2,
                          d_ff=64, max_len=24, tgt_lang=tgt_lang)
        save_checkpoint(root / name, Transformer(cfg).eval(), toy_spm,
                        examples=examples if name == "toy-en" else None)
    return root


@pytest.fixture
def app_checkpoints(toy_checkpoints, monkeypatch) -> Path:
    """The app's bundled checkpoints are toy_checkpoints for this test."""
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", toy_checkpoints)
    return toy_checkpoints


# --- One headless Chromium and one server on the bundled checkpoints (the browser tests) ------------

@pytest.fixture(scope="session")
def bundled_server(tmp_path_factory):
    """One app server on the bundled checkpoints (both ende and enko), warmed, for every browser module that
    needs no other (starting and warming one costs seconds of both cores): its URL.  Each module's tabs are
    sessions of their own."""
    from test_browser import BUNDLED_DIR, bundled_names, streamlit_server

    missing = {"ende", "enko"} - set(bundled_names(BUNDLED_DIR))
    if missing:
        pytest.fail(f"the bundled checkpoints/{', '.join(sorted(missing))} are needed", pytrace=False)
    with streamlit_server(tmp_path_factory.mktemp("bundled"), BUNDLED_DIR) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium (streamlit_proc.CHROMIUM) under Playwright, which never downloads a browser."""
    import os

    from streamlit_proc import CHROMIUM, CHROMIUM_ARGS

    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"{CHROMIUM} not found: the browser tests need Debian's chromium "
                    "(`make test` installs it as root; else `sudo apt-get install chromium fonts-noto-cjk`)",
                    pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: `make test` (requirements-dev.txt) installs it", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def context(browser):
    """One browser context for a module's tabs: its HTTP cache and compiled scripts serve every tab after the first
    (a fresh context per tab compiled Streamlit's and plotly's scripts again, seconds of CPU each)."""
    context = browser.new_context()
    yield context
    context.close()
