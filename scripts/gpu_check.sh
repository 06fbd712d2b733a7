#!/usr/bin/env bash
# Does training run on this GPU, and how fast?  One script, at most 5 minutes on one GPU:
#   bash scripts/gpu_check.sh DATA [RUN_FOLDER]        # DATA: a folder from python -m transformer_core data
#   1. 2 minutes of training with --compile (dynamic shapes: every batch shape shares one graph) and bf16
#      autocast, then the export: the test split scored on the GPU with batched beam 4;
#   2. torchrun with one process (DDP over NCCL): 50 steps, validation and the export.
# It prints tokens/s (the median of the log lines, and the first line, which holds the compile), the
# steps and the test scores of both.  PYTHON picks the interpreter (default python3).
set -euo pipefail
DATA=${1:?usage: gpu_check.sh DATA [RUN_FOLDER]}
RUN=${2:-runs/gpu-check}
PY=${PYTHON:-python3}
rm -rf "$RUN"
common=(--data "$DATA" --device cuda --max-tokens 8192 --warmup 2000 --bleu-sentences 300)
t0=$(date +%s)
$PY -m transformer_core train "${common[@]}" --out "$RUN/compile" --minutes 2 --compile \
  --log-every 100 --valid-every 100000 --save-every 100000
t1=$(date +%s)
$PY -m torch.distributed.run --standalone --nproc_per_node=1 -m transformer_core train "${common[@]}" \
  --out "$RUN/ddp" --steps 50 --log-every 10 --valid-every 50 --save-every 50
t2=$(date +%s)
$PY - "$RUN" "$((t1 - t0))" "$((t2 - t1))" <<'PY'
import json, statistics, sys
from pathlib import Path
run, walls = Path(sys.argv[1]), sys.argv[2:]
for name, wall in zip(("compile", "ddp"), walls):
    log = [json.loads(line) for line in (run / name / "train_log.jsonl").read_text().splitlines()]
    speeds = [r["tokens_per_s"] for r in log if "tokens_per_s" in r]
    training = json.loads((run / name / "checkpoint" / "training.json").read_text())
    test = training["test"]
    print(f"{name}: {training['steps']} steps in {training['wall_time_s']} s of training ({wall} s wall with "
          f"start-up and export), tokens/s median {statistics.median(speeds[1:] or speeds):,.0f} "
          f"(first log line {speeds[0]:,.0f}), test BLEU {test['bleu']} chrF {test['chrf']} "
          f"(beam {test['beam']}, {test['n']} sentences), {training['hardware']}")
PY
