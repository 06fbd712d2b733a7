"""Translate & attention (home): type a sentence, see the translation and where every head of every
layer looks (encoder self-attention, masked decoder self-attention, encoder-decoder attention), the
source-target alignment, and what happens when heads are switched off.

The attention comes from ONE traced teacher-forced forward pass on [BOS] + the output, cached per
(model, sentence, beam, heads off).  Only the open attention type is drawn, as one layer × head grid.
"""
from __future__ import annotations

from itertools import groupby

import numpy as np
import pandas as pd
import streamlit as st

from pages.ui import figures, model_state, theme
from pages.ui.export import matrix_frame
from pages.ui.i18n import current_lang, language_name, strings, t
from pages.ui.sentence import kind_label, layer_head_label, run_cached, sentence_run, session_run
from pages.ui.whatif import whatif_view
from pages.ui.widgets import download_buttons, escape_md, latex, model_fragment, page_header, presenting, show_figure
from transformer_core.checkpoints import seen
from transformer_core.explainer import alignment, attribution, confidence, explain, input_check
from transformer_core.explainer.examples import LECTURE
from transformer_core.model.config import base_language
from transformer_core.model.quantize import scheme_of
from transformer_core.serving import cost

KINDS = explain.ATTENTION_KINDS
UNK = "<unk>"                          # theme.SPECIAL_NAMES' name of SentencePiece's unknown piece (decoded as ⁇)
LEVELS = ("token", "word")
AVERAGE = -1


def sides(res: dict, kind: str) -> tuple[list[str], list[str]]:
    """Query and key pieces of one attention type.  A decoder row is named by the token it predicts (its
    input is the token before: the output shifted right), so that row ·사과를 is the one choosing 사과를."""
    return {"enc_self": (res["src_pieces"], res["src_pieces"]),
            "dec_self": (res["pred_pieces"], res["tgt_pieces"]),
            "cross": (res["pred_pieces"], res["src_pieces"])}[kind]


def weights_at(res: dict, kind: str, level: str) -> tuple[np.ndarray, list[str], list[str]]:
    """(L, h, Tq, Tk) weights with their query and key labels, merged to words at level "word"."""
    q, k = sides(res, kind)
    w = res["attn"][kind]
    if level == "word":
        return explain.to_words(w, q, k)
    return w, list(q), list(k)


def grid_frames(w: np.ndarray, q: list[str], k: list[str]) -> dict[str, pd.DataFrame]:
    return {layer_head_label(layer, h): matrix_frame(w[layer, h], q, k)
            for layer in range(w.shape[0]) for h in range(w.shape[1])}


# ---------------------------------------------------------------- attention heatmaps

def start_of(res: dict) -> str:
    """The decoder's first token (the model's start token: <s>, or Marian's <pad>) as the figures write it."""
    return theme.token_label(res["tgt_pieces"][0])


def lesson(res: dict) -> None:
    c1, c2 = st.columns([3, 2], vertical_alignment="center")
    with c1:
        st.markdown(t("translate.lesson", start=start_of(res)))
    with c2:
        latex(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^T}{\sqrt{d_k}}\right)V")
    with st.expander(t("translate.lesson.masks_title"), icon=":material/grid_on:"):
        st.markdown(t("translate.lesson.masks"))
        latex(r"\underbrace{(B, 1, 1, S)}_{\texttt{src\_mask}} \qquad \underbrace{(B, 1, T, T)}_{\texttt{trg\_mask}}")


@model_fragment
def attention_view(res: dict, langs: tuple[str, str], n_layers: int, n_heads: int) -> None:
    """The attention types and the alignment as tabs; only the open tab is computed and drawn."""
    gold_rerun()
    present = presenting()                 # on a projector the figures come first, the lesson and units after
    if not present:
        st.subheader(t("translate.attn.title"))
        lesson(res)
    level = st.session_state.get("tr_level") or "token" if present else units_control()
    tabs = st.tabs([kind_label(k) for k in KINDS] + [t("translate.align.tab"), t("translate.attr.tab"),
                                                     t("translate.whatif.tab")], key="tr_kind", on_change="rerun")
    for view, tab in zip((*KINDS, "align", "attr", "whatif"), tabs, strict=False):
        if tab.open is False:
            continue
        with tab:
            if view == "align":
                alignment_view(res, langs, n_layers, n_heads)
            elif view == "attr":
                attribution_view(res)
            elif view == "whatif":
                whatif_tab(res)
            else:
                kind_view(res, view, level or "token", langs)
    if present:
        units_control()
        lesson(res)


def units_control() -> str | None:
    """Tokens (subwords) or words: the unit of the attention views."""
    return st.segmented_control(t("translate.level"), LEVELS, key="tr_level", required=True, default="token",
                                format_func={v: t(f"translate.level.{v}") for v in LEVELS}.get,
                                help=t("translate.level_help"))


GRID_COLUMNS = 32     # token columns in a row of heads: upright key labels stay apart in a 1024 px window
                      # (a sentence longer than figures.GRID_TICK_LIMIT: all heads to a row, no labels)


def head_rows(w: np.ndarray, layers, per_row: int, focus: tuple[int, int], shown_heads=None):
    """The heads (shown_heads: all) of the given layers, per_row to a row: panels (rows, per_row, Tq, Tk) padded
    with NaN, their titles, where the focused (layer, head) sits (or None when its layer is not shown), and each
    panel's layer (-1 for padding: one token's cells span the heads of a layer)."""
    heads = [(layer, h) for layer in layers for h in (shown_heads or range(w.shape[1]))]
    rows = -(-len(heads) // per_row)
    panels = np.full((rows * per_row, *w.shape[2:]), np.nan)                      # (rows·per_row, Tq, Tk)
    panels[:len(heads)] = [w[layer, h] for layer, h in heads]
    titles = [[layer_head_label(*heads[i]) if i < len(heads) else "" for i in range(r * per_row, (r + 1) * per_row)]
              for r in range(rows)]
    selected = divmod(heads.index(focus), per_row) if focus in heads else None
    groups = [[heads[i][0] if i < len(heads) else -1 for i in range(r * per_row, (r + 1) * per_row)]
              for r in range(rows)]
    return panels.reshape(rows, per_row, *w.shape[2:]), titles, selected, groups


def grid_title(kind: str, layers: list[int], per_row: int, n_heads: int) -> str:
    """The grid's title as it is drawn: one layer's heads, one layer a row, or the heads wrapped per_row to a row."""
    if len(layers) == 1:
        return t("translate.grid.title.layer", kind=kind_label(kind), layer=layers[0] + 1)
    if per_row == n_heads:                                           # each row one layer, each column one head
        return t("translate.grid.title", kind=kind_label(kind))
    return t("translate.grid.title.wrapped", kind=kind_label(kind), n=per_row)


def kind_view(res: dict, kind: str, level: str, langs: tuple[str, str]) -> None:
    w, q, k = weights_at(res, kind, level)
    L, H = w.shape[:2]
    caption = t(f"translate.kind.{kind}.explain", S=len(res["src_pieces"]), T=len(res["tgt_pieces"]),
                L=L, h=H, start=start_of(res))
    if not presenting():                    # on a projector: under the figures
        st.caption(caption)
    with st.container(horizontal=True, gap="medium"):
        layer = st.segmented_control(t("attn.layer"), range(L), key=f"tr_layer_{kind}", default=0, required=True,
                                     format_func=lambda v: str(v + 1))
        head = st.segmented_control(t("attn.head"), range(H), key=f"tr_head_{kind}", default=0, required=True,
                                    format_func=lambda v: str(v + 1))
    layer, head = layer or 0, head or 0
    x_title, y_title = t(f"translate.axis.key.{kind}"), t(f"translate.axis.query.{kind}")
    # the decoder's future: masked, drawn as the Masks page draws it
    future = np.triu(np.ones((len(q), len(k)), dtype=bool), 1) if kind == "dec_self" and level == "token" else None
    g, f = st.container(), st.container()
    with g:
        if presenting():    # one layer, large: its heads one or two to a row, every label (shortened)
            layers, per_row, kw = [layer], 2 if len(k) <= 10 else 1, {"tick_limit": 10 ** 6, "cell_px": 26}
            q_text, k_text = [theme.short_label(x) for x in q], [theme.short_label(x) for x in k]
        else:               # every layer × head, as many heads to a row as leave room for upright key labels
            layers, heads = figures.grid_window(L, H, len(q) * len(k), (layer, head))
            if (len(layers), len(heads)) != (L, H):       # more cells than a browser draws well
                st.caption(t("translate.grid.partial", cells=f"{L * H * len(q) * len(k):,}",
                             layers=f"{layers[0] + 1}–{layers[-1] + 1}", heads=f"{heads[0] + 1}–{heads[-1] + 1}"))
            fits = len(heads) if len(k) > figures.GRID_TICK_LIMIT else max(1, min(len(heads), GRID_COLUMNS // (len(k) + 1)))
            per_row, kw, q_text, k_text = fits, {}, q, k
            layers, heads = list(layers), list(heads)
        panels, titles, selected, groups = head_rows(w, layers, per_row, (layer, head),
                                                     None if presenting() else heads)
        if future is not None:
            kw |= {"masked": future, "masked_name": t("translate.masked")}
        fig = figures.attention_grid(panels, q_text, k_text, panel_titles=titles, selected=selected, groups=groups,
                                     x_title=x_title, y_title=y_title, colorbar_title=t("translate.weight"),
                                     title="" if presenting() else grid_title(kind, layers, per_row, len(heads)),
                                     **kw)
        show_figure(fig, f"{kind}_grid", key=f"tr_grid_{kind}")
        download_buttons(lambda: grid_frames(w, q, k), f"{kind}_all_heads", key=f"tr_grid_dl_{kind}")
    with f:
        fig = figures.attention_heatmap(w[layer, head], q, k, x_title=x_title, y_title=y_title,
                                        colorbar_title=t("translate.weight"), masked=future,
                                        masked_name=t("translate.masked"),
                                        title=t("translate.focus.title", kind=kind_label(kind),
                                                head=layer_head_label(layer, head)))
        show_figure(fig, f"{kind}_{layer + 1}_{head + 1}", key=f"tr_focus_{kind}")
        one = w[layer, head]
        download_buttons(lambda: matrix_frame(one, q, k), f"{kind}_L{layer + 1}_H{head + 1}", key=f"tr_focus_dl_{kind}")
    if presenting():
        st.caption(caption)
    if kind == "dec_self":
        st.caption(t("attn.rows_named"))
    if kind == "cross":
        st.caption(t("translate.kind.cross.rows", start=start_of(res), first=theme.token_label(res["pred_pieces"][0])))
        word_order_note(langs)


ORDER_NOTES = {("en", "ko"): "translate.sov_note", ("ko", "en"): "translate.sov_note.from_ko"}  # SVO <-> SOV


def word_order_note(langs: tuple[str, str]) -> None:
    """Where the word order flips (English subject-verb-object, Korean subject-object-verb), say what to watch."""
    key = ORDER_NOTES.get(tuple(base_language(lang) for lang in langs))
    if key is not None:
        st.info(t(key), icon=":material/swap_horiz:")


# ---------------------------------------------------------------- alignment

GOLD_OFFERS = 3
GOLD_RERUN = "tr_gold_rerun"


def gold_links(ckpt, res: dict) -> set[tuple[int, int]]:
    """The gold alignment of a generated sentence the checkpoint ships (gold_alignments.tsv), when the
    model's translation is its reference; with the heads that align it best.  Else an offer of such sentences."""
    entry = ckpt.gold.get(res["text_src"]) if ckpt.gold else None
    if not ckpt.gold:
        return set()
    if entry is None:
        with st.container(horizontal=True, gap="small", vertical_alignment="center"):
            st.caption(t("translate.gold.try"), width="content")
            for i, src in enumerate(gold_offers(ckpt.gold)):
                st.button(escape_md(src), key=f"tr_gold_{i}", type="tertiary", on_click=_use_gold, args=(src,))
        return set()
    tgt, links = entry
    if res["text"].strip() != tgt:
        st.info(t("translate.gold.differs", ref=escape_md(tgt)), icon=":material/rule:")
        return set()
    gold = alignment.parse(links)
    try:
        scores = gold_scores(ckpt, res["text_src"], tgt, links)
    except ValueError:                                  # longer than the model's max_len: nothing to score
        return set()
    best = ckpt.training.get("alignment", {}).get("best")
    overall = t("translate.gold.overall", layer=best[0] + 1, head=best[1] + 1) if best else ""
    st.success(t("translate.gold.shown", layer=scores["best"][0] + 1, head=scores["best"][1] + 1,
                 aer=f"{min(min(r) for r in scores['heads']):.2f}", mean=f"{scores['mean']:.2f}") + " " + overall,
               icon=":material/check:")
    return {(s, t_) for s, t_ in gold}


def gold_offers(gold: dict) -> list[str]:
    """The sentences with a gold alignment a class would try first: the lecture's, then the shortest plain
    ones (no names: no capital after the first word)."""
    def plain(src: str) -> bool:
        return not any(word[:1].isupper() for word in src.split()[1:])
    ranked = sorted(gold, key=lambda src: (src not in LECTURE.values(), not plain(src), len(src.split())))
    return ranked[:GOLD_OFFERS]


def _use_gold(src: str) -> None:
    """Load the sentence: the box is outside this fragment, so the whole page runs again (gold_rerun)."""
    st.session_state["tr_text"] = src
    st.session_state[GOLD_RERUN] = True


def gold_rerun() -> None:
    """After a gold sentence was chosen inside the fragment: rerun the whole page, so the sentence box,
    the translation and every figure follow it."""
    if st.session_state.pop(GOLD_RERUN, False):
        st.rerun(scope="app")


@st.cache_data(max_entries=64, show_spinner=False)
def _gold_scores(name: str, src: str, tgt: str, links: str) -> dict:
    return alignment.score_heads(model_state.load_bundled(name).model, model_state.load_bundled(name).tokenizer,
                                 [(src, tgt, alignment.parse(links))])


def gold_scores(ckpt, src: str, tgt: str, links: str) -> dict:
    key = model_state.active_key()
    if key.startswith(model_state.BUNDLED):
        return _gold_scores(key.removeprefix(model_state.BUNDLED), src, tgt, links)
    return alignment.score_heads(ckpt.model, ckpt.tokenizer, [(src, tgt, alignment.parse(links))])


def alignment_view(res: dict, langs: tuple[str, str], n_layers: int, n_heads: int) -> None:
    st.markdown(t("translate.align.explain"))
    ckpt = model_state.active(quiet=True)
    word_order_note(langs)
    c1, c2, c3 = st.columns(3)
    layer = c1.selectbox(t("attn.layer"), range(n_layers), index=n_layers - 1, key="tr_align_layer",
                         format_func=lambda v: str(v + 1))
    head = c2.selectbox(t("attn.head"), [AVERAGE, *range(n_heads)], key="tr_align_head",
                        format_func={AVERAGE: t("translate.align.average"), **{h: str(h + 1) for h in range(n_heads)}}.get)
    threshold = c3.slider(t("translate.align.threshold"), 0.0, 0.5, 0.05, 0.01, key="tr_align_threshold",
                          help=t("translate.align.threshold_help"))
    cross = res["attn"]["cross"][layer]                                   # (h, T, S)
    w = cross.mean(0) if head == AVERAGE else cross[head]
    w, tgt_words, src_words = explain.to_words(w, res["pred_pieces"], res["src_pieces"])
    gold = gold_links(ckpt, res) if ckpt is not None else set()
    shift = 1 if src_words and src_words[0] == "<s>" else 0          # the figure's words start with <s>
    gold = {(j + shift, i) for j, i in gold}
    fig = figures.alignment_figure(w, src_words, tgt_words, threshold=threshold,
                                   src_title=t("translate.align.source"), tgt_title=t("translate.align.target"),
                                   gold=sorted(gold), gold_name=t("translate.gold.name"))
    show_figure(fig, "alignment", key="tr_align_fig")
    download_buttons(lambda: matrix_frame(w, tgt_words, src_words), "alignment", key="tr_align_dl")
    st.caption(t("translate.align.caption"))


# ---------------------------------------------------------------- gradients beside attention

def attribution_view(res: dict) -> None:
    """Attribution beside attention: how much each source token moves each predicted token's
    log-probability (gradients), drawn on the cross-attention's axes, and how far each head agrees."""
    st.markdown(t("translate.attr.explain"))
    ckpt = model_state.active(quiet=True)
    if ckpt is None:
        return
    method = st.segmented_control(t("translate.attr.method"), attribution.METHODS, key="tr_attr_method",
                                  default="integrated_gradients", required=True,
                                  format_func=lambda m: t(f"translate.attr.{m}")) or "integrated_gradients"
    plan = cost.attribution_plan(ckpt.config, len(res["src_ids"]), len(res["out_ids"]), method, attribution.STEPS,
                                 scheme_of(ckpt.model) is not None)
    if plan is None:
        st.warning(t("translate.attr.too_large"), icon=":material/block:")
        return
    if plan[0] != method or (method == "integrated_gradients" and plan[1] != attribution.STEPS):
        st.info(t("translate.attr.cheaper", method=t(f"translate.attr.{method}"), n=len(res["src_ids"]),
                  instead=t(f"translate.attr.{plan[0]}"), steps=plan[1]), icon=":material/timer:")
    method = plan[0]
    run = session_run("attribution", model_state.active_key(), ckpt, tuple(res["src_ids"]),
                      tuple(res["out_ids"]), *plan)
    scores = run["scores"]                                                      # (T, S)
    fig = figures.attention_heatmap(run["shares"], res["pred_pieces"], res["src_pieces"],
                                    title=t("translate.attr.fig", method=t(f"translate.attr.{method}")),
                                    x_title=t("translate.axis.key.cross"), y_title=t("translate.axis.query.cross"),
                                    colorbar_title=t("translate.attr.share"))
    show_figure(fig, f"attribution_{method}", matrix_frame(scores, res["pred_pieces"], res["src_pieces"]),
                key="tr_attr_fig")
    agree = attribution.agreement(scores, res["attn"]["cross"])
    heads = np.array(agree["heads"])                                            # (L, h)
    best = np.unravel_index(int(heads.argmax()), heads.shape)
    table = pd.DataFrame(heads.round(2), index=[layer_head_label(layer) for layer in range(heads.shape[0])],
                         columns=[str(h + 1) for h in range(heads.shape[1])])
    st.markdown(t("translate.attr.agree", mean=f"{agree['mean_of_heads']:.2f}", table_mean=f"{heads.mean():.2f}",
                  layer=best[0] + 1,
                  head=best[1] + 1, best=f"{heads.max():.2f}"))
    st.dataframe(table, width="content", key="tr_attr_agree")
    if "incomplete" in run:
        st.caption(t("translate.attr.complete", median=f"{100 * np.median(run['incomplete']):.1f}",
                     worst=f"{100 * np.max(run['incomplete']):.0f}", steps=attribution.STEPS))
    attribution_aer(ckpt, res, run["shares"])
    st.caption(t("translate.attr.lesson"))


def attribution_aer(ckpt, res: dict, shares: np.ndarray) -> None:
    """Where the sentence has a gold alignment and the translation is its reference: the AER of the
    gradients' word alignment next to the heads' (alignment.aer, alignment.score_heads)."""
    if not ckpt.gold:
        return
    entry = ckpt.gold.get(res["text_src"])
    if entry is None or res["text"].strip() != entry[0]:
        st.caption(t("translate.attr.aer_none", examples=" · ".join(escape_md(s) for s in gold_offers(ckpt.gold))))
        return
    tgt, links = entry
    words = alignment.to_words(shares, ckpt.tokenizer, res["text_src"], tgt)
    if words is None or len(res["out_ids"]) != len(ckpt.tokenizer.encode(tgt)):
        return
    try:
        heads = gold_scores(ckpt, res["text_src"], tgt, links)
    except ValueError:                                  # longer than the model's max_len: nothing to score
        return
    st.markdown(t("translate.attr.aer", attr=f"{alignment.aer(words, alignment.parse(links)):.2f}",
                  layer=heads["best"][0] + 1, head=heads["best"][1] + 1,
                  best=f"{min(min(r) for r in heads['heads']):.2f}", mean=f"{heads['mean']:.2f}",
                  table_mean=f"{np.mean(heads['heads']):.2f}"))


# ---------------------------------------------------------------- what if

def whatif_tab(res: dict) -> None:
    """The decoding page's what-if view on the home page's sentence (greedy, as the decoding page forces)."""
    ckpt = model_state.active(quiet=True)
    if ckpt is not None:
        whatif_view(ckpt, res["text_src"], "tr")


# ---------------------------------------------------------------- switching heads off

def _all_cross_off(options: list) -> None:
    st.session_state["tr_heads_off"] = [o for o in options if o[0] == "cross"]


def _clear_off() -> None:
    st.session_state["tr_heads_off"] = []


def head_option_label(option: tuple[str, int, int]) -> str:
    kind, layer, head = option
    return t("translate.off.option", kind=t(f"attn.kind_short.{kind}"), head=layer_head_label(layer, head))


@model_fragment
def heads_off_view(model_key: str, ckpt, text: str, beam: int, original: dict) -> None:
    st.subheader(t("translate.off.title"))
    st.markdown(t("translate.off.explain"))
    options = explain.all_heads(ckpt.model)
    labels = {o: head_option_label(o) for o in options}      # formatted now, in this run's language
    chosen = st.multiselect(t("translate.off.select"), options, key="tr_heads_off", format_func=labels.get,
                            placeholder=t("translate.off.placeholder"), select_all=False)   # Streamlit's English
    with st.container(horizontal=True, gap="small"):
        st.button(t("translate.off.all_cross"), key="tr_off_all_cross", on_click=_all_cross_off, args=(options,),
                  icon=":material/link_off:")
        st.button(t("translate.off.clear"), key="tr_off_clear", on_click=_clear_off, icon=":material/restart_alt:",
                  disabled=not chosen)
    if not chosen:
        st.caption(t("translate.off.none"))
        return
    compare_heads_off(original, run_cached("translation", model_key, ckpt, text, beam, tuple(chosen)), len(chosen))


def compare_heads_off(original: dict, off: dict, n_off: int) -> None:
    c1, c2 = st.columns(2)
    with c1, st.container(border=True):
        st.caption(t("translate.off.original"))
        st.markdown(escape_md(original["text"]) or t("translate.empty_output"))
    with c2, st.container(border=True):
        st.caption(t("translate.off.changed", n=n_off))
        st.markdown(escape_md(off["text"]) or t("translate.empty_output"))
    if off["out_ids"] == original["out_ids"]:
        st.info(t("translate.off.same"), icon=":material/drag_handle:")
    else:
        st.success(t("translate.off.differs"), icon=":material/compare_arrows:")


# ---------------------------------------------------------------- the page

def seen_note(ckpt, text: str) -> None:
    """The source words the model saw rarely or never in training, with how often: a translation that rests
    on them may be a guess (checkpoint's source_words.json.gz, seen.py)."""
    rare = seen.unfamiliar(ckpt.words, text) if ckpt.words else []
    if rare:
        listed = ", ".join(f"{escape_md(w)} ({n:,})" for w, n in rare)
        never = [w for w, n in rare if n == 0]
        st.warning(t("translate.seen.never" if never else "translate.seen.rare", words=listed), icon=":material/visibility_off:")


def marked(res: dict, flagged: list[int]) -> str:
    """The translation as markdown, each run of tokens in flagged written in theme.UNCERTAIN, on its
    background and in italics (one mark for a run: two would look like two words); an unknown piece by its
    name, not a glyph."""
    texts = [text.replace("⁇", UNK) for text in res["token_texts"]]
    out = []
    for mark, run in groupby(range(len(texts)), key=lambda i: i in flagged):
        text = "".join(texts[i] for i in run)
        body = escape_md(text)
        if mark and body:
            body = f":{theme.UNCERTAIN}-background[:{theme.UNCERTAIN}[*{body}*]]"
        out.append(" " * text[:1].isspace() + body)              # a word-start token brings its space
    return "".join(out).strip()


def uncertainty_note(res: dict, flagged: list[int]) -> None:
    """The tokens the model was least sure of, with their probabilities, and what the mark means."""
    if not flagged:
        st.caption(t("translate.uncertain.none", threshold=confidence.THRESHOLD))
        return
    listed = ", ".join(f"{escape_md(theme.token_label(res['pred_pieces'][i]))} ({res['probs'][i]:.2f})"
                       for i in flagged)
    st.info(t("translate.uncertain", tokens=listed, threshold=confidence.THRESHOLD), icon=":material/help:")


def numbers_note(text: str, translation: str) -> None:
    """Where the translation's numbers in digits are not the sentence's: which are missing and which are new."""
    missing, extra = confidence.numbers_changed(text, translation)
    if missing or extra:
        parts = ([t("translate.numbers.missing", numbers=", ".join(missing))] if missing else []) + \
                ([t("translate.numbers.extra", numbers=", ".join(extra))] if extra else [])
        st.warning(t("translate.numbers", changes=" ".join(parts)), icon=":material/pin:")


def domain_note(ckpt) -> None:
    """What the model was trained on, for the bundled data sources (translate.domain.<source name>)."""
    source = ckpt.training.get("data", {}).get("manifest", {}).get("source", {})
    key = f"translate.domain.{source.get('name', '')}"
    if f"{key}.{base_language(ckpt.config.tgt_lang)}" in strings(current_lang()):   # a note on the target's style
        key = f"{key}.{base_language(ckpt.config.tgt_lang)}"
    if key in strings(current_lang()):
        mixed = [m.get("source", {}).get("name", "") for m in source.get("mixed_with", [])]
        mix = ", ".join(t(f"translate.mix.{name}") for name in mixed if f"translate.mix.{name}" in strings(current_lang()))
        st.info(t(key, mix=mix), icon=":material/menu_book:")


def notes(ckpt, text: str, res: dict, flagged: list[int] | None) -> None:
    """What to check in the translation: words the model rarely saw, numbers that changed, its least certain
    tokens (flagged None: no translation worth marking)."""
    seen_note(ckpt, text)
    if flagged is not None:
        numbers_note(text, res["text"])
        uncertainty_note(res, flagged)


def main() -> None:
    page_header("translate")
    ckpt = model_state.active()
    if ckpt is None:
        return
    if not presenting():                   # on a projector: after the figures
        domain_note(ckpt)
    got = sentence_run("tr", ckpt)
    if got is None:
        return
    text, beam, res = got
    present = presenting()                 # on a projector: the label beside the translation, the notes after the figures
    with st.container(key="translation", border=True, horizontal=present, vertical_alignment="center"):
        st.caption(t("translate.output", tgt=escape_md(language_name(ckpt.config.tgt_lang)),
                     mode=t("sentence.mode.beam") if beam > 1 else t("sentence.mode.greedy")),
                   width="content" if present else "stretch")
        readable = input_check.check(ckpt.tokenizer, ckpt.config.src_lang, text).readable
        flagged = confidence.uncertain(res["probs"]) if readable else []
        shown = marked(res, flagged)
        if not readable:
            st.caption(t("translate.not_meaningful"))
            st.markdown(f"~~{shown}~~" if shown else t("translate.empty_output"))
        elif shown:
            st.markdown("### " + shown)
        else:
            st.markdown(t("translate.empty_output"))
    if not present:
        notes(ckpt, text, res, flagged if readable and shown else None)
    attention_view(res, (ckpt.config.src_lang, ckpt.config.tgt_lang), ckpt.config.n_decoder_layers, ckpt.config.n_heads)
    if present:
        notes(ckpt, text, res, flagged if readable and shown else None)
        domain_note(ckpt)
    st.divider()
    heads_off_view(model_state.active_key(), ckpt, text, beam, res)


main()
