#!/usr/bin/env bash
# pgbench workload benchmark (not a test): pgknob's JDBC driver of pgbench's scripts against the
# real pgbench binary (PATH), same server (pgknob's managed PostgreSQL 18, default settings), scale,
# clients, ramp-up and window, each run on a freshly reset database, the two interleaved. Prints
# both TPS figures and their ratio for tpcb-like and select-only.
#
#   bench/pgbench-bench.sh [scale=10] [clients=4] [rampup_s=5] [window_s=20] [rounds=2] [threads=1] [port=0]
#
# threads is pgbench's -j (its default 1); pgknob runs one thread per client.
#
# Uses PGKNOB_HOME (default /var/tmp/pgknob) for the cluster; the databases are pgbench_s<scale>.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v pgbench >/dev/null || { echo "pgbench is not on PATH (Debian: postgresql-client)" >&2; exit 1; }
(cd "$here" && mvn -B -q -DskipTests package >&2)
exec java -cp "$here/target/pgknob.jar" "$here/bench/PgbenchBench.java" "$@"
