"""lrate = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5), checked against hand arithmetic."""
import math

import pytest

from transformer_core.training.schedule import lrate, lrate_curve


def test_values_for_the_paper_base_model():
    # d_model = 512, warmup = 4000.  During warmup the second term is the smaller one.
    assert lrate(1) == pytest.approx(512 ** -0.5 * 1 * 4000 ** -1.5, rel=1e-12)        # 1.7469e-07
    assert lrate(1) == pytest.approx(1.7469281e-07, rel=1e-6)
    assert lrate(2000) == pytest.approx(512 ** -0.5 * 2000 / (4000 * math.sqrt(4000)), rel=1e-12)
    # At step = warmup both terms are equal: the peak, 1/sqrt(512 · 4000).
    assert lrate(4000) == pytest.approx(1 / math.sqrt(512 * 4000), rel=1e-12)         # 6.9877e-04
    assert lrate(4000) == pytest.approx(6.987712e-04, rel=1e-6)
    # After warmup: inverse square root decay.
    assert lrate(8000) == pytest.approx(1 / math.sqrt(512 * 8000), rel=1e-12)         # 4.9411e-04
    assert lrate(8000) == pytest.approx(4.941059e-04, rel=1e-6)
    assert lrate(100000) == pytest.approx(1 / math.sqrt(512 * 100000), rel=1e-12)     # 1.3975e-04
    assert lrate(100000) == pytest.approx(1.397542e-04, rel=1e-6)


def test_linear_warmup_and_peak_at_warmup():
    curve = lrate_curve(12000)
    assert len(curve) == 12000
    peak = max(range(12000), key=curve.__getitem__) + 1                # 1-based step of the maximum
    assert peak == 4000
    assert curve[1999] == pytest.approx(curve[3999] / 2, rel=1e-12)   # linear: half way, half the rate
    assert curve[7999] == pytest.approx(curve[3999] / math.sqrt(2), rel=1e-12)  # step 8000


def test_other_sizes_scale_and_step_zero():
    assert lrate(100, d_model=256, warmup=400) == pytest.approx(256 ** -0.5 * 100 * 400 ** -1.5, rel=1e-12)
    assert lrate(4000, scale=2.0) == pytest.approx(2 / math.sqrt(512 * 4000), rel=1e-12)
    assert lrate(0) == lrate(1)
