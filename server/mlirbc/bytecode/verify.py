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
from ..syntax.attr_printer import print_type


def function_signature_problem(op: Operation) -> str | None:
    """Why `op`'s entry block disagrees with its `function_type`, or None."""
    if not op.regions or not op.regions[0].blocks:
        return None
    p = op.properties
    if p is not None and p.kind == PROPS_DECODED:
        ft = p.values.get("function_type")
    elif p is None and op.attributes is not None:  # before version 5 it is in the dictionary
        ft = op.attributes.lookup("function_type")
    else:
        return None
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        return None
    args = op.regions[0].blocks[0].arguments
    inputs = ft.type.inputs
    # Some function-like ops append their own arguments (gpu.func's attributions), so only
    # the leading ones are checked.
    if len(args) < len(inputs):
        return f"'{op.name}' has {len(args)} entry block arguments but its function_type takes {len(inputs)}"
    for i, (a, t) in enumerate(zip(args, inputs, strict=False)):
        if a.type is not t:
            # as upstream's verifier words it (FunctionOpInterface)
            return (f"'{op.name}' op type of entry block argument #{i}('{print_type(a.type)}') must match "
                    f"the type of the corresponding argument in function signature('{print_type(t)}')")
    return None


def verify(root: Operation) -> DecodeError | None:
    """The first problem found, located at the op's byte offset, or None."""
    for op in root.walk():
        problem = function_signature_problem(op)
        if problem is not None:
            return DecodeError(problem, max(op.offset, 0), "IR")
    return None
