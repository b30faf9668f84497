"""Dialect statistics: how many ops of each dialect and kind a module holds, and which are fallbacks.

    python examples/dialect_stats.py FILE [--disable-model DIALECT] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

import mlirbc


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--disable-model", action="append", default=[], help="decode these as fallbacks")
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = ap.parse_args(argv)

    module = mlirbc.load(args.file, disable_models=args.disable_model)
    ops: Counter[str] = Counter()
    fallbacks: Counter[str] = Counter()
    for op in module.walk():
        ops[op.name] += 1
        if op.is_fallback:
            fallbacks[op.name] += 1
    dialects: Counter[str] = Counter()
    for name, n in ops.items():
        dialects[name.split(".", 1)[0]] += n

    if args.json:
        print(json.dumps({"ops": ops, "dialects": dialects, "fallbacks": fallbacks}, sort_keys=True))
        return
    print(f"{sum(ops.values())} ops of {len(ops)} kinds in {len(dialects)} dialects, "
          f"{sum(fallbacks.values())} of them fallbacks")
    for dialect, n in dialects.most_common():
        kinds = sorted((name for name in ops if name.split(".", 1)[0] == dialect), key=lambda k: -ops[k])
        print(f"{n:>8}  {dialect}: " + ", ".join(f"{k.split('.', 1)[-1]} {ops[k]}" for k in kinds[:6])
              + (", ..." if len(kinds) > 6 else ""))


if __name__ == "__main__":
    main()
