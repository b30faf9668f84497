"""`acc` and `omp`: the atomic ops' shared rules (the Atomic*OpInterface common verifiers) and OpenACC's data
ops' operand lists."""

from __future__ import annotations

from ...ir.operation import Operation, Value
from ...ir.types import MemRefType, Type
from ..core import REGIONS, Finding, OpContext, OpVerifier
from ..ods import operand_groups


def _element(t: Type) -> Type | None:
    """`PointerLikeType::getElementType` where it is known (a memref's element; None: unknown or opaque)."""
    return t.element if isinstance(t, MemRefType) else None


def _named(ctx: OpContext, name: str) -> Value | None:
    """The value of a single operand group, by name."""
    values = (operand_groups(ctx) or {}).get(name)
    return values[0] if values is not None and len(values) == 1 else None


def _group_size(ctx: OpContext, name: str) -> int | None:
    values = (operand_groups(ctx) or {}).get(name)
    return None if values is None else len(values)


def verify_read(ctx: OpContext) -> Finding | None:
    x, v = _named(ctx, "x"), _named(ctx, "v")
    if x is not None and x is v:
        return ctx.error("read and write must not be to the same location for atomic reads",
                         check="AtomicReadOpInterface")
    return None


def verify_write(ctx: OpContext) -> Finding | None:
    x, expr = _named(ctx, "x"), _named(ctx, "expr")
    if x is None or expr is None:
        return None
    element = _element(x.type)
    if element is not None and element is not expr.type:
        return ctx.error("address must dereference to value type", check="AtomicWriteOpInterface")
    return None


def verify_update(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    args = op.regions[0].blocks[0].arguments
    if len(args) != 1:
        return ctx.error("the region must accept exactly one argument", check="AtomicUpdateOpInterface")
    x = _named(ctx, "x")
    element = _element(x.type) if x is not None else None
    if element is not None and element is not args[0].type:
        return ctx.error("the type of the operand must be a pointer type whose element type is the same "
                         "as that "
                         "of the region argument", check="AtomicUpdateOpInterface")
    return None


def verify_update_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if not block.operations or len(block.arguments) != 1:
        return None
    term = block.operations[-1]
    if len(term.operands) != 1:
        return ctx.error("only updated value must be returned", check="AtomicUpdateOpInterface")
    if term.operands[0].type is not block.arguments[0].type:
        return ctx.error("input and yielded value must have the same type", check="AtomicUpdateOpInterface")
    return None


def _x(op: Operation) -> Value | None:
    return op.operands[0] if op.operands else None


def verify_capture_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    ops = op.regions[0].blocks[0].operations
    check = "AtomicCaptureOpInterface"
    if len(ops) != 3:
        return ctx.error("expected three operations in atomic.capture region (one terminator, and two atomic "
                         "ops)", check=check)
    dialect = op.name.split(".", 1)[0]

    def kind(o: Operation) -> str:
        head, _, rest = o.name.partition(".")
        return rest.removeprefix("atomic.") if head == dialect and rest.startswith("atomic.") else ""

    first, second = ops[0], ops[1]
    a, b = kind(first), kind(second)
    if (a, b) not in (("update", "read"), ("read", "update"), ("read", "write"), ("read", "compare"),
                      ("compare", "read")):
        return ctx.error("invalid sequence of operations in the capture region", op=first, check=check)
    if _x(first) is not _x(second):
        if a == "update":
            return ctx.error("updated variable in atomic.update must be captured in second operation",
                             op=first,
                             check=check)
        if a == "read":
            return ctx.error("captured variable in atomic.read must be updated in second operation", op=first,
                             check=check)
        return ctx.error("captured variable in atomic.read must be updated in first operation", op=second,
                         check=check)
    return None


def _data_operands(message: str) -> OpVerifier:
    def check(ctx: OpContext) -> Finding | None:
        if _group_size(ctx, "dataClauseOperands") == 0:
            return ctx.error(message, check=ctx.op.name)
        return None

    return OpVerifier(check, label="at least one data operand")


VERIFIERS = {
    "acc.update": _data_operands("at least one value must be present in dataOperands"),
    "acc.enter_data": _data_operands("at least one operand must be present in dataOperands on the enter data "
                                     "operation"),
    "acc.exit_data": _data_operands("at least one operand must be present in dataOperands on the exit data "
                                    "operation"),
    "acc.host_data": _data_operands("at least one operand must appear on the host_data operation"),
}
REGION_VERIFIERS: dict[str, OpVerifier] = {}
for _d in ("acc", "omp"):
    VERIFIERS[f"{_d}.atomic.read"] = OpVerifier(verify_read, label="read and write locations differ")
    VERIFIERS[f"{_d}.atomic.write"] = OpVerifier(verify_write, label="address element type against the value")
    VERIFIERS[f"{_d}.atomic.update"] = OpVerifier(verify_update,
                                                  label="one region argument of the element type")
    REGION_VERIFIERS[f"{_d}.atomic.update"] = OpVerifier(verify_update_regions, REGIONS,
                                                         label="yields one value of the argument's type")
    REGION_VERIFIERS[f"{_d}.atomic.capture"] = OpVerifier(verify_capture_regions, REGIONS,
                                                          label="two atomic ops on one variable")
