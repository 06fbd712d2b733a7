"""Shared AppTest helpers for the model pages' tests: open the app on a page, read a chart's spec."""
import json
from pathlib import Path

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def open_app(lang: str, page: str | None = None, **state):
    """Run app.py in lang with session state set, then switch to page (pages/<name>.py) if given."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    if page is not None:
        at.switch_page(page)
        at.run()
    return at


def chart_spec(at, key: str) -> dict:
    """The plotly spec of the chart drawn with this key."""
    for chart in at.get("plotly_chart"):
        if chart.key == key:
            return json.loads(chart.proto.spec)
    raise AssertionError(f"no chart {key}; have {[c.key for c in at.get('plotly_chart')]}")
