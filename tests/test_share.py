"""Each session's share of the server's compute (transformer_core/serving/share.py, pages/ui/sentence.charged)."""
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from pages.ui.i18n import strings
from transformer_core.serving.share import ComputeShare, OverShare, timed


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_session_past_its_share_waits_until_its_runs_leave_the_window():
    clock = Clock()
    share = ComputeShare(seconds=20, window_s=60, clock=clock)
    for _ in range(2):                       # the attacker: two 10 s runs
        share.check("attacker")
        share.charge("attacker", 10.0)
        clock.now += 10
    with pytest.raises(OverShare) as info:
        share.check("attacker")
    assert info.value.wait_s == pytest.approx(40.0)      # now 20: the first run (ended at 0) leaves it at 60
    for _ in range(20):                      # a student beside it: a 0.3 s run every 3 s, never held back
        share.check("student")
        share.charge("student", 0.3)
        clock.now += 3
    assert share.used("student") < 20
    share.check("attacker")                  # 80 s on: both runs have left the window
    share.forget("attacker")
    assert share.used("attacker") == 0


def test_timed_counts_the_threads_cpu_not_the_wall_clock():
    import time

    _, idle = timed(time.sleep, 0.3)
    _, busy = timed(sum, range(10_000_000))
    assert idle < 0.02 < busy


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_page_says_how_long_to_wait_once_the_share_is_used(lang, app_checkpoints):
    from pages.ui import model_state, sentence

    sentence._bundled_run.clear()                             # a run cached by an earlier test costs nothing
    model_state.SHARE.charge("test session id", 1000.0)      # AppTest's session id: far past its share
    try:
        at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=60)
        at.query_params["lang"] = lang
        at.run()
        assert not at.exception
        want = strings(lang)["app.over_share"].split("{wait}")[0]
        assert any(w.value.startswith(want) for w in at.warning), [w.value for w in at.warning]
    finally:
        model_state.SHARE.forget("test session id")


def _fragment_over_share():
    import streamlit as st

    from pages.ui.widgets import model_fragment
    from transformer_core.serving.share import OverShare

    @model_fragment
    def part():
        st.write("before")
        raise OverShare(7.0)

    part()
    st.write("after")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_model_fragment_says_how_long_to_wait_on_its_own(lang, monkeypatch):
    """A fragment's own rerun (a tab of the home page) runs without app.py's busy_notice: model_fragment's."""
    # AppTest makes its script __main__, which a worker process spawned later in this process would run
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    at = AppTest.from_function(_fragment_over_share, default_timeout=30)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == [strings(lang)["app.over_share"].format(wait="7")]
    assert [m.value for m in at.markdown][-1] == "after"
