"""Four of issue 17's test functions in numpy, the same as OptimizerBenchmark's (TestFunctions.java).

Shared by the reference scripts outside pgknob (textbook-gp-ei.py, reference-samplers.py). Points
are in the unit cube; the relevant inputs come first (the references do not care where they sit);
each function's minimum is 0, so a value is its regret. Ackley 5 of DIMS on [-5, 10] (noise sd
0.425), Hartmann-6 in DIMS on [0, 1] (noise sd 0.0965), Levy 4 of DIMS on [-10, 10] (noise sd
1.12), Styblinski-Tang 4 of DIMS on [-5, 5] (noise sd 3.74): 3% of each function's range, the
median over the space minus the minimum.
"""
import numpy as np

_A = np.array([[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14], [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]])
_P = 1e-4 * np.array([[1312, 1696, 5569, 124, 8283, 5886], [2329, 4135, 8307, 3736, 1004, 9991], [2348, 1451, 3522, 2883, 3047, 6650], [4047, 8828, 8732, 5743, 1091, 381]])
_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])

NAMES = ["ackley", "hartmann", "levy", "styblinski"]


class Problem:
    """One function in DIMS inputs with the benchmark's noise (or NOISE_SD's, 0 for none)."""

    minimum = 0.0

    def __init__(self, name, dims, noise_sd=None):
        self.name, self.dims = name, dims
        self.lo, self.hi, self.sd, self.relevant = -5.0, 10.0, 0.425, 5
        if name == "hartmann":
            self.lo, self.hi, self.sd, self.relevant = 0.0, 1.0, 0.0965, 6
        if name == "levy":
            self.lo, self.hi, self.sd, self.relevant = -10.0, 10.0, 1.12, 4
        if name == "styblinski":
            self.lo, self.hi, self.sd, self.relevant = -5.0, 5.0, 3.74, 4
        if noise_sd is not None:
            self.sd = noise_sd

    def objective(self, u):
        """The noise-free values at the rows of U (points in the unit cube)."""
        x = self.lo + (self.hi - self.lo) * np.atleast_2d(u)[:, : self.relevant]
        if self.name == "hartmann":
            inner = (_A[None, :, :] * (x[:, None, :] - _P[None, :, :]) ** 2).sum(-1)
            return -(_ALPHA[None, :] * np.exp(-inner)).sum(-1) + 3.32237
        if self.name == "levy":
            w = 1 + (x - 1) / 4
            s = np.sin(np.pi * w[:, 0]) ** 2
            s = s + ((w[:, :-1] - 1) ** 2 * (1 + 10 * np.sin(np.pi * w[:, :-1] + 1) ** 2)).sum(1)
            return s + (w[:, -1] - 1) ** 2 * (1 + np.sin(2 * np.pi * w[:, -1]) ** 2)
        if self.name == "styblinski":
            return (0.5 * (x**4 - 16 * x * x + 5 * x)).sum(1) + 4 * 39.16617
        return -20 * np.exp(-0.2 * np.sqrt((x * x).mean(1))) - np.exp(np.cos(2 * np.pi * x).mean(1)) + 20 + np.e


class Mixed:
    """The mixed space of OptimizerBenchmark (TestFunctions.mixedWithConditionAndFailures): 17 knobs,
    or 17 + MORE; x0, x1, x2, mode, method and workers (only with method=worker) matter; trials
    with x0 + x1 > 1.2 fail. Noise sd 0.158; the minimum 0.05 sits on the failure boundary."""

    sd = 0.158
    minimum = 0.05

    def __init__(self, more=0):
        self.more = more
        self.name = "mixed-%d" % (17 + more)

    def suggest(self, trial):
        """Draws a configuration with an Optuna trial (define-by-run: workers only with method=worker)."""
        p = {
            "x0": trial.suggest_float("x0", 0, 1),
            "style": trial.suggest_categorical("style", ["p", "q", "r"]),
            "noise_r0": trial.suggest_float("noise_r0", 0, 10),
            "noise_i0": trial.suggest_int("noise_i0", 1, 65536, log=True),
            "mode": trial.suggest_categorical("mode", ["a", "b", "c", "d"]),
            "noise_b0": trial.suggest_categorical("noise_b0", [False, True]),
            "x1": trial.suggest_float("x1", 0, 1),
            "method": trial.suggest_categorical("method", ["sync", "worker"]),
        }
        if p["method"] == "worker":
            p["workers"] = trial.suggest_int("workers", 1, 32)
        p.update(
            noise_r1=trial.suggest_float("noise_r1", -5, 5),
            noise_e0=trial.suggest_categorical("noise_e0", ["u", "v", "w"]),
            noise_i1=trial.suggest_int("noise_i1", 0, 100),
            x2=trial.suggest_float("x2", 0, 1),
            noise_b1=trial.suggest_categorical("noise_b1", [False, True]),
            noise_r2=trial.suggest_float("noise_r2", 0, 1),
            noise_e1=trial.suggest_categorical("noise_e1", ["u", "v", "w"]),
            noise_r3=trial.suggest_float("noise_r3", 0, 100),
        )
        for i in range(self.more):
            if i % 4 == 0:
                trial.suggest_float("extra_r%d" % i, 0, 1)
            elif i % 4 == 1:
                trial.suggest_int("extra_i%d" % i, 1, 1 << 20, log=True)
            elif i % 4 == 2:
                trial.suggest_categorical("extra_b%d" % i, [False, True])
            else:
                trial.suggest_categorical("extra_e%d" % i, ["k", "l", "m", "n"])
        return p

    @staticmethod
    def value(p):
        """The noise-free value, NaN where the trial fails."""
        if p["x0"] + p["x1"] > 1.2:
            return float("nan")
        mode = {"a": 1.0, "b": 0.0, "c": 2.0, "d": 1.5}[p["mode"]]
        method = 0.5
        if p["method"] == "worker":
            octaves = np.log2(p["workers"]) - 3
            method = 0.5 * octaves * octaves / 4
        bowl = (p["x0"] - 0.7) ** 2 + (p["x1"] - 0.6) ** 2 + (p["x2"] - 0.3) ** 2
        return 10 * bowl + mode + method
