"""Edits that cost what they touch: re-read only the op an edit is in, and splice it into the module.

A `ViewState` is what one version of a view's text means: the module (None when the text has errors),
its source map, its diagnostics.  `reparse_edit` takes the last state that had a module and the new text,
and when the change lies inside one op directly in the root op (a function, say) whose regions are
isolated from above and which has no operands, results or successors, it reads that op again in place
(`parser.parse_op_in_place`) and builds the new state around it: a new root op holding the same ops as
before except the replaced one, and a map that shares every other op's records (`SourceMap.splice`).
Every other edit needs a full parse (`parse_state`), which gives the same result.

The spliced module shares its unchanged top-level ops with the state it came from (and so, after the
first edit, with the decoded file): nothing ever changes an op in place, so an op of the decoded file
that is still in the module is exactly as it was read.  An op has one parent pointer, though, so before a
module is written, `writing` makes its top-level ops point at it again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from ..bytecode.writable import problems
from ..errors import TextSpan
from ..ir.attributes import Attribute
from ..ir.module import Module
from ..ir.operation import Block, Operation
from ..ir.types import Type
from ..models.build import default_registry
from ..models.registry import Registry
from ..syntax.textlines import TextLines
from ..verifier.incremental import ModuleVerification
from .parser import TextDiagnostic, is_isolated, module_for, parse_module, parse_op_in_place
from .printer import PrintResult
from .sourcemap import SourceMap
from .verification import VERIFY, finding_diagnostics, verify_root


@dataclass
class ViewState:
    """One version of a view's text and what it means."""

    text: str
    module: Module | None
    """None when the text has errors."""
    map: SourceMap
    diagnostics: list[TextDiagnostic] = field(default_factory=list)
    header: dict[str, object] = field(default_factory=dict)
    aliases: tuple[dict[str, Attribute], dict[str, Type]] = field(default_factory=lambda: ({}, {}))
    how: str = "parsed"
    """'printed' (the view of a decoded module), 'parsed' (a full parse) or 'spliced' (one op
    re-read in place)."""
    verification: ModuleVerification | None = None
    """The verifier's state of the module (None: not verified); its findings are the diagnostics with
    the code `verify`."""

    @property
    def errors(self) -> list[TextDiagnostic]:
        """Every error, the verifier's included."""
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def parse_errors(self) -> list[TextDiagnostic]:
        """The errors no save can pass (all but the verifier's)."""
        return [d for d in self.diagnostics if d.severity == "error" and d.code != VERIFY]

    @property
    def verify_errors(self) -> list[TextDiagnostic]:
        return [d for d in self.diagnostics if d.severity == "error" and d.code == VERIFY]


MAX_PRETTY_NOTES = 200
"""Information diagnostics about ops printed generic although a syntax model knows them (the first ones)."""


def printed_state(module: Module, printed: PrintResult,
                  kept: Sequence[tuple[Operation, str]] = ()) -> ViewState:
    """The state of a freshly printed view: no errors; in the pretty form, an Information diagnostic at
    each op (up to MAX_PRETTY_NOTES) a syntax model refused to print, saying why; in a dialect-level view,
    one at each op `kept` in its stored form (an op the view's conversion does not know), saying why."""
    from .printer import header_facts

    diagnostics: list[TextDiagnostic] = []
    notes = [(n.op, f"printed in generic form: {n.message}") for n in printed.notes[:MAX_PRETTY_NOTES]]
    notes.extend((op, f"shown as stored: {why}") for op, why in kept[:MAX_PRETTY_NOTES])
    if notes:
        lines = TextLines(printed.text)
        for op, message in notes:
            span = printed.map.op_name_span(op) or printed.map.op_span(op)
            if span is None:
                continue
            diagnostics.append(TextDiagnostic(message, lines.span(span.start, span.end), "information"))
    return ViewState(printed.text, module, printed.map, diagnostics, header_facts(module),
                     printed.map.aliases, how="printed")


def parse_state(text: str, template: Module | None, registry: Registry | None = None,
                lines: TextLines | None = None, verify: bool = True) -> ViewState:
    """A full parse of `text` (verified unless `verify` is False)."""
    r = parse_module(text, template, registry, lines, verify=verify)
    assert r.map is not None
    return ViewState(text, r.module, r.map, r.diagnostics, r.header, r.aliases, "parsed", r.verification)


def with_verification(state: ViewState, registry: Registry | None = None,
                      lines: TextLines | None = None) -> ViewState:
    """`state` verified (the printed view of a decoded file is not, until asked): the same state when it
    is already, or has no module."""
    module = state.module
    if state.verification is not None or module is None or module.root is None:
        return state
    reg = _bound(registry if registry is not None else default_registry(), module)
    found = verify_root(module.root, reg)
    table = lines if lines is not None else TextLines(state.text)
    diagnostics = [d for d in state.diagnostics if d.code != VERIFY]
    diagnostics += finding_diagnostics(found.findings(), state.map, table)
    diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
    return replace(state, diagnostics=diagnostics, verification=found)


def _moved(span: TextSpan, after: int, delta: int, lines: TextLines) -> TextSpan:
    """A span of the base text in the edited text (text after the edit moved by `delta`)."""
    if span.start >= after:
        return lines.span(span.start + delta, span.end + delta)
    return span


def _bound(registry: Registry, module: Module) -> Registry:
    if registry.model_set is None and module.model_set is not None:
        return registry.with_set(module.model_set, module.model_set_note)
    return registry


def _unit(registry: Registry, op: Operation) -> bool:
    """An op whose text means the same read alone as in the whole view."""
    return (not op.operands and not op.results and not op.successors
            and op.op_name.registered and is_isolated(registry, op.name))


def reparse_edit(base: ViewState, text: str, start: int, old_end: int, template: Module | None,
                 registry: Registry | None = None, lines: TextLines | None = None,
                 verify: bool = True) -> ViewState | None:
    """The state of `text`, which is `base.text` with [start, old_end) replaced (the new text there
    ends at `old_end + len(text) - len(base.text)`), by re-reading only the top-level op that holds
    the change.  None when that is not possible and a full parse must run.  With `verify`, the re-read
    op is verified and so is what depends on it (the root's symbol table, the symbol uses naming a symbol
    the op defined or defines); the other ops' findings are the base state's."""
    reg = registry if registry is not None else default_registry()
    module = base.module
    if module is None or module.root is None:
        return None
    root = module.root
    if root.results or any(b.arguments for r in root.regions for b in r.blocks):
        return None
    delta = len(text) - len(base.text)
    target: Operation | None = None
    span_start = span_end = 0
    for op, span in base.map.top_level():
        if span.start <= start and old_end <= span.end:
            target, span_start, span_end = op, span.start, span.end
            break
        if span.start > start:
            break
    if target is None or not _unit(reg, target):
        return None
    piece = parse_op_in_place(text, span_start, span_end + delta, template, reg, lines,
                              base.aliases, base.header, base.map.distincts)
    new_op = piece.op
    if new_op is None or not piece.whole or not _unit(reg, new_op):
        return None
    # What the text did not change keeps its stored form (pretty forms say less than the bytes).
    from .reconcile import reconcile

    if piece.custom:
        reconcile(new_op, target, reg, piece.implicit, piece.custom)
    new_root = _replace_child(root, target, new_op)
    if new_root is None:
        return None
    new_map = base.map.splice(target, text, piece.map)
    new_map.distincts = piece.map.distincts  # the whole text's numbering and what the op added
    lines = lines if lines is not None else TextLines(text)
    diagnostics = [d for d in base.diagnostics if d.span.end <= span_start]
    diagnostics += piece.diagnostics
    for d in base.diagnostics:
        if d.span.start >= span_end:
            diagnostics.append(replace(d, span=lines.span(d.span.start + delta, d.span.end + delta),
                                       related=tuple((_moved(s, span_end, delta, lines), m)
                                                     for s, m in d.related)))
    has_errors = any(d.severity == "error" and d.code != VERIFY for d in diagnostics)
    new_module: Module | None = None
    verification: ModuleVerification | None = None
    if not has_errors:
        # As a full parse builds it: the header's facts, else the template's; the resources of the
        # trailer, which the edit did not touch.
        new_module = module_for(new_root, base.header, template)
        new_module.resources = module.resources
        # What the writer could not write or the reader would refuse, as a full parse checks it; the
        # other ops were checked in the base state, under the same header.
        found = list(problems(new_op, reg, new_module.version, new_module.dialects, depth=2))
        if found:
            for problem in found:
                at = new_map.op_span(problem.op)
                diagnostics.append(TextDiagnostic(
                    problem.message, lines.span(at.start, at.end) if at is not None else lines.span(0, 0)))
            diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
            new_module = None
    if new_module is not None and verify and new_module.root is not None:
        # The verifier's findings move with the ops they are about (and some change): all are
        # located again in the new map, the base's dropped.
        diagnostics = [d for d in diagnostics if d.code != VERIFY]
        reg_set = _bound(reg, new_module)
        if base.verification is not None and base.verification.root is root:
            verification = base.verification.replaced(new_root, target, new_op)
        else:
            verification = verify_root(new_module.root, reg_set)
        diagnostics += finding_diagnostics(verification.findings(), new_map, lines)
        diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
    return ViewState(text, new_module, new_map, diagnostics, base.header, base.aliases, "spliced",
                     verification)


_PARENTS = threading.RLock()
"""Held while the parent pointers of shared top-level ops change, and while a module is written (the
writer checks them): a splice in one thread never moves them under a writer in another."""


def _replace_child(root: Operation, old: Operation, new: Operation) -> Operation | None:
    """A new root op holding the same ops as `root`, with `old` replaced by `new`."""
    clone = Operation(root.op_name, root.location, (), [], root.attributes, root.properties)
    found = False
    with _PARENTS:
        for region in root.regions:
            r = clone.add_region()
            for block in region.blocks:
                b = r.add_block()
                ops = list(block.operations)
                for i, op in enumerate(ops):
                    if op is old:
                        ops[i] = new
                        found = True
                b.operations = ops
                _adopt_block(b)
    return clone if found else None


@contextmanager
def writing(module: Module) -> Iterator[Module]:
    """`with writing(module): encode_bytecode(module, ...)`: the module's top-level ops point at its
    root (they may be shared with modules built by `reparse_edit`) until the block ends."""
    with _PARENTS:
        root = module.root
        if root is not None:
            for region in root.regions:
                for block in region.blocks:
                    _adopt_block(block)
        yield module


def unchanged_ops(module: Module, template: Module | None) -> list[Operation]:
    """The top-level ops of `module` that are the template's own ops (shared by `reparse_edit`, never
    changed in place): the writer may copy their regions from the template's bytes."""
    if template is None or template.root is None or module.root is None:
        return []
    mine = {id(op) for r in template.root.regions for b in r.blocks for op in b.operations}
    return [op for r in module.root.regions for b in r.blocks for op in b.operations
            if id(op) in mine]


def _adopt_block(block: Block) -> None:
    for op in block.operations:
        op.parent = block

