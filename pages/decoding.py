"""Step-by-step decoding: the decoder writes the translation one token at a time.  A step slider
shows, at each step, the decoder input so far (shifted right, the model's start token first), the top-k next-token
probabilities, that step's encoder-decoder attention row of every layer and head, and the beam
hypotheses with their scores.  All numbers are the StepTrace of translate(…, trace=True); beam search
uses the model's beam width and α (the paper's, or a Marian checkpoint's own: Checkpoint.beam_options)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame
from pages.ui.i18n import t
from pages.ui.sentence import layer_head_label, search_note, sentence_run, session_run, start_label
from pages.ui.whatif import whatif_view
from pages.ui.widgets import escape_md, latex, model_fragment, page_header, presenting, show_figure

STACK_OVER = 6        # source tokens beyond which the top-k and attention charts stack, each at full width
LENGTH_PENALTY = {"gnmt": r"lp(Y) = \left(\frac{5 + |Y|}{6}\right)^{\alpha}",   # decoding.length_penalty's kinds
                  "hf": r"lp(Y) = |Y|^{\alpha}"}


def lesson(ckpt, beam: int) -> None:
    c1, c2 = st.columns([3, 2], vertical_alignment="center")
    with c1:
        st.markdown(t("decoding.lesson", start=start_label(ckpt)))
    with c2:
        latex(r"P(y_t \mid y_{<t}, x) = \mathrm{softmax}(h_t E^T)")
        if beam > 1:
            options = ckpt.beam_options
            latex(r"\mathrm{score}(Y) = \frac{\log P(Y \mid X)}{lp(Y)}")
            latex(LENGTH_PENALTY[options["penalty"]] + r", \quad \alpha = " + f"{options['alpha']:g}")
            st.caption(t("decoding.alpha_note", beam=beam, alpha=f"{options['alpha']:g}", setting=search_note(ckpt)))
        else:
            latex(r"y_t = \arg\max_w P(w \mid y_{<t}, x)")


def shift_table(prefix: list[str], chosen: list[str]) -> pd.DataFrame:
    """Decoder input (shifted right) over what each position predicts: the target shifted left."""
    prefix, chosen = theme.token_labels(prefix), theme.token_labels(chosen)
    targets = [*prefix[1:], " | ".join(chosen) if chosen else "?"]
    return pd.DataFrame([prefix, targets], index=[t("decoding.table.input"), t("decoding.table.target")],
                        columns=[str(i) for i in range(len(prefix))])


def kept_after(step: dict, b: int) -> list[int]:
    """Which of hypothesis b's top-k tokens the decoder kept at this step (greedy: the first)."""
    prefix = step["prefixes"][b][1:]
    kept = {tuple(ids) for ids, _, _ in step["beams"]}
    return [i for i, tok in enumerate(step["topk_ids"][b]) if tuple([*prefix, tok]) in kept]


def input_table(s: int, prefix: list[str], chosen: list[str], eos_piece: str) -> None:
    """The decoder's input at step s (shifted right) over what each position predicts."""
    st.markdown(f"**{t('decoding.input.title', t=s, n=len(prefix))}**")
    st.dataframe(shift_table(prefix, chosen), width="stretch")
    if eos_piece in chosen:
        st.caption(t("decoding.eos_chosen"))


@st.fragment
def step_view(res: dict, beam: int, n_heads: int, eos_piece: str) -> None:
    steps = res["steps"]
    n = len(steps)
    if st.session_state.get("dec_step", 1) > n:
        st.session_state["dec_step"] = n
    if n > 1:
        s = st.slider(t("decoding.step"), 1, n, key="dec_step", help=t("decoding.step_help"))
    else:
        s = 1
        st.caption(t("decoding.one_step"))
    step = steps[s - 1]
    n_hyp = len(step["prefixes"])
    b = 0
    if n_hyp > 1:
        if st.session_state.get("dec_hyp", 0) >= n_hyp:
            st.session_state["dec_hyp"] = 0
        b = st.segmented_control(t("decoding.hyp"), range(n_hyp), key="dec_hyp", default=0, required=True,
                                 format_func=lambda i: str(i + 1), help=t("decoding.hyp_help")) or 0
    prefix = step["prefix_pieces"][b]
    chosen_idx = kept_after(step, b)
    chosen = [step["topk_pieces"][b][i] for i in chosen_idx]

    present = presenting()           # a projector: the slider and the charts it drives first, the table after
    if not present:
        input_table(s, prefix, chosen, eos_piece)
    stacked = presenting() or len(res["src_pieces"]) > STACK_OVER    # full width: room for every upright label
    c1, c2 = (st.container(), st.container()) if stacked else st.columns([2, 3])
    with c1:
        named = [t("decoding.topk.space") if piece == "▁" else piece for piece in step["topk_pieces"][b]]
        fig = figures.topk_figure(named, step["topk_probs"][b], chosen=chosen_idx,
                                  title=t("decoding.topk.title", k=len(step["topk_probs"][b])),
                                  x_title=t("decoding.topk.x"))
        data = pd.DataFrame({"token": theme.token_labels(step["topk_pieces"][b]), "id": step["topk_ids"][b],
                             "probability": step["topk_probs"][b]})
        show_figure(fig, f"step{s}_topk", data, key="dec_topk")
    with c2:
        cross = np.asarray(step["cross"][b])                              # (L, h, S)
        L, H, S = cross.shape
        rows = [layer_head_label(layer, h) for layer in range(L) for h in range(H)]
        flat = cross.reshape(L * H, S)
        fig = figures.attention_heatmap(flat, rows, res["src_pieces"], title=t("decoding.cross.title", t=s),
                                        x_title=t("decoding.cross.x"),
                                        colorbar_title=t("translate.weight"), show_values=False)
        show_figure(fig, f"step{s}_cross", matrix_frame(flat, rows, res["src_pieces"]), key="dec_cross")
    if present:
        input_table(s, prefix, chosen, eos_piece)
    st.markdown(f"**{t('decoding.beams.title')}**")
    beams = pd.DataFrame([{t("decoding.beams.rank"): i + 1,
                           t("decoding.beams.tokens"): " ".join(theme.token_labels(pieces)),
                           t("decoding.beams.len"): len(ids),
                           t("decoding.beams.score"): round(score, 4)}
                          for i, (ids, score, pieces) in enumerate(step["beams"])])
    if beams.empty:
        st.caption(t("decoding.beams.none"))
    else:
        st.dataframe(beams, hide_index=True, width="stretch")
        st.caption(t("decoding.beams.caption_beam" if beam > 1 else "decoding.beams.caption_greedy"))
    if step["finished"]:
        st.markdown(f"**{t('decoding.finished.title')}**")
        best = max(score for _, score, _ in step["finished"])
        ranked = sorted(step["finished"], key=lambda f: -f[1])
        st.dataframe(pd.DataFrame([{t("decoding.beams.rank"): i + 1,
                                    t("decoding.beams.tokens"): " ".join(theme.token_labels(pieces)),
                                    t("decoding.beams.len"): len(ids),
                                    t("decoding.finished.score"): round(score, 4),
                                    t("decoding.finished.best"): "✓" if score == best else ""}
                                   for i, (ids, score, pieces) in enumerate(ranked)]),
                     hide_index=True, width="stretch")


# ---------------------------------------------------------------- what if, and sampling

@model_fragment
def whatif_section(ckpt, text: str) -> None:
    """What if (pages/ui/whatif.py), rerun on its own when a token is clicked or a beginning typed."""
    whatif_view(ckpt, text, "dec")


def _next_seeds(seed: int) -> None:
    """Five new draws: the seeds after the five shown."""
    st.session_state["dec_seed"] = min(seed + 5, 10 ** 6)


@model_fragment
def sampling_view(ckpt, text: str) -> None:
    """Sampling instead of the most likely token: temperature, top-k and top-p filter the next-token
    distribution (drawn after each filter in turn at the first step), and five draws from a seed."""
    st.subheader(t("decoding.sample.title"))
    st.markdown(t("decoding.sample.explain"))
    c1, c2, c3, c4 = st.columns(4)
    temperature = c1.slider(t("decoding.sample.temperature"), 0.0, 2.0, 1.0, 0.05, key="dec_temp")
    top_k = c2.slider(t("decoding.sample.top_k"), 0, 50, 0, key="dec_topk_k", help=t("decoding.sample.top_k_help"))
    top_p = c3.slider(t("decoding.sample.top_p"), 0.05, 1.0, 1.0, 0.05, key="dec_topp")
    seed = c4.number_input(t("decoding.sample.seed"), 0, 10 ** 6, 0, key="dec_seed")
    st.button(t("decoding.sample.again"), key="dec_sample_again", icon=":material/casino:", on_click=_next_seeds,
              args=(int(seed),))
    drawn = session_run("samples", model_state.active_key(), ckpt, text, float(temperature), int(top_k),
                        float(top_p), int(seed))
    fig = figures.bar_figure(theme.token_labels(ckpt.tokenizer.pieces(drawn["top_ids"])),
                             {t(f"decoding.sample.stage.{name}"): probs for name, probs in drawn["stages"].items()},
                             title=t("decoding.sample.dist"), x_title=t("decoding.sample.axis"), text_fmt=".2g",
                             horizontal=True, height=200 + 14 * 4 * len(drawn["top_ids"]))
    show_figure(fig, "sampling_first_step", key="dec_sample_dist")
    st.caption(t("decoding.sample.kept", n=drawn["kept"], top=f"{drawn['top']:.3f}"))
    st.dataframe(pd.DataFrame({t("decoding.sample.seed"): drawn["seeds"], t("decoding.sample.text"): drawn["texts"],
                               t("decoding.beams.score"): [round(x, 3) for x in drawn["scores"]]}),
                 hide_index=True, width="stretch", key="dec_sample_table")


def main() -> None:
    page_header("decoding")
    ckpt = model_state.active()
    if ckpt is None:
        return
    got = sentence_run("dec", ckpt, "steps")
    if got is None:
        return
    text, beam, res = got
    with st.container(border=True):
        st.caption(t("decoding.final", n=len(res["steps"]), score=f"{res['score']:.3f}"))
        st.markdown("### " + escape_md(res["text"]) if res["text"] else t("translate.empty_output"))
    if not presenting():             # on a projector: after the steps
        lesson(ckpt, beam)
    if not res["steps"]:
        st.info(t("decoding.no_steps"))
        return
    step_view(res, beam, ckpt.config.n_heads, ckpt.tokenizer.id_to_piece(ckpt.config.eos_id))
    if presenting():
        lesson(ckpt, beam)
    st.divider()
    whatif_section(ckpt, text)
    st.divider()
    sampling_view(ckpt, text)


main()
