"""Decoding latency on the CPU, one thread: greedy and beam-4 translation of a 20-token source sentence,
and one traced forward pass (what the app runs to draw attention).

    python benchmarks/bench_decode.py --checkpoint checkpoints/ende
    python benchmarks/bench_decode.py --random          # random weights, the bundled model's size

    python benchmarks/bench_decode.py --random --baseline HEAD~3   # before/after, interleaved

    python benchmarks/bench_decode.py --smoke       # seconds: checkpoints/ende (unless --checkpoint or --random),
                                                    # an 8-token source, 1 timed run of each case, no warm-up

Targets: greedy ≤ 30 ms, beam 4 ≤ 120 ms, traced forward ≤ 15 ms (medians).  Prints median and p90
of the wall clock over --repeats timed runs (after --warmup untimed ones), and the median CPU time of
the process (which leaves out time other processes held the core), and writes out/bench/decode.json
(with --smoke, out/bench/decode-smoke.json: a check that the script runs, not a figure).

The reported case is "a 20-token sentence": a source of 20 tokens (BOS + 18 pieces + EOS) and an output
of at most --out-len tokens (default: the source length, 20).  With --random the EOS embedding row is
zeroed (its logit is then exactly 0, below the largest of 8000 random logits) so that every run decodes
exactly --out-len tokens, like a translation of that length.  With --checkpoint the source is SENTENCE
(18 pieces with the bundled tokenizer; cut or repeated to fit another's) and the output stops at EOS or
at --out-len, whichever comes first: an under-trained model that never emits EOS would otherwise run to
the default max_len (2·20 + 10 = 50 tokens).  The output lengths are printed and stored.

--baseline REV also times transformer_core as of git revision REV (the same weights, loaded into that
revision's model), interleaved with the working tree's run by run, and checks that both decode the same
tokens; greedy_floor (see matvec_floor) is timed for the working tree only.
"""
from __future__ import annotations

import argparse
import importlib
import io
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import torch
import torch.nn.functional as F

from _common import ROOT, add_smoke, environment, parse_args, result_name, summary, time_interleaved, write_result
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.model import decoding
from transformer_core.model.config import ModelConfig
from transformer_core.model.decoding import beam_search, greedy_decode
from transformer_core.model.transformer import Transformer

SENTENCE = "The old man walked slowly to the station because the last train was late again."
TARGETS_MS = {"greedy": 30.0, "beam4": 120.0, "trace": 15.0}  # medians, wall clock
SMOKE = dict(checkpoint=str(ROOT / "checkpoints" / "ende"), src_len=8, repeats=1, warmup=0)


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


def matvec_floor(model: Transformer, steps: int) -> None:
    """What `steps` greedy steps cannot avoid, alone: every decoder matrix-vector product of a step (self-
    attention W_q W_k W_v W_o, cross-attention W_q W_o, the FFN) and the output projection, on the
    model's own weights, with none of the model code around them (the output projection as greedy
    decoding computes it: x times its kept copy of Eᵀ).  It reads the same ~19 MB of weights
    per step, so on a busy machine (caches shared with other processes) it shows how much of `greedy`
    is memory traffic rather than our code."""
    d, d_ff = model.cfg.d_model, model.cfg.d_ff
    x, h = torch.randn(1, d), torch.randn(1, d_ff)
    linears = [m for layer in model.decoder for m in (layer.self_attn.w_q, layer.self_attn.w_k, layer.self_attn.w_v,
               layer.self_attn.w_o, layer.cross_attn.w_q, layer.cross_attn.w_o, layer.ffn.linear1, layer.ffn.linear2)]
    for _ in range(steps):
        for lin in linears:
            F.linear(h if lin.in_features == d_ff else x, lin.weight, lin.bias)
        x @ decoding.embedding_t(model)


def baseline_modules(rev: str, names: tuple[str, ...] = ("model.transformer", "model.decoding", "model.config")):
    """transformer_core as of git revision rev, imported as the package baseline_core from a temporary
    folder.  -> its modules of those names (today's names; a revision from before transformer_core had
    rooms holds them flat: model.transformer was model.py, explainer.attribution attribution.py)"""
    archive = subprocess.run(["git", "archive", rev, "transformer_core"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="bench-baseline-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "transformer_core").rename(folder / "baseline_core")
    sys.path.insert(0, str(folder))
    flat = (folder / "baseline_core" / "model.py").is_file()
    return tuple(importlib.import_module("baseline_core." + ({"model.transformer": "model"}.get(m, m.rpartition(".")[2])
                                                             if flat else m)) for m in names)


def decode_cases(model, decoding, src: list[int], out_len: int, beam: int, tgt_in: torch.Tensor) -> dict:
    src_t = torch.tensor([src])
    return {
        "greedy": lambda: decoding.greedy_decode(model, src, max_len=out_len),
        f"beam{beam}": lambda: decoding.beam_search(model, src, beam=beam, max_len=out_len),
        "trace": lambda: model.trace(src_t, tgt_in),
        "trace_full": lambda: model.trace(src_t, tgt_in, full=True),
        "forward_untraced": lambda: model(src_t, tgt_in),
    }


def ms_stats(wall: list[float], cpu: list[float]) -> dict:
    stats = {k: v * 1000 for k, v in summary(wall).items() if k != "n"}
    stats["cpu_median"] = summary(cpu)["median"] * 1000
    return stats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group()          # one of them is required (--smoke: the bundled checkpoints/ende)
    g.add_argument("--checkpoint", help="checkpoint folder")
    g.add_argument("--random", action="store_true", help="random weights, d_model 256, 4 heads, 3+3 layers, "
                                                          "d_ff 1024, vocab 8000")
    p.add_argument("--src-len", type=int, default=20, help="source tokens, BOS and EOS included")
    p.add_argument("--out-len", type=int, help="max output tokens (default: --src-len)")
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--repeats", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--baseline", metavar="REV", help="also time transformer_core of this git revision, interleaved")
    p.add_argument("--out", help="JSON result (default out/bench/decode.json)")
    add_smoke(p)
    args = parse_args(p, argv, SMOKE)
    if not (args.checkpoint or args.random):
        p.error("one of the arguments --checkpoint --random is required")
    if args.repeats < 20 and not args.smoke:
        p.error("--repeats must be at least 20")
    torch.set_num_threads(args.threads)
    torch.set_grad_enabled(False)

    if args.random:
        model, tokenizer, what = bundled_size_model(args.seed), None, "random weights"
    else:
        ckpt = load_checkpoint(args.checkpoint)
        model, tokenizer, what = ckpt.model, ckpt.tokenizer, str(ckpt.path)
    out_len = args.out_len or args.src_len
    src = source_ids(model, args.src_len, tokenizer, args.seed)

    greedy_out = greedy_decode(model, src, max_len=out_len)
    beam_out = beam_search(model, src, beam=args.beam, max_len=out_len)
    tgt_in = torch.tensor([[model.cfg.bos_id, *greedy_out.ids]])
    cases = decode_cases(model, decoding, src, out_len, args.beam, tgt_in)
    cases["greedy_floor"] = lambda: matvec_floor(model, len(greedy_out.ids) + 1)
    result = {"model": what, "parameters": model.num_parameters(), "config": model.cfg.__dict__,
              "src_len": len(src), "src_pieces": tokenizer.pieces(src) if tokenizer is not None else None,
              "out_len_cap": out_len, "greedy_out_len": len(greedy_out.ids), "beam_out_len": len(beam_out.ids),
              "trace_tgt_len": tgt_in.size(1), "repeats": args.repeats, "warmup": args.warmup,
              "smoke": args.smoke, "env": environment(), "ms": {}}
    base_cases = {}
    if args.baseline:
        b_model, b_decoding, b_config = baseline_modules(args.baseline)
        base = b_model.Transformer(b_config.ModelConfig(**model.cfg.__dict__)).eval()
        base.load_state_dict(model.state_dict())
        base_cases = decode_cases(base, b_decoding, src, out_len, args.beam, tgt_in)
        same = {"greedy": b_decoding.greedy_decode(base, src, max_len=out_len).ids == greedy_out.ids,
                "beam": b_decoding.beam_search(base, src, beam=args.beam, max_len=out_len).ids == beam_out.ids}
        result["baseline"] = {"rev": args.baseline, "same_tokens": same, "ms": {}}
        print(f"baseline {args.baseline}: same tokens as the working tree: {same}")
    print(f"{what}: {result['parameters']:,} parameters; source {len(src)} tokens, greedy output "
          f"{len(greedy_out.ids)} tokens, beam {args.beam} output {len(beam_out.ids)} tokens; "
          f"{torch.get_num_threads()} thread(s)")
    head = f"{'case':<18}{'median ms':>10}{'p90 ms':>10}{'target':>14}{'CPU median ms':>15}"
    print(head + (f"{'baseline ms':>13}{'baseline CPU':>14}{'CPU ratio':>11}" if base_cases else ""))
    for name, fn in cases.items():
        fns = {"new": fn} if name not in base_cases else {"new": fn, "baseline": base_cases[name]}
        timed = time_interleaved(fns, args.repeats, args.warmup)
        stats = ms_stats(*timed["new"])
        target = TARGETS_MS.get(name)
        stats["target_ms"] = target
        stats["meets_target"] = None if target is None else stats["median"] <= target
        result["ms"][name] = stats
        verdict = "" if target is None else f"{target:.0f}ms {'ok' if stats['meets_target'] else 'MISSED'}"
        line = f"{name:<18}{stats['median']:>10.2f}{stats['p90']:>10.2f}{verdict:>14}{stats['cpu_median']:>15.2f}"
        if "baseline" in timed:
            b = result["baseline"]["ms"][name] = ms_stats(*timed["baseline"])
            line += f"{b['median']:>13.2f}{b['cpu_median']:>14.2f}{stats['cpu_median'] / b['cpu_median']:>11.2f}"
        print(line)
    print(f"wrote {write_result(result_name('decode', args.smoke), result, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
