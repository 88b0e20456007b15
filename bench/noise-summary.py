#!/usr/bin/env python3
"""Figures of a noise-benchmark folder (bench/noise-bench.sh): share of the achievable gain
captured per track, coverage of the reported 95% intervals, false claims in A/A mode.
Usage: bench/noise-summary.py runs/noise-bench-<time>"""
import glob, json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
nw = __import__("noise-workload")
out = sys.argv[1]
captured = {"reload": [], "restart": []}
covered = intervals = 0
false_claims = validated_aa = 0
for summary in sorted(glob.glob(out + "/*/*/summary.json")):
    mode = os.path.basename(os.path.dirname(os.path.dirname(summary))).split("-")[0]
    s = json.load(open(summary))
    rows = {r["name"]: r for r in s["results"]}
    default = nw.true_tps({}, mode == "aa")
    for r in s["results"]:
        truth = nw.true_tps(r.get("settings") or {}, mode == "aa")
        ratio = r.get("tpsRatio")
        if mode == "aa":
            if ratio:
                validated_aa += 1
                false_claims += 1 if (ratio["low"] > 1 or ratio["high"] < 1) else 0
            continue
        if ratio:
            intervals += 1
            covered += 1 if ratio["low"] <= truth / default <= ratio["high"] else 0
        if r["name"] in ("reload/tps", "restart/tps"):
            track = r["track"]
            best = nw.best_tps(track)
            captured[track].append((truth - default) / (best - default))
for track, shares in captured.items():
    if shares:
        print(f"{track}: share of achievable gain captured, median {statistics.median(shares):.0%}"
              f" over {len(shares)} sessions (min {min(shares):.0%}, max {max(shares):.0%})")
if intervals:
    print(f"coverage of the reported 95% intervals: {covered}/{intervals} = {covered/intervals:.0%}")
print(f"A/A mode: {false_claims} false claims in {validated_aa} validated comparisons")
