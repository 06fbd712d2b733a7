"""Masks: the padding mask (B,1,1,S), the subsequent mask (T,T) and their combination (B,1,T,T) on the
user's own sentences; scores before and after masking and after softmax; and what goes wrong
without the causal mask."""
import numpy as np
import pandas as pd
import streamlit as st
import torch

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame, unique_labels
from pages.ui.i18n import current_lang, t
from pages.ui.sentence import start_label
from pages.ui.widgets import latex, page_header, show_figure
from transformer_core.explainer.examples import batch
from transformer_core.explainer.toy import (
    BOS,
    EOS,
    MASK_KINDS,
    PAD_ID,
    batch_qkv,
    causal_leak,
    mask_for,
    pad_batch,
    whitespace_batch,
)
from transformer_core.model.attention import attention_steps
from transformer_core.model.config import base_language
from transformer_core.model.masks import make_src_mask, make_trg_mask, subsequent_mask
from transformer_core.model.tokenizer import wrap_source

MAX_SENTENCES = 8
MAX_TOKENS = 16          # words per sentence, before <bos>/<eos>
MAX_CHARS = 2000
D_K = 8


def read_sentences(text: str) -> list[str]:
    lines = [" ".join(line.split()) for line in (text or "").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > MAX_SENTENCES:
        st.warning(t("masks.too_many", n=MAX_SENTENCES))
        lines = lines[:MAX_SENTENCES]
    if any(len(line.split()) > MAX_TOKENS for line in lines):
        st.warning(t("masks.too_long", n=MAX_TOKENS))
    return lines


def sentence_label(b: int, lines: list[str]) -> str:
    text = lines[b]
    return t("masks.sentence_n", n=b + 1) + ": " + (text if len(text) <= 40 else text[:39] + "…")


def batch_section(ids: torch.Tensor, tokens: list[list[str]], lines: list[str], pad_id: int) -> None:
    st.subheader(t("masks.batch.title"))
    st.markdown(t("masks.batch.explain", B=ids.size(0), S=ids.size(1), pad=pad_id))
    c1, c2 = st.columns(2)
    rows = [t("masks.sentence_n", n=b + 1) for b in range(len(tokens))]
    with c1:
        st.caption(t("masks.batch.tokens"))
        st.dataframe(pd.DataFrame([theme.token_labels(row) for row in tokens], index=rows), width="stretch")
    with c2:
        st.caption(t("masks.batch.ids", pad=pad_id))
        st.dataframe(pd.DataFrame(ids.numpy(), index=rows), width="stretch")

    st.subheader(t("masks.pad.title"))
    st.markdown(t("masks.pad.explain"))
    latex(r"\texttt{src\_mask} = (\texttt{src} \neq \texttt{pad\_idx})"
          r"\texttt{.unsqueeze(1).unsqueeze(2)} \;:\; (B, 1, 1, S) = " + f"({ids.size(0)}, 1, 1, {ids.size(1)})")
    src_mask = make_src_mask(ids, pad_id)
    fig = figures.batch_mask_heatmap(src_mask[:, 0, 0, :], tokens, rows, title=t("masks.pad.fig_title"),
                                     x_title=t("masks.axis.key_pos"), y_title=t("masks.axis.sentence"))
    show_figure(fig, "padding_mask", matrix_frame(src_mask[:, 0, 0, :].int().numpy(), rows))


def causal_section(ids: torch.Tensor, tokens: list[list[str]], b: int, pad_id: int, start: str) -> None:
    """start: the decoder's first token, as the caption names it (the lecture's <s>, or the model's)."""
    st.subheader(t("masks.sub.title"))
    st.markdown(t("masks.sub.explain"))
    T = ids.size(1)
    latex(r"\texttt{trg\_mask} = \underbrace{\texttt{trg\_pad\_mask}}_{(B,1,1,T)} \;\&\; "
          r"\underbrace{\texttt{tril(ones(T, T))}}_{(T,T)} \;:\; (B, 1, T, T) = "
          + f"({ids.size(0)}, 1, {T}, {T})")
    toks = tokens[b]
    pad_row = make_src_mask(ids, pad_id)[b, 0].expand(T, T)           # (1, T) broadcast to (T, T)
    sub = subsequent_mask(T)
    combined = make_trg_mask(ids, pad_id)[b, 0]
    kw = dict(x_title=t("masks.axis.key"), y_title=t("masks.axis.query"))
    c1, c2, c3 = st.columns(3)
    with c1:
        show_figure(figures.mask_heatmap(pad_row, toks, toks, title=t("masks.sub.pad_title"), **kw),
                    "pad_broadcast", matrix_frame(pad_row.int().numpy(), toks, toks))
    with c2:
        show_figure(figures.mask_heatmap(sub, toks, toks, title=t("masks.sub.sub_title"), **kw),
                    "subsequent_mask", matrix_frame(sub.int().numpy(), toks, toks))
    with c3:
        show_figure(figures.mask_heatmap(combined, toks, toks, title=t("masks.sub.combined_title"), **kw),
                    "combined_mask", matrix_frame(combined.int().numpy(), toks, toks))
    st.caption(t("masks.sub.caption", start=start))


@st.fragment
def scores_section(ids: torch.Tensor, tokens: list[list[str]], b: int, pad_id: int) -> None:
    st.subheader(t("masks.scores.title"))
    st.markdown(t("masks.scores.explain", d_k=D_K))
    latex(r"\mathrm{softmax}\!\left(\frac{QK^T}{\sqrt{d_k}}\right) \;\to\; "
          r"\texttt{energy.masked\_fill(mask == 0, } -\infty\texttt{)} \;\to\; \mathrm{softmax} \;\to\; \times V")
    c1, c2 = st.columns([3, 1])
    kind = c1.radio(t("masks.scores.kind"), MASK_KINDS, index=3, horizontal=True, key="masks_kind",
                    format_func=lambda k: t(f"masks.kind.{k}"))
    seed = c2.number_input(t("masks.scores.seed"), 0, 9999, 0, key="masks_seed")
    q, k, v = batch_qkv(tokens, D_K, int(seed))
    mask = mask_for(kind, ids, pad_id)
    steps = attention_steps(q, k, v, mask)
    toks = tokens[b]
    kw = dict(x_title=t("masks.axis.key"), y_title=t("masks.axis.query"), masked_text=t("common.neg_inf"))
    views = (("scaled", t("masks.scores.before")), ("masked", t("masks.scores.after")),
             ("weights", t("masks.scores.softmax")))
    cols = st.columns(3)
    for col, (name, title) in zip(cols, views, strict=False):
        matrix = steps[name][b, 0].numpy()
        with col:
            fig = figures.scores_heatmap(matrix, toks, toks, title=title, probabilities=name == "weights", **kw)
            show_figure(fig, f"scores_{name}_{kind}", matrix_frame(matrix, toks, toks))
    st.caption(t("masks.scores.caption"))


def tiny(x: float) -> str:
    return "0" if x == 0 else f"{x:.2e}"


@st.fragment
def leak_section(ids: torch.Tensor, tokens: list[list[str]], lines: list[str], pad_id: int) -> None:
    st.subheader(t("masks.leak.title"))
    st.markdown(t("masks.leak.explain"))
    c0, c1, c2 = st.columns(3)
    b = c0.selectbox(t("masks.leak.sentence"), range(len(lines)), format_func=lambda i: sentence_label(i, lines),
                     key="masks_leak_pick")
    toks = [tok for tok, i in zip(tokens[b], ids[b].tolist(), strict=False) if i != pad_id]
    if len(toks) < 2:
        st.info(t("masks.leak.too_short"))
        return
    ends_with_eos = toks[-1] in (EOS, "</s>")          # the toy's <eos> or SentencePiece's </s>
    last_word = len(toks) - 2 if len(toks) > 2 and ends_with_eos else len(toks) - 1
    pos = c1.slider(t("masks.leak.pos"), 1, len(toks) - 1, last_word, key=f"masks_leak_pos_{b}",
                    help=t("masks.leak.pos_help", first=theme.token_label(toks[0])))
    new = c2.text_input(t("masks.leak.new"), t("masks.leak.default_token"), max_chars=40, key=f"masks_leak_new_{current_lang()}")
    new = (new or "").split()
    if not new:
        st.info(t("masks.leak.empty"))
        return
    new_token = new[0]
    leak = causal_leak(toks, pos, new_token, D_K)
    fig = figures.leak_figure(toks, leak["with_mask"], leak["without_mask"], pos,
                              with_name=t("masks.leak.with"), without_name=t("masks.leak.without"),
                              title=t("masks.leak.fig_title", pos=pos), x_title=t("masks.axis.query"),
                              y_title=t("masks.leak.y"), changed_label=t("masks.leak.changed"))
    data = pd.DataFrame({"with_mask": leak["with_mask"], "without_mask": leak["without_mask"]},
                        index=unique_labels(toks))
    show_figure(fig, "causal_leak", data)
    before_with = max(leak["with_mask"][:pos])
    before_without = max(leak["without_mask"][:pos])
    m1, m2 = st.columns(2)
    m1.metric(t("masks.leak.metric_with", pos=pos), tiny(before_with))
    m2.metric(t("masks.leak.metric_without", pos=pos), tiny(before_without))
    st.caption(t("masks.leak.caption"))


def model_batch(lines: list[str], add_special: bool) -> tuple[torch.Tensor, list[list[str]], int] | None:
    """The batch as the active model's SentencePiece tokenizer cuts it, padded with its pad id; with
    add_special its source's specials (BOS … EOS, or Marian's … EOS: its BOS is the decoder's start, <pad>)."""
    ckpt = model_state.active()
    if ckpt is None:
        return None
    tok = ckpt.tokenizer
    rows = []
    for line in lines:
        pieces = tok.encode(line)[:MAX_TOKENS]
        rows.append(wrap_source(tok, pieces) if add_special else pieces)
    if not any(rows):
        return None
    ids = pad_batch(rows, tok.pad_id)
    return ids, [tok.pieces(row.tolist()) for row in ids], tok.pad_id


def sentences_language() -> str:
    """The language of the batch the box starts with (and of its key): the active model's source language
    when its tokenizer cuts the sentences (a Korean -> English model cuts Korean), else the interface's."""
    ckpt = model_state.active(quiet=True) if st.session_state.get("masks_splitter") == "model" else None
    if ckpt is not None and batch(ckpt.config.src_lang) is not None:
        return base_language(ckpt.config.src_lang)
    return current_lang()


def main() -> None:
    page_header("masks")
    c1, c2 = st.columns([3, 1])
    lang = sentences_language()
    text = c1.text_area(t("masks.input"), "\n".join(batch(lang)), height=130, max_chars=MAX_CHARS,
                        key=f"masks_text_{lang}", help=t("masks.input_help"))
    add_special = c2.toggle(t("masks.bos_eos"), value=True, key="masks_bos", help=t("masks.bos_eos_help"))
    splitter = "whitespace"
    if model_state.model_choices():          # a trained model's tokenizer can cut the sentences too
        splitter = c2.radio(t("masks.splitter"), ("whitespace", "model"), key="masks_splitter",
                            format_func=lambda k: t(f"masks.splitter.{k}"), help=t("masks.splitter_help"))
    lines = read_sentences(text)
    if not lines:
        st.info(t("masks.empty"))
        return
    pad_id, start = PAD_ID, theme.token_label(BOS)
    if splitter == "model":
        got = model_batch(lines, add_special)
        if got is None:
            st.info(t("masks.empty"))
            return
        ids, tokens, pad_id = got
        start = start_label(model_state.active())
    else:
        try:
            ids, tokens, _ = whitespace_batch(lines, add_special, MAX_TOKENS)
        except ValueError:
            st.info(t("masks.empty"))
            return
    batch_section(ids, tokens, lines, pad_id)
    st.divider()
    b = st.selectbox(t("masks.pick"), range(len(lines)), format_func=lambda i: sentence_label(i, lines),
                     index=int(np.argmin([len(line.split()) for line in lines])) if len(lines) > 1 else 0,
                     key="masks_pick", help=t("masks.pick_help"))
    causal_section(ids, tokens, b, pad_id, start)
    st.divider()
    scores_section(ids, tokens, b, pad_id)
    st.divider()
    leak_section(ids, tokens, lines, pad_id)


main()
