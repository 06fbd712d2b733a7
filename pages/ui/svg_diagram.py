"""A clickable SVG on a page: the Architecture page's Figure 1 (figures.architecture_svg).

The SVG's blocks are links <a href="?block=ID" data-block="ID">.  A plain link would load the page anew, a new
session without the sentence typed, so this component (a Streamlit custom component, like live_chart) draws
the SVG into the page and turns a click on a block (or Enter on a focused one) into an event: the page
reruns with the block's id, in the same session.  The href stays a real link to the block (a new tab, a
bookmark).  The SVG must be the caller's own markup with every text in it escaped (figures/architecture.py):
it is set as the element's HTML.
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

_JS = """
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let box = parentElement.querySelector(':scope > div.atlas-svg');
  if (!box) {
    box = document.createElement('div');
    box.className = 'atlas-svg';
    parentElement.appendChild(box);
  }
  if (box.__svg !== data.svg) {
    box.innerHTML = data.svg;
    box.__svg = data.svg;
  }
  for (const a of box.querySelectorAll('a[data-block]')) {
    const open = ev => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button === 1) return;   // a new tab: the real link
      ev.preventDefault();
      setTriggerValue('block', a.getAttribute('data-block'));
    };
    a.onclick = open;
    a.onkeydown = ev => { if (ev.key === 'Enter' || ev.key === ' ') open(ev); };
    a.setAttribute('tabindex', '0');
  }
}
"""

_CSS = """
.atlas-svg svg { width: 100%; height: auto; display: block; }
.atlas-svg a.block { cursor: pointer; }
.atlas-svg a.block:hover rect, .atlas-svg a.block:focus rect { stroke-width: 2.6; filter: brightness(0.96); }
.atlas-svg a.block:focus { outline: none; }
.atlas-svg a.block:focus-visible rect { stroke: #2563eb; stroke-width: 3; }
"""

_component = st.components.v2.component("atlas_svg_diagram", js=_JS, css=_CSS, isolate_styles=False)


def clickable_svg(svg: str, *, key: str, on_click: Callable[[str], None]) -> str | None:
    """Draw svg; a click on one of its blocks reruns the page (or the fragment it is in) after
    on_click(block id).  -> the id clicked in this run, or None."""
    def clicked() -> None:
        value = st.session_state.get(key)
        block = value.get("block") if hasattr(value, "get") else None
        if block:
            on_click(str(block))

    result = _component(key=key, data={"svg": svg}, on_block_change=clicked)
    return getattr(result, "block", None)
