#!/usr/bin/env bash
# The pgbench bench's 10% rule on the rounds of one or more of its logs, pooled (see
# bench/PgbenchSummary.java): for runs of the same driver code in pieces of quiet machine time.
#
#   bench/pgbench-summary.sh tpcb-like|select-only LOG...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
(cd "$here" && mvn -B -q -DskipTests package >&2)
exec java -cp "$here/target/pgknob.jar" "$here/bench/PgbenchSummary.java" "$@"
