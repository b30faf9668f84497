"""What the writer can write and the reader will read back: structural checks shared by the three.

The reader refuses some IR that the rest of the pipeline could otherwise produce: regions nested deeper
than it follows (`MAX_NESTING`), a function whose entry block disagrees with its `function_type` (as
upstream's verifier), and an op whose properties its model cannot encode (a registered op without a required
property).  So that nothing is written that cannot be read again, the same checks run

* in the reader (on what it decoded: a located `DecodeError`),
* in the text parser (every problem a diagnostic at the op's span), and
* in the writer (the first problem an `EncodeError`), for IR built any other way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass

from ..ir.attributes import Attribute
from ..ir.module import DialectEntry
from ..ir.operation import PROPS_DECODED, Operation, OpName, Properties
from ..models.api import OpModel
from ..models.registry import Registry
from .ir_section import MAX_NESTING
from .op_attrs import split_properties
from .properties import accepts_version
from .recorder import Recorder
from .verify import function_signature_problem

PROPERTIES_FROM = 5
"""The first bytecode version that stores properties (below it, inherent attributes are in the dictionary)."""


def module_properties(registry: Registry, version: int) -> Properties | None:
    """The properties of a `builtin.module` without a name in bytecode `version`, as the reader and the
    text parser give them (None below version 5, where a module keeps its attributes in its dictionary)."""
    if version < PROPERTIES_FROM:
        return None
    lookup = registry.op("builtin.module")
    if lookup.model is None or not lookup.model.has_properties():
        return None
    return Properties(PROPS_DECODED, values={}, model=lookup.origin)


@dataclass
class Problem:
    op: Operation
    message: str


class PropertyCheck:
    """Whether ops' properties encode with their models (as the writer will), remembered per distinct
    (model, values)."""

    def __init__(self, registry: Registry, version: int,
                 dialect_versions: dict[str, bytes] | None = None) -> None:
        self.registry = registry
        self.version = version
        self.dialect_versions = dialect_versions or {}
        self._seen: dict[tuple[object, ...], str | None] = {}
        self._models: dict[str, OpModel | None] = {}
        self._records: dict[int, tuple[Properties, OpName, str | None]] = {}
        """id(record) -> (record, op name, answer) for decoded records shared by several ops (the text
        parser shares one per op name and `<{...}>` text, as the reader per op name and payload); the
        record is kept so its id stays its own."""

    def _model(self, name: str) -> OpModel | None:
        if name not in self._models:
            model = self.registry.op(name).model
            try:
                self._models[name] = model if model is not None and model.has_properties() else None
            except Exception:
                self._models[name] = None
        return self._models[name]

    def problem(self, op: Operation) -> str | None:
        if self.version < PROPERTIES_FROM or not op.op_name.registered:
            return None
        props = op.properties
        if props is None:
            model = self._model(op.name)
            if model is None:
                return None
            values, _ = split_properties(model, op.attributes)
        elif props.kind == PROPS_DECODED:
            if props.raw is not None:
                return None  # decoded from a payload by this model: it encodes again (or is kept as is)
            seen = self._records.get(id(props))
            if seen is not None and seen[0] is props and seen[1] == op.op_name:
                return seen[2]
            found = self._decoded_problem(op, props)
            self._records[id(props)] = (props, op.op_name, found)
            return found
        else:
            return None
        return self._values_problem(op, model, values)

    def _decoded_problem(self, op: Operation, props: Properties) -> str | None:
        model = self.registry.op(op.name).model
        if model is None:
            return f"no model of '{op.name}' can encode its properties"
        return self._values_problem(op, model, props.values)

    def _values_problem(self, op: Operation, model: OpModel, values: dict[str, Attribute]) -> str | None:
        dialect_version = self.dialect_versions.get(op.op_name.dialect)
        if dialect_version is not None and not accepts_version(model, dialect_version):
            return (f"the module gives dialect '{op.op_name.dialect}' version 0x{dialect_version.hex()}, "
                    f"which the model of '{op.name}' does not know: its properties would be written in a "
                    "layout that version may not have")
        key = (id(model), *sorted(values.items(), key=lambda kv: kv[0]))
        if key in self._seen:
            return self._seen[key]
        try:
            model.encode_properties(dict(values), Recorder(self.version))
            found = None
        except Exception as exc:  # a model's refusal (ModelError) or any failure: the writer's too
            found = f"the properties of '{op.name}' cannot be encoded: {exc}"
        self._seen[key] = found
        return found


def problems(root: Operation, registry: Registry, version: int, dialects: list[DialectEntry] | None = None,
             first_only: bool = False, depth: int = 1, skip: Collection[Operation] = ()) -> Iterator[Problem]:
    """Every op the writer could not write or the reader would refuse, in text order.  `depth`: the
    nesting depth of `root`'s regions (1 for a module's root op; 2 for an op directly inside it).
    `skip`: ops whose regions are not looked into (ops of a decoded file exactly as the reader read
    them: it checked them then)."""
    versions = {d.name: d.version for d in dialects or () if d.version is not None}
    check = PropertyCheck(registry, version, versions)
    # (op, nesting depth of its regions); an explicit stack, as IR may nest deeper than Python recurses.
    stack: list[tuple[Operation, int]] = [(root, depth)]
    while stack:
        op, depth = stack.pop()
        found = []
        if not op.op_name.full:
            found.append("the op's name is empty")
        if op.regions and depth > MAX_NESTING:
            found.append(f"regions nested deeper than {MAX_NESTING} levels (the reader's limit)")
        sig = function_signature_problem(op)
        if sig is not None:
            found.append(sig)
        prop = check.problem(op)
        if prop is not None:
            found.append(prop)
        for message in found:
            yield Problem(op, message)
            if first_only:
                return
        if op.regions and depth <= MAX_NESTING and op not in skip:
            inner = [(child, depth + 1) for region in op.regions for block in region.blocks
                     for child in block.operations]
            stack.extend(reversed(inner))
