#!/bin/bash
# The machine's busy and idle CPU-seconds over one command, from /proc/stat before and after (every process
# counted, Chromium's and the servers' included, which `time` misses when they are not its children):
#   bash scripts/cpu_seconds.sh make test
# prints its usual output, then: WALL <s>  BUSY <cpu-s>  IDLE <cpu-s>  rc <exit status>
read -r _ u n s i w q sq st _ < /proc/stat
t0=$(date +%s.%N); b0=$((u + n + s + q + sq + st)); i0=$((i + w))
"$@"
rc=$?
read -r _ u n s i w q sq st _ < /proc/stat
t1=$(date +%s.%N); b1=$((u + n + s + q + sq + st)); i1=$((i + w))
echo "WALL $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s  BUSY $(((b1 - b0) / 100)) cpu-s  IDLE $(((i1 - i0) / 100)) cpu-s  rc $rc"
exit $rc
