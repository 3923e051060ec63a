#!/usr/bin/env python3
"""Independent expectations for test/io/mat-v73.test.ts, computed with h5py + numpy.

Reads the four shared MAT v7.3 files and writes, per variable, what the TypeScript reader must
return: MATLAB dims (the HDF5 shape reversed), class, sums, a few (row, col) samples taken from
the MATLAB-oriented array (the transpose of what h5py returns), label class sizes and char texts.

Run from the repository root (Debian's h5py; a pyenv python3 may not see it):
    apt-get install -y python3-h5py
    /usr/bin/python3 test/io/v73-expected.py > test/io/v73-expected.json
    npx prettier --write test/io/v73-expected.json
The shared data are looked up beside the repository (../shared/datasets) unless
MVSTUDIO_DATASETS names another folder.
"""
import json
import os
import sys

import h5py
import numpy as np

DATASETS = os.environ.get(
    "MVSTUDIO_DATASETS", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "datasets")
)
FILES = [
    "HW/Handwritten_fea.mat",
    "HW/Handwritten_numerals.mat",
    "Synthetic/synthetic_data.mat",
    "BBCSport/bbcsport4vbigRnSp_percentDel_0.1.mat",
]


def attr_str(obj, name):
    v = obj.attrs.get(name)
    if v is None:
        return None
    return v.decode("ascii") if isinstance(v, bytes) else str(v)


def describe(f, obj):
    cls = attr_str(obj, "MATLAB_class")
    if cls == "cell":
        refs = obj[()]
        # MATLAB array = transpose of the h5py array; MATLAB linear order is column-major.
        m = refs.T
        items = [describe(f, f[r]) for r in m.flatten(order="F")]
        return {"type": "cell", "dims": list(m.shape), "items": items}
    if cls == "char":
        m = obj[()].T
        text = "".join(chr(c) for c in m.flatten(order="F"))
        return {"type": "char", "dims": list(m.shape), "text": text}
    m = np.asarray(obj[()], dtype=np.float64).T
    out = {"type": "numeric", "class": cls, "dims": list(m.shape), "sum": float(m.sum())}
    rng = np.random.RandomState(len(obj.name))
    rows, cols = m.shape
    picks = [(0, 0), (rows - 1, cols - 1)] + [
        (int(rng.randint(rows)), int(rng.randint(cols))) for _ in range(4)
    ]
    # 1-based (row, col, value) as MATLAB would index the array.
    out["samples"] = [[i + 1, j + 1, float(m[i, j])] for i, j in picks]
    if min(rows, cols) == 1 and np.all(m == np.round(m)) and m.size > 1:
        values, counts = np.unique(m, return_counts=True)
        if len(values) <= 20:
            out["counts"] = {str(int(v)): int(c) for v, c in zip(values, counts)}
    return out


def main():
    result = {}
    for rel in FILES:
        path = os.path.join(DATASETS, rel)
        with open(path, "rb") as fh:
            header = fh.read(116).decode("latin-1").rstrip(" \0")
        with h5py.File(path, "r") as f:
            variables = {
                name: describe(f, f[name]) for name in f.keys() if name not in ("#refs#", "#subsystem#")
            }
        result[rel] = {"header": header, "variables": variables}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
