"""What `Module.save` verifies of a module read from a file: what the program changed, with the verdict
of a full verification for every fault a change can make.

The file is the synthetic module of `large_module.py` with 12 functions (upstream `mlir-opt` writes it):
`@ext0..11` are declarations, `@f0..11` definitions that call them.  Each edit below is made through the
API; the save's faults (`save_faults`: the changed top-level ops, the symbol table, the symbol uses that
name a changed definition) are compared with a full verification of the edited module, and the save is
refused (nothing written) or written and read by upstream `mlir-opt`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import mlirbc
from large_module import LargeModule, large_module
from mlirbc.api.module import ir_of, save_faults
from mlirbc.ir import FlatSymbolRefAttr, Operation, StringAttr
from mlirbc.verifier import ERROR, Finding, verify_module
from oracle import run_mlir_opt


@pytest.fixture(scope="module")
def small() -> LargeModule:
    try:
        return large_module(funcs=12)
    except RuntimeError as exc:
        pytest.skip(str(exc))


def _named(m: mlirbc.Module, name: str) -> Operation:
    return next(op for op in m.body.operations if StringAttr(op.attributes["sym_name"]).value == name)


def _callers(m: mlirbc.Module, name: str) -> list[Operation]:
    return [op for op in m.walk() if op.name == "func.call"
            and FlatSymbolRefAttr(op.attributes["callee"]).value == name]


def _top(op: Operation) -> Operation:
    """The top-level op holding `op`."""
    while op.parent is not None and op.parent.name != "builtin.module":
        op = op.parent
    return op


def _called(m: mlirbc.Module) -> str:
    """A declaration that some function calls (from two functions or more where there is one)."""
    users: dict[str, set[Operation]] = {}
    for call in (op for op in m.walk() if op.name == "func.call"):
        users.setdefault(FlatSymbolRefAttr(call.attributes["callee"]).value, set()).add(_top(call))
    return max(sorted(users), key=lambda n: len(users[n]))


def _errors(found: list[Finding]) -> Counter[str]:
    return Counter(f.message for f in found if f.severity == ERROR)


def _same_verdict(m: mlirbc.Module) -> Counter[str]:
    """The save's errors, checked against a full verification of the module (the file verifies as read,
    so every fault is the program's)."""
    state = m._state
    full = _errors(verify_module(state.module, state.registry))
    assert _errors(save_faults(state)) == full
    return full


def _refused(m: mlirbc.Module, tmp_path: Path, words: str) -> None:
    out = tmp_path / "keep.mlirbc"
    out.write_bytes(b"the old contents")
    with pytest.raises(mlirbc.EncodeError, match=f"does not verify: .*{words}"):
        m.save(out)
    assert out.read_bytes() == b"the old contents"


def test_the_file_verifies_as_read(small: LargeModule) -> None:
    m = mlirbc.load(small.path)
    assert not _errors(verify_module(ir_of(m), m._state.registry))


def test_an_edit_that_breaks_one_function_is_refused(small: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(small.path)
    f = _named(m, "f3")
    add = next(op for op in f.walk() if op.name == "arith.addi")
    add.results[0].set_type(mlirbc.IntegerType.get_signless(64))  # its operands stay i32
    assert _same_verdict(m) == Counter({"'arith.addi' op requires the same type for all operands and "
                                        "results": 1})
    assert m._state.verification_scope() == ([f._o], {"f3"})  # one function verified, not the module
    _refused(m, tmp_path, "'arith.addi' op requires the same type for all operands and results")


def test_a_rename_without_the_callers_is_refused_naming_the_dangling_call(small: LargeModule,
                                                                           tmp_path: Path) -> None:
    m = mlirbc.load(small.path)
    name = _called(m)
    calls = _callers(m, name)
    _named(m, name).attributes["sym_name"] = StringAttr.get("renamed")
    scope = m._state.verification_scope()
    assert scope is not None and len(scope[0]) == 1 and scope[1] == {name, "renamed"}
    untouched = {_top(c)._o for c in calls}
    assert not untouched & set(scope[0])  # the calls are in functions the program did not touch
    message = f"'func.call' op '{name}' does not reference a valid function"
    assert _same_verdict(m) == Counter({message: len(calls)})
    _refused(m, tmp_path, message)


def test_a_signature_change_without_the_callers_is_refused(small: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(small.path)
    name = _called(m)
    i32 = mlirbc.IntegerType.get_signless(32)
    _named(m, name).attributes["function_type"] = mlirbc.TypeAttr.get(mlirbc.FunctionType.get([i32], [i32]))
    message = "'func.call' op incorrect number of operands for callee"
    assert _same_verdict(m) == Counter({message: len(_callers(m, name))})
    _refused(m, tmp_path, "incorrect number of operands for callee")


def test_erasing_a_called_function_is_refused(small: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(small.path)
    name = _called(m)
    _named(m, name).erase()
    assert _same_verdict(m) == Counter({f"'func.call' op '{name}' does not reference a valid function":
                                        len(_callers(m, name))})
    _refused(m, tmp_path, "does not reference a valid function")


@pytest.mark.parametrize("how", ["rename", "clone"])
def test_a_duplicate_symbol_is_refused(small: LargeModule, tmp_path: Path, how: str) -> None:
    m = mlirbc.load(small.path)
    if how == "rename":
        _named(m, "f2").attributes["sym_name"] = StringAttr.get("f5")
    else:  # a new top-level op
        _named(m, "f5").clone(mlirbc.InsertionPoint(m.body))
    assert _same_verdict(m) == Counter({"redefinition of symbol named 'f5'": 1})
    _refused(m, tmp_path, "redefinition of symbol named 'f5'")


def _into_f0(m: mlirbc.Module) -> None:
    """A called declaration moved from the top level into a function (its callers left dangling)."""
    ret = next(op for op in _named(m, "f0").walk() if op.name == "func.return")
    _named(m, _called(m)).move_before(ret)


def _renamed_in_turn(m: mlirbc.Module) -> None:
    """Two called declarations: the first renamed away, the second given its name (the first one's
    callers now call the second; the second one's dangle)."""
    first = _called(m)
    second = next(FlatSymbolRefAttr(op.attributes["callee"]).value for op in m.walk()
                  if op.name == "func.call" and FlatSymbolRefAttr(op.attributes["callee"]).value != first)
    _named(m, first).attributes["sym_name"] = StringAttr.get("away")
    _named(m, second).attributes["sym_name"] = StringAttr.get(first)


def _block_emptied(m: mlirbc.Module) -> None:
    """The ops of a function's last block erased."""
    for op in reversed(list(_named(m, "f4").regions[0].blocks[-1].operations)):
        op.erase()


EDITS: list[tuple[str, Callable[[mlirbc.Module], object]]] = [
    ("declaration-moved-inside", _into_f0), ("renamed-in-turn", _renamed_in_turn),
    ("block-emptied", _block_emptied)]


@pytest.mark.parametrize("edit", [e[1] for e in EDITS], ids=[e[0] for e in EDITS])
def test_other_edits_have_the_verdict_of_a_full_verification(small: LargeModule,
                                                            edit: Callable[[mlirbc.Module], object]) -> None:
    m = mlirbc.load(small.path)
    edit(m)
    assert _same_verdict(m)  # (the edits all make faults)


def test_a_rename_with_its_callers_is_saved_and_mlir_opt_reads_it(small: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(small.path)
    name = _called(m)
    calls = _callers(m, name)
    _named(m, name).attributes["sym_name"] = StringAttr.get("renamed")
    for call in calls:
        call.attributes["callee"] = FlatSymbolRefAttr.get("renamed")
    assert not _same_verdict(m)
    out = tmp_path / "out.mlirbc"
    m.save(out)
    proc = run_mlir_opt(["--verify-each"], out.read_bytes())
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:2000]
    text = proc.stdout.decode()
    assert text.count("call @renamed(") == len(calls) and "func.func private @renamed(" in text
    assert f"@{name}(" not in text


def test_a_change_of_the_module_op_itself_verifies_the_whole_module(small: LargeModule) -> None:
    m = mlirbc.load(small.path)
    _named(m, "f3").attributes["test.mark"] = mlirbc.UnitAttr.get()
    assert m._state.verification_scope() is not None
    m.operation.attributes["test.mark"] = mlirbc.UnitAttr.get()  # (a verifier may read the module's)
    assert m._state.verification_scope() is None
    assert not _same_verdict(m)
