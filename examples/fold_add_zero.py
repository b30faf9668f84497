"""Fold `arith.addi %x, %c0` to `%x` with a rewrite pattern; ops of dialects without a model (fallbacks)
stay exactly as they were.

    python examples/fold_add_zero.py IN OUT [--disable-model DIALECT]
"""

from __future__ import annotations

import argparse

import mlirbc
from mlirbc.ir import DenseElementsAttr, IntegerAttr, Operation, ShapedType, Value


def is_zero(value: Value) -> bool:
    """Whether `value` is an `arith.constant` zero (an integer, or a splat of integer zeros)."""
    op = value.owner
    if not isinstance(op, Operation) or op.name != "arith.constant":
        return False
    c = op.attributes["value"]
    if isinstance(c, IntegerAttr):
        return c.value == 0
    return isinstance(c, DenseElementsAttr) and c.is_splat and c.get_splat_value() == \
        IntegerAttr.get(ShapedType(c.type).element_type, 0)


class FoldAddZero(mlirbc.RewritePattern):
    root = "arith.addi"

    def __init__(self) -> None:
        super().__init__()
        self.zeros: list[Operation] = []

    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
        lhs, rhs = op.operands
        for zero, other in ((rhs, lhs), (lhs, rhs)):
            if is_zero(zero):
                self.zeros.append(zero.owner)
                rewriter.replace_op(op, [other])
                return True
        return False


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--disable-model", action="append", default=[], help="keep these as fallbacks")
    args = ap.parse_args(argv)

    module = mlirbc.load(args.input, disable_models=args.disable_model)
    fold = FoldAddZero()
    mlirbc.apply_patterns_greedily(module, [fold])
    erased = 0
    for zero in dict.fromkeys(fold.zeros):
        if zero.attached and not list(zero.result.uses):
            zero.erase()
            erased += 1
    module.save(args.output)
    fallbacks = sum(1 for op in module.walk() if op.is_fallback)
    print(f"folded {len(fold.zeros)} additions of zero, erased {erased} constants, kept {fallbacks} "
          "fallback ops")


if __name__ == "__main__":
    main()
