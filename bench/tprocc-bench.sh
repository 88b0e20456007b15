#!/usr/bin/env bash
# TPROC-C benchmark (not a test): builds a fresh TPROC-C database in pgknob's managed PostgreSQL 18
# (default settings), runs the driver and reports load time per warehouse, NOPM, TPM, the driver's
# CPU per 1,000 transactions and its share of driver + server CPU.
#
#   bench/tprocc-bench.sh [warehouses=4] [users=8] [rampup_s=20] [window_s=60] [port=0]
#
# Uses PGKNOB_HOME (default /var/tmp/pgknob) for the cluster; the database is tprocc_bench.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
(cd "$here" && mvn -B -q -DskipTests package >&2)
exec java -cp "$here/target/pgknob.jar" "$here/bench/TproccBench.java" "$@"
