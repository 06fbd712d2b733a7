#!/usr/bin/env bash
# Round 24: the bundled models trained again from random weights on one GPU, on the data as it stands
# (the classroom generator of b4aa241, Tatoeba with LASER's pairs, the manuals, Ding and auf-deutsch):
# three English->Korean runs and one English->German run side by side, then each pair's runs compared
# on the same sets (`mixes`: Tatoeba's and the manuals' or Ding's valid splits, the hand-written test
# sets), and the English->Korean run with the best chrF on Tatoeba's valid split chosen.  Whether a run
# replaces a bundled model is decided afterwards, on the CPU, by the round rules of docs/training.md (the
# bundled models are not on the GPU machine).  docs/training.md, round 24, says how it ran on a lent GPU.
#   bash scripts/gpu_scratch.sh MINUTES RUN_FOLDER [DEVICE]
# Needs data/mixD-{enko,ende}, data/mixF-enko, data/tatoeba-{enko,ende}, data/enko, data/ende, data/auf.
# Writes RUN_FOLDER/<run>/export (a checkpoint each), RUN_FOLDER/mixes-*.log and RUN_FOLDER/chosen.json.
set -euo pipefail
MINUTES=${1:?usage: gpu_scratch.sh MINUTES RUN_FOLDER [DEVICE]}
RUN=${2:?usage: gpu_scratch.sh MINUTES RUN_FOLDER [DEVICE]}
DEVICE=${3:-cuda}
PY=${PYTHON:-python3}
mkdir -p "$RUN"
train() {  # NAME DATA [TRAIN ARGUMENTS]
  local name=$1 data=$2
  shift 2
  $PY -m transformer_core train --data "$data" --out "$RUN/$name" --export "$RUN/$name/export" \
    --device "$DEVICE" --minutes "$MINUTES" --max-tokens 8192 --warmup 2000 \
    --valid-every 500 --save-every 500 --average 5 --bleu-sentences 500 --log-every 50 "$@" \
    > "$RUN/$name.log" 2>&1
}
train enko-D data/mixD-enko &
train enko-F data/mixF-enko &
train enko-F-drop3 data/mixF-enko --dropout 0.3 &
train ende-D data/mixD-ende &
wait
TSVS=(--tsv "everyday set=tests/data/everyday.tsv" --tsv "classroom set=tests/data/classroom.tsv")
$PY -m transformer_core mixes --device "$DEVICE" --record "$RUN/enko-D/export" \
  --run "D: 40,000 generated + Tatoeba + manuals, the bundled tokenizer=$RUN/enko-D/export" \
  --run "F: the same mix, a tokenizer of its own=$RUN/enko-F/export" \
  --run "F, dropout 0.3=$RUN/enko-F-drop3/export" \
  --set "Tatoeba=data/tatoeba-enko" --set "manuals=data/enko" "${TSVS[@]}" \
  > "$RUN/mixes-enko.log" 2>&1 &
$PY -m transformer_core mixes --device "$DEVICE" --record "$RUN/ende-D/export" \
  --run "D: 40,000 generated + Tatoeba + Ding + auf-deutsch=$RUN/ende-D/export" \
  --set "Tatoeba=data/tatoeba-ende" --set "Ding + auf-deutsch=data/ende" "${TSVS[@]}" \
  > "$RUN/mixes-ende.log" 2>&1 &
wait
$PY - "$RUN" <<'PY'
import json, sys
from pathlib import Path
run = Path(sys.argv[1])
mixes = json.loads((run / "enko-D" / "export" / "training.json").read_text())["mixes"]
best = max(mixes["runs"], key=lambda row: row["scores"]["Tatoeba"]["chrf"])
chosen = {"enko": best["folder"], "ende": str(run / "ende-D" / "export"), "by": "chrF on Tatoeba's valid split"}
for row in mixes["runs"]:
    print("enko", row["name"], {name: (s["bleu"], s["chrf"]) for name, s in row["scores"].items()})
(run / "chosen.json").write_text(json.dumps(chosen, indent=1))
print("chosen:", chosen)
PY
