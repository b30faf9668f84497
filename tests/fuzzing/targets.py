"""The fuzz targets: each takes one input and returns the outcome class, or raises `Finding` (a bug).

* `reader`: bytes -> `read_bytecode` -> `print_module`.  Expected: a located `DecodeError` (offset inside the
  input), a partial module that prints with its error in the view, or a complete module that prints.
* `cycle`: bytes -> read -> print -> parse (template: the module read) -> write -> read -> print.  A complete
  decode must come back as the same view; its text must parse without errors, the writer must accept what
  the parser accepted, and the reader what the writer wrote.
* `text`: a text view -> `parse_module` -> `encode_bytecode` -> read.  Every diagnostic lies inside the text;
  what parses writes (unless it holds fallback parts, which need their original file) and reads back.
* `edit`: a text view -> full parse (the last good state) -> a few edits inside its top-level ops, made by
  the text mutator, each read by `reparse_edit` (one op re-read in place, as the server does while the user
  types) and by a full parse.  Both must give the same diagnostics, source map and module (printed and
  written); chained edits start from the last good state, spliced or not.
* `server`: one JSON-RPC message body -> the server's protocol layer.  Every request is answered exactly
  once, never with a traceback or an internal error.

Anything else (another exception, a broken invariant) is a `Finding`.  Time per input is measured by the
drivers (`fuzzing.engine`), not here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import re
import time
from typing import Any

from pygls.io_ import StdoutWriter

from mlirbc.bytecode.reader import read_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.errors import DecodeError, EncodeError
from mlirbc.ir.module import Module
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

from .text_mutator import decode_text


class Finding(Exception):
    """An input that breaks an invariant: the message says which."""


def _check_decode_error(exc: DecodeError, size: int) -> None:
    if not 0 <= exc.offset <= size:
        raise Finding(f"DecodeError offset {exc.offset} outside the input of {size} bytes: {exc}")


def _print(m: Module) -> str:
    text: str = print_module(m).text
    if m.error is not None and str(m.error.offset) not in text:
        raise Finding("the view of a partial decode does not show where decoding stopped")
    return text


def reader(data: bytes) -> str:
    try:
        m = read_bytecode(data)
    except DecodeError as exc:
        _check_decode_error(exc, len(data))
        return "rejected"
    if m.error is not None:
        _check_decode_error(m.error, len(data))
    _print(m)
    return "partial" if m.error is not None else "decoded"


def cycle(data: bytes) -> str:
    try:
        m = read_bytecode(data)
    except DecodeError as exc:
        _check_decode_error(exc, len(data))
        return "rejected"
    text = _print(m)
    if m.error is not None:
        _check_decode_error(m.error, len(data))
        return "partial"
    result = parse_module(text, template=m)
    if result.errors or result.module is None:
        e = result.errors[0] if result.errors else None
        where = f"{e.span}: {e.message}" if e is not None else "no module"
        raise Finding(f"the view of a complete decode does not parse: {where}")
    try:
        out = encode_bytecode(result.module, template=m)
    except EncodeError as exc:
        raise Finding(f"the writer refuses a view the parser accepted: {exc}") from None
    try:
        m2 = read_bytecode(out)
    except DecodeError as exc:
        raise Finding(f"the reader refuses what the writer wrote: {exc}") from None
    if m2.error is not None:
        raise Finding(f"the reader stops part-way in what the writer wrote: {m2.error}")
    text2 = print_module(m2).text
    if text2 != text:
        a, b = text.splitlines(), text2.splitlines()
        i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        before = a[i] if i < len(a) else "<end>"
        after = b[i] if i < len(b) else "<end>"
        raise Finding(f"the round trip changed the view at line {i + 1}: {before[:160]!r} -> "
                      f"{after[:160]!r}")
    return "cycled"


NEEDS_TEMPLATE = "without their original file"


def text(data: bytes) -> str:
    source = decode_text(data)
    result = parse_module(source)
    lines = source.split("\n")
    for d in result.diagnostics:
        s = d.span
        if not (0 <= s.start_line < len(lines) and 0 <= s.end_line < len(lines)
                and 0 <= s.start_col <= len(lines[s.start_line])
                and 0 <= s.end_col <= len(lines[s.end_line])):
            raise Finding(f"diagnostic span {s.start_line}:{s.start_col}-{s.end_line}:{s.end_col} lies "
                          f"outside the text: {d.message}")
        if not d.message:
            raise Finding("a diagnostic without a message")
    if result.errors or result.module is None:
        if result.module is None and not result.errors:
            raise Finding("no module and no error")
        return "rejected"
    module = result.module
    if module.view is not None:
        # A dialect-level view's text (StableHLO) is written after the view converts it back; what the
        # view cannot convert (at the header's target) is a refusal that names it.
        from mlirbc.models.build import default_registry
        from mlirbc.models.views import ViewError
        from mlirbc.view.forms import to_stored

        try:
            module = to_stored(module, default_registry())
        except ViewError as exc:
            if not str(exc):
                raise Finding("a view refusal without a message") from None
            return "view-refused"
    try:
        out = encode_bytecode(module, template=None)
    except EncodeError as exc:
        if NEEDS_TEMPLATE in str(exc):
            return "needs-template"
        raise Finding(f"the writer refuses text the parser accepted: {exc}") from None
    try:
        m2 = read_bytecode(out)
    except DecodeError as exc:
        raise Finding(f"the reader refuses what the writer wrote from text: {exc}") from None
    if m2.error is not None:
        raise Finding(f"the reader stops part-way in what the writer wrote from text: {m2.error}")
    return "encoded"


# -- edit ---------------------------------------------------------------------------------------------
def _diags(state: Any) -> list[tuple[object, ...]]:
    return [(d.message, d.severity, d.span.start, d.span.end, d.span.start_line, d.span.start_col,
             d.span.end_line, d.span.end_col) for d in state.diagnostics]


NAMED_OPS = 300
"""Ops whose name spans are compared: finding one costs the op's nesting depth, and the mutator nests
regions 520 deep (every op's span is compared)."""


def _shape(m: Any) -> tuple[object, ...]:
    ops = [(s.start, s.end, m.op_name_span(op) if i < NAMED_OPS else None)
           for i, (op, s) in enumerate(m.ops())]
    occ = [(o.start, o.end, o.is_def, o.is_block, o.target is None)
           for o in m.occurrences_in(0, len(m.text))]
    return ops, occ, [(p.kind, p.start, p.end) for p in m.parts()]


def _encoded(module: Module, template: Module | None) -> str:
    """The bytes a save writes (as the server's: the template's own unchanged ops copied from its
    bytes), or the writer's refusal."""
    from mlirbc.bytecode.writer import encode_bytecode
    from mlirbc.view.edits import unchanged_ops, writing

    try:
        with writing(module):
            return encode_bytecode(module, template=template,
                                   unchanged=unchanged_ops(module, template)).hex()
    except EncodeError as exc:
        return f"EncodeError: {exc}"


def _same_as_full_parse(inc: Any, full: Any, what: str, template: Module | None) -> None:
    if _diags(inc) != _diags(full):
        a, b = _diags(inc), _diags(full)
        i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        raise Finding(f"{what}: diagnostics differ from a full parse's at #{i}: "
                      f"{a[i] if i < len(a) else '<none>'!r} vs {b[i] if i < len(b) else '<none>'!r}"[:400])
    if _shape(inc.map) != _shape(full.map):
        raise Finding(f"{what}: the source map differs from a full parse's")
    if (inc.module is None) != (full.module is None):
        raise Finding(f"{what}: a module on one side only (spliced: {inc.module is not None})")
    if inc.module is not None and full.module is not None:
        if print_module(inc.module).text != print_module(full.module).text:
            raise Finding(f"{what}: the spliced module prints differently from a full parse's")
        if _encoded(inc.module, template) != _encoded(full.module, template):
            raise Finding(f"{what}: the spliced module writes differently from a full parse's")


EDITS_PER_INPUT = 2
_BASES: dict[str, tuple[Any, Module | None]] = {}
"""The good texts a user edits: the views of the seed files (state as printed, and the module read as
the template, as the server has them) and the text seeds that parse without errors."""


def _bases() -> dict[str, tuple[Any, Module | None]]:
    if not _BASES:
        from mlirbc.view.edits import parse_state, printed_state

        from . import seeds

        for p in seeds.bytecode_seeds():
            try:
                m = read_bytecode(p.read_bytes())
            except DecodeError:
                continue  # (regression inputs)
            if m.error is None:
                printed = print_module(m)
                if len(printed.text) <= 8000:
                    _BASES[printed.text] = (printed_state(m, printed), m)
        for t in seeds.text_seeds():
            if t not in _BASES:
                state = parse_state(t, None)
                if state.module is not None:
                    _BASES[t] = (state, None)
    return _BASES


def _common(a: str, b: str) -> tuple[int, int]:
    """The lengths of the longest common prefix and (not overlapping it) suffix of `a` and `b`: the
    dirty range the server keeps between the last good text and the current one."""
    n = min(len(a), len(b))
    # A binary search whose steps compare only the part not yet known to match (`startswith` at an
    # offset runs in C): about 2n characters copied in all, not n log n.
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a.startswith(b[lo:mid], lo):
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    la, lb = len(a), len(b)
    lo, hi = 0, n - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a.endswith(b[lb - mid:lb - lo], 0, la - lo):
            lo = mid
        else:
            hi = mid - 1
    return prefix, lo


def _check_edit(good: Any, new: str, full: Any, what: str, template: Module | None) -> Any:
    """Read `new` from the good state as the server does: the state re-read in place (which must match
    the full parse `full`), or None when only a full parse can read it."""
    from mlirbc.view.edits import reparse_edit

    prefix, tail = _common(good.text, new)
    inc = reparse_edit(good, new, prefix, len(good.text) - tail, template)
    if inc is not None:
        _same_as_full_parse(inc, full, f"{what} at {prefix}..{len(good.text) - tail}", template)
    return inc


def edit(data: bytes) -> str:
    """The input is the text a user has now.  (1) It was typed into the seed view nearest to it (the
    longest common prefix and suffix), with that seed's file as the template: read it from that view's
    state as the server would.  (2) When it parses, a few more edits inside its top-level ops, made by the
    text mutator as a function of the input (so that runs repeat), each read from the last good state;
    the text drifts through states with errors, as a user's does."""
    import random
    import zlib

    from mlirbc.view.edits import parse_state

    from .text_mutator import TextMutator

    source = decode_text(data)
    bases = _bases()
    template: Module | None = None
    spliced = 0
    if bases:
        nearest = max(bases, key=lambda t: sum(_common(t, source)))
        state, template = bases[nearest]
        full = parse_state(source, template)
        if nearest != source:
            spliced += _check_edit(state, source, full, "typed into a seed view", template) is not None
    else:
        full = parse_state(source, None)
    if full.module is None:
        return "spliced-rejected" if spliced else "rejected"
    rng = random.Random(zlib.crc32(data))
    mutator = TextMutator([source])
    good = current = full
    text = source
    for k in range(EDITS_PER_INPUT):
        tops = list(current.map.top_level())
        if not tops:
            break
        _, span = rng.choice(tops)
        piece, kind = mutator.mutate(text[span.start:span.end], rng)
        new = text[:span.start] + piece + text[span.end:]
        after = parse_state(new, template)
        inc = _check_edit(good, new, after, f"edit {k + 1} ({kind})", template)
        spliced += inc is not None
        # the server keeps the spliced state: the next edit splices into a spliced map
        current, text = (inc if inc is not None else after), new
        if current.module is not None:
            good = current
    return "spliced" if spliced else "full-parse-only"


# -- server -------------------------------------------------------------------------------------------
_ALLOWED_CODES = {-32700, -32600, -32601, -32602, -32803, -32800, -32801, -32002}


class _Capture(StdoutWriter):
    """The server's output as its stdio takes it (the same framing path as `mlirbc-lsp`'s), cut back into
    messages by their Content-Length."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO())
        self.messages: list[dict[str, Any]] = []
        self.arrived: asyncio.Event | None = None
        self._pending = bytearray()

    def write(self, data: bytes) -> None:
        pending = self._pending
        pending += data
        while (head_end := pending.find(b"\r\n\r\n")) >= 0:
            length = re.search(rb"Content-Length: (\d+)", pending[:head_end])
            start = head_end + 4
            if length is None or len(pending) - start < int(length[1]):
                return
            end = start + int(length[1])
            self.messages.append(json.loads(pending[start:end]))
            del pending[:end]
            if self.arrived is not None:
                self.arrived.set()

    def close(self) -> None:
        pass


class ServerHarness:
    """One server, fed message bodies directly through its protocol layer on a private event loop."""

    def __init__(self) -> None:
        from mlirbc.lsp.server import create_server

        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.server = create_server()
        self.settings = dataclasses.replace(self.server.settings, max_file_mb=1.0, decode_timeout_s=2.0,
                                            debounce_ms=0.0)
        self.server.apply_settings(self.settings)
        self.capture = _Capture()
        self.server.protocol.set_writer(self.capture)
        self.inputs = 0
        self.home: list[str] = []
        init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}}}
        if self.feed(json.dumps(init).encode()) != "result":
            raise RuntimeError("the server did not initialize")
        self.feed(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}')
        self.open_home_views()

    REOPEN_EVERY = 250
    """Inputs between re-openings of the home views (edits make them drift far from real views)."""

    def open_home_views(self) -> None:
        """Open the views of a few seed files with their real text: requests at real positions and edits
        of real functions (seeds.server_seeds) reach the source maps and the server's in-place re-reads."""
        from .seeds import home_views

        self.home = [uri for uri, _ in home_views()]
        for uri, text in home_views():
            self.server.protocol.receive(json.dumps({
                "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": uri, "languageId": "mlir", "version": 1, "text": text}}}).encode())

        async def opened() -> None:  # (the file is decoded on a worker thread first)
            end = self.loop.time() + 10.0
            while any(u not in self.server.views for u in self.home) and self.loop.time() < end:
                await asyncio.sleep(0.001)

        self.loop.run_until_complete(opened())
        self.capture.messages.clear()

    def feed(self, body: bytes, deadline: float = 2.0) -> str:
        self.inputs += 1
        proto = self.server.protocol
        self.capture.messages.clear()
        expects_answer = True
        msg_id: Any = None
        try:
            # Strict UTF-8, as the server reads a body: `json.loads` of bytes would take a surrogate's
            # UTF-8 form (`\xed\xa0\x80`), which is no UTF-8, and the server answers that with id null.
            raw = json.loads(body.decode("utf-8"))
        except RecursionError:
            from mlirbc.lsp.protocol import shallow_id

            raw = None
            msg_id = shallow_id(body.decode("utf-8", "replace"))[0]
        except ValueError:
            raw = None
        if isinstance(raw, dict):
            msg_id = raw.get("id")
            valid_id = isinstance(msg_id, int | str) and not isinstance(msg_id, bool)
            if "id" in raw and valid_id and "method" not in raw and ("result" in raw or "error" in raw):
                expects_answer = False  # a response from the client: nothing to answer
            elif "id" not in raw:
                expects_answer = False  # a notification
            elif not valid_id:
                msg_id = None
        if raw is not None and isinstance(raw, dict) and raw.get("method") in ("exit", "shutdown"):
            return "skipped"  # ending the harness's own server is not the point
        proto.receive(body)
        answer = None
        if expects_answer:
            answer = self._wait(msg_id, deadline)
            if answer is None:
                raise Finding(f"no answer within {deadline} s of CPU time (or {self.WALL_LIMIT:.0f} s of "
                              f"wall time) to a request with id {msg_id!r}")
        elif isinstance(raw, dict) and raw.get("method") in ("textDocument/didOpen",
                                                             "textDocument/didChange"):
            self._settle(deadline)
        for m in self.capture.messages:
            self._check(m)
        self.server.apply_settings(self.settings)  # whatever a configuration message set
        if len(self.server.views) > 20 or len(self.server.files) > 20:
            self.server.views.clear()
            self.server.files.clear()
            self.server.diagnostics.clear()
            self.open_home_views()
        elif self.inputs % self.REOPEN_EVERY == 0 or any(u not in self.server.views for u in self.home):
            self.open_home_views()  # (closed by a message, or dropped by a second `initialize`)
        if answer is None:
            return "notification"
        return "error" if "error" in answer else "result"

    def _settle(self, deadline: float) -> None:
        """Let the server check the views an edit changed (as it does between keystrokes), so that the
        next requests meet the new states and their diagnostics are checked here."""
        async def spin() -> None:
            end = self.loop.time() + deadline
            while self.loop.time() < end and any(
                    v.state_version != v.version for v in list(self.server.views.values())):
                await asyncio.sleep(0.001)

        self.loop.run_until_complete(spin())

    WALL_LIMIT = 30.0
    """A request is unanswered after `deadline` seconds of the process's CPU time, or this much wall time
    (a worker blocked without using CPU: a FIFO read, a lock).  CPU time, because a fuzzing process at
    niceness 19 on a busy machine can wait seconds for a core.  (The sixth session's late answers, first
    taken for that, were a real disagreement about the ids of deep and damaged bodies: docs/fuzzing.md.)"""

    def _wait(self, msg_id: Any, deadline: float) -> dict[str, Any] | None:
        def found() -> dict[str, Any] | None:
            for m in self.capture.messages:
                if "method" not in m and m.get("id") == msg_id and ("result" in m or "error" in m):
                    return m
            return None

        async def spin() -> dict[str, Any] | None:
            # Woken by each message the server writes (answers from worker threads arrive through
            # the loop), and every 50 ms to look at the CPU time spent.
            end = self.loop.time() + self.WALL_LIMIT
            cpu_end = time.process_time() + deadline
            arrived = self.capture.arrived = asyncio.Event()
            try:
                while True:
                    hit = found()
                    left = end - self.loop.time()
                    if hit is not None or left <= 0 or time.process_time() > cpu_end:
                        return hit
                    arrived.clear()
                    try:
                        await asyncio.wait_for(arrived.wait(), min(left, 0.05))
                    except TimeoutError:
                        pass
            finally:
                self.capture.arrived = None

        return self.loop.run_until_complete(spin())

    def _check(self, m: dict[str, Any]) -> None:
        text = json.dumps(m)
        if "Traceback" in text or '"traceback"' in text:
            raise Finding(f"a traceback on the wire: {text[:300]}")
        err = m.get("error")
        if isinstance(err, dict):
            if err.get("code") not in _ALLOWED_CODES:
                raise Finding(f"error code {err.get('code')} ({err.get('message', '')[:200]})")
        if m.get("method") == "window/showMessage":
            msg = str(m.get("params", {}).get("message", ""))
            if "Error in server" in msg:
                raise Finding(f"a handler failed: {msg[:300]}")
