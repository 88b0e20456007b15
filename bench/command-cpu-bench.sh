#!/usr/bin/env bash
# Other processes' CPU as pgknob sees it during --workload-cmd sessions (not a test): each session
# runs the real pgbench binary as its workload, the README's example (select-only, 8 clients) and
# the same with a connection per transaction (-C), on the managed PostgreSQL of a fresh PGKNOB_HOME.
# Nothing else should run on the machine meanwhile: every trial is then quiet, and any CPU pgknob
# calls "other processes'" is its own workload or the server misread. Prints, per session, the
# trials marked disturbed and the mean and highest foreign CPU of the trials' windows.
#
#   bench/command-cpu-bench.sh [window_s=10] [budget=16]
#
# PGKNOB="java -jar copy.jar" runs a fixed build (compare two builds in one run, one after the
# other); OUT=folder keeps the sessions (default runs/command-cpu-bench-<time>).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v pgbench > /dev/null || { echo "pgbench is not on PATH: install it (Debian: apt-get install postgresql-client)" >&2; exit 1; }
window=${1:-10}
budget=${2:-16}
out=${OUT:-runs/command-cpu-bench-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
home=$(mktemp -d /var/tmp/pgknob-command-cpu-XXXXXX)
trap 'rm -rf "$home"' EXIT
for variant in select connect; do
  flags="-n -c 8 -j 2 -T $window -S"
  [ "$variant" = connect ] && flags="$flags -C"
  cat > "$out/$variant.sh" << SCRIPT
#!/bin/sh
cat > /dev/null
# the tables, once, in the database pgknob names (PGDATABASE)
psql -qtAc "select 1 from pg_class where relname = 'pgbench_accounts'" | grep -q 1 \\
  || pgbench -i -q -s 10 > /dev/null 2>&1
tps=\$(pgbench $flags 2> /dev/null | awk '/^tps/ {print \$3}')
echo "{\"value\": \$tps}"
SCRIPT
  PGKNOB_HOME=$home ${PGKNOB:-./pgknob} tune --workload-cmd "sh $out/$variant.sh" --budget "$budget" \
    --out "$out/$variant" > "$out/$variant.console.log" 2>&1 || echo "session $variant failed: see $out/$variant.console.log"
done
python3 - "$out" << 'PY'
import glob, json, sys
print(f"{'session':10} {'trials':>6} {'disturbed':>9} {'foreign mean':>12} {'foreign max':>11}  (cores, of the host's)")
for variant in ("select", "connect"):
    rows = []
    for path in glob.glob(f"{sys.argv[1]}/{variant}/*/trials.jsonl"):
        for line in open(path):
            t = json.loads(line)
            r = t.get("resources") or {}
            if r.get("available"):
                rows.append((r.get("foreignCpuAvgCores", 0.0), r.get("hostCores", 0)))
    if not rows:
        print(f"{variant:10} no trials")
        continue
    cores = max(c for _, c in rows)
    disturbed = sum(1 for f, c in rows if c and f > 0.125 * c)  # ResourceSummary.DISTURBED_FOREIGN_CPU_SHARE
    mean = sum(f for f, _ in rows) / len(rows)
    print(f"{variant:10} {len(rows):6} {disturbed:9} {mean:12.2f} {max(f for f, _ in rows):11.2f}  of {cores}")
PY
