"""Scaled dot-product attention lab: the lecture's 사과/배 example, editable, every intermediate
shown; why we divide by √d_k; and (once a model loads) the real Q and K of a chosen head."""
import math

import numpy as np
import pandas as pd
import streamlit as st
import torch

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame
from pages.ui.i18n import current_lang, t
from pages.ui.sentence import kind_label, sentence_run
from pages.ui.widgets import latex, page_header, show_figure
from transformer_core.explainer import explain
from transformer_core.explainer.scaling import dot_product_spread, dot_products, saturation, softmax_jacobian
from transformer_core.model.attention import attention_steps
from transformer_core.model.masks import subsequent_mask

# The lecture's worked example (000, "사과에 대한 배의 어텐션"): d_k = 4.
APPLE = [0.1, 0.4, 0.5, 0.3]        # 사과: Q
PEAR_K = [0.2, 0.3, 0.4, 0.2]       # 배: K
PEAR_V = [0.5, 0.8, 0.7, 0.9]       # 배: V
LIKE = [0.6, 0.1, 0.2, 0.7]         # 좋아: our own third vector for the self-attention preset
PRESETS = ("lecture", "self")
D_KS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
MAX_ROWS = 8
MAX_ABS = 1e4


def preset_tables(preset: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    tok = t("lab.col.token")
    q_cols = [f"q{j + 1}" for j in range(4)]
    k_cols = [f"k{j + 1}" for j in range(4)]
    v_cols = [f"v{j + 1}" for j in range(4)]
    apple, pear, like = t("lab.tok.apple"), t("lab.tok.pear"), t("lab.tok.like")
    if preset == "lecture":
        q = pd.DataFrame([[apple, *APPLE]], columns=[tok, *q_cols])
        kv = pd.DataFrame([[pear, *PEAR_K, *PEAR_V]], columns=[tok, *k_cols, *v_cols])
    else:   # self-attention: every word is query, key and value (x W = x, no projections)
        words = [(apple, APPLE), (pear, PEAR_K), (like, LIKE)]
        q = pd.DataFrame([[w, *x] for w, x in words], columns=[tok, *q_cols])
        kv = pd.DataFrame([[w, *x, *x] for w, x in words], columns=[tok, *k_cols, *v_cols])
    return q, kv


def number_columns(frame: pd.DataFrame) -> dict:
    """Narrow number columns for the editors (the token column stays text)."""
    return {c: st.column_config.NumberColumn(c, width="small", format="%.3g", step=0.01)
            for c in frame.columns[1:]}


def read_table(frame: pd.DataFrame, prefixes: tuple[str, ...]) -> tuple[list[str], list[torch.Tensor]] | None:
    """Token names and the numeric blocks of an edited table; None (with a message) if unusable."""
    frame = frame.dropna(how="all")
    if frame.empty:
        st.warning(t("lab.err.empty"))
        return None
    if len(frame) > MAX_ROWS:
        st.warning(t("lab.err.rows", n=MAX_ROWS))
        return None
    names = [str(x) if isinstance(x, str) and x.strip() else f"#{i + 1}"
             for i, x in enumerate(frame.iloc[:, 0].tolist())]
    blocks = []
    for p in prefixes:
        cols = [c for c in frame.columns if str(c).startswith(p)]
        values = pd.DataFrame(frame[cols]).apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        if np.isnan(values).any():
            st.warning(t("lab.err.missing"))
            return None
        if np.abs(values).max(initial=0) > MAX_ABS:
            st.warning(t("lab.err.huge", m=f"{MAX_ABS:g}"))
            return None
        blocks.append(torch.tensor(values, dtype=torch.float64))
    return names, blocks


def step_view(title: str, matrix: np.ndarray, rows, cols, name: str, probabilities: bool = False) -> None:
    """One intermediate as a small heatmap with its numbers written in the cells."""
    st.markdown(f"**{title}**")
    fig = figures.step_heatmap(matrix, cols, rows, x_title=t("lab.axis.key"), y_title=t("lab.axis.query"),
                               masked_text=t("common.neg_inf"), probabilities=probabilities)
    show_figure(fig, name, matrix_frame(matrix, rows, cols))


def lab_section() -> None:
    st.header(t("lab.example.title"))
    preset = st.radio(t("lab.preset"), PRESETS, format_func=lambda p: t(f"lab.preset.{p}"), horizontal=True,
                      key="lab_preset")
    st.markdown(t(f"lab.preset.{preset}.explain"))
    q_default, kv_default = preset_tables(preset)
    lang = current_lang()
    st.markdown(f"**{t('lab.q_table')}**")
    q_frame = st.data_editor(q_default, num_rows="dynamic", hide_index=True, key=f"lab_q_{preset}_{lang}",
                             column_config=number_columns(q_default), width="content")
    st.markdown(f"**{t('lab.kv_table')}**")
    kv_frame = st.data_editor(kv_default, num_rows="dynamic", hide_index=True, key=f"lab_kv_{preset}_{lang}",
                              column_config=number_columns(kv_default), width="content")
    q_read = read_table(q_frame, ("q",))
    kv_read = read_table(kv_frame, ("k", "v"))
    if q_read is None or kv_read is None:
        return
    q_names, (q,) = q_read
    k_names, (k, v) = kv_read
    d_k = q.size(1)
    causal = st.toggle(t("lab.causal"), key="lab_causal", help=t("lab.causal_help"))
    mask = None
    if causal:
        if q.size(0) != k.size(0):
            st.info(t("lab.causal_needs_square"))
        else:
            mask = subsequent_mask(q.size(0))
    steps = attention_steps(q, k, v, mask)
    v_cols = [f"v{j + 1}" for j in range(v.size(1))]

    latex(r"\text{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^T}{\sqrt{d_k}}\right)V, \qquad d_k = "
          + str(d_k) + r",\ \sqrt{d_k} = " + f"{math.sqrt(d_k):.4g}")
    cols = st.columns(4)
    with cols[0]:
        step_view(t("lab.step.scores"), steps["scores"].numpy(), q_names, k_names, "qk")
    with cols[1]:
        step_view(t("lab.step.scaled", d_k=d_k), steps["scaled"].numpy(), q_names, k_names, "scaled")
    with cols[2]:
        if mask is not None:
            step_view(t("lab.step.masked"), steps["masked"].numpy(), q_names, k_names, "masked")
        else:
            st.markdown(f"**{t('lab.step.masked')}**")
            st.caption(t("lab.step.no_mask"))
    with cols[3]:
        step_view(t("lab.step.softmax"), steps["weights"].numpy(), q_names, k_names, "weights", probabilities=True)
    st.markdown(f"**{t('lab.step.output')}**")
    latex(rf"\text{{{t('lab.latex.output')}}}_i = \sum_j \text{{{t('lab.latex.weight')}}}_{{ij}}\, V_j")
    out = steps["output"].numpy()
    fig = figures.heatmap(out, x_labels=v_cols, y_labels=q_names, x_title=t("lab.axis.dim"),
                          y_title=t("lab.axis.query"), colorscale=theme.DIVERGING, zmid=0, show_values=True, fmt=".4g",
                          show_scale=False, height=int(110 + 60 * out.shape[0]), width=int(170 + 90 * out.shape[1]))
    show_figure(fig, "output", matrix_frame(out, q_names, v_cols))
    if preset == "lecture" and q.size(0) == 1 and k.size(0) == 1:
        st.info(t("lab.lecture_note", score=f"{float(steps['scores'][0, 0]):.4f}",
                  scaled=f"{float(steps['scaled'][0, 0]):.4f}",
                  slide=", ".join(f"{x:.4g}" for x in (steps["scaled"][0, 0] * v[0]).tolist())))


@st.cache_data(show_spinner=False)
def spread(n: int, seed: int) -> dict:
    return dot_product_spread(D_KS, n=n, seed=seed)


@st.fragment
def why_scale_section() -> None:
    st.header(t("lab.scale.title"))
    st.markdown(t("lab.scale.explain"))
    latex(r"q \cdot k = \sum_{i=1}^{d_k} q_i k_i, \quad \mathrm{Var}(q\cdot k) = d_k "
          r"\;\Rightarrow\; \mathrm{std}(q\cdot k) = \sqrt{d_k}, \quad \mathrm{std}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right) = 1")
    d_k = st.select_slider(t("lab.scale.d_k"), D_KS, value=64, key="lab_dk")
    dots = dot_products(d_k, 2000, seed=0).numpy()
    scaled = dots / math.sqrt(d_k)
    m1, m2, m3 = st.columns(3)
    m1.metric(t("lab.scale.std"), f"{dots.std():.2f}")
    m2.metric(t("lab.scale.sqrt"), f"{math.sqrt(d_k):.2f}")
    m3.metric(t("lab.scale.std_scaled"), f"{scaled.std():.2f}")
    c1, c2 = st.columns(2)
    with c1:
        fig = figures.histogram_figure({t("lab.scale.raw"): dots, t("lab.scale.scaled"): scaled},
                                       title=t("lab.scale.hist_title", d_k=d_k), x_title=t("lab.scale.value"),
                                       y_title=t("lab.scale.count"))
        show_figure(fig, "dot_histogram", pd.DataFrame({"q_dot_k": dots, "q_dot_k_over_sqrt_dk": scaled}))
    with c2:
        sp = spread(2000, 0)
        fig = figures.line_figure(
            [{"x": sp["d_k"], "y": sp["std"], "name": t("lab.scale.std"), "mode": "lines+markers"},
             {"x": sp["d_k"], "y": sp["sqrt_d_k"], "name": t("lab.scale.sqrt"), "dash": "dash"},
             {"x": sp["d_k"], "y": sp["scaled_std"], "name": t("lab.scale.std_scaled"), "mode": "lines+markers"}],
            title=t("lab.scale.curve_title"), x_title="d_k", y_title=t("lab.scale.std_axis"), log_x=True, log_y=True,
            x_ticks=D_KS)
        show_figure(fig, "spread_curve", pd.DataFrame(sp))

    st.subheader(t("lab.sat.title"))
    st.markdown(t("lab.sat.explain"))
    latex(r"s = \mathrm{softmax}(z), \qquad \frac{\partial s_i}{\partial z_j} = s_i(\delta_{ij} - s_j)"
          r"\quad\Longleftrightarrow\quad J = \mathrm{diag}(s) - s\,s^T")
    c1, c2 = st.columns(2)
    raw = c1.text_input(t("lab.sat.z"), "0.3, 0.4", max_chars=200, key="lab_z", help=t("lab.sat.z_help"))
    factor = c2.slider(t("lab.sat.factor"), 1, 200, 100, key="lab_factor")
    z = parse_numbers(raw)
    if z is None:
        st.warning(t("lab.sat.bad_z"))
        return
    sat = saturation(z, [1, factor])
    labels = [f"z{i + 1}" for i in range(len(z))]
    c1, c2 = st.columns(2)
    with c1:
        probs = {t("lab.sat.softmax_z"): sat["probs"][0], t("lab.sat.softmax_cz", c=factor): sat["probs"][1]}
        fig = figures.bar_figure(labels, probs, title=t("lab.sat.bars_title"), y_title=t("lab.sat.prob"),
                                 text_fmt=".4g", y_range=(0, 1.15))
        show_figure(fig, "softmax_saturation", pd.DataFrame(probs, index=labels))
    with c2:
        s_big = torch.tensor(sat["probs"][1], dtype=torch.float64)
        jac = softmax_jacobian(s_big).numpy()
        fig = figures.heatmap(jac, x_labels=labels, y_labels=labels, title=t("lab.sat.jac_title", c=factor),
                              x_title="z_j", y_title="s_i", colorscale=theme.DIVERGING, zmid=0, show_values=len(z) <= 6,
                              zmin=-0.25, zmax=0.25,      # fixed (|∂s_i/∂z_j| ≤ 1/4): a vanishing gradient looks vanishing
                              fmt=".2e", show_scale=False)
        show_figure(fig, "softmax_jacobian", matrix_frame(jac, labels, labels))
    m1, m2 = st.columns(2)
    m1.metric(t("lab.sat.jac_max", c=1), f"{sat['jac_max'][0]:.3g}")
    m2.metric(t("lab.sat.jac_max", c=factor), f"{sat['jac_max'][1]:.3g}")
    factors = np.unique(np.round(np.geomspace(1, 200, 60), 3)).tolist()
    curve = saturation(z, factors)
    low = min(min(v for v in curve["jac_max"] if v > 0), min(curve["max_prob"]))
    fig = figures.line_figure(
        [{"x": curve["factor"], "y": curve["jac_max"], "name": t("lab.sat.jac_max_short")},
         {"x": curve["factor"], "y": curve["max_prob"], "name": t("lab.sat.max_prob"), "dash": "dash"},
         {"x": [factor, factor], "y": [low, 1.0], "name": f"c = {factor}", "dash": "dot", "color": theme.GUIDE,
          "width": 2}],          # the chosen c as a line of its own (a vline misplaces on log axes)
        title=t("lab.sat.curve_title"), x_title=t("lab.sat.factor_axis"), y_title="", log_x=True, log_y=True)
    show_figure(fig, "saturation_curve", pd.DataFrame(curve).drop(columns=["probs"]))
    st.caption(t("lab.sat.caption"))


def parse_numbers(text: str) -> list[float] | None:
    parts = [p for p in (text or "").replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    if not 2 <= len(parts) <= 12:
        return None
    try:
        values = [float(p) for p in parts]
    except ValueError:
        return None
    if not all(math.isfinite(x) and abs(x) <= 100 for x in values):
        return None
    return values


@st.cache_data(max_entries=32, show_spinner=False)
def _bundled_qk(name: str, src_ids: tuple[int, ...], out_ids: tuple[int, ...]) -> dict:
    return head_tensors(model_state.load_bundled(name).model, src_ids, out_ids)


def head_tensors(model, src_ids, out_ids) -> dict:
    """Q, K, V and mask of every attention of one teacher-forced pass, as numpy: {record: {...}}."""
    trace = explain.full_trace(model, list(src_ids), list(out_ids))
    out = {}
    for kind in explain.ATTENTION_KINDS:
        for layer in range(explain.n_layers(model, kind)):
            rec = trace.probe.records[explain.record_name(kind, layer)]
            out[(kind, layer)] = {name: rec[name][0].numpy() for name in ("q", "k", "v", "weights")}
            out[(kind, layer)]["mask"] = rec["mask"][0].numpy() if "mask" in rec else None
    return out


def real_head_section() -> None:
    """The real Q and K of a chosen head on the user's sentence (the shared model loader and sentence)."""
    st.header(t("lab.real.title"))
    st.markdown(t("lab.real.explain"))
    ckpt = model_state.active()
    if ckpt is None:
        return
    got = sentence_run("lab", ckpt)
    if got is None:
        return
    _, _, res = got
    key = model_state.active_key()
    cfg = ckpt.config
    c1, c2, c3 = st.columns([2, 1, 1])
    kind = c1.radio(t("lab.real.kind"), explain.ATTENTION_KINDS, format_func=kind_label, key="lab_real_kind",
                    horizontal=True)
    n_layers = cfg.n_encoder_layers if kind == "enc_self" else cfg.n_decoder_layers
    layer = c2.selectbox(t("attn.layer"), range(n_layers), format_func=lambda i: str(i + 1), key="lab_real_layer")
    head = c3.selectbox(t("attn.head"), range(cfg.n_heads), format_func=lambda i: str(i + 1), key="lab_real_head")
    src, out = tuple(res["src_ids"]), tuple(res["out_ids"])
    if key.startswith(model_state.BUNDLED):
        tensors = _bundled_qk(key.removeprefix(model_state.BUNDLED), src, out)
    else:
        tensors = head_tensors(ckpt.model, src, out)
    rec = tensors[(kind, layer)]
    q, k, v = (torch.as_tensor(rec[n][head]).double() for n in ("q", "k", "v"))
    mask = None if rec["mask"] is None else torch.as_tensor(rec["mask"][0]).bool()
    steps = attention_steps(q, k, v, mask)                       # the same function as the lab above
    q_labels, k_labels = {"enc_self": (res["src_pieces"], res["src_pieces"]),
                          "dec_self": (res["pred_pieces"], res["tgt_pieces"]),    # a decoder row: the token
                          "cross": (res["pred_pieces"], res["src_pieces"])}[kind]  # it predicts, as on every page
    d_k = q.size(-1)
    st.caption(t("lab.real.shapes", tq=q.size(0), tk=k.size(0), d_k=d_k))
    if kind != "enc_self":
        st.caption(t("attn.rows_named"))
    dims = [str(j) for j in range(d_k)]
    c1, c2 = st.columns(2)
    with c1:
        fig = figures.heatmap(q.numpy(), x_labels=dims, y_labels=q_labels, title=t("lab.real.q"),
                              x_title=t("lab.real.dim"), y_title=t("lab.axis.query"), colorscale=theme.DIVERGING, zmid=0,
                              max_ticks=16)
        show_figure(fig, "real_q", matrix_frame(q.numpy(), q_labels, dims))
    with c2:
        fig = figures.heatmap(k.numpy(), x_labels=dims, y_labels=k_labels, title=t("lab.real.k"),
                              x_title=t("lab.real.dim"), y_title=t("lab.axis.key"), colorscale=theme.DIVERGING, zmid=0,
                              max_ticks=16)
        show_figure(fig, "real_k", matrix_frame(k.numpy(), k_labels, dims))
    c1, c2 = st.columns(2)
    with c1:
        fig = figures.scores_heatmap(steps["masked"].numpy(), k_labels, q_labels, title=t("lab.real.scaled", d_k=d_k),
                                     x_title=t("lab.axis.key"), y_title=t("lab.axis.query"),
                                     masked_text=t("common.neg_inf"))
        show_figure(fig, "real_scaled", matrix_frame(steps["masked"].numpy(), q_labels, k_labels))
    with c2:
        fig = figures.scores_heatmap(steps["weights"].numpy(), k_labels, q_labels, title=t("lab.real.weights"),
                                     x_title=t("lab.axis.key"), y_title=t("lab.axis.query"), probabilities=True)
        show_figure(fig, "real_weights", matrix_frame(steps["weights"].numpy(), q_labels, k_labels))
    raw, scaled = steps["scores"], steps["scaled"]
    finite = torch.isfinite(steps["masked"])
    m1, m2, m3 = st.columns(3)
    m1.metric(t("lab.real.std_raw"), f"{float(raw[finite].std()) if finite.sum() > 1 else 0.0:.3f}")
    m2.metric(t("lab.real.std_scaled"), f"{float(scaled[finite].std()) if finite.sum() > 1 else 0.0:.3f}")
    m3.metric(t("lab.real.check"), f"{float((steps['weights'] - torch.as_tensor(rec['weights'][head]).double()).abs().max()):.1e}",
              help=t("lab.real.check_help"))
    q_norm, k_norm = float(q.norm(dim=-1).mean()), float(k.norm(dim=-1).mean())
    n1, n2, n3 = st.columns(3)
    n1.metric(t("lab.real.q_norm"), f"{q_norm:.2f}")
    n2.metric(t("lab.real.k_norm"), f"{k_norm:.2f}")
    n3.metric(t("lab.real.unit_norm"), f"{d_k ** 0.5:.2f}", help=t("lab.real.unit_norm_help", d_k=d_k))
    st.info(t("lab.real.why_large", q_norm=f"{q_norm:.1f}", k_norm=f"{k_norm:.1f}", unit=f"{d_k ** 0.5:.1f}",
              d_k=d_k, std=f"{float(scaled[finite].std()) if finite.sum() > 1 else 0.0:.1f}"),
            icon=":material/school:")


page_header("lab")
lab_section()
st.divider()
why_scale_section()
st.divider()
real_head_section()
