"""Anchor process of test/bench/numerics.bench.ts: numpy / scipy / scikit-learn timed one call
at a time, so the benchmark can alternate our kernel and the anchor on the same matrices.

Protocol: one JSON object per line on stdin, one JSON object per line on stdout.
  {"cmd": "info"}  -> versions and threadpoolctl.threadpool_info() (BLAS kernel, threads)
  {"cmd": "load", "slot": "A", "path": ..., "rows": m, "cols": n}
                   -> reads m*n little-endian float64 (row-major) into slot A; {"ok": true}
  {"cmd": "free"}  -> drops every slot
  {"cmd": "run", "op": ..., "args": ["A", ...], "threads": t, "seed": s, "values": bool}
                   -> {"ms": wall time of the call, "check": summary of the result}
  {"cmd": "quit"}
"check" is what the benchmark compares with its own result: the eigen/singular values, the
Frobenius norm of a product or solution, the k-means inertia. Errors come back as {"error": ...}.
Run by the benchmark with OPENBLAS_NUM_THREADS=1 and the OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE
overrides unset, so OpenBLAS picks its own kernel; "threads" sets the OpenMP threads of
scikit-learn's k-means (BLAS stays at one thread).
"""

import json
import sys
import time

import numpy as np
import scipy
import scipy.linalg as sl
import sklearn
import threadpoolctl
from sklearn.cluster import KMeans, kmeans_plusplus

slots = {}
K = 10


def fro(x):
    return float(np.linalg.norm(x))


def kmeans_iteration(X, seed):
    """ms per Lloyd iteration: (fit - k-means++ seeding) / iterations, 20 iterations at most."""
    t = time.perf_counter()
    kmeans_plusplus(X, K, random_state=seed)
    seeding = time.perf_counter() - t
    t = time.perf_counter()
    km = KMeans(K, n_init=1, algorithm="lloyd", max_iter=20, tol=0, random_state=seed).fit(X)
    fit = time.perf_counter() - t
    return (fit - seeding) * 1000 / km.n_iter_, [float(km.inertia_), int(km.n_iter_)]


def kmeans_replicates(X, seed):
    """A 20-replicate call; tol=0 stops a replicate when no label changes, as ours does."""
    t = time.perf_counter()
    km = KMeans(K, n_init=20, algorithm="lloyd", max_iter=100, tol=0, random_state=seed).fit(X)
    ms = (time.perf_counter() - t) * 1000
    return ms, [float(km.inertia_), int(km.n_iter_)]


def timed(f):
    t = time.perf_counter()
    r = f()
    return (time.perf_counter() - t) * 1000, r


def run(op, a, seed):
    """(ms, check) of one call of `op` on the loaded slots `a`."""
    if op == "gemm":
        ms, C = timed(lambda: a[0] @ a[1])
        return ms, fro(C)
    if op == "eig":
        ms, (w, _) = timed(lambda: np.linalg.eigh(a[0]))
        return ms, w.tolist()
    if op == "eigk":
        n = a[0].shape[0]
        ms, (w, _) = timed(lambda: sl.eigh(a[0], subset_by_index=[n - K, n - 1]))
        return ms, w.tolist()
    if op == "svd":
        ms, (_, s, _) = timed(lambda: np.linalg.svd(a[0], full_matrices=False))
        return ms, s.tolist()
    if op == "chol":
        ms, X = timed(lambda: sl.cho_solve(sl.cho_factor(a[0], lower=True), a[1]))
        return ms, fro(X)
    if op == "ldl":
        # scipy has no LDL^T solve of its own; solve(assume_a='sym') is LAPACK's dsysv, the
        # Bunch-Kaufman LDL^T factorisation and its solve.
        ms, X = timed(lambda: sl.solve(a[0], a[1], assume_a="sym"))
        return ms, fro(X)
    if op == "lu":
        ms, X = timed(lambda: sl.lu_solve(sl.lu_factor(a[0]), a[1]))
        return ms, fro(X)
    if op == "kmeans-iter":
        return kmeans_iteration(a[0], seed)
    if op == "kmeans-rep":
        return kmeans_replicates(a[0], seed)
    raise ValueError(f"unknown op {op}")


def answer(msg):
    cmd = msg["cmd"]
    if cmd == "info":
        return {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "sklearn": sklearn.__version__,
            "threadpools": threadpoolctl.threadpool_info(),
        }
    if cmd == "load":
        x = np.fromfile(msg["path"], dtype="<f8").reshape(msg["rows"], msg["cols"])
        slots[msg["slot"]] = x
        return {"ok": True}
    if cmd == "free":
        slots.clear()
        return {"ok": True}
    if cmd == "run":
        a = [slots[s] for s in msg["args"]]
        with threadpoolctl.threadpool_limits(limits=1, user_api="blas"):
            with threadpoolctl.threadpool_limits(limits=msg.get("threads", 1), user_api="openmp"):
                ms, check = run(msg["op"], a, msg.get("seed", 0))
        return {"ms": ms, "check": check if msg.get("values", True) else None}
    raise ValueError(f"unknown command {cmd}")


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg["cmd"] == "quit":
            break
        try:
            reply = answer(msg)
        except Exception as e:  # reported to the benchmark, which prints it in the row
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
