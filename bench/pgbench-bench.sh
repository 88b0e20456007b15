#!/usr/bin/env bash
# pgbench workload benchmark (not a test): pgknob's JDBC driver of pgbench's scripts against the
# real pgbench binary (PATH), same server (pgknob's managed PostgreSQL 18, default settings), scale,
# clients, ramp-up and window, each run on a freshly reset database, in many short rounds in ABBA
# order. Prints each round's TPS and ratio, then per script the median ratio with its 95% interval,
# the geometric mean with a paired-t interval, the clients' CPU per transaction and the load.
#
#   bench/pgbench-bench.sh [scale=10] [clients=4] [rampup_s=2] [window_s=5] [rounds=16] [threads=clients] [port=0] [script=both]
#
# threads is pgbench's -j: by default one thread per client, as pgknob runs them. script is
# tpcb-like, select-only or both. pgbench runs with -n -M simple (see bench/PgbenchBench.java).
#
# Uses PGKNOB_HOME (default /var/tmp/pgknob) for the cluster; the databases are pgbench_s<scale>.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v pgbench >/dev/null || { echo "pgbench is not on PATH: install it (Debian: apt-get install postgresql-client)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (it measures pgbench's CPU): install it (Debian: apt-get install time)" >&2; exit 1; }
(cd "$here" && mvn -B -q -DskipTests package >&2)
exec java -cp "$here/target/pgknob.jar" "$here/bench/PgbenchBench.java" "$@"
