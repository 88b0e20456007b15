#!/usr/bin/env python3
"""A/A validation under the noise bench's noise: how often does a 95% interval exclude 1?

Simulates sessions whose configurations all perform the same: the defaults and C candidates, each
measured a few times in the search, then R validation rounds of one run each. Runs have 7%
log-normal noise and, in 5% of them, a 30% drop (bench/noise-workload.py's noise, without its
drift, which pairs cancel). Each candidate's ratio to the defaults gets pgknob's interval (the pairs'
own spread and a pooled noise of 7% with 40 degrees of freedom, the larger of the two; see
measure.PairedRatio). Modes: `none` keeps every round; `void` leaves out a round in which a run lies
more than 18% below both its round's other runs and its configuration's other runs (at most one
round in three so far), with no room to run it again; `pairs` does the same and takes the noise
from the kept pairs' own spread, pooled over the candidates with 4 / (k + 3) of their degrees of
freedom for k candidates (measure.PairNoise: they share the defaults' runs), as pgknob does once
that gives 4 degrees of freedom; `pairs-full` with all of them (what the discount guards against); `runs`, pgknob's rule now (session.ValidationDrops), leaves
out only the pairs that hold the dropped run (a candidate's drop its own pair, the defaults' drop
every pair of the round) and takes the noise from the kept pairs as `pairs` does, with the pool's
degrees of freedom alone (the pairs are in the pool: measure.PairedRatio.ofPairsInPool);
`runs-twice` is `runs` with the pairs' own degrees of freedom added to the pool's, as pgknob did
until 2026-12-02 (it counts them twice). Each line also
gives the share of ratios resting on fewer pairs than rounds.
Usage: python3 bench/validation-drop-sim.py [sessions=4000] [candidates=4]
"""
import math
import random
import statistics as st
import sys

CANDIDATES = int(sys.argv[2]) if len(sys.argv) > 2 else 4

THRESHOLD = 0.2  # measure.DriftModel.MIN_DROP: about 18% in log scale


def t_quantile(p, df):
    """Student's t quantile by the Cornish-Fisher expansion (accurate to 1e-4 for df >= 10)."""
    z = st.NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def run(rng):
    v = math.exp(0.07 * rng.gauss(0, 1))
    return v * 0.7 if rng.random() < 0.05 else v


def beyond(v, others):
    return bool(others) and st.median(math.log(o) for o in others) - math.log(v) > THRESHOLD


def pair_noise(pairs_by_candidate, halve):
    """measure.PairNoise: the pairs' pooled spread as one run's noise, and its degrees of freedom."""
    squares, nominal, most = 0.0, 0, 0
    for pairs in pairs_by_candidate:
        if len(pairs) < 2:
            continue
        d = [math.log(b / a) for a, b in pairs]
        mean = sum(d) / len(d)
        squares += sum((x - mean) ** 2 for x in d)
        nominal += len(d) - 1
        most = max(most, len(d))
    if nominal == 0:
        return None
    k = sum(1 for p in pairs_by_candidate if len(p) >= 2)
    df = max(most - 1, (4 * nominal) // (k + 3)) if halve else nominal
    return math.sqrt(squares / nominal) / math.sqrt(2), df


def excludes_one(pairs, pooled=0.07, pooled_df=40, in_pool=False):
    """in_pool: the pooled noise was read from pairs these belong to (measure.PairedRatio.ofPairsInPool):
    the pool's degrees of freedom alone, not the pairs' own added to them."""
    d = [math.log(b / a) for a, b in pairs]
    n = len(d)
    if n < 2:
        return None
    own = st.stdev(d)
    if in_pool:
        combined = math.sqrt(2) * pooled
        df = max(pooled_df, n - 1)
    else:
        combined = math.sqrt(((n - 1) * own * own + pooled_df * 2 * pooled * pooled) / (n - 1 + pooled_df))
        df = n - 1 + pooled_df
    t = t_quantile(0.975, df) if df >= 10 else [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26][df - 1]
    half = t * max(own, combined) / math.sqrt(n)
    mean = sum(d) / n
    return mean - half > 0 or mean + half < 0


def session(rng, order_rng, mode, rounds, candidates=CANDIDATES):
    history = {0: [run(rng) for _ in range(3)]}
    for c in range(1, candidates + 1):
        history[c] = [run(rng) for _ in range(2)]
    # per round: its runs and the subject of its run left out (None: none; 0: the defaults)
    logged, left_out = [], 0
    for seen in range(1, rounds + 1):
        values = {c: run(rng) for c in range(candidates + 1)}
        for c in values:
            history[c].append(values[c])
        order = list(values)
        order_rng.shuffle(order)  # the first run of the round, in run order, that dropped
        fell = next(
            (c for c in order
             if beyond(values[c], [values[k] for k in values if k != c]) and beyond(values[c], history[c][:-1])),
            None,
        )
        if mode != "none" and fell is not None and left_out < (seen + 2) // 3:
            left_out += 1
        else:
            fell = None
        logged.append((values, fell))

    def pairs(c):
        if mode.startswith("runs"):  # only the pairs that hold the dropped run
            return [(v[0], v[c]) for v, fell in logged if fell not in (0, c)]
        return [(v[0], v[c]) for v, fell in logged if fell is None]

    by_candidate = [pairs(c) for c in range(1, candidates + 1)]
    noise = {}
    if mode.startswith("pairs") or mode.startswith("runs"):
        estimate = pair_noise(by_candidate, mode != "pairs-full")
        if estimate and (mode == "pairs-full" or estimate[1] >= 4):
            noise = {"pooled": estimate[0], "pooled_df": estimate[1], "in_pool": mode != "runs-twice"}
    claims = [excludes_one(p, **noise) for p in by_candidate]
    claims = [c for c in claims if c is not None]
    two = sum(1 for p in by_candidate if len(p) <= rounds - 1)
    return sum(claims), len(claims), two


def main():
    sessions = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    for rounds in (3, 6, 10):
        for mode in ("none", "void", "pairs", "pairs-full", "runs-twice", "runs"):
            rng, order_rng = random.Random(1), random.Random(2)
            claims = comparisons = short = 0
            for _ in range(sessions):
                a, b, c = session(rng, order_rng, mode, rounds)
                claims += a
                comparisons += b
                short += c
            print(
                f"{rounds} rounds, {mode:10}: {claims} of {comparisons} comparisons exclude 1"
                f" ({100 * claims / comparisons:.1f}%); {100 * short / (CANDIDATES * sessions):.0f}% of ratios lose a pair"
            )


if __name__ == "__main__":
    main()
