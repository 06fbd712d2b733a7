"""Issue #42, item 13, where Streamlit draws the text: in a Korean tab, /home opens the home page without
Streamlit's English "Page not found" dialog, the Models page's uploader says "Upload" and its limits in Korean
(pages/ui/theme.uploader_css), and the heads multiselect offers no English "Select all"."""
from __future__ import annotations

from test_browser import (
    FIRST_RUN_TIMEOUT_S,
    I18N,
    OPEN_TRIES,
    OPEN_WAIT_S,
    VIEWPORT,
    settle,
    wait_for_page,
)


def test_item13_korean_where_streamlit_draws_it(browser, bundled_server):     # warmed, as `make run` and Docker's is
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    s = I18N["ko"]
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{bundled_server}/home?lang=ko")
        wait_for_page(page, "ko", "translate", FIRST_RUN_TIMEOUT_S)
        settle(page, FIRST_RUN_TIMEOUT_S)
        found = page.get_by_text("Page not found")
        assert found.count() == 0, found.first.evaluate("e => e.outerHTML.slice(0, 300)")
        assert "lang=ko" in page.url

        box = page.locator(".st-key-tr_heads_off button[aria-haspopup='listbox']").first
        for attempt in range(OPEN_TRIES):          # a late rerun can close the list just opened: open it again
            box.scroll_into_view_if_needed()
            box.click()
            try:
                page.wait_for_selector("[role='option']", timeout=OPEN_WAIT_S * 1000)
                break
            except PlaywrightTimeout:
                if attempt == OPEN_TRIES - 1:
                    raise
                page.keyboard.press("Escape")
                settle(page, FIRST_RUN_TIMEOUT_S)
        options = page.locator("[role='option']").all_inner_texts()
        assert options and not any("Select all" in o for o in options), options
        page.keyboard.press("Escape")

        page.goto(f"{bundled_server}/checkpoints?lang=ko")
        wait_for_page(page, "ko", "models", FIRST_RUN_TIMEOUT_S)
        zone = page.locator("[data-testid='stFileUploaderDropzone']").first
        zone.scroll_into_view_if_needed()
        shown = zone.inner_text()
        assert "Upload" not in shown and "per file" not in shown, shown
        after = zone.evaluate("z => [getComputedStyle(z.querySelector('button'), '::after').content, "
                              "getComputedStyle(z.querySelector('[data-testid=stFileUploaderDropzoneInstructions]'),"
                              " '::after').content]")
        assert after == [f'"{s["models.upload.button_browse"]}"', f'"{s["models.upload.drop"]}"'], after
        zone.evaluate("z => { const d = new DataTransfer(); d.items.add(new File(['x'], 'model.zip')); "
                      "for (const type of ['dragenter', 'dragover']) z.dispatchEvent(new DragEvent(type, "
                      "{bubbles: true, cancelable: true, dataTransfer: d})); }")   # a file dragged over it
        page.wait_for_function("() => [...document.querySelector('[data-testid=stFileUploaderDropzone]').children]"
                               ".some(c => c.tagName === 'DIV' && !c.dataset.testid && !c.querySelector('button'))",
                               timeout=10_000)                        # Streamlit's "Drag and drop files here"
        shown = zone.inner_text()
        assert "Drag" not in shown and "drop" not in shown, shown
        dragging = zone.evaluate("z => [...z.children].filter(c => c.tagName === 'DIV' && !c.dataset.testid && "
                                 "!c.querySelector('button')).map(c => getComputedStyle(c, '::after').content)")
        assert dragging == [f'"{s["models.upload.drop"]}"'], dragging
    finally:
        context.close()
