#!/bin/sh
# The optimizer benchmark: median simple regret of Bayes vs random search on noisy test functions
# (Branin 2-D, Hartmann 6-D, Styblinski-Tang 4-of-12-D, a categorical with an infeasible region;
# Hartmann-6 among 20 and 30 inputs, Levy 4 of 20, Ackley 5 of 15, a 17-knob mixed space with a
# conditional pair and failures) after 20, 40 and 80 evaluations over 30 seeds (a median over 10
# moves by half from one rounding difference: the runs are chaotic), noise sd 3% of each
# function's range, regret at the incumbent; and the time of suggest() with 20 and 40 knobs.
# Usage: bench/optimizer-bench.sh [--seeds N] [--first-seed N] [--evals N] [--noise SHARE] [--only NAME,NAME]
#        [--surrogate gp|rf] [--bayes key=value,...] [--skip-timing] [--timing-only] [--progress] [--known-noise]
#        (--only relevant-: the hard functions restricted to their relevant inputs, left out of the full suite)
set -e
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests test-compile
mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >/dev/null
exec java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  org.pgknob.bench.OptimizerBenchmark "$@"
