#!/usr/bin/env bash
# Covariate adjustment benchmark (not a test): how much a per-run covariate narrows the validation
# intervals of `pgknob compare` folders, computed after the fact from their trials.jsonl with
# pgknob's measure.CovariateSlope and measure.AdjustedRatio (see bench/CovariateBench.java), after
# the correlation and held-out share of variance of each covariate (bench/covariate-analysis.py).
#
#   bench/covariate-bench.sh [PROBE_LOG] COMPARE_DIR...
#
# "recorded" is the disk rate pgknob's own probe logged in each trial (managed clusters, compare run
# with --disk-probe: the probe is off by default); to measure
# older folders, start bench/disk-probe-log.py DIR > probe.log (DIR on the data directory's
# filesystem) beside them. To gather, run identical configurations against each other, e.g.
#   printf "work_mem = '4100kB'\n" > same.conf
#   ./pgknob compare --config same.conf --rounds 12 --warehouses 1 --duration 10s --rampup 3s \
#     --disk-probe
# (4100kB: a setting that differs from the defaults, so the comparison is made, but does nothing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
probe=""
if [ $# -gt 0 ] && [ -f "$1" ]; then probe="$1"; shift; fi
[ $# -gt 0 ] || { echo "usage: bench/covariate-bench.sh [PROBE_LOG] COMPARE_DIR..." >&2; exit 2; }
(cd "$here" && mvn -B -q -DskipTests package >&2)
python3 "$here/bench/covariate-analysis.py" ${probe:+--probe "$probe"} "$@"
for dir in "$@"; do
  echo "== $dir"
  java -cp "$here/target/pgknob.jar" "$here/bench/CovariateBench.java" cpu "$dir"
  java -cp "$here/target/pgknob.jar" "$here/bench/CovariateBench.java" recorded "$dir"
  [ -z "$probe" ] || java -cp "$here/target/pgknob.jar" "$here/bench/CovariateBench.java" disk "$dir" "$probe"
done
