"""The `custom<Name>(...)` directives of declarative formats: one print/parse pair per name, ported from the
C++ functions upstream (and IREE) write for them (`printDynamicIndexList`, ...).

A directive gets its arguments as the format names them (operands, attributes, `type(...)`, `ref(...)`,
regions, successors, strings): `PrintArgs` reads their values from the op, `ParseArgs` stores what the
text gives into the format's reader (`declarative_parse.Parsed`) and reads back what earlier elements
read (`ref`).  A directive without a port makes the op print generic.  Ports live in `directives_*.py`
modules, one per dialect family, each registering with `@printer(name)` / `@parser(name)`.  Two dialects
may give one name different C++ functions (cf's and llvm's `SwitchOpCases`): a port registered as
`dialect.Name` serves that dialect's ops, before one registered as `Name`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...ir.attributes import Attribute
from ...ir.operation import Block, Region, Value
from ...ir.types import Type
from .adaptor import OpView
from .api import (
    AsmParser,
    AsmPrinter,
    BlockRef,
    OperandRef,
    OpState,
    SyntaxModelError,
    comma_list,
    interleave_comma,
)

if TYPE_CHECKING:
    from .declarative import DeclarativeSyntax
    from .declarative_parse import Parsed

Element = list[Any]


class PrintArgs:
    """The values of a directive's arguments, for printing."""

    def __init__(self, model: DeclarativeSyntax, view: OpView, args: list[Element]) -> None:
        self.model = model
        self.view = view
        self.args = args
        self.op = view.op

    def _arg(self, i: int) -> Element:
        a = self.args[i]
        return a[1] if a[0] == "ref" else a

    def __len__(self) -> int:
        return len(self.args)

    def kind(self, i: int) -> str:
        return str(self._arg(i)[0])

    def values(self, i: int) -> list[Value]:
        a = self._arg(i)
        if a[0] == "operand":
            return list(self.view.operands(a[1]))
        if a[0] == "operands":
            return list(self.op.operands)
        raise SyntaxModelError(f"argument {i} is not an operand")

    def value(self, i: int) -> Value | None:
        vs = self.values(i)
        return vs[0] if vs else None

    def value_groups(self, i: int) -> list[list[Value]]:
        return self.view.vov_groups(self._arg(i)[1])

    def types(self, i: int) -> list[Type]:
        a = self._arg(i)
        if a[0] != "type":
            raise SyntaxModelError(f"argument {i} is not a type")
        return self.model.types_of(a[1], self.view)

    def type(self, i: int) -> Type | None:
        ts = self.types(i)
        return ts[0] if ts else None

    def attr(self, i: int) -> Attribute | None:
        a = self._arg(i)
        if a[0] not in ("attr", "prop"):
            raise SyntaxModelError(f"argument {i} is not an attribute")
        value = self.view.attr(a[1])
        if value is None and a[0] == "attr":
            value = self.model.default(a[1])
        return value

    def attr_name(self, i: int) -> str:
        return str(self._arg(i)[1])

    def regions(self, i: int) -> list[Region]:
        a = self._arg(i)
        if a[0] == "regions":
            return list(self.op.regions)
        return self.model._regions(self.view, a[1])

    def region(self, i: int) -> Region:
        rs = self.regions(i)
        if len(rs) != 1:
            raise SyntaxModelError("expected one region")
        return rs[0]

    def successors(self, i: int) -> list[Block]:
        return list(self.model._successors(self.view, self._arg(i)[1]))

    def string(self, i: int) -> str:
        a = self.args[i]
        if a[0] != "string":
            raise SyntaxModelError(f"argument {i} is not a string")
        return str(a[1])


class ParseArgs:
    """Where a directive's arguments go when it reads its text, and what earlier elements read."""

    def __init__(self, model: DeclarativeSyntax, p: AsmParser, parsed: Parsed, state: OpState,
                 args: list[Element]) -> None:
        self.model = model
        self.p = p
        self.parsed = parsed
        self.state = state
        self.args = args

    def _arg(self, i: int) -> Element:
        a = self.args[i]
        return a[1] if a[0] == "ref" else a

    def is_ref(self, i: int) -> bool:
        return bool(self.args[i][0] == "ref")

    def __len__(self) -> int:
        return len(self.args)

    def kind(self, i: int) -> str:
        return str(self._arg(i)[0])

    # -- results of this directive ----------------------------------------------------------------
    def set_values(self, i: int, refs: list[OperandRef], groups: list[int] | None = None) -> None:
        a = self._arg(i)
        if a[0] == "operands":
            self.parsed.all_operands = refs
            return
        self.parsed.operands[a[1]] = refs
        if groups is not None:
            self.parsed.vov_sizes[a[1]] = groups

    def set_types(self, i: int, types: list[Type]) -> None:
        a = self._arg(i)
        if a[0] != "type":
            raise self.p.error("internal: a type argument expected")
        target = a[1]
        if target[0] == "operand":
            self.parsed.operand_types[target[1]] = types
        elif target[0] == "result":
            self.parsed.result_types[target[1]] = types
        elif target[0] == "operands":
            self.parsed.all_operand_types = types
        elif target[0] == "results":
            self.parsed.all_result_types = types

    def set_attr(self, i: int, value: Attribute | None) -> None:
        if value is not None:
            self.parsed.attrs[self._arg(i)[1]] = value

    def set_region(self, i: int, region: Region) -> None:
        self.parsed.regions[self._arg(i)[1]] = [region]

    def set_regions(self, i: int, regions: list[Region]) -> None:
        a = self._arg(i)
        if a[0] == "regions":
            self.parsed.all_regions = regions
        else:
            self.parsed.regions[a[1]] = regions

    def set_successors(self, i: int, refs: list[BlockRef]) -> None:
        self.parsed.successors[self._arg(i)[1]] = refs

    # -- what earlier elements read (ref arguments) -----------------------------------------------------
    def values(self, i: int) -> list[OperandRef]:
        a = self._arg(i)
        if a[0] == "operands":
            return list(self.parsed.all_operands or [])
        return list(self.parsed.operands.get(a[1], []))

    def types(self, i: int) -> list[Type] | None:
        a = self._arg(i)
        target = a[1] if a[0] == "type" else a
        if target[0] == "operand":
            return self.parsed.operand_types.get(target[1])
        if target[0] == "result":
            return self.parsed.result_types.get(target[1])
        return None

    def attr(self, i: int) -> Attribute | None:
        return self.parsed.attrs.get(self._arg(i)[1])

    def region(self, i: int) -> Region | None:
        """A region an earlier element read (a `ref($region)` argument)."""
        found = self.parsed.regions.get(self._arg(i)[1])
        return found[0] if found else None

    def string(self, i: int) -> str:
        return str(self.args[i][1])

    def error(self, message: str) -> Exception:
        return self.p.error(message)


PrintFn = Callable[[AsmPrinter, PrintArgs], None]
ParseFn = Callable[[AsmParser, ParseArgs, bool], bool]
"""(parser, arguments, optional) -> whether the directive was there (always True when not `optional`;
an optional read consumes nothing when it returns False)."""

PRINTERS: dict[str, PrintFn] = {}
PARSERS: dict[str, ParseFn] = {}
_LOADED = False


def _builtin(fn: Callable[..., Any]) -> bool:
    return fn.__module__.startswith(f"{__package__}.directives_")


def _register(table: dict[str, Any], name: str, fn: Callable[..., Any]) -> None:
    # A plugin's port replaces a built-in one of the same name whichever module is imported first (the
    # built-in modules are imported as formats need them); among plugins the later registration wins.
    old = table.get(name)
    if old is None or _builtin(old) or not _builtin(fn):
        table[name] = fn


def printer(name: str) -> Callable[[PrintFn], PrintFn]:
    def deco(fn: PrintFn) -> PrintFn:
        _register(PRINTERS, name, fn)
        return fn
    return deco


def parser(name: str) -> Callable[[ParseFn], ParseFn]:
    def deco(fn: ParseFn) -> ParseFn:
        _register(PARSERS, name, fn)
        return fn
    return deco


EXTRA_MODULES: list[str] = []
"""Modules of plugins' directive ports, imported the first time any directive is needed
(`add_directive_module`)."""


def add_directive_module(name: str) -> None:
    """A plugin's module of `custom<...>` ports (it registers with `@printer`/`@parser` when imported),
    imported the first time a directive is needed (its ports replace built-in ones of the same name)."""
    if name not in EXTRA_MODULES:
        EXTRA_MODULES.append(name)
        _keys.clear()  # it may register a dialect's own port of a name found before
        if _imported:
            _import(name)


_BUILTIN = ("directives_acc", "directives_async", "directives_cf", "directives_dialects", "directives_gpu",
            "directives_iree", "directives_iree_lists", "directives_iree_pcf", "directives_iree_regions",
            "directives_iree_types", "directives_omp", "directives_pdl", "directives_upstream")
_imported: set[str] = set()
"""The modules of ports imported so far (built-in ones by their short name, plugins' by their full one)."""


def _import(name: str) -> None:
    if name not in _imported:
        import importlib

        importlib.import_module(f"{__package__}.{name}" if name in _BUILTIN else name)
        _imported.add(name)


def _load() -> None:
    """Every module of ports: the built-in ones and plugins'."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        for name in (*_BUILTIN, *EXTRA_MODULES):
            _import(name)


def _load_for(name: str, op_name: str) -> None:
    """The modules that may serve `custom<name>` in op `op_name`: plugins', the built-in module of the
    dialect's own port and of the shared one (`directive_index`); all of them for a name the index does not
    know."""
    if _LOADED:
        return
    for extra in EXTRA_MODULES:
        _import(extra)
    from .directive_index import INDEX

    known = False
    for key in (f"{op_name.split('.', 1)[0]}.{name}", name):
        module = INDEX.get(key)
        if module is not None:
            _import(module)
            known = True
    if not known:
        _load()


_keys: dict[tuple[str, str], str] = {}
"""(directive, op name) -> its registration, once found (`_key` is on the path of every op printed)."""


def _key(name: str, op_name: str) -> str:
    """The registration serving `custom<name>` in op `op_name`: the dialect's own, else the shared one."""
    key = _keys.get((name, op_name))
    if key is None:
        _load_for(name, op_name)
        qualified = f"{op_name.split('.', 1)[0]}.{name}"
        key = _keys[name, op_name] = qualified if qualified in PRINTERS else name
    return key


def can_parse(name: str, op_name: str = "") -> bool:
    key = _key(name, op_name)
    return key in PARSERS and key in PRINTERS


def print_directive(name: str, args: list[Element], model: DeclarativeSyntax, view: OpView,
                    p: AsmPrinter) -> None:
    fn = PRINTERS.get(_key(name, model.name))
    if fn is None:
        raise SyntaxModelError(f"custom<{name}> has no port")
    fn(p, PrintArgs(model, view, args))


def parse_directive(name: str, args: list[Element], model: DeclarativeSyntax, p: AsmParser,
                    parsed: Parsed, state: OpState) -> None:
    fn = PARSERS.get(_key(name, model.name))
    if fn is None:
        raise p.error(f"custom<{name}> cannot be read")
    fn(p, ParseArgs(model, p, parsed, state, args), False)


def parse_directive_optional(name: str, args: list[Element], model: DeclarativeSyntax, p: AsmParser,
                             parsed: Parsed, state: OpState) -> bool:
    fn = PARSERS.get(_key(name, model.name))
    if fn is None:
        raise p.error(f"custom<{name}> cannot be read")
    return fn(p, ParseArgs(model, p, parsed, state, args), True)


# -- shared helpers ------------------------------------------------------------------------------------
def print_values(p: AsmPrinter, values: list[Value]) -> None:
    interleave_comma(p, values, p.operand)


def print_types(p: AsmPrinter, types: list[Type]) -> None:
    interleave_comma(p, types, p.type)


def parse_value_list(p: AsmParser) -> list[OperandRef]:
    return comma_list(p, p.parse_optional_operand(), p.parse_operand)


def parse_type_list(p: AsmParser) -> list[Type]:
    out = [p.parse_type()]
    while p.parse_optional_punct(","):
        out.append(p.parse_type())
    return out


def print_values_with_types(p: AsmPrinter, values: list[Value]) -> None:
    """`%a, %b : t1, t2`."""
    print_values(p, values)
    p.write(" : ")
    print_types(p, [v.type for v in values])


def parse_values_with_types(p: AsmParser) -> tuple[list[OperandRef], list[Type]]:
    """`%a, %b : t1, t2`, at least one value (the types are not counted against the values)."""
    refs = [p.parse_operand()]
    while p.parse_optional_punct(","):
        refs.append(p.parse_operand())
    p.parse_punct(":")
    return refs, parse_type_list(p)
