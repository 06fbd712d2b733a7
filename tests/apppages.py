"""Shared AppTest helpers for the model pages' tests: open the app on a page, read a chart's spec."""
import json
from pathlib import Path

from pages.ui import theme

APP = str(Path(__file__).resolve().parents[1] / "app.py")
MARK = f":{theme.UNCERTAIN}-background[:{theme.UNCERTAIN}[*", "*]]"      # around a run of uncertain tokens


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


def translation_markdown(at) -> str:
    """The home page's translation as it is written (### …), the marks of its uncertain tokens included."""
    assert at.get_by_key("translation") is not None
    texts = [m.value for m in at.markdown if m.value.startswith("### ")]
    assert texts
    return texts[0].removeprefix("### ")


def translation_text(at) -> str:
    """The translation shown, without the marks of its uncertain tokens (pages/translate.py's marked) and
    without markdown escapes."""
    start, end = MARK
    return translation_markdown(at).replace(start, "").replace(end, "").replace("\\", "")


def live_charts(at) -> dict[str, dict]:
    """key -> the data of each chart drawn with pages.ui.live_chart (spec: the figure's JSON, config, src)."""
    return {c.key: json.loads(c.proto.json) for c in at.get("bidi_component")
            if c.proto.component_name == "atlas_live_chart"}


def charts(at) -> dict[str, tuple[str, dict]]:
    """key -> (the plotly JSON, the config) of every chart drawn, by st.plotly_chart or by live_chart."""
    drawn = {c.key: (c.proto.spec, json.loads(c.proto.config)) for c in at.get("plotly_chart")}
    drawn.update({key: (data["spec"], data["config"]) for key, data in live_charts(at).items()})
    return drawn


def chart_specs(at) -> dict[str, str]:
    """key -> the plotly JSON of every chart drawn."""
    return {key: spec for key, (spec, _) in charts(at).items()}


def chart(at, key: str) -> tuple[str, dict]:
    """(the plotly JSON, the config) of the chart drawn with this key."""
    drawn = charts(at)
    if key not in drawn:
        raise AssertionError(f"no chart {key}; have {sorted(drawn)}")
    return drawn[key]


def chart_spec(at, key: str) -> dict:
    """The plotly spec of the chart drawn with this key."""
    return json.loads(chart(at, key)[0])
