"""The learning-rate schedule of §5.3:  lrate = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)."""


def lrate(step: int, d_model: int = 512, warmup: int = 4000, scale: float = 1.0) -> float:
    """Learning rate at a 1-based optimizer step (step 0 is treated as step 1)."""
    step = max(int(step), 1)
    return scale * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def lrate_curve(steps: int, d_model: int = 512, warmup: int = 4000, scale: float = 1.0) -> list[float]:
    """lrate for steps 1..steps, for plotting."""
    return [lrate(s, d_model, warmup, scale) for s in range(1, steps + 1)]
