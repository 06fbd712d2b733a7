"""Multi-head attention & tensor shapes: the user's sentence traced through the model, every shape
read off a recorded tensor (the lecture's (B,S) → (B,S,d_model) → (B,h,S,d_k) → … → (B,T,vocab)):
heads split and concatenated on the real Q/K/V, the FFN's activations (ReLU, or the model's own), Add & Norm before and
after LayerNorm, the decoder input shifted right and the loss; and "why self-attention" (Table 1)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame
from pages.ui.i18n import t
from pages.ui.sentence import kind_label, sentence_run, traced
from pages.ui.widgets import latex, page_header, show_figure
from transformer_core.explainer import explain

ACTIVATION = {"relu": ("ReLU", r"\max(0,\ xW_1 + b_1)"), "gelu": ("GELU", r"\mathrm{GELU}(xW_1 + b_1)"),
              "swish": ("swish", r"\mathrm{swish}(xW_1 + b_1)")}     # ModelConfig.activation -> (name, FFN's inner part)
SYMBOL_TEX = {"d_model": r"d_{model}", "d_k": r"d_k", "d_v": r"d_v", "d_ff": r"d_{ff}", "h·d_v": r"h \cdot d_v"}
D_CHOICES = (64, 128, 256, 512, 1024, 2048, 4096)


def shape_text(symbols) -> str:
    return "(" + ", ".join(symbols) + ")"


def shape_tex(symbols, shape) -> str:
    sym = "(" + ", ".join(SYMBOL_TEX.get(s, s) for s in symbols) + ")"
    return r"\underset{" + "(" + ", ".join(str(d) for d in shape) + r")}{" + sym + "}"


def chain(walk: dict, stages: list[tuple[str, str]]) -> str:
    """(B,S) →[arrow] (B,S,d_model) … with the real sizes written under each shape."""
    parts = []
    for i, (stage, arrow) in enumerate(stages):
        if i:
            parts.append(r"\;\xrightarrow{" + arrow + r"}\;")
        parts.append(shape_tex(walk[stage]["symbols"], walk[stage]["shape"]))
    return "".join(parts)


# ---------------------------------------------------------------- the walk

@st.fragment
def walk_section(tr: explain.FullTrace, cfg) -> None:
    n_enc, n_dec = cfg.n_encoder_layers, cfg.n_decoder_layers
    embed = r"E\sqrt{d_{model}} + PE" if cfg.scale_embedding else r"E + PE"
    act = rf"\mathrm{{{ACTIVATION[cfg.activation][0]}}}"
    out = r"E^T" if cfg.tie_output else r"W_{out}^T"
    st.header(t("shapes.walk.title"))
    st.markdown(t("shapes.walk.explain"))
    with st.container(horizontal=True, gap="medium"):
        enc_layer = st.segmented_control(t("shapes.enc_layer"), range(n_enc), key="sh_walk_enc", default=0,
                                         required=True, format_func=lambda v: str(v + 1)) or 0
        dec_layer = st.segmented_control(t("shapes.dec_layer"), range(n_dec), key="sh_walk_dec", default=0,
                                         required=True, format_func=lambda v: str(v + 1)) or 0
    walk = explain.shape_walk(tr, enc_layer, dec_layer)
    by = {e["stage"]: e for e in walk}
    st.markdown(f"**{t('shapes.walk.encoder')}**")
    latex(chain(by, [("src_ids", ""), ("src_sum", embed), ("enc_q", "W^Q"),
                     ("enc_scores", r"QK^T/\sqrt{d_k}")]))
    latex(chain(by, [("enc_weights", ""), ("enc_heads", r"\cdot V"), ("enc_concat", ""), ("enc_add_norm1", "W^O"),
                     ("enc_ffn_hidden", r"W_1,\ " + act), ("enc_add_norm2", "W_2")]))
    st.markdown(f"**{t('shapes.walk.decoder')}**")
    latex(chain(by, [("tgt_in", ""), ("tgt_sum", embed), ("tgt_mask", ""),
                     ("dec_weights", r"\mathrm{softmax}")]))
    latex(chain(by, [("cross_q", ""), ("cross_weights", r"Q_{dec} K_{enc}^T"),
                     ("dec_out", r"\cdot V,\ W^O,\ \mathrm{FFN}"), ("logits", out)]))
    table = pd.DataFrame([{t("shapes.col.stage"): t(f"shapes.stage.{e['stage']}"),
                           t("shapes.col.symbols"): shape_text(e["symbols"]),
                           t("shapes.col.shape"): shape_text(str(d) for d in e["shape"]),
                           t("shapes.col.record"): e["record"]} for e in walk])
    st.dataframe(table, hide_index=True, width="stretch", key="sh_walk_table",
                 height=35 * (len(table) + 1) + 3, row_height=35)
    st.caption(t("shapes.walk.caption"))


# ---------------------------------------------------------------- split and concat heads

def rows_for(kind: str, tensor: str, src: list[str], tgt: list[str], tgt_in: list[str] | None = None) -> list[str]:
    """A tensor's row names: the source's tokens; a decoder position by the token it predicts (tgt), as on every
    page, but the decoder's own keys and values by the tokens it reads (tgt_in), as the home page's columns."""
    if kind == "enc_self" or (kind == "cross" and tensor in ("k", "v")):
        return src
    if kind == "dec_self" and tensor in ("k", "v") and tgt_in is not None:
        return tgt_in
    return tgt


@st.fragment
def heads_section(tr: explain.FullTrace, src: list[str], tgt: list[str], n_heads: int, d_k: int,
                  tgt_in: list[str] | None = None) -> None:
    st.header(t("shapes.heads.title"))
    st.markdown(t("shapes.heads.explain"))
    kinds = explain.ATTENTION_KINDS
    with st.container(horizontal=True, gap="medium"):
        kind = st.segmented_control(t("shapes.heads.kind"), kinds, key="sh_heads_kind", default="enc_self",
                                    required=True, format_func={k: kind_label(k) for k in kinds}.get) or "enc_self"
        n_layers = len(tr.probe.all_weights(kind))
        if st.session_state.get("sh_heads_layer", 0) >= n_layers:
            st.session_state["sh_heads_layer"] = 0
        layer = st.segmented_control(t("attn.layer"), range(n_layers), key="sh_heads_layer", default=0,
                                     required=True, format_func=lambda v: str(v + 1)) or 0
        tensor = st.segmented_control(t("shapes.heads.tensor"), ("q", "k", "v"), key="sh_heads_tensor", default="q",
                                      required=True, format_func=str.upper) or "q"
    rec = tr.probe.records[explain.record_name(kind, layer)]
    split = rec[tensor][0].numpy()                                      # (h, T, d_k)
    whole = explain.concat_heads(rec[tensor])[0].numpy()                 # (T, d_model)
    rows = rows_for(kind, tensor, src, tgt, tgt_in)
    if kind != "enc_self":
        st.caption(t("attn.rows_named"))
    h, T, dk = split.shape
    name = tensor.upper()
    latex(rf"{name} = X W^{name}:\ (B, {T}, {h * dk})"
          rf"\;\xrightarrow{{\texttt{{view}}}}\;(B, {T}, {h}, {dk})"
          rf"\;\xrightarrow{{\texttt{{transpose(1, 2)}}}}\;(B, {h}, {T}, {dk})")
    bands = [t("shapes.heads.band", head=i + 1, a=i * dk, b=(i + 1) * dk - 1) for i in range(h)]
    fig = figures.matrix_panels([whole], rows, panel_titles=[""], band=dk, band_labels=bands,
                                title=t("shapes.heads.whole", name=name, T=T, d=h * dk), x_title=t("shapes.axis.dim"))
    show_figure(fig, f"{kind}_L{layer + 1}_{tensor}_whole", matrix_frame(whole, rows), key="sh_heads_whole")
    fig = figures.matrix_panels(list(split), rows, panel_titles=[t("attn.head") + f" {i + 1}" for i in range(h)],
                                title=t("shapes.heads.split", name=name, h=h, T=T, d_k=dk))
    show_figure(fig, f"{kind}_L{layer + 1}_{tensor}_split",
                {f"head{i + 1}": matrix_frame(split[i], rows) for i in range(h)}, key="sh_heads_split")

    st.subheader(t("shapes.concat.title"))
    heads_out = rec["heads"]                                             # (B, h, Tq, d_v)
    concat = explain.concat_heads(heads_out)[0].numpy()                  # (Tq, h·d_v)
    q_rows = rows_for(kind, "q", src, tgt)
    hv = heads_out.shape
    latex(rf"\mathrm{{head}}_i = \mathrm{{Attention}}(QW_i^Q, KW_i^K, VW_i^V):\ (B, {hv[1]}, {hv[2]}, {hv[3]})"
          rf"\;\xrightarrow{{\texttt{{transpose}},\ \texttt{{reshape}}}}\;(B, {hv[2]}, {hv[1] * hv[3]})"
          rf"\;\xrightarrow{{W^O}}\;(B, {hv[2]}, {hv[1] * hv[3]})")
    bands = [t("shapes.heads.band", head=i + 1, a=i * hv[3], b=(i + 1) * hv[3] - 1) for i in range(hv[1])]
    fig = figures.matrix_panels([concat], q_rows, panel_titles=[""], band=hv[3], band_labels=bands,
                                title=t("shapes.concat.fig", T=hv[2], d=hv[1] * hv[3]), x_title=t("shapes.axis.dim"))
    show_figure(fig, f"{kind}_L{layer + 1}_concat", matrix_frame(concat, q_rows), key="sh_concat")
    st.caption(t("shapes.concat.caption"))


# ---------------------------------------------------------------- FFN

def stack_layers(tr: explain.FullTrace, stack: str) -> int:
    return sum(1 for name in tr.probe.records if name.startswith(stack + ".") and name.endswith(".ffn"))


@st.fragment
def ffn_section(tr: explain.FullTrace, src: list[str], tgt: list[str], d_model: int, activation: str) -> None:
    st.header(t("shapes.ffn.title"))
    act, inner = ACTIVATION[activation]
    latex(r"\mathrm{FFN}(x) = " + inner + r"\,W_2 + b_2")
    with st.container(horizontal=True, gap="medium"):
        stack = st.segmented_control(t("shapes.stack"), ("encoder", "decoder"), key="sh_ffn_stack", default="encoder",
                                     required=True,
                                     format_func={s: t(f"shapes.stack.{s}") for s in ("encoder", "decoder")}.get) or "encoder"
        n = stack_layers(tr, stack)
        if st.session_state.get("sh_ffn_layer", 0) >= n:
            st.session_state["sh_ffn_layer"] = 0
        layer = st.segmented_control(t("attn.layer"), range(n), key="sh_ffn_layer", default=0, required=True,
                                     format_func=lambda v: str(v + 1)) or 0
    hidden = tr.probe.records[f"{stack}.{layer}.ffn"]["hidden"][0]       # (T, d_ff)
    rows = src if stack == "encoder" else tgt
    if stack == "decoder":
        st.caption(t("attn.rows_named"))
    T, d_ff = hidden.shape
    latex(rf"(B, {T}, {d_model}) \;\xrightarrow{{W_1}}\; (B, {T}, {d_ff}) \;\xrightarrow{{\mathrm{{{act}}}}}\; "
          rf"(B, {T}, {d_ff}) \;\xrightarrow{{W_2}}\; (B, {T}, {d_model})")
    stats = explain.ffn_stats(hidden)
    st.markdown(t("shapes.ffn.explain", active=f"{100 * float(stats['active'].mean()):.1f}", d_ff=d_ff,
                  d_model=d_model, act=act))
    arr = hidden.numpy()
    fig = figures.matrix_panels([arr], rows, panel_titles=[""], colorscale=theme.SEQUENTIAL, symmetric=False,
                                title=t("shapes.ffn.fig", T=T, d_ff=d_ff, act=act), x_title=t("shapes.axis.unit"))
    show_figure(fig, f"{stack}_L{layer + 1}_ffn_hidden", matrix_frame(arr, rows), key="sh_ffn_hidden")
    fig = figures.position_stats_figure(rows, [
        {"title": t("shapes.ffn.active"), "series": [{"name": t("shapes.ffn.active_name"), "y": stats["active"]}]},
        {"title": t("shapes.ffn.values"), "series": [{"name": t("shapes.ffn.mean"), "y": stats["mean"]},
                                                     {"name": t("shapes.ffn.max"), "y": stats["max"], "dash": "dot"}]}])
    show_figure(fig, f"{stack}_L{layer + 1}_ffn_stats", pd.DataFrame(stats, index=rows), key="sh_ffn_stats")


# ---------------------------------------------------------------- Add & Norm

def addnorm_names(tr: explain.FullTrace) -> list[str]:
    return [name for name in tr.probe.records if ".add_norm" in name]


def addnorm_label(name: str) -> str:
    stack, layer, which = name.split(".")
    return t("shapes.norm.option", stack=t(f"shapes.stack.{stack}"), layer=int(layer) + 1,
             sub=t(f"shapes.norm.sub.{stack}.{which[-1]}"))


@st.fragment
def norm_section(tr: explain.FullTrace, model, src: list[str], tgt: list[str]) -> None:
    st.header(t("shapes.norm.title"))
    st.markdown(t("shapes.norm.explain"))
    latex(r"H(x) = x + F(x), \qquad \mathrm{LayerNorm}(x) = \gamma \odot \frac{x - \mu}{\sigma} + \beta")
    latex(r"\mu = \frac{1}{d_{model}}\sum_{k=1}^{d_{model}} x_k, \qquad "
          r"\sigma = \sqrt{\frac{1}{d_{model}}\sum_{k=1}^{d_{model}} (x_k - \mu)^2 + \epsilon}")
    names = addnorm_names(tr)
    labels = {n: addnorm_label(n) for n in names}
    name = st.selectbox(t("shapes.norm.which"), names, key="sh_norm_which", format_func=labels.get)
    stack, layer, which = name.split(".")
    rec = tr.probe.records[name]
    norm = getattr((model.encoder if stack == "encoder" else model.decoder)[int(layer)], which).norm
    stats = explain.layer_norm_stats(rec["before"][0], rec["after"][0], norm)
    rows = src if stack == "encoder" else tgt
    if stack == "decoder":
        st.caption(t("attn.rows_named"))
    before, hat, after = t("shapes.norm.before"), t("shapes.norm.hat"), t("shapes.norm.after")
    fig = figures.position_stats_figure(rows, [
        {"title": t("shapes.norm.mean"), "series": [{"name": before, "y": stats["mean_before"]},
                                                    {"name": hat, "y": stats["mean_hat"], "dash": "dot"},
                                                    {"name": after, "y": stats["mean_after"]}]},
        {"title": t("shapes.norm.std"), "series": [{"name": before, "y": stats["std_before"]},
                                                   {"name": hat, "y": stats["std_hat"], "dash": "dot"},
                                                   {"name": after, "y": stats["std_after"]}]}], height=400)
    show_figure(fig, f"{name}_stats", pd.DataFrame(stats, index=rows), key="sh_norm_stats")
    err = explain.layer_norm_check(rec["before"][0], rec["after"][0], norm)
    c1, c2, c3 = st.columns(3)
    c1.metric(t("shapes.norm.std_before_avg"), f"{float(np.mean(stats['std_before'])):.3f}")
    c2.metric(t("shapes.norm.std_after_avg"), f"{float(np.mean(stats['std_after'])):.3f}")
    c3.metric(t("shapes.norm.check"), f"{err:.1e}", help=t("shapes.norm.check_help"))


# ---------------------------------------------------------------- decoder input and loss

def loss_section(tr: explain.FullTrace, tokenizer, vocab: int) -> None:
    st.header(t("shapes.loss.title"))
    tgt_in = theme.token_labels(tokenizer.pieces(tr.tgt_in[0].tolist()))
    st.markdown(t("shapes.loss.explain", start=theme.token_label(tgt_in[0])))
    labels = theme.token_labels(tokenizer.pieces(tr.labels[0].tolist()))
    losses = explain.token_losses(tr.logits[0], tr.labels[0])
    B, T, V = tr.logits.shape
    latex(rf"\underset{{({B}, {T})}}{{(B, T)}} \;\xrightarrow{{\cdots\ E^T}}\; "
          rf"\underset{{({B}, {T}, {V})}}{{(B, T, \mathit{{vocab}})}} \;\xrightarrow{{\mathrm{{softmax}}}}\; "
          rf"\mathcal{{L}} = -\frac{{1}}{{T}}\sum_{{t=1}}^{{T}} \log P(y_t \mid y_{{<t}}, x) = {float(losses.mean()):.4f}")
    table = pd.DataFrame([tgt_in, labels, [f"{v:.3f}" for v in losses]],
                         index=[t("shapes.loss.input"), t("shapes.loss.label"), t("shapes.loss.nll")],
                         columns=[str(i) for i in range(T)])
    st.dataframe(table, width="stretch", key="sh_loss_table")
    fig = figures.bar_figure([f"{i} {p}" for i, p in enumerate(labels)], {t("shapes.loss.nll"): losses},
                             title=t("shapes.loss.fig"), x_title=t("shapes.loss.label"), y_title=t("shapes.loss.nll"),
                             text_fmt=".2f", height=360)
    show_figure(fig, "token_loss", pd.DataFrame({"input": tgt_in, "label": labels, "nll": losses}), key="sh_loss_fig")
    st.caption(t("shapes.loss.caption"))


# ---------------------------------------------------------------- why self-attention

@st.fragment
def why_section(sentence_len: int, d_model: int) -> None:
    st.header(t("shapes.why.title"))
    st.markdown(t("shapes.why.explain"))
    head = [t("shapes.why.col.type"), t("shapes.why.col.complexity"), t("shapes.why.col.sequential"),
            t("shapes.why.col.path")]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for kind in explain.LAYER_TYPES:
        cx, seq, path = explain.TABLE_1[kind]
        rows.append(f"| {t(f'shapes.why.type.{kind}')} | ${cx}$ | ${seq}$ | ${path}$ |")
    st.markdown("\n".join(rows))
    st.caption(t("shapes.why.table_caption"))
    c1, c2, c3 = st.columns(3)
    choices = tuple(sorted({*D_CHOICES, d_model}))
    d = c1.select_slider(t("shapes.why.d"), choices, value=d_model, key="sh_why_d")     # starts at the model's
    k = c2.slider(t("shapes.why.k"), 2, 9, 3, key="sh_why_k")
    r = c3.select_slider(t("shapes.why.r"), (4, 8, 16, 32, 64, 128, 256), value=16, key="sh_why_r")
    n = np.unique(np.round(np.geomspace(1, 8192, 80))).astype(int)
    costs = {t(f"shapes.why.type.{kind}"): explain.layer_cost(kind, n, d, k=k, r=r) for kind in explain.LAYER_TYPES}
    fig = figures.cost_figure(n, costs, crossover=explain.crossover_length(d),
                              crossover_label=t("shapes.why.crossover", d=d), marker_n=sentence_len,
                              marker_label=t("shapes.why.this_sentence", n=sentence_len),
                              title=t("shapes.why.fig", d=d), x_title=t("shapes.why.n"), y_title=t("shapes.why.ops"))
    show_figure(fig, "layer_cost", pd.DataFrame({"n": n, **{kind: explain.layer_cost(kind, n, d, k=k, r=r)
                                                            for kind in explain.LAYER_TYPES}}), key="sh_why_fig")
    sa = float(explain.layer_cost("self_attention", sentence_len, d))
    rnn = float(explain.layer_cost("recurrent", sentence_len, d))
    st.info(t("shapes.why.ours", n=sentence_len, d=d, model_d=d_model, sa=f"{sa:,.0f}", rnn=f"{rnn:,.0f}",
              ratio=f"{rnn / sa:.1f}" if sa else "∞"), icon=":material/calculate:")


# ---------------------------------------------------------------- the page

def main() -> None:
    page_header("shapes")
    ckpt = model_state.active()
    if ckpt is None:
        why_section(20, 512)
        return
    got = sentence_run("sh", ckpt)
    if got is None:
        why_section(20, ckpt.config.d_model)
        return
    _, _, res = got
    key = model_state.active_key()
    tr = traced(key, ckpt, res)
    cfg = ckpt.config
    src, tgt_in, tgt = (theme.token_labels(res[f"{side}_pieces"]) for side in ("src", "tgt", "pred"))  # tgt: predicted
    st.caption(t("shapes.model", d_model=cfg.d_model, h=cfg.n_heads, d_k=cfg.d_k, d_ff=cfg.d_ff,
                 n_enc=cfg.n_encoder_layers, n_dec=cfg.n_decoder_layers, V=cfg.vocab_size))
    walk_section(tr, cfg)
    st.divider()
    heads_section(tr, src, tgt, cfg.n_heads, cfg.d_k, tgt_in)
    st.divider()
    ffn_section(tr, src, tgt, cfg.d_model, cfg.activation)
    st.divider()
    norm_section(tr, ckpt.model, src, tgt)
    st.divider()
    loss_section(tr, ckpt.tokenizer, cfg.vocab_size)
    st.divider()
    why_section(len(res["src_ids"]), cfg.d_model)


main()
