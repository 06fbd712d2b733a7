import torch
import torch.nn.functional as F

from transformer_core.training.smoothing import best_confidence, loss_vs_confidence, smoothed_loss, smoothed_targets


def test_targets_sum_to_one():
    q = smoothed_targets(torch.tensor([2, 0]), 5, 0.1)
    assert torch.allclose(q.sum(-1), torch.ones(2, dtype=torch.float64))
    assert abs(float(q[0, 2]) - (0.9 + 0.02)) < 1e-12 and abs(float(q[0, 1]) - 0.02) < 1e-12


def test_loss_equals_torch_label_smoothing():
    gen = torch.Generator().manual_seed(0)
    logits, target = torch.randn(6, 9, generator=gen), torch.randint(0, 9, (6,), generator=gen)
    for eps in (0.0, 0.1, 0.3):
        ours = smoothed_loss(logits, target, eps)
        theirs = F.cross_entropy(logits, target, label_smoothing=eps)
        assert torch.allclose(ours, theirs, atol=1e-6)


def test_smoothed_loss_minimum_below_one():
    cs = [i / 1000 for i in range(1, 1000)]
    curve = loss_vs_confidence(8, 0.1, cs)
    best = cs[min(range(len(cs)), key=curve["smoothed"].__getitem__)]
    assert abs(best - best_confidence(8, 0.1)) < 2e-3
    assert curve["one_hot"][-1] == min(curve["one_hot"])   # one-hot keeps pushing towards 1
