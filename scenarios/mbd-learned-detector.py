"""A learned misbehaviour detector from Python, scored exactly like the built-in ones.

    python scenarios/mbd-learned-detector.py [--trace DIR] [--attack NAME] [--ratio 0.2] [--seed 1]
    python scenarios/mbd-learned-detector.py --attacked DIR      # a trace attacked already

With ``--trace`` (default: the committed SUMO city trace, 2 receivers, 10 s) our
implementation of ``--attack`` (default ``feignedBraking``; an unknown name lists them all)
is injected first; ``--attacked`` takes a VeReMi NextGen folder as it is (e.g. one attacked
by NextGen's own generator in ``scripts/mbd/evaluate.sh``: target/mbd/eval/city-high/
base_feignedBraking). Then:

1. ``trace.features()``: per message, every check's score, the receiver-evidence flags and
   the declared confidences (``v2xsec.mbd.FEATURE_NAMES``);
2. a logistic regression (numpy, Newton's method with a small L2 penalty, classes weighted
   to balance) is fitted on the messages of the *tune* half of the sending vehicles;
3. it and the built-in detectors are scored on the *test* half (no vehicle on both sides):
   precision, recall, F1 with 95 % bootstrap intervals over vehicles.

Any object with ``predict(X)`` works in place of the regression (a scikit-learn classifier:
``trace.evaluate(clf)``); the package itself needs only numpy and pandas.
Needs the ``v2xsec`` package (scripts/test-python.sh builds and installs it).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

from v2xsec import mbd

REPO = pathlib.Path(__file__).resolve().parents[1]
FIXTURE = REPO / "crates" / "v2x-mbd" / "tests" / "fixtures" / "nextgen" / "input"


class LogisticRegression:
    """Binary logistic regression on standardised features, fitted by Newton's method."""

    def __init__(self, l2: float = 1e-2, iterations: int = 25):
        self.l2, self.iterations = l2, iterations

    def fit(self, X: np.ndarray, y: np.ndarray) -> "LogisticRegression":
        self.mean, self.sd = X.mean(axis=0), X.std(axis=0)
        self.sd[self.sd == 0] = 1.0
        Z = np.hstack([np.ones((len(X), 1)), (X - self.mean) / self.sd])
        y = y.astype(float)
        pos = max(y.mean(), 1e-9)
        w_row = np.where(y > 0, 0.5 / pos, 0.5 / max(1 - pos, 1e-9))  # balanced classes
        w = np.zeros(Z.shape[1])
        penalty = self.l2 * np.eye(len(w))
        penalty[0, 0] = 0.0
        for _ in range(self.iterations):
            p = 1.0 / (1.0 + np.exp(-Z @ w))
            grad = Z.T @ (w_row * (p - y)) + penalty @ w
            hess = (Z * (w_row * p * (1 - p))[:, None]).T @ Z + penalty
            step = np.linalg.solve(hess + 1e-9 * np.eye(len(w)), grad)
            w -= step
            if np.abs(step).max() < 1e-8:
                break
        self.w = w
        return self

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        Z = np.hstack([np.ones((len(X), 1)), (X - self.mean) / self.sd])
        return 1.0 / (1.0 + np.exp(-Z @ self.w))

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.predict_proba(X) >= 0.5


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trace", default=str(FIXTURE), help="honest VeReMi NextGen folder to attack")
    ap.add_argument("--attack", default="feignedBraking")
    ap.add_argument("--ratio", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--attacked", help="a VeReMi NextGen folder attacked already (no injection)")
    ap.add_argument("--reps", type=int, default=1000, help="bootstrap resamples")
    a = ap.parse_args(argv)

    if a.attacked:
        trace, what = mbd.Trace.nextgen(a.attacked), a.attacked
    else:
        trace = mbd.Trace.nextgen(a.trace).attack(a.attack, a.ratio, a.seed)
        what = f"{a.attack} (ours, {a.ratio:.0%} of vehicles, seed {a.seed}) on {a.trace}"
    f = trace.features()
    y = trace.meta["attacker"].to_numpy()
    tune = trace.in_half("tune")
    print(f"{what}: {len(trace)} messages, {int(y.sum())} attacked; "
          f"{f.X.shape[1]} features; fitted on {int(tune.sum())} messages of the tune half")
    if y[tune].all() or not y[tune].any():
        print("the tune half has a single class: nothing to learn from", file=sys.stderr)
        return 1
    model = LogisticRegression().fit(f.X[tune], y[tune])
    print(f"{'detector (test half)':<28} score")
    for name in mbd.DETECTORS:
        print(f"{name:<28} {trace.evaluate(name, reps=a.reps)}")
    print(f"{'learned (logistic)':<28} {trace.evaluate(model, reps=a.reps)}")
    heavy = np.argsort(-np.abs(model.w[1:]))[:5]
    print("largest standardised weights: "
          + ", ".join(f"{f.names[i]} {model.w[1 + i]:+.2f}" for i in heavy))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
