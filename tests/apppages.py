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


def live_charts(at) -> dict[str, dict]:
    """key -> the data of each chart drawn with pages.ui.live_chart (spec: the figure's JSON, config, src)."""
    return {c.key: json.loads(c.proto.json) for c in at.get("bidi_component")
            if c.proto.component_name == "atlas_live_chart"}


def chart_specs(at) -> dict[str, str]:
    """key -> the plotly JSON of every chart drawn, by st.plotly_chart or by live_chart."""
    specs = {c.key: c.proto.spec for c in at.get("plotly_chart")}
    specs.update({key: data["spec"] for key, data in live_charts(at).items()})
    return specs


def chart_config(at, key: str) -> dict:
    """The plotly config (PNG export settings) of the chart drawn with this key."""
    configs = {c.key: c.proto.config for c in at.get("plotly_chart")}
    configs.update({k: json.dumps(d["config"]) for k, d in live_charts(at).items()})
    if key not in configs:
        raise AssertionError(f"no chart {key}; have {sorted(configs)}")
    return json.loads(configs[key])


def chart_spec(at, key: str) -> dict:
    """The plotly spec of the chart drawn with this key."""
    specs = chart_specs(at)
    if key not in specs:
        raise AssertionError(f"no chart {key}; have {sorted(specs)}")
    return json.loads(specs[key])
