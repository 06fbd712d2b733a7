"""pages.ui.live_chart.install_plotly_js: the plotly package's plotly.js copied to static/, readable by the web
server (the Docker image runs as another user), never half written, and False (the charts then fall back to
st.plotly_chart) where it cannot be put in place."""
import filecmp
import stat

from pages.ui import live_chart


def test_install_copies_the_package_plotly_js_readable_by_all(tmp_path, monkeypatch):
    target = tmp_path / "static" / "plotly.min.js"
    monkeypatch.setattr(live_chart, "PLOTLY_JS", target)
    assert live_chart.install_plotly_js()
    assert filecmp.cmp(target, live_chart.PLOTLY_JS_SOURCE, shallow=False)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["plotly.min.js"]          # no temporary file left
    mtime = target.stat().st_mtime_ns
    assert live_chart.install_plotly_js() and target.stat().st_mtime_ns == mtime   # the same file: kept


def test_install_replaces_a_different_file(tmp_path, monkeypatch):
    target = tmp_path / "static" / "plotly.min.js"
    target.parent.mkdir()
    target.write_text("stale")
    monkeypatch.setattr(live_chart, "PLOTLY_JS", target)
    assert live_chart.install_plotly_js()
    assert filecmp.cmp(target, live_chart.PLOTLY_JS_SOURCE, shallow=False)


def test_install_reports_a_folder_it_cannot_make(tmp_path, monkeypatch):
    blocker = tmp_path / "static"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setattr(live_chart, "PLOTLY_JS", blocker / "plotly.min.js")
    assert live_chart.install_plotly_js() is False
    assert blocker.read_text() == "a file where the folder should be"
