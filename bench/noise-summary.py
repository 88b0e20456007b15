#!/usr/bin/env python3
"""Figures of noise-benchmark folders (bench/noise-bench.sh), as issue 16 defines them:

- capture: per track, the share of the achievable gain its TPS pick captured, from noise-free
  values: (true(pick) - true(defaults)) / (true(track's optimum) - true(defaults)); a pick that is
  the defaults (no change found) captured 0;
- coverage: how many reported 95% intervals contain the true ratio: each row's TPS ratio against
  the defaults (true(row) / true(defaults)) and each pick's TPS ratio against PGTune-style from
  the same rounds (true(pick) / true(PGTune-style));
- A/A false claims (every configuration performs the same): a validated comparison against the
  defaults is a false claim when its TPS or latency interval excludes 1 or its row claims a gain
  (the interval on the better side of 1 and the estimate at least the detectable gain, as
  pgknob's ResultRow.claimsGain); the picks' ratios to PGTune-style are counted apart.

Usage: bench/noise-summary.py FOLDER...   (runs/noise-bench-<time>, each holding tune-N/ and aa-N/)
"""
import glob, json, math, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
nw = __import__("noise-workload")

PICKS = ("reload/tps", "restart/tps")


def excludes_one(ratio):
    return ratio["low"] > 1 or ratio["high"] < 1


def claims_gain(row, objective):
    """pgknob's ResultRow.claimsGain: interval wholly better than 1, gain >= detectable gain."""
    ratio = row.get("latencyRatio" if objective == "latency" else "tpsRatio")
    if not ratio or not excludes_one(ratio):
        return False
    if objective == "latency":
        return ratio["high"] < 1 and 1 / ratio["estimate"] - 1 >= row.get("detectableGain", 0)
    return ratio["low"] > 1 and ratio["estimate"] - 1 >= row.get("detectableGain", 0)


def sessions(folders):
    for folder in folders:
        for summary in sorted(glob.glob(folder + "/*/*/summary.json")):
            name = os.path.basename(os.path.dirname(os.path.dirname(summary)))
            mode, seed = name.split("-", 1)
            yield mode, int(seed), json.load(open(summary))


def main(folders):
    captured = {"reload": [], "restart": []}
    covered = intervals = covered_pgtune = intervals_pgtune = 0
    false_claims = validated_aa = false_pgtune = validated_aa_pgtune = 0
    aa_verdicts = []
    half_widths, pairs = [], []  # every row's ratio to the defaults, tune and A/A sessions
    disturbed_total = trials_total = 0
    for mode, seed, s in sorted(sessions(folders), key=lambda x: (x[0] != "tune", x[1])):
        aa = mode == "aa"
        default = nw.true_tps({}, aa)
        rows = {r["name"]: r for r in s["results"]}
        pgtune = rows.get("pgtune")
        true_pgtune = nw.true_tps(pgtune.get("settings") or {}, aa) if pgtune else None
        line = []
        measured = set()
        for r in s["results"]:
            truth = nw.true_tps(r.get("settings") or {}, aa)
            ratio, to_pgtune = r.get("tpsRatio"), r.get("tpsRatioToPgtune")
            # A pick with the settings of an earlier one (a twin) shows that one's runs again:
            # one comparison, counted once.
            runs = tuple(r.get("trials") or ())
            twin = bool(ratio) and runs in measured
            if twin:
                ratio = to_pgtune = None
            measured.add(runs)
            mark = ""
            if ratio:
                half_widths.append(math.exp((math.log(ratio["high"]) - math.log(ratio["low"])) / 2) - 1)
                pairs.append(ratio["pairs"])
            if aa and ratio:
                validated_aa += 1
                latency = r.get("latencyRatio")
                claim = (excludes_one(ratio) or (latency and excludes_one(latency))
                         or claims_gain(r, "tps") or claims_gain(r, "latency"))
                false_claims += 1 if claim else 0
                mark = " FALSE CLAIM" if claim else ""
            elif ratio:
                intervals += 1
                inside = ratio["low"] <= truth / default <= ratio["high"]
                covered += 1 if inside else 0
                mark = "" if inside else " MISSED"
            if to_pgtune and true_pgtune:
                if aa:
                    validated_aa_pgtune += 1
                    false_pgtune += 1 if excludes_one(to_pgtune) else 0
                else:
                    intervals_pgtune += 1
                    covered_pgtune += 1 if (to_pgtune["low"] <= truth / true_pgtune
                                            <= to_pgtune["high"]) else 0
            if r["name"] in PICKS and not aa:
                best = nw.best_tps(r["track"])
                share = (truth - default) / (best - default)
                captured[r["track"]].append(share)
                mark += f" captured {share:.0%}"
            if ratio or r["name"] in PICKS:
                shown = (f"{ratio['estimate']:.2f} ({ratio['low']:.2f}-{ratio['high']:.2f},"
                         f" {ratio['pairs']} pairs)" if ratio
                         else "the runs of an earlier pick" if twin else "no ratio")
                line.append(f"  {r['name']}: true {truth / default:.3f}, reported {shown}{mark}")
        verdict = (s.get("verdict") or {}).get("kind") or (s.get("verdict") or {}).get("headline")
        if aa:
            aa_verdicts.append(verdict)
        disturbed = len(s.get("disturbedTrials") or [])
        disturbed_total += disturbed
        trials_total += s["budget"]["trialsRun"]
        print(f"{mode} {seed}: {s['budget']['trialsRun']} trials ({disturbed} disturbed by other"
              f" processes), verdict: {verdict}")
        print("\n".join(line))
    print()
    print(f"trials disturbed by other processes: {disturbed_total} of {trials_total}")
    for track, shares in captured.items():
        if shares:
            print(f"{track}: share of achievable gain captured, median"
                  f" {statistics.median(shares):.0%} over {len(shares)} sessions"
                  f" (min {min(shares):.0%}, max {max(shares):.0%})")
    if intervals:
        print(f"coverage of the reported 95% intervals (ratio to the defaults):"
              f" {covered}/{intervals} = {covered / intervals:.0%}")
    if intervals_pgtune:
        print(f"coverage of the reported 95% intervals (pick to PGTune-style):"
              f" {covered_pgtune}/{intervals_pgtune} = {covered_pgtune / intervals_pgtune:.0%}")
    if half_widths:
        counts = ", ".join(f"{pairs.count(n)} on {n}" for n in sorted(set(pairs)))
        print(f"intervals of the ratio to the defaults (tune and A/A rows): median half-width"
              f" +-{statistics.median(half_widths):.1%} (exp of half the log width, less 1) over"
              f" {len(pairs)} rows; pairs: {counts} ({pairs.count(2) / len(pairs):.0%} on 2)")
    print(f"A/A mode: {false_claims} false claims in {validated_aa} validated comparisons with the"
          f" defaults; {false_pgtune} in {validated_aa_pgtune} picks' ratios to PGTune-style;"
          f" session verdicts: {', '.join(str(v) for v in aa_verdicts) or 'none'}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: bench/noise-summary.py runs/noise-bench-<time> [more folders]")
    main(sys.argv[1:])
