#!/usr/bin/env python3
"""How much of the run-to-run noise of repeated identical runs a per-run covariate explains.

Reads the trials.jsonl of one or more session folders (`pgknob compare` of the defaults against
the defaults, or any session), takes every configuration run more than once, and regresses each
run's log TPS on a covariate within its configuration (a pooled within-configuration slope, as
pgknob's measure.CovariateSlope does). Covariates: other processes' CPU during the window
(resources.foreignCpuAvgCores, in cores); the disk's synchronous 8 kB write rate during the
window when a log of bench/disk-probe-log.py is given (--probe FILE); and, for comparison, the
trial number (drift).

Prints the correlation, the in-sample share of variance explained, and the out-of-sample share:
the slope fitted on one half of the runs (alternate runs of each configuration), the residual
variance measured on the other half, both ways round.

usage: bench/covariate-analysis.py [--probe FILE] RUN_DIR...
"""
import datetime
import json
import math
import sys


def probe_rates(path):
    if path is None:
        return []
    out = []
    for line in open(path):
        f = line.split()
        if len(f) == 2:
            out.append((float(f[0]), float(f[1])))
    return out


def window(t):
    """The measured window's (start, end) in epoch seconds, from the trial's timings."""
    w = t["workload"]
    s = t.get("timingsSeconds") or {}
    started = datetime.datetime.fromisoformat(t["startedAt"].replace("Z", "+00:00")[:26] + "+00:00")
    after = (w.get("checkpoint") or {}).get("afterWindowSeconds", 0.0)
    end = started.timestamp() + s.get("apply", 0) + s.get("reset", 0) + s.get("run", 0) - after
    return end - w["windowSeconds"], end


def runs(folders, probes):
    groups = {}
    for folder in folders:
        for line in open(folder + "/trials.jsonl"):
            t = json.loads(line)
            w = t.get("workload") or {}
            r = t.get("resources") or {}
            if t.get("status") != "OK" or not w.get("tps") or not r.get("hostCores"):
                continue
            key = (folder, json.dumps(t.get("settings") or {}, sort_keys=True))
            start, end = window(t)
            rates = [v for when, v in probes if start <= when <= end]
            before = [v for when, v in probes if start - 3 <= when < start]
            groups.setdefault(key, []).append(
                {
                    "y": math.log(w["tps"]),
                    "cpu": r.get("foreignCpuAvgCores", 0.0),
                    # pgknob's own probe (managed clusters), when the trial recorded it
                    "recorded": math.log(r["diskSyncWritesPerSec"])
                    if r.get("diskSyncWritesPerSec")
                    else None,
                    "trial": t["trial"],
                    # log of the mean write rate: the disk's speed acts as a factor on TPS
                    "disk": math.log(sum(rates) / len(rates)) if rates else None,
                    # the 3 s before the window: what a probe run before it would see
                    "diskBefore": math.log(sum(before) / len(before)) if before else None,
                }
            )
    return {k: v for k, v in groups.items() if len(v) >= 2}


def centered(groups, name):
    """Within-configuration deviations (x, y) of every run."""
    out = []
    for g in groups:
        mx = sum(r[name] for r in g) / len(g)
        my = sum(r["y"] for r in g) / len(g)
        out += [(r[name] - mx, r["y"] - my) for r in g]
    return out


def fit(points):
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    return sxy / sxx if sxx > 0 else 0.0


def share_explained(points, slope):
    syy = sum(y * y for _, y in points)
    res = sum((y - slope * x) ** 2 for x, y in points)
    return 1 - res / syy if syy > 0 else 0.0


def main(folders, probe):
    groups = runs(folders, probe_rates(probe))
    all_runs = sum(len(g) for g in groups.values())
    df = all_runs - len(groups)
    print(f"{all_runs} runs of {len(groups)} repeated configurations ({df} degrees of freedom)")
    ys = centered(groups.values(), "cpu")
    noise = math.sqrt(sum(y * y for _, y in ys) / df)
    cpus = [r["cpu"] for g in groups.values() for r in g]
    print(
        f"run-to-run noise (pooled log sd): {100 * noise:.1f}%; other processes' CPU: "
        f"{min(cpus):.2f}-{max(cpus):.2f} cores, mean {sum(cpus) / len(cpus):.2f}"
    )
    covariates = [("cpu", "other processes' CPU (cores)"), ("trial", "trial number (drift)")]
    if all(r["recorded"] is not None for g in groups.values() for r in g):
        covariates.append(("recorded", "log disk writes/s recorded by pgknob's probe"))
    if probe:
        covariates.append(("disk", "log disk probe writes/s in the window"))
        covariates.append(("diskBefore", "log disk probe writes/s in the 3 s before it"))
        for k in groups:
            groups[k] = [r for r in groups[k] if r["disk"] is not None and r["diskBefore"]]
        groups = {k: v for k, v in groups.items() if len(v) >= 2}
        df = sum(len(g) for g in groups.values()) - len(groups)
        print(f"{df + len(groups)} runs with a disk probe during their window")
    for name, label in covariates:
        pts = centered(groups.values(), name)
        sxx = sum(x * x for x, _ in pts)
        syy = sum(y * y for _, y in pts)
        sxy = sum(x * y for x, y in pts)
        r = sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else 0.0
        slope = fit(pts)
        res_sd = math.sqrt(max(0.0, syy - slope * sxy) / (df - 1))
        se = res_sd / math.sqrt(sxx) if sxx > 0 else float("inf")
        # held-out halves: alternate runs of each configuration
        halves = [[g[0::2] for g in groups.values()], [g[1::2] for g in groups.values()]]
        halves = [[g for g in h if len(g) >= 2] for h in halves]
        out = []
        for fit_half, test_half in ((halves[0], halves[1]), (halves[1], halves[0])):
            s = fit(centered(fit_half, name))
            out.append(share_explained(centered(test_half, name), s))
        print(
            f"{label}: r = {r:+.2f}, slope {slope:+.4f} log TPS per unit (se {se:.4f}), "
            f"variance explained {100 * r * r:.0f}% in sample, held out {100 * out[0]:.0f}% and "
            f"{100 * out[1]:.0f}% (mean {50 * (out[0] + out[1]):.0f}%); residual noise "
            f"{100 * res_sd:.1f}%"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    probe = None
    if len(args) >= 2 and args[0] == "--probe":
        probe = args[1]
        args = args[2:]
    if not args:
        sys.exit("usage: covariate-analysis.py [--probe FILE] RUN_DIR...")
    main(args, probe)
