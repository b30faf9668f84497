"""Structural checks on decoded IR that upstream's verifier would also refuse.

Only checks that need no dialect semantics beyond what the properties say: a function-like op whose
`function_type` property is a builtin function type must start its entry block with arguments of those
types.
"""

from __future__ import annotations

from ..errors import DecodeError
from ..ir.attributes import TypeAttr
from ..ir.operation import PROPS_DECODED, Operation
from ..ir.types import FunctionType


def verify(root: Operation) -> DecodeError | None:
    """The first problem found, located at the op's byte offset, or None."""
    for op in root.walk():
        if not op.regions or not op.regions[0].blocks:
            continue
        p = op.properties
        if p is not None and p.kind == PROPS_DECODED:
            ft = p.values.get("function_type")
        elif p is None and op.attributes is not None:  # before version 5 it is in the dictionary
            ft = op.attributes.lookup("function_type")
        else:
            continue
        if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
            continue
        args = op.regions[0].blocks[0].arguments
        inputs = ft.type.inputs
        # Some function-like ops append their own arguments (gpu.func's attributions), so only
        # the leading ones are checked.
        if len(args) < len(inputs):
            return DecodeError(f"'{op.name}' has {len(args)} entry block arguments but its "
                               f"function_type takes {len(inputs)}", max(op.offset, 0), "IR")
        for i, (a, t) in enumerate(zip(args, inputs, strict=False)):
            if a.type is not t:
                return DecodeError(f"'{op.name}': entry block argument #{i} does not have the type "
                                   "of the corresponding argument in function_type",
                                   max(op.offset, 0), "IR")
    return None
