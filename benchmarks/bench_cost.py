"""The run-cost model (transformer_core/serving/cost.py) against the clock: each run kind on the bundled model's
size and on the run-cost review's crafted models (random weights, the EOS made impossible so that decoding runs
to its longest), one thread, measured seconds beside the estimate.  The estimate should err on the high side.

    python benchmarks/bench_cost.py            # writes out/bench/cost.json
    python benchmarks/bench_cost.py --smoke    # one tiny model, one run of each kind
"""
from __future__ import annotations

import argparse
import sys
import time

from _common import environment, write_result

MODELS = {   # name -> (ModelConfig fields, source pieces)
    "bundled-size": (dict(d_model=256, n_heads=4, n_encoder_layers=3, n_decoder_layers=3, d_ff=1024, max_len=128), 20),
    "deep": (dict(d_model=512, n_heads=16, n_encoder_layers=12, n_decoder_layers=12, d_ff=2048, max_len=40), 38),
    "endless": (dict(d_model=944, n_heads=1, n_encoder_layers=1, n_decoder_layers=12, d_ff=1, max_len=300), 60),
    "big-opus": (dict(vocab_size=32001, d_model=1024, n_heads=16, n_encoder_layers=6, n_decoder_layers=6, d_ff=4096,
                      max_len=512), 20),
}
SMOKE = {"tiny": (dict(d_model=32, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=64, max_len=24), 8)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="one tiny model, one run of each kind")
    parser.add_argument("--rows", type=int, default=10, help="attribution: output rows explained")
    args = parser.parse_args(argv)

    import torch

    from transformer_core.explainer import attribution, explain
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.decoding import beam_search, greedy_decode
    from transformer_core.model.transformer import Transformer
    from transformer_core.serving import cost

    torch.set_num_threads(1)
    rows = []
    for name, (spec, S) in (SMOKE if args.smoke else MODELS).items():
        cfg = ModelConfig(**{"vocab_size": 8000, "logits_bias": True, **spec})
        torch.manual_seed(0)
        model = Transformer(cfg).eval()
        with torch.no_grad():
            model.logits_bias[cfg.eos_id] = -100.0                  # decoding runs to its longest
        src = [cfg.bos_id] + [5 + i % 50 for i in range(S - 2)] + [cfg.eos_id]
        T = cost.output_len(cfg, S) - 1
        R = min(T, args.rows)
        # each lambda is called within this iteration (the loop over runs below), hence its noqa: B023
        runs = {"greedy": (lambda: greedy_decode(model, src), cost.estimate(cfg, "greedy_steps", S)),  # noqa: B023
                "beam 4": (lambda: beam_search(model, src, beam=4), cost.estimate(cfg, "steps", S, beam=4)),  # noqa: B023
                "traced pass": (lambda: explain.teacher_forced_attention(model, src, [5] * T), cost.forward(cfg, S, T + 1)),  # noqa: B023
                "saliency": (lambda: attribution.attribute(model, src, [5] * R, "saliency"),  # noqa: B023
                             cost.estimate(cfg, "attribution", S, steps=1, out_len=R)),
                "integrated gradients, 8 steps": (
                    lambda: attribution.attribute(model, src, [5] * R, "integrated_gradients", steps=8),  # noqa: B023
                    cost.estimate(cfg, "attribution", S, steps=8, out_len=R))}
        greedy_decode(model, src[:4])                               # warm up
        for kind, (run, estimate) in runs.items():
            if estimate.seconds > 120 and not args.smoke:
                continue                                           # what the app would refuse, not worth the wait
            start = time.perf_counter()
            run()
            seconds = time.perf_counter() - start
            rows.append({"model": name, "kind": kind, "S": S, "T": T, "measured_s": seconds,
                         "estimated_s": estimate.seconds, "estimated_mb": estimate.nbytes / cost.MB,
                         "gflop": estimate.flops / 1e9})
            print(f"{name:13} {kind:30} S={S:3} T={T:3}  measured {seconds:7.2f} s  estimated "
                  f"{estimate.seconds:7.2f} s ({estimate.flops / 1e9:7.1f} GFLOP, {estimate.nbytes / cost.MB:5.0f} MB)",
                  flush=True)
    path = write_result("cost-smoke" if args.smoke else "cost", {"environment": environment(), "runs": rows})
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
