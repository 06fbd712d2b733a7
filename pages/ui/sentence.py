"""The sentence the model pages work on (translate, decoding, shapes) and their cached model runs.

    sentence_input(page, ckpt)       text input (Enter submits), example buttons, greedy/beam switch;
                                     -> (text, beam) or None (with an i18n'd message) for empty input
    sentence_run(page, ckpt, kind)   both, the truncation notice between them: -> (text, beam, run)
    beam_width(ckpt), search_note(ckpt)   the beam mode's width, and whose setting (paper's or the model's)
    traced(key, ckpt, run)           the full trace of a run's sentence and output (every tensor recorded)
    run_cached(kind, key, ckpt, …)   one model run, cached per (model key, sentence, beam, heads off):
                                     st.cache_data for bundled models (keyed by name, shared by every
                                     session), a small dict in st.session_state for this session's own models
    session_run(kind, key, ckpt, *args)   any other run (attribution, sampling, what-if), cached alike

A model run that is not cached (transformer_core/serving/runs.py) runs where it costs the class least
(model_run picks it):
  PROCESSES  the bundled models' quick runs (a translation, its steps, what-if: tens of ms) in worker
             processes (ATLAS_COMPUTE_PROCESSES, default the cores less one, leaving one to the server),
             whose many small torch calls then never wait on Streamlit's thread for the interpreter lock
  POOL       the bundled models' sampling runs and full traces (ON_THREADS: large tensor operations that release
             the lock), on threads of the server (ATLAS_COMPUTE_WORKERS, default the cores), so a translation never
             waits behind them (a trace: one teacher-forced pass, 15 ms on the bundled en→de model, whose 3.7 MB of
             tensors took 34 ms to pickle and unpickle from a worker); and everything where processes cannot be
             made (one core, no /dev/shm)
  GRADIENTS  attribution runs (integrated gradients: seconds under a class's load), on threads of their own
             (as many as POOL's), so a trace or a sampling run never waits behind them: with them on POOL, 40
             students' Architecture page waited 2.6 s (median) for its trace; and at nice 10 (Linux: a
             thread's own priority), so that a class's translations go first: a sentence's p95 1.14 s -> 0.77-1.04 s,
             the gradients tab as before (`bench_class.py --attacker`, deploy/README.md)
  OWN        every run of a session's own model (uploads, Hub pulls) in a process of its own
             (ATLAS_OWN_PROCESSES, default 1) at a lower priority (nice 10), which loads the model from the
             folder the session keeps while the model is held, one model at a time: a crafted model's run
             never holds the server's interpreter lock, takes a core only when the class's runs leave it
             idle, and, should it die, takes only that process, which is started again
  OWN_QUICK  the quick runs of a light own model (quick(): a translation, its steps or a what-if within QUICK_S
             and QUICK_BYTES on its sentence, cost.py, of a model of at most QUICK_MODEL_BYTES: the bundled models'
             size) in a process of their own at the class's priority (ATLAS_OWN_QUICK_PROCESSES, default 1), so that
             a student who uploaded a model never waits behind a crafted model's 10 s runs on OWN
             (`bench_class.py --attacker`: 11 of the class's 18 slowest sentences were the uploaders', 1-5 s
             there; on the server's threads instead, their many small torch calls held the class's interpreter
             lock: a sentence's p95 1.23-1.26 s)
Each has ATLAS_COMPUTE_QUEUE places waiting (default 16 per worker) and ATLAS_COMPUTE_TIMEOUT_S (default 30):
one session's long input holds one worker, and past the queue or the time limit the run raises
workpool.Busy, which app.py shows as "the server is busy" instead of waiting on.

The sentence and the decoding mode are shared by the three pages (kept under SHARED_KEYS), so a
sentence typed on one page is the sentence of the next.
"""
from __future__ import annotations

import os

import streamlit as st

from transformer_core.checkpoints.files import Checkpoint, CheckpointError
from transformer_core.explainer import examples as default_examples
from transformer_core.explainer import explain, input_check
from transformer_core.explainer.translate import source_ids, split_sentences
from transformer_core.model.tokenizer import wrap_source
from transformer_core.serving import cost, runs, share
from transformer_core.serving.registry import checkpoint_bytes, python_bytes
from transformer_core.serving.workpool import Busy, WorkPool, cores

from . import model_state
from .i18n import language_name, t
from .theme import token_label
from .widgets import escape_md, presenting

MODES = ("greedy", "beam")
DEFAULT_MODE = "beam"             # the model's own beam search (Checkpoint.beam_options): its best translation
MAX_CHARS = 1000                 # longer text is cut, with a notice; the box counts
MAX_SENTENCES = 20               # a paragraph's sentences translated one by one
MAX_EXAMPLES = 6
SHARED_TEXT, SHARED_MODE = "atlas_sentence", "atlas_mode"
BELOW_CLASS = 10                 # nice value of the runs that must not hold up the class's: GRADIENTS, OWN (docstring)
SESSION_CACHE, SESSION_CACHE_BYTES = "atlas_runs", 48 * 2**20   # a session's own runs, bounded by what they hold
TRACE_KEY, TRACE_CACHE_SIZE = "atlas_full_traces", 1   # full traces: ~3 MB each on the bundled models
POOL = WorkPool.from_env()                        # threads: where a model cannot run in a process
GRADIENTS = WorkPool.from_env(initializer=os.nice, initargs=(BELOW_CLASS,))   # threads, below the class
PROCESSES = WorkPool.processes_from_env()         # worker processes for the bundled models (None: one core)
ON_THREADS = ("attribution", "samples", "trace")  # the bundled models' runs on threads (POOL, GRADIENTS)
OWN = WorkPool.processes_from_env(variable="ATLAS_OWN_PROCESSES", default=min(1, cores() - 1),
                                  initializer=runs.worker, initargs=(1, BELOW_CLASS))   # one model: docs/security.md
OWN_QUICK = WorkPool.processes_from_env(variable="ATLAS_OWN_QUICK_PROCESSES", default=min(1, cores() - 1),
                                        initializer=runs.worker, initargs=(1,))
QUICK_KINDS = ("translation", "steps", "greedy_steps")
QUICK_S, QUICK_BYTES = 1.0, 64 * cost.MB    # what a quick run of a session's own model may cost (cost.py)
QUICK_MODEL_BYTES = 48 * cost.MB           # and what its model may hold (registry.checkpoint_bytes; the bundled: 31 MB)


def example_pairs(ckpt: Checkpoint) -> list[dict]:
    """The model's example sentences ({"src", "ref"?}): its examples.json, else the app's in its source
    language with references in its target language (transformer_core/explainer/examples.py)."""
    own = [e for e in ckpt.examples if str(e.get("src", "")).strip()]
    return (own or default_examples.pairs(ckpt.config.src_lang, ckpt.config.tgt_lang))[:MAX_EXAMPLES]


def examples(ckpt: Checkpoint) -> list[str]:
    """The example sentences offered for the model, the first one the sentence a page starts with."""
    return [e["src"] for e in example_pairs(ckpt)]


def beam_width(ckpt: Checkpoint) -> int:
    """The beam mode's width: the model's own (a Marian checkpoint's num_beams), else the paper's 4."""
    return ckpt.beam_options["beam"]


def search_note(ckpt: Checkpoint) -> str:
    """Whose beam width and α these are: the paper's, or the ones the checkpoint came with."""
    return t("sentence.search.model" if ckpt.search else "sentence.search.paper")


def start_label(ckpt: Checkpoint) -> str:
    """The decoder's first token as the figures write it: <s> for ours, <pad> for Marian (decoder_start_token_id)."""
    return token_label(ckpt.tokenizer.id_to_piece(ckpt.config.bos_id))


def _use_example(widget_key: str, text: str) -> None:
    st.session_state[widget_key] = text


def _short(text: str, n: int = 48) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def sentence_input(page: str, ckpt: Checkpoint) -> tuple[str, int] | None:
    """The sentence box (shared across pages), example buttons and the greedy/beam switch."""
    text_key, mode_key = f"{page}_text", f"{page}_mode"
    ex = examples(ckpt)
    if text_key not in st.session_state:
        st.session_state[text_key] = st.session_state.get(SHARED_TEXT, ex[0])
    if mode_key not in st.session_state:
        st.session_state[mode_key] = st.session_state.get(SHARED_MODE, DEFAULT_MODE)
    # a projector: the model, the decoding and the folded examples in one row, their labels only for screen
    # readers (the choices name themselves), no counter: the first screen holds the figure
    present = presenting()
    labels = "collapsed" if present else "visible"
    if present:
        c1, c2, c3 = st.columns([2, 1.3, 1.2], vertical_alignment="center")
    else:
        c1, c2 = st.columns(2, vertical_alignment="top")
    with c1:
        model_state.page_model_selector(labels)
    with c2:
        mode = st.segmented_control(t("sentence.mode"), MODES, key=mode_key, required=True, label_visibility=labels,
                                    format_func={m: t(f"sentence.mode.{m}") for m in MODES}.get,
                                    help=t("sentence.mode_help", beam=beam_width(ckpt), alpha=ckpt.beam_options["alpha"],
                                           lp=t(f"sentence.lp.{ckpt.beam_options['penalty']}"),
                                           setting=search_note(ckpt)))
    text = st.text_input(t("sentence.input", src=escape_md(language_name(ckpt.config.src_lang)),
                           tgt=escape_md(language_name(ckpt.config.tgt_lang))),
                         key=text_key, placeholder=t("sentence.placeholder", example=ex[0]),
                         help=t("sentence.input_help", limit=MAX_CHARS))
    box = c3.expander(t("sentence.examples")) if present else \
        st.container(horizontal=True, gap="small", vertical_alignment="center")
    with box:
        if not present:
            st.caption(t("sentence.examples"), width="content")
        for i, sentence in enumerate(ex):
            st.button(escape_md(_short(sentence)), key=f"{page}_ex_{i}", type="tertiary",
                      on_click=_use_example, args=(text_key, sentence), help=escape_md(sentence))
    text = (text or "").strip()
    mode = mode or DEFAULT_MODE
    st.session_state[SHARED_TEXT], st.session_state[SHARED_MODE] = text, mode
    if len(text) > MAX_CHARS:
        st.warning(t("sentence.cut", n=len(text), limit=MAX_CHARS), icon=":material/content_cut:")
        text = text[:MAX_CHARS]
    if not present:
        st.caption(t("sentence.count", n=len(text), limit=MAX_CHARS))
    if not text:
        st.info(t("sentence.empty"), icon=":material/edit:")
        return None
    sentences = split_sentences(text)
    if len(sentences) > MAX_SENTENCES:
        st.warning(t("sentence.too_many", n=len(sentences), limit=MAX_SENTENCES), icon=":material/content_cut:")
        sentences = sentences[:MAX_SENTENCES]
    if len(sentences) > 1:
        text = pick_sentence(page, ckpt, sentences, beam_width(ckpt) if mode == "beam" else 1)
    if not ckpt.tokenizer.encode(text):
        st.info(t("sentence.no_tokens"), icon=":material/edit:")
        return None
    unreadable_notice(ckpt, text)
    return text, (beam_width(ckpt) if mode == "beam" else 1)


def pick_sentence(page: str, ckpt: Checkpoint, sentences: list[str], beam: int) -> str:
    """A paragraph: every sentence translated (in an expander), and a picker for the sentence the attention
    views show."""
    key = f"{page}_pick"
    if st.session_state.get(key, 0) >= len(sentences):
        st.session_state[key] = 0
    with st.expander(t("sentence.all", n=len(sentences)), expanded=False):
        for i, sentence in enumerate(sentences):
            out = run_cached("translation", model_state.active_key(), ckpt, sentence, beam)["text"]
            st.markdown(f"{i + 1}. {escape_md(sentence)} → **{escape_md(out)}**")
    pick = st.selectbox(t("sentence.pick", n=len(sentences)), range(len(sentences)), key=key,
                        format_func=lambda i: f"{i + 1}. {_short(sentences[i], 80)}")
    return sentences[pick]


def _script_name(script: str | None) -> str:
    return t(f"script.{script}") if script and t(f"script.{script}") != f"script.{script}" else (script or "?")


def unreadable_notice(ckpt: Checkpoint, text: str) -> None:
    """Say so when the model cannot read the input: a script its source side does not know (Hangul into
    en→de), or more than a small share of unknown pieces; name a loaded model that reads it, if any."""
    found = input_check.check(ckpt.tokenizer, ckpt.config.src_lang, text)
    if found.readable:
        return
    others = []
    for key, label in model_state.model_choices():
        other = model_state.checkpoint_for(key)
        if other is not None and other is not ckpt and input_check.check(
                other.tokenizer, other.config.src_lang, text).readable:
            others.append(label)
    code = ckpt.config.src_lang
    offer = t("sentence.unreadable.try", models=", ".join(others)) if others else \
        t("sentence.unreadable.none", language=escape_md(language_name(code)))
    reads = t("sentence.unreadable.reads", language=escape_md(language_name(code)), script=_script_name(found.expected))
    if found.wrong_script:
        body = t("sentence.unreadable.script", script=_script_name(found.script), reads=reads,
                 unknown=found.unknown, pieces=found.pieces)
    else:
        body = t("sentence.unreadable.unknown", reads=reads, unknown=found.unknown, pieces=found.pieces)
    st.warning(f"{body} {offer}", icon=":material/translate:")


def sentence_run(page: str, ckpt: Checkpoint, kind: str = "translation") -> tuple[str, int, dict] | None:
    """sentence_input, the truncation notice, then runs.RUNS[kind] on the sentence (cached) -> (text, beam, run),
    or None for an empty sentence (the box has said so)."""
    got = sentence_input(page, ckpt)
    if got is None:
        return None
    text, beam = got
    truncation_notice(ckpt, text)
    return text, beam, run_cached(kind, model_state.active_key(), ckpt, text, beam)


def truncation_notice(ckpt: Checkpoint, text: str) -> bool:
    """Shows the notice when the sentence is longer than the model takes; returns whether it was cut."""
    tok = ckpt.tokenizer
    ids, cut = source_ids(tok, text, ckpt.config.max_len)
    if cut:
        specials = wrap_source(tok, [])                   # <s> … </s>, or Marian's … </s>
        st.warning(t("sentence.truncated", n=len(ids) - len(specials),
                     specials=", ".join(f"`{token_label(tok.id_to_piece(i))}`" for i in specials)),
                   icon=":material/content_cut:")
    return cut


# ---------------------------------------------------------------- model runs

def charged(pool: WorkPool, fn, *args):
    """fn(*args) on pool, within this session's share of the server's compute (serving/share.py): OverShare
    (shown by widgets.busy_notice) once its runs of the last minute took their share; else charged its CPU time."""
    owner = model_state.owner()
    model_state.SHARE.check(owner)
    result, seconds = pool.run(share.timed, fn, *args)
    model_state.SHARE.charge(owner, seconds)
    return result


@st.cache_data(max_entries=256, show_spinner=False)
def _bundled_run(kind: str, name: str, *args) -> dict:
    """A bundled model's run (model_run), shared by every session: a sentence a whole class types (the lecture's,
    an example) is translated, and its gradients computed, once; sessions asking at the same time wait for it."""
    return model_run(kind, model_state.BUNDLED + name, model_state.load_bundled(name), *args)


def model_run(kind: str, key: str, ckpt: Checkpoint, *args):
    """runs.RUNS[kind](ckpt, *args), charged to this session: a bundled model's quick runs on PROCESSES and a
    session's own model's on OWN (its quick runs on OWN_QUICK), worker processes that load the model from its
    folder; else on a thread (POOL, GRADIENTS)."""
    bundled = key.startswith(model_state.BUNDLED)
    if bundled:
        pool = None if kind in ON_THREADS else PROCESSES
    else:
        pool = OWN_QUICK if OWN_QUICK is not None and quick(kind, ckpt, *args) else OWN
    if pool is not None and ckpt.path.is_dir():
        try:
            return charged(pool, runs.run_folder, kind, str(ckpt.path), *args)
        except (FileNotFoundError, CheckpointError):   # the model was removed (its folder with it) while the run
            raise Busy("model_gone") from None          # waited: it loaded before, so its files are going
    return charged(GRADIENTS if kind == "attribution" else POOL, runs.RUNS[kind], ckpt, *args)


def quick(kind: str, ckpt: Checkpoint, text: str, *args) -> bool:
    """A quick run of a light model: of QUICK_KINDS, within QUICK_S and QUICK_BYTES on this sentence (cost.estimate,
    counted as if the model never stopped, as a crafted one need not), its model within QUICK_MODEL_BYTES.
    args: the run's own after the text (translation, steps: beam, heads off; greedy_steps: the forced beginning)."""
    if kind not in QUICK_KINDS or checkpoint_bytes(ckpt) > QUICK_MODEL_BYTES:
        return False
    beam = 1 if kind == "greedy_steps" else int(args[0])
    run = cost.estimate(ckpt.config, kind, len(source_ids(ckpt.tokenizer, text, ckpt.config.max_len)[0]), beam)
    return run.seconds <= QUICK_S and run.nbytes <= QUICK_BYTES


def run_cached(kind: str, key: str, ckpt: Checkpoint, text: str, beam: int, heads_off: tuple = ()) -> dict:
    """runs.RUNS[kind] on the active model, cached per (model key, sentence, beam, heads off) (session_run)."""
    return session_run(kind, key, ckpt, text, beam, tuple(sorted(tuple(h) for h in heads_off)))


def session_run(kind: str, key: str, ckpt: Checkpoint, *args):
    """runs.RUNS[kind](ckpt, *args) (model_run), cached per (kind, model key, args): a rerun of the page, a slider
    elsewhere, computes nothing again.  A bundled model's runs are shared by all sessions (_bundled_run); a
    session's own model's are kept in its own cache, the newest runs that together hold at most
    SESSION_CACHE_BYTES (registry.python_bytes: their arrays and lists), the newest always."""
    if key.startswith(model_state.BUNDLED):
        return _bundled_run(kind, key.removeprefix(model_state.BUNDLED), *args)
    cache: dict = st.session_state.setdefault(SESSION_CACHE, {})
    ck = (kind, key, *args)
    if ck not in cache:
        result = model_run(kind, key, ckpt, *args)
        held = {k: size for k, (_, size) in cache.items()}
        size = python_bytes(result)
        while held and sum(held.values()) + size > SESSION_CACHE_BYTES:
            oldest = next(iter(cache))
            del cache[oldest], held[oldest]
        cache[ck] = (result, size)
    return cache[ck][0]


def traced(key: str, ckpt: Checkpoint, res: dict) -> explain.FullTrace:
    """The full trace of (source, [BOS] + output) of a run on the model `key` (runs.trace: not cached with the
    runs, it holds every intermediate tensor), kept for this session's last TRACE_CACHE_SIZE of them (the
    shapes and Architecture pages share it)."""
    cache: dict = st.session_state.setdefault(TRACE_KEY, {})
    ck = (key, tuple(res["src_ids"]), tuple(res["out_ids"]))
    if ck not in cache:
        cost.check_trace(ckpt.config, len(res["src_ids"]), len(res["out_ids"]) + 1)   # refused here, before a worker
        while len(cache) >= TRACE_CACHE_SIZE:
            cache.pop(next(iter(cache)))
        cache[ck] = model_run("trace", key, ckpt, *ck[1:])
    return cache[ck]


def layer_head_label(layer: int, head: int | None = None) -> str:
    """Layers and heads are numbered from 1 on screen."""
    if head is None:
        return t("attn.layer_n", n=layer + 1)
    return t("attn.layer_head", layer=layer + 1, head=head + 1)


def kind_label(kind: str) -> str:
    return t(f"attn.kind.{kind}")
