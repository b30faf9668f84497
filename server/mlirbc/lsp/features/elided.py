"""Elided values in the editor: hover with statistics, Show Full Value, Export Value, code actions.

A placeholder (`syntax.elision`) under the cursor, or a `dense_resource<key>` whose blob is elided, is
resolved against the decoded file (the template), so it works in an edited view too.  Everything reads
the value from its bytes (a view of the mapped file), chunk by chunk, in a job off the event loop:

* hover: type, size, element count, fingerprint, first and last elements, and statistics (min, max,
  mean, standard deviation over the finite numbers; counts of zeros, NaNs and infinities).  Statistics
  of a large value that take longer than `HOVER_BUDGET_S` are finished in the background (with
  progress) and shown by the next hover;
* `mlirbc/valueText` {uri, position, fromLine?, maxLines?}: the value as a `dense<...> : T` literal, a
  chunk of lines at a time ({title, header, text, fromLine, nextLine, totalLines, done}): clients open it
  as a read-only document, showing progress (`mlirbc: Show Full Value`);
* `mlirbc/exportValue` {uri, position, path}: writes the value as `.npy` ({written, bytes, shape,
  descr, note}) (`mlirbc: Export Value`);
* code actions on a placeholder offer both commands (`mlirbc.showFullValue`, `mlirbc.exportValue`, with
  arguments [uri, position]); the editors implement them with the two requests.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from ...ir.attributes import DenseResourceElementsAttr, StringAttr
from ...ir.module import RESOURCE_BLOB, Module, ResourceEntry
from ...ir.types import Type
from ...npy import NpyError, write_npy
from ...syntax.elements import (
    Elements,
    Stats,
    edge_elements,
    elements_of,
    format_number,
    literal_lines,
    rows,
    statistics,
)
from ...syntax.elision import (
    BLOB,
    ELEMENTS,
    PROPERTIES,
    STRING,
    Found,
    Resolver,
    find_placeholders,
    leading_type,
    module_values,
    payload_size,
    resource_key,
)
from ..documents import Decoded, View
from ..server import MlirbcServer, RequestFailed, param

VALUE_TEXT = "mlirbc/valueText"
EXPORT_VALUE = "mlirbc/exportValue"
SHOW_COMMAND = "mlirbc.showFullValue"
EXPORT_COMMAND = "mlirbc.exportValue"

HOVER_BUDGET_S = 1.5
"""How long a hover waits for statistics before answering without them (they finish meanwhile)."""
MAX_LINES = 2000
"""Lines of a value's text per `mlirbc/valueText` answer, unless the client asks for fewer."""

_RESOURCE_USE = re.compile(r'dense_resource<("[^"\\]*(?:\\.[^"\\]*)*"|[A-Za-z_][A-Za-z0-9_$.-]*)>\s*:\s*')


@dataclass
class Target:
    """An elided value at a text position: what the text says, what it resolves to."""

    found: Found
    value: object
    """The attribute, ResourceEntry or payload bytes the placeholder stands for."""
    type_hint: Type | None
    start: int
    end: int
    """Absolute character offsets of the placeholder in the view."""


@dataclass
class _FileState:
    """What this feature keeps per decoded file: its resolver, finished and running statistics."""

    resolver: Resolver
    stats: dict[tuple[str, int, str], Stats | None] = field(default_factory=dict)
    pending: dict[tuple[str, int, str], asyncio.Future[Any]] = field(default_factory=dict)


def _state(decoded: Decoded) -> _FileState:
    st = decoded.extra.get("elided")
    if not isinstance(st, _FileState):
        st = _FileState(Resolver(decoded.module, os.path.basename(decoded.key)))
        decoded.extra["elided"] = st
    return st


def resolver(decoded: Decoded) -> Resolver:
    return _state(decoded).resolver


def _blob_type(module: Module, key: str) -> Type | None:
    for v in module_values(module):
        if isinstance(v, DenseResourceElementsAttr) and v.key == key:
            return v.type
    return None


def target_at(decoded: Decoded, view: View, offset: int) -> Target | None:
    """The elided value at `offset` of the view, if any."""
    codec = view.codec
    line = codec.lines.line_of(offset)
    text = codec.line_text(line)
    base = codec.lines.line_start(line)
    col = offset - base
    for f in find_placeholders(text):
        if f.start <= col <= f.end:
            hits = resolver(decoded).lookup(f.category, f.size, f.fingerprint)
            if not hits:
                return None
            value = hits[0]
            hint: Type | None = None
            if isinstance(value, ResourceEntry):
                hint = _blob_type(decoded.module, value.key)
            return Target(f, value, hint, base + f.start, base + f.end)
    for m in _RESOURCE_USE.finditer(text):
        if not m.start() <= col <= m.end():
            continue
        raw_key = m.group(1)
        key = resource_key(raw_key)
        entry = next((e for g in decoded.module.resources if g.is_dialect and g.name == "builtin"
                      for e in g.entries if e.key == key and e.kind == RESOURCE_BLOB
                      and e.blob is not None), None)
        if entry is None or len(entry.blob or b"") <= decoded.elide_larger_than or \
                decoded.elide_larger_than <= 0:
            return None
        t = leading_type(text[m.end():])
        fp = resolver(decoded)._fp(entry, False)
        found = Found(m.start(), m.end(), BLOB, payload_size(entry), fp, key)
        return Target(found, entry, t, base + m.start(), base + m.end())
    return None


def elements(target: Target) -> Elements | None:
    v = target.value
    if isinstance(v, ResourceEntry):
        return elements_of(v.blob, target.type_hint) if v.blob is not None else None
    got = elements_of(v, target.type_hint)
    if got is not None:
        return got
    data = getattr(v, "data", None)  # a fallback payload: its bytes
    if isinstance(v, bytes | memoryview):
        data = v
    return elements_of(data) if isinstance(data, bytes | memoryview) else None


def _what(target: Target) -> str:
    v = target.value
    if isinstance(v, ResourceEntry):
        return f"resource blob `{v.key}`"
    if target.found.category == PROPERTIES:
        return "fallback op properties"
    if target.found.category == STRING:
        return "string"
    if target.found.category == ELEMENTS:
        kind = getattr(v, "kind", None)  # a dialect's tensor constant (`#vhlo.tensor_v1`)
        if kind is not None:
            return f"`#{kind.dialect}.{kind.name}` tensor"
        return _ELEMENTS_NAMES.get(type(v).__name__, "elements")
    return target.found.category


_ELEMENTS_NAMES = {"DenseElementsAttr": "dense elements", "DenseStringElementsAttr": "dense string elements",
                   "SparseElementsAttr": "sparse elements"}


def describe(target: Target, ev: Elements | None, st: Stats | None, status: str = "") -> str:
    """The hover text of an elided value."""
    f = target.found
    lines = [f"### Elided {_what(target)}"]
    facts = []
    if ev is not None and (ev.type is not None or ev.element is not None):
        facts.append(f"type `{ev.type_text}`")
    facts.append(f"{f.size:,} bytes")
    if ev is not None and ev.strings is None and ev.codec is not None:
        facts.append(f"{ev.count:,} elements" + (" (a splat)" if ev.splat else ""))
    facts.append(f"fingerprint `{f.fingerprint}`")
    lines.append(" · ".join(facts))
    v = target.value
    if isinstance(v, StringAttr):
        text = v.value
        lines.append(f"Starts `{_short(text[:80])}`, ends `{_short(text[-80:])}`")
    elif ev is not None:
        first, last = edge_elements(ev)
        lines.append("First: " + ", ".join(first) + (f"  \nLast: {', '.join(last)}" if last else ""))
        if ev.strings is not None:
            lines.append(f"{ev.count:,} strings")
        elif st is not None:
            if ev.codec is not None and ev.codec.kind == "bool":
                lines.append(f"true: {st.trues:,} · false: {st.zeros:,}")
            else:
                lines.append("| min | max | mean | std | zeros | NaNs | infs |\n"
                             "|---|---|---|---|---|---|---|\n"
                             f"| {format_number(st.min)} | {format_number(st.max)} | "
                             f"{format_number(st.mean if st.finite else None)} | "
                             f"{format_number(st.std if st.finite else None)} | {st.zeros:,} | "
                             f"{st.nans:,} | {st.infs:,} |")
                if ev.codec is not None and ev.codec.parts == 2:
                    lines.append("(statistics over real and imaginary parts together)")
        elif status:
            lines.append(status)
    lines.append("Code actions: *mlirbc: Show Full Value*, *mlirbc: Export Value (.npy)*")
    return "\n\n".join(lines)


def _short(b: bytes) -> str:
    return b.decode("utf-8", "replace").replace("`", "'").replace("\n", "\\n")


def _key(target: Target) -> tuple[str, int, str]:
    return (target.found.category, target.found.size, target.found.fingerprint)


async def _statistics(server: MlirbcServer, decoded: Decoded, target: Target,
                      ev: Elements) -> tuple[Stats | None, str]:
    state = _state(decoded)
    cache = state.stats
    key = _key(target)
    if key in cache:
        return cache[key], ""
    pending = state.pending
    job = pending.get(key)
    if job is None:
        job = asyncio.ensure_future(server.run_job(lambda: statistics(ev), "statistics of an elided value",
                                                   "mlirbc: statistics"))
        pending[key] = job

        def done(j: asyncio.Future[Any], key: tuple[str, int, str] = key) -> None:
            pending.pop(key, None)
            if not j.cancelled() and j.exception() is None:
                cache[key] = j.result()

        job.add_done_callback(done)
    try:
        result = await asyncio.wait_for(asyncio.shield(job), HOVER_BUDGET_S)
    except TimeoutError:
        return None, "Statistics: being computed (a large value); hover again in a moment."
    except Exception as exc:
        return None, f"Statistics: not available ({exc})"
    return result, ""


async def elided_hover(server: MlirbcServer, view: View, position: lsp.Position) -> lsp.Hover | None:
    """The hover of an elided value at `position`, or None when there is none."""
    decoded = server.decoded_for(view)
    if decoded is None:
        return None
    offset = view.codec.offset(position)
    target = target_at(decoded, view, offset)
    if target is None:
        return None
    ev = elements(target)
    st, status = (None, "")
    if ev is not None and ev.strings is None and ev.codec is not None:
        st, status = await _statistics(server, decoded, target, ev)
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                value=describe(target, ev, st, status)),
                     range=view.codec.range(target.start, target.end))


def _target_from(server: MlirbcServer, params: Any) -> tuple[Decoded, View, Target, Elements]:
    uri = param(params, "uri")
    pos = param(params, "position")
    if not isinstance(uri, str) or pos is None:
        raise JsonRpcInvalidParams("expected params {uri, position: {line, character}}")
    view = server.view(uri)
    if view is None:
        raise RequestFailed(f"{uri} is not open")
    decoded = server.decoded_for(view)
    if decoded is None:
        raise RequestFailed(f"{uri} is not the view of a bytecode file")
    line = param(pos, "line", 0)
    char = param(pos, "character", 0)
    target = target_at(decoded, view, view.codec.offset(lsp.Position(line=int(line), character=int(char))))
    if target is None:
        raise RequestFailed("there is no elided value at this position")
    ev = elements(target)
    if ev is None:
        raise RequestFailed(f"the elided {_what(target)} has no element reading")
    return decoded, view, target, ev


def register(server: MlirbcServer) -> None:
    @server.feature(VALUE_TEXT)
    async def value_text(params: Any) -> dict[str, Any]:
        decoded, _, target, ev = _target_from(server, params)
        first = max(0, int(param(params, "fromLine", 0) or 0))
        count = max(1, min(int(param(params, "maxLines", MAX_LINES) or MAX_LINES), 100_000))
        total = rows(ev)

        def work() -> str:
            return "\n".join(literal_lines(ev, first, count))

        text = await server.run_job(work, "printing an elided value", "mlirbc: Show Full Value")
        nxt = min(total, first + count)
        f = target.found
        title = f"{os.path.basename(decoded.key)} {_what(target)} {f.fingerprint}"
        header = (f"// {_what(target)} elided from {decoded.key}: {ev.type_text}, {f.size} bytes, "
                  f"fingerprint {f.fingerprint}")
        return {"title": title, "header": header, "text": text, "fromLine": first, "nextLine": nxt,
                "totalLines": total, "done": nxt >= total}

    @server.feature(EXPORT_VALUE)
    async def export_value(params: Any) -> dict[str, Any]:
        decoded, _, target, ev = _target_from(server, params)
        path = param(params, "path")
        if not isinstance(path, str) or not path:
            raise JsonRpcInvalidParams("expected params {uri, position, path}")
        try:
            plan = await server.run_job(lambda: write_npy(path, ev), f"writing {path}",
                                        "mlirbc: Export Value")
        except NpyError as exc:
            raise RequestFailed(f"cannot export the elided {_what(target)}: {exc}") from None
        except OSError as exc:
            raise RequestFailed(f"cannot write {path}: {exc.strerror or exc}") from None
        return {"written": path, "bytes": os.path.getsize(path), "shape": list(plan.shape),
                "descr": plan.descr, "note": plan.note}

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION)
    async def code_actions(params: lsp.CodeActionParams) -> list[lsp.Command] | None:
        # Plain commands (the protocol's simplest code actions): every client runs them as they are.
        view = server.view(params.text_document.uri)
        decoded = server.decoded_for(view) if view is not None else None
        if view is None or decoded is None:
            return None
        target = target_at(decoded, view, view.codec.offset(params.range.start))
        if target is None:
            return None
        args = [view.uri, {"line": params.range.start.line, "character": params.range.start.character}]
        return [lsp.Command(title=title, command=cmd, arguments=args)
                for title, cmd in (("mlirbc: Show Full Value", SHOW_COMMAND),
                                   ("mlirbc: Export Value (.npy)", EXPORT_COMMAND))]
