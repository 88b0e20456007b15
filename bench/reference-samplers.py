#!/usr/bin/env python3
"""Third-party optimizers on issue 17's functions: how far the goal is from the state of the art.

Not pgknob and not used by it. Runs Optuna's samplers (its Gaussian-process sampler, TPE
independent and multivariate, its random sampler), pycma's CMA-ES and random search on the
functions of issue17_functions.py with the benchmark's noise, 40 evaluations a seed, and prints per
seed the noise-free regret at 20 and 40 evaluations of two points: the best noisy observation (what
each of these tools reports as its best) and the best point evaluated (an oracle no tool has).
Divide a median by OptimizerBenchmark's random-search median at the same count (README,
"Optimizers") for the ratio the acceptance speaks of. On the mixed spaces (Optuna's samplers only)
a failed trial is reported to Optuna as failed, or with --failed worst as the worst value observed
so far. Needs a Python with optuna (5.0; its GP sampler needs torch), cma and scipy:
python3 -m venv ENV && ENV/bin/pip install optuna torch cma scipy.

    ENV/bin/python bench/reference-samplers.py --function ackley --dims 15 --sampler gp FIRST END
    ENV/bin/python bench/reference-samplers.py --function mixed-24 --sampler gp --failed worst FIRST END

Results and their reading: bench/optimizer-rounds.md, twenty-fifth round.
"""
import argparse
import os

import numpy as np

from issue17_functions import NAMES, Mixed, Problem

_ARGS = argparse.ArgumentParser(description=__doc__.splitlines()[1])
_ARGS.add_argument("--function", choices=NAMES + ["mixed-17", "mixed-24"], default="ackley")
_ARGS.add_argument("--dims", type=int, default=15)
_ARGS.add_argument("--sampler", choices=["gp", "tpe", "tpe-mv", "cma", "random", "optuna-random"], default="gp")
_ARGS.add_argument("--failed", choices=["fail", "worst"], default="fail", help="a failed trial (the mixed spaces) is reported as failed, or as the worst value observed so far")
_ARGS.add_argument("--evals", type=int, default=40)
_ARGS.add_argument("--noise-sd", type=float, default=None, help="the observations' noise sd (default: the benchmark's)")
_ARGS.add_argument("first", type=int)
_ARGS.add_argument("end", type=int)
OPTIONS = _ARGS.parse_args()
if OPTIONS.function.startswith("mixed-") and OPTIONS.sampler in ("cma", "random"):
    _ARGS.error("the mixed spaces run with Optuna's samplers only (gp, tpe, tpe-mv, optuna-random)")
MIXED = Mixed(int(OPTIONS.function[6:]) - 17) if OPTIONS.function.startswith("mixed-") else None
PROBLEM = MIXED or Problem(OPTIONS.function, OPTIONS.dims, OPTIONS.noise_sd)
CHECKPOINTS = (20, 40)


def regrets(true, noisy):
    """Regret at each checkpoint of the best noisy observation and of the best point evaluated,
    failed trials (NaN) left out."""
    true, noisy = np.array(true) - PROBLEM.minimum, np.array(noisy)
    out = {}
    for n in CHECKPOINTS:
        ok = ~np.isnan(noisy[:n])
        if n <= len(noisy) and ok.any():
            t, y = true[:n][ok], noisy[:n][ok]
            out[n] = (float(t[int(np.argmin(y))]), float(t.min()))
    return out


def run_optuna(seed, rng):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    if OPTIONS.sampler == "gp":
        sampler = optuna.samplers.GPSampler(seed=seed)
    elif OPTIONS.sampler == "optuna-random":
        sampler = optuna.samplers.RandomSampler(seed=seed)
    else:
        sampler = optuna.samplers.TPESampler(seed=seed, multivariate=OPTIONS.sampler == "tpe-mv")
    study = optuna.create_study(sampler=sampler)
    true, noisy = [], []

    def objective(trial):
        if MIXED:
            v = MIXED.value(MIXED.suggest(trial))
        else:
            u = np.array([trial.suggest_float(f"x{i}", 0.0, 1.0) for i in range(PROBLEM.dims)])
            v = float(PROBLEM.objective(u)[0])
        y = v + rng.normal(0, PROBLEM.sd)
        true.append(v)
        noisy.append(y)
        if np.isnan(y) and OPTIONS.failed == "worst" and not np.isnan(noisy).all():
            return float(np.nanmax(noisy))
        return y  # NaN: Optuna records a failed trial

    study.optimize(objective, n_trials=OPTIONS.evals)
    return true, noisy


def run_cma(seed, rng):
    import cma

    es = cma.CMAEvolutionStrategy(PROBLEM.dims * [0.5], 0.3, {"bounds": [0, 1], "seed": seed + 1, "verbose": -9})
    true, noisy = [], []
    while len(true) < OPTIONS.evals:
        asked = es.ask()
        ys = []
        for u in asked:
            v = float(PROBLEM.objective(np.asarray(u))[0])
            ys.append(v + rng.normal(0, PROBLEM.sd))
            true.append(v)
            noisy.append(ys[-1])
        es.tell(asked, ys)
    return true[: OPTIONS.evals], noisy[: OPTIONS.evals]


def run_random(seed, rng):
    true = PROBLEM.objective(np.random.default_rng(seed + 10_000).uniform(size=(OPTIONS.evals, PROBLEM.dims)))
    return list(true), list(true + rng.normal(0, PROBLEM.sd, len(true)))


if __name__ == "__main__":
    if OPTIONS.sampler == "gp":
        import torch

        # one thread a run, so that two runs share the two cores without fighting
        torch.set_num_threads(int(os.environ.get("THREADS", "1")))
    run = {"cma": run_cma, "random": run_random}.get(OPTIONS.sampler, run_optuna)
    for seed in range(OPTIONS.first, OPTIONS.end):
        print(seed, regrets(*run(seed, np.random.default_rng(seed))), flush=True)
