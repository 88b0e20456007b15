#!/usr/bin/env bash
# The default `./pgknob tune` beside one core of busy loop for 50 s from the start of its second
# baseline (not a test): the busy loop covers baselines 2 and 3 unless pgknob waits for it. Runs
# on the managed PostgreSQL of a fresh PGKNOB_HOME; nothing else should run on the machine
# meanwhile. Prints the baselines (TPS, other processes' CPU, whether set aside and run again),
# the first "gains under" line, the noise line and the verdict.
#
#   bench/busy-baseline-bench.sh
#
# PGKNOB="java -jar copy.jar" runs a fixed build; OUT=folder keeps the session (default
# runs/busy-baseline-bench-<time>); TUNE_OPTS="--quiet-wait 0" passes options to tune.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-runs/busy-baseline-bench-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
home=$(mktemp -d /var/tmp/pgknob-busy-baseline-XXXXXX)
busy_pid=""
tune_pid=""
cleanup() {
  [ -n "$busy_pid" ] && kill "$busy_pid" 2> /dev/null || true
  [ -n "$tune_pid" ] && kill -TERM "$tune_pid" 2> /dev/null && wait "$tune_pid" 2> /dev/null || true
  PGKNOB_HOME=$home ${PGKNOB:-$PWD/pgknob} target stop > /dev/null 2>&1 || true
  rm -rf "$home"
}
trap cleanup EXIT
pgknob=${PGKNOB:-$PWD/pgknob}
PGKNOB_HOME=$home $pgknob tune ${TUNE_OPTS:-} --out "$out/session" > "$out/console.log" 2>&1 &
tune_pid=$!
# The busy loop starts with baseline 2, in a process that is not pgknob's (the bench's shell).
until grep -q '^\[2/' "$out/console.log" 2> /dev/null; do
  kill -0 "$tune_pid" 2> /dev/null || break
  sleep 0.2
done
date +%s.%N > "$out/busy.txt"
timeout 50 sh -c 'while :; do :; done' &
busy_pid=$!
wait "$tune_pid" || echo "the session failed: see $out/console.log"
tune_pid=""
python3 - "$out" << 'PY'
import glob, json, sys
out = sys.argv[1]
trials = [json.loads(l) for f in glob.glob(f"{out}/session/*/trials.jsonl") for l in open(f)]
for t in trials[:3]:
    r, w, a = t.get("resources") or {}, t.get("workload") or {}, t.get("disturbedWindow")
    first = (f"; set aside: {a['tps']:.0f} TPS beside {a['foreignCpuAvgCores']:.2f} cores,"
             f" quiet {a['quietWaitSeconds']:.0f} s later") if a else ""
    print(f"baseline {t['trial']}: {w.get('tps', 0):.0f} TPS, other processes"
          f" {r.get('foreignCpuAvgCores', 0):.2f} of {r.get('hostCores', 0)} cores{first}")
for line in open(f"{out}/console.log"):
    s = line.strip()
    if "cannot be told from noise" in s or s.startswith("noise (tps):") or s.startswith("verdict") \
            or "waiting up to" in s or s.startswith("quiet after") or "stayed busy" in s:
        print(s)
PY
