"""CPU training throughput of our Transformer against torch.nn.Transformer of the same size.

    python benchmarks/bench_train.py                  # bundled size: d_model 256, 4 heads, 3+3 layers, d_ff 1024, vocab 8000
    python benchmarks/bench_train.py --profile        # also: where each model spends its time
    python benchmarks/bench_train.py --smoke          # seconds: d_model 32, 2 heads, 1+1 layers, d_ff 64, vocab 256,
                                                      # one round of one step (out/bench/train-smoke.json)

Both models get the same batches, the same loss (label-smoothed cross-entropy, PAD ignored, through
transformer_core.training.train.batch_loss) and the same optimizer (Adam 0.9/0.98/1e-9), in train mode with
residual and embedding dropout (0.1).  The baseline wraps nn.Transformer (post-norm, ReLU,
batch_first, its extra final LayerNorms removed to match the paper's layers, attention-weight and
FFN-hidden dropout off as in ours) with the same shared embedding ×√d_model + sinusoidal PE in front
and the same shared-weight generator behind, and builds nn's masks (key padding + causal).
Rounds alternate A B, B A, …; each round times --steps optimizer steps of one model on the same
--steps batches (so rounds are comparable).  Throughput is
target tokens per second (as train.py logs it); we report medians and ours / baseline (target ≥ 0.9)
as the median of per-round ratios (robust to load drifting on a shared machine), with the ratio of the
medians and of CPU-time throughputs beside it.
Writes out/bench/train.json (with --smoke, out/bench/train-smoke.json: a check that the script runs, not a figure).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import torch
from torch import nn

from _common import add_smoke, environment, parse_args, result_name, write_result
from transformer_core.model.config import ModelConfig
from transformer_core.model.positional import sinusoidal_encoding
from transformer_core.model.transformer import Transformer
from transformer_core.training.train import batch_loss

SMOKE = dict(d_model=32, heads=2, layers=1, d_ff=64, vocab=256, max_tokens=64, rounds=1, steps=1, warmup=1)


class Baseline(nn.Module):
    """Embedding ×√d_model + PE -> torch.nn.Transformer -> x @ Eᵀ, with nn's own masks."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.d_model)
        nn.init.normal_(self.embedding.weight, std=cfg.d_model ** -0.5)
        self.register_buffer("pe", sinusoidal_encoding(cfg.max_len, cfg.d_model), persistent=False)
        self.dropout = nn.Dropout(cfg.dropout)
        self.transformer = nn.Transformer(cfg.d_model, cfg.n_heads, cfg.n_encoder_layers, cfg.n_decoder_layers,
                                          cfg.d_ff, cfg.dropout, activation="relu", batch_first=True,
                                          norm_first=False)
        self.transformer.encoder.norm = None   # post-norm layers already end in LayerNorm (as ours)
        self.transformer.decoder.norm = None
        # Same dropout as ours (§5.4: on each sublayer output and on the embeddings only): nn also drops
        # attention weights and the FFN's hidden layer, which would be extra work for the baseline.
        for layer in [*self.transformer.encoder.layers, *self.transformer.decoder.layers]:
            layer.dropout = nn.Identity()                       # FFN hidden dropout
            layer.self_attn.dropout = 0.0                       # attention-weight dropout
            if hasattr(layer, "multihead_attn"):
                layer.multihead_attn.dropout = 0.0

    def embed(self, ids):
        return self.dropout(self.embedding(ids) * math.sqrt(self.cfg.d_model) + self.pe[: ids.size(1)])

    def forward(self, src, tgt_in):
        pad = self.cfg.pad_id
        T = tgt_in.size(1)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=src.device), diagonal=1)  # True = hidden
        src_pad, tgt_pad = src == pad, tgt_in == pad
        out = self.transformer(self.embed(src), self.embed(tgt_in), tgt_mask=causal,
                               src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
                               memory_key_padding_mask=src_pad, tgt_is_causal=False)
        return out @ self.embedding.weight.t()


def make_batches(cfg: ModelConfig, n: int, max_tokens: int, seed: int):
    """n padded batches of random sentences, lengths 8..40 bucketed, at most max_tokens per side."""
    rng = random.Random(seed)
    batches = []
    for _ in range(n):
        S = rng.randint(8, 40)
        T = max(4, min(cfg.max_len, S + rng.randint(-4, 6)))
        B = max(1, max_tokens // max(S, T))
        src = torch.full((B, S), cfg.pad_id)
        tgt = torch.full((B, T + 1), cfg.pad_id)
        for b in range(B):
            s, t = rng.randint(max(3, S - 4), S), rng.randint(max(3, T - 4), T + 1)
            src[b, :s] = torch.randint(4, cfg.vocab_size, (s,))
            src[b, 0], src[b, s - 1] = cfg.bos_id, cfg.eos_id
            tgt[b, :t] = torch.randint(4, cfg.vocab_size, (t,))
            tgt[b, 0], tgt[b, t - 1] = cfg.bos_id, cfg.eos_id
        batches.append((src, tgt))
    return batches


def train_steps(model, opt, criterion, batches) -> tuple[float, float, int]:
    """One optimizer step per batch -> (wall seconds, process CPU seconds, target tokens)."""
    device = torch.device("cpu")
    tokens = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for src, tgt in batches:
        loss, n = batch_loss(model, src, tgt, criterion, device, amp=False)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        tokens += n
    return time.perf_counter() - start, time.process_time() - start_cpu, tokens


def profile(name, model, opt, criterion, batches, rows):
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    with torch_profile(activities=[ProfilerActivity.CPU]) as prof:
        train_steps(model, opt, criterion, batches)
    print(f"\n--- profile: {name} ({len(batches)} steps), by self CPU time ---")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=rows))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--d-model", type=int, default=256)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=3, help="encoder and decoder layers each")
    p.add_argument("--d-ff", type=int, default=1024)
    p.add_argument("--vocab", type=int, default=8000)
    p.add_argument("--max-tokens", type=int, default=512, help="padded tokens per side per batch")
    p.add_argument("--rounds", type=int, default=10, help="timed rounds per model (interleaved A B A B)")
    p.add_argument("--steps", type=int, default=3, help="optimizer steps (batches) per round")
    p.add_argument("--warmup", type=int, default=2, help="untimed steps per model first")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--profile", action="store_true", help="also profile a round of each model")
    p.add_argument("--out", help="JSON result (default out/bench/train.json)")
    add_smoke(p)
    args = parse_args(p, argv, SMOKE)
    torch.set_num_threads(args.threads)
    cfg = ModelConfig(vocab_size=args.vocab, d_model=args.d_model, n_heads=args.heads, n_encoder_layers=args.layers,
                      n_decoder_layers=args.layers, d_ff=args.d_ff, dropout=0.1, max_len=128)
    torch.manual_seed(args.seed)
    models = {"ours": Transformer(cfg), "nn.Transformer": Baseline(cfg)}
    n_params = {k: sum(p.numel() for p in m.parameters()) for k, m in models.items()}
    assert n_params["ours"] == n_params["nn.Transformer"], n_params
    opts = {k: torch.optim.Adam(m.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9) for k, m in models.items()}
    criterion = nn.CrossEntropyLoss(ignore_index=cfg.pad_id, label_smoothing=0.1)
    batches = make_batches(cfg, args.steps, args.max_tokens, args.seed)   # every round: the same batches
    warm = make_batches(cfg, args.warmup, args.max_tokens, args.seed + 1)
    for name, model in models.items():
        model.train()
        train_steps(model, opts[name], criterion, warm)

    rates = {k: [] for k in models}        # target tokens per wall-clock second, one per round
    cpu_rates = {k: [] for k in models}    # ... per second of this process's CPU time
    for r in range(args.rounds):
        order = list(models) if r % 2 == 0 else list(models)[::-1]     # A B, B A, … no model always first
        for name in order:
            wall, cpu, tokens = train_steps(models[name], opts[name], criterion, batches)
            rates[name].append(tokens / wall)
            cpu_rates[name].append(tokens / cpu)
        print(f"round {r + 1:>2}: " + ", ".join(f"{k} {rates[k][-1]:,.0f} tok/s" for k in models), flush=True)
    med = {k: statistics.median(v) for k, v in rates.items()}
    cpu_med = {k: statistics.median(v) for k, v in cpu_rates.items()}
    per_round = [a / b for a, b in zip(rates["ours"], rates["nn.Transformer"], strict=True)]
    # Headline: the median of per-round ratios.  Each round runs both models back to back on the same
    # batches, so a ratio compares like with like even when the load on a shared machine drifts;
    # the ratio of the two medians and the CPU-time ratio are reported next to it.
    ratio = statistics.median(per_round)
    medians_ratio = med["ours"] / med["nn.Transformer"]
    cpu_ratio = cpu_med["ours"] / cpu_med["nn.Transformer"]
    n_tokens = sum(int((t[:, 1:] != cfg.pad_id).sum()) for _, t in batches)
    print(f"\nparameters {n_params['ours']:,} each; {len(batches)} batches ({n_tokens:,} target tokens) per round, "
          f"~{args.max_tokens} padded tokens per side per batch; {torch.get_num_threads()} thread(s)")
    for k in models:
        print(f"{k:<16} median {med[k]:>9,.0f} target tokens/s   (min {min(rates[k]):,.0f}, max {max(rates[k]):,.0f}); "
              f"per CPU-second {cpu_med[k]:,.0f}")
    print(f"ratio ours / nn.Transformer = {ratio:.3f} (median of per-round ratios; ratio of medians "
          f"{medians_ratio:.3f}; CPU-time medians {cpu_ratio:.3f}); target >= 0.9: {'ok' if ratio >= 0.9 else 'MISSED'}")
    result = {"config": cfg.__dict__, "parameters": n_params["ours"], "max_tokens": args.max_tokens,
              "rounds": args.rounds, "steps_per_round": args.steps, "target_tokens_per_round": n_tokens,
              "tokens_per_s": rates, "tokens_per_cpu_s": cpu_rates, "median_tokens_per_s": med,
              "median_tokens_per_cpu_s": cpu_med, "ratio": ratio, "ratio_of_medians": medians_ratio,
              "cpu_ratio": cpu_ratio, "meets_target": ratio >= 0.9, "smoke": args.smoke, "env": environment()}
    if args.profile:
        for name, model in models.items():
            profile(name, model, opts[name], criterion, batches, rows=22)
    print(f"wrote {write_result(result_name('train', args.smoke), result, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
