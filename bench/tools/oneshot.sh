#!/bin/bash
# One-shot reports against the JSON.parse baseline, each a fresh process, in alternating rounds: what a user waits
# for, on any machine where node runs (no dependency, no build: the built CLI's out/ and bin/ are enough), such as a
# lent machine reached through a copy of the working tree.
#
# Usage, from the repository root: bash bench/tools/oneshot.sh CAPTURE…
#   ROUNDS=6            rounds of each capture (each round: the baseline, then each CLI)
#   CLIS="new=."        label=checkout pairs: each checkout's bin/heapscope.js (its out/ built) runs `report --json`
#   BASELINE=bench/data/baseline.mjs   the baseline script, as `npm run bench` bundles it
#   NODE_ARGS=          arguments for every node (say `-r ./one.cjs`)
# Prints, per capture and label, the mean, min and median wall seconds and the mean CPU seconds (user + system).
set -euo pipefail
ROUNDS=${ROUNDS:-6}
CLIS=${CLIS:-new=.}
BASELINE=${BASELINE:-bench/data/baseline.mjs}
NODE_ARGS=${NODE_ARGS:-}
[ -f "$BASELINE" ] || { echo "no baseline at $BASELINE: run npm run bench once, or set BASELINE" >&2; exit 1; }
TIMEFORMAT='%R %U %S'
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for capture in "$@"; do
  : >"$times"
  for _ in $(seq "$ROUNDS"); do
    { time node $NODE_ARGS "$BASELINE" "$capture" >/dev/null; } 2>&1 | sed 's/^/base /' >>"$times"
    for spec in $CLIS; do
      { time node $NODE_ARGS "${spec#*=}/bin/heapscope.js" report "$capture" --json >/dev/null; } 2>&1 | sed "s/^/${spec%%=*} /" >>"$times"
    done
  done
  for spec in base $CLIS; do
    label=${spec%%=*}
    grep "^$label " "$times" | sort -k2 -n | awk -v l="$label" -v f="$(basename "$capture")" \
      '{ w += $2; c += $3 + $4; n++; a[n] = $2 }
       END { printf "%-24s %-8s wall mean %.3f min %.3f med %.3f  cpu %.3f  (%d rounds)\n", f, l, w / n, a[1], a[int((n + 1) / 2)], c / n, n }'
  done
done
