"""The format layer as the server sees it: decode, print, parse, encode, each behind one function.

The printer, parser and writer are developed alongside the server; they are imported when first needed so
that a missing or broken one turns into a clear `Unavailable` error for that feature only.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ..bytecode.chunks import Chunks
from ..bytecode.reader import read_bytecode, read_bytecode_file
from ..errors import TextSpan
from ..ir.module import Module
from ..ir.operation import Operation
from ..models.registry import Registry

PRINTER = "mlirbc.view.printer"
PARSER = "mlirbc.view.parser"
WRITER = "mlirbc.bytecode.writer"
ATTR_PRINTER = "mlirbc.syntax.attr_printer"

_WHAT = {PRINTER: "text printer", PARSER: "text parser", WRITER: "bytecode writer",
         ATTR_PRINTER: "attribute printer"}


class Unavailable(Exception):
    """A part of the format layer is not present (or fails to import) in this build."""


def _load(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except Exception as exc:  # ImportError, or a half-written module failing at import
        raise Unavailable(f"the {_WHAT.get(name, name)} ({name}) is not available in this build: "
                          f"{type(exc).__name__}: {exc}") from None


def available(name: str) -> bool:
    try:
        _load(name)
        return True
    except Unavailable:
        return False


def decode(data: bytes, registry: Registry) -> Module:
    return read_bytecode(data, registry)


def decode_file(path: str, registry: Registry, max_size: int | None = None) -> Module:
    """Decode the file at `path` from a read-only memory map (large values stay views of it)."""
    return read_bytecode_file(path, registry, max_size=max_size)


def print_view(module: Module, elide_larger_than: int = 0) -> Any:
    """`print_module(module)`: a PrintResult (text, ops, names, block_names, header_lines)."""
    return _load(PRINTER).print_module(module, elide_larger_than=elide_larger_than)


def print_attribute(a: Any) -> str:
    return str(_load(ATTR_PRINTER).print_attribute(a))


def print_type(t: Any) -> str:
    return str(_load(ATTR_PRINTER).print_type(t))


def print_location(loc: Any) -> str:
    return str(_load(ATTR_PRINTER).print_location(loc))


def safe_attr(a: Any) -> str:
    """Text of an attribute for hover; never raises."""
    try:
        return print_attribute(a)
    except Exception:
        return repr(a)


def safe_type(t: Any) -> str:
    try:
        return print_type(t)
    except Exception:
        return repr(t)


@dataclass
class TextProblem:
    message: str
    span: TextSpan
    severity: str = "error"  # "error", "warning", "information", "hint"


@dataclass
class ParseOutcome:
    module: Module | None
    problems: list[TextProblem] = field(default_factory=list)

    @property
    def errors(self) -> list[TextProblem]:
        return [p for p in self.problems if p.severity == "error"]


def _severity(v: Any) -> str:
    if isinstance(v, str):
        s = v.lower()
        for name in ("error", "warning", "information", "hint"):
            if s.startswith(name[:4]):
                return name
        return "error"
    if isinstance(v, int):  # LSP numbering
        return {1: "error", 2: "warning", 3: "information", 4: "hint"}.get(v, "error")
    enum_name = getattr(v, "name", None)
    return _severity(enum_name) if isinstance(enum_name, str) else "error"


def parse(text: str, template: Module | None, registry: Registry) -> ParseOutcome:
    """Parse a view with the text parser; its diagnostics (all of them) come back as TextProblems."""
    from ..errors import TextError

    mod = _load(PARSER)
    try:
        result = mod.parse_module(text, template, registry)
    except TextError as exc:  # a parser that raises on the first error instead of collecting
        return ParseOutcome(None, [TextProblem(exc.message, exc.span)])
    problems = []
    for d in getattr(result, "diagnostics", []) or []:
        span = getattr(d, "span", None)
        if not isinstance(span, TextSpan):
            span = TextSpan(0, 0, 0, 0)
        problems.append(TextProblem(str(getattr(d, "message", d)), span,
                                    _severity(getattr(d, "severity", "error"))))
    module = getattr(result, "module", None)
    return ParseOutcome(module if isinstance(module, Module) else None, problems)


def encode(module: Module, version: int | None, producer: str | None,
           template: Module | None, registry: Registry) -> Chunks:
    """`write_bytecode` with the original module as template (raises EncodeError), as `Chunks`: the
    elided values stay views of the original's map and are streamed when written."""
    mod = _load(WRITER)
    data = mod.write_bytecode_chunks(module, version=version, producer=producer,
                                     template=template if template is not None else "auto",
                                     registry=registry)
    assert isinstance(data, Chunks)
    return data


def walk_ops(module: Module | None) -> list[Operation]:
    if module is None or module.root is None:
        return []
    return list(module.root.walk())
