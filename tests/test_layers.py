"""The layers as the folders say: import directions, the builtin codec table, one verb pair.

* `bytecode/` never imports `view/` or `lsp/`; nothing below `view/` (ir, syntax, bytecode, models)
  imports `view/`; `ir/` imports nothing of the other layers (the IR knows no encoding);
* `verifier/` works on the IR with the models' knowledge (and the syntax to print types in messages): it
  imports neither bytes nor the view, and nothing below the view imports it;
* `lsp/` and `cli/` hold no format logic: they reach bytes and text only through the layers' public
  functions, never through the stream/section/codec modules themselves;
* every builtin attribute and type class has a codec entry (reader and writer) and a printer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mlirbc
from mlirbc.bytecode import builtin_codec
from mlirbc.ir import attributes as A
from mlirbc.ir import types as T
from mlirbc.syntax import attr_printer

PKG = Path(mlirbc.__file__).resolve().parent
FOLDERS = ("ir", "syntax", "bytecode", "models", "verifier", "view", "lsp", "cli")

FORBIDDEN = {
    "ir": {"syntax", "bytecode", "models", "verifier", "view", "lsp", "cli"},
    "syntax": {"bytecode", "models", "verifier", "view", "lsp", "cli"},
    "bytecode": {"verifier", "view", "lsp", "cli"},
    "models": {"verifier", "view", "lsp", "cli"},
    "verifier": {"bytecode", "view", "lsp", "cli"},
    "view": {"lsp", "cli"},
    "lsp": {"cli"},
    "cli": {"lsp"},
}
"""For each layer, the layers it must not import (the data flows bytes -> IR -> text and back)."""

FORMAT_MODULES = {"bytecode.stream", "bytecode.sections", "bytecode.builtin_codec", "bytecode.ir_section",
                  "bytecode.ir_writer", "bytecode.numbering", "bytecode.attrtypes", "bytecode.recorder",
                  "syntax.lexer", "syntax.attr_parser"}
"""Modules with format details: the server and the CLI orchestrate, they do not read or write bytes or
tokens themselves."""


def _imports(path: Path) -> list[str]:
    """The `mlirbc` modules a file imports, as dotted names relative to the package."""
    rel = path.relative_to(PKG).with_suffix("")
    package = list(rel.parts[:-1])
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("mlirbc."):
                mod = node.module[len("mlirbc."):]
            else:
                continue
            out.append(mod)
            out += [f"{mod}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name[len("mlirbc."):] for a in node.names if a.name.startswith("mlirbc.")]
    return out


def _files(folder: str) -> list[Path]:
    return sorted((PKG / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", FOLDERS)
def test_import_directions(folder: str) -> None:
    bad = []
    for path in _files(folder):
        for mod in _imports(path):
            top = mod.split(".", 1)[0]
            if top in FORBIDDEN[folder]:
                bad.append(f"{path.relative_to(PKG)} imports {mod}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("folder", ["lsp", "cli"])
def test_server_and_cli_hold_no_format_logic(folder: str) -> None:
    bad = []
    for path in _files(folder):
        for mod in _imports(path):
            if any(mod == m or mod.startswith(m + ".") for m in FORMAT_MODULES):
                bad.append(f"{path.relative_to(PKG)} imports {mod}")
    assert not bad, "\n".join(bad)


def test_the_import_check_sees_imports() -> None:
    """The checker itself: a relative import two levels up is resolved to its layer."""
    hover = PKG / "lsp" / "features" / "hover.py"
    assert any(m.startswith("bytecode.template") for m in _imports(hover))


def _builtin_classes(module: object, base: type) -> list[type]:
    out = []
    for obj in vars(module).values():
        if isinstance(obj, type) and issubclass(obj, base) and obj.__module__ == module.__name__:  # type: ignore[attr-defined]
            if obj.__subclasses__():
                continue  # abstract (Attribute, LocationAttr, ShapedType)
            out.append(obj)
    return out


OPAQUE = {A.DialectAttr, A.FallbackAttr, T.DialectType, T.FallbackType}
"""Kept as text or bytes, not builtin encodings."""


def test_every_builtin_class_has_a_codec_and_a_printer() -> None:
    attrs = [c for c in _builtin_classes(A, A.Attribute) if c not in OPAQUE]
    types = [c for c in _builtin_classes(T, T.Type) if c not in OPAQUE]
    assert len(attrs) >= 20 and len(types) >= 12
    coded = {c.cls for c in builtin_codec.ATTRIBUTE_CODECS} | {c.cls for c in builtin_codec.TYPE_CODECS}
    printers = set(attr_printer._ATTR_PRINTERS) | set(attr_printer._TYPE_PRINTERS)
    missing_codec = [c.__name__ for c in attrs + types if c not in coded]
    missing_printer = [c.__name__ for c in attrs + types if c not in printers]
    assert not missing_codec and not missing_printer, (missing_codec, missing_printer)
    # the tables are indexed by code: reading is a lookup
    assert [c.code for c in builtin_codec.ATTRIBUTE_CODECS] == list(range(23))
    assert [c.code for c in builtin_codec.TYPE_CODECS] == list(range(21))


def test_one_verb_pair() -> None:
    """Bytes <-> IR is decode/encode in every layer (the CLI's verbs too): no decompile/compile."""
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith(("decompile", "compile_")):
                bad.append(f"{path.relative_to(PKG)}: {node.name}")
    assert not bad
