"""One visual language for every figure of the app, defined once.

- SEQUENTIAL (white -> blue, ColorBrewer Blues): attention weights, probabilities, anything in [0, max].
- DIVERGING (blue < 0, white = 0, red > 0; ColorBrewer RdBu): signed values (scores, Q/K/V, PE, hidden
  states), always centred at 0.  Both scales are safe for colour-blind readers (ColorBrewer): their
  lightness runs one way (each half of DIVERGING), in grey too (tests/test_colour_vision.py).
- PALETTE: lines and bars, Okabe and Ito's colours, apart under the common colour-vision deficiencies.
- MASK: grey = masked, blue = may attend.
- UNCERTAIN: a translated token the model chose with a probability under confidence.THRESHOLD, written in
  this colour of Streamlit's markdown, on its background and in italics (not by colour alone).
- Special tokens have one display name everywhere: <s>, </s>, <pad>, <unk> (SentencePiece's names;
  the lectures' BOS / EOS), and a word-start piece's "▁" is drawn as the mark WORD_MARK.
- Font sizes: the default, and PRESENT for projector mode (?present=1).
"""
from __future__ import annotations

from plotly.colors import sequential

from .relayout import relayout

SEQUENTIAL = [[0.0, "#f7fbff"], [0.125, "#deebf7"], [0.25, "#c6dbef"], [0.375, "#9ecae1"], [0.5, "#6baed6"],
              [0.625, "#4292c6"], [0.75, "#2171b5"], [0.875, "#08519c"], [1.0, "#08306b"]]
# plotly's RdBu runs red (low) -> blue (high); reversed, red is positive.  Its stops, not its name: plotly.js knows
# no "RdBu_r", and a figure made without plotly's checks (relayout.figure) keeps a name as it is
DIVERGING = [[i / (len(sequential.RdBu_r) - 1), color] for i, color in enumerate(sequential.RdBu_r)]
MASK_COLORS = ((0.0, "#d1d5db"), (1.0, "#2563eb"))
GUIDE = "#6b7280"           # reference lines (warm-up, n = d, the best value) and their labels
CHOSEN = "#d97706"          # the line at the value the user chose, beside GUIDE's reference
UNCERTAIN = "orange"        # a colour of Streamlit's markdown (:orange[…], :orange-background[…])
# One token's lines (live_chart's focus): what is not that token's is drawn at this opacity.
FOCUS_DIM = 0.25
# Lines and bars, in this order: Okabe and Ito's colours (without the yellow, too light on white), apart
# under protanopia, deuteranopia and tritanopia (tests/test_colour_vision.py, docs/accessibility.md).
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")

SPECIAL_NAMES = {"<bos>": "<s>", "<eos>": "</s>", "<s>": "<s>", "</s>": "</s>", "<pad>": "<pad>", "<unk>": "<unk>"}
WORD_START = "▁"
WORD_MARK = "·"

FONT_SIZE = 15
TICK_SIZE = 12
PRESENT = {"font": 18, "tick": 18, "title": 22}
# Projector mode's page: every text at PRESENT["font"] px or more, the page as wide as the screen, a
# formula too wide for it scrolls instead of being cut off, and less room above the title.
PRESENT_CSS = f"""<style>
[data-testid="stMain"] :is(p, li, label, td, th, input, textarea, [data-testid="stCaptionContainer"],
  [data-testid="stWidgetLabel"] *,
  [data-testid="stMarkdownContainer"] :is(p, li, span, code, strong, em):not(:is(h1, h2, h3, h4) *),
  button :is(p, span), [data-baseweb="tab"] p, summary :is(p, span), [data-testid="stMetricLabel"] *)
  {{ font-size: {PRESENT["font"]}px !important; }}
[data-testid="stMain"] .katex {{ font-size: 1.15em !important; }}
[data-testid="stMain"] .katex * {{ font-size: revert-layer; }}
[data-testid="stMain"] .katex-display {{ overflow-x: auto; overflow-y: hidden; max-width: 100%; }}
[data-testid="stMainBlockContainer"] {{ padding: 3.5rem 1.5rem 4rem; max-width: 100%; }}
[data-testid="stMain"] h1 {{ font-size: 2rem !important; padding: 0 0 0.5rem; }}
</style>"""


def uploader_css(browse: str, drop: str) -> str:
    """Streamlit's file uploader writes its button ("Upload"), its limits ("50MB per file • ZIP, JSON, ...") and,
    while a file is dragged over it, "Drag and drop files here" in English only: they are drawn again in the
    interface's language (the page's caption gives the limits)."""
    def css_text(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", " ") + '"'
    return f"""<style>
[data-testid="stFileUploaderDropzone"] button > * {{ display: none; }}
[data-testid="stFileUploaderDropzone"] button::after {{ content: {css_text(browse)}; }}
[data-testid="stFileUploaderDropzoneInstructions"] > * {{ display: none; }}
[data-testid="stFileUploaderDropzoneInstructions"]::after {{ content: {css_text(drop)}; font-size: 0.875rem; }}
[data-testid="stFileUploaderDropzone"] > div:not([data-testid]):not(:has(button)) > * {{ display: none; }}
[data-testid="stFileUploaderDropzone"] > div:not([data-testid]):not(:has(button))::after {{ content: {css_text(drop)}; }}
</style>"""


def token_label(piece: str) -> str:
    """How a token is written on an axis: one name per special token, '▁' shown as the word-start mark."""
    if piece in SPECIAL_NAMES:
        return SPECIAL_NAMES[piece]
    if piece.startswith(WORD_START):
        return WORD_MARK + piece[len(WORD_START):]
    return piece


def token_labels(pieces) -> list[str]:
    """token_label of each piece."""
    return [token_label(p) for p in pieces]


def short_label(label: str, limit: int = 8) -> str:
    """A long token label shortened (never dropped), so every tick keeps its label on a long sentence."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


def projector(fig):
    """The same figure for a projector, as a new figure: PRESENT type sizes on the layout, every axis (ticks and
    titles; a log axis labelled at its decades only), the title and the annotations (panel titles), the text in
    cells and beside points, and 25 % more height."""
    layout = fig.layout
    props = {"font": {"size": max(layout.font.size or FONT_SIZE, PRESENT["font"])},
             "legend": {"font": {"size": max(layout.legend.font.size or 0, PRESENT["font"])}},
             "margin": {"t": (layout.margin.t if layout.margin.t is not None else 40) + 30}}    # larger titles
    if layout.title and layout.title.text:
        props["title"] = {"font": {"size": PRESENT["title"]}}
    if layout.height:
        props["height"] = int(layout.height * 1.25) + 30
    if layout.annotations:                                            # panel titles
        props["annotations"] = [{**a.to_plotly_json(), "font": {**a.font.to_plotly_json(),
                                                                 "size": max(a.font.size or 0, PRESENT["font"])}}
                                for a in layout.annotations]
    upright = any(trace.type == "heatmap" for trace in fig.data)     # token labels upright: one per column

    def axis_props(axis: dict, x: bool) -> dict:
        changes = {"tickfont": {"size": PRESENT["tick"]}, "title": {"font": {"size": PRESENT["font"]}}}
        if x and upright:
            changes["tickangle"] = -90
        if axis.get("type") == "log":                                 # 2 and 5 at ¾ size: decades only
            changes["dtick"] = 1
        return changes

    def trace_props(trace: dict) -> dict:                             # text in the cells and beside points
        if trace.get("texttemplate") or (trace.get("type") == "scatter" and "text" in (trace.get("mode") or "")):
            return {"textfont": {"size": max(trace.get("textfont", {}).get("size") or 0, PRESENT["font"])}}
        return {}

    return relayout(fig, props, lambda axis: axis_props(axis, True), lambda axis: axis_props(axis, False), trace_props)
