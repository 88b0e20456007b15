#!/usr/bin/env python3
"""A/A validation that stops early: how often does the final 95% interval exclude 1?

Validation runs rounds of the defaults and k candidates (all equal here: 7% log-normal noise, 5% of
runs 30% low) and, from the third round on, stops as soon as every candidate's ratio to the
defaults is decided: its interval excludes 1, or its 95% interval is within +-3%. The intervals
rest on the pairs' own noise pooled over the candidates once that gives 4 degrees of freedom
(measure.PairNoise, 4 / (k + 3) of the nominal ones), else on a session noise of 7% with 13.
`interim 0.95` stops on a 95% interval excluding 1 (pgknob until 2026-12-02); `interim 0.999` needs
a 99.9% one at the looks before the last (Haybittle and Peto; session.ValidationRounds now). The
claim counted is the reported 95% interval excluding 1 when validation ends.
Usage: python3 bench/sequential-stop-sim.py [sessions=4000]   (numpy and scipy)
"""
import sys

import numpy as np
from scipy import stats

SESSIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 4000


def simulate(rng, k, first, last, sigma, interim, target=0.03):
    false = comparisons = 0
    rounds_used = []
    for _ in range(SESSIONS):
        session_sd = sigma * np.sqrt(rng.chisquare(13) / 13)
        runs = [[] for _ in range(k + 1)]  # [0]: the defaults
        for r in range(1, last + 1):
            for c in range(k + 1):
                v = rng.normal(0, sigma)
                runs[c].append(v + (np.log(0.7) if rng.random() < 0.05 else 0))
            if r < first:
                continue
            d = [np.array(runs[c]) - np.array(runs[0]) for c in range(1, k + 1)]
            squares = sum(((x - x.mean()) ** 2).sum() for x in d)
            nominal = k * (r - 1)
            df = max(r - 1, 4 * nominal // (k + 3))
            in_pool = df >= 4
            pooled = np.sqrt(squares / nominal) if in_pool else np.sqrt(2) * session_sd

            def half(conf, x):
                sd = max(x.std(ddof=1), pooled)
                dof = df if in_pool else 13 + len(x) - 1
                return stats.t.ppf(0.5 + conf / 2, dof) * sd / np.sqrt(len(x))

            decided = all(
                abs(x.mean()) > half(interim, x) or half(0.95, x) <= np.log1p(target) for x in d
            )
            if decided or r == last:
                for x in d:
                    comparisons += 1
                    false += abs(x.mean()) > half(0.95, x)
                rounds_used.append(r)
                break
    return false / comparisons, np.mean(rounds_used)


def main():
    rng = np.random.default_rng(1)
    for k, first, last in [(1, 3, 6), (1, 3, 12), (2, 3, 13), (4, 3, 13)]:
        for interim in (0.95, 0.999):
            share, rounds = simulate(rng, k, first, last, 0.07, interim)
            print(
                f"{k} candidate(s), rounds {first} to {last}, interim {interim}: the final 95%"
                f" interval excludes 1 in {100 * share:.1f}% of comparisons; {rounds:.1f} rounds on average"
            )


if __name__ == "__main__":
    main()
