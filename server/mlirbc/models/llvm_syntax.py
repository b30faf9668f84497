"""The LLVM dialect's own syntax for the attributes its bytecode DSL declares (debug info, loop annotations):
`#llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>`,
exactly as `mlir-opt` 22 prints them, so that mlir-opt reads the view.

The values are the DSL interpreter's (`models.dsl`: one kind per entry of `LLVMDialectBytecode.td`, fields =
stored members in wire order); this `DslSyntax` hook maps them to the attribute's parameters and back, driven
by data the generator made (`models/data/dsl/llvm_syntax.json.gz`): each entry's AttrDef (mnemonic,
parameters in order, how each prints and when it is left out), the LLVM enums, and the DWARF name tables
(learned from the oracle's mlir-opt).  Parameter kinds:

* `dwarf` a DWARF constant by name (`DW_TAG_*`, `DW_ATE_*`, `DW_LANG_*`, `DW_CC_*`), `int`, `bool`,
  `enum` (`Full`), `bitenum` (`Vector`, `"Definition|Optimized"`);
* `attr` any attribute, printed in full (`#llvm.di_file<...>` behind an interface, `"name"`, `4 : i64`);
* `stripped` an LLVM attribute of a known class, printed without its `#llvm.mnemonic` (`<"a.c" in "/d">`);
* `array` of either, comma-separated;
* `unwrapped` (`X:p`) an attribute `#llvm.X<p = WORD>` printed as the bare `WORD` (MLIR 24's compile unit
  prints `sourceLanguage = DW_LANG_C` for its `#llvm.di_source_language_name<language = DW_LANG_C>`), any
  other value of the attribute in full.

A parameter names its stored field (or the field a computed member is made from) unless its spec says
which (a fifth element: MLIR 24's `sourceLanguage` is kept in `sourceLanguageName`).  The `mlir24` model set
has its own data (`models/data_mlir24/dsl/llvm_syntax.json.gz`, made by `gen_newer_models.py`).

A parameter is left out when it holds its default (`omit`: `zero` for DWARF parameters defaulting to 0,
`default` for optional parameters: absent, 0 or false as the stored field says), as mlir-opt does.  Whatever
this syntax cannot spell so that it reads back as the same stored entry (an unknown DWARF value, a
present-but-empty list, bits no flag names) is printed in the DSL's generic form instead.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from ..ir.attributes import Attribute, DialectAttr
from ..ir.structured import FieldValue, StructuredAttr, StructuredType
from ..ir.types import Type
from ..syntax.attr_parser import Parser
from ..syntax.attr_printer import keyword_or_string, print_attribute, print_stripped, quote_bytes
from ..syntax.lexer import BARE, HASH, STRING, string_value
from .api import ModelError
from .dsl import DslDialect, DslKind
from .ods import DATA_DIR

SYNTAX_DATA = DATA_DIR / "dsl" / "llvm_syntax.json.gz"


class _Unprintable(Exception):
    """The value cannot be spelled in the dialect's syntax (the generic form is printed instead)."""


@cache
def syntax_data(path: Path = SYNTAX_DATA) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


class _Param:
    """One parameter of an LLVM attribute, with where its value is stored in the DSL value."""

    __slots__ = ("name", "kind", "arg", "omit", "index", "codec")

    def __init__(self, spec: list[str], index: int, codec: str) -> None:
        self.name, self.kind, self.arg, self.omit = spec[:4]
        self.index = index
        """The stored field holding it (-1: the bytecode does not store it; it must hold its default)."""
        self.codec = codec
        """The DSL codec of that field (`varint`, `bool`, `string`, `attr`, `opt_attr`, `hook`, ...)."""


class _Attr:
    """One DSL entry's AttrDef: mnemonic, format and parameters mapped to the stored fields."""

    def __init__(self, kind: DslKind, spec: dict[str, Any]) -> None:
        self.kind = kind
        self.mnemonic: str = spec["mnemonic"]
        fmt = spec["format"]
        self.format = ("struct" if fmt == "`<` struct(params) `>`" else
                       "file" if self.mnemonic == "di_file" else
                       "expression" if self.mnemonic == "di_expression" else
                       "elem" if self.mnemonic == "di_expression_elem" else "?")
        stored = {m.name: (i, m.codec) for i, m in enumerate(kind.stored)}
        locals_ = {m.name: m.codec.name for m in kind.entry.members if m.codec.op == "local"}
        self.params: list[_Param] = []
        used: set[int] = set()
        for p in spec["params"]:
            field_name = p[4] if len(p) > 4 else p[0]
            hit = stored.get(field_name) or stored.get(locals_.get(field_name, ""))
            if hit is None:
                self.params.append(_Param(p, -1, ""))
                continue
            index, codec = hit
            used.add(index)
            self.params.append(_Param(p, index, codec.name if codec.op == "hook" else codec.op))
        self.complete = self.format != "?" and used == set(range(len(kind.stored)))
        """Every stored field is a parameter (otherwise the value prints generically)."""


class LlvmSyntax:
    """The `DslSyntax` hook of the llvm dialect (see module docstring)."""

    def __init__(self, data: Path = SYNTAX_DATA) -> None:
        # The data is read on first use: building a registry must stay cheap (and work while the
        # generator is making that data).
        self.data = data
        self._loaded = False
        self._found = False
        """Whether the data file was there (once it is, no value printed asks the file system again)."""
        self.enums: dict[str, dict[str, Any]] = {}
        self.dwarf: dict[str, dict[str, str]] = {}
        self.dwarf_values: dict[str, dict[str, int]] = {}
        self.attrs_by_class: dict[str, dict[str, Any]] = {}
        self._by_kind: dict[int, _Attr | None] = {}
        self._by_mnemonic: dict[tuple[int, str], _Attr] = {}

    def _has_data(self) -> bool:
        if not self._found:
            self._found = self.data.exists()
        return self._found

    def _load(self) -> None:
        if self._loaded:
            return
        data = syntax_data(self.data)
        self.enums = data["enums"]
        self.dwarf = data["dwarf"]
        for table, names in self.dwarf.items():
            by_name: dict[str, int] = {}
            dup: set[str] = set()
            for value, name in names.items():
                if name in by_name:
                    dup.add(name)
                by_name[name] = int(value)
            self.dwarf_values[table] = {n: v for n, v in by_name.items() if n not in dup}
        self.attrs_by_class = data["attrs"]
        self._loaded = True

    # -- mapping kinds -------------------------------------------------------------------------
    def _attr(self, kind: DslKind) -> _Attr | None:
        self._load()
        key = id(kind)
        if key not in self._by_kind:
            spec = self.attrs_by_class.get(kind.name)
            self._by_kind[key] = _Attr(kind, spec) if spec is not None else None
        return self._by_kind[key]

    def _by(self, dsl: DslDialect, mnemonic: str) -> _Attr | None:
        self._load()
        key = (id(dsl), mnemonic)
        hit = self._by_mnemonic.get(key)
        if hit is None:
            for name, spec in self.attrs_by_class.items():
                kind = dsl.entries.get(name)
                if spec["mnemonic"] == mnemonic and kind is not None:
                    hit = self._attr(kind)
                    if hit is not None:
                        self._by_mnemonic[key] = hit
                    break
        return hit

    # -- printing ----------------------------------------------------------------------------------
    def print_value(self, value: StructuredAttr | StructuredType) -> str | None:
        if not isinstance(value, StructuredAttr) or not isinstance(value.kind, DslKind) or \
                not self._has_data():
            return None
        a = self._attr(value.kind)
        if a is None or not a.complete or a.format == "elem":
            return None
        try:
            return f"#llvm.{a.mnemonic}{self._body(a, value)}"
        except (_Unprintable, ModelError, KeyError, TypeError):
            return None

    def _body(self, a: _Attr, value: StructuredAttr) -> str:
        f = value.fields
        if a.format == "file":
            name, directory = (f[p.index] for p in a.params)
            return f"<{self._string(name)} in {self._string(directory)}>"
        if a.format == "expression":
            ops = f[a.params[0].index]
            if ops is None:
                return "<>"
            if not isinstance(ops, tuple) or not ops:
                raise _Unprintable
            return "<[" + ", ".join(self._elem(x) for x in ops) + "]>"
        parts = []
        for p in a.params:
            if p.index < 0:
                continue
            v = f[p.index]
            if self._omitted(p, v):
                continue
            parts.append(f"{p.name} = {self._value(p.kind, p.arg, p.codec, v)}")
        return "<" + ", ".join(parts) + ">"

    @staticmethod
    def _string(v: FieldValue) -> str:
        if not isinstance(v, bytes):
            raise _Unprintable
        return quote_bytes(v)

    @staticmethod
    def _omitted(p: _Param, v: FieldValue) -> bool:
        if p.omit == "never":
            return False
        if p.codec in ("opt_attr", "readOptionalInt", "readOptionalVarInt", "readOptionalArrayRef"):
            if isinstance(v, tuple) and not v:
                raise _Unprintable  # present but empty: the text cannot say that
            return v is None
        return v == 0 or v is False

    def _elem(self, x: FieldValue) -> str:
        if not isinstance(x, StructuredAttr) or not isinstance(x.kind, DslKind):
            raise _Unprintable
        a = self._attr(x.kind)
        if a is None or a.format != "elem":
            raise _Unprintable
        opcode, args = (x.fields[p.index] for p in a.params)
        text = self._dwarf("OperationEncoding", opcode)
        if args is None:
            return text
        if not isinstance(args, tuple) or not args:
            raise _Unprintable
        convert = self.dwarf_values["OperationEncoding"].get("DW_OP_LLVM_convert")
        items: list[str] = []
        printed = 0
        for arg in args:
            if not isinstance(arg, int):
                raise _Unprintable
            name = self.dwarf["AttributeEncoding"].get(str(arg)) if opcode == convert and printed else None
            if name is not None:
                items.append(name)
            else:
                items.append(str(arg))
                printed += 1
        return f"{text}({', '.join(items)})"

    def _dwarf(self, table: str, v: FieldValue) -> str:
        name = self.dwarf.get(table, {}).get(str(v))
        if name is None or not isinstance(v, int) or self.dwarf_values[table].get(name) != v:
            raise _Unprintable
        return name

    def _value(self, kind: str, arg: str, codec: str, v: FieldValue) -> str:
        if kind == "dwarf":
            return self._dwarf(arg, v)
        if kind == "int":
            if not isinstance(v, int) or isinstance(v, bool):
                raise _Unprintable
            return str(v)
        if kind == "bool":
            if not isinstance(v, bool):
                raise _Unprintable
            return "true" if v else "false"
        if kind in ("enum", "bitenum"):
            return self._enum(arg, kind == "bitenum", v)
        if kind == "attr":
            if codec == "string":
                return self._string(v)
            if not isinstance(v, Attribute):
                raise _Unprintable
            return print_attribute(v)
        if kind == "stripped":
            return self._stripped(arg, v)
        if kind == "unwrapped":
            if not isinstance(v, Attribute):
                raise _Unprintable
            text = print_attribute(v)
            mnemonic, _, inner = arg.partition(":")
            head = f"#llvm.{mnemonic}<{inner} = "
            word = text[len(head):-1] if text.startswith(head) and text.endswith(">") else ""
            return word if _BARE_WORD.fullmatch(word) else text
        if kind == "array":
            if not isinstance(v, tuple) or not v:
                raise _Unprintable
            inner, _, mnemonic = arg.partition(":")
            return ", ".join(self._stripped(mnemonic, x) if inner == "stripped" else
                             self._value("attr", "", "attr", x) for x in v)
        raise _Unprintable

    def _stripped_text(self, mnemonic: str, v: FieldValue) -> str | None:
        try:
            return self._stripped(mnemonic, v)
        except _Unprintable:
            return None

    def _stripped(self, mnemonic: str, v: FieldValue) -> str:
        """`v` without `#llvm.mnemonic` (its alias instead where the view prints one, as MLIR does)."""
        if isinstance(v, StructuredAttr) and isinstance(v.kind, DslKind):
            a = self._attr(v.kind)
            if a is None or a.mnemonic != mnemonic or not a.complete:
                raise _Unprintable
            return print_stripped(v, lambda: self._body(a, v))
        if isinstance(v, DialectAttr):
            head = f"#llvm.{mnemonic}"
            if v.text.startswith(head + "<") and v.text.endswith(">"):
                return print_stripped(v, lambda: v.text[len(head):])
        raise _Unprintable

    def _enum(self, name: str, bit: bool, v: FieldValue) -> str:
        enum = self.enums.get(name)
        if enum is None or not isinstance(v, int) or isinstance(v, bool):
            raise _Unprintable
        cases = enum["cases"]
        if not bit:
            for text, value, _ in cases:
                if value == v:
                    return str(text)
            raise _Unprintable
        if v == 0:
            zero = [t for t, value, _ in cases if value == 0]
            if not zero:
                raise _Unprintable
            return str(zero[0])
        known = 0
        for _, value, _ in cases:
            known |= value
        if v & ~known:
            raise _Unprintable
        names: list[str] = []
        rest = v
        groups = sorted((c for c in cases if c[2]), key=lambda c: (-bin(c[1]).count("1"), -c[1]))
        for text, value, _ in groups:
            if value and rest & value == value:
                names.append(text)
                rest &= ~value
        for text, value, group in cases:
            if not group and value and rest & value == value:
                names.append(text)
        return keyword_or_string("|".join(names).encode())

    # -- parsing -----------------------------------------------------------------------------------
    def parse(self, p: Parser, ident: str, is_type: bool, dsl: DslDialect) -> Attribute | Type | None:
        if is_type or not ident.startswith("llvm.") or not self._has_data():
            return None
        a = self._by(dsl, ident[len("llvm."):])
        if a is None or not a.complete or a.format == "elem" or p.peek().kind != "<":
            return None
        return self._parse_body(p, a, dsl)

    def _parse_body(self, p: Parser, a: _Attr, dsl: DslDialect) -> StructuredAttr:
        fields: list[FieldValue] = [_default(m.codec.op, m.codec.name) for m in a.kind.stored]
        p.expect("<", f"expected '<' for {a.mnemonic}")
        if a.format == "file":
            fields[a.params[0].index] = string_value(p.expect(STRING, "expected the file name"))
            p.expect_keyword("in", "expected 'in' in di_file")
            fields[a.params[1].index] = string_value(p.expect(STRING, "expected the directory"))
            p.expect(">", "expected '>' after di_file")
            return dsl.make_attr(a.kind.name, tuple(fields))
        if a.format == "expression":
            if p.consume_if("["):
                ops = []
                while True:
                    ops.append(self._parse_elem(p, dsl))
                    if p.consume_if("]"):
                        break
                    p.expect(",", "expected ',' or ']' in di_expression")
                fields[a.params[0].index] = tuple(ops)
            p.expect(">", "expected '>' after di_expression")
            return dsl.make_attr(a.kind.name, tuple(fields))
        by_name = {param.name: param for param in a.params}
        seen: set[str] = set()
        while not p.consume_if(">"):
            if seen:
                p.expect(",", f"expected ',' or '>' in {a.mnemonic}")
            tok = p.expect(BARE, f"expected a {a.mnemonic} parameter name")
            param = by_name.get(tok.text)
            if param is None:
                raise p.error(f"{a.mnemonic} has no parameter '{tok.text}'", tok)
            if tok.text in seen:
                raise p.error(f"duplicate {a.mnemonic} parameter '{tok.text}'", tok)
            seen.add(tok.text)
            p.expect("=", f"expected '=' after {tok.text}")
            value = self._parse_value(p, param, dsl)
            if param.index < 0:
                raise p.error(f"{a.mnemonic} parameter '{tok.text}' is not kept in the bytecode encoding "
                              "this model reads", tok)
            fields[param.index] = value
        for param in a.params:
            if param.omit == "never" and param.name not in seen and param.index >= 0:
                raise p.error(f"{a.mnemonic} needs parameter '{param.name}'")
        return dsl.make_attr(a.kind.name, tuple(fields))

    def _parse_elem(self, p: Parser, dsl: DslDialect) -> StructuredAttr:
        a = self._by(dsl, "di_expression_elem")
        if a is None:
            raise p.error("no di_expression_elem entry in this DSL")
        tok = p.expect(BARE, "expected a DW_OP_ name")
        opcode = self.dwarf_values["OperationEncoding"].get(tok.text)
        if opcode is None:
            raise p.error(f"unknown DWARF operation '{tok.text}'", tok)
        fields: list[FieldValue] = [_default(m.codec.op, m.codec.name) for m in a.kind.stored]
        fields[a.params[0].index] = opcode
        if p.consume_if("("):
            args: list[FieldValue] = []
            while True:
                word = p.peek()
                if word.kind == BARE and word.text in self.dwarf_values["AttributeEncoding"]:
                    p.advance()
                    args.append(self.dwarf_values["AttributeEncoding"][word.text])
                else:
                    args.append(p.parse_bounded_int(0, (1 << 64) - 1, "an expression operand",
                                                    signed=False))
                if p.consume_if(")"):
                    break
                p.expect(",", "expected ',' or ')'")
            fields[a.params[1].index] = tuple(args)
        return dsl.make_attr(a.kind.name, tuple(fields))

    def _parse_value(self, p: Parser, param: _Param, dsl: DslDialect) -> FieldValue:
        kind, arg, codec = param.kind, param.arg, param.codec
        if kind == "dwarf":
            tok = p.expect(BARE, f"expected a DWARF name for {param.name}")
            value = self.dwarf_values.get(arg, {}).get(tok.text)
            if value is None:
                raise p.error(f"invalid debug info name '{tok.text}'", tok)
            return value
        if kind == "int":
            return p.parse_bounded_int(0, (1 << 64) - 1, param.name, signed=False)
        if kind == "bool":
            tok = p.expect(BARE, "expected true or false")
            if tok.text not in ("true", "false"):
                raise p.error("expected true or false", tok)
            return tok.text == "true"
        if kind in ("enum", "bitenum"):
            tok = p.advance()
            if tok.kind not in (BARE, STRING):
                raise p.error(f"expected a {arg} value", tok)
            text = tok.text if tok.kind == BARE else string_value(tok).decode()
            return self._enum_value(p, arg, text, tok)
        if kind == "attr":
            if codec == "string":
                return string_value(p.expect(STRING, f"expected a string for {param.name}"))
            return p.parse_attribute()
        if kind == "stripped":
            return self._parse_stripped(p, arg, dsl)
        if kind == "unwrapped":
            word = p.peek()
            if word.kind == BARE and _BARE_WORD.fullmatch(word.text):
                p.advance()
                mnemonic, _, inner = arg.partition(":")
                return DialectAttr.get("llvm", f"#llvm.{mnemonic}<{inner} = {word.text}>")
            return p.parse_attribute()
        if kind == "array":
            inner, _, mnemonic = arg.partition(":")
            items: list[FieldValue] = []
            while True:
                items.append(self._parse_stripped(p, mnemonic, dsl) if inner == "stripped" else
                             p.parse_attribute())
                # a comma followed by `name =` starts the next parameter
                if p.peek().kind != "," or (p.peek_ahead().kind == BARE and p.peek_ahead(2).kind == "="):
                    break
                p.advance()
            return tuple(items)
        raise p.error(f"unsupported parameter kind {kind}")

    def _parse_stripped(self, p: Parser, mnemonic: str, dsl: DslDialect) -> Attribute:
        tok = p.peek()
        if tok.kind == HASH and "." not in tok.text:  # an alias stands for the whole value
            value = p.parse_attribute()
            if self._stripped_text(mnemonic, value) is None:
                raise p.error(f"#{tok.text[1:]} is not an llvm {mnemonic}", tok)
            return value
        a = self._by(dsl, mnemonic)
        if a is not None and a.complete:
            return self._parse_body(p, a, dsl)
        return DialectAttr.get("llvm", f"#llvm.{mnemonic}{p.raw_body()}")

    def _enum_value(self, p: Parser, name: str, text: str, tok: object) -> int:
        enum = self.enums.get(name)
        if enum is None:
            raise p.error(f"unknown enum {name}")
        value = 0
        for part in text.split("|"):
            match = [v for t, v, _ in enum["cases"] if t == part.strip()]
            if not match:
                raise p.error(f"unknown {name} value '{part.strip()}'")
            value |= match[0]
        return value


_BARE_WORD = re.compile(r"[A-Za-z_][\w$.]*")
"""A keyword the text can hold bare (`DW_LANG_C`)."""


def _default(op: str, name: str) -> FieldValue:
    """The stored value of a parameter the text leaves out."""
    if op in ("opt_attr", "attr") or op == "hook":
        return None
    if op == "bool":
        return False
    if op in ("string", "blob"):
        return b""
    return 0

