#!/usr/bin/env python3
"""Medians and per-seed comparisons from the optimizer benchmark's --progress output.

Usage: bench/optimizer-compare.py BASE.progress [VARIANT.progress ...]
For each file and function: the seeds, the ratio of medians bayes / random at each checkpoint and
the median of per-seed ratios at 40 evaluations, with a 90% bootstrap interval of the ratio at 40
(seeds resampled, each seed's bayes and random kept together; 2,000 resamples, fixed seed) and the
share of resamples at or under the issue's goal (0.5 on hartmann-6-of-30d, 0.3 elsewhere); for
each variant, the seeds (shared with BASE)
on which its regret at 40 evaluations was below and above BASE's, the median per-seed log ratio
of the regrets and their standard deviation (how much a change redraws each seed's regret), and
a two-sided Wilcoxon signed-rank test of the paired log regrets (with SciPy).
Several files of one setting (other seeds) can be joined with cat first: a run is deterministic
for a seed. A function restricted to another's relevant inputs (relevant-NAME, from --only
relevant-) is also compared with NAME's random search in BASE: random search's regret does not
depend on the inert inputs, so that ratio is the one the goal reads for NAME.
"""
import collections
import math
import random
import re
import statistics
import sys

LINE = re.compile(r"seed (\S+) (\d+) bayes \[([^\]]*)\] random \[([^\]]*)\]")


def load(path):
    runs = collections.defaultdict(dict)
    for line in open(path):
        m = LINE.match(line)
        if m:
            bayes = [float(v) for v in m.group(3).split(",")]
            random = [float(v) for v in m.group(4).split(",")]
            runs[m.group(1)][int(m.group(2))] = (bayes, random)
    return runs


def summary(path, runs):
    print(path)
    for function, seeds in runs.items():
        rows = [seeds[s] for s in sorted(seeds)]
        ratios = []
        for c in range(len(rows[0][0])):
            # a checkpoint some seeds did not reach (NaN) has no median: sorting NaN is undefined
            if any(v != v for row in rows for v in (row[0][c], row[1][c])):
                ratios.append("nan")
                continue
            b = statistics.median(r[0][c] for r in rows)
            r = statistics.median(r[1][c] for r in rows)
            ratios.append("nan" if r == 0 else f"{b / r:.3f}")
        per_seed = statistics.median(r[0][1] / r[1][1] for r in rows if r[1][1] > 0)
        print(f"  {function:26s} seeds {len(rows):2d}  ratio at 20/40/80 {' / '.join(ratios)}"
              f"  median per-seed ratio at 40 {per_seed:.3f}{interval(function, rows)}")


def goal(function):
    """Issue 17's goal for the ratio at 40 evaluations."""
    return 0.5 if function.startswith("hartmann-6-of-30") else 0.3


def interval(function, rows, resamples=2000):
    """The 90% bootstrap interval of the ratio of medians at 40 and the share at or under goal."""
    pairs = [(r[0][1], r[1][1]) for r in rows if r[0][1] == r[0][1] and r[1][1] == r[1][1]]
    if len(pairs) < 2:
        return ""
    draw = random.Random(0)
    ratios = []
    for _ in range(resamples):
        sample = [pairs[draw.randrange(len(pairs))] for _ in pairs]
        r = statistics.median(p[1] for p in sample)
        if r > 0:
            ratios.append(statistics.median(p[0] for p in sample) / r)
    if not ratios:
        return ""
    ratios.sort()
    low = ratios[int(0.05 * (len(ratios) - 1))]
    high = ratios[int(0.95 * (len(ratios) - 1))]
    under = sum(v <= goal(function) for v in ratios) / len(ratios)
    return f"  90% {low:.3f} to {high:.3f}, {under:.0%} at or under {goal(function)}"


def against_parent(runs, base):
    """For each relevant-NAME function: its bayes median at 40 over NAME's random median in base."""
    for function, seeds in runs.items():
        parent = base.get(function.removeprefix("relevant-"))
        if function.startswith("relevant-") and parent:
            b = statistics.median(r[0][1] for r in seeds.values())
            r = statistics.median(r[1][1] for r in parent.values())
            print(f"  {function:26s} bayes at 40 over {function.removeprefix('relevant-')}'s random"
                  f" ({len(parent)} seeds): {b / r:.3f}")


def main(paths):
    base = load(paths[0])
    summary(paths[0], base)
    for path in paths[1:]:
        variant = load(path)
        summary(path, variant)
        against_parent(variant, base)
        for function, seeds in variant.items():
            # a relevant-NAME function is paired with NAME's seeds
            reference = base.get(function) or base.get(function.removeprefix("relevant-"), {})
            shared = sorted(set(seeds) & set(reference))
            better = sum(seeds[s][0][1] < reference[s][0][1] for s in shared)
            worse = sum(seeds[s][0][1] > reference[s][0][1] for s in shared)
            print(f"  {function:26s} against {paths[0]} on {len(shared)} seeds:"
                  f" better on {better}, worse on {worse}{paired(seeds, reference, shared)}")


def paired(variant, base, shared):
    """The median log ratio of the regrets at 40 and the Wilcoxon p, over seeds both ran."""
    logs = [math.log(variant[s][0][1] / base[s][0][1]) for s in shared
            if variant[s][0][1] > 0 and base[s][0][1] > 0]
    if not logs:
        return ""
    out = f", median log ratio {statistics.median(logs):+.2f}"
    if len(logs) > 1:
        out += f" (sd {statistics.stdev(logs):.2f})"
    try:
        from scipy.stats import wilcoxon
    except ImportError:
        return out
    if any(v != 0 for v in logs):
        out += f", Wilcoxon p {wilcoxon(logs).pvalue:.3f}"
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
