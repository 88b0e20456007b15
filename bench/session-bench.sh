#!/usr/bin/env bash
# The session benchmark: a recorded tuning session on the managed PostgreSQL 18 with a TPROC-C
# database clearly larger than the default shared_buffers (4 warehouses, about 410 MB), durable
# settings only, then its figures: each track's TPS gain over the defaults with a 95% interval,
# the gain over the PGTune-style configuration, and when each track reached 95% of its best.
# Usage: BUDGET=3h bench/session-bench.sh [more pgknob tune options]   (BUDGET defaults to 1h)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p runs
./pgknob tune --warehouses 4 --vus 8 --rampup 20s --duration 60s --budget "${BUDGET:-1h}" \
  --out runs "$@" | tee runs/session-bench.log
run=$(sed -n 's/^session folder: //p' runs/session-bench.log | tail -n 1)
mvn -B -q -DskipTests test-compile
mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >/dev/null
exec java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  org.pgknob.bench.SessionBenchmark "$run"
