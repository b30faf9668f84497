"""`memref.transpose` (TransposeOp print/parse):

    %transpose = memref.transpose %in (d0, d1) -> (d1, d0) {attrs}? : memref<...> to memref<...>

The permutation prints as a bare affine map (not an `affine_map<...>` attribute); the result is named
`transpose`.

`memref.alloca_scope` (AllocaScopeOp print/parse): `memref.alloca_scope  {body} {attrs}`, or with results
`memref.alloca_scope  -> (T1, T2) {body}` (the printer writes a space before and after the optional
arrow); the body's terminator only shows when there are results.
"""

from __future__ import annotations

from ....ir.operation import Operation
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ...affine_build import AffineSyntaxError, parse_affine_map
from ...builtin_newer import affine_map_text
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .affine_ssa import map_of
from .base import Port, attr_entries, print_types


class TransposeOp(Port):
    keywords_list = ("to",)

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        return [(0, "transpose")] if op.results else []

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.operands) != 1 or len(op.results) != 1:
            raise SyntaxModelError("memref.transpose has one operand and one result")
        perm = view.attr("permutation")
        map_of(perm, "permutation")  # as MLIR prints it, or not at all
        assert perm is not None
        p.write(" ")
        p.operand(op.operands[0])
        p.write(" " + plain_attribute_text(perm)[len("affine_map<"):-1])
        p.optional_attr_dict(attr_entries(view, {"permutation"}))
        p.write(" : ")
        p.type(op.operands[0].type)
        p.write(" to ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        ref = p.parse_operand()
        text = p.parse_affine_map_text()
        try:
            perm = parse_attribute_text(affine_map_text(*parse_affine_map(f"affine_map<{text}>")))
        except AffineSyntaxError as exc:
            raise p.error(str(exc)) from None
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        src = p.parse_type()
        p.resolve_operands([ref], [src], state)
        p.parse_keyword("to")
        state.result_types.append(p.parse_type())
        state.attributes["permutation"] = perm


class AllocaScopeOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if op.operands or len(op.regions) != 1:
            raise SyntaxModelError("memref.alloca_scope has one region and no operands")
        p.write(" ")
        if op.results:
            p.write(" -> (")
            print_types(p, [r.type for r in op.results])
            p.write(")")
        p.write(" ")
        p.region(op.regions[0], False, bool(op.results))
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from .scf import parse_arrow_types

        if p.parse_optional_punct("->"):
            state.result_types.extend(parse_arrow_types(p))
        body = p.parse_region()
        p.ensure_terminator(body, "memref.alloca_scope.return")
        state.regions.append(body)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


MODELS: list[OpSyntax] = [TransposeOp("memref.transpose"), AllocaScopeOp("memref.alloca_scope")]
