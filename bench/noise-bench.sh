#!/usr/bin/env bash
# The noise benchmark: tuning sessions through --workload-cmd against a synthetic workload of known
# optimum (bench/noise-workload.py: slow drift of +-12%, 7% noise, 5% of runs 30% low), then:
# the share of the achievable (noise-free) gain each track's pick captured, the coverage of the
# reported 95% intervals of the true ratio, and false claims in an A/A mode where every
# configuration performs the same.
# Usage: bench/noise-bench.sh [seeds=10] [budget=40] [aa_seeds=5]
# NOISE_DISTURB=1: each 30% drop has a real cause, a busy loop outside pgknob through the run's
# window, so that pgknob marks those runs disturbed by other processes and its rules for them act.
# The sessions configure the managed PostgreSQL for real (reloads, restarts): about 4 minutes each
# at 40 trials. PGKNOB="java -jar copy.jar" runs a fixed build.
# Several copies may run on one OUT folder at once (each with its own PGKNOB_HOME, so each has its
# own server): a session another live copy is running is left to it.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
budget=${2:-40}
aa_seeds=${3:-5}
out=${OUT:-runs/noise-bench-$(date -u +%Y%m%dT%H%M%S)}   # OUT=an earlier folder: finish it
mkdir -p "$out"
# The interpreter itself, not a version manager's shim: a shim's start costs more than the
# workload's own run on a loaded machine, once per trial.
python=$(python3 -c 'import sys; print(sys.executable)')
session() { # mode seed
  local dir="$out/$1-$2" lock="$out/.$1-$2.lock"
  if compgen -G "$dir/*/summary.json" > /dev/null; then return; fi   # done in an earlier run
  if ! mkdir "$lock" 2> /dev/null; then
    if kill -0 "$(cat "$lock/pid" 2> /dev/null || echo 0)" 2> /dev/null; then return; fi   # live copy
    rm -rf "$lock" && mkdir "$lock" || return   # left by a run that stopped, or taken meanwhile
  fi
  echo "$BASHPID" > "$lock/pid"
  rm -rf "$dir"
  mkdir -p "$dir/state"
  NOISE_SEED=$2 NOISE_STATE=$(cd "$dir/state" && pwd) NOISE_AA=$([ "$1" = aa ] && echo 1 || echo 0) \
    ${PGKNOB:-./pgknob} tune --workload-cmd "$python $(pwd)/bench/noise-workload.py" --budget "$budget" \
    --seed "$2" --out "$dir" > "$dir/console.log" 2>&1 || echo "session $1 $2 failed: see $dir/console.log"
  rm -rf "$lock"
}
# A/A sessions interleaved with the others, so a benchmark cut short still has both kinds.
for s in $(seq 1 $((seeds > aa_seeds ? seeds : aa_seeds))); do
  if [ "$s" -le "$seeds" ]; then session tune "$s"; fi
  if [ "$s" -le "$aa_seeds" ]; then session aa "$s"; fi
done
python3 bench/noise-summary.py "$out"
