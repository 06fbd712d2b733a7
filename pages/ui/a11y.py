"""What every page needs to pass an accessibility audit (axe-core, tests/test_browser_a11y.py) that
Streamlit does not give: the document's language is the interface's (<html lang="ko"> or "en"; Streamlit
writes "en" whatever the page says, and a screen reader then reads Korean with English rules), a region
that scrolls sideways (a wide formula, a code block) can be reached with the keyboard (tabindex 0), a
button whose words CSS draws (the uploader's, theme.uploader_css) is named by them (aria-label), and
text that contrasts enough (WCAG AA, 4.5:1): captions and a chosen segmented button.

install() draws it once per page run, in the sidebar (nothing visible).
"""
from __future__ import annotations

import streamlit as st

from .i18n import current_lang

# Captions: Streamlit's 60 % faded text is 3.9:1 on white; 85 % of the text colour is 7:1 (and follows a
# dark theme).  A segmented control's chosen option: Streamlit's red on pale red is 4.47:1.
A11Y_CSS = """<style>
[data-testid="stCaptionContainer"] { color: inherit !important; opacity: 0.85; }
[data-testid="stCaptionContainer"] * { color: inherit; }
button[data-selected="true"] [data-testid="stMarkdownContainer"] :is(p, span) { color: #9f1239; }
</style>"""

_JS = """
const SCROLLERS = '.katex-display, pre, [data-testid="stCode"] pre';

function scrollersFocusable() {
  for (const el of document.querySelectorAll(SCROLLERS)) {
    if (!el.hasAttribute('tabindex') && el.scrollWidth > el.clientWidth) el.setAttribute('tabindex', '0');
  }
  // a button whose words are drawn by CSS (theme.uploader_css's ::after) is named by them
  for (const button of document.querySelectorAll('[data-testid="stFileUploaderDropzone"] button')) {
    const drawn = getComputedStyle(button, '::after').content;
    if (drawn && drawn !== 'none' && drawn !== 'normal') {
      const name = drawn.replace(/^"|"$/g, '');
      if (button.getAttribute('aria-label') !== name) button.setAttribute('aria-label', name);
    }
  }
}

export default function (component) {
  const { data } = component;
  document.documentElement.lang = data.lang;
  scrollersFocusable();
  if (!window.__atlasA11y) {
    let pending = false;
    window.__atlasA11y = new MutationObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; scrollersFocusable(); });
    });
    window.__atlasA11y.observe(document.body, {childList: true, subtree: true});
    window.addEventListener('resize', scrollersFocusable);
    // a tab or an expander opened, a web font loaded: widths change without a change in the document
    setInterval(scrollersFocusable, 1000);
  }
}
"""

_component = st.components.v2.component("atlas_a11y", js=_JS, isolate_styles=False)


def install() -> None:
    """The page's language, keyboard-reachable scrolling regions and the contrast CSS."""
    st.html(A11Y_CSS)
    _component(key="atlas_a11y", data={"lang": current_lang()})
