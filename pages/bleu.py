"""BLEU: a hypothesis against one or more references, taken apart — n-gram precisions with matched
and total counts, clipping, brevity penalty, final score (equal to sacrebleu's)."""
import math

import pandas as pd
import streamlit as st

from pages.ui import figures, model_state
from pages.ui.i18n import current_lang, t
from pages.ui.sentence import beam_width, example_pairs, run_cached
from pages.ui.widgets import escape_md, latex, page_header, show_figure
from transformer_core.training.bleu import (
    MAX_ORDER,
    SMOOTH_METHODS,
    TOKENIZERS,
    lecture_score,
    metric,
    sentence_breakdown,
)
from transformer_core.training.evaluate import bleu_tokenize

MAX_CHARS = 2000
MAX_REFS = 4
CLIP_HYP, CLIP_REF = "the the the the", "the cat"      # the clipping example of the BLEU paper, as in the tests


def default_pair() -> tuple[str, str, str, str | None]:
    """The example shown first: the active model's translation (beam) of the first example sentence it
    does not translate exactly as the reference (its examples.json, else the app's in its languages: a
    Korean -> English model translates Korean against English), against that reference, or else a fixed pair
    in the interface language that differs.  -> (hyp, ref, tokenizer, the source the model translated or None)"""
    ckpt = model_state.active(quiet=True)
    for example in (e for e in (example_pairs(ckpt) if ckpt else []) if str(e.get("ref", "")).strip()):
        run = run_cached("translation", model_state.active_key(), ckpt, example["src"], beam_width(ckpt))
        if run["text"].strip() != example["ref"].strip():      # a pair that differs: BLEU 100 teaches nothing
            return run["text"], example["ref"], bleu_tokenize(ckpt.config.tgt_lang), example["src"]
    return t("bleu.default_hyp"), t("bleu.default_ref"), TOKENIZERS[0], None


def too_short(ref: str) -> str:
    """The reference's first words (a third of them, at least two where it has more): a hypothesis in the
    reference's language that the brevity penalty punishes."""
    words = ref.split()
    return " ".join(words[:max(1, len(words) // 3, min(2, len(words) - 1))])


def set_pair(hyp: str, ref: str) -> None:
    """Button callback: put an example into the two text areas."""
    lang = current_lang()
    st.session_state[f"bleu_hyp_{lang}"], st.session_state[f"bleu_refs_{lang}"] = hyp, ref


def tokens_line(tokens: list[str]) -> str:
    return " · ".join(tokens) if tokens else "∅"


def precision_table(b) -> pd.DataFrame:
    rows = []
    for n in range(1, MAX_ORDER + 1):
        used = b.precisions[n - 1]
        rows.append({t("bleu.col.n"): n,
                     t("bleu.col.matched"): b.counts[n - 1],
                     t("bleu.col.total"): b.totals[n - 1],
                     t("bleu.col.raw"): round(b.raw_precisions[n - 1], 4),
                     t("bleu.col.used"): round(used, 4),
                     t("bleu.col.in_mean"): "✓" if n <= b.eff_order else "–",
                     t("bleu.col.log"): round(math.log(used / 100), 4) if used > 0 else None})
    return pd.DataFrame(rows)


def status(row) -> str:
    if row.ref_count == 0:
        return t("bleu.status.missing")
    if row.clipped:
        return t("bleu.status.clipped", k=row.clipped)
    return t("bleu.status.matched")


def ngram_table(rows) -> pd.DataFrame:
    return pd.DataFrame([{t("bleu.col.ngram"): r.text, t("bleu.col.n"): r.n, t("bleu.col.hyp_count"): r.hyp_count,
                          t("bleu.col.ref_count"): r.ref_count, t("bleu.col.clip_count"): r.matched,
                          t("bleu.col.status"): status(r)} for r in rows])


def score_latex(b) -> str:
    used = b.precisions[: b.eff_order]
    if b.score == 0.0 or any(p == 0 for p in used):
        return (r"\text{BLEU} = " + f"{b.bp:.4f}" + r" \cdot \exp(\ldots\log 0\ldots) = 0")
    terms = " + ".join(rf"\log {p / 100:.4f}" for p in used)
    return (r"\text{BLEU} = BP \cdot \exp\!\Big(\tfrac{1}{" + str(b.eff_order) + r"}\big(" + terms + r"\big)\Big)"
            + f" = {b.bp:.4f}" + r" \times " + f"{b.score / 100 / b.bp if b.bp else 0:.4f} = {b.score / 100:.4f}")


def main() -> None:
    page_header("bleu")
    latex(r"p_n = \frac{\sum_{g \in n\text{-grams(hyp)}} \min\big(\mathrm{count}_{hyp}(g),\ \max_{ref}\mathrm{count}_{ref}(g)\big)}"
          r"{\sum_{g \in n\text{-grams(hyp)}} \mathrm{count}_{hyp}(g)}")
    latex(r"BP = \begin{cases} 1 & c > r \\ e^{\,1 - r/c} & c \le r \end{cases} \qquad "
          r"\text{BLEU} = BP \cdot \exp\!\Big(\sum_{n=1}^{4} \tfrac{1}{4} \log p_n\Big)")
    st.caption(t("bleu.lecture_formula_caption"))
    latex(r"\text{BLEU}_{\text{lecture}} = \min\!\Big(1, \frac{c}{r}\Big)\Big(\prod_{i=1}^{4} precision_i\Big)^{1/4}")

    hyp_default, ref_default, tok_default, src_default = default_pair()
    with st.container(horizontal=True):
        st.button(t("bleu.example.default"), on_click=set_pair, args=(hyp_default, ref_default), key="bleu_ex_default")
        st.button(t("bleu.example.clipping"), on_click=set_pair, args=(CLIP_HYP, CLIP_REF), key="bleu_ex_clip")
        st.button(t("bleu.example.short"), on_click=set_pair, args=(too_short(ref_default), ref_default),
                  key="bleu_ex_short")
    c1, c2 = st.columns(2)
    lang = current_lang()
    st.session_state.setdefault(f"bleu_hyp_{lang}", hyp_default)      # the buttons above may set them too
    st.session_state.setdefault(f"bleu_refs_{lang}", ref_default)
    hyp = c1.text_area(t("bleu.hyp"), max_chars=MAX_CHARS, height=100, key=f"bleu_hyp_{lang}", help=t("bleu.hyp_help"))
    refs_text = c2.text_area(t("bleu.refs"), max_chars=MAX_CHARS, height=100, key=f"bleu_refs_{lang}",
                             help=t("bleu.refs_help"))
    if src_default is not None and hyp.strip() == hyp_default.strip():      # where the hypothesis came from
        c1.caption(t("bleu.hyp.from_model", src=escape_md(src_default),
                     model=escape_md(dict(model_state.model_choices()).get(model_state.active_key(), ""))))
    else:
        c1.caption(t("bleu.hyp.not_model"))
    o1, o2, o3 = st.columns(3)
    st.session_state.setdefault("bleu_tok", tok_default)
    tok = o1.selectbox(t("bleu.tokenizer"), TOKENIZERS, key="bleu_tok", help=t("bleu.tokenizer_help"),
                       format_func=lambda k: t(f"bleu.tok.{k}"))
    smooth = o2.selectbox(t("bleu.smooth"), SMOOTH_METHODS, key="bleu_smooth", help=t("bleu.smooth_help"),
                          format_func=lambda k: t(f"bleu.smooth.{k}"))
    lower = o3.toggle(t("bleu.lowercase"), key="bleu_lower")

    hyp = " ".join((hyp or "").split())
    refs = [" ".join(line.split()) for line in (refs_text or "").splitlines() if line.strip()]
    if not hyp:
        st.info(t("bleu.err.no_hyp"))
        return
    if not refs:
        st.info(t("bleu.err.no_ref"))
        return
    if len(refs) > MAX_REFS:
        st.warning(t("bleu.err.too_many_refs", n=MAX_REFS))
        refs = refs[:MAX_REFS]

    b = sentence_breakdown(hyp, refs, smooth_method=smooth, tokenize=tok, lowercase=lower)
    check = metric(tok, lower, smooth, effective_order=True).sentence_score(hyp, refs)   # sacrebleu.sentence_bleu's

    st.subheader(t("bleu.tokens.title"))
    st.caption(t("bleu.tokens.hyp", c=b.sys_len))
    st.text(tokens_line(b.hyp_tokens[0]))
    for i, ref_toks in enumerate(b.ref_tokens[0]):
        st.caption(t("bleu.tokens.ref", i=i + 1, n=len(ref_toks)))
        st.text(tokens_line(ref_toks))

    st.subheader(t("bleu.result.title"))
    m1, m2, m3, m4, m5 = st.columns(5)
    m1.metric(t("bleu.metric.score"), f"{b.score:.2f}")
    m2.metric(t("bleu.metric.bp"), f"{b.bp:.4f}")
    m3.metric(t("bleu.metric.c"), b.sys_len)
    m4.metric(t("bleu.metric.r"), b.ref_len)
    m5.metric(t("bleu.metric.lecture"), f"{lecture_score(b):.2f}", help=t("bleu.metric.lecture_help"))
    latex(score_latex(b))
    st.caption(t("bleu.check", score=f"{check.score:.4f}", ok="✓" if abs(check.score - b.score) < 1e-6 else "✗"))

    st.subheader(t("bleu.prec.title"))
    st.markdown(t("bleu.prec.explain"))
    table = precision_table(b)
    st.dataframe(table, hide_index=True, width="stretch")
    orders = [t("bleu.ngram_name", n=n) for n in range(1, MAX_ORDER + 1)]
    series = {t("bleu.prec.raw"): b.raw_precisions, t("bleu.prec.used"): b.precisions}
    fig = figures.bar_figure(orders, series, title=t("bleu.prec.fig_title"), y_title=t("bleu.prec.axis"),
                             text_fmt=".1f", y_range=(0, 112))
    show_figure(fig, "precisions", pd.DataFrame({"matched": b.counts, "total": b.totals, "raw_precision": b.raw_precisions,
                                                 "used_precision": b.precisions}, index=range(1, MAX_ORDER + 1)))
    if smooth != "none" and any(c == 0 < n for c, n in zip(b.counts, b.totals, strict=False)):
        st.caption(t(f"bleu.smooth.{smooth}.explain"))          # only when an order had no match

    st.subheader(t("bleu.clip.title"))
    st.markdown(t("bleu.clip.explain"))
    clipped = b.clipped
    if clipped:
        st.dataframe(ngram_table(clipped), hide_index=True, width="stretch")
    else:
        st.success(t("bleu.clip.none"))
    with st.expander(t("bleu.ngrams.title"), expanded=True):
        n = st.segmented_control(t("bleu.ngrams.order"), list(range(1, MAX_ORDER + 1)), default=1,
                                 format_func=lambda k: t("bleu.ngram_name", n=k), key="bleu_order")
        rows = [r for r in b.ngrams if r.n == (n or 1)]
        if rows:
            st.dataframe(ngram_table(rows), hide_index=True, width="stretch")
        else:
            st.info(t("bleu.ngrams.none"))


main()
