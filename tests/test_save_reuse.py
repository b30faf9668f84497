"""Saving re-encodes only what changed: the isolated regions of ops that did not change are copied from
the original bytes, and the result is the same as encoding everything (proved on the corpus)."""

from __future__ import annotations

import re

import pytest

from corpus import CORPUS, manifest
from mlirbc.bytecode import ir_writer
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.errors import EncodeError
from mlirbc.ir.module import Module
from mlirbc.ir.operation import Operation
from mlirbc.view.edits import parse_state, printed_state, reparse_edit, unchanged_ops, writing
from mlirbc.view.printer import print_module

ROWS = [r for r in manifest() if not r["path"].startswith(("large/", "invalid/"))]


def _tops(module: Module) -> list[Operation]:
    assert module.root is not None
    return [op for r in module.root.regions for b in r.blocks for op in b.operations]


class _Count:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.copied = 0
        original = ir_writer.IRWriter._copy_section

        def counting(writer: ir_writer.IRWriter, w: object, op: Operation) -> bool:
            done = original(writer, w, op)  # type: ignore[arg-type]
            self.copied += done
            return done

        monkeypatch.setattr(ir_writer.IRWriter, "_copy_section", counting)


def _folders() -> list[str]:
    return sorted({r["path"].split("/")[0] for r in ROWS})


@pytest.mark.parametrize("folder", _folders())
def test_unchanged_ops_copied_give_the_original_bytes(folder: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    count = _Count(monkeypatch)
    checked = 0
    for row in ROWS:
        if not row["path"].startswith(folder + "/"):
            continue
        data = (CORPUS / row["path"]).read_bytes()
        module = decode_bytecode(data)
        if module.error is not None or module.root is None:
            continue
        try:
            full = encode_bytecode(module, template=module)
        except EncodeError:
            continue
        assert encode_bytecode(module, template=module, unchanged=_tops(module)) == full, row["path"]
        checked += 1
    assert checked
    if folder in ("upstream", "jax", "large"):
        assert count.copied > 0


def _edit_first_function(text: str) -> tuple[str, int, int] | None:
    """Change something inside the first function-like top-level op: a location's line number."""
    m = re.search(r'\n  "[a-z_]+\.[a-z_]+"\(\)[^\n]*\(\{\n', text)
    if m is None:
        return None
    loc = re.compile(r'loc\("[^"\n]*":([0-9]+):[0-9]+\)').search(text, m.end())
    if loc is None:
        return None
    a, b = loc.span(1)
    return text[:a] + str(int(loc.group(1)) + 1000) + text[b:], a, b


SAMPLE = [r["path"] for r in ROWS if r["path"].startswith(("upstream/Dialect__", "jax/", "iree/"))][::9]


@pytest.mark.parametrize("rel", SAMPLE)
def test_save_after_an_edit_equals_a_full_encode(rel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One function edited (its re-read spliced in): copying the other functions gives the bytes of
    encoding the spliced module entirely, and of encoding a full parse of the same text."""
    data = (CORPUS / rel).read_bytes()
    module = decode_bytecode(data)
    if module.error is not None or module.root is None:
        pytest.skip("does not decode completely")
    base = printed_state(module, print_module(module))
    edit = _edit_first_function(base.text)
    if edit is None:
        pytest.skip("no function to edit")
    text, a, b = edit
    state = reparse_edit(base, text, a, b, module)
    full = parse_state(text, module)
    if full.module is None:
        pytest.skip("the edit does not parse (e.g. a location kind that takes no line)")
    if state is None:
        pytest.skip("the edited op cannot be re-read alone")
    assert state.module is not None
    try:
        expected = encode_bytecode(full.module, template=module)
    except EncodeError:
        pytest.skip("the edited text does not encode")
    with writing(state.module):
        everything = encode_bytecode(state.module, template=module)
        copied = encode_bytecode(state.module, template=module,
                                unchanged=unchanged_ops(state.module, module))
    assert everything == expected
    assert copied == expected


def _functions(n: int) -> str:
    body = "".join(
        f'  "func.func"() <{{function_type = () -> i32, sym_name = "f{i}"}}> ({{\n'
        f'    %0 = "arith.constant"() <{{value = {i} : i32}}> : () -> i32 loc("t.mlir":{i}:1)\n'
        f'    "func.return"(%0) : (i32) -> () loc("t.mlir":{i}:2)\n'
        f'  }}) : () -> () loc("t.mlir":{i}:3)\n' for i in range(n))
    return f'"builtin.module"() ({{\n{body}}}) : () -> () loc(unknown)\n'


def test_a_new_payload_before_an_op_makes_it_encoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Properties are numbered in writing order: a different payload in the first function changes
    the order, so the later functions are encoded again, not copied (and the bytes stay exact); an edit
    that keeps the other payloads at their indices keeps every other function copied."""
    from mlirbc.view.parser import parse_module

    count = _Count(monkeypatch)
    parsed = parse_module(_functions(6))
    assert parsed.module is not None
    data = encode_bytecode(parsed.module)
    module = decode_bytecode(data)
    assert len(module.source.isolated_sections if module.source else ()) >= 6
    base = printed_state(module, print_module(module))
    text = base.text
    at = text.index('"func.return"', text.index('value = 0 : i32'))
    at = text.rfind("\n", 0, at) + 1
    extra = '    %9 = "arith.constant"() <{value = 777 : i32}> : () -> i32 loc("t.mlir":0:9)\n'
    # one payload more before the other functions: every later index moves, nothing is copied
    new_text = text[:at] + extra + text[at:]
    state = reparse_edit(base, new_text, at, at, module)
    assert state is not None and state.module is not None
    full = parse_state(new_text, module)
    assert full.module is not None
    before = count.copied
    with writing(state.module):
        copied = encode_bytecode(state.module, template=module,
                                unchanged=unchanged_ops(state.module, module))
    assert copied == encode_bytecode(full.module, template=module)
    assert count.copied == before
    # a location, a new name or a new constant (a payload replaced by another at its index): every
    # other function is copied
    loc = text.index('loc("t.mlir":0:1)') + len('loc("t.mlir":')
    name = text.index('sym_name = "f0"') + len('sym_name = "')
    const = text.index("value = 0 : i32") + len("value = ")
    for at, end, new in ((loc, loc + 1, "7"), (name, name + 2, "renamed"),
                         (const, const + 1, "123456789")):
        t2 = text[:at] + new + text[end:]
        s2 = reparse_edit(base, t2, at, end, module)
        assert s2 is not None and s2.module is not None
        before = count.copied
        with writing(s2.module):
            out = encode_bytecode(s2.module, template=module,
                                 unchanged=unchanged_ops(s2.module, module))
        f2 = parse_state(t2, module)
        assert f2.module is not None and out == encode_bytecode(f2.module, template=module)
        assert count.copied - before == 5, new
