"""`Module`, `load` and `parse`: a bytecode file (or a text view) as a module a program reads, changes and
saves back faithfully.

`load` decodes a file with the reader (memory-mapped: large values stay views of the file); the module's
state (`_state.ModuleState`) keeps the decoded file as the writer's template.  `save` writes with that
template: every op the program did not touch is copied from the original bytes, what it changed is
encoded as upstream MLIR encodes it, the file's version and producer are kept unless asked otherwise.
The file is written atomically (a temporary file renamed over the target; regular files only) and only
after the whole module encoded: a refused save writes nothing.  A module the program changed (or made)
must verify first, as `mlirbc encode` requires of a text (`verify=False` writes it anyway).  Of a module
read from a file, what the program changed is verified: the top-level ops it changed or added, the
module's symbol table, and every symbol use elsewhere that names a definition it changed (a renamed
function's callers); the faults of what it did not touch were the file's.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..bytecode.header import MAGIC
from ..bytecode.reader import decode_bytecode, read_bytecode_file
from ..bytecode.template import template_of
from ..bytecode.writer import encode_bytecode_chunks
from ..errors import DecodeError, EncodeError, TextError
from ..files.access import atomic_write
from ..files.chunks import Chunks
from ..ir import attributes as A
from ..ir.module import Module as IRModule
from ..ir.operation import Operation as IROp
from ..ir.operation import OpName
from ..verifier import ERROR, Finding, bound, verify_module
from ..verifier.incremental import changed_faults
from . import _state as S
from .attributes import Location
from .context import Context, default_context
from .operations import Block, Operation, WalkOrder, block_face, op_face, walk_ir


def _bound(registry: Any, module: IRModule) -> Any:
    """The registry as the module's file was read with it (bound to its model set)."""
    if registry.model_set is None and module.model_set is not None:
        return registry.with_set(module.model_set, module.model_set_note)
    return registry.for_file(module.producer, {d.name: d.version for d in module.dialects})


class Module:
    """A module (MLIR's `Module`): `body` (the block of its top-level ops), `operation` (its top-level
    op), `walk()`, `save(path)`.  Made by `mlirbc.load(path)`, `mlirbc.parse(text)` or
    `Module.create()`."""

    __slots__ = ("_o", "_k", "__weakref__")
    _o: S.ModuleState
    _k: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use mlirbc.load(path), mlirbc.parse(text) or Module.create()")

    @staticmethod
    def _of(state: S.ModuleState) -> Module:
        return S.face(state, Module)

    @property
    def _state(self) -> S.ModuleState:
        return self._o

    # -- making ---------------------------------------------------------------------------------------
    @staticmethod
    def create(loc: Location | None = None) -> Module:
        """An empty `builtin.module` (written fresh, as upstream writes a new module)."""
        root = IROp(OpName("builtin", "module", True), loc._a if loc is not None else A.UnknownLoc.get())
        root.add_region().add_block()
        ctx = default_context()
        module = IRModule(root)
        return Module._of(S.ModuleState(module, _bound(ctx.registry, module), ctx, None))

    @staticmethod
    def parse(asm: str | bytes, context: Context | None = None) -> Module:
        """A module from its text (the view's form, or any generic MLIR text), or from bytecode bytes
        (as MLIR's `Module.parse` takes both)."""
        return parse(asm, context=context)

    @staticmethod
    def parseFile(path: str | os.PathLike[str], context: Context | None = None) -> Module:  # noqa: N802
        """MLIR's `Module.parseFile`: `mlirbc.load(path)` with the models of `context` (default: the
        current one, else the built-in models)."""
        ctx = context if context is not None else default_context()
        return _checked(open_file(path, ctx))

    # -- reading --------------------------------------------------------------------------------------
    @property
    def operation(self) -> Operation:
        root = self._state.module.root
        assert root is not None
        return op_face(root, self._state)

    @property
    def body(self) -> Block:
        """The block holding the module's top-level ops."""
        root = self._state.module.root
        if root is None or not root.regions or not root.regions[0].blocks:
            raise ValueError("the module has no body")
        return block_face(root.regions[0].blocks[0], self._state)

    @property
    def context(self) -> Context:
        ctx = self._state.context
        return ctx if isinstance(ctx, Context) else default_context()

    @property
    def version(self) -> int:
        """The bytecode version of the file read (what `save` writes unless told otherwise)."""
        return self._state.module.version

    @property
    def producer(self) -> str:
        return self._state.module.producer

    @property
    def path(self) -> str | None:
        """The file the module was loaded from (None otherwise)."""
        return self._state.path

    @property
    def fallbacks(self) -> list[Any]:
        """The parts of the file kept opaque, with why and where (kind, name, reason, offset, size)."""
        return list(self._state.module.fallbacks)

    def walk(self, callback: Callable[[Operation], Any] | None = None,
             walk_order: WalkOrder = WalkOrder.POST_ORDER) -> Any:
        """Without a callback: every op, the top-level op first, pre-order (nested ops right after their
        op), as an iterator; erasing or moving ops during the walk is allowed (an op erased before it is
        reached is skipped).  With one: `Operation.walk(callback, walk_order)` of the top-level op."""
        root = self._state.module.root
        if root is None:
            return iter(()) if callback is None else None
        if callback is not None:
            return self.operation.walk(callback, walk_order)
        k = self._state
        return (op_face(o, k) for o in walk_ir(root))

    def __str__(self) -> str:
        from ..view.aliasing import alias_rules
        from ..view.printer import ALIASES_BY_DEFAULT, FORM_PRETTY, print_module

        module, reg = self._state.module, self._state.registry
        # custom forms and aliases, as MLIR prints a module (`mlirbc decode --form pretty`)
        rules = alias_rules(module, reg) if ALIASES_BY_DEFAULT else None
        return print_module(module, header=False, with_map=False, form=FORM_PRETTY, registry=reg,
                            aliases=rules).text

    def dump(self) -> None:
        print(self)

    def __repr__(self) -> str:
        where = f" from {self._state.path}" if self._state.path else ""
        return f"<mlirbc.Module{where}>"

    # -- writing --------------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str], *, version: int | None = None,
             producer: str | None = None, verify: bool = True) -> None:
        """Write the module as bytecode to `path`, atomically (a regular file; replaced only once all of
        it is written).  Untouched ops are byte-identical to the file read; `version` and `producer`
        default to the file's.  EncodeError (nothing written) for a module that could not be read back,
        or that the program changed or made and that does not verify (`verify=False` writes it
        anyway; a module saved unchanged is the file read and is not verified again)."""
        data = encode_state(self._state, version, producer, verify)
        atomic_write(path, data)

    def to_bytes(self, *, version: int | None = None, producer: str | None = None,
                 verify: bool = True) -> bytes:
        """What `save` would write."""
        return encode_state(self._state, version, producer, verify).tobytes()


def encode_state(state: S.ModuleState, version: int | None, producer: str | None,
                 verify: bool = True) -> Chunks:
    """The module of `state` as bytecode: every check of a save first, then the writer in template mode
    with the ops the program did not touch declared unchanged."""
    module = state.module
    if module.error is not None:
        raise EncodeError(f"the module was only partly decoded ({module.error}); it cannot be written")
    foreign = S.foreign_opaque(state)
    if foreign is not None:
        where = "its file" if template_of(module) is None else "another file"
        raise EncodeError(
            f"op '{foreign.name}' holds opaque parts read from {where}: they refer to that file's "
            "tables by number, which this file does not have (nothing was written)")
    src = template_of(module)
    base = state.context.registry if isinstance(state.context, Context) else state.registry
    if state.edited and src is not None:
        target = producer if producer is not None else module.producer
        found = state.registry.write_problems(module, target, version if version is not None
                                              else module.version)
        added = _added(found, state.original_problems) if target == module.producer else found
        if added:
            more = f" (and {len(added) - 5} more)" if len(added) > 5 else ""
            raise EncodeError("; ".join(added[:5]) + more)
    unchanged: list[IROp] = []
    if src is not None:
        touched = state.touched
        unchanged = [op for op in src.isolated_sections if op not in touched] if touched else \
            list(src.isolated_sections)
    data = encode_bytecode_chunks(module, version, producer, "auto", base, unchanged,
                                  keep_property_numbers=True)
    if verify and (state.edited or src is None):  # after the writer's own refusals, which say more
        _refuse_unverified(state)
    return data


def _refuse_unverified(state: S.ModuleState) -> None:
    """EncodeError naming the first faults when the module does not verify (as `mlirbc encode` refuses
    a text that does not)."""
    faults = [f.message for f in save_faults(state) if f.severity == ERROR]
    if faults:
        more = f" (and {len(faults) - 5} more)" if len(faults) > 5 else ""
        raise EncodeError("the module does not verify: " + "; ".join(faults[:5]) + more
                          + " (nothing was written; verify=False writes it anyway)")


def save_faults(state: S.ModuleState) -> list[Finding]:
    """What a save verifies: of a module read from a file, the faults the program's changes can have
    made (`ModuleState.verification_scope`, `changed_faults`), else every fault of the module."""
    module = state.module
    scope = state.verification_scope()
    src = template_of(module)
    if scope is None or src is None or module.root is None:
        return verify_module(module, state.registry)
    return changed_faults(module.root, bound(state.registry, module), scope[0], scope[1], src.op_names)


def _added(found: list[str], had: list[str]) -> list[str]:
    left = Counter(had)
    out = []
    for p in found:
        if left[p]:
            left[p] -= 1
        else:
            out.append(p)
    return out


def load(path: str | os.PathLike[str], *, disable_models: Iterable[str] = (), ods_json: Iterable[str] = (),
         model_set: str | None = None) -> Module:
    """Decode the bytecode file at `path` (memory-mapped).  `disable_models`, `ods_json`, `model_set`
    are the CLI's `--disable-model`, `--ods-json` and `--models`.

    A damaged file raises `DecodeError` naming the section and byte offset; `partial_module` is what
    was read before the damage (None when nothing was).  OSError when the file cannot be read.

    A file whose top-level op is not a module (`mlir-opt --no-implicit-module` writes one) comes, as MLIR
    reads it, in an implicit module at `loc("<path>":0:0)`: `body` holds that op.  A save leaves the
    module out again while it holds just that op (and has no attributes); otherwise it is written."""
    ctx = Context(disable_models=disable_models, ods_json=ods_json, model_set=model_set)
    try:
        m = open_file(path, ctx)
    except DecodeError as exc:
        exc.partial_module = None
        raise
    return _checked(m)


def _checked(m: Module) -> Module:
    """`m`, or the DecodeError of a file decoded only part-way (with `m` on it as `partial_module`)."""
    err = m._state.module.error
    if err is not None:
        err.partial_module = m
        raise err
    return m


def open_file(path: str | os.PathLike[str], context: Context) -> Module:
    """`load` for the layers above (the CLI): the file decoded with the context's models, also when
    decoding stopped part-way (then `ir_of(module).error` says where).  DecodeError when nothing of the IR
    could be read, OSError when the file cannot be."""
    reg = context.registry
    module = read_bytecode_file(path, reg)
    return Module._of(S.ModuleState(module, _bound(reg, module), context, os.fspath(path)))


def ir_of(module: Module) -> IRModule:
    """The IR module a `Module` shows (for the layers that orchestrate: printing, `info`)."""
    return module._state.module


def parse(text: str | bytes, *, context: Context | None = None) -> Module:
    """A module from its text: the view `mlirbc decode` prints (any form), or MLIR text in the generic form
    or the custom forms the pretty view knows.  TextError (the first problem's line and column, and how
    many there are) when the text does not parse.

    MLIR text that is not exactly one `builtin.module` (several top-level ops, a bare `func.func`, no op
    at all) is wrapped as MLIR's `Module.parse` wraps it: in a new module located at `loc("-":0:0)`,
    written with the module.  A view (its first line the `// mlirbc:` header) holds the one top-level op
    of its file, kept as it is.

    Bytes that start with the bytecode magic are decoded as bytecode, as MLIR's `Module.parse` does
    (DecodeError, with `partial_module`, for damaged bytes); the module saves faithfully as a loaded one.
    A file whose top-level op is not a module is read, as MLIR reads it, in an implicit module that a save
    leaves out again while it holds that one op alone."""
    from ..view.parser import parse_module

    ctx = context if context is not None else default_context()
    if isinstance(text, bytes | bytearray | memoryview) and bytes(text[:4]) == MAGIC:
        reg = ctx.registry
        try:
            module = decode_bytecode(bytes(text), reg)
        except DecodeError as exc:
            exc.partial_module = None
            raise
        return _checked(Module._of(S.ModuleState(module, _bound(reg, module), ctx, None)))
    if isinstance(text, bytes | bytearray | memoryview):
        text = bytes(text).decode("utf-8", "surrogateescape")
    result = parse_module(text, registry=ctx.registry, with_map=False)
    if result.module is None:
        errors = result.errors
        if not errors:
            raise TextError("the text holds no module", _span0())
        first = errors[0]
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        raise TextError(first.message + more, first.span)
    module = result.module
    return Module._of(S.ModuleState(module, _bound(ctx.registry, module), ctx, None))


def _span0() -> Any:
    from ..errors import TextSpan

    return TextSpan(0, 0, 0, 0, 0, 0)


def module_of(op: Operation) -> Module | None:
    """The module `op` is in (None for a detached op)."""
    s = S.state_of(op._o)
    return Module._of(s) if s is not None else None


__all__ = ["Module", "load", "parse", "module_of", "open_file", "ir_of"]
