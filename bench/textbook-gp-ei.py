#!/usr/bin/env python3
"""A textbook GP-EI, outside pgknob, on issue 17's functions: a reference for the optimizer rounds.

Not pgknob's optimizer and not used by it: about a hundred lines of numpy and scipy that do what the
textbooks do (a product Matern-5/2 kernel with one length scale per input, a constant prior mean on
standardized values, log length scales ~ N(log 0.5, 1), log noise variance ~ N(-4, 2), four random
restarts of the fit at every step, expected improvement over the best posterior mean among the points
observed, searched over 3000 uniform points and 1000 Gaussian steps of sd 0.05 around the five best
points, the best five polished by L-BFGS-B). Same functions, noise and incumbent rule as
OptimizerBenchmark: the functions of issue17_functions.py (Ackley 5 of 15, Hartmann-6 in 20,
Levy 4 of 20, Styblinski-Tang 4 of 12).

    python3 bench/textbook-gp-ei.py --function ackley --dims 15 --initial 9 FIRST END
    python3 bench/textbook-gp-ei.py --function hartmann --dims 20 --initial 12 FIRST END
    python3 bench/textbook-gp-ei.py --function levy --dims 20 --initial 12 FIRST END

prints per seed the noise-free regret of the incumbent at 20 and 40 evaluations. --search uniform
scores the uniform points alone (no local steps, no polish); --search nolocal drops the local steps;
--noise-sd replaces the benchmark's noise (0: noise-free observations); --warp fits a Kumaraswamy
input warping per input with the kernel (its two concentrations in [0.2, 5], log-normal prior with
log-space variance 0.75, as BoTorch's); --acq kg scores the candidates by the knowledge gradient
over the observed points (Scott, Frazier and Powell 2011) instead of expected improvement, with the
same candidates and random numbers; --acq pi scores them by the probability of improvement on the
best posterior mean (Kushner 1964; its log); --acq ts takes the lowest candidate of one posterior
draw (Thompson sampling by decoupled sampling, no polish); --acq mes scores them by max-value
entropy search (Wang and Jegelka 2017, ten draws of the lowest value).
Results and their reading: bench/optimizer-rounds.md, the eighteenth, twenty-fourth and
twenty-sixth to twenty-eighth rounds.
"""
import argparse

import numpy as np
from scipy.optimize import minimize
from scipy.stats import norm, qmc

from issue17_functions import NAMES, Problem

_ARGS = argparse.ArgumentParser(description=__doc__.splitlines()[1])
_ARGS.add_argument("--function", choices=NAMES, default="ackley")
_ARGS.add_argument("--dims", type=int, default=5)
_ARGS.add_argument("--initial", type=int, default=5)
_ARGS.add_argument("--search", choices=["full", "uniform", "nolocal"], default="full")
_ARGS.add_argument("--noise-sd", type=float, default=None, help="the observations' noise sd (default: the benchmark's)")
_ARGS.add_argument("--warp", action="store_true", help="warp each input by a fitted Kumaraswamy CDF")
_ARGS.add_argument("--acq", choices=["ei", "pi", "kg", "ts", "mes"], default="ei", help="the acquisition (default: expected improvement)")
_ARGS.add_argument("first", type=int)
_ARGS.add_argument("end", type=int)
OPTIONS = _ARGS.parse_args()

PROBLEM = Problem(OPTIONS.function, OPTIONS.dims, OPTIONS.noise_sd)
D, SD, objective = PROBLEM.dims, PROBLEM.sd, PROBLEM.objective

def matern52(a, b, ls):
    d = np.sqrt((((a[:, None, :] - b[None, :, :]) / ls) ** 2).sum(-1))
    s = np.sqrt(5) * d
    return (1 + s + s * s / 3) * np.exp(-s)

WARP = OPTIONS.warp

def warp(X, theta):
    """Each input through 1 - (1 - x^a)^b, a and b its own fitted concentrations (Snoek et al. 2014,
    as BoTorch's Warp and HEBO do); the identity without --warp."""
    if not WARP:
        return X
    a, b = np.exp(theta[D + 2:2 * D + 2]), np.exp(theta[2 * D + 2:])
    x = np.clip(X, 1e-6, 1 - 1e-6)
    return 1 - (1 - x ** a) ** b

def nll(theta, X, y):
    ls, sv, nv = np.exp(theta[:D]), np.exp(theta[D]), np.exp(theta[D + 1])
    X = warp(X, theta)
    K = sv * matern52(X, X, ls) + (nv + 1e-8) * np.eye(len(X))
    try:
        L = np.linalg.cholesky(K)
    except np.linalg.LinAlgError:
        return 1e10
    a = np.linalg.solve(L.T, np.linalg.solve(L, y))
    # weak priors: log length scale ~ N(log 0.5, 1), log noise variance ~ N(-4, 2)
    prior = 0.5 * ((theta[:D] - np.log(0.5)) ** 2).sum() + 0.5 * ((theta[D + 1] + 4) / 2) ** 2
    if WARP:
        # BoTorch's prior on the Kumaraswamy concentrations: LogNormal(0, 0.75 ** 0.5)
        prior += 0.5 * (theta[D + 2:] ** 2).sum() / 0.75
    return 0.5 * y @ a + np.log(np.diag(L)).sum() + prior

def fit(X, y, rng):
    best = None
    bounds = [(np.log(0.01), np.log(10))] * D + [(np.log(0.05), np.log(20)), (np.log(1e-6), np.log(1.0))]
    if WARP:
        bounds = bounds + [(np.log(0.2), np.log(5))] * (2 * D)
    for s in range(4):
        t0 = np.concatenate([np.log(rng.uniform(0.1, 1.0, D)), [0.0], [np.log(rng.uniform(1e-3, 0.1))]])
        if WARP:
            t0 = np.concatenate([t0, np.zeros(2 * D)])
        r = minimize(nll, t0, args=(X, y), method="L-BFGS-B", bounds=bounds)
        if best is None or r.fun < best.fun:
            best = r
    return best.x

class Gp:
    def __init__(self, X, y, theta):
        self.theta = theta
        X = warp(X, theta)
        self.X, self.ls, self.sv, self.nv = X, np.exp(theta[:D]), np.exp(theta[D]), np.exp(theta[D + 1])
        K = self.sv * matern52(X, X, self.ls) + (self.nv + 1e-8) * np.eye(len(X))
        self.L = np.linalg.cholesky(K)
        self.a = np.linalg.solve(self.L.T, np.linalg.solve(self.L, y))
    def predict(self, Z):
        Z = warp(Z, self.theta)
        k = self.sv * matern52(Z, self.X, self.ls)
        mu = k @ self.a
        v = np.linalg.solve(self.L, k.T)
        var = np.maximum(self.sv - (v * v).sum(0), 1e-12)
        return mu, np.sqrt(var)

def ei(mu, sd, best):
    z = (best - mu) / sd
    return (best - mu) * norm.cdf(z) + sd * norm.pdf(z)

def envelope_gain(a, b):
    """E[max_i a_i + b_i Z] - max_i a_i for Z ~ N(0, 1) (Frazier, Powell and Dayanik 2009)."""
    order = np.lexsort((a, b))
    a, b = a[order], b[order]
    keep = np.append(np.diff(b) > 1e-12, True)
    a, b = a[keep], b[keep]
    lines, cuts = [0], [-np.inf]
    for i in range(1, len(a)):
        while True:
            j = lines[-1]
            c = (a[j] - a[i]) / (b[i] - b[j])
            if len(lines) > 1 and c <= cuts[-1]:
                lines.pop(); cuts.pop()
                continue
            break
        lines.append(i); cuts.append(c)
    if len(lines) == 1:
        return 0.0
    bb = b[lines]
    c = np.abs(np.array(cuts[1:]))
    return float(((bb[1:] - bb[:-1]) * (-c * norm.cdf(-c) + norm.pdf(c))).sum())

def kg(gp, Z, mu_obs, w):
    """Approximate knowledge gradient (Scott, Frazier and Powell 2011): the expected fall of the
    lowest posterior mean over the observed points and the candidate, for each candidate in Z;
    w is L^-1 K of the observed points, the same for every candidate of a step."""
    kxz = gp.sv * matern52(gp.X, warp(Z, gp.theta), gp.ls)
    v = np.linalg.solve(gp.L, kxz)
    cov = kxz - w.T @ v
    var = np.maximum(gp.sv - (v * v).sum(0), 1e-12)
    mu = kxz.T @ gp.a
    scale = np.sqrt(var + gp.nv)
    out = np.empty(len(Z))
    for i in range(len(Z)):
        a = -np.append(mu_obs, mu[i])
        b = np.append(cov[:, i], var[i]) / scale[i]
        out[i] = envelope_gain(a, b)
    return out

def thompson(gp, Z, y, rng, features=2048):
    """One draw of the posterior over the candidates Z, by decoupled sampling (Wilson et al. 2020):
    a prior draw from random Fourier features of the Matern-5/2 kernel (frequencies Student-t with
    5 degrees of freedom over the length scales), moved to the data by the exact posterior update.
    Minus the draw, so that the largest score is the draw's lowest point (Thompson sampling, as
    TuRBO's acquisition); the exact joint draw over 4000 candidates cost a minute a seed more."""
    omega = rng.standard_normal((features, D)) * np.sqrt(5 / rng.chisquare(5, (features, 1))) / gp.ls
    phase = rng.uniform(0, 2 * np.pi, features)
    weights = rng.standard_normal(features) * np.sqrt(2 * gp.sv / features)
    prior = lambda A: np.cos(A @ omega.T + phase) @ weights
    Zw = warp(Z, gp.theta)
    noise = rng.normal(0, np.sqrt(gp.nv + 1e-8), len(gp.X))
    update = np.linalg.solve(gp.L.T, np.linalg.solve(gp.L, y - prior(gp.X) - noise))
    return -(prior(Zw) + gp.sv * matern52(Zw, gp.X, gp.ls) @ update)

def min_value_draws(mu, sd, ceiling, rng, count=10):
    """Draws of the lowest latent value over the candidates, from Pr[min > m] = prod Phi((mu - m) /
    sd) (the candidates taken as independent, as Wang and Jegelka 2017 do), each kept under the
    best posterior mean observed: inverted by bisection at uniform levels."""
    levels = rng.uniform(size=count)
    lo, hi = np.full(count, (mu - 8 * sd).min()), np.full(count, ceiling)
    for _ in range(60):
        m = (lo + hi) / 2
        above = np.exp(norm.logcdf((mu[None, :] - m[:, None]) / sd[None, :]).sum(1))
        # Pr[min > m] falls as m rises: where it is still above the level, the draw lies higher
        lo, hi = np.where(above > levels, m, lo), np.where(above > levels, hi, m)
    return np.minimum((lo + hi) / 2, ceiling - 1e-6)

def mes(mu, sd, draws):
    """Max-value entropy search (Wang and Jegelka 2017), for a minimum: the expected fall in the
    entropy of the candidate's value once the lowest value is known, averaged over its draws."""
    g = (mu[:, None] - draws[None, :]) / sd[:, None]
    logcdf = norm.logcdf(g)
    return (g * norm.pdf(g) / (2 * np.exp(logcdf)) - logcdf).mean(1)

def run(seed, evals=40, initial=OPTIONS.initial):
    rng = np.random.default_rng(seed)
    X = qmc.Sobol(D, scramble=True, seed=seed).random(32)[:initial]
    y = objective(X) + rng.normal(0, SD, len(X))
    out = {}
    while True:
        m, s = y.mean(), y.std() + 1e-9
        ys = (y - m) / s
        gp = Gp(X, ys, fit(X, ys, rng))
        mu_obs, _ = gp.predict(X)
        inc = X[np.argmin(mu_obs)]
        if len(X) in (20, 40):
            out[len(X)] = float(objective(inc)[0])
        if len(X) >= evals:
            return out
        best = mu_obs.min()
        acq = OPTIONS.search
        cand = rng.uniform(size=(3000, D))
        if acq != "uniform" and acq != "nolocal":
            cand = np.vstack([cand, np.clip(X[np.argsort(mu_obs)[:5]].repeat(200, 0) + rng.normal(0, 0.05, (1000, D)), 0, 1)])
        X = np.vstack([X, next_trial(gp, cand, ys, mu_obs, best, polish=acq != "uniform", rng=rng)])
        y = np.append(y, objective(X[-1])[0] + rng.normal(0, SD))

def next_trial(gp, cand, ys, mu_obs, best, polish, rng):
    """The candidate of best score under --acq, the best five polished by L-BFGS-B; for a
    Thompson draw, which has no gradient to polish, its lowest candidate."""
    if OPTIONS.acq == "ts":
        return cand[np.argmax(thompson(gp, cand, ys, rng))]
    e = None
    if OPTIONS.acq == "kg":
        w = np.linalg.solve(gp.L, gp.sv * matern52(gp.X, gp.X, gp.ls))
        score = lambda Z: kg(gp, Z, mu_obs, w)
    elif OPTIONS.acq == "pi":
        # the log, so that the polish has a gradient far from the incumbent too
        score = lambda Z: norm.logcdf((best - (p := gp.predict(Z))[0]) / p[1])
    elif OPTIONS.acq == "mes":
        # the candidates' predictions give both the draws of the lowest value and their scores
        mu, sd = gp.predict(cand)
        draws = min_value_draws(mu, sd, best, rng)
        score = lambda Z: mes(*gp.predict(Z), draws)
        e = mes(mu, sd, draws)
    else:
        score = lambda Z: ei(*gp.predict(Z), best)
    if e is None:
        e = score(cand)
    top = cand[np.argsort(-e)[:5]]
    bestx, bestv = top[0], -e.max()
    for t in (top if polish else []):
        r = minimize(lambda z: -score(z[None, :])[0], t, method="L-BFGS-B", bounds=[(0, 1)] * D)
        if r.fun < bestv:
            bestx, bestv = r.x, r.fun
    return bestx

if __name__ == "__main__":
    for seed in range(OPTIONS.first, OPTIONS.end):
        print(seed, run(seed), flush=True)
