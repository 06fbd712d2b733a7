"""Training: the lrate schedule (with the paper's 512/4000 as reference), label smoothing, and a
training log — from a checkpoint folder, or followed live while train.py writes it.

Slots for the log (each a function below): overlay_logged_lr, log_curves, live_follow.
The project root (where checkpoints/ and runs/ live) can be moved with ATLAS_ROOT (tests do).
"""
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
import torch

from pages.ui import figures, model_state
from pages.ui.i18n import t
from pages.ui.sentence import kind_label
from pages.ui.widgets import escape_md, latex, page_header, show_figure
from transformer_core.checkpoints.files import HISTORY, CheckpointError
from transformer_core.explainer import explain, history
from transformer_core.training.schedule import lrate
from transformer_core.training.smoothing import (
    best_confidence,
    confident_prediction,
    cross_entropy,
    loss_vs_confidence,
    smoothed_targets,
)
from transformer_core.training.trainlog import (
    LogPathError,
    TrainLog,
    find_logs,
    read_log,
    resolve_log_path,
    round_starts_of,
)

ROOT = Path(os.environ.get("ATLAS_ROOT") or Path(__file__).resolve().parents[1])
PAPER_D_MODEL, PAPER_WARMUP = 512, 4000
CURVE_POINTS = 1500
LIVE_EVERY_S = 5
LIVE_DEFAULT_PATH = "runs/"


def curve_steps(total: int, warmup: int) -> list[int]:
    """≤ CURVE_POINTS steps in 1..total, always including the warmup peak."""
    xs = np.linspace(1, total, CURVE_POINTS).round().astype(int).tolist()
    if warmup <= total:
        xs.append(warmup)
    return sorted(set(xs))


def lr_values(steps: list[int], d_model: int, warmup: int, scale: float) -> list[float]:
    """Not cached: st.cache_data hashing the steps took ten times as long as computing them (8.8 against 0.9 ms)."""
    return [lrate(s, d_model, warmup, scale) for s in steps]


@st.cache_data(max_entries=16, show_spinner=False)
def cached_log(path: str, mtime: float, size: int) -> TrainLog:
    return read_log(path)


def load_log(path: Path) -> TrainLog:
    stat = path.stat()
    return cached_log(str(path), stat.st_mtime, stat.st_size)


def checkpoint_settings(folder: Path) -> dict:
    """d_model, warmup, lr_scale of a checkpoint, from its config.json / training.json where present."""
    found = {}
    for name in ("config.json", "training.json"):
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        for source in (data, data.get("args") or {}, data.get("config") or {}):
            if not isinstance(source, dict):
                continue
            for key in ("d_model", "warmup", "lr_scale"):
                value = source.get(key)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                    found.setdefault(key, value)
    return found


def use_settings(settings: dict) -> None:
    """Callback: move the sliders to a checkpoint's settings."""
    if "d_model" in settings:
        st.session_state["train_d_model"] = int(min(max(settings["d_model"], 64), 2048))
    if "warmup" in settings:
        st.session_state["train_warmup"] = int(min(max(round(settings["warmup"] / 100) * 100, 100), 20000))
    if "lr_scale" in settings:
        st.session_state["train_scale"] = float(min(max(settings["lr_scale"], 0.1), 5.0))


# ---------------------------------------------------------------- the schedule

def schedule_section(logs: list[Path]) -> None:
    st.header(t("training.lr.title"))
    st.markdown(t("training.lr.explain"))
    latex(r"lrate = d_{model}^{-0.5} \cdot \min\!\left(step\_num^{-0.5},\; step\_num \cdot "
          r"warmup\_steps^{-1.5}\right)")
    c1, c2, c3, c4 = st.columns(4)
    d_model = c1.select_slider(t("training.lr.d_model"), (64, 128, 256, 512, 1024, 2048), value=256,
                               key="train_d_model")
    warmup = c2.slider(t("training.lr.warmup"), 100, 20000, 4000, step=100, key="train_warmup")
    scale = c3.slider(t("training.lr.scale"), 0.1, 5.0, 1.0, step=0.1, key="train_scale",
                      help=t("training.lr.scale_help"))
    total = c4.slider(t("training.lr.steps"), 1000, 300000, 100000, step=1000, key="train_total")
    overlay = None
    if logs:
        names = [model_state.readable_name(p.parent.name) for p in logs]
        choice = st.selectbox(t("training.lr.overlay"), [None, *range(len(logs))], key="train_overlay",
                              format_func=lambda i: t("training.lr.overlay_none") if i is None else names[i])
        if choice is not None:
            overlay = logs[choice]
            settings = checkpoint_settings(overlay.parent)
            if settings:
                cc1, cc2 = st.columns([3, 1])
                values = {k: f"{settings[k]:g}" if k in settings else "?" for k in ("d_model", "warmup", "lr_scale")}
                cc1.caption(t("training.lr.ckpt_settings", **values))
                cc2.button(t("training.lr.use_settings"), on_click=use_settings, args=(settings,),
                           key="train_use_settings")
    steps = curve_steps(total, warmup)
    ys = lr_values(steps, d_model, warmup, float(scale))
    paper = lr_values(steps, PAPER_D_MODEL, PAPER_WARMUP, 1.0)
    curves = [{"y": ys, "name": t("training.lr.yours", d_model=d_model, warmup=warmup, scale=f"{scale:g}")},
              {"y": paper, "name": t("training.lr.paper"), "dash": "dash", "color": "#6b7280"}]
    logged = overlay_logged_lr(overlay) if overlay is not None else None
    fig = figures.lr_figure(steps, curves, title=t("training.lr.fig_title"), x_title=t("training.axis.step"),
                            y_title=t("training.axis.lr"), logged=logged, warmup=warmup,
                            warmup_label=t("training.lr.warmup_mark", warmup=warmup),
                            round_starts=round_starts_of(overlay.parent) if overlay is not None else (),
                            round_label=t("training.log.round_start"))
    data = {"schedule": pd.DataFrame({"step": steps, "lrate": ys, "lrate_paper_512_4000": paper})}
    if logged is not None:
        data["logged"] = pd.DataFrame({"step": logged["x"], "lr": logged["y"]})
    show_figure(fig, "lrate", data)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("training.lr.peak", warmup=warmup), f"{lrate(warmup, d_model, warmup, scale):.2e}")
    m2.metric(t("training.lr.at_end", steps=total), f"{lrate(total, d_model, warmup, scale):.2e}")
    m3.metric(t("training.lr.paper_peak"), f"{lrate(PAPER_WARMUP, PAPER_D_MODEL, PAPER_WARMUP):.2e}")
    st.caption(t("training.lr.caption"))


def overlay_logged_lr(path: Path) -> dict | None:
    """Slot: the lr a training run logged, as points on the schedule figure."""
    try:
        log = load_log(path)
    except OSError:
        st.warning(t("training.log.unreadable"))
        return None
    pts = [(s, lr) for s, lr in zip(log.train["step"], log.train["lr"], strict=False) if lr is not None]
    if not pts:
        st.info(t("training.log.no_lr"))
        return None
    return {"x": [p[0] for p in pts], "y": [p[1] for p in pts],
            "name": t("training.lr.logged", name=model_state.readable_name(path.parent.name))}


# ---------------------------------------------------------------- label smoothing

@st.fragment
def smoothing_section() -> None:
    st.header(t("training.ls.title"))
    st.markdown(t("training.ls.explain"))
    latex(r"q_j = (1-\varepsilon_{ls})\,y_j + \frac{\varepsilon_{ls}}{V}, \qquad "
          r"\mathcal{L} = H(q, p) = -\sum_{j=1}^{V} q_j \log p_j")
    vocab = t("training.ls.vocab").split()
    V = len(vocab)
    c1, c2, c3 = st.columns(3)
    eps = c1.slider(t("training.ls.eps"), 0.0, 0.5, 0.1, step=0.01, key="train_eps")
    target = c2.selectbox(t("training.ls.target"), range(V), index=min(2, V - 1), format_func=lambda i: vocab[i],
                          key="train_target")
    conf = c3.slider(t("training.ls.confidence"), 0.05, 0.99, 0.7, step=0.01, key="train_conf",
                     help=t("training.ls.confidence_help"))
    tgt = torch.tensor([target])
    one_hot = smoothed_targets(tgt, V, 0.0)[0]
    smooth = smoothed_targets(tgt, V, eps)[0]
    pred = confident_prediction(V, target, conf)
    dists = {t("training.ls.one_hot"): one_hot.tolist(), t("training.ls.smoothed", eps=f"{eps:g}"): smooth.tolist(),
             t("training.ls.prediction"): pred.tolist()}
    left, right = st.columns(2)
    with left:
        fig = figures.smoothing_figure(vocab, dists, title=t("training.ls.fig_title"), x_title=t("training.ls.vocab_axis"),
                                       y_title=t("training.ls.prob"))
        show_figure(fig, "label_smoothing", pd.DataFrame({"one_hot": one_hot.tolist(), "smoothed": smooth.tolist(),
                                                          "prediction": pred.tolist()}, index=vocab))
    with right:
        cs = np.round(np.linspace(0.02, 0.995, 200), 4).tolist()
        curve = loss_vs_confidence(V, eps, cs, target)
        best = best_confidence(V, eps)
        fig = figures.confidence_loss_figure(
            cs, {t("training.ls.loss_one_hot"): curve["one_hot"], t("training.ls.loss_smoothed"): curve["smoothed"]},
            best=best, best_label=t("training.ls.best_mark"), chosen=conf, chosen_label=t("training.ls.current_mark"),
            title=t("training.ls.curve_title"), x_title=t("training.ls.confidence"), y_title=t("training.ls.loss"))
        show_figure(fig, "smoothing_loss", pd.DataFrame(curve))
    m1, m2, m3 = st.columns(3)
    m1.metric(t("training.ls.loss_one_hot"), f"{cross_entropy(one_hot, pred):.4f}")
    m2.metric(t("training.ls.loss_smoothed"), f"{cross_entropy(smooth, pred):.4f}")
    m3.metric(t("training.ls.best"), f"{best:.4f}")
    st.caption(t("training.ls.caption", V=V))


# ---------------------------------------------------------------- the training log

def log_curves(log: TrainLog, name: str, key: str, round_starts: list[int] = ()) -> None:
    """Slot: loss, validation loss and BLEU (and throughput) from a training log; round_starts: where a
    fine-tune's later runs began (the log goes on from its base's)."""
    if log.empty:
        st.info(t("training.log.empty"))
        return
    tr, va = log.train, log.valid

    def points(table: dict, key: str, name: str, mode: str = "lines") -> dict:
        """The logged values of one key (lines that do not carry it are skipped)."""
        pairs = [(x, y) for x, y in zip(table["step"], table[key], strict=False) if y is not None]
        return {"x": [p[0] for p in pairs], "y": [p[1] for p in pairs], "name": name, "mode": mode}

    panels = [{"title": t("training.log.loss_panel"),
               "series": [points(tr, "loss", t("training.log.loss")),
                          points(va, "valid_loss", t("training.log.valid_loss"), "lines+markers")]},
              {"title": t("training.log.bleu_panel"),
               "series": [points(va, "bleu", t("training.log.bleu"), "lines+markers")]},
              {"title": t("training.log.speed_panel"),
               "series": [points(tr, "tokens_per_s", t("training.log.speed"))]}]
    fig = figures.log_figure(panels, x_title=t("training.axis.step"), round_starts=round_starts,
                             round_label=t("training.log.round_start"))
    show_figure(fig, f"log_{name}", {"train": pd.DataFrame(tr), "valid": pd.DataFrame(va)}, key=key)
    bleus = [b for b in va["bleu"] if b is not None]
    losses = [x for x in tr["loss"] if x is not None]
    elapsed = [e for e in tr["elapsed"] + va["elapsed"] if e is not None]
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("training.log.last_step"), f"{log.last_step:,}")
    m2.metric(t("training.log.last_loss"), f"{losses[-1]:.3f}" if losses else "–")
    m3.metric(t("training.log.best_bleu"), f"{max(bleus):.2f}" if bleus else "–")
    m4.metric(t("training.log.elapsed"), f"{max(elapsed) / 60:.1f}" if elapsed else "–")
    if round_starts:
        st.caption(t("training.log.rounds", n=len(round_starts) + 1, steps=", ".join(f"{s:,}" for s in round_starts)))
    if log.skipped:
        st.caption(t("training.log.skipped", n=log.skipped))
    st.caption(t("training.log.why_low"))


def active_first(logs: list[Path]) -> tuple[list[Path], list[str]]:
    """The logs to offer and their names, the active model's own first (a bundled, uploaded or Hub model's,
    from its folder): the page follows the model chosen in the sidebar."""
    names = [model_state.readable_name(p.parent.name) for p in logs]
    ckpt = model_state.active(quiet=True)
    own = ckpt.log_path if ckpt is not None else None
    if own is None:
        return logs, names
    rest = [(p, n) for p, n in zip(logs, names, strict=False) if p.resolve() != own.resolve()]
    label = dict(model_state.model_choices()).get(model_state.active_key(), ckpt.name)
    return [own, *(p for p, _ in rest)], [label, *(n for _, n in rest)]


def checkpoint_log_section(logs: list[Path]) -> None:
    st.header(t("training.log.title"))
    st.markdown(t("training.log.explain"))
    logs, names = active_first(logs)
    if not logs:
        st.info(t("training.log.none"))
        return
    i = st.selectbox(t("training.log.pick"), range(len(logs)), format_func=lambda j: names[j],
                     key=f"{LOG_PICK}_{model_state.active_key()}")     # a new model: its own log first
    try:
        log = load_log(logs[i])
    except OSError:
        st.warning(t("training.log.unreadable"))
        return
    log_curves(log, names[i], key="fig_log_ckpt", round_starts=round_starts_of(logs[i].parent))
    history_view(logs[i].parent, log)


@st.cache_data(max_entries=4, show_spinner=False)
def cached_history(path: str, mtime: float):
    return history.load(Path(path))


def history_view(folder: Path, log: TrainLog) -> None:
    """Slot: attention being learned, from the checkpoint's attention_history.safetensors."""
    path = folder / HISTORY
    st.subheader(t("training.hist.title"))
    if not path.is_file():
        st.info(t("training.hist.none"))
        return
    st.markdown(t("training.hist.explain"))
    try:
        hist = cached_history(str(path), path.stat().st_mtime)
    except CheckpointError as err:                  # not the file train.py writes: why, in a line
        st.warning(t("training.hist.invalid", why=escape_md(str(err)[:300])))
        return
    if hist is None or not hist.steps:
        st.warning(t("training.hist.unreadable"))
        return
    c1, c2, c3, c4 = st.columns([3, 2, 1, 1])
    probe = c1.selectbox(t("training.hist.probe"), range(len(hist.probes)), key="train_hist_probe",
                         format_func=lambda i: hist.probes[i].src)
    kind = c2.selectbox(t("training.hist.kind"), explain.ATTENTION_KINDS, index=2, key="train_hist_kind",
                        format_func=kind_label)
    weights = hist.weights[probe][kind]                                  # (N, L, h, Tq, Tk)
    layer = c3.selectbox(t("attn.layer"), range(weights.shape[1]), index=weights.shape[1] - 1,
                         format_func=lambda i: str(i + 1), key="train_hist_layer")
    head = c4.selectbox(t("attn.head"), range(weights.shape[2]), format_func=lambda i: str(i + 1),
                        key="train_hist_head")
    p = hist.probes[probe]
    q_labels = p.src_pieces if kind == "enc_self" else p.pred_pieces      # a decoder row: the token it predicts
    k_labels = p.tgt_pieces if kind == "dec_self" else p.src_pieces
    tr = log.train
    pairs = [(x, y) for x, y in zip(tr["step"], tr["loss"], strict=False) if y is not None]
    replay = {"weights": weights[:, layer, head], "steps": hist.steps, "q": q_labels, "k": k_labels,
              "loss_x": [x for x, _ in pairs], "loss_y": [y for _, y in pairs], "layer": layer, "head": head}
    playing = st.session_state.get(PLAYING_KEY, False)
    st.fragment(replay_view, run_every=PLAY_EVERY_S if playing else None)(replay, playing)
    if kind != "enc_self":
        st.caption(t("attn.rows_named"))
    st.caption(t("training.hist.caption", n=len(hist.steps), first=hist.steps[0], last=hist.steps[-1]))


PLAYING_KEY, STEP_KEY = "train_hist_playing", "train_hist_step"
LOG_PICK = "train_log_pick"
PLAY_EVERY_S = 0.7                    # a step of the replay: one redraw of the heatmap and the loss marker


def _toggle_play(last: int) -> None:
    playing = not st.session_state.get(PLAYING_KEY, False)
    st.session_state[PLAYING_KEY] = playing
    if playing and st.session_state.get(STEP_KEY, 0) >= last:       # played to the end: from the start again
        st.session_state[STEP_KEY] = 0


def replay_view(replay: dict, playing: bool) -> None:
    """The step slider with ▶ / ❚❚, and the figure at that step: computed here, redrawn in place.  While
    playing, this fragment runs every PLAY_EVERY_S and moves one record on; at the last it stops."""
    steps = replay["steps"]
    last = len(steps) - 1
    now_playing = st.session_state.get(PLAYING_KEY, False)
    if now_playing != playing:                  # ▶ or ❚❚ inside this fragment: the timer is set by the page run
        st.rerun(scope="app")
    index = min(st.session_state.get(STEP_KEY, 0), last)
    if playing:
        index = min(index + 1, last)
        if index == last:
            st.session_state[PLAYING_KEY] = False
    st.session_state[STEP_KEY] = index
    c1, c2 = st.columns([1, 6], vertical_alignment="center")
    c1.button(t("training.hist.pause") if playing else t("training.hist.play"), key="train_hist_play",
              on_click=_toggle_play, args=(last,), width="stretch")
    c2.select_slider(t("training.axis.step"), options=list(range(len(steps))), key=STEP_KEY,
                     format_func=lambda i: f"{steps[i]:,}")
    step = steps[index]
    fig = figures.history_figure(replay["weights"][index], step, replay["q"], replay["k"], replay["loss_x"],
                                 replay["loss_y"], title=t("training.hist.fig", layer=replay["layer"] + 1,
                                                           head=replay["head"] + 1),
                                 x_title=t("lab.axis.key"), y_title=t("lab.axis.query"),
                                 loss_title=t("training.log.loss"), step_label=t("training.axis.step"))
    show_figure(fig, "attention_history", {str(s): pd.DataFrame(w, index=replay["q"], columns=replay["k"])
                                           for s, w in zip(steps, replay["weights"], strict=False)},
                key="fig_train_history")
    if playing and index == last:
        st.rerun(scope="app")                   # the end: the page run stops the timer


@st.fragment(run_every=LIVE_EVERY_S)
def live_body(path: str) -> None:
    try:
        log = load_log(Path(path))
    except OSError:
        st.warning(t("training.log.unreadable"))
        return
    st.caption(t("training.live.updated", step=log.last_step if log.last_step is not None else "–",
                 s=LIVE_EVERY_S))
    log_curves(log, "live", key="fig_log_live")


def live_follow() -> None:
    """Slot: follow a log that train.py is still writing (only under runs/ or checkpoints/)."""
    st.header(t("training.live.title"))
    st.markdown(t("training.live.explain"))
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    runs = find_logs(ROOT, "runs")
    default = str(runs[0].relative_to(ROOT)) if runs else LIVE_DEFAULT_PATH
    text = c1.text_input(t("training.live.path"), default, max_chars=300, key="train_live_path",
                         help=t("training.live.path_help"))
    on = c2.toggle(t("training.live.on"), key="train_live_on")
    if not on:
        return
    try:
        path = resolve_log_path(text, ROOT)
    except LogPathError as err:
        st.warning(t(f"training.live.err.{err.reason}"))
        return
    live_body(str(path))


def main() -> None:
    page_header("training")
    logs = find_logs(ROOT)
    schedule_section(logs)
    st.divider()
    smoothing_section()
    st.divider()
    checkpoint_log_section(logs)
    st.divider()
    live_follow()


main()
