"""Alias names of attributes and types (ports of upstream's `OpAsmDialectInterface::getAlias` and of the
`OpAsmAttrInterface` that ODS generates for `genMnemonicAlias`).

A view with aliases prints each aliased value once, as `#name = value` (`!name = type`), and `#name` where
it is used; the view decides which values are printed and numbers equal names (`#map`, `#map1`, ...).
This module says only which name a value asks for.  Rules are registered per dialect
(`Registry.register_alias_rule`, replaceable like every model); the IREE plugin registers its dialects'.

Dialect values reach a rule in whatever form the file gave them (a structured value, or a `DialectAttr`
known by its text): rules read the mnemonic and parameters from the value's plain text, which is the same
in every form.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...ir.attributes import (
    Attribute,
    CallSiteLoc,
    DialectAttr,
    DistinctAttr,
    FileLineColLoc,
    FileLineColRange,
    FusedLoc,
    NameLoc,
    UnitAttr,
    UnknownLoc,
)
from ...ir.types import TupleType, Type

AliasRule = Callable[[Attribute | Type], str | None]

_LOCATIONS = (UnknownLoc, FileLineColLoc, FileLineColRange, NameLoc, CallSiteLoc, FusedLoc)
_BUILTIN_CLASSES = frozenset(_LOCATIONS)
_MNEMONIC = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$]*\.([A-Za-z_][A-Za-z0-9_$.]*)")


def plain_text(value: Attribute | Type) -> str:
    """The value as a local-scope view prints it (no aliases, no elision)."""
    from ...syntax.attr_printer import plain_attribute_text, plain_type_text

    return plain_type_text(value) if isinstance(value, Type) else plain_attribute_text(value)


def mnemonic(value: Attribute | Type) -> str:
    """`di_file` for `#llvm.di_file<...>` (the dialect's pretty form); "" for any other spelling."""
    m = _MNEMONIC.match(plain_text(value))
    return m.group(1) if m else ""


def closing_bracket(text: str, at: int) -> int:
    """The index of the `>` closing the `<` at `at` (-1 if none): brackets nest, strings and `->` are
    skipped."""
    depth = 0
    i, n = at, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "<([{":
            depth += 1
        elif c == ">" and i and text[i - 1] == "-":
            pass
        elif c in ">)]}":
            depth -= 1
            if depth == 0:
                return i if c == ">" else -1
        i += 1
    return -1


_HEAD = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$.]*")


def literal_type(value: Attribute) -> Type | None:
    """A typed attribute's type (TypedAttr::getType), also of a dialect attribute known by its text
    (`#hal.device.target<...> : !hal.device`)."""
    t = getattr(value, "type", None)
    if isinstance(t, Type):
        return t
    if not isinstance(value, DialectAttr):
        return None
    text = value.text
    m = _HEAD.match(text)
    if m is None:
        return None
    i = m.end()
    if i < len(text) and text[i] == "<":
        close = closing_bracket(text, i)
        if close < 0:
            return None
        i = close + 1
    if not text.startswith(" : ", i):
        return None
    from ...errors import TextError
    from ...syntax.attr_parser import parse_type_text

    try:
        return parse_type_text(text[i + 3:])
    except TextError:
        return None


def builtin_alias(value: Attribute | Type) -> str | None:
    """The builtin dialect's names: affine maps `map`, integer sets `set`, locations `loc`, distinct
    attributes (of something) `distinct`, tuples of more than 16 types `tuple`."""
    if isinstance(value, _LOCATIONS):
        return "loc"
    if isinstance(value, DialectAttr):
        text = value.text
        if text.startswith("affine_map<"):
            return "map"
        if text.startswith("affine_set<"):
            return "set"
        return None
    if isinstance(value, DistinctAttr):
        return None if isinstance(value.referenced, UnitAttr) else "distinct"
    if isinstance(value, TupleType) and len(value.types) > 16:
        return "tuple"
    return None


def mnemonic_rule(names: frozenset[str], renamed: dict[str, str] | None = None) -> AliasRule:
    """Values whose mnemonic is in `names` are aliased by their mnemonic (ODS `genMnemonicAlias`), or by
    the name `renamed` gives it (a dialect interface returning a fixed name)."""
    table = dict(renamed or {})

    def rule(value: Attribute | Type) -> str | None:
        m = mnemonic(value)
        if m in table:
            return table[m]
        return m if m in names else None
    return rule


LLVM_MNEMONIC_ALIASES = frozenset({
    "access_group", "alias_scope", "alias_scope_domain", "di_basic_type", "di_common_block",
    "di_compile_unit", "di_composite_type", "di_derived_type", "di_file", "di_global_variable",
    "di_global_variable_expression", "di_imported_entity", "di_label", "di_lexical_block",
    "di_lexical_block_file", "di_local_variable", "di_module", "di_namespace", "di_null_type",
    "di_string_type", "di_subprogram", "di_subroutine_type", "mmra_tag", "tbaa_root", "tbaa_tag",
    "tbaa_type_desc", "loop_annotation", "loop_distribute", "loop_interleave", "loop_licm",
    "loop_peeled", "loop_pipeline", "loop_unroll_and_jam", "loop_unroll", "loop_unswitch",
    "loop_vectorize",
})
"""The LLVM dialect's attributes with `genMnemonicAlias` (the `.td` files of the oracle's MLIR)."""


def register_alias_rules(registry: object, origin: str) -> None:
    """Upstream's alias rules: builtin, `llvm`, `ml_program`, `sparse_tensor`."""
    from ..registry import Registry

    assert isinstance(registry, Registry)
    registry.register_alias_rule("builtin", builtin_alias, origin)
    registry.register_alias_rule("llvm", mnemonic_rule(LLVM_MNEMONIC_ALIASES), origin)
    registry.register_alias_rule("ml_program", mnemonic_rule(frozenset({"extern"})), origin)
    registry.register_alias_rule("sparse_tensor", mnemonic_rule(frozenset(), {"encoding": "sparse"}), origin)


def value_dialect(value: Attribute | Type) -> str:
    """The dialect whose rule names `value` (builtin classes: `builtin`)."""
    if type(value) in _BUILTIN_CLASSES:
        return "builtin"
    d = getattr(value, "dialect_name", None)
    if isinstance(d, str):
        return d
    kind = getattr(value, "kind", None)
    if kind is not None and isinstance(getattr(kind, "dialect", None), str):
        return str(kind.dialect)
    return "builtin"


def sanitize_alias(name: str) -> str:
    """sanitizeIdentifier with `$_-`: other characters as hex, a space as `_`, `_` before a leading digit
    or invalid character."""
    def valid(c: str) -> bool:
        return c.isascii() and (c.isalnum() or c in "$_-")

    def copied() -> str:
        out = []
        for c in name:
            if valid(c):
                out.append(c)
            elif c == " ":
                out.append("_")
            else:
                out.extend(f"{b:X}" for b in c.encode("utf-8", "surrogateescape"))
        return "".join(out)

    if not name:
        return name
    if name[0].isdigit() or (not valid(name[0]) and name[0] != " "):
        return "_" + copied()
    if all(valid(c) for c in name):
        return name
    return copied()
