"""Anchor of test/bench/mvgl-eigs.bench.ts: scipy's eigensolvers on one of MVGL's Laplacians.

Usage: python3 mvgl_eigs_anchor.py DIR N C REPEATS
DIR holds L.indptr (int32), L.indices (int32), L.data (float64): the (N, N) CSR Laplacian, and
optionally X0 (float64, row-major (N, B), B in X0.json): the warm start MVGL's own solve had.
For each solver, the C + 1 smallest eigenpairs of L; prints one JSON object per solver and line:
  {"solver", "products" (products of L with single vectors; a block of b counts b),
   "ms" (median wall time of REPEATS calls), "residual" (max over the C smallest pairs of
   ||L x - theta x|| / ||L||_inf, ||L||_inf the largest absolute row sum, an upper bound on ||L||)}.
Solvers: ARPACK's implicitly restarted Lanczos (scipy eigsh, which='SA') at machine precision
(tol 0) and at 1e-8, each with scipy's default Lanczos basis (2(C + 1) + 1 vectors) and with 40;
LOBPCG from the warm block's first C + 1 columns (random when there is none) to 1e-12 ||L||.
ARPACK takes one start vector; it is the sum of the warm block's first C columns.
Run with one BLAS thread (the benchmark sets OPENBLAS_NUM_THREADS=1).
"""

import json
import os
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

warnings.filterwarnings("ignore")


def main():
    d, n, c, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    indptr = np.fromfile(os.path.join(d, "L.indptr"), dtype=np.int32)
    indices = np.fromfile(os.path.join(d, "L.indices"), dtype=np.int32)
    data = np.fromfile(os.path.join(d, "L.data"), dtype=np.float64)
    L = sp.csr_matrix((data, indices, indptr), shape=(n, n))
    norm = float(abs(L).sum(axis=1).max())
    X0 = None
    if os.path.exists(os.path.join(d, "X0")):
        b = json.load(open(os.path.join(d, "X0.json")))["cols"]
        X0 = np.fromfile(os.path.join(d, "X0"), dtype=np.float64).reshape(n, b)
    count = [0]

    def product(X):
        count[0] += 1 if X.ndim == 1 else X.shape[1]
        return L @ X

    op = sla.LinearOperator((n, n), matvec=product, matmat=product, dtype=np.float64)

    def residual(w, U):
        R = L @ U[:, :c] - U[:, :c] * w[:c]
        return float(np.linalg.norm(R, axis=0).max() / norm)

    v0 = X0[:, :c].sum(axis=1) if X0 is not None else None
    start = X0[:, : c + 1] if X0 is not None else np.random.default_rng(0).standard_normal((n, c + 1))
    solvers = []
    for tol in (0.0, 1e-8):
        for ncv in (None, 40):
            name = f"ARPACK eigsh tol {tol:g}, basis {ncv or 2 * (c + 1) + 1}"
            solvers.append(
                (name, lambda tol=tol, ncv=ncv: sla.eigsh(op, k=c + 1, which="SA", tol=tol, ncv=ncv, v0=v0))
            )
    solvers.append(
        (
            "LOBPCG tol 1e-12 |L|",
            lambda: sla.lobpcg(op, start.copy(), largest=False, tol=1e-12 * norm, maxiter=1000),
        )
    )
    for name, solve in solvers:
        times = []
        for _ in range(repeats):
            count[0] = 0
            t = time.perf_counter()
            w, U = solve()
            times.append((time.perf_counter() - t) * 1000)
        order = np.argsort(w)
        w, U = w[order], U[:, order]
        print(
            json.dumps(
                {
                    "solver": name,
                    "products": count[0],
                    "ms": float(np.median(times)),
                    "residual": residual(w, U),
                }
            ),
            flush=True,
        )


main()
