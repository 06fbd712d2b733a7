#!/usr/bin/env bash
# The bundled models, trained from scratch on one GPU: two training mixes per language pair, all four
# runs side by side on the one GPU, then the mixes compared with the bundled model on the same validation
# sets (and shown on the hand-written test sets), and the better of each pair chosen by its chrF on
# Tatoeba's valid split: the human everyday sentences the models are for.  It replaces the bundled model
# only where chosen.json says "beats_bundled": more chrF there, with p < 0.05 (paired bootstrap).
#   bash scripts/gpu_train.sh MINUTES RUN_FOLDER
# Needs data/{mixA,mixB}-{enko,ende}, data/tatoeba-{enko,ende}, data/enko, data/ende (docs/training.md).
# Writes RUN_FOLDER/<run>/export (a checkpoint each) and RUN_FOLDER/chosen.json.
set -euo pipefail
MINUTES=${1:?usage: gpu_train.sh MINUTES RUN_FOLDER}
RUN=${2:?usage: gpu_train.sh MINUTES RUN_FOLDER}
PY=${PYTHON:-python3}
mkdir -p "$RUN"
for mix in mixA-enko mixB-enko mixA-ende mixB-ende; do
  $PY -m transformer_core train --data "data/$mix" --out "$RUN/$mix" --export "$RUN/$mix/export" \
    --device cuda --minutes "$MINUTES" --max-tokens 8192 --warmup 2000 \
    --valid-every 300 --save-every 300 --average 5 --bleu-sentences 500 --log-every 50 \
    > "$RUN/$mix.log" 2>&1 &
done
wait
compare() {  # PAIR HUMAN_NAME OTHER_NAME OTHER_DATA
  $PY -m transformer_core mixes --device cuda --record "$RUN/mixA-$1/export" \
    --run "bundled=checkpoints/$1" \
    --run "A: 70,000 generated + Tatoeba + $3=$RUN/mixA-$1/export" \
    --run "B: 20,000 generated + Tatoeba + $3=$RUN/mixB-$1/export" \
    --set "Tatoeba=data/tatoeba-$1" --set "$3=$4" --set "A's mix (generated + Tatoeba + $3)=data/mixA-$1" \
    --tsv "everyday set=tests/data/everyday.tsv" --tsv "classroom set=tests/data/classroom.tsv"
}
compare enko Tatoeba manuals data/enko > "$RUN/mixes-enko.log" 2>&1 &
compare ende Tatoeba "Ding + auf-deutsch" data/ende > "$RUN/mixes-ende.log" 2>&1 &
wait
$PY - "$RUN" <<'PY'
import json, sys
from pathlib import Path
from transformer_core.checkpoints.model_card import record
run = Path(sys.argv[1])
chosen = {}
for pair in ("enko", "ende"):
    mixes = json.loads((run / f"mixA-{pair}" / "export" / "training.json").read_text())["mixes"]
    bundled, *new = mixes["runs"]
    best = max(new, key=lambda row: row["scores"]["Tatoeba"]["chrf"])
    mixes["chosen"] = {"name": best["name"], "by": "chrF on Tatoeba's valid split"}
    for mix in ("mixA", "mixB"):
        record(run / f"{mix}-{pair}" / "export", "mixes", mixes)
    tatoeba = best["scores"]["Tatoeba"]
    chosen[pair] = {"folder": best["folder"], "beats_bundled": tatoeba["chrf"] > bundled["scores"]["Tatoeba"]["chrf"]
                    and tatoeba["chrf_p"] < 0.05}
    for row in mixes["runs"]:
        print(pair, row["name"], {name: (s["bleu"], s["chrf"]) for name, s in row["scores"].items()})
(run / "chosen.json").write_text(json.dumps(chosen, indent=1))
print("chosen:", chosen)
PY
