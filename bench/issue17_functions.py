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
