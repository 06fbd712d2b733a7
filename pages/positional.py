"""Positional encoding: the sinusoids, their heatmap, PE·PEᵀ, the rotation T(k) and the lecture's
alternatives (simple index, normalized index, binary) against its criteria."""
import numpy as np
import pandas as pd
import streamlit as st
import torch

from pages.ui import figures, model_state
from pages.ui.export import matrix_frame
from pages.ui.i18n import t
from pages.ui.widgets import latex, page_header, show_figure
from transformer_core.model.positional import (
    KINDS,
    check_criteria,
    encoding_table,
    frequencies,
    rotation_matrix,
    sinusoidal_encoding,
    sinusoids,
)

WAVE_SAMPLES = 16        # points per unit of position on the continuous waves
CRITERIA = ("unique", "bounded", "length_independent", "equal_distance")


@st.cache_data(max_entries=32, show_spinner=False)
def pe_table(max_len: int, d_model: int) -> np.ndarray:
    return sinusoidal_encoding(max_len, d_model).numpy()


@st.cache_data(max_entries=64, show_spinner=False)
def rotation(k: int, d_model: int) -> np.ndarray:
    return rotation_matrix(k, d_model).numpy()


@st.cache_data(max_entries=64, show_spinner=False)
def criteria(kind: str, d_model: int, short: int, long: int) -> dict[str, bool]:
    return check_criteria(kind, d_model, (short, long))


@st.cache_data(max_entries=64, show_spinner=False)
def alt_table(kind: str, length: int, d_model: int) -> np.ndarray:
    return encoding_table(kind, length, d_model).numpy()


def dim_name(d: int) -> str:
    return t("pe.dim_name_sin" if d % 2 == 0 else "pe.dim_name_cos", d=d, i=d // 2)


def bmatrix(m: np.ndarray, digits: int = 4) -> str:
    rows = [" & ".join(f"{v:.{digits}f}" for v in row) for row in np.atleast_2d(m)]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"


@st.fragment
def waves_tab(pe: np.ndarray, d_model: int) -> None:
    st.markdown(t("pe.waves.explain"))
    latex(r"\lambda_i = 2\pi \cdot 10000^{2i/d_{model}}")
    default = [d for d in (0, 1, 10, 30) if d < d_model]
    dims = st.multiselect(t("pe.dims"), list(range(d_model)), default=default, max_selections=8,
                          format_func=dim_name, key="pe_dims", help=t("pe.dims_help"), select_all=False)
    if not dims:
        st.info(t("pe.no_dims"))
        return
    dims = sorted(dims)
    curve_x = np.linspace(0, len(pe) - 1, WAVE_SAMPLES * (len(pe) - 1) + 1)
    curve = sinusoids(torch.from_numpy(curve_x), d_model).numpy()[:, dims]
    fig = figures.pe_waves(pe, dims, [dim_name(d) for d in dims], curve_x=curve_x, curve=curve,
                           title=t("pe.waves.title"),
                           x_title=t("pe.axis.pos"), y_title=t("pe.axis.value"))
    data = pd.DataFrame(pe[:, dims], columns=[dim_name(d) for d in dims])
    data.index.name = t("pe.axis.pos")
    show_figure(fig, "waves", data)
    omega = frequencies(d_model).numpy()
    wl = pd.DataFrame({t("pe.col.dim"): [dim_name(d) for d in dims],
                       t("pe.col.omega"): [float(omega[d // 2]) for d in dims],
                       t("pe.col.wavelength"): [float(2 * np.pi / omega[d // 2]) for d in dims]})
    st.dataframe(wl, hide_index=True, width="content")


def heatmap_tab(pe: np.ndarray) -> None:
    st.markdown(t("pe.heatmap.explain"))
    fig = figures.pe_heatmap(pe, title=t("pe.heatmap.title"), x_title=t("pe.axis.dim"),
                             y_title=t("pe.axis.pos"), colorbar_title=t("pe.axis.value"))
    show_figure(fig, "pe_heatmap", matrix_frame(pe))


def similarity_tab(pe: np.ndarray) -> None:
    st.markdown(t("pe.sim.explain"))
    latex(r"PE_{pos} \cdot PE_{pos'} = \sum_{i} \cos\big((pos - pos')\,\omega_i\big), \quad "
          r"\omega_i = 1/10000^{2i/d_{model}}")
    sim = pe.astype(np.float64) @ pe.astype(np.float64).T
    fig = figures.similarity_heatmap(sim, title=t("pe.sim.title"), x_title=t("pe.axis.pos2"),
                                     y_title=t("pe.axis.pos"), colorbar_title=t("pe.sim.colorbar"))
    show_figure(fig, "pe_similarity", matrix_frame(sim))


@st.fragment
def rotation_tab(d_model: int, max_len: int) -> None:
    st.markdown(t("pe.rot.explain"))
    latex(r"PE_{pos+k} = T(k)\, PE_{pos}, \qquad "
          r"\begin{bmatrix} \sin(\theta+\phi) \\ \cos(\theta+\phi) \end{bmatrix} = "
          r"\begin{bmatrix} \cos\phi & \sin\phi \\ -\sin\phi & \cos\phi \end{bmatrix}"
          r"\begin{bmatrix} \sin\theta \\ \cos\theta \end{bmatrix}, \quad "
          r"\theta = pos\,\omega_i,\ \phi = k\,\omega_i")
    c1, c2, c3 = st.columns(3)
    pair = c1.slider(t("pe.rot.pair"), 0, d_model // 2 - 1, 0, key="pe_pair", help=t("pe.rot.pair_help"))
    pos = c2.slider(t("pe.rot.pos"), 0, max_len - 1, min(3, max_len - 1), key="pe_pos")
    k = c3.slider(t("pe.rot.k"), 0, max_len, min(5, max_len), key="pe_k")
    full = pe_table(max(max_len, pos + k + 1), d_model)
    T = rotation(k, d_model)
    start, target = full[pos], full[pos + k]
    rotated = T @ start
    a, b = 2 * pair, 2 * pair + 1
    fig = figures.rotation_figure(
        full[:max_len, a:b + 1], pos, k, start[a:b + 1], target[a:b + 1], rotated[a:b + 1],
        title=t("pe.rot.title", a=a, b=b), x_title=t("pe.rot.x", a=a), y_title=t("pe.rot.y", b=b),
        all_name=t("pe.rot.all"), start_name=t("pe.rot.start", pos=pos),
        target_name=t("pe.rot.target", pos=pos + k), rotated_name=t("pe.rot.rotated", k=k, pos=pos))
    left, right = st.columns([3, 2])
    with left:
        data = {"points": pd.DataFrame(full[:max_len, a:b + 1], columns=[f"PE(pos,{a})", f"PE(pos,{b})"]),
                "T_k_block": matrix_frame(T[a:b + 1, a:b + 1]),
                "vectors": pd.DataFrame({"PE(pos)": start[a:b + 1], "T(k)PE(pos)": rotated[a:b + 1],
                                         "PE(pos+k)": target[a:b + 1]})}
        show_figure(fig, "rotation", data)
    with right:
        omega = float(frequencies(d_model)[pair])
        st.markdown(t("pe.rot.block", a=a, b=b, k=k, angle=f"{k * omega:.4f}"))
        latex(rf"T({k})_{{[{a},{b}]}} = {bmatrix(T[a:b + 1, a:b + 1])}")
        latex(rf"PE_{{{pos}}} = {bmatrix(start[a:b + 1, None])} \;\xrightarrow{{T({k})}}\; "
              rf"{bmatrix(rotated[a:b + 1, None])}")
        latex(rf"PE_{{{pos + k}}} = {bmatrix(target[a:b + 1, None])}")
        # the whole vectors, every position: T(k)·PE(pos) against PE(pos+k)
        every = pe_table(max_len + k, d_model)
        moved = every[:max_len].astype(np.float64) @ T.astype(np.float64).T
        err_all = float(np.abs(moved - every[k:k + max_len]).max())
        err_here = float(np.abs(rotated - target).max())
        st.metric(t("pe.rot.err_here", pos=pos), f"{err_here:.2e}")
        st.metric(t("pe.rot.err_all", n=max_len, d=d_model), f"{err_all:.2e}")
        st.caption(t("pe.rot.err_caption"))


@st.fragment
def alternatives_tab(d_model: int) -> None:
    st.markdown(t("pe.alt.explain"))
    c1, c2 = st.columns(2)
    short = c1.slider(t("pe.alt.short"), 2, 64, 10, key="pe_short")
    long_ = c2.slider(t("pe.alt.long"), 3, 128, 20, key="pe_long")
    if long_ <= short:
        st.warning(t("pe.alt.lengths_warning"))
        return
    rows = []
    for kind in KINDS:
        result = criteria(kind, d_model, short, long_)
        rows.append({t("pe.alt.col.kind"): t(f"pe.kind.{kind}"),
                     **{t(f"pe.crit.{c}"): "✓" if result[c] else "✗" for c in CRITERIA}})
    table = pd.DataFrame(rows).style.map(
        lambda v: "color: #059669; font-weight: bold" if v == "✓" else
        ("color: #dc2626; font-weight: bold" if v == "✗" else ""))
    st.dataframe(table, hide_index=True, width="stretch")
    st.caption(t("pe.alt.criteria_caption", short=short, long=long_, d=d_model))

    kind = st.selectbox(t("pe.alt.kind"), KINDS, index=2, format_func=lambda k: t(f"pe.kind.{k}"),
                        key="pe_kind")
    tables = {t("pe.alt.len_name", n=n): alt_table(kind, n, d_model if kind != "sinusoidal" else 8)
              for n in (short, long_)}
    fig = figures.encoding_figure(tables, title=t("pe.alt.enc_title", kind=t(f"pe.kind.{kind}")),
                                  x_title=t("pe.axis.pos"), y_title=t("pe.alt.enc_y"))
    show_figure(fig, f"alt_{kind}", {name: matrix_frame(tab) for name, tab in tables.items()})
    if kind == "sinusoidal":
        st.caption(t("pe.alt.sin_caption"))

    h = st.slider(t("pe.alt.h"), 1, 5, 1, key="pe_h")
    series, data = [], {}
    for kd in KINDS:
        tab = torch.as_tensor(alt_table(kd, long_, d_model))
        if h >= tab.size(0):
            continue
        dist = (tab[h:] - tab[:-h]).norm(dim=1).tolist()        # distance(x, x+h) for each x
        series.append({"x": list(range(len(dist))), "y": dist, "name": t(f"pe.kind.{kd}"), "mode": "lines+markers"})
        data[kd] = pd.DataFrame({"x": range(len(dist)), "distance": dist})
    fig = figures.line_figure(series, title=t("pe.alt.dist_title", h=h), x_title=t("pe.alt.dist_x"),
                              y_title=t("pe.alt.dist_y", h=h), log_y=st.toggle(t("pe.alt.log_y"), key="pe_log"))
    show_figure(fig, "alt_distance", data)
    st.caption(t("pe.alt.dist_caption"))


page_header("pe")
latex(r"PE_{(pos,\,2i)} = \sin\!\left(pos / 10000^{2i/d_{model}}\right) \qquad "
      r"PE_{(pos,\,2i+1)} = \cos\!\left(pos / 10000^{2i/d_{model}}\right)")
col1, col2 = st.columns(2)
model = model_state.active(quiet=True)            # the sliders start at the chosen model's d_model
d_model = col1.slider(t("pe.d_model"), 4, 512, min(512, model.config.d_model) if model else 256, step=2,
                      key="pe_d_model", help=t("pe.d_model_help"))
max_len = col2.slider(t("pe.max_len"), 2, 200, 64, key="pe_max_len", help=t("pe.max_len_help"))
pe = pe_table(max_len, d_model)

tabs = st.tabs([t("pe.tab.waves"), t("pe.tab.heatmap"), t("pe.tab.similarity"), t("pe.tab.rotation"),
                t("pe.tab.alternatives")])
with tabs[0]:
    waves_tab(pe, d_model)
with tabs[1]:
    heatmap_tab(pe)
with tabs[2]:
    similarity_tab(pe)
with tabs[3]:
    rotation_tab(d_model, max_len)
with tabs[4]:
    alternatives_tab(d_model)
