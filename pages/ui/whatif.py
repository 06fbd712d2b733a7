"""What if the translation began otherwise: the decoding page's and the home page's view (Seq2Seq-Vis's
"force a word and watch the rest follow")."""
from __future__ import annotations

import numpy as np
import streamlit as st

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame
from pages.ui.i18n import t
from pages.ui.sentence import session_run
from pages.ui.widgets import escape_md, show_figure
from transformer_core.explainer.examples import beginning


def whatif_view(ckpt, text: str, keys: str) -> None:
    """What if the translation began otherwise?  Force a beginning (typed, or the model's own beginning up
    to a step with another of that step's top 5) and watch the model continue from it (Seq2Seq-Vis).
    keys: the page's prefix of the widget keys ("dec" on the decoding page, "tr" on the home page)."""
    st.subheader(t("decoding.whatif.title"))
    st.markdown(t("decoding.whatif.explain"))
    tok, key = ckpt.tokenizer, model_state.active_key()
    base = session_run("greedy_steps", key, ckpt, text, ())
    if not base["steps"]:
        return
    steps = base["steps"]
    # A typed beginning, when there is one, is what the model continues: the token and the alternative above it
    # then show no choice (the token's choice is kept, and comes back when the box is emptied).
    step_key, typed_key = f"{keys}_whatif_step", f"{keys}_whatif_text"
    typing = bool(str(st.session_state.get(typed_key) or "").strip())
    if typing and st.session_state.get(step_key) is not None:
        st.session_state[f"{step_key}_kept"] = st.session_state[step_key]
        st.session_state[step_key] = None
    elif not typing and st.session_state.get(step_key) is None and f"{step_key}_kept" in st.session_state:
        st.session_state[step_key] = st.session_state.pop(f"{step_key}_kept")
    # the translation's tokens, each a button: click one to change the translation from there
    step = st.pills(t("decoding.whatif.step"), range(len(steps)), key=step_key,
                    default=None if step_key in st.session_state else 0, disabled=typing,
                    format_func=lambda i: theme.token_label(tok.id_to_piece(steps[i]["token"])))
    step = 0 if step is None else step
    options = steps[step]["topk_ids"]
    if typing:
        alternative = None
        st.caption(t("decoding.whatif.typed_in_use"))
    else:
        alternative = st.selectbox(t("decoding.whatif.alternative", t=step + 1), options,
                                   index=min(1, len(options) - 1), key=f"{keys}_whatif_alt_{step}",
                                   format_func=lambda i: theme.token_label(tok.id_to_piece(i)))
    example = beginning(ckpt.config.tgt_lang)        # in the language the model writes
    typed = st.text_input(t("decoding.whatif.typed"), key=typed_key, max_chars=200,
                          placeholder=t("decoding.whatif.typed_placeholder", example=example) if example else None)
    prefix = tuple(tok.encode_target(typed) if typed.strip() else [*base["ids"][:step], alternative])
    forced = session_run("greedy_steps", key, ckpt, text, prefix)
    changed = next((i for i, (a, b) in enumerate(zip(base["ids"] + [-1], forced["ids"] + [-2], strict=False)) if a != b),
                   len(prefix))
    c1, c2 = st.columns(2)
    with c1.container(border=True):
        st.caption(t("decoding.whatif.model", score=f"{base['score']:.3f}"))
        st.markdown("#### " + escape_md(base["text"]))
    with c2.container(border=True):
        st.caption(t("decoding.whatif.forced", n=len(prefix), score=f"{forced['score']:.3f}"))
        st.markdown("#### " + escape_md(forced["text"]))
    if changed >= len(forced["steps"]) or changed >= len(steps):
        return
    before, after_at = steps[changed], min(changed + 1, len(forced["steps"]) - 1)
    after = forced["steps"][after_at]
    c1, c2 = st.columns(2)
    with c1:
        fig = figures.topk_figure(theme.token_labels(tok.pieces(before["topk_ids"])), before["topk_probs"], title=
                                  t("decoding.whatif.before", t=changed + 1), x_title=t("decoding.topk.x"))
        show_figure(fig, f"whatif_before_{changed + 1}", key=f"{keys}_whatif_before")
    with c2:
        fig = figures.topk_figure(theme.token_labels(tok.pieces(after["topk_ids"])), after["topk_probs"], title=
                                  t("decoding.whatif.after", t=after_at + 1), x_title=t("decoding.topk.x"))
        show_figure(fig, f"whatif_after_{after_at + 1}", key=f"{keys}_whatif_after")
    changed_steps = forced["steps"][changed:]
    rows = np.stack([s["cross_last"] for s in changed_steps])                # (steps, S)
    labels = theme.token_labels(tok.pieces([s["token"] for s in changed_steps]))
    src_pieces = tok.pieces(forced["src_ids"])
    fig = figures.attention_heatmap(rows, labels, src_pieces, title=t("decoding.whatif.cross"),
                                    x_title=t("decoding.cross.x"), colorbar_title=t("translate.weight"))
    show_figure(fig, "whatif_cross", matrix_frame(rows, labels, src_pieces), key=f"{keys}_whatif_cross")
