"""Strip debug locations: every op and block argument gets `loc(unknown)`, as `mlir-opt --strip-debuginfo`.

    python examples/strip_debug_locations.py IN OUT
"""

from __future__ import annotations

import argparse

import mlirbc
from mlirbc.ir import Location


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    args = ap.parse_args(argv)

    module = mlirbc.load(args.input)
    unknown = Location.unknown()
    stripped = 0
    for op in module.walk():
        if op.location != unknown:
            op.location = unknown
            stripped += 1
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    if arg.location != unknown:
                        arg.set_location(unknown)
                        stripped += 1
    module.save(args.output)
    print(f"stripped {stripped} locations")


if __name__ == "__main__":
    main()
