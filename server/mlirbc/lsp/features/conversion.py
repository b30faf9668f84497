"""vscode-mlir's `mlir/convertFromBytecode`, `mlir/convertToBytecode`; `mlirbc/info`, `mlirbc/save`.

Encoding always starts from the server's copy of the view.  A view whose text is still exactly what was
decoded, with no version/producer override, gives back the original bytes untouched; otherwise the text is
parsed (all errors reported, the first one named in the refusal) and written with the original module as
template.  A text that parses but does not verify (`verifier`) is refused too, with the error data
`{"unverifiedSaveAllowed": true}`: `mlirbc/save` with `"unverified": true` writes it anyway (a parse error
can never be written).
A dialect-level view (the StableHLO of a VHLO artifact) is converted back first: its unchanged ops are the
file's own, edited ones are written for the file's target, and what the target cannot hold is refused at the
op that needs it.
"""

from __future__ import annotations

import base64
import os
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from ...bytecode.template import template_of
from ...bytecode.writer import encode_bytecode_chunks
from ...errors import EncodeError, MlirbcError
from ...files.access import FileRefused, atomic_write
from ...files.chunks import Chunks, file_range
from ...ir.module import Module
from ...models.views import ViewError
from ...summary import module_info
from ...syntax.textlines import TextLines
from ...view.edits import unchanged_ops, writing
from ...view.forms import to_stored, view_error_diagnostic
from ...view.parser import TextDiagnostic
from ..analysis import state_of
from ..diagnostics import save_diagnostic
from ..documents import Decoded, View
from ..guard import WorkTimeout
from ..server import SOURCE_SAVE, MlirbcServer, RequestFailed, key_of, param

CONVERT_FROM = "mlir/convertFromBytecode"
CONVERT_TO = "mlir/convertToBytecode"
INFO = "mlirbc/info"
SAVE = "mlirbc/save"


def _uri(params: Any) -> str:
    uri = param(params, "uri")
    if not isinstance(uri, str) or not uri:
        raise JsonRpcInvalidParams("expected params {uri: string}")
    return uri


def _key(uri: str) -> str:
    key = key_of(uri)
    if key is None:
        raise RequestFailed(f"{uri} does not name a local file (supported schemes: file, mlirbc, "
                            "mlir.bytecode-mlir)")
    return key


Output = bytes | memoryview | Chunks
"""Bytecode as `encode_view` gives it: the mapped original itself (unchanged text), or `Chunks` whose
large pieces are views of it; `atomic_write` streams either, never holding the whole file."""


def _stale(decoded: Decoded | None) -> str | None:
    src = template_of(decoded.file_module) if decoded is not None else None
    mapped = src.mapped if src is not None else None
    return mapped.changed() if mapped is not None else None


async def encode_view(server: MlirbcServer, uri: str,
                      unverified: bool = False) -> tuple[Output, Decoded | None, View | None]:
    """The bytecode for the server's copy of the view at `uri` (raises RequestFailed); with `unverified`,
    a text whose only errors are the verifier's is written anyway."""
    view = server.views.get(uri)
    key = key_of(uri)
    decoded = server.files.get(key) if key is not None else None
    if view is None and decoded is None:
        if key is None:
            raise RequestFailed(f"{uri} is not open")
        decoded = await server.load_file(key)
    text = view.text if view is not None else decoded.text if decoded is not None else ""
    s = server.settings
    name = os.path.basename(key or uri)
    if decoded is not None and decoded.file_module.error is not None:
        raise RequestFailed(f"{name} did not decode completely ({decoded.file_module.error}); "
                            "refusing to write a partial module")
    stale = _stale(decoded)
    if stale is not None:
        # The original is the template whose bytes every elided value is copied from: if another
        # program rewrote it in place, those bytes are not what was decoded any more.
        raise RequestFailed(f"cannot encode {name}: {stale}")
    registry = decoded.registry if decoded is not None else server.registry()
    state = None
    if decoded is not None and text == decoded.text:
        m = decoded.file_module
        if (s.output_version in (None, m.version)) and (s.output_producer in (None, m.producer)):
            # Untouched: the original bytes, exactly (a range of the mapped original).
            src = template_of(m)
            return Chunks(file_range(decoded.data, 0, src.mapped if src is not None else None)), \
                decoded, view
        module = m
    elif decoded is not None and decoded.saved is not None and decoded.saved[0] == text and \
            s.output_version is None and s.output_producer is None:
        return decoded.saved[1], decoded, view
    else:
        if view is None:
            raise RequestFailed(f"{uri} is not open")
        try:
            state = await state_of(server, view)
        except (WorkTimeout, Exception) as exc:
            raise RequestFailed(f"cannot check the text of {name}: {exc}") from None
        if state is None:
            raise RequestFailed(f"{name} changed while it was being checked; save again")
        errors = state.parse_errors
        if errors or state.module is None:
            first = errors[0] if errors else None
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            where = f"{first.span}: " if first is not None else ""
            msg = first.message if first is not None else "the parser produced no module"
            raise _Refused(f"cannot encode {name}: {where}{msg}{more}", first)
        faults = state.verify_errors if s.verify else []
        if faults and not unverified:
            first = faults[0]
            more = f" (and {len(faults) - 1} more)" if len(faults) > 1 else ""
            raise _Refused(f"cannot encode {name}: {first.span}: {first.message}{more}; the text does not "
                           "verify (save it anyway, unverified, to write it as it is)", first,
                           data={"unverifiedSaveAllowed": True})
        module = state.module
    template = decoded.file_module if decoded is not None else None
    if decoded is not None:
        await server.prepared(decoded.key)
    shown_as = decoded.shown if decoded is not None else None

    def encode(module: Module = module) -> Chunks:
        with writing(module):
            stored = to_stored(module, registry, shown_as)
        with writing(stored):
            return encode_bytecode_chunks(stored, version=s.output_version, producer=s.output_producer,
                                          template=template if template is not None else "auto",
                                          registry=registry, unchanged=unchanged_ops(stored, template))

    try:
        data = await server.run_job(encode, f"encoding {name}", "mlirbc: writing bytecode")
    except ViewError as exc:
        lines = view.lines if view is not None and state is not None else TextLines(text)
        problem = view_error_diagnostic(exc, state.map if state is not None else None, lines)
        raise _Refused(f"cannot encode {name}: {problem.span}: {exc}" if exc.op is not None
                       else f"cannot encode {name}: {exc}", problem) from None
    except (EncodeError, MlirbcError) as exc:
        raise RequestFailed(f"cannot encode {name}: {exc}") from None
    except WorkTimeout as exc:
        raise RequestFailed(f"{name}: {exc}") from None
    return data, decoded, view


class _Refused(RequestFailed):
    def __init__(self, message: str, problem: TextDiagnostic | None, data: dict[str,
                                                                                Any] | None = None) -> None:
        super().__init__(message, data=data)
        self.problem = problem


def register(server: MlirbcServer) -> None:
    @server.feature(CONVERT_FROM)
    async def convert_from(params: Any) -> dict[str, str]:
        uri = _uri(params)
        decoded = await server.load_file(_key(uri), param(params, "workDoneToken"))
        for view in server.views_of(decoded.key):
            from ..analysis import schedule

            schedule(server, view.uri, 0)
        return {"output": decoded.text}

    @server.feature(CONVERT_TO)
    async def convert_to(params: Any) -> dict[str, str]:
        uri = _uri(params)
        data, _, _ = await encode_view(server, uri)
        # This request answers with the whole file (vscode-mlir's protocol); mlirbc/save streams.
        raw = data.tobytes() if isinstance(data, Chunks) else data
        return {"output": base64.b64encode(raw).decode("ascii")}

    @server.feature(INFO)
    async def info(params: Any) -> dict[str, Any]:
        uri = _uri(params)
        key = _key(uri)
        decoded = server.files.get(key)
        if decoded is None:
            decoded = await server.load_file(key, param(params, "workDoneToken"))
        result = module_info(decoded.file_module, len(decoded.data), decoded.registry)
        shown_as = decoded.shown
        if shown_as is not None and shown_as.view is not None and shown_as.conversion is not None:
            # What this server shows (module_info says what `auto` would): the view, and its kept ops.
            result["view"] = {"name": shown_as.view.name, "model": shown_as.origin,
                              "stored_dialect": shown_as.view.stored_dialect,
                              "kept_ops": len(shown_as.conversion.notes())}
        else:
            result["view"] = None
        edited = [v.uri for v in server.views_of(key) if v.text != decoded.text]
        result["sizes"] = {"file": len(decoded.data), "text": len(decoded.text),
                           "lines": decoded.text.count("\n")}
        result["path"] = key
        result["edited_views"] = edited
        result["views"] = [{"uri": v.uri, "version": v.version, "ranged_changes": v.changes["ranged"],
                            "whole_changes": v.changes["whole"]} for v in server.views_of(key)]
        return result

    @server.feature(SAVE)
    async def save(params: Any) -> dict[str, Any]:
        uri = _uri(params)
        target = param(params, "path")
        if target is not None and (not isinstance(target, str) or not target):
            raise JsonRpcInvalidParams("`path` must be a non-empty string")
        overwrite = param(params, "overwriteReadOnly")
        if overwrite is not None and not isinstance(overwrite, bool):
            raise JsonRpcInvalidParams("`overwriteReadOnly` must be a boolean")
        unverified = param(params, "unverified") is True
        try:
            data, decoded, view = await encode_view(server, uri, unverified)
        except _Refused as exc:
            span = exc.problem.span if exc.problem is not None else None
            current = server.views.get(uri)
            codec = current.codec if current is not None else None
            server.set_diagnostics(uri, SOURCE_SAVE, [save_diagnostic(f"save refused: {exc}",
                                                                      span, codec)])
            raise
        except RequestFailed as exc:
            server.set_diagnostics(uri, SOURCE_SAVE, [save_diagnostic(f"save refused: {exc}",
                                                                      None, None)])
            raise
        path = target or _key(uri)
        # A relative `path` is relative to the document's folder, never to the server's working directory.
        home = key_of(uri)
        base = os.path.dirname(home) if home is not None and os.path.isabs(home) else None
        try:
            if base is None and not os.path.isabs(path):
                raise FileRefused(path, "a relative path needs a document in a local folder")
            written = await server.run_job(lambda: atomic_write(path, data, base_dir=base,
                                                                read_only_too=overwrite is True),
                                           f"writing {path}", "mlirbc: saving")
        except OSError as exc:
            msg = f"cannot write {exc}" if isinstance(exc, FileRefused) else \
                f"cannot write {path}: {exc.strerror or exc}"
            server.set_diagnostics(uri, SOURCE_SAVE, [save_diagnostic(msg, None, None)])
            raise RequestFailed(msg) from None
        server.set_diagnostics(uri, SOURCE_SAVE, [])
        path = written
        if decoded is not None and view is not None and \
                os.path.realpath(path) == os.path.realpath(decoded.key):
            # The file now holds what the view shows: saving that text again gives these bytes.
            # The decoded module stays the template (template writes keep original numbering).
            decoded.saved = (view.text, data if isinstance(data, Chunks) else Chunks(data))
        return {"written": path, "bytes": len(data)}


_ = lsp  # the feature names above are plain strings: custom requests
