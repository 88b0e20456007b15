#!/usr/bin/env bash
# Another client of the tuned server during a session (not a test): a "cron job" that, every 45 s,
# keeps one core busy for 15 s with a query in the database postgres, beside a short TPROC-C
# session on the managed PostgreSQL of a fresh PGKNOB_HOME. Nothing else should run on the
# machine meanwhile. Prints, per trial, how much of its window the job overlapped, the CPU pgknob
# counted as other processes', and whether it marked the trial disturbed; then, per session, the
# disturbed trials among those the job overlapped (half their window or more) and among the
# others, and the session's noise line.
#
#   bench/other-clients-bench.sh [budget=6m] [window_s=10]
#
# PGKNOB="java -jar copy.jar" runs a fixed build (compare two builds one after the other, each
# with its own OUT); OUT=folder keeps the session (default runs/other-clients-bench-<time>).
# AGENT=1 tunes the same server as one pgknob does not manage, read through `pgknob agent` as on
# another host (--target, --agent-command): the bench starts it itself and stops it at the end.
# TUNE_OPTS="--quiet-wait 0" passes options to tune: that one keeps disturbed windows, as pgknob
# did before it ran them again (the reference for a run with the default).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v psql > /dev/null || { echo "psql is not on PATH: install it (Debian: apt-get install postgresql-client)" >&2; exit 1; }
budget=${1:-6m}
window=${2:-10}
out=${OUT:-runs/other-clients-bench-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
home=$(mktemp -d /var/tmp/pgknob-other-clients-XXXXXX)
data="$home/cluster-18/data"
job_pid=""
cleanup() {
  [ -n "$job_pid" ] && kill "$job_pid" 2> /dev/null || true
  if [ -f "$data/postmaster.pid" ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups -- \
      "$(ls -d "$home"/postgres-18*/bin | head -1)/pg_ctl" stop -m fast -D "$data" > /dev/null 2>&1 || true
  fi
  rm -rf "$home"
}
trap cleanup EXIT

# The job: waits for the session's server, then runs its bursts until killed. Each burst's start
# and end (epoch seconds) go to bursts.txt.
(
  while [ ! -f "$data/postmaster.pid" ] || [ ! -f "$home/cluster-18/password" ]; do sleep 1; done
  sleep 20
  while true; do
    port=$(sed -n 4p "$data/postmaster.pid" 2> /dev/null || true)
    if [ -n "$port" ]; then
      start=$(date +%s.%N)
      PGPASSWORD=$(cat "$home/cluster-18/password") PGOPTIONS="-c statement_timeout=15s -c max_parallel_workers_per_gather=0" \
        psql -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
        -c "SELECT count(*) FROM generate_series(1, 10000000000)" > /dev/null 2>&1 || true
      echo "$start $(date +%s.%N)" >> "$out/bursts.txt"
    fi
    sleep 30
  done
) &
job_pid=$!

pgknob=${PGKNOB:-$PWD/pgknob}
target=()
tuner_home=$home
if [ -n "${AGENT:-}" ]; then
  tuner_home=$home/tuner
  # The managed cluster's folder and binaries, then that server started by hand on a port of its
  # own: to pgknob, a server it did not start, with its figures from the agent.
  PGKNOB_HOME=$home $pgknob target > /dev/null
  port=55400
  while ss -ltn | grep -q ":$port "; do port=$((port + 1)); done
  setpriv --reuid=65534 --regid=65534 --clear-groups -- \
    "$(ls -d "$home"/postgres-18*/bin | head -1)/pg_ctl" start -w -D "$data" -l "$home/cluster-18/log/bench-server.log" -o "-p $port" > /dev/null
  target=(--target "jdbc:postgresql://127.0.0.1:$port/postgres" --user postgres
    --password-file "$home/cluster-18/password"
    --agent-command "exec $pgknob agent --data-dir '$data'" --require-agent)
fi
# The machine's load as the session starts (the session's seed is tune's default, 1).
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); seed 1"
PGKNOB_HOME=$tuner_home $pgknob tune "${target[@]}" --budget "$budget" --warehouses 1 --tracks reload \
  --rampup 2s --duration "${window}s" ${TUNE_OPTS:-} --out "$out/session" > "$out/console.log" 2>&1 \
  || echo "the session failed: see $out/console.log"
kill "$job_pid" 2> /dev/null || true
job_pid=""

python3 - "$out" << 'PY'
import datetime, glob, json, sys
out = sys.argv[1]
bursts = []
try:
    for line in open(f"{out}/bursts.txt"):
        a, b = line.split()
        bursts.append((float(a), float(b)))
except FileNotFoundError:
    pass
def epoch(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
trials = [json.loads(l) for f in glob.glob(f"{out}/session/*/trials.jsonl") for l in open(f)]
print(f"{'trial':>5} {'label':28} {'overlap':>7} {'other CPU':>9} {'disturbed':>9} {'TPS':>7}")
rows = {"overlapped": [0, 0], "quiet": [0, 0]}
repeated = 0
for t in trials:
    r, w, tm = t.get("resources") or {}, t.get("workload") or {}, t.get("timingsSeconds") or {}
    if not r.get("available") or not w:
        continue
    # the window opens after the reset, the change and the 2-s ramp-up; a window run again after
    # a disturbed one (disturbedWindow) opens after the first run, the wait for quiet and a reset
    first = epoch(t["startedAt"]) + tm.get("reset", 0) + tm.get("apply", 0) + 2
    def covered(start):
        end = start + w["windowSeconds"]
        return sum(max(0, min(end, b) - max(start, a)) for a, b in bursts) / w["windowSeconds"]
    aside = t.get("disturbedWindow")
    if aside:
        print(f"{t['trial']:>5} {'(set aside) ' + t['label'][:16]:28} {covered(first):>7.0%}"
              f" {aside['foreignCpuAvgCores']:>9.2f} {'yes':>9} {aside['tps']:>7.0f}"
              f"  then {aside['quietWaitSeconds']:.0f} s to quiet")
        start = first - 2 + tm.get("run", 0) + tm.get("quietWait", 0) + tm.get("rerunReset", 0) + 2
        repeated += 1
    else:
        start = first
    overlap = covered(start)
    cores = r.get("hostCores", 0)
    disturbed = cores > 0 and r.get("foreignCpuAvgCores", 0) > cores / 8  # ResourceSummary.DISTURBED_FOREIGN_CPU_SHARE
    key = "overlapped" if overlap >= 0.5 else "quiet"
    rows[key][0] += 1
    rows[key][1] += disturbed
    print(f"{t['trial']:>5} {t['label'][:28]:28} {overlap:>7.0%} {r.get('foreignCpuAvgCores', 0):>9.2f}"
          f" {'yes' if disturbed else 'no':>9} {w['tps']:>7.0f}")
for key, (n, d) in rows.items():
    print(f"{key} trials (the job's query ran through {'half their window or more' if key == 'overlapped' else 'less than half'}): {n}, marked disturbed: {d}")
print(f"trials that ran their window again after a disturbed one: {repeated}")
for line in open(f"{out}/console.log"):
    if line.lstrip().startswith("noise (tps):") or "cannot be told from noise" in line:
        print(line.rstrip())
PY
