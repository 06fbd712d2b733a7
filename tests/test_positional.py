"""Positional encodings: the sinusoid table, its rotation property and the lecture's criteria."""
import math

import pytest
import torch

from transformer_core.model.positional import (
    check_criteria,
    encoding_table,
    frequencies,
    rotation_matrix,
    sinusoidal_encoding,
)


def test_table_for_d_model_4_by_hand():
    # d_model = 4: i = 0 -> 10000^(0/4) = 1, i = 1 -> 10000^(2/4) = 100, so
    # PE(pos) = [sin(pos), cos(pos), sin(pos/100), cos(pos/100)], worked out to 4 decimals:
    expected = torch.tensor([
        [0.0000, 1.0000, 0.0000, 1.0000],      # pos 0
        [0.8415, 0.5403, 0.0100, 1.0000],      # pos 1: sin 1, cos 1, sin .01, cos .01 = 0.99995
        [0.9093, -0.4161, 0.0200, 0.9998],     # pos 2
        [0.1411, -0.9900, 0.0300, 0.9996],     # pos 3: cos .03 = 0.99955
    ])
    pe = sinusoidal_encoding(4, 4)
    assert pe.shape == (4, 4) and pe.dtype == torch.float32
    torch.testing.assert_close(pe, expected, atol=1e-4, rtol=0)


def test_table_matches_formula_for_d_model_512():
    d = 512
    pe = sinusoidal_encoding(50, d)
    for pos in (0, 1, 7, 49):
        for i in (0, 1, 100, 255):
            angle = pos / 10000 ** (2 * i / d)
            assert pe[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-6)
            assert pe[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-6)


def test_frequencies():
    w = frequencies(8)
    torch.testing.assert_close(w, torch.tensor([1.0, 10000 ** -0.25, 10000 ** -0.5, 10000 ** -0.75],
                                               dtype=torch.float64))


def test_odd_d_model_rejected():
    with pytest.raises(ValueError, match="even"):
        sinusoidal_encoding(4, 5)


@pytest.mark.parametrize("k", [1, 3, 10])
def test_rotation_property(k):
    """PE(pos + k) = T(k) · PE(pos), with T(k) orthogonal and the same for every pos."""
    d = 16
    pe = sinusoidal_encoding(60, d)
    t = rotation_matrix(k, d)
    moved = pe[: 60 - k] @ t.T                          # row pos: T(k) @ PE(pos)
    torch.testing.assert_close(moved, pe[k:], atol=1e-5, rtol=0)
    torch.testing.assert_close(t @ t.T, torch.eye(d), atol=1e-6, rtol=0)


def test_rotations_compose():
    d = 8
    torch.testing.assert_close(rotation_matrix(2, d) @ rotation_matrix(5, d), rotation_matrix(7, d),
                               atol=1e-6, rtol=0)


def test_criteria_match_the_lecture():
    all_good = {"unique": True, "bounded": True, "length_independent": True, "equal_distance": True}
    assert check_criteria("sinusoidal") == all_good
    assert check_criteria("index") == {**all_good, "bounded": False}              # grows without bound
    assert check_criteria("normalized") == {**all_good, "length_independent": False}  # i/T depends on T
    assert check_criteria("binary") == {**all_good, "equal_distance": False}      # 0111 -> 1000 jumps


def test_alternative_tables():
    assert encoding_table("index", 4, 8)[:, 0].tolist() == [0, 1, 2, 3]
    assert encoding_table("normalized", 5, 8)[:, 0].tolist() == [0, 0.25, 0.5, 0.75, 1.0]
    assert encoding_table("binary", 5, 8).tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]]
    with pytest.raises(ValueError, match="unknown"):
        encoding_table("spiral", 4, 8)


def test_halves_layout_is_the_same_waves_sines_first():
    """Marian's table: dims 0 .. d/2-1 hold the sines, d/2 .. d-1 the cosines of the same frequencies."""
    inter, halves = sinusoidal_encoding(50, 8), sinusoidal_encoding(50, 8, "halves")
    assert torch.equal(halves, torch.cat([inter[:, 0::2], inter[:, 1::2]], dim=1))
    assert torch.equal(sinusoidal_encoding(50, 8, "interleaved"), inter)
    with pytest.raises(ValueError, match="unknown sinusoid layout"):
        sinusoidal_encoding(5, 8, "shuffled")
