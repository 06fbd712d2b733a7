"""Decoding latency on the CPU, one thread: greedy and beam-4 translation of a 20-token source sentence,
and one traced forward pass (what the app runs to draw attention).

    python benchmarks/bench_decode.py --checkpoint checkpoints/ende
    python benchmarks/bench_decode.py --random          # random weights, the bundled model's size

Targets: greedy ≤ 30 ms, beam 4 ≤ 120 ms, traced forward ≤ 15 ms (medians).  Prints median and p90
of the wall clock over --repeats timed runs (after --warmup untimed ones), and the median CPU time of
the process (which leaves out time other processes held the core), and writes out/bench/decode.json.

With --random the EOS embedding row is zeroed (its logit is then exactly 0, below the largest of 8000
random logits) so that every run decodes exactly --out-len tokens, like a translation of that length.
"""
from __future__ import annotations

import argparse
import random

from _common import environment, summary, time_calls, write_result

import torch

from transformer_core.checkpoint import load_checkpoint
from transformer_core.config import ModelConfig
from transformer_core.decoding import beam_search, greedy_decode
from transformer_core.model import Transformer

SENTENCE = ("The quick brown fox jumps over the lazy dog while the children watch from the old "
            "wooden bridge near the river.")
TARGETS_MS = {"greedy": 30.0, "beam4": 120.0, "trace": 15.0}  # medians, wall clock


def bundled_size_model(seed: int) -> Transformer:
    torch.manual_seed(seed)
    cfg = ModelConfig(vocab_size=8000, d_model=256, n_heads=4, n_encoder_layers=3, n_decoder_layers=3,
                      d_ff=1024, dropout=0.1, max_len=128)
    model = Transformer(cfg).eval()
    with torch.no_grad():
        model.embedding.weight[cfg.eos_id] = 0.0
    return model


def source_ids(model: Transformer, length: int, tokenizer=None, seed: int = 0) -> list[int]:
    """BOS + (length - 2) pieces + EOS."""
    cfg = model.cfg
    if tokenizer is not None:
        pieces = tokenizer.encode(SENTENCE)
        while len(pieces) < length - 2:
            pieces += pieces
        body = pieces[:length - 2]
    else:
        rng = random.Random(seed)
        body = [rng.randrange(4, cfg.vocab_size) for _ in range(length - 2)]
    return [cfg.bos_id, *body, cfg.eos_id]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--checkpoint", help="checkpoint folder")
    g.add_argument("--random", action="store_true", help="random weights, d_model 256, 4 heads, 3+3 layers, "
                                                          "d_ff 1024, vocab 8000")
    p.add_argument("--src-len", type=int, default=20, help="source tokens, BOS and EOS included")
    p.add_argument("--out-len", type=int, help="max output tokens (default: --src-len with --random, "
                                               "else the model's default)")
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--repeats", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="JSON result (default out/bench/decode.json)")
    args = p.parse_args(argv)
    if args.repeats < 20:
        p.error("--repeats must be at least 20")
    torch.set_num_threads(args.threads)
    torch.set_grad_enabled(False)

    if args.random:
        model, tokenizer, what = bundled_size_model(args.seed), None, "random weights"
        out_len = args.out_len or args.src_len
    else:
        ckpt = load_checkpoint(args.checkpoint)
        model, tokenizer, what = ckpt.model, ckpt.tokenizer, str(ckpt.path)
        out_len = args.out_len
    src = source_ids(model, args.src_len, tokenizer, args.seed)

    greedy_out = greedy_decode(model, src, max_len=out_len)
    beam_out = beam_search(model, src, beam=args.beam, max_len=out_len)
    tgt_in = torch.tensor([[model.cfg.bos_id, *greedy_out.ids]])
    src_t = torch.tensor([src])
    cases = {
        "greedy": lambda: greedy_decode(model, src, max_len=out_len),
        f"beam{args.beam}": lambda: beam_search(model, src, beam=args.beam, max_len=out_len),
        "trace": lambda: model.trace(src_t, tgt_in),
        "trace_full": lambda: model.trace(src_t, tgt_in, full=True),
        "forward_untraced": lambda: model(src_t, tgt_in),
    }
    result = {"model": what, "parameters": model.num_parameters(), "config": model.cfg.__dict__,
              "src_len": len(src), "greedy_out_len": len(greedy_out.ids), "beam_out_len": len(beam_out.ids),
              "trace_tgt_len": tgt_in.size(1), "repeats": args.repeats, "warmup": args.warmup,
              "env": environment(), "ms": {}}
    print(f"{what}: {result['parameters']:,} parameters; source {len(src)} tokens, greedy output "
          f"{len(greedy_out.ids)} tokens, beam {args.beam} output {len(beam_out.ids)} tokens; "
          f"{torch.get_num_threads()} thread(s)")
    print(f"{'case':<18}{'median ms':>10}{'p90 ms':>10}{'target':>9}   {'CPU median ms':>13}")
    for name, fn in cases.items():
        wall, cpu = time_calls(fn, args.repeats, args.warmup)
        stats = {k: v * 1000 for k, v in summary(wall).items() if k != "n"}
        stats["cpu_median"] = summary(cpu)["median"] * 1000
        target = TARGETS_MS.get(name)
        stats["target_ms"] = target
        stats["meets_target"] = None if target is None else stats["median"] <= target
        result["ms"][name] = stats
        verdict = "" if target is None else f"{target:>7.0f}ms {'ok' if stats['meets_target'] else 'MISSED'}"
        print(f"{name:<18}{stats['median']:>10.2f}{stats['p90']:>10.2f}{verdict:>9}   {stats['cpu_median']:>13.2f}")
    print(f"wrote {write_result('decode', result, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
