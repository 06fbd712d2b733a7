"""#42 item 17: every heatmap and line chart stays readable in grey and under the common colour-vision
deficiencies.  Each theme colour is simulated with Machado, Oliveira and Fernandes (2009)'s matrices at
severity 1 (protanopia, deuteranopia, tritanopia; linear RGB) and in grey (relative luminance), then
compared in CIELAB: the sequential scale's lightness falls steadily from 0 to 1, each half of the diverging
scale's falls away from its white centre and its two ends stay apart (but in grey, where its sign is the
colour bar's and the hover's), and the line colours stay apart from one another.  docs/accessibility.md."""
from itertools import combinations, pairwise

import numpy as np
import plotly.colors as pc
import pytest

from pages.ui.theme import DIVERGING, MASK_COLORS, PALETTE, SEQUENTIAL

MACHADO = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}
VISIONS = ["normal", "grey", *MACHADO]
MIN_STEP_L = 3.0          # L* between neighbouring stops of a scale
MIN_APART = 15.0          # ΔE*ab between two line colours (about 2.3 is "just noticeable")


def _rgb(color: str) -> np.ndarray:
    if color.startswith("rgb"):
        return np.array([float(v) for v in color[color.index("(") + 1:-1].split(",")[:3]]) / 255
    h = color.lstrip("#")
    return np.array([int(h[k:k + 2], 16) for k in (0, 2, 4)]) / 255


def _linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(color: str, vision: str = "normal") -> np.ndarray:
    """CIELAB (D65) of the colour as seen with that vision."""
    rgb = _linear(_rgb(color))
    if vision == "grey":
        rgb = np.full(3, rgb @ [0.2126, 0.7152, 0.0722])
    elif vision != "normal":
        rgb = np.clip(np.array(MACHADO[vision]) @ rgb, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ rgb
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def stops(scale) -> list[str]:
    return [c for _, c in (pc.get_colorscale(scale) if isinstance(scale, str) else scale)]


@pytest.mark.parametrize("vision", VISIONS)
def test_the_sequential_scale_darkens_steadily(vision):
    lightness = [lab(c, vision)[0] for c in stops(SEQUENTIAL)]
    assert all(a - b >= MIN_STEP_L for a, b in pairwise(lightness)), lightness


@pytest.mark.parametrize("vision", VISIONS)
def test_each_half_of_the_diverging_scale_darkens_away_from_zero(vision):
    colors = stops(DIVERGING)
    lightness = [lab(c, vision)[0] for c in colors]
    mid = len(colors) // 2
    low, high = lightness[:mid + 1], lightness[mid:]
    assert all(b - a >= MIN_STEP_L for a, b in pairwise(low)), lightness
    assert all(a - b >= MIN_STEP_L for a, b in pairwise(high)), lightness
    if vision != "grey":               # negative and positive stay apart in colour
        assert np.linalg.norm(lab(colors[0], vision) - lab(colors[-1], vision)) > 30


@pytest.mark.parametrize("vision", VISIONS)
def test_masked_cells_stand_apart_from_the_cells_that_may_attend(vision):
    (_, masked), (_, allowed) = MASK_COLORS
    assert abs(lab(masked, vision)[0] - lab(allowed, vision)[0]) > 20


@pytest.mark.parametrize("vision", ["normal", *MACHADO])
def test_line_colours_stay_apart(vision):
    close = [(round(float(np.linalg.norm(lab(a, vision) - lab(b, vision))), 1), a, b) for a, b in combinations(PALETTE, 2)]
    assert min(close)[0] >= MIN_APART, sorted(close)[:3]


def test_line_colours_are_not_too_light_on_white():
    """Text in these colours (annotations) and thin lines: lightness under 80 (the yellow is left out)."""
    assert all(lab(c)[0] < 80 for c in PALETTE)
