#!/usr/bin/env python3
"""What the pick simplification (session.PickSimplifier) cost in the noise benchmark's sessions.

For each tune session of the folders given (bench/noise-bench.sh's OUT), each pick row whose
summary.json records settings left at the defaults: the settings validated against the search's
best, and the share of the achievable gain each would capture, from the noise-free values of
bench/noise-workload.py (the same formula as bench/noise-summary.py). The two differ only in the
settings left out, so the figure does not depend on the session's path.
Usage: bench/pick-simplification.py runs/noise-bench-<time> [more folders]
"""
import glob, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
workload = __import__("noise-workload")


def capture(settings, track):
    base = workload.true_tps({})
    best = workload.best_tps(track)
    return (workload.true_tps(settings) - base) / (best - base)


rows = 0
lost = []
for folder in sys.argv[1:]:
    for summary in sorted(glob.glob(os.path.join(folder, "tune-*", "*", "summary.json"))):
        session = os.path.basename(os.path.dirname(os.path.dirname(summary)))
        for r in json.load(open(summary))["results"]:
            s = r.get("simplified")
            if not s or not r.get("track") or r.get("objective") != "tps":
                continue
            searched = dict(r["settings"], **s["leftAtDefaults"])
            before = capture(searched, r["track"])
            after = capture(r["settings"], r["track"])
            rows += 1
            lost.append(before - after)
            print(
                f"{session} {r['name']}: {len(searched)} -> {len(r['settings'])} settings, "
                f"captured {100 * before:.0f}% -> {100 * after:.0f}%; left out: "
                + ", ".join(f"{k}={v}" for k, v in sorted(s["leftAtDefaults"].items()))
            )
if rows:
    lost.sort()
    print(
        f"{rows} simplified tps picks: capture lost median {100 * lost[len(lost) // 2]:.1f} points,"
        f" largest {100 * lost[-1]:.1f}"
    )
