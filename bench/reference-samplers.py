#!/usr/bin/env python3
"""Third-party optimizers on three of issue 17's functions: how far the goal is from the state of the art.

Not pgknob and not used by it. Runs Optuna's samplers (its Gaussian-process sampler, TPE
independent and multivariate), pycma's CMA-ES and random search on the functions of
issue17_functions.py with the benchmark's noise, 40 evaluations a seed, and prints per seed the
noise-free regret at 20 and 40 evaluations of two points: the best noisy observation (what each
of these tools reports as its best) and the best point evaluated (an oracle no tool has). Divide
a median by OptimizerBenchmark's random-search median at the same count (README, "Optimizers")
for the ratio the acceptance speaks of. Needs a Python with optuna (5.0; its GP sampler needs
torch), cma and scipy: python3 -m venv ENV && ENV/bin/pip install optuna torch cma scipy.

    ENV/bin/python bench/reference-samplers.py --function ackley --dims 15 --sampler gp FIRST END
"""
import argparse
import os

import numpy as np

from issue17_functions import NAMES, Problem

_ARGS = argparse.ArgumentParser(description=__doc__.splitlines()[1])
_ARGS.add_argument("--function", choices=NAMES, default="ackley")
_ARGS.add_argument("--dims", type=int, default=15)
_ARGS.add_argument("--sampler", choices=["gp", "tpe", "tpe-mv", "cma", "random"], default="gp")
_ARGS.add_argument("--evals", type=int, default=40)
_ARGS.add_argument("--noise-sd", type=float, default=None, help="the observations' noise sd (default: the benchmark's)")
_ARGS.add_argument("first", type=int)
_ARGS.add_argument("end", type=int)
OPTIONS = _ARGS.parse_args()
PROBLEM = Problem(OPTIONS.function, OPTIONS.dims, OPTIONS.noise_sd)
CHECKPOINTS = (20, 40)


def regrets(points, noisy):
    """Regret at each checkpoint of the best noisy observation and of the best point evaluated."""
    true = PROBLEM.objective(np.array(points))
    out = {}
    for n in CHECKPOINTS:
        if n <= len(points):
            out[n] = (float(true[int(np.argmin(noisy[:n]))]), float(true[:n].min()))
    return out


def run_optuna(seed, rng):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    if OPTIONS.sampler == "gp":
        sampler = optuna.samplers.GPSampler(seed=seed)
    else:
        sampler = optuna.samplers.TPESampler(seed=seed, multivariate=OPTIONS.sampler == "tpe-mv")
    study = optuna.create_study(sampler=sampler)
    points, noisy = [], []

    def objective(trial):
        u = np.array([trial.suggest_float(f"x{i}", 0.0, 1.0) for i in range(PROBLEM.dims)])
        y = float(PROBLEM.objective(u)[0] + rng.normal(0, PROBLEM.sd))
        points.append(u)
        noisy.append(y)
        return y

    study.optimize(objective, n_trials=OPTIONS.evals)
    return points, noisy


def run_cma(seed, rng):
    import cma

    es = cma.CMAEvolutionStrategy(PROBLEM.dims * [0.5], 0.3, {"bounds": [0, 1], "seed": seed + 1, "verbose": -9})
    points, noisy = [], []
    while len(points) < OPTIONS.evals:
        asked = es.ask()
        ys = []
        for u in asked:
            y = float(PROBLEM.objective(np.asarray(u))[0] + rng.normal(0, PROBLEM.sd))
            ys.append(y)
            points.append(np.asarray(u))
            noisy.append(y)
        es.tell(asked, ys)
    return points[: OPTIONS.evals], noisy[: OPTIONS.evals]


def run_random(seed, rng):
    points = list(np.random.default_rng(seed + 10_000).uniform(size=(OPTIONS.evals, PROBLEM.dims)))
    noisy = [float(PROBLEM.objective(u)[0] + rng.normal(0, PROBLEM.sd)) for u in points]
    return points, noisy


if __name__ == "__main__":
    import torch

    torch.set_num_threads(int(os.environ.get("THREADS", "1")))
    run = {"cma": run_cma, "random": run_random}.get(OPTIONS.sampler, run_optuna)
    for seed in range(OPTIONS.first, OPTIONS.end):
        print(seed, regrets(*run(seed, np.random.default_rng(seed))), flush=True)
