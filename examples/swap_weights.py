"""Replace a weight tensor of a JAX export (a StableHLO portable artifact) with the array of a `.npy` file.

The constant whose type has the array's shape and element size gets the new values; everything else,
the file's StableHLO target and bytecode version included, stays as it was.

    python examples/swap_weights.py IN WEIGHTS.npy OUT
"""

from __future__ import annotations

import argparse

import numpy as np

import mlirbc


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("weights", help="a .npy file")
    ap.add_argument("output")
    args = ap.parse_args(argv)

    weights = np.load(args.weights)
    module = mlirbc.load(args.input)
    matches = []
    for op in module.walk():
        for name, value in op.attributes.items():
            t = value.dense_type
            if t is not None and t.shape == list(weights.shape) and \
                    value.dense_values().dtype.itemsize == weights.dtype.itemsize:
                matches.append((op, name, value))
    if len(matches) != 1:
        raise SystemExit(f"{len(matches)} constants of shape {weights.shape}: expected exactly one")
    op, name, value = matches[0]
    new = np.ascontiguousarray(weights, dtype=value.dense_values().dtype)
    op.attributes[name] = value.with_dense_data(new)
    module.save(args.output)
    print(f"replaced the {value.dense_type} constant of '{op.name}' ({weights.nbytes} bytes)")


if __name__ == "__main__":
    main()
