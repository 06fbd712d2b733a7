"""Architecture (URL path `architecture`): the paper's Figure 1, live.  The whole model on one screen, drawn from
the loaded model's own config (N encoder and N decoder layers, h heads), every arrow carrying the shape of
what flows along it for the sentence typed (read off ONE recorded forward pass, the trace the shapes page
reads too), and every block opening onto its real tensors: click it, or open ?block=ID.  Then the residual
stream (each token's vector norm after every sublayer) and greedy decoding step by step on the diagram.

The page only draws: the numbers come from transformer_core/explainer/architecture.py, computed once per
(model, sentence) and kept with the trace; opening a block computes nothing again.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame
from pages.ui.i18n import t
from pages.ui.sentence import kind_label, model_run, run_cached, sentence_run, traced
from pages.ui.svg_diagram import clickable_svg
from pages.ui.widgets import escape_md, model_fragment, page_header, presenting, show_figure
from transformer_core.explainer import architecture, explain

BLOCK_PARAM = "block"                 # ?block=decoder.1.cross_attn opens that block
FIRST_IN_FULL = 3                     # stacks of at most this many layers draw their first in full, the others as
                                      # boxes (the paper's Figure 1: one layer, N×): 3 + 3 is 659 px tall in a 1366 px
                                      # window, on one 768 px screen (every layer in full: 1,021 px); taller stacks:
                                      # every layer a box until a block opens one
MAX_COLS = 256                        # a heatmap of d_model or d_ff columns: block means past this many
PANEL_COLUMNS = 16                    # token columns in a row of heads (the panel beside the diagram is narrow)
PANEL_ROWS = 60                       # and token rows in all (a long sentence: more heads to a row)
PANELS_KEY, STEPS_KEY = "atlas_arch_panels", "atlas_arch_steps"
HOME_KINDS = {"self_attn": "enc_self", "masked_attn": "dec_self", "cross_attn": "cross"}
TEACHING = {"embed": ("pages/positional.py", "pe"), "self_attn": ("pages/attention_lab.py", "lab"),
            "masked_attn": ("pages/masks.py", "masks"), "cross_attn": ("pages/attention_lab.py", "lab"),
            "add_norm": ("pages/shapes.py", "shapes"), "ffn": ("pages/shapes.py", "shapes"),
            "linear": ("pages/decoding.py", "decoding"), "softmax": ("pages/decoding.py", "decoding")}
STICKY_CSS = """<style>
.st-key-ar_panel { position: sticky; top: 3.75rem; max-height: calc(100vh - 4.5rem); overflow-y: auto; }
</style>"""


def labels(pieces) -> list[str]:
    return theme.token_labels(pieces)


def names(cfg) -> dict[str, str]:
    """The diagram's labels in the interface language."""
    keys = (*architecture.KINDS, "input_embedding", "output_embedding", "inputs", "outputs", "probs", "pe",
            "qkv", "q", "kv", "mask", "frame", "layer.encoder", "layer.decoder")
    out = {k: t(f"arch.block.{k}") for k in keys}
    out |= {"encoder": t("arch.block.encoder", n=cfg.n_encoder_layers, h=cfg.n_heads),
            "decoder": t("arch.block.decoder", n=cfg.n_decoder_layers, h=cfg.n_heads)}
    return out


def first_in_full(cfg) -> bool:
    """Whether each stack's first layer is drawn in full when no block of that stack is open: not on a projector,
    where the diagram takes the page's width for 18 px text and every layer is a box until one is opened."""
    return max(cfg.n_encoder_layers, cfg.n_decoder_layers) <= FIRST_IN_FULL and not presenting()


def block_title(block: dict) -> str:
    name = t(f"arch.block.{block['kind']}")
    if block["layer"] is None:
        return name if block["kind"] != "embed" else t(f"arch.block.{block['stack']}_embed")
    return t("arch.panel.in_layer", block=name, stack=t(f"shapes.stack.{block['stack']}"), n=block["layer"] + 1)


# ---------------------------------------------------------------- computed once per trace

def memo(store: str, ck, name, compute):
    """compute() kept in this session under (ck, name) for the current trace ck only."""
    cache: dict = st.session_state.setdefault(store, {})
    if ck not in cache:
        cache.clear()
        cache[ck] = {}
    entry = cache[ck]
    if name not in entry:
        entry[name] = compute()
    return entry[name]


def greedy_steps(key: str, ckpt, text: str, beam: int, res: dict, tr: explain.FullTrace) -> list[dict]:
    """Greedy decoding step by step (architecture.decoding_steps): from the page's trace when its output is
    greedy's, else from one more traced pass over greedy's output (cost-checked), of which only the steps stay."""
    if beam == 1:
        ck = (key, tuple(res["src_ids"]), tuple(res["out_ids"]))
        return memo(STEPS_KEY, ck, "steps", lambda: architecture.decoding_steps(ckpt.model, tr))
    greedy = run_cached("translation", key, ckpt, text, 1)
    ck = (key, tuple(greedy["src_ids"]), tuple(greedy["out_ids"]))
    return memo(STEPS_KEY, ck, "steps", lambda: model_run("decoding_steps", key, ckpt, *ck[1:]))


# ---------------------------------------------------------------- the diagram

def open_block(block: str) -> None:
    st.query_params[BLOCK_PARAM] = block


def close_block() -> None:
    if BLOCK_PARAM in st.query_params:
        del st.query_params[BLOCK_PARAM]


def expanded_layers(cfg, block: dict | None) -> dict[str, list[int]]:
    """The layers drawn in full, one a stack at most, so that the whole model fits one screen: the open block's
    layer in its stack; else the stack's first (first_in_full), or none."""
    first = [0] if first_in_full(cfg) else []
    out = {"encoder": list(first), "decoder": list(first)}
    if block is not None and block["layer"] is not None:
        out[block["stack"]] = [block["layer"]]
    return out


def diagram(ckpt, tr, res: dict, block: dict | None, step: dict | None, tokenizer) -> None:
    cfg = ckpt.config
    arrows = architecture.arrows(tr)
    if step is not None:                                   # the decoder at this step; the encoder as it was
        arrows |= {k: v for k, v in step["arrows"].items() if not k.startswith("encoder.")}
    src = " ".join(labels(res["src_pieces"]))
    if step is None:
        tgt, top = " ".join(labels(res["tgt_pieces"])), ""
    else:
        tgt = " ".join(labels(tokenizer.pieces(step["input"])))
        chosen = step["chosen"]
        p = dict(zip(step["ids"], step["probs"], strict=False)).get(chosen)
        top = "→ " + theme.token_label(tokenizer.id_to_piece(chosen)) + (f" ({p:.2f})" if p is not None else "")
    index = architecture.block_index(cfg)
    svg = figures.architecture_svg(
        layers={"encoder": cfg.n_encoder_layers, "decoder": cfg.n_decoder_layers},
        expanded=expanded_layers(cfg, block), names=names(cfg),
        shapes={k: (v["symbols"], v["shape"]) for k, v in arrows.items()},
        selected=block["id"] if block else None, tokens={"encoder": src, "decoder": tgt}, top=top,
        font_scale=1.25 if presenting() else 1.0,
        titles={b: t("arch.open", block=block_title(v)) for b, v in index.items()})
    clickable_svg(svg, key="ar_diagram", on_click=open_block)


# ---------------------------------------------------------------- each block's panel

def link_row(kind: str, layer: int | None) -> None:
    page, nav = TEACHING[kind]
    with st.container(gap="small"):
        st.page_link(page, label=t("arch.teach", page=t(f"nav.{nav}")), icon=t(f"nav.{nav}.icon"))
        if kind in HOME_KINDS and layer is not None:
            home_kind = HOME_KINDS[kind]
            if st.button(t("arch.home_heads", kind=kind_label(home_kind), n=layer + 1), key="ar_home",
                         icon=":material/translate:", type="tertiary"):
                st.session_state["tr_kind"] = kind_label(home_kind)
                st.session_state[f"tr_layer_{home_kind}"] = layer
                st.session_state[f"tr_head_{home_kind}"] = 0
                st.switch_page("pages/translate.py")


def embed_panel(tr, block: dict, rows: list[str], ck) -> None:
    stack = block["stack"]
    rec = tr.probe.records[f"{stack}.embed"]
    norms = memo(PANELS_KEY, ck, block["id"], lambda: architecture.embedding_norms(rec))
    parts = [architecture.downsample(m, MAX_COLS) for m in (rec["token"][0], rec["position"], rec["sum"][0])]
    f = parts[0][1]
    fig = figures.matrix_panels([p for p, _ in parts], rows, panel_titles=[t("arch.embed.token"), t("arch.embed.pe"),
                                                                           t("arch.embed.sum")],
                                title=t("arch.embed.fig", d=rec["token"].shape[-1]),
                                x_title=t("arch.axis.dim"))
    show_figure(fig, f"{stack}_embed", {"token": matrix_frame(rec["token"][0].numpy(), rows),
                                        "pe": matrix_frame(rec["position"].numpy(), rows)}, key="ar_embed_fig")
    if f > 1:
        st.caption(t("arch.downsampled", f=f))
    fig = figures.bar_figure(rows, {t("arch.embed.norm_token"): norms["token"], t("arch.embed.norm_pe"): norms["position"],
                                    t("arch.embed.norm_sum"): norms["sum"]}, title=t("arch.embed.norms"),
                             y_title=t("arch.axis.norm"), text_fmt=".1f", height=340)
    show_figure(fig, f"{stack}_embed_norms", pd.DataFrame(norms, index=rows), key="ar_embed_norms")


def attention_panel(tr, block: dict, src: list[str], tgt: list[str], pred: list[str]) -> None:
    kind, layer = block["kind"], block["layer"]
    w = tr.probe.records[block["id"]]["weights"][0].float().numpy()           # (h, Tq, Tk)
    q = src if kind == "self_attn" else pred                                  # rows: the token each predicts
    k = tgt if kind == "masked_attn" else src
    h = w.shape[0]
    per_row = max(1, min(h, PANEL_COLUMNS // (len(k) + 1)))               # the panel is narrow: large cells
    if -(-h // per_row) * (len(q) + 1) > PANEL_ROWS:                       # a long sentence: fewer rows of heads
        per_row = min(h, -(-h // max(1, PANEL_ROWS // (len(q) + 1))))
    rows = -(-h // per_row)
    panels = np.full((rows * per_row, *w.shape[1:]), np.nan)
    panels[:h] = w
    titles = [[t("attn.head") + f" {i + 1}" if i < h else "" for i in range(r * per_row, (r + 1) * per_row)]
              for r in range(rows)]
    future = np.triu(np.ones((len(q), len(k)), dtype=bool), 1) if kind == "masked_attn" else None
    kw = {"masked": future, "masked_name": t("translate.masked")} if future is not None else {}
    fig = figures.attention_grid(panels.reshape(rows, per_row, *w.shape[1:]), q, k, panel_titles=titles,
                                 x_title=t("arch.axis.key"), y_title=t("arch.axis.query"),
                                 colorbar_title=t("translate.weight"),
                                 title=t("arch.attn.fig", h=h, n=layer + 1), **kw)
    show_figure(fig, f"{block['id']}_heads", {f"head{i + 1}": matrix_frame(w[i], q, k) for i in range(h)},
                key="ar_attn_fig")
    if kind == "masked_attn":
        mask = tr.probe.records["masks"]["tgt_mask"][0, 0].numpy()               # (T, T)
        fig = figures.mask_heatmap(mask, tgt, pred, title=t("arch.attn.mask_fig", T=len(tgt)),
                                   x_title=t("arch.axis.key"), y_title=t("arch.axis.query"))
        show_figure(fig, f"{block['id']}_mask", matrix_frame(mask.astype(int), pred, tgt), key="ar_mask_fig")


def add_norm_panel(tr, model, block: dict, rows: list[str], ck) -> None:
    stack, layer, which = block["id"].split(".")
    rec = tr.probe.records[block["id"]]
    norm = getattr((model.encoder if stack == "encoder" else model.decoder)[int(layer)], which).norm

    def compute():
        return {"ln": explain.layer_norm_stats(rec["before"][0], rec["after"][0], norm),
                "ratio": architecture.residual_ratio(rec)}
    data = memo(PANELS_KEY, ck, block["id"], compute)
    ln, ratio = data["ln"], data["ratio"]
    before, after = t("shapes.norm.before"), t("shapes.norm.after")
    fig = figures.position_stats_figure(rows, [
        {"title": t("shapes.norm.mean"), "series": [{"name": before, "y": ln["mean_before"]},
                                                    {"name": after, "y": ln["mean_after"]}]},
        {"title": t("shapes.norm.std"), "series": [{"name": before, "y": ln["std_before"]},
                                                   {"name": after, "y": ln["std_after"]}]}], height=360)
    show_figure(fig, f"{block['id']}_stats", pd.DataFrame(ln, index=rows), key="ar_norm_fig")
    added = t(f"arch.block.{dict(architecture.SUBLAYERS[stack])[architecture.ADDED[stack][which]]}")
    fig = figures.bar_figure(rows, {t("arch.norm.residual"): ratio["residual"],
                                    t("arch.norm.sublayer", sub=added): ratio["sublayer"]},
                             title=t("arch.norm.ratio_fig", sub=added), y_title=t("arch.axis.norm"), text_fmt=".1f",
                             height=340)
    show_figure(fig, f"{block['id']}_ratio", pd.DataFrame(ratio, index=rows), key="ar_ratio_fig")
    st.caption(t("arch.norm.ratio", ratio=f"{float(np.median(ratio['ratio'])):.2f}", sub=added))


def ffn_panel(tr, block: dict, rows: list[str], activation: str, ck) -> None:
    hidden = tr.probe.records[block["id"]]["hidden"][0]                       # (T, d_ff)
    zeroed = memo(PANELS_KEY, ck, block["id"], lambda: architecture.ffn_zeroed(hidden))
    shown, f = architecture.downsample(hidden, MAX_COLS)
    act = t(f"arch.ffn.act.{activation}")
    fig = figures.matrix_panels([shown], rows, panel_titles=[""], colorscale=theme.SEQUENTIAL if activation == "relu"
                                else theme.DIVERGING, symmetric=activation != "relu",
                                title=t("arch.ffn.fig", T=len(rows), d_ff=hidden.shape[-1], act=act),
                                x_title=t("arch.axis.unit"))
    show_figure(fig, f"{block['id']}_hidden", matrix_frame(hidden.numpy(), rows), key="ar_ffn_fig")
    if f > 1:
        st.caption(t("arch.downsampled", f=f))
    fig = figures.bar_figure(rows, {t("arch.ffn.zeroed", act=act): zeroed}, title=t("arch.ffn.zeroed_fig", act=act),
                             y_title=t("arch.ffn.share"), text_fmt=".2f", y_range=(0, 1.1), height=320)
    show_figure(fig, f"{block['id']}_zeroed", pd.DataFrame({"zeroed": zeroed}, index=rows), key="ar_zero_fig")
    st.caption(t("arch.ffn.total", share=f"{100 * float(np.mean(zeroed)):.1f}", act=act))


def output_panel(tr, model, tokenizer, tgt: list[str], ck) -> None:
    top = memo(PANELS_KEY, ck, "output", lambda: architecture.top_next(model, tr.logits[0]))
    names_ = [labels(tokenizer.pieces([int(i) for i in row])) for row in top["ids"]]
    fig = figures.top_next_figure(tgt, names_, top["probs"], title=t("arch.out.fig", k=top["ids"].shape[1]),
                                  x_title=t("arch.out.rank"), y_title=t("arch.out.input"),
                                  colorbar_title=t("arch.out.prob"))
    frame = pd.DataFrame({f"{t('arch.out.rank')} {j + 1}": [f"{names_[i][j]} {top['probs'][i, j]:.3f}"
                                                            for i in range(len(tgt))] for j in range(top["ids"].shape[1])},
                         index=tgt)
    show_figure(fig, "top_next", frame, key="ar_out_fig")


def panel(ckpt, tr, res: dict, block: dict | None, ck) -> None:
    if block is None:
        st.info(t("arch.hint"), icon=":material/touch_app:")
        return
    kind = block["kind"]
    with st.container(horizontal=True, vertical_alignment="center"):
        st.subheader(block_title(block), anchor=False)
        st.button(t("arch.close"), key="ar_close", icon=":material/close:", type="tertiary", on_click=close_block)
    st.markdown(t(f"arch.explain.{kind}"))
    src, tgt = labels(res["src_pieces"]), labels(res["tgt_pieces"])
    pred = labels(res["pred_pieces"])                    # a decoder position: the token it predicts, as on every page
    rows = src if block["stack"] == "encoder" else tgt if kind == "embed" else pred
    if block["stack"] != "encoder" and kind in ("masked_attn", "cross_attn", "add_norm", "ffn"):
        st.caption(t("attn.rows_named"))
    if kind == "embed":
        embed_panel(tr, block, rows, ck)
    elif kind in HOME_KINDS:
        attention_panel(tr, block, src, tgt, pred)
    elif kind == "add_norm":
        add_norm_panel(tr, ckpt.model, block, rows, ck)
    elif kind == "ffn":
        ffn_panel(tr, block, rows, ckpt.config.activation, ck)
    else:
        output_panel(tr, ckpt.model, ckpt.tokenizer, tgt, ck)
    link_row(kind, block["layer"])


def step_panel(steps: list[dict], n: int, tokenizer) -> None:
    step = steps[n]
    shown = labels(tokenizer.pieces(step["input"]))
    st.markdown(t("arch.step.now", n=n + 1, total=len(steps), T=len(step["input"])))
    st.markdown(t("arch.step.input", tokens=" ".join(escape_md(x) for x in shown)))
    top = labels(tokenizer.pieces(step["ids"]))
    chosen = [i for i, tok in enumerate(step["ids"]) if tok == step["chosen"]]
    fig = figures.topk_figure(top, step["probs"], chosen=chosen, title=t("arch.step.fig", n=n + 1),
                              x_title=t("arch.out.prob"))
    show_figure(fig, f"step_{n + 1}", pd.DataFrame({"token": top, "p": step["probs"]}), key="ar_step_fig")
    st.caption(t("arch.step.chosen", token=escape_md(theme.token_label(tokenizer.id_to_piece(step["chosen"])))))


@model_fragment
def diagram_section(key: str, ckpt, text: str, beam: int, res: dict, tr) -> None:
    cfg = ckpt.config
    index = architecture.block_index(cfg)
    block = index.get(st.query_params.get(BLOCK_PARAM) or "")
    ck = (key, tuple(res["src_ids"]), tuple(res["out_ids"]))
    if not presenting():                  # the panel stays beside the diagram as the page scrolls
        st.html(STICKY_CSS)
    with st.container(horizontal=True, vertical_alignment="bottom", gap="medium"):
        stepping = st.toggle(t("arch.step.toggle"), key="ar_decode", help=t("arch.step.help"))
    steps, step = None, None
    if stepping:
        steps = greedy_steps(key, ckpt, text, beam, res, tr)
        if st.session_state.get("ar_step", 1) > len(steps):          # a shorter translation than the last one
            st.session_state["ar_step"] = len(steps)
        n = st.slider(t("arch.step.slider"), 1, len(steps), key="ar_step", help=t("arch.step.slider_help")) - 1
        step = steps[n]
    if sum(map(len, expanded_layers(cfg, block).values())) < cfg.n_encoder_layers + cfg.n_decoder_layers:  # a box
        st.caption(t("arch.collapsed.first" if first_in_full(cfg) else "arch.collapsed",
                     n_enc=cfg.n_encoder_layers, n_dec=cfg.n_decoder_layers))
    # beside each other; on a projector the diagram across the page (its text at 18 px or more), the panel under it
    left, right = (st.container(), st.container()) if presenting() else st.columns([3, 2], gap="medium")
    with left:
        diagram(ckpt, tr, res, block, step, ckpt.tokenizer)
        st.caption(t("arch.caption", S=len(res["src_ids"]), T=len(res["tgt_pieces"]) if step is None
                     else len(step["input"])))
    with right, st.container(key="ar_panel"):
        if step is not None:
            step_panel(steps, n, ckpt.tokenizer)
            st.divider()
        panel(ckpt, tr, res, block, ck)


# ---------------------------------------------------------------- the residual stream

def stage_label(name: str) -> str:
    parts = name.split(".")
    if parts[1] == "embed":
        return t("arch.stage.embed")
    stack, layer, which = parts
    return t(f"arch.stage.{stack}.{which}", n=int(layer) + 1)


def residual_section(tr, res: dict, ck) -> None:
    st.header(t("arch.stream.title"))
    st.markdown(t("arch.stream.explain"))
    stream = memo(PANELS_KEY, ck, "stream", lambda: architecture.residual_stream(tr))
    src, tgt = labels(res["src_pieces"]), labels(res["tgt_pieces"])
    stacks = [{"stages": [stage_label(s) for s in stream[stack]["stages"]], "norms": stream[stack]["norms"]}
              for stack in ("encoder", "decoder")]
    fig = figures.residual_figure(stacks, [src, tgt], panel_titles=[t("shapes.stack.encoder"), t("shapes.stack.decoder")],
                                  title=t("arch.stream.fig"), y_title=t("arch.axis.norm"), height=440)
    data = {stack: pd.DataFrame(stream[stack]["norms"], index=stream[stack]["stages"], columns=rows)
            for stack, rows in (("encoder", src), ("decoder", tgt))}
    show_figure(fig, "residual_stream", data, key="ar_stream_fig")
    st.caption(t("arch.stream.caption"))


# ---------------------------------------------------------------- the page

def main() -> None:
    page_header("arch")
    ckpt = model_state.active()
    if ckpt is None:
        return
    got = sentence_run("ar", ckpt)
    if got is None:
        return
    text, beam, res = got
    key = model_state.active_key()
    tr = traced(key, ckpt, res)
    cfg = ckpt.config
    st.caption(t("arch.model", n_enc=cfg.n_encoder_layers, n_dec=cfg.n_decoder_layers, h=cfg.n_heads,
                 d_model=cfg.d_model, d_k=cfg.d_k, d_ff=cfg.d_ff, V=cfg.vocab_size))
    diagram_section(key, ckpt, text, beam, res, tr)
    st.divider()
    residual_section(tr, res, (key, tuple(res["src_ids"]), tuple(res["out_ids"])))


main()
