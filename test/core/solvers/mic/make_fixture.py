"""MIC fixed-start fixture for test/core/solvers/mic/fixed-start.test.ts.

An independent dense numpy implementation of MIC as the authors' MATLAB code runs it
(chaytonmin/Partial-Multi-View-Clustering, MIC/MultiNMF_incomplete_original_l21.m,
PerViewNMF_incomplete_original_l21.m, NMF.m; specs/baselines-incomplete.md section 2), written
from the specification: the filled views X_v (n, d_v) and the weights are formed densely, every
residual is computed directly (no expansion), and the random draws of the NMF start are replaced
by a portable sequence u_t = frac(t * 0.6180339887498949), t = 1, 2, ... drawn in MATLAB's
column-major order, which the TypeScript test feeds to the solver in the same order.

Run: python3 test/core/solvers/mic/make_fixture.py  (numpy, scipy; reads ../shared/datasets)
Writes test/core/solvers/mic/fixed-start.json.
"""
import json
import math
import os

import numpy as np
import scipy.io

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = os.path.join(HERE, '../../../../../shared/datasets')
PHI = 0.6180339887498949


class Draws:
    def __init__(self):
        self.t = 0

    def rand(self, rows, cols):
        out = np.empty((rows, cols))
        for c in range(cols):
            for i in range(rows):
                self.t += 1
                x = self.t * PHI
                out[i, c] = x - math.floor(x)
        return out


def load(path):
    m = scipy.io.loadmat(path)
    views = []
    V = m['data'].shape[0]
    for v in range(V):
        X = np.array(m['data'][v, 0], dtype=float)  # d x n, NaN columns missing
        idx = np.array(m['index'][0, v]).ravel().astype(int) - 1
        n = X.shape[1]
        X = np.nan_to_num(X, nan=0.0)
        X = X / np.maximum(1e-12, np.sqrt((X ** 2).sum(0)))
        present = np.zeros(n, bool)
        present[idx] = True
        F = X.T.copy()  # n x d, samples as rows
        mean = F[present].mean(0)
        F[~present] = mean
        views.append((F, present))
    return views


def nmf_objective(X, U, V):
    return float(((U @ V.T - X) ** 2).sum())


def nmf_iter(X, U, V):
    # NMF.m on X (d, n): V (n, k) coefficients first, then U (d, k) basis.
    V = V * ((X.T @ U) / np.maximum(V @ (U.T @ U), 1e-10))
    U = U * ((X @ V) / np.maximum(U @ (V.T @ V), 1e-10))
    return U, V


def l1_basis(U, V):
    norms = np.abs(U).sum(0)
    norms = np.where(norms == 0, 1.0, norms)
    return U / norms, V * norms


def nmf_start(X, k, coef, draws):
    d, n = X.shape
    U = draws.rand(d, k)
    U = U / np.maximum(np.sqrt((U ** 2).sum(0)), 1e-10)
    if coef is None:
        V = draws.rand(n, k)
        V = V / V.sum()
    else:
        V = coef.copy()
    return l1_basis(U, V)


def nmf_call(X, k, s, coef, draws):
    if s['restarts'] == 1:
        U, V = nmf_start(X, k, coef, draws)
        for _ in range(s['refineIter']):
            U, V = nmf_iter(X, U, V)
        best = (U, V)
        best_obj = nmf_objective(X, U, V)
    else:
        best, best_obj = None, math.inf
        for _ in range(s['restarts']):
            U, V = nmf_start(X, k, coef, draws)
            for _ in range(s['restartIter']):
                U, V = nmf_iter(X, U, V)
            obj = nmf_objective(X, U, V)
            if best is None or obj < best_obj:
                best, best_obj = (U, V), obj
        if best_obj > 0:
            U, V = best
            for _ in range(s['refineIter']):
                U, V = nmf_iter(X, U, V)
            best = (U, V)
    U, V = l1_basis(*best)
    return U, V, best_obj


def normalize(U, V):
    # PerViewNMF's Normalize: V (d, k) columns to unit l1 (floor 1e-30), U absorbs.
    norms = np.maximum(np.abs(V).sum(0), 1e-30)
    return U * norms, V / norms


def per_view(X, U, V, Us, w, alpha, beta, iters):
    W2 = w ** 2
    U, V = normalize(U, V)
    for _ in range(iters):
        XV = W2[:, None] * (X @ V) + alpha * W2[:, None] * Us
        rn = np.sqrt((U ** 2).sum(1))
        D = np.where(rn > 0, 1.0 / np.where(rn > 0, rn, 1.0), 0.0)
        UVV = W2[:, None] * (U @ (V.T @ V)) + alpha * W2[:, None] * U + 0.5 * beta * D[:, None] * U
        U = U * np.sqrt(XV / np.maximum(UVV, 1e-30))
        XU = X.T @ (W2[:, None] * U)
        UU = U.T @ (W2[:, None] * U)
        V = V * np.sqrt(XU / np.maximum(V @ UU, 1e-30))
        U, V = normalize(U, V)
    return normalize(U, V)


def mic(views, k, s):
    n = views[0][0].shape[0]
    Vn = len(views)
    draws = Draws()
    coef, basis, start_obj = [None] * Vn, [None] * Vn, []
    for p in range(s['passes']):
        for v in range(Vn):
            prev = None if (p == 0 and v == 0) else coef[(v - 1) % Vn]
            B, C, o = nmf_call(views[v][0].T, k, s, prev, draws)
            basis[v], coef[v] = B, C
            start_obj.append(o)
    w = [np.where(pr, 1.0, pr.sum() / n) for _, pr in views]
    objs, changes = [], []
    prev = np.zeros((n, k))
    for r in range(1, s['rounds'] + 1):
        num = sum(s['alpha'] * (w[v] ** 2)[:, None] * coef[v] for v in range(Vn))
        den = sum(s['alpha'] * w[v] ** 2 for v in range(Vn))
        Us = num / den[:, None]
        obj = 0.0
        for v in range(Vn):
            X = views[v][0]
            U = coef[v]
            fit = ((w[v][:, None] * (X - U @ basis[v].T)) ** 2).sum()
            gap = ((w[v][:, None] * (U - Us)) ** 2).sum()
            l21 = np.sqrt((U ** 2).sum(0)).sum()
            obj += fit + s['alpha'] * gap + s['beta'] * l21
        objs.append(float(obj))
        changes.append(float(((prev - Us) ** 2).sum()))
        prev = Us
        if r == s['rounds']:
            break
        for v in range(Vn):
            coef[v], basis[v] = per_view(views[v][0], coef[v], basis[v], Us, w[v], s['alpha'],
                                         s['beta'], s['inner'])
    sv = np.linalg.svd(Us, compute_uv=False)
    return {
        'startObjective': start_obj,
        'objective': objs,
        'change': changes,
        'UstarColSums': Us.sum(0).tolist(),
        'UstarSingularValues': sv.tolist(),
        'missingWeight': [float(pr.sum() / n) for _, pr in views],
    }


CASES = [
    ('NGs/NGs_Per0.5.mat', 5, dict(passes=3, restarts=3, restartIter=10, refineIter=20,
                                   rounds=4, inner=25, alpha=0.01, beta=1e4)),
    ('NGs/NGs_Per0.5.mat', 5, dict(passes=3, restarts=3, restartIter=10, refineIter=20,
                                   rounds=4, inner=25, alpha=0.01, beta=0.01)),
    ('BDGP/BDGP_fea_Per0.5.mat', 5, dict(passes=1, restarts=2, restartIter=5, refineIter=5,
                                         rounds=3, inner=5, alpha=0.01, beta=0.01)),
    ('NGs/NGs_Per0.5.mat', 5, dict(passes=1, restarts=1, restartIter=10, refineIter=15,
                                   rounds=2, inner=10, alpha=0.01, beta=0.01)),
]

if __name__ == '__main__':
    out = {
        'description': __doc__.strip().splitlines()[0],
        'generator': 'test/core/solvers/mic/make_fixture.py',
        'numpy': np.__version__,
        'draws': 'u_t = frac(t * 0.6180339887498949), t = 1, 2, ..., column-major per matrix',
        'cases': [],
    }
    for f, k, s in CASES:
        views = load(os.path.join(DATASETS, f))
        r = mic(views, k, s)
        out['cases'].append({'file': f, 'k': k, 'settings': s, **r})
        print(f, s['beta'], r['objective'])
    with open(os.path.join(HERE, 'fixed-start.json'), 'w') as fh:
        json.dump(out, fh, indent=1)
