"""`llvm.func` and `llvm.mlir.global` (LLVMFuncOp / GlobalOp print and parse).

    llvm.func linkage? visibility? unnamed_addr? cconv? @name(signature) vscale_range(a, b)?
              comdat(@c)? attributes {...}? {body}?
    llvm.mlir.global linkage visibility? thread_local? unnamed_addr? constant? @name(value?) comdat(@c)?
              {attrs}? (: type)? {initializer}?

Linkage, calling convention and the other keywords are the op's enum properties; the function's type is
an `!llvm.func<ret (params...)>` whose parameters the signature lists in full form (`!llvm.ptr`).
"""

from __future__ import annotations

import re

from ....ir.attributes import Attribute, IntegerAttr, StringAttr, TypeAttr, UnitAttr
from ....ir.operation import Operation, Region
from ....ir.types import IntegerType, Type
from ....syntax.attr_parser import parse_attribute_text, parse_type_text
from ....syntax.attr_printer import plain_attribute_text, plain_type_text
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .base import (
    Port,
    attr_entries,
    parse_function_signature,
    parse_function_tail,
    print_function_signature,
)

LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common", "appending",
            "extern_weak", "linkonce_odr", "weak_odr", "external")
VISIBILITIES = ("", "hidden", "protected")
UNNAMED_ADDRS = ("", "local_unnamed_addr", "unnamed_addr")
_LLVM_TYPES = ("ptr", "struct", "array", "void", "func", "vec", "label", "metadata", "token", "x86_amx",
               "target", "ppc_fp128")
_ENUM = re.compile(r"#llvm\.\w+<(\w+)>$")


def _keyword(a: Attribute | None, what: str) -> str:
    m = _ENUM.match(plain_attribute_text(a)) if a is not None else None
    if m is None:
        raise SyntaxModelError(f"the {what} is not an llvm enum attribute")
    return m.group(1)


def _index(a: Attribute | None, names: tuple[str, ...], what: str) -> str:
    if a is None:
        return ""
    if not isinstance(a, IntegerAttr) or not 0 <= a.bits < len(names):
        raise SyntaxModelError(f"the {what} is not one of its cases")
    return names[a.bits]


def _i64(n: int) -> IntegerAttr:
    return IntegerAttr.get(IntegerType.get(64), n)


def parse_common_keywords(p: AsmParser, state: OpState, linkage_default: str = "external") -> None:
    """Linkage (default `external`), visibility and unnamed_addr, as parseCommonGlobalAndAlias reads them
    (each property set, to its default when absent)."""
    linkage = next((w for w in LINKAGES if p.parse_optional_keyword(w)), linkage_default)
    state.attributes["linkage"] = parse_attribute_text(f"#llvm.linkage<{linkage}>")
    visibility = next((i for i, w in enumerate(VISIBILITIES) if w and p.parse_optional_keyword(w)), 0)
    state.attributes["visibility_"] = _i64(visibility)


def _unnamed_addr(p: AsmParser, state: OpState) -> None:
    value = next((i for i, w in enumerate(UNNAMED_ADDRS) if w and p.parse_optional_keyword(w)), 0)
    state.attributes["unnamed_addr"] = _i64(value)


def _comdat(p: AsmParser, state: OpState) -> None:
    if p.parse_optional_keyword("comdat"):
        p.parse_punct("(")
        state.attributes["comdat"] = p.parse_attribute()
        p.parse_punct(")")


# ================================================================================================
# LLVM function types in text
# ================================================================================================

def _split_params(text: str) -> list[str]:
    out: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
        i += 1
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def _full(short: str) -> Type:
    word = re.match(r"[A-Za-z_0-9]+", short)
    if word is not None and word.group(0) in _LLVM_TYPES:
        return parse_type_text("!llvm." + short)
    return parse_type_text(short)


def _short(t: Type) -> str:
    text = plain_type_text(t)
    return text[len("!llvm."):] if text.startswith("!llvm.") else text


def function_type_parts(t: Type) -> tuple[list[Type], Type | None, bool]:
    """(parameters, result or None for void, variadic) of an `!llvm.func<...>`."""
    text = plain_type_text(t)
    if not text.startswith("!llvm.func<") or not text.endswith(">"):
        raise SyntaxModelError("function_type is not an !llvm.func type")
    body = text[len("!llvm.func<"):-1]
    open_at = -1
    depth = 0
    for i, c in enumerate(body):  # the parameter list: the first '(' at depth 0
        if c == "(" and depth == 0 and i and body[i - 1] == " ":
            open_at = i
            break
        if c in "<[{(":
            depth += 1
        elif c in ">]})" and not (c == ">" and i and body[i - 1] == "-"):
            depth -= 1
    if open_at < 0 or not body.endswith(")"):
        raise SyntaxModelError("cannot read the llvm function type")
    result = body[:open_at].strip()
    params = _split_params(body[open_at + 1:-1])
    variadic = bool(params) and params[-1] == "..."
    if variadic:
        params = params[:-1]
    return [_full(x) for x in params], None if result == "void" else _full(result), variadic


def function_type(params: list[Type], result: Type | None, variadic: bool) -> Type:
    items = [_short(t) for t in params] + (["..."] if variadic else [])
    ret = "void" if result is None else _short(result)
    return parse_type_text(f"!llvm.func<{ret} ({', '.join(items)})>")


# ================================================================================================
# llvm.func
# ================================================================================================

class FuncOp(Port):
    keywords_list = ("attributes", "comdat", "vscale_range")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name = view.attr("sym_name")
        ft = view.attr("function_type")
        if not isinstance(name, StringAttr) or not isinstance(ft, TypeAttr):
            raise SyntaxModelError("llvm.func needs a name and a function type")
        params, result, variadic = function_type_parts(ft.type)
        linkage = _keyword(view.attr("linkage"), "linkage")
        p.write(" ")
        if linkage != "external":
            p.write(linkage + " ")
        for text in (_index(view.attr("visibility_"), VISIBILITIES, "visibility"),
                     _index(view.attr("unnamed_addr"), UNNAMED_ADDRS, "unnamed_addr")):
            if text:
                p.write(text + " ")
        cconv = view.attr("CConv")
        if cconv is not None and _keyword(cconv, "calling convention") != "ccc":
            p.write(_keyword(cconv, "calling convention") + " ")
        p.symbol_name(name.value)
        body = op.regions[0] if op.regions else None
        if body is not None and body.blocks:
            args = [a.type for a in body.blocks[0].arguments]
            if [plain_type_text(t) for t in args] != [plain_type_text(t) for t in params]:
                raise SyntaxModelError("the body's arguments do not match the function type")
            params = args  # the same types, as the body's objects
        print_function_signature(p, op, view, params, [] if result is None else [result], variadic,
                                 "arg_attrs", "res_attrs")
        vscale = view.attr("vscale_range")
        if vscale is not None:
            m = re.match(r"#llvm\.vscale_range<minRange = (-?\d+) : i32, maxRange = (-?\d+) : i32>$",
                         plain_attribute_text(vscale))
            if m is None:
                raise SyntaxModelError("cannot print this vscale_range")
            p.write(f" vscale_range({m.group(1)}, {m.group(2)})")
        comdat = view.attr("comdat")
        if comdat is not None:
            p.write(" comdat(")
            p.attribute(comdat)
            p.write(")")
        elided = {"sym_name", "function_type", "arg_attrs", "res_attrs", "linkage", "CConv",
                  "visibility_", "comdat", "unnamed_addr", "vscale_range"}
        p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
        if body is not None and body.blocks:
            p.write(" ")
            p.region(body, False, True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_common_keywords(p, state)
        _unnamed_addr(p, state)
        cconv = p.parse_optional_any_keyword() or "ccc"
        state.attributes["CConv"] = parse_attribute_text(f"#llvm.cconv<{cconv}>")
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        args, arg_attrs, results, res_attrs, variadic = parse_function_signature(p, allow_variadic=True)
        if len(results) > 1:
            raise p.error("failed to construct function type: expected zero or one function result")
        params = [a.type for a in args if a.type is not None]
        state.attributes["function_type"] = TypeAttr.get(
            function_type(params, results[0] if results else None, variadic))
        if p.parse_optional_keyword("vscale_range"):
            p.parse_punct("(")
            lo = p.parse_integer()
            p.parse_punct(",")
            hi = p.parse_integer()
            p.parse_punct(")")
            state.attributes["vscale_range"] = parse_attribute_text(
                f"#llvm.vscale_range<minRange = {lo} : i32, maxRange = {hi} : i32>")
        _comdat(p, state)
        parse_function_tail(p, state, args, arg_attrs, res_attrs)


# ================================================================================================
# llvm.mlir.global
# ================================================================================================

class GlobalOp(Port):
    keywords_list = ("constant", "thread_local", "comdat")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name = view.attr("sym_name")
        gt = view.attr("global_type")
        if not isinstance(name, StringAttr) or not isinstance(gt, TypeAttr):
            raise SyntaxModelError("llvm.mlir.global needs a name and a type")
        p.write(" " + _keyword(view.attr("linkage"), "linkage") + " ")
        visibility = _index(view.attr("visibility_"), VISIBILITIES, "visibility")
        if visibility:
            p.write(visibility + " ")
        if view.attr("thread_local_") is not None:
            p.write("thread_local ")
        unnamed = _index(view.attr("unnamed_addr"), UNNAMED_ADDRS, "unnamed_addr")
        if unnamed:
            p.write(unnamed + " ")
        if view.attr("constant") is not None:
            p.write("constant ")
        p.symbol_name(name.value)
        p.write("(")
        value = view.attr("value")
        if value is not None:
            p.attribute(value, "value")
        p.write(")")
        comdat = view.attr("comdat")
        if comdat is not None:
            p.write(" comdat(")
            p.attribute(comdat)
            p.write(")")
        elided = {"sym_name", "global_type", "constant", "value", "linkage", "unnamed_addr", "thread_local_",
                  "visibility_", "comdat"}
        tls = view.attr("tls_mode")
        if tls is not None:
            # MLIR 24's TLS model: its default (0) is not printed; another value has a syntax not ported
            if not (isinstance(tls, IntegerAttr) and tls.bits == 0 and tls.type == IntegerType.get(64)):
                raise SyntaxModelError("llvm.mlir.global with a TLS mode other than the default (no port)")
            elided.add("tls_mode")
        p.optional_attr_dict(attr_entries(view, elided))
        if isinstance(value, StringAttr):
            return
        p.write(" : ")
        p.type(gt.type)
        if op.regions and op.regions[0].blocks:
            p.write(" ")
            p.region(op.regions[0], False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_common_keywords(p, state)
        if p.parse_optional_keyword("thread_local"):
            state.attributes["thread_local_"] = UnitAttr.get()
        _unnamed_addr(p, state)
        if p.parse_optional_keyword("constant"):
            state.attributes["constant"] = UnitAttr.get()
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        p.parse_punct("(")
        value: Attribute | None = None
        if not p.parse_optional_punct(")"):
            value = p.parse_attribute()
            state.attributes["value"] = value
            p.parse_punct(")")
        _comdat(p, state)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        state.attributes.setdefault("addr_space", IntegerAttr.get(IntegerType.get(32), 0))
        if getattr(p, "keyvalue_props", False):  # MLIR 24: the TLS model's default
            state.attributes.setdefault("tls_mode", IntegerAttr.get(IntegerType.get(64), 0))
        region = Region(None)
        if p.parse_optional_punct(":"):
            t = p.parse_type()
            body = p.parse_optional_region()
            if body is not None:
                region = body
        elif isinstance(value, StringAttr):
            t = parse_type_text(f"!llvm.array<{len(value.value)} x i8>")
        else:
            raise p.error("type can only be omitted for string globals")
        state.attributes["global_type"] = TypeAttr.get(t)
        state.regions.append(region)


MODELS: list[OpSyntax] = [FuncOp("llvm.func"), GlobalOp("llvm.mlir.global")]
