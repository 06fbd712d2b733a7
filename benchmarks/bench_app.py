"""The home page in a real browser: how long a new sentence takes to show, the server's memory, cold start.

    python benchmarks/bench_app.py                          # the bundled model, checkpoints/ende
    python benchmarks/bench_app.py --app-dir /tmp/head      # another commit: git archive HEAD | tar -x -C /tmp/head
    python benchmarks/bench_app.py --checkpoint out/bench/opus-mt-en-de-random --max-out 50
                                  # a Hugging Face Marian folder of opus-mt-en-de's size (benchmarks/bench_marian.py
                                  # builds it; random weights never write </s>: every output is 2·20 + 10 tokens)
    python benchmarks/bench_app.py --set runner.postScriptGC=false --js-profile
    python benchmarks/bench_app.py --smoke                  # a check that it runs: the server, one page load and
                                                            # one timed sentence, no warm-up (out/bench/app-smoke.json)
    python benchmarks/bench_app.py --page architecture      # the Architecture page, a block's panel open
                                                            # (out/bench/app-architecture.json)

Starts `streamlit run app.py --server.headless true --server.port <free port>` serving a snapshot of
the checkpoint (copied to a temporary folder, so a training run that rewrites it cannot change the
model halfway; the server finds it through ATLAS_CHECKPOINTS_DIR), opens the home page in Debian's
headless Chromium (/usr/bin/chromium, a fresh profile; Playwright never downloads a browser) and:

  cold start   from launching the command to the first page drawn with a translation and its heatmaps
  latency      from pressing Enter in the sentence box to the page fully redrawn for the new sentence
               (pressed once the server is idle: no CPU for 0.25 s, as after a user typed the sentence),
               --warmup untimed + --repeats timed runs, each with a DIFFERENT sentence of 20 tokens as
               the encoder sees them (BOS + 18 pieces + EOS, counted with the checkpoint's tokenizer),
               so the per-sentence cache cannot answer; the model's own beam search, as the page starts
               (Checkpoint.beam_options: beam 4, α 0.6 for ours; since 0a9806a, #40: runs before it timed
               greedy).  Only sentences the model translates within --max-out tokens (30) are used, as a
               translation of about the source's length: an under-trained model runs many to max_len (50);
               the count skipped is reported
  memory       resident memory (RSS, and PSS) of the server process and its children, after the model
               is loaded and after the runs

--page architecture times the Architecture page (/architecture?block=encoder.0.self_attn: the diagram, and
the first encoder layer's attention heads in the open panel) the same way: from Enter in its sentence box to
the panel's heatmaps showing the new sentence and the script run over (that page shows no translation box,
and the diagram's shapes are the same for every 20-token sentence).  The home page is opened first, as the
deployments' health check does, so that the page's own address is known to Streamlit (deploy/README.md).

"Fully redrawn" is checked in the page on every animation frame: the translation box holds the
translation this script computes itself for the sentence (same checkpoint, same code); every plotly
chart on the page (as many as on the first page) has, in its rendered data (gd._fullData), heatmaps
whose axis labels are all the new sentence's pieces, with its own first word among them (each
sentence starts with a name no other one has); one heatmap image is drawn per heatmap trace; where
tick labels are drawn, that first word is among them and no label the new sentence lacks; and the
script run has started and is over, with no stale element left.  The page's clock times both ends:
a keydown listener, and the later of the first frame that passes and the last DOM change in the app's
main area before 300 ms without one (so a chart's second drawing pass is counted).  It also notes
when the translation and the charts first showed, and when the server's last WebSocket message of the
run arrived (what is left after it is the browser's).

Per run it also reads the CPU time of the server and of all Chromium processes (/proc), and Chromium's
main-thread time (CDP Performance metrics); after the server is stopped it times the server's share
offline for the same sentences: translate, the traced forward, the two figures of the open tab
(pages.ui.figures) and their JSON as Streamlit makes it.  --js-profile adds one run under Chromium's
JS profiler.  Writes out/bench/app.json (--smoke: out/bench/app-smoke.json, not a figure); target: median ≤ 400 ms.
On a shared machine, read the latency with the load average and the CPU times printed beside it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, add_smoke, environment, parse_args, percentile, result_name, summary, write_result
from tests.streamlit_proc import CHROMIUM_ARGS, free_port, healthy, stop

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1400, "height": 900}
TARGET_MS = 400.0
# What --page times: its address, its sentence box, what must be on the first page (a translation with text, or
# the diagram), and the box whose text must become the new translation (None: the page shows none)
PAGES = {"home": {"path": "/", "input": ".st-key-tr_text input", "ready": ".st-key-translation",
                  "text_box": ".st-key-translation"},
         "architecture": {"path": "/architecture?block=encoder.0.self_attn", "input": ".st-key-ar_text input",
                          "ready": ".st-key-ar_diagram", "text_box": None}}
SMOKE = dict(repeats=1, warmup=0)
SRC_TOKENS = 20                      # as the encoder sees them: BOS + 18 pieces + EOS (a Marian model: 19 + EOS)

# Each sentence starts with its own name (its first piece tells a new sentence's tick labels from the
# last one's); the rest is cut or extended until the sentence is exactly SRC_TOKENS tokens.
NAMES = ("Anna", "Peter", "Maria", "Thomas", "Julia", "Martin", "Sarah", "Daniel", "Laura", "Michael",
         "Lisa", "Stefan", "Clara", "Jonas", "Emma", "Lukas", "Sophie", "Felix", "Nina", "Paul", "Lena",
         "David", "Eva", "Oliver", "Hannah", "Simon", "Katrin", "Robert", "Monika", "Georg", "Ines",
         "Walter", "Ruth", "Bernd", "Olga", "Frank", "Ida", "Karl", "Vera", "Hugo", "Mia", "Jakob", "Rosa",
         "Erik", "Greta", "Anton", "Elena", "Tobias", "Marta", "Oskar", "Helga", "Viktor", "Irene", "Moritz",
         "Doris", "Uwe", "Petra", "Jan", "Ulla", "Kurt", "Bruno", "Carla", "Dieter", "Edith", "Fritz", "Gisela",
         "Heinz", "Ingrid", "Jürgen", "Klaus", "Lotte", "Manfred", "Nora", "Otto", "Pia", "Rainer", "Sabine",
         "Theo", "Ursula", "Volker", "Wilma", "Xaver", "Yvonne", "Zoe", "Albert", "Bettina", "Conrad", "Dora",
         "Emil", "Frieda")
CLAUSES = ("bought fresh bread at the small bakery near the station early this morning",
           "wrote a long letter to her old friend who lives in the north of the country",
           "is reading a book about the history of the city in the quiet garden",
           "will travel to the mountains with his family at the end of the summer",
           "found the keys under the table after looking for them for an hour",
           "has been working in the same office since the company opened its doors",
           "likes to cook dinner for her neighbours when the weather is cold and rainy",
           "asked the teacher a difficult question about the weather in the south",
           "took the last train home because the meeting ended much later than planned",
           "planted three young trees behind the house where the children play")
EXTRAS = ("", " again", " today", " yesterday", " with friends", " every day", " at night")


# ---------------------------------------------------------------- sentences and what the page must show

def make_sentences(ckpt, n: int, max_out: int) -> tuple[list[str], list[dict], int]:
    """n different sentences of exactly SRC_TOKENS tokens (BOS + pieces + EOS, or Marian's pieces + EOS), each with a first
    piece (its name) that no other sentence has, whose translation by ckpt (the page's: its beam search) ends within max_out
    tokens (as a translation of about the source's length would: an under-trained model runs some to
    max_len, 2·20 + 10 = 50).  -> (sentences, what the page must show for each, how many were skipped)"""
    tokenizer = ckpt.tokenizer
    n_pieces = SRC_TOKENS - 1 - int(tokenizer.source_bos)          # Marian's source has no BOS
    out, wants, firsts, all_pieces, skipped = [], [], [], [], 0
    for i, name in enumerate(NAMES):
        words = CLAUSES[i % len(CLAUSES)].split()
        found = None
        for k in range(len(words), 3, -1):
            for extra in EXTRAS:
                text = f"{name} {' '.join(words[:k])}{extra}."
                if len(tokenizer.encode(text)) == n_pieces:
                    found = text
                    break
            if found:
                break
        if found is None:
            continue
        pieces = tokenizer.pieces(tokenizer.encode(found))
        if pieces[0] in firsts or any(pieces[0] in p for p in all_pieces):
            continue
        want = expected(ckpt, found)
        if len(want["out_ids"]) > max_out:
            skipped += 1
            continue
        out.append(found)
        wants.append(want)
        firsts.append(pieces[0])
        all_pieces.append(set(pieces))
        if len(out) == n:
            return out, wants, skipped
    raise SystemExit(f"could only make {len(out)} of {n} different {SRC_TOKENS}-token sentences translated "
                     f"within {max_out} tokens ({skipped} ran longer); lower --repeats or raise --max-out")


def expected(ckpt, text: str) -> dict:
    """What the page shows for text (the model's beam search, the page's first mode), as pages/ui/sentence.py computes it:
    the translation and the pieces on the attention axes, as plain text (no HTML escapes, no zero-width spaces)."""
    from transformer_core.explainer import explain
    from transformer_core.explainer.translate import translate

    tr = translate(ckpt, text)                       # beam and α: the checkpoint's (Checkpoint.beam_options)
    tok = ckpt.tokenizer
    src = tok.pieces(tr.src_ids)
    tgt = tok.pieces(explain.decoder_input(ckpt.model, tr.out_ids))
    pred = tok.pieces([*tr.out_ids, ckpt.config.eos_id])
    return {"text": tr.text, "marker": src[1], "sequences": [src, tgt, pred], "src_ids": tr.src_ids,
            "out_ids": tr.out_ids}


# In the page: called on every animation frame until it returns a number (performance.now() of the
# first frame at which the page shows everything for the new sentence) or an error.
DONE_JS = r"""([exp]) => {
  // Kept cheap, as it runs on every frame of the page it measures: the label work is done once per
  // rendered figure (gd._fullData is a new array whenever plotly draws new data), a passed check is
  // remembered for that figure (until RESET_JS, before the next sentence), and the charts are only
  // looked at once the translation shows.
  const now = performance.now();
  const marks = window.__atlasMarks || (window.__atlasMarks = {});
  const seen = window.__atlasSeen || (window.__atlasSeen = new WeakMap());
  // labels as shown: entities decoded, no zero-width or other invisible characters (plotly axes keep
  // repeated labels apart with them), the word-start mark as one character (the app draws '▁' as '·')
  const norm = s => String(s).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
                             .replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\u2581/g, '·')
                             .replace(/[\u200b-\u200f\u2060-\u2064\ufeff]/g, '').replace(/\s+/g, ' ').trim();
  const exc = document.querySelector('[data-testid="stException"]');
  if (exc) return {error: exc.innerText.slice(0, 2000)};
  const labels = new Set(exp.sequences.flat().map(norm));
  const marker = norm(exp.marker);
  // an axis of the new sentence: only its labels (its own first word among them, checked below)
  const ofSentence = arr => { const ls = (arr || []).map(norm).filter(v => v);
                              return ls.length > 0 && ls.every(v => labels.has(v)); };
  const hasMarker = arr => (arr || []).some(v => norm(v) === marker);
  // drawn tick labels of every axis: <g class="xtick">, <g class="x2tick">, …, <g class="y12tick">
  const tickTexts = gd => [...gd.querySelectorAll('g[class*="tick"]')]
                            .filter(g => /^[xy]\d*tick$/.test(g.getAttribute('class'))).map(g => norm(g.textContent));
  const box = exp.text_box ? document.querySelector(exp.text_box) : null;
  const textOk = !exp.text_box || (!!box && norm(box.innerText).includes(norm(exp.text)));
  if (textOk && marks.text === undefined) marks.text = now;
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  // the heatmaps that draw (a grid's cover for one token's cells is empty until the pointer rests on it)
  const heatmaps = full => full.filter(t => t.type === 'heatmap' && t.visible !== false && t.z && t.z.length);
  const dataOk = full => {                     // the rendered data is the new sentence's
    const heat = heatmaps(full);
    return heat.every(t => ofSentence(t.x) && ofSentence(t.y))
           && (!heat.length || heat.some(t => hasMarker(t.x) || hasMarker(t.y)));
  };
  const plotOk = gd => {
    const full = gd._fullData;
    if (!gd.data || !full || full.length !== gd.data.length) return false;
    let memo = seen.get(full);
    if (memo === undefined) seen.set(full, memo = {data: dataOk(full), drawn: false});
    if (!memo.data) return false;
    if (memo.drawn) return true;
    const heat = heatmaps(full).length;
    if (!heat) return true;                      // no heatmap (the Architecture panel's lines): the run's end tells
    if (gd.querySelectorAll('g.hm image').length < heat) return false;  // every heatmap drawn
    const ticks = tickTexts(gd);
    memo.drawn = !ticks.length                   // thumbnails without tick labels: data + images above
                 || (ticks.includes(marker)      // tick labels: the sentence's own first word is drawn
                     && ticks.every(t => labels.has(t)));   // and nothing of the last sentence
    return memo.drawn;
  };
  if (exp.explain) return {textOk, plots: plots.length, plotOk: plots.map(plotOk), state: document.querySelector(
      '[data-testid="stApp"]').getAttribute('data-test-script-state'),
      stale: document.querySelectorAll('[data-stale="true"]').length,
      ticks: plots.map(gd => tickTexts(gd).slice(0, 30)),
      data: plots.map(gd => (gd._fullData || []).slice(0, 1).map(t => [t.type, (t.x || []).slice(0, 30), (t.y || []).slice(0, 5)])),
      box: box && box.innerText};
  if (!textOk) return false;
  const plotsOk = plots.length >= exp.n_plots && plots.every(plotOk);
  if (plotsOk && marks.plots === undefined) marks.plots = now;
  const app = document.querySelector('[data-testid="stApp"]');
  const idle = !!window.__atlasSawRun && !!app && app.getAttribute('data-test-script-state') === 'notRunning'
               && !document.querySelector('[data-stale="true"]');      // the rerun started, and is over
  if (idle && marks.idle === undefined) marks.idle = now;
  return plotsOk && idle ? now : false;
}"""

FIRST_PAGE_JS = r"""([ready]) => {
  const exc = document.querySelector('[data-testid="stException"]');
  if (exc) return {error: exc.innerText.slice(0, 2000)};
  const box = document.querySelector(ready);
  const app = document.querySelector('[data-testid="stApp"]');
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const heat = gd => gd._fullData.filter(t => t.type === 'heatmap' && t.visible !== false && t.z && t.z.length).length;
  return !!box && (box.innerText.trim().length > 0 || !!box.querySelector('svg')) && plots.length > 0
         && plots.every(gd => gd._fullData && gd.querySelectorAll('g.hm image').length >= heat(gd))
         && plots.some(gd => heat(gd) > 0)
         && app.getAttribute('data-test-script-state') === 'notRunning'
         && !document.querySelector('[data-stale="true"]') ? plots.length : false;
}"""

# Once per page: the time of the Enter keydown, and of the latest DOM change in the app's main area.
LISTEN_JS = """() => { window.__atlasT0 = null; window.__atlasLastChange = null;
  document.addEventListener('keydown', e => { if (e.key === 'Enter') window.__atlasT0 = performance.now(); }, true);
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => { if (app.getAttribute('data-test-script-state') === 'running') window.__atlasSawRun = true; })
    .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  new MutationObserver(ms => { window.__atlasLastChange = performance.now();   // and what changed: the element
    const m = ms[ms.length - 1], el = m.target.nodeType === 1 ? m.target : m.target.parentElement;   // and the
    const owner = el && el.closest('[data-testid]');                              // Streamlit part holding it
    window.__atlasLastWhat = `${owner ? owner.getAttribute('data-testid') : '-'} ${m.type}`
      + `${m.attributeName ? ' ' + m.attributeName : ''} <${el ? el.tagName.toLowerCase() : '-'} `
      + `${el ? String(el.getAttribute('class') || '').slice(0, 40) : ''}>`; })
    .observe(main, {subtree: true, childList: true, attributes: true, characterData: true}); }"""
RESET_JS = """() => { window.__atlasT0 = null; window.__atlasMarks = {}; window.__atlasLastChange = null;
                      window.__atlasLastWhat = null;
                      window.__atlasSawRun = false; window.__atlasWs = []; window.__atlasSeen = new WeakMap(); }"""
# Before the app's own code: the arrival time and size of every WebSocket message from the server.
WS_JS = """(() => { const Native = window.WebSocket; window.__atlasWs = [];
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', e => window.__atlasWs.push(
      [performance.now(), e.data.byteLength || e.data.size || e.data.length || 0]));
    return ws; };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3}); })();"""
QUIET_JS = "([ms]) => window.__atlasLastChange === null || performance.now() - window.__atlasLastChange > ms"
QUIET_MS = 300


# ---------------------------------------------------------------- server

def process_tree(pid: int) -> list[int]:
    """pid and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def memory_mb(pid: int) -> dict:
    """RSS and PSS (shared pages split between the processes sharing them) of pid and its children, MB."""
    rss = pss = 0
    pids = process_tree(pid)
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except OSError:
            continue
    return {"rss_mb": round(rss / 1024, 1), "pss_mb": round(pss / 1024, 1), "processes": len(pids)}


def cpu_ms(pids: list[int]) -> float:
    """CPU time (user + system) the processes have used so far, ms (a process gone meanwhile counts 0)."""
    ticks = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])          # utime, stime
    return 1000 * ticks / os.sysconf("SC_CLK_TCK")


def pids_with(text: str) -> list[int]:
    """Processes whose command line holds text (this run's Chromium: its profile folder)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if text.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    out.append(int(entry))
            except OSError:
                continue
    return out


def js_profile_summary(profile: dict, top: int = 15) -> dict:
    """A CDP Profiler profile -> self time by script file and by function (ms), largest first."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    self_us: dict[int, float] = {}
    for node_id, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
        self_us[node_id] = self_us.get(node_id, 0.0) + dt
    by_file: dict[str, float] = {}
    by_fn: dict[str, float] = {}
    for node_id, us in self_us.items():
        frame = nodes[node_id]["callFrame"]
        name = frame["url"].rsplit("/", 1)[-1] or f"({frame['functionName'] or 'program'})"
        by_file[name] = by_file.get(name, 0.0) + us / 1000
        fn = f"{frame['functionName'] or '(anonymous)'} @ {name}:{frame['lineNumber']}"
        by_fn[fn] = by_fn.get(fn, 0.0) + us / 1000

    def order(d):
        return {k: round(v, 1) for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]}

    return {"by_file_ms": order(by_file), "by_function_ms": order(by_fn)}


def wait_idle(pids: list[int], quiet_s: float = 0.25, limit_s: float = 10.0) -> float:
    """Until the processes use no CPU for quiet_s (e.g. the server's garbage collection after a run, which
    holds the GIL: a user typing the next sentence gives it that time).  -> seconds waited"""
    start = time.monotonic()
    last = cpu_ms(pids)
    while time.monotonic() - start < limit_s:
        time.sleep(quiet_s)
        now = cpu_ms(pids)
        if now - last < 1:
            break
        last = now
    return time.monotonic() - start


def renice(pids: list[int], nice: int) -> None:
    """Every thread of these processes (and so the threads they start later) to this nice value."""
    for pid in pids:
        for tid in os.listdir(f"/proc/{pid}/task") if os.path.isdir(f"/proc/{pid}/task") else []:
            try:
                os.setpriority(os.PRIO_PROCESS, int(tid), nice)
            except OSError:
                continue


def snapshot(checkpoint: Path, folder: Path) -> Path:
    """Copy the checkpoint's files (following links) into folder/<name>; checked by loading it."""
    from transformer_core.checkpoints.files import CheckpointError
    from transformer_core.checkpoints.load import load_checkpoint

    target = folder / checkpoint.name
    for _attempt in range(3):                 # a training run may be rewriting it right now
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(checkpoint, target, symlinks=False)
        try:
            load_checkpoint(target)
            return target
        except CheckpointError:
            time.sleep(2)
    raise SystemExit(f"could not copy a loadable checkpoint from {checkpoint}")


# ---------------------------------------------------------------- the server's share, offline

def server_breakdown(ckpt, sentences: list[str]) -> dict:
    """Median ms per sentence of what the server does for the home page's open tab, measured here
    (one thread, as the app): translate, the traced forward, the 2 figures, their JSON."""
    import numpy as np
    import plotly.io
    import plotly.tools
    import torch

    from pages.ui import figures
    from transformer_core.explainer import explain
    from transformer_core.explainer.translate import translate

    torch.set_num_threads(1)
    parts: dict[str, list[float]] = {k: [] for k in ("translate", "trace", "figures", "to_json", "total")}
    sizes = []
    for text in sentences:
        t0 = time.perf_counter()
        tr = translate(ckpt, text)
        t1 = time.perf_counter()
        attn = explain.teacher_forced_attention(ckpt.model, tr.src_ids, tr.out_ids)
        t2 = time.perf_counter()
        pieces = ckpt.tokenizer.pieces(tr.src_ids)
        w = attn["enc_self"]
        L, H = w.shape[:2]
        titles = [[f"layer {li + 1} head {h + 1}" for h in range(H)] for li in range(L)]
        grid = figures.attention_grid(w, pieces, pieces, panel_titles=titles, selected=(0, 0), x_title="key",
                                      y_title="query", colorbar_title="weight", title="grid")
        focus = figures.attention_heatmap(np.asarray(w[0, 0]), pieces, pieces, x_title="key", y_title="query",
                                          colorbar_title="weight", title="focus")
        t3 = time.perf_counter()
        size = 0
        for fig in (grid, focus):              # what st.plotly_chart does with a figure
            spec = plotly.io.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True),
                                     validate=False)
            size += len(spec)
        t4 = time.perf_counter()
        sizes.append(size)
        for k, dt in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0), strict=True):
            parts[k].append(1000 * dt)
    out = {k: round(statistics.median(v), 2) for k, v in parts.items()}
    out["json_bytes"] = int(statistics.median(sizes))
    return out


# ---------------------------------------------------------------- main

def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--checkpoint", default=str(ROOT / "checkpoints" / "ende"), help="checkpoint folder")
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--max-out", type=int, default=30, help="use sentences translated within this many tokens")
    p.add_argument("--timeout", type=float, default=60, help="seconds per run (the first page: 4×)")
    p.add_argument("--app-dir", help="serve the app from this folder instead, e.g. an export of another commit: "
                                     "git archive HEAD | tar -x -C DIR")
    p.add_argument("--js-profile", action="store_true",
                   help="one more run under Chromium's JS profiler: where the page's script time goes")
    p.add_argument("--nice", type=int, help="run the server and Chromium at this nice value (e.g. -10, as root): "
                                            "what the page costs when it gets the CPU before other jobs")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="a Streamlit option for the server, e.g. runner.postScriptGC=false (repeatable)")
    p.add_argument("--page", choices=list(PAGES), default="home",
                   help="the page timed: home (default) or architecture (a block's panel open)")
    p.add_argument("--out", help="JSON result (default out/bench/app.json; app-architecture.json for --page architecture)")
    add_smoke(p)
    args = parse_args(p, argv, SMOKE)
    if args.repeats < 15 and not args.smoke:
        p.error("--repeats must be at least 15")
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} not found (sudo apt-get install chromium fonts-noto-cjk)")
    os.environ["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    app_dir = Path(args.app_dir).resolve() if args.app_dir else ROOT
    sys.path.insert(0, str(app_dir))              # its pages.ui.figures for the server's share, below
    from transformer_core.checkpoints.load import load_checkpoint

    load_start = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="bench-app-"))
    served = tmp / "checkpoints"
    served.mkdir()
    model_dir = snapshot(Path(args.checkpoint), served)
    if "ATLAS_CHECKPOINTS_DIR" not in (app_dir / "pages" / "ui" / "model_state.py").read_text(encoding="utf-8"):
        # an app that only reads its own checkpoints/: only in an export, never in this checkout
        linked = app_dir / "checkpoints"
        if app_dir == ROOT or (linked.exists() and any(linked.iterdir())):
            raise SystemExit(f"{app_dir}'s app does not read ATLAS_CHECKPOINTS_DIR and its checkpoints/ is not empty")
        linked.mkdir(exist_ok=True)
        (linked / model_dir.name).symlink_to(model_dir)
    ckpt = load_checkpoint(model_dir)
    n = args.warmup + args.repeats + (1 if args.js_profile else 0)
    import torch
    torch.set_num_threads(1)
    sentences, wants, skipped = make_sentences(ckpt, n, args.max_out)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port)]
    for option in args.set:
        key, _, value = option.partition("=")
        cmd += [f"--{key}", value]
    env = {**os.environ, "ATLAS_CHECKPOINTS_DIR": str(served), "PYTHONUNBUFFERED": "1"}
    log_path = tmp / "streamlit.log"
    runs, result = [], {}
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(str(tmp / "profile"), executable_path=CHROMIUM, headless=True,
                                                    args=CHROMIUM_ARGS, viewport=VIEWPORT)
        ctx.add_init_script(WS_JS)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Performance.enable")
        t_launch = time.monotonic()
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(cmd, cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            while not healthy(url):
                if proc.poll() is not None:
                    raise SystemExit(f"streamlit exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
                if time.monotonic() - t_launch > 4 * args.timeout:
                    raise SystemExit("streamlit not healthy in time")
                time.sleep(0.1)
            t_healthy = time.monotonic()
            print(f"server pid {proc.pid} on {url}, healthy after {t_healthy - t_launch:.1f} s", flush=True)
            timed_page = PAGES[args.page]
            if args.page != "home":                # the home page first: Streamlit then knows the pages' addresses
                page.goto(url + "/", wait_until="domcontentloaded")
                page.wait_for_function(FIRST_PAGE_JS, arg=[PAGES["home"]["ready"]], timeout=4 * args.timeout * 1000,
                                       polling=50)
            page.goto(url + timed_page["path"], wait_until="domcontentloaded")
            first = page.wait_for_function(FIRST_PAGE_JS, arg=[timed_page["ready"]], timeout=4 * args.timeout * 1000,
                                           polling=50).json_value()
            t_first = time.monotonic()
            # The browser may still be drawing messages that came in before the run ended: the first page
            # is the one whose chart count stays the same for a second.
            stable_since = time.monotonic()
            while time.monotonic() - stable_since < 1.0:
                if isinstance(first, dict):
                    raise SystemExit("the app raised an exception: " + first["error"])
                time.sleep(0.05)
                now = page.evaluate(FIRST_PAGE_JS, [timed_page["ready"]])
                if now != first:
                    first, stable_since = now, time.monotonic()
                    t_first = stable_since if now else t_first
            n_plots = int(first)
            mem_loaded = memory_mb(proc.pid)
            page.evaluate(LISTEN_JS)
            server_pids, browser_pids = process_tree(proc.pid), pids_with(str(tmp / "profile"))
            if args.nice is not None:
                renice(server_pids + browser_pids + [os.getpid()], args.nice)
            box = page.locator(timed_page["input"])
            for i, (text, want) in enumerate(zip(sentences, wants, strict=True)):
                profiling = args.js_profile and i == n - 1
                if profiling:
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                    cdp.send("Profiler.start")
                box.fill(text)
                wait_idle(server_pids)                    # the last run's work is over, as for a user typing
                page.evaluate(RESET_JS)
                before = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                cpu0 = cpu_ms(server_pids), cpu_ms(browser_pids)
                box.press("Enter")
                try:
                    done = page.wait_for_function(DONE_JS, arg=[{**want, "n_plots": n_plots,
                                                                 "text_box": timed_page["text_box"]}], polling="raf",
                                                  timeout=args.timeout * 1000).json_value()
                except PlaywrightTimeout:
                    state = page.evaluate(DONE_JS, [{**want, "n_plots": n_plots, "text_box": timed_page["text_box"],
                                                     "explain": True}])
                    raise SystemExit(f"the page did not show {text!r} in {args.timeout:.0f} s; expected "
                                     f"{ {k: want[k] for k in ('text', 'marker', 'sequences')} }, page: {state}") from None
                if isinstance(done, dict):
                    raise SystemExit(f"the app raised an exception on {text!r}: {done['error']}")
                # Done is the later of that frame and the last DOM change before QUIET_MS without one (a
                # chart's second pass, e.g. plotly's automargin redraw, would come after the check passed).
                try:
                    page.wait_for_function(QUIET_JS, arg=[QUIET_MS], polling="raf", timeout=5000)
                    settled = True
                except PlaywrightTimeout:
                    settled = False
                cpu1 = cpu_ms(server_pids), cpu_ms(browser_pids)
                if profiling:
                    result["js_profile"] = js_profile_summary(cdp.send("Profiler.stop")["profile"])
                t0, marks, last, what, ws = page.evaluate("() => [window.__atlasT0, window.__atlasMarks, "
                                                          "window.__atlasLastChange, window.__atlasLastWhat, "
                                                          "window.__atlasWs]")
                checked, done = done, max(done, last or done) if settled else done
                after = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                cpu = {k: round(1000 * (after[k] - before[k]), 1)
                       for k in ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "TaskDuration")}
                if profiling:
                    result["js_profile"]["run_ms"] = round(done - t0, 1)
                    continue
                run = {"sentence": text, "warmup": i < args.warmup, "ms": round(done - t0, 1),
                       "checks_passed_ms": round(checked - t0, 1), "settled": settled, "last_change": what,
                       "last_message_ms": round(ws[-1][0] - t0, 1) if ws else None,
                       "messages": len(ws), "message_kib": round(sum(m[1] for m in ws) / 1024, 1),
                       "message_arrivals_ms": [[round(m[0] - t0, 1), m[1]] for m in ws],
                       "text_ms": round(marks["text"] - t0, 1), "plots_ms": round(marks["plots"] - t0, 1),
                       "run_over_ms": round(marks["idle"] - t0, 1), "browser_main_thread_ms": cpu,
                       "server_cpu_ms": round(cpu1[0] - cpu0[0]), "browser_cpu_ms": round(cpu1[1] - cpu0[1]),
                       "out_tokens": len(want["out_ids"])}
                runs.append(run)
                print(f"{'warm-up' if run['warmup'] else 'run'} {i + 1:>2}: {run['ms']:7.1f} ms  (checks "
                      f"{run['checks_passed_ms']:.0f}{'' if settled else ', NOT settled'}, translation "
                      f"{run['text_ms']:.0f}, charts {run['plots_ms']:.0f}, run over {run['run_over_ms']:.0f}; "
                      f"CPU: server {run['server_cpu_ms']}, browser {run['browser_cpu_ms']} ms; {run['out_tokens']} "
                      f"output tokens; last DOM change: {what})", flush=True)
            mem_after = memory_mb(proc.pid)
        finally:
            stop(proc)
            ctx.close()
    load_end = os.getloadavg()
    timed = [r for r in runs if not r["warmup"]]
    ms = [r["ms"] for r in timed]
    stats = {k: round(v, 1) for k, v in summary(ms).items() if k != "n"}
    breakdown = server_breakdown(ckpt, sentences[args.warmup:args.warmup + args.repeats])

    def med(key, sub=None):
        vals = [r[key][sub] if sub else r[key] for r in timed]
        return round(statistics.median(vals), 1)

    result.update({
        "command": " ".join(cmd[1:]).replace(str(port), "<free port>"), "app_dir": str(app_dir),
        "page": args.page, "checkpoint": str(Path(args.checkpoint)), "served_snapshot_of": str(Path(args.checkpoint).resolve()),
        "nice": args.nice, "src_tokens": SRC_TOKENS, "mode": f"beam {ckpt.beam_options['beam']}", "max_out_tokens": args.max_out,
        "sentences_skipped_for_longer_output": skipped,
        "out_tokens_median": statistics.median(len(w["out_ids"]) for w in wants[args.warmup:args.warmup + args.repeats]),
        "charts_on_page": n_plots, "repeats": args.repeats,
        "warmup": args.warmup, "latency_ms": {**stats, "p90": round(percentile(ms, 90), 1), "n": len(ms)},
        "target_median_ms": TARGET_MS, "meets_target": stats["median"] <= TARGET_MS,
        "latency_parts_median_ms": {"translation_shown": med("text_ms"), "charts_drawn": med("plots_ms"),
                                    "run_over": med("run_over_ms"), "last_server_message": med("last_message_ms"),
                                    "drawn_after_last_message": round(statistics.median(
                                        r["ms"] - r["last_message_ms"] for r in timed), 1)},
        "messages_per_run_median": med("messages"), "message_kib_per_run_median": med("message_kib"),
        "cpu_per_run_median_ms": {"server": med("server_cpu_ms"), "browser": med("browser_cpu_ms")},
        "browser_main_thread_median_ms": {k: med("browser_main_thread_ms", k)
                                          for k in ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration",
                                                    "TaskDuration")},
        "server_offline_median_ms": breakdown,
        "cold_start_s": {"to_healthy": round(t_healthy - t_launch, 2),
                         "to_first_page_with_translation": round(t_first - t_launch, 2)},
        "server_memory": {"after_model_loaded": mem_loaded, "after_runs": mem_after},
        "load_average": {"start": list(load_start), "end": list(load_end)},
        "smoke": args.smoke, "env": environment(), "runs": runs,
    })
    name = "app" if args.page == "home" else f"app-{args.page}"
    path = write_result(result_name(name, args.smoke), result, args.out)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n{args.page} page, new {SRC_TOKENS}-token sentence -> {n_plots} charts redrawn "
          f"({len(ms)} runs after {args.warmup} warm-ups):")
    print(f"  median {stats['median']:.0f} ms, p90 {result['latency_ms']['p90']:.0f} ms, min {stats['min']:.0f}, "
          f"max {stats['max']:.0f}  (target median ≤ {TARGET_MS:.0f} ms: "
          f"{'ok' if result['meets_target'] else 'MISSED'})")
    parts = result["latency_parts_median_ms"]
    print(f"  medians from Enter: translation shown {parts['translation_shown']:.0f} ms, charts drawn "
          f"{parts['charts_drawn']:.0f} ms, script run over {parts['run_over']:.0f} ms; the server's last message "
          f"arrived at {parts['last_server_message']:.0f} ms ({result['messages_per_run_median']:.0f} messages, "
          f"{result['message_kib_per_run_median']:.0f} KiB), the page was done {parts['drawn_after_last_message']:.0f} ms "
          f"after it")
    print(f"  CPU time per run (median): server {result['cpu_per_run_median_ms']['server']:.0f} ms, browser (all "
          f"Chromium processes) {result['cpu_per_run_median_ms']['browser']:.0f} ms")
    bm = result["browser_main_thread_median_ms"]
    print(f"  browser main thread per run: script {bm['ScriptDuration']:.0f} ms, layout {bm['LayoutDuration']:.0f} ms, "
          f"style {bm['RecalcStyleDuration']:.0f} ms, all tasks {bm['TaskDuration']:.0f} ms")
    print(f"  server share (offline, median): translate {breakdown['translate']:.0f} ms, trace "
          f"{breakdown['trace']:.0f} ms, figures {breakdown['figures']:.0f} ms, JSON {breakdown['to_json']:.0f} ms "
          f"({breakdown['json_bytes'] / 1024:.0f} KiB)")
    print(f"  cold start: healthy {result['cold_start_s']['to_healthy']:.1f} s, first page with translation "
          f"{result['cold_start_s']['to_first_page_with_translation']:.1f} s")
    print(f"  server memory: {mem_loaded['rss_mb']:.0f} MB RSS after the model loaded, {mem_after['rss_mb']:.0f} MB "
          f"after the runs (PSS {mem_after['pss_mb']:.0f} MB, {mem_after['processes']} process(es))")
    print(f"  load average {load_start[0]:.2f} at start, {load_end[0]:.2f} at end ({os.cpu_count()} CPUs)")
    if "js_profile" in result:
        print("  page JavaScript self time in one more run (CDP profiler), by file: " + ", ".join(
            f"{k} {v:.0f} ms" for k, v in list(result["js_profile"]["by_file_ms"].items())[:6]))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
