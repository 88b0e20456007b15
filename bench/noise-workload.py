#!/usr/bin/env python3
"""A synthetic workload of known optimum for pgknob's --workload-cmd (bench/noise-bench.sh).

Reads the applied settings (JSON on stdin), prints {"value": TPS, "latency_ms": ...}. The true
(noise-free) TPS is a product of one bump per knob (log scale) around a known optimum; on top of it
a slow drift of +-12% (a sine over the session's calls), 7% log-normal noise and, in 5% of the
runs, a 30% drop. NOISE_AA=1: every configuration has the same true TPS (A/A mode).
NOISE_STATE: a folder for the call counter (drift) and a log of true values. NOISE_SEED: seed.
NOISE_DISTURB=1: each drop has a real cause, as on a shared machine: a busy loop outside
pgknob's processes runs through the run's window, which then lasts 2.5 s instead of 0.5 s, so
that pgknob's one-second CPU readings see it and mark the run disturbed by other processes.
"""
import json, math, os, random, sys, time

BASE = 1000.0
# knob: (default, optimum, gain at the optimum, width in ln units)
KNOBS = {
    "shared_buffers": (128.0, 2048.0, 0.25, 1.5),   # MB, restart
    "max_wal_size": (1024.0, 8192.0, 0.10, 1.5),    # MB, reload
    "random_page_cost": (4.0, 1.1, 0.06, 0.8),      # reload
    "work_mem": (4.0, 32.0, 0.04, 1.2),             # MB, reload
}
RESTART = {"shared_buffers"}
UNITS = {"kb": 1 / 1024, "mb": 1, "gb": 1024, "tb": 1024 * 1024, "8kb": 8 / 1024, "b": 1 / 1048576}


def number(value):
    s = str(value).strip().lower()
    for unit in sorted(UNITS, key=len, reverse=True):
        if s.endswith(unit) and s[: -len(unit)].replace(".", "", 1).lstrip("-").isdigit():
            return float(s[: -len(unit)]) * UNITS[unit]
    return float(s)


def bump(name, x):
    default, opt, gain, width = KNOBS[name]
    return 1 + gain * math.exp(-(((math.log(x) - math.log(opt)) / width) ** 2))


def true_tps(settings, aa=False):
    if aa:
        return BASE
    v = BASE
    for name in KNOBS:
        x = number(settings[name]) if name in settings else KNOBS[name][0]
        v *= bump(name, x) / bump(name, KNOBS[name][0])
    return v


def best_tps(track):
    """The noise-free optimum of a track: each knob it may set at its optimum."""
    return true_tps({k: KNOBS[k][1] for k in KNOBS if track == "restart" or k not in RESTART})


def busy_loop_outside_pgknob(seconds):
    """One core busy for `seconds` in a process that is not pgknob's: forked twice, so that it is
    re-parented away from this command (pgknob counts the processes it started as its own), with
    its standard streams on /dev/null (pgknob reads this command's output to its end)."""
    child = os.fork()
    if child == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            end = time.time() + seconds
            while time.time() < end:
                pass
        os._exit(0)
    os.waitpid(child, 0)


def main():
    settings = json.load(sys.stdin)
    aa = os.environ.get("NOISE_AA") == "1"
    state = os.environ.get("NOISE_STATE", "/tmp")
    seed = int(os.environ.get("NOISE_SEED", "1"))
    counter = os.path.join(state, "calls")
    k = int(open(counter).read()) if os.path.exists(counter) else 0
    with open(counter, "w") as f:
        f.write(str(k + 1))
    rng = random.Random(seed * 100003 + k)
    phase = random.Random(seed).uniform(0, 2 * math.pi)
    drift = 1 + 0.12 * math.sin(2 * math.pi * k / 50 + phase)
    truth = true_tps(settings, aa)
    value = truth * drift * math.exp(0.07 * rng.gauss(0, 1))
    drop = rng.random() < 0.05
    if drop:
        value *= 0.7
    disturb = drop and os.environ.get("NOISE_DISTURB") == "1"
    with open(os.path.join(state, "truth.jsonl"), "a") as f:
        f.write(json.dumps({"call": k, "truth": truth, "value": value, "settings": settings,
                            "disturbed": disturb}) + "\n")
    if disturb:
        busy_loop_outside_pgknob(2.5)
        time.sleep(2.5)
    else:
        time.sleep(0.5)  # a window long enough that the CHECKPOINT after it barely counts
    print(json.dumps({"value": round(value, 3), "latency_ms": round(4000 / value, 4)}))


if __name__ == "__main__":
    main()
