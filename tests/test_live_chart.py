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


def test_a_figures_json_is_plotly_ios_own_without_the_deep_copy():
    """figure_json writes what pio.to_json(fig, validate=False) writes, character for character: typed arrays
    (int64 narrowed), NaN and −∞ as null, markup escaped, shapes and annotations, no trace uid; all but the
    layout's template (Streamlit's placeholder)."""
    import numpy as np
    import plotly.io as pio

    from pages.ui import figures
    from transformer_core.model.positional import sinusoidal_encoding

    rng = np.random.default_rng(0)
    T = 9
    grid = figures.attention_grid(rng.random((2, 4, T, T)), [f"<q{i}/>" for i in range(T)], [f"k{i}" for i in range(T)],
                                  panel_titles=[[f"L{layer} H{head}" for head in range(4)] for layer in range(2)],
                                  selected=(1, 2))
    masked = figures.heatmap(np.where(np.tril(np.ones((5, 5))) > 0, 0.5, -np.inf), show_values=True)
    log = figures.log_figure([{"title": "loss", "series": [{"x": [1, 2, 3], "y": [3.0, float("nan"), 1.0], "name": "a"}]}],
                             round_starts=[2], round_label="<fine-tune>")
    steps = figures.line_figure([{"x": np.arange(1500), "y": rng.random(1500), "name": "lr"}])
    table = figures.pe_heatmap(sinusoidal_encoding(50, 64).numpy())
    for fig in (grid, masked, log, steps, table):
        spec = fig.to_plotly_json()
        assert spec["layout"].pop("template")
        assert live_chart.figure_json(fig) == pio.to_json(spec, validate=False)
    assert '"bdata"' in live_chart.figure_json(table) and "<" not in live_chart.figure_json(grid)
