import math

import torch

from transformer_core.explainer.scaling import dot_product_spread, dot_products, saturation, softmax_jacobian


def test_spread_grows_like_sqrt_dk():
    spread = dot_product_spread([1, 16, 256], n=4000, seed=0)
    for d_k, std, scaled in zip(spread["d_k"], spread["std"], spread["scaled_std"], strict=True):
        assert abs(std / math.sqrt(d_k) - 1) < 0.1
        assert abs(scaled - 1) < 0.1


def test_dot_products_seeded():
    assert torch.equal(dot_products(8, 50, seed=3), dot_products(8, 50, seed=3))


def test_softmax_jacobian_matches_autograd():
    z = torch.tensor([0.3, 0.4, -1.2], dtype=torch.float64)
    s = torch.softmax(z, dim=-1)
    auto = torch.autograd.functional.jacobian(lambda x: torch.softmax(x, dim=-1), z)
    assert torch.allclose(softmax_jacobian(s), auto)
    assert torch.allclose(softmax_jacobian(s).sum(dim=0), torch.zeros(3, dtype=torch.float64))


def test_lecture_saturation_numbers():
    # 004: softmax([0.3, 0.4]) = [0.475, 0.525];  ×100 -> [4.54e-05, 0.99995]
    sat = saturation([0.3, 0.4], [1, 100])
    assert abs(sat["probs"][0][0] - 0.47502081) < 1e-8
    assert abs(sat["probs"][1][0] - 4.53978687e-05) < 1e-12
    # the gradient all but vanishes: diag(s) - s sᵀ has entries ≈ s1·s2
    assert sat["jac_max"][0] > 0.24 and sat["jac_max"][1] < 5e-5
