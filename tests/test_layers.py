"""The layers as the folders say: import directions, the builtin codec table, one verb pair.

* every unit of the package (a folder, or a module at its top) has a rule naming what it may import, and
  imports nothing else (every import: module level or inside a function);  the low packages `binary/`
  (bytes) and `files/` (files on disk) and the IR import nothing of the other layers but `errors`; models
  reach bytes only through `binary/`, never `bytecode/`; nothing below `view/` imports `view/`;
* `verifier/` works on the IR with the models' knowledge (and the syntax to print types in messages): it
  imports neither bytes nor the view, and nothing below the view imports it;
* `lsp/` and `cli/` hold no format logic: they reach bytes and text only through the layers' public
  functions, never through the stream/section/codec modules themselves;
* `api/` (the public Python API) sits above `view/` and below `cli/` and `lsp/`: nothing below it imports it
  (except the package's and the IR package's own `__init__`, which answer for the API's names, and MLIR's
  `mlir.ir` names, by looking them up in `api/` on first use), and it holds no byte-format logic either;
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

_BELOW_VIEW = {"errors", "yielding", "binary", "files", "ir", "syntax", "models", "bytecode"}
_ALL = _BELOW_VIEW | {"verifier", "view", "graph", "summary", "npy", "__init__"}

ALLOWED: dict[str, set[str]] = {
    "__init__": {"api"},  # (imported on first use of an API name: `import mlirbc` stays cheap)
    "errors": set(),
    "yielding": set(),
    "binary": {"errors"},
    "files": {"errors"},
    "ir": {"errors"},
    "syntax": {"errors", "ir"},
    "models": {"errors", "binary", "ir", "syntax"},
    "bytecode": {"errors", "yielding", "binary", "files", "ir", "syntax", "models"},
    "verifier": {"errors", "ir", "syntax", "models"},
    "view": _BELOW_VIEW | {"verifier"},
    "graph": {"errors", "ir", "syntax", "view.sourcemap"},
    "summary": {"errors", "ir", "models", "bytecode"},
    "npy": {"errors", "files", "ir", "syntax"},
    "api": _BELOW_VIEW | {"verifier", "view"},
    "lsp": _ALL | {"api"},
    "cli": _ALL | {"api"},
}
"""For each unit (a folder or a top-level module), what it may import besides itself: a unit, or one
module of one (`view.sourcemap`).  The data flows bytes -> IR -> text and back; `lsp/` and `cli/` only
orchestrate and never import each other."""

FORMAT_MODULES = {"binary", "bytecode.sections", "bytecode.builtin_codec", "bytecode.ir_section",
                  "bytecode.ir_writer", "bytecode.numbering", "bytecode.attrtypes", "bytecode.recorder",
                  "syntax.lexer", "syntax.attr_parser"}
"""Modules with format details: the server and the CLI orchestrate, they do not read or write bytes or
tokens themselves."""

ALIAS = {"ir/__init__.py": {"api"}}
"""Imports allowed beyond the unit's rule, by file: the IR package answers for `mlir.ir`'s names
(`from mlirbc.ir import Operation`) with the public API's objects, imported on first use."""


def _unit(top: str) -> str:
    """The unit a dotted name's first part belongs to (`from .. import __version__` is the package's
    `__init__`)."""
    if (PKG / top).is_dir() or (PKG / f"{top}.py").is_file():
        return top
    return "__init__"


def _imports(path: Path, source: str | None = None) -> list[str]:
    """The `mlirbc` modules a file imports (`source`, else the file's text), as dotted names relative to
    the package: module-level and function-local imports alike."""
    rel = path.relative_to(PKG).with_suffix("")
    package = list(rel.parts[:-1])
    text = path.read_text() if source is None else source
    out: list[str] = []
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("mlirbc."):
                mod = node.module[len("mlirbc."):]
            elif node.module == "mlirbc":
                mod = ""
            else:
                continue
            if mod:
                out.append(mod)
            out += [f"{mod}.{a.name}" if mod else a.name for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name[len("mlirbc."):] for a in node.names if a.name.startswith("mlirbc.")]
    return out


def _unit_of(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _violations(path: Path, source: str | None = None) -> list[str]:
    unit = _unit_of(path)
    allowed = ALLOWED[unit] | ALIAS.get(path.relative_to(PKG).as_posix(), set())
    bad = []
    for mod in _imports(path, source):
        top = _unit(mod.split(".", 1)[0])
        if top == unit or top in allowed:
            continue
        # One module of a unit is allowed: importing it, or its package on the way (`from ..view import
        # sourcemap`).
        if any(mod == a or mod.startswith(a + ".") or a.startswith(mod + ".") for a in allowed):
            continue
        bad.append(f"{path.relative_to(PKG)} imports {mod}")
    return bad


def _files(unit: str) -> list[Path]:
    if (PKG / unit).is_dir():
        return sorted((PKG / unit).rglob("*.py"))
    return [PKG / f"{unit}.py"]


def test_every_unit_has_a_rule() -> None:
    units = {_unit_of(p) for p in PKG.rglob("*.py")}
    assert units == set(ALLOWED), (units - set(ALLOWED), set(ALLOWED) - units)


@pytest.mark.parametrize("unit", sorted(ALLOWED))
def test_import_directions(unit: str) -> None:
    bad = [v for path in _files(unit) for v in _violations(path)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("folder", ["lsp", "cli", "api"])
def test_server_and_cli_hold_no_format_logic(folder: str) -> None:
    # The API parses single attributes and types from text (`Attribute.parse`) with the syntax layer's
    # public text functions.
    allowed = {"syntax.attr_parser"} if folder == "api" else set()
    bad = []
    for path in _files(folder):
        for mod in _imports(path):
            if any((mod == m or mod.startswith(m + ".")) and m not in allowed for m in FORMAT_MODULES):
                bad.append(f"{path.relative_to(PKG)} imports {mod}")
    assert not bad, "\n".join(bad)


def test_the_api_is_imported_by_the_lower_layers_only_lazily() -> None:
    """The package's and the IR package's `__init__` reach the API only for type checkers (and through
    `importlib` on first use of a name), so importing a layer never loads the layers above it."""
    for init in (PKG / "__init__.py", PKG / "ir" / "__init__.py"):
        tree = ast.parse(init.read_text())
        for node in tree.body:
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                    [a.name for a in node.names]
                assert not any("api" in n for n in names), ast.unparse(node)


def test_importing_mlirbc_loads_no_layer() -> None:
    """`import mlirbc` (what every CLI start pays) imports none of the layers: the API comes on first
    use of one of its names."""
    import subprocess
    import sys

    code = ("import sys, mlirbc, mlirbc.ir; "
            "print(sorted(m for m in sys.modules if m.startswith('mlirbc.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(PKG.parent)}).stdout
    assert out.strip() == "['mlirbc.ir']", out


def test_the_import_check_sees_imports() -> None:
    """The checker itself: a relative import two levels up is resolved to its layer."""
    hover = PKG / "lsp" / "features" / "hover.py"
    assert any(m.startswith("bytecode.template") for m in _imports(hover))


def test_the_import_check_finds_violations() -> None:
    """The checker itself, on sources that break the rules: a model importing the bytecode stream inside a
    function, the IR importing the package root, the graph importing the view's parser."""
    local = "def f() -> None:\n    from ..bytecode.stream import ByteReader\n"
    assert _violations(PKG / "models" / "dsl.py", local) == [
        "models/dsl.py imports bytecode.stream", "models/dsl.py imports bytecode.stream.ByteReader"]
    assert _violations(PKG / "ir" / "types.py", "from .. import __version__\n") == \
        ["ir/types.py imports __version__"]
    assert _violations(PKG / "graph" / "source.py", "from ..view.sourcemap import SourceMap\n") == []
    assert _violations(PKG / "graph" / "source.py", "from ..view import sourcemap\n") == []
    assert _violations(PKG / "graph" / "source.py", "from ..view import parser\n") == \
        ["graph/source.py imports view.parser"]
    assert _violations(PKG / "npy.py", "import mlirbc.lsp.server\n") == ["npy.py imports lsp.server"]


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
