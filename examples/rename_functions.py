"""Rename every function and every reference to it (`func.call` callees and other symbol references).

    python examples/rename_functions.py IN OUT [--prefix PREFIX]
"""

from __future__ import annotations

import argparse

import mlirbc
from mlirbc.ir import FlatSymbolRefAttr, StringAttr, SymbolRefAttr


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--prefix", default="renamed_")
    args = ap.parse_args(argv)

    module = mlirbc.load(args.input)
    names: dict[str, str] = {}
    for op in module.walk():
        if op.name == "func.func":
            old = StringAttr(op.attributes["sym_name"]).value
            names[old] = args.prefix + old
            op.attributes["sym_name"] = StringAttr.get(names[old])
    references = 0
    for op in module.walk():
        for key, value in op.attributes.items():
            if isinstance(value, FlatSymbolRefAttr) and value.value in names:
                op.attributes[key] = FlatSymbolRefAttr.get(names[value.value])
                references += 1
            elif isinstance(value, SymbolRefAttr) and value.value[0] in names:
                op.attributes[key] = SymbolRefAttr.get([names[value.value[0]], *value.value[1:]])
                references += 1
    module.save(args.output)
    print(f"renamed {len(names)} functions and {references} references")


if __name__ == "__main__":
    main()
