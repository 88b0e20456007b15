#!/usr/bin/env bash
# The noise benchmark: tuning sessions through --workload-cmd against a synthetic workload of known
# optimum (bench/noise-workload.py: slow drift of +-12%, 7% noise, 5% of runs 30% low), then:
# the share of the achievable (noise-free) gain each track's pick captured, the coverage of the
# reported 95% intervals of the true ratio, and false claims in an A/A mode where every
# configuration performs the same.
# Usage: bench/noise-bench.sh [seeds=10] [budget=40] [aa_seeds=5]
# The sessions configure the managed PostgreSQL for real (reloads, restarts): about 4 minutes each
# at 40 trials. PGKNOB="java -jar copy.jar" runs a fixed build.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
budget=${2:-40}
aa_seeds=${3:-5}
out=${OUT:-runs/noise-bench-$(date -u +%Y%m%dT%H%M%S)}   # OUT=an earlier folder: finish it
mkdir -p "$out"
session() { # mode seed
  local dir="$out/$1-$2"
  if compgen -G "$dir/*/summary.json" > /dev/null; then return; fi   # done in an earlier run
  rm -rf "$dir"
  mkdir -p "$dir/state"
  NOISE_SEED=$2 NOISE_STATE=$(pwd)/$dir/state NOISE_AA=$([ "$1" = aa ] && echo 1 || echo 0) \
    ${PGKNOB:-./pgknob} tune --workload-cmd "python3 $(pwd)/bench/noise-workload.py" --budget "$budget" \
    --seed "$2" --out "$dir" > "$dir/console.log" 2>&1 || echo "session $1 $2 failed: see $dir/console.log"
}
# A/A sessions interleaved with the others, so a benchmark cut short still has both kinds.
for s in $(seq 1 $((seeds > aa_seeds ? seeds : aa_seeds))); do
  if [ "$s" -le "$seeds" ]; then session tune "$s"; fi
  if [ "$s" -le "$aa_seeds" ]; then session aa "$s"; fi
done
python3 bench/noise-summary.py "$out"
