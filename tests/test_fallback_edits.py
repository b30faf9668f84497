"""Edits made in the text view around fallback ops, proven against the oracle.

With the arith model disabled every arith op with properties is a fallback op: its payload prints as
`{mlirbc.properties = "0x.."}` and may hold indices into the file's attribute table.  A user edits the
view as text (rename a function, change a property or a location of another op, delete an op, add ops),
the edited view is encoded with the original file as template, and upstream `mlir-opt` must read the
result and print every arith op with exactly the properties it prints for the original file, while
showing the edit.

JAX exports (every vhlo op, and most attributes and types, are fallbacks) are checked with our reader:
the edit shows and every fallback payload, attribute and type keeps its exact bytes.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from corpus import CORPUS
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.bytecode.writer import write_bytecode
from mlirbc.ir.attributes import FallbackAttr
from mlirbc.ir.module import Module
from mlirbc.ir.operation import PROPS_FALLBACK
from mlirbc.ir.types import FallbackType
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

UPSTREAM = [
    "upstream/Dialect__GPU__canonicalize.p02.mlirbc",  # arith muli/addi/divui, gpu, memref, scf
    "upstream/Dialect__SCF__ops.f08.mlirbc",  # arith cmpf/addf, memref, scf.for/if
    "upstream/Dialect__GPU__ops.mlirbc",  # func.call, gpu, llvm, nvvm, vector, arith cmpi/addf
    "upstream/Dialect__SCF__canonicalize.p00.mlirbc",  # scf.parallel, memref.store
    "upstream/Dialect__MemRef__canonicalize.p09.mlirbc",  # memref.subview
    "upstream/Dialect__Arith__ops.mlirbc",  # 60+ functions, every arith property kind
]
JAX = sorted((CORPUS / "jax").glob("*.mlirbc"))

ORACLE_FLAGS = ["--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-local-scope",
                "--mlir-print-debuginfo"]
NEW_LINE = 77777
"""The line number the location edit writes (absent from every corpus file used here)."""


@functools.cache
def _disabled() -> Registry:
    return models(disabled=["arith"])


@functools.cache
def _original(path: str) -> tuple[bytes, Module, str]:
    data = (CORPUS / path).read_bytes()
    module = read_bytecode(data, _disabled())
    assert module.error is None, f"{path}: {module.error}"
    return data, module, print_module(module).text


@functools.cache
def _oracle_print(data: bytes) -> str:
    proc = run_mlir_opt(ORACLE_FLAGS, data)
    assert proc.returncode == 0, f"mlir-opt rejected the bytes:\n{proc.stderr.decode(errors='replace')}"
    return proc.stdout.decode("utf-8", "replace")


def _encode(text: str, template: Module) -> bytes:
    result = parse_module(text, template=template, registry=_disabled())
    assert result.module is not None, [f"{d.span}: {d.message}" for d in result.errors]
    return write_bytecode(result.module, template=template, registry=_disabled())


# -- reading mlir-opt's generic output ---------------------------------------------------------------
def _skip_balanced(text: str, i: int, open_: str, close: str) -> int:
    """`text[i] == open_`: the index just past its matching `close` (strings skipped)."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise AssertionError(f"unbalanced {open_}{close} in mlir-opt output")


def arith_properties(generic: str) -> list[tuple[str, str]]:
    """(op name, properties text `<{...}>` or "") of every arith op, in op order."""
    out = []
    for m in re.finditer(r'"(arith\.\w+)"\(', generic):
        i = _skip_balanced(generic, m.end() - 1, "(", ")")
        props = ""
        if generic.startswith(" <{", i):
            end = _skip_balanced(generic, i + 2, "{", "}")
            assert generic[end] == ">"
            props = generic[i + 1:end + 1]
        out.append((m.group(1), props))
    return out


def _op_count(generic: str, name: str) -> int:
    return len(re.findall(rf'"{re.escape(name)}"\(', generic))


# -- the edits: each takes the view and returns (edited view, check of the oracle's output) ----------
Check = Callable[[str, str], None]
Edit = Callable[[str], tuple[str, Check] | None]

_FUNC_RE = re.compile(r'^  "func\.func"\(\) <\{.*sym_name = "([\w$.]+)"', re.M)
_TERMINATORS = {"func.return", "scf.yield", "scf.reduce", "scf.condition", "gpu.terminator",
                "gpu.return", "gpu.yield", "cf.br", "cf.cond_br", "memref.alloca_scope.return",
                "vector.yield", "llvm.return", "builtin.unrealized_conversion_cast"}
_SINGLE_OP_RE = re.compile(
    r'^ *(?:(%[\w$.]+)(?::\d+)? = )?"([\w$.]+)"\((?:[^()"]|"[^"]*")*\) .*: \(.*loc\(.*\)$')


def _ref_re(name: str) -> str:
    """A top-level symbol reference to `name` (not a nested `@a::@name`)."""
    return rf"(?<!::)@{re.escape(name)}(?![\w$.])"


def edit_rename(view: str) -> tuple[str, Check] | None:
    names = _FUNC_RE.findall(view)
    if not names:
        return None
    referenced = [n for n in names if re.search(_ref_re(n), view)]
    old = (referenced or names)[0]
    new = f"{old}_renamed"
    text, n_def = re.subn(rf'^(  "func\.func"\(\) <\{{.*sym_name = )"{re.escape(old)}"',
                          rf'\1"{new}"', view, count=1, flags=re.M)
    text, n_uses = re.subn(_ref_re(old), f"@{new}", text)
    assert n_def == 1

    def check(before: str, after: str) -> None:
        assert f'sym_name = "{new}"' in after
        assert after.count(f'sym_name = "{old}"') == before.count(f'sym_name = "{old}"') - 1
        assert len(re.findall(_ref_re(new), after)) == len(re.findall(_ref_re(old), before)) == n_uses
        assert not re.search(_ref_re(old), after)

    return text, check


def edit_property(view: str) -> tuple[str, Check] | None:
    """Make a public function private: a new entry in a func.func's (decoded) properties."""
    m = re.search(r'^  "func\.func"\(\) <\{.*(sym_name = "[\w$.]+")\}>', view, re.M)
    if m is None:
        return None
    text = view[:m.start(1)] + m.group(1) + ', sym_visibility = "private"' + view[m.end(1):]

    def check(before: str, after: str) -> None:
        key = 'sym_visibility = "private"'
        assert after.count(key) == before.count(key) + 1
        assert f'{m.group(1)}, {key}' in after

    return text, check


def edit_location(view: str) -> tuple[str, Check] | None:
    """Change the integer line of a non-arith op's location."""
    for line_m in re.finditer(r'^ *(?:%[\w$.#:]+ = )?"([\w$.]+)"\(.*loc\("[^"]*":(\d+):\d+\)$', view,
                              re.M):
        name = line_m.group(1)
        if name.startswith("arith."):
            continue
        text = view[:line_m.start(2)] + str(NEW_LINE) + view[line_m.end(2):]

        def check(before: str, after: str, name: str = name) -> None:
            assert f":{NEW_LINE}:" not in before
            lines = [ln for ln in after.splitlines() if f":{NEW_LINE}:" in ln]
            assert len(lines) == 1 and f'"{name}"(' in lines[0], lines

        return text, check
    return None


def _unused_op_line(view: str) -> tuple[int, str] | None:
    """A single-line non-arith, non-terminator op whose results nothing uses (results first)."""
    lines = view.splitlines()
    no_results: tuple[int, str] | None = None
    for i, line in enumerate(lines):
        m = _SINGLE_OP_RE.match(line)
        if m is None or m.group(2).startswith(("arith.", "mlirbc.")) or m.group(2) in _TERMINATORS:
            continue
        if "." not in m.group(2) or "({" in line:
            continue
        result = m.group(1)
        if result is None:
            if no_results is None:
                no_results = (i, m.group(2))
            continue
        if not re.search(rf"{re.escape(result)}(?![\w$.])", "\n".join(lines[:i] + lines[i + 1:])):
            return i, m.group(2)
    return no_results


def edit_delete(view: str) -> tuple[str, Check] | None:
    found = _unused_op_line(view)
    if found is None:
        return None
    index, name = found
    lines = view.splitlines(keepends=True)
    del lines[index]
    if index and lines[index - 1].lstrip().startswith("// mlirbc: uselist"):
        del lines[index - 1]

    def check(before: str, after: str) -> None:
        assert _op_count(after, name) == _op_count(before, name) - 1, name

    return "".join(lines), check


def edit_add(view: str) -> tuple[str, Check] | None:
    """Add an unregistered op, an unused memref.alloca and (if a `() -> ()` function exists) a call."""
    ret = re.search(r'^    "func\.return"\(', view, re.M)
    if ret is None:
        return None
    new_ops = ['    "test.new"() : () -> ()\n',
               '    %mlirbc_new = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : '
               '() -> memref<4xf32> loc("edited":1:2)\n']
    callee = re.search(r'^  "func\.func"\(\) <\{function_type = \(\) -> \(\), sym_name = "([\w$.]+)"',
                       view, re.M)
    if callee is not None:
        new_ops.append(f'    "func.call"() <{{callee = @{callee.group(1)}}}> : () -> ()\n')
    text = view[:ret.start()] + "".join(new_ops) + view[ret.start():]

    def check(before: str, after: str) -> None:
        assert _op_count(before, "test.new") == 0 and _op_count(after, "test.new") == 1
        assert _op_count(after, "memref.alloca") == _op_count(before, "memref.alloca") + 1
        assert 'loc("edited":1:2)' in after
        if callee is not None:
            assert _op_count(after, "func.call") == _op_count(before, "func.call") + 1

    return text, check


def edit_all(view: str) -> tuple[str, Check] | None:
    """Every edit above, one after another, on the same view."""
    text = view
    applied = []
    for edit in (edit_delete, edit_location, edit_property, edit_rename, edit_add):
        done = edit(text)
        if done is not None:
            text = done[0]
            applied.append(edit)

    def check(before: str, after: str) -> None:
        ops_before = len(re.findall(r'^ *(?:%[\w$.#:]+ = )?"[\w$.]+"\(', before, re.M))
        ops_after = len(re.findall(r'^ *(?:%[\w$.#:]+ = )?"[\w$.]+"\(', after, re.M))
        added = _op_count(after, "test.new") + _op_count(after, "func.call") - _op_count(before, "func.call")
        assert ops_after == ops_before + added + 1 - (edit_delete in applied)
        assert (f":{NEW_LINE}:" in after) == (edit_location in applied)
        assert ('_renamed"' in after) == (edit_rename in applied)
        key = 'sym_visibility = "private"'
        assert after.count(key) == before.count(key) + (edit_property in applied)
        assert _op_count(after, "test.new") == (edit_add in applied)

    return text, check


EDITS: dict[str, Edit] = {
    "rename": edit_rename,
    "property": edit_property,
    "location": edit_location,
    "delete": edit_delete,
    "add": edit_add,
    "all": edit_all,
}


# -- upstream files: the oracle reads the result ------------------------------------------------------
def _cases() -> list[tuple[str, str]]:
    """(file, edit) pairs where the file offers something to edit (see test_every_edit_applies...).

    Runs at collection; the reader raises the recursion limit for good, which would change what
    other modules' tests see before they read any bytecode themselves, so the limit is put back."""
    limit = sys.getrecursionlimit()
    try:
        return [(p, e) for p in UPSTREAM for e, fn in EDITS.items() if fn(_original(p)[2]) is not None]
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
@pytest.mark.parametrize(("path", "edit"), _cases(), ids=[f"{Path(p).stem}-{e}" for p, e in _cases()])
def test_edit_keeps_arith_properties_for_the_oracle(path: str, edit: str) -> None:
    data, module, view = _original(path)
    assert "mlirbc.properties" in view, "arith ops should be fallbacks with the arith model disabled"
    done = EDITS[edit](view)
    assert done is not None
    text, check = done
    assert text != view
    result = _encode(text, module)
    before = _oracle_print(data)
    after = _oracle_print(result)
    props_before = arith_properties(before)
    assert props_before and any(p for _, p in props_before)
    assert arith_properties(after) == props_before
    check(before, after)
    # Our reader agrees: every arith op is still a fallback with its exact payload bytes.
    reread = read_bytecode(result, _disabled())
    assert reread.error is None and reread.root is not None and module.root is not None

    def payloads(m: Module) -> list[bytes | None]:
        assert m.root is not None
        return [op.properties.raw if op.properties is not None else None
                for op in m.root.walk() if op.name.startswith("arith.")]

    assert payloads(reread) == payloads(module)


def test_every_edit_applies_somewhere() -> None:
    """The parametrized test skips an edit a file offers nothing for (only files without a dead op lack
    a deletion): each edit must run on most files."""
    for edit, fn in EDITS.items():
        applied = [p for p in UPSTREAM if fn(_original(p)[2]) is not None]
        assert len(applied) >= (len(UPSTREAM) // 2 if edit == "delete" else len(UPSTREAM)), (edit, applied)


# -- JAX exports: every vhlo op is a fallback ---------------------------------------------------------
def _fallback_ops(m: Module) -> list[tuple[str, bytes]]:
    assert m.root is not None
    return [(op.name, bytes(op.properties.raw or b"")) for op in m.root.walk()
            if op.properties is not None and op.properties.kind == PROPS_FALLBACK]


def _fallback_entries(m: Module, data: bytes) -> list[tuple[str, str, bytes]]:
    """(kind, dialect, stored bytes) of every fallback attribute/type table entry, in table order."""
    assert m.source is not None
    out = []
    for kind, table in (("attr", m.source.attrs), ("type", m.source.types)):
        for e in table:
            if isinstance(e.value, FallbackAttr | FallbackType):
                stored = data[e.offset:e.offset + e.size]
                assert e.value.data in stored
                out.append((kind, e.value.dialect_name, stored))
    return out


def _fallback_texts(view: str) -> Counter[str]:
    return Counter(re.findall(r'[#!]mlirbc\.fallback<"[^"]*", "0x[0-9A-F]*">|mlirbc\.properties = "0x'
                              r'[0-9A-F]*"', view))


def _jax_deserialize(data: bytes) -> None:
    if importlib.util.find_spec("jax") is None or importlib.util.find_spec("jaxlib") is None:
        return  # jax is not a dependency; the reader checks above stand on their own
    from jax import export  # type: ignore[import-not-found,unused-ignore]

    export.deserialize(bytearray(data))


@pytest.mark.parametrize("path", JAX, ids=[p.stem for p in JAX])
def test_jax_rename_keeps_every_fallback_byte(path: Path) -> None:
    data = path.read_bytes()
    module = read_bytecode(data)
    assert module.error is None and module.root is not None
    view = print_module(module).text
    m = re.search(r'^"builtin\.module"\(\) <\{sym_name = "([\w$.]+)"\}>', view, re.M)
    assert m is not None
    old, new = m.group(1), f"{m.group(1)}_edited"
    text = view[:m.start(1)] + new + view[m.end(1):]
    result = parse_module(text, template=module)
    assert result.module is not None, [f"{d.span}: {d.message}" for d in result.errors]
    out = write_bytecode(result.module, template=module)
    reread = read_bytecode(out)
    assert reread.error is None and reread.root is not None
    # The edit shows, and only the edit.
    new_view = print_module(reread).text
    assert f'sym_name = "{new}"' in new_view and f'sym_name = "{old}"' not in new_view
    assert new_view.replace(f'"{new}"', f'"{old}"') == view
    # Fallback ops keep their payloads, in order; fallback attributes/types keep their bytes.
    assert _fallback_ops(reread) == _fallback_ops(module)
    assert len(_fallback_ops(module)) > 10
    entries = _fallback_entries(module, data)
    assert entries and _fallback_entries(reread, out)[:len(entries)] == entries
    assert _fallback_texts(new_view) == _fallback_texts(view)
    for op in reread.root.walk():
        p = op.properties
        if p is not None and p.kind == PROPS_FALLBACK and p.raw:
            assert out[p.offset:p.offset + len(p.raw)] == p.raw
    _jax_deserialize(out)


def test_jax_delete_unused_op_keeps_other_fallbacks() -> None:
    """No JAX export has a dead op, so one is made: a copy of a fallback op whose result nothing uses.

    Adding it, encoding, then deleting it again from the re-read view must give back the original
    fallback payloads and bytes."""
    path = CORPUS / "jax" / "mlp2.mlirbc"
    data = path.read_bytes()
    module = read_bytecode(data)
    view = print_module(module).text
    line = next(ln for ln in view.splitlines() if '"vhlo.broadcast_in_dim_v1"' in ln)
    dead = re.sub(r"^( *)%[\w$.]+ = ", r"\1%dead = ", line)
    text = view.replace(line, f"{line}\n{dead}", 1)
    added = parse_module(text, template=module)
    assert added.module is not None, [f"{d.span}: {d.message}" for d in added.errors]
    out1 = write_bytecode(added.module, template=module)
    mid = read_bytecode(out1)
    assert mid.error is None
    assert len(_fallback_ops(mid)) == len(_fallback_ops(module)) + 1
    # Delete it again through the view of the edited file.
    mid_view = print_module(mid).text
    dead_lines = [ln for ln in mid_view.splitlines() if '"vhlo.broadcast_in_dim_v1"' in ln]
    unused = [ln for ln in dead_lines
              if (r := re.match(r" *(%[\w$.]+) = ", ln)) is not None
              and not re.search(rf"{re.escape(r.group(1))}(?![\w$.])", mid_view.replace(ln, ""))]
    assert len(unused) == 1
    back = parse_module(mid_view.replace(unused[0] + "\n", "", 1), template=mid)
    assert back.module is not None, [f"{d.span}: {d.message}" for d in back.errors]
    out2 = write_bytecode(back.module, template=mid)
    final = read_bytecode(out2)
    assert final.error is None
    assert _fallback_ops(final) == _fallback_ops(module)
    entries = _fallback_entries(module, data)
    assert _fallback_entries(final, out2)[:len(entries)] == entries
    assert _fallback_texts(print_module(final).text) == _fallback_texts(view)
    _jax_deserialize(out2)
