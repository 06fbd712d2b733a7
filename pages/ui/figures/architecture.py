"""The paper's Figure 1 as an SVG drawn from the model's own layers, and the Architecture page's charts.

architecture_svg draws the encoder on the left and the decoder on the right, bottom to top as the paper
does: the inputs, the embedding and ⊕ PE, each layer's sublayers with their Add & Norm and residual lines,
the encoder's output entering every encoder-decoder attention, and Linear, Softmax on top.  Every arrow
carries the shape of what flows along it (the lectures' symbols, the real sizes under them); every block is
an <a href="?block=ID" data-block="ID"> that the page's component turns into a click event.  Every text in
it is escaped here (token texts come from the user and the model's vocabulary), and the caller gives every
label (i18n).  Layers not in `expanded` are drawn collapsed, one box each.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ..relayout import figure
from ..theme import FONT_SIZE, GUIDE, PALETTE
from .base import _axis_suffix, _rounded, escape, side_by_side, tick_labels

# the paper's colours, one per kind of block
FILL = {"embed": "#fcd9d6", "self_attn": "#fcdcb4", "masked_attn": "#fcdcb4", "cross_attn": "#fcdcb4",
        "add_norm": "#f3f0a6", "ffn": "#c6e4f4", "linear": "#dcdcf4", "softmax": "#c8ead0", "layer": "#fcdcb4"}
INK = "#111827"                 # text on a block (the blocks are pale in both themes)
SELECTED = "#dc2626"
BOLD = ' font-weight="700"'
LINE = GUIDE

# geometry, in SVG units: outer label columns, the two stacks' boxes, the gap between them
LABEL_W, BOX_W, GAP_W, PAD = 104, 150, 80, 6
BOX_H, NORM_H, ARROW_H, EMBED_H = 32, 22, 26, 26
FRAME_TOP = 18
BASE, SMALL = 14.0, 12.5        # font sizes: block names; arrow labels


def _x(text: str) -> str:
    return html.escape(str(text), quote=True)


NARROW, MEDIUM = set("il.,:;|'!()[]"), set("tfrjI ")


def text_width(text: str, size: float) -> float:
    """A text's approximate width, on the wide side (DejaVu Sans; the page's Source Sans is narrower): wide
    (CJK) characters 1 em, capitals and m, w 0.72, narrow ones 0.3, t f r j 0.4, others 0.6, times 1.1."""
    em = 0.0
    for ch in str(text):
        em += 1.0 if ord(ch) >= 0x2E80 else 0.3 if ch in NARROW else 0.4 if ch in MEDIUM else \
            0.72 if ch.isupper() or ch in "mw" else 0.6
    return 1.1 * em * size


def fit_size(text: str, width: float, size: float, smallest: float = 8.0) -> float:
    """The font size (at most `size`) at which text fits in width."""
    w = text_width(text, size)
    return size if w <= width else max(smallest, size * width / w)


def cut(text: str, width: float, size: float) -> str:
    """text shortened with … to fit width at size."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


SUBSCRIPTED = {"d_model": ("d", "model"), "d_k": ("d", "k"), "d_v": ("d", "v"), "d_ff": ("d", "ff")}


def symbols_tspans(symbols: Sequence[str]) -> str:
    """(B, S, d_model) as SVG tspans, the d's subscripts lowered."""
    parts = []
    for i, s in enumerate(symbols):
        sep = "," if i else ""
        if s in SUBSCRIPTED:
            base, sub = SUBSCRIPTED[s]
            parts.append(f'{sep}{base}<tspan dy="3" font-size="80%">{_x(sub)}</tspan><tspan dy="-3"></tspan>')
        else:
            parts.append(sep + _x(s))
    return "(" + "".join(parts) + ")"


def symbols_text(symbols: Sequence[str]) -> str:
    return "(" + ",".join(symbols) + ")"


def shape_text(shape: Sequence[int], sep: str = ",") -> str:
    return "(" + sep.join(str(int(d)) for d in shape) + ")"


def _arrow(x: float, y0: float, y1: float) -> tuple:
    return ("arrow", x, y0, x, y1)


def architecture_svg(*, layers: Mapping[str, int], expanded: Mapping[str, Sequence[int]], names: Mapping[str, str],
                     shapes: Mapping[str, tuple[Sequence[str], Sequence[int]]], selected: str | None = None,
                     tokens: Mapping[str, str] | None = None, top: str = "", font_scale: float = 1.0,
                     titles: Mapping[str, str] | None = None) -> str:
    """Figure 1 as an SVG string.

    layers {"encoder": N, "decoder": N}; expanded {stack: the layers drawn in full} (others collapsed);
    names: the labels (keys: the block kinds of architecture.KINDS, "input_embedding", "output_embedding",
    "inputs", "outputs", "probs", "pe", "encoder", "decoder" (the stacks' titles), "layer.encoder" /
    "layer.decoder" (a collapsed layer's box, with {n}), "frame" (a layer's frame, with {n}), "qkv", "q", "kv",
    "mask"); shapes: arrow id -> (symbols, shape) (architecture.arrows);
    selected: the open block's id; tokens {"encoder", "decoder"}: the input tokens as one text; top: the
    text over the output probabilities (the token chosen); titles: block id -> its hover text."""
    tokens, titles = tokens or {}, titles or {}
    k = font_scale
    base, small = BASE * k, SMALL * k
    label_w = LABEL_W * k
    width = 2 * label_w + 2 * BOX_W + GAP_W + 4 * PAD
    enc_x0 = label_w + 2 * PAD
    dec_x0 = enc_x0 + BOX_W + GAP_W
    cols = {"encoder": (enc_x0, enc_x0 + BOX_W, -1), "decoder": (dec_x0, dec_x0 + BOX_W, 1)}
    bus_x = enc_x0 + BOX_W + GAP_W / 2
    out: list[tuple] = []          # (kind, args) in upward coordinates
    branches: list[tuple[float, str]] = []   # (y, cross block id) where the encoder's output enters
    label_h = 2 * small + 4
    arrow_h, box_h, norm_h = max(ARROW_H, label_h + 4), BOX_H * max(1.0, k), NORM_H * max(1.0, k)
    tops: dict[str, float] = {}

    def label(stack: str, y: float, lines: Sequence[tuple[str, str]]) -> None:
        """The shapes of arrows (arrow id, prefix) on the stack's outer side, centred at height y, two lines each:
        the symbols, then the sizes."""
        x0, x1, side = cols[stack]
        n = 2 * len(lines)
        y_top = y + (n * (small + 1)) / 2 - small * 0.8
        for i, (arrow, prefix) in enumerate(lines):
            symbols, shape = shapes[arrow]
            out.append(("shape", stack, x0 - PAD if side < 0 else x1 + PAD, y_top - 2 * i * (small + 1), symbols,
                        shape, prefix, arrow))

    def box(stack: str, y: float, h: float, block: str, kind: str, text: str, layer: str = "") -> None:
        bx0, bx1, _ = cols[stack]
        out.append(("box", block, kind, bx0, y, bx1, y + h, text, layer))

    for stack in ("encoder", "decoder"):
        x0, x1, side = cols[stack]
        cx = (x0 + x1) / 2
        inner = x1 + PAD + 2 if side < 0 else x0 - PAD - 2           # where the residual lines run
        y = 0.0
        out.append(("tokens", cx, y + small * 0.3, names["inputs" if stack == "encoder" else "outputs"],
                    tokens.get(stack, ""), f"{stack}.embed"))
        y += small * 2.6
        out.append(_arrow(cx, y, y + arrow_h))
        label(stack, y + arrow_h / 2, [(f"{stack}.input", "")])
        y += arrow_h
        box(stack, y, EMBED_H * max(1.0, k), f"{stack}.embed", "embed",
            names["input_embedding" if stack == "encoder" else "output_embedding"])
        y += EMBED_H * max(1.0, k)
        out.append(_arrow(cx, y, y + arrow_h))
        label(stack, y + arrow_h / 2, [(f"{stack}.embed.token", "")])
        y += arrow_h
        r = 9 * max(1.0, k)
        pe_x = cx + side * 48
        out.append(("plus", f"{stack}.embed", cx, y + r, r, pe_x, names["pe"]))
        label(stack, y + r, [(f"{stack}.embed.position", names["pe"])])
        y += 2 * r
        out.append(_arrow(cx, y, y + arrow_h))
        label(stack, y + arrow_h / 2, [(f"{stack}.embed.sum", "")])
        y += arrow_h
        for i in range(layers[stack]):
            p = f"{stack}.{i}"
            if i not in expanded.get(stack, ()):
                h = box_h + 4
                box(stack, y, h, f"{p}.self_attn", "layer", names[f"layer.{stack}"].format(n=i + 1) + "  ▸", layer=p)
                if stack == "decoder":
                    branches.append((y + h / 2, f"{p}.cross_attn"))
                last = "add_norm2" if stack == "encoder" else "add_norm3"
                y += h
                out.append(_arrow(cx, y, y + arrow_h))
                label(stack, y + arrow_h / 2, [(f"{p}.{last}.out", "")])
                y += arrow_h
                continue
            frame_y0 = y - arrow_h * 0.35
            pairs = (("self_attn", "add_norm1"), ("ffn", "add_norm2")) if stack == "encoder" else \
                (("self_attn", "add_norm1"), ("cross_attn", "add_norm2"), ("ffn", "add_norm3"))
            for sub, norm in pairs:
                kind = {"self_attn": "masked_attn" if stack == "decoder" else "self_attn"}.get(sub, sub)
                skip_from = y - arrow_h / 2
                box(stack, y, box_h, f"{p}.{sub}", kind, names[kind])
                side_lines = {
                    "self_attn": [(f"{p}.self_attn.qkv", names["qkv"])]
                    + ([(f"{p}.self_attn.mask", names["mask"])] if stack == "decoder" else []),
                    "cross_attn": [(f"{p}.cross_attn.q", names["q"]), (f"{p}.cross_attn.kv", names["kv"])],
                    "ffn": [(f"{p}.ffn.hidden", "")]}[sub]
                if sub == "cross_attn":
                    branches.append((y + box_h / 2, f"{p}.cross_attn"))
                # the sublayer's output goes straight into its Add & Norm
                out.append(("hidden_arrow", f"{p}.{sub}.out", shapes[f"{p}.{sub}.out"]))
                label(stack, y + (box_h + norm_h) / 2, side_lines)
                y += box_h
                box(stack, y, norm_h, f"{p}.{norm}", "add_norm", names["add_norm"])
                out.append(("skip", cx, inner, skip_from, y + norm_h / 2, x1 if side < 0 else x0, f"{p}.{norm}"))
                y += norm_h
                out.append(_arrow(cx, y, y + arrow_h))
                label(stack, y + arrow_h / 2, [(f"{p}.{norm}.out", "")])
                y += arrow_h
            out.append(("frame", x0 - 3, frame_y0, x1 + 3, y - arrow_h * 0.45 + FRAME_TOP,
                        names["frame"].format(n=i + 1), f"{stack}.{i}"))
            y += FRAME_TOP
        tops[stack] = y
    # the output: Linear, Softmax, the probabilities
    x0, x1, _ = cols["decoder"]
    cx = (x0 + x1) / 2
    y = tops["decoder"]
    box("decoder", y, EMBED_H * max(1.0, k), "linear", "linear", names["linear"])
    y += EMBED_H * max(1.0, k)
    out.append(_arrow(cx, y, y + arrow_h))
    label("decoder", y + arrow_h / 2, [("linear.out", "")])
    y += arrow_h
    box("decoder", y, EMBED_H * max(1.0, k), "softmax", "softmax", names["softmax"])
    y += EMBED_H * max(1.0, k)
    out.append(_arrow(cx, y, y + arrow_h))
    label("decoder", y + arrow_h / 2, [("softmax.out", "")])
    y += arrow_h
    out.append(("probs", cx, y + small * 0.3, names["probs"], top))
    y += small * (3.4 if top else 1.8)
    # the encoder's output: up, across to the bus, into every encoder-decoder attention
    enc_cx = enc_x0 + BOX_W / 2
    mem_y = tops["encoder"]
    height = max(y, mem_y + 20) + base * 2.2
    # stack titles on top
    titles_y = height - base * 0.9

    # ---------------------------------------------------------------- write out (y flipped)
    def Y(v: float) -> float:
        return round(height - v, 1)

    svg = [f'<svg class="atlas-arch" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'font-family="inherit" role="group" data-layers-encoder="{layers["encoder"]}" '
           f'data-layers-decoder="{layers["decoder"]}">',
           '<defs><marker id="atlas-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
           f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{LINE}"/></marker></defs>']
    for stack, (x0, x1, _) in cols.items():
        ty = titles_y if stack == "decoder" else mem_y + 12 + base * 1.2
        svg.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{Y(ty)}" text-anchor="middle" font-weight="700" '
                   f'font-size="{base * 1.1:.1f}" fill="currentColor">{_x(names[stack])}</text>')
    # the memory bus under everything else
    if branches:
        ys = [b for b, _ in branches] + [mem_y + 10]
        svg.append(f'<g class="memory" stroke="{LINE}" stroke-width="1.6" fill="none">'
                   f'<path d="M{enc_cx:.1f},{Y(mem_y - 2)} V{Y(mem_y + 10)} H{bus_x:.1f}"/>'
                   f'<path d="M{bus_x:.1f},{Y(max(ys))} V{Y(min(ys))}"/>')
        for by, block in branches:
            svg.append(f'<path d="M{bus_x:.1f},{Y(by)} H{dec_x0 - 1:.1f}" marker-end="url(#atlas-arrow)" '
                       f'data-into="{_x(block)}"/>')
        svg.append("</g>")
    frames, rest = [i for i in out if i[0] == "frame"], [i for i in out if i[0] != "frame"]
    for _kind, *a in frames:
        fx0, fy0, fx1, fy1, text, layer = a
        svg.append(f'<g class="layer-frame" data-layer="{_x(layer)}"><rect x="{fx0:.1f}" y="{Y(fy1)}" width="{fx1 - fx0:.1f}" '
                   f'height="{fy1 - fy0:.1f}" rx="8" fill="rgba(128,128,128,0.10)" stroke="rgba(128,128,128,0.55)"/>'
                   f'<text x="{fx0 + 6:.1f}" y="{Y(fy1) + small + 2:.1f}" font-size="{small:.1f}" '
                   f'fill="currentColor" opacity="0.8">{_x(text)}</text></g>')
    for kind, *a in rest:
        if kind == "arrow":
            ax0, ay0, ax1, ay1 = a
            svg.append(f'<line x1="{ax0:.1f}" y1="{Y(ay0)}" x2="{ax1:.1f}" y2="{Y(ay1) + 1}" stroke="{LINE}" '
                       'stroke-width="1.6" marker-end="url(#atlas-arrow)"/>')
        elif kind == "hidden_arrow":
            arrow, (symbols, shape) = a
            svg.append(f'<g class="arrow-shape" data-arrow="{_x(arrow)}" data-symbols="{_x(symbols_text(symbols))}" '
                       f'data-shape="{_x(",".join(str(int(d)) for d in shape))}"><title>'
                       f'{_x(symbols_text(symbols))} = {_x(shape_text(shape, ", "))}</title></g>')
        elif kind == "skip":
            scx, sx, sy0, sy1, edge, norm = a
            svg.append(f'<path d="M{scx:.1f},{Y(sy0)} H{sx:.1f} V{Y(sy1)} H{edge + (2 if sx > edge else -2):.1f}" '
                       f'fill="none" '
                       f'stroke="{LINE}" stroke-width="1.3" marker-end="url(#atlas-arrow)" class="residual" '
                       f'data-into="{_x(norm)}"/>')
        elif kind == "box":
            block, bkind, bx0, by0, bx1, by1, text, layer = a
            sel = block == selected or (bool(layer) and (selected or "").startswith(layer + "."))
            size = fit_size(text, bx1 - bx0 - 8, base)
            lines = [text]
            if size < base * 0.85 and " " in text and by1 - by0 >= 2.2 * base * 0.85:     # two lines, not tiny
                words = text.split(" ")
                cut_at = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
                lines = [" ".join(words[:cut_at]), " ".join(words[cut_at:])]
                size = min(fit_size(line, bx1 - bx0 - 8, base) for line in lines)
            tip = titles.get(block, text)
            layer_attr = f' data-layer="{_x(layer)}"' if layer else ""
            svg.append(f'<a href="?block={_x(block)}" data-block="{_x(block)}" data-kind="{_x(bkind)}" '
                       f'class="block{" selected" if sel else ""}{" layer" if layer else ""}" aria-label="{_x(tip)}"'
                       f'{layer_attr}><title>{_x(tip)}</title>'
                       f'<rect x="{bx0:.1f}" y="{Y(by1)}" width="{bx1 - bx0:.1f}" height="{by1 - by0:.1f}" rx="5" '
                       f'fill="{FILL[bkind]}" stroke="{SELECTED if sel else "#374151"}" '
                       f'stroke-width="{3 if sel else 1.2}"/>'
                       + "".join(f'<text x="{(bx0 + bx1) / 2:.1f}" '
                                 f'y="{Y((by0 + by1) / 2) + size * (0.36 + 1.05 * (n - (len(lines) - 1) / 2)):.1f}" '
                                 f'text-anchor="middle" font-size="{size:.1f}" fill="{INK}"'
                                 f'{BOLD if sel else ""}>{_x(line)}</text>' for n, line in enumerate(lines))
                       + '</a>')
        elif kind == "plus":
            block, px, py, r, pe_x, pe_name = a
            sel = block == selected
            stroke = SELECTED if sel else "#374151"
            svg.append(f'<a href="?block={_x(block)}" data-block="{_x(block)}" data-kind="embed" '
                       f'class="block{" selected" if sel else ""}" aria-label="{_x(pe_name)}"><title>{_x(pe_name)}</title>'
                       f'<circle cx="{px:.1f}" cy="{Y(py)}" r="{r:.1f}" fill="#ffffff" stroke="{stroke}" '
                       f'stroke-width="{3 if sel else 1.3}"/>'
                       f'<path d="M{px - r * 0.6:.1f},{Y(py)} H{px + r * 0.6:.1f} M{px:.1f},{Y(py) - r * 0.6:.1f} '
                       f'V{Y(py) + r * 0.6:.1f}" stroke="{INK}" stroke-width="1.6"/>'
                       f'<circle cx="{pe_x:.1f}" cy="{Y(py)}" r="{r:.1f}" fill="#ffffff" stroke="{stroke}" '
                       f'stroke-width="1.3"/>'
                       f'<path d="M{pe_x - r * 0.7:.1f},{Y(py)} q{r * 0.35:.1f},{-r * 0.9:.1f} {r * 0.7:.1f},0 '
                       f't{r * 0.7:.1f},0" fill="none" stroke="{INK}" stroke-width="1.4"/></a>'
                       f'<line x1="{pe_x + (r if pe_x < px else -r):.1f}" y1="{Y(py)}" '
                       f'x2="{px + (-r - 1 if pe_x < px else r + 1):.1f}" y2="{Y(py)}" stroke="{LINE}" '
                       'stroke-width="1.4" marker-end="url(#atlas-arrow)"/>')
        elif kind == "shape":
            stack, lx, ly, symbols, shape, prefix, arrow = a
            anchor = "end" if stack == "encoder" else "start"
            sym = symbols_tspans(symbols)
            pre = f'<tspan font-weight="600">{_x(prefix)}</tspan> ' if prefix else ""
            num = shape_text(shape)
            num_size = fit_size(num, label_w - 2, small, 7.0)
            sym_size = fit_size((prefix + " " if prefix else "") + symbols_text(symbols).replace("_", ""),
                                label_w - 2, small, 7.0)
            svg.append(f'<g class="arrow-shape" data-arrow="{_x(arrow)}" '
                       f'data-symbols="{_x(symbols_text(symbols))}" data-shape="{_x(",".join(str(int(d)) for d in shape))}">'
                       f'<title>{_x(symbols_text(symbols))} = {_x(shape_text(shape, ", "))}</title>'
                       f'<text x="{lx:.1f}" y="{Y(ly):.1f}" text-anchor="{anchor}" font-size="{sym_size:.1f}" '
                       f'fill="currentColor">{pre}{sym}</text>'
                       f'<text x="{lx:.1f}" y="{Y(ly) + small + 1:.1f}" text-anchor="{anchor}" '
                       f'font-size="{num_size:.1f}" fill="currentColor" opacity="0.8">{_x(num)}</text></g>')
        elif kind == "tokens":
            tx, ty, title, text, block = a
            line = cut(f"{title}: {text}" if text else title, BOX_W + GAP_W - 10, small)
            svg.append(f'<text x="{tx:.1f}" y="{Y(ty):.1f}" text-anchor="middle" font-size="{small:.1f}" '
                       f'fill="currentColor" class="tokens"><title>{_x(text)}</title>{_x(line)}</text>')
        elif kind == "probs":
            tx, ty, title, text = a
            svg.append(f'<text x="{tx:.1f}" y="{Y(ty + small * 1.4):.1f}" text-anchor="middle" '
                       f'font-size="{small:.1f}" fill="currentColor">{_x(title)}</text>')
            if text:
                svg.append(f'<text x="{tx:.1f}" y="{Y(ty + small * 2.9):.1f}" text-anchor="middle" '
                           f'font-size="{base * 1.1:.1f}" font-weight="700" fill="{SELECTED}" class="chosen">'
                           f'{_x(cut(text, BOX_W + label_w, base * 1.1))}</text>')
    svg.append("</svg>")
    return "".join(svg)


# ---------------------------------------------------------------- the page's charts

def residual_figure(stacks: Sequence[Mapping], tokens: Sequence[Sequence[str]], *, panel_titles: Sequence[str],
                    title: str = "", x_title: str = "", y_title: str = "", height: int = 420) -> go.Figure:
    """Each token's vector norm after every sublayer: one panel per stack ({"stages": labels, "norms": (stages,
    tokens)}), one line per token (tokens[panel]: its labels), stages along x."""
    data, layout = [], side_by_side([escape(t) for t in panel_titles[:len(stacks)]], gap=0.08, title_size=FONT_SIZE)
    for p, (stack, labels) in enumerate(zip(stacks, tokens, strict=False)):
        s = _axis_suffix(p + 1)
        norms = np.asarray(stack["norms"], dtype=float)
        x = [escape(v) for v in stack["stages"]]
        for j, label in enumerate(tick_labels(labels)):
            data.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": _rounded(norms[:, j], 4),
                         "name": label, "legendgroup": f"{p}", "showlegend": False, "xaxis": "x" + s, "yaxis": "y" + s,
                         "line": {"color": PALETTE[j % len(PALETTE)], "width": 2}, "marker": {"size": 5},
                         "hovertemplate": f"{label}<br>%{{x}}: %{{y:.3f}}<extra></extra>"})
        layout["xaxis" + s] |= {"type": "category", "tickangle": -45,
                                **({"title": {"text": escape(x_title)}} if x_title else {})}
        layout["yaxis" + s] |= {"rangemode": "tozero", **({"title": {"text": escape(y_title)}} if y_title and p == 0 else {})}
    layout.update({"font": {"size": FONT_SIZE}, "height": height, "showlegend": False,
                   "margin": {"l": 10, "r": 10, "t": 70 if title else 34, "b": 10}, "hovermode": "closest"})
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return figure(data, layout)


def top_next_figure(rows: Sequence[str], tokens: Sequence[Sequence[str]], probs, *, title: str = "",
                    x_title: str = "", y_title: str = "", colorbar_title: str = "") -> go.Figure:
    """Each position's k most likely next tokens: a (positions × k) grid coloured by probability, each cell
    naming its token and probability; rows are the decoder's positions (their input token)."""
    from ..theme import SEQUENTIAL

    p = np.asarray(probs, dtype=float)
    T, k = p.shape
    y = tick_labels(rows)
    text = [[f"{escape(tokens[i][j])}<br>{p[i, j]:.3f}" for j in range(k)] for i in range(T)]
    trace = {"type": "heatmap", "z": _rounded(p, 4), "x": [str(j + 1) for j in range(k)], "y": y, "text": text,
             "texttemplate": "%{text}", "textfont": {"size": 12}, "colorscale": SEQUENTIAL, "zmin": 0.0, "zmax": 1.0,
             "xgap": 2, "ygap": 2, "hovertemplate": "%{y} → %{text}<extra></extra>",
             "colorbar": {"title": {"text": escape(colorbar_title)}, "thickness": 12}}
    layout = {"font": {"size": FONT_SIZE}, "showlegend": False, "height": int(min(900, max(240, 90 + 40 * T))),
              "margin": {"l": 10, "r": 10, "t": 50 if title else 16, "b": 10},
              "xaxis": {"type": "category", "side": "top", "title": {"text": escape(x_title)}},
              "yaxis": {"type": "category", "autorange": "reversed", "title": {"text": escape(y_title)}}}
    if title:
        layout["title"] = {"text": escape(title), "font": {"size": FONT_SIZE + 1}}
    return figure([trace], layout)
