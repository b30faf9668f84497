"""The JSON-RPC layer between the wire and the features: every request gets an answer, none a traceback.

pygls decodes each message body with `json.loads(..., object_hook=structure_message)` and dispatches it;
whatever fails on the way (malformed JSON, JSON nested deeper than the decoder's recursion limit, an
envelope with `jsonrpc: "1.0"`, an object `id`, `method: 123`, params that do not structure into their
lsprotocol type) is only logged, so the client waits forever for its answer, and an exception inside a
handler goes back with its Python traceback in `data`.  This module replaces that path:

* `serve` reads framed messages (headers, a bounded `Content-Length`, the body read in chunks so that a
  hostile length allocates nothing up front) and hands each body to `MlirbcProtocol.receive`;
* `receive` decodes, checks the envelope, checks the params' JSON kinds (`shapes`: cheap, before cattrs
  structures them) and structures them, then dispatches: each failure
  is answered with the JSON-RPC error it is (`ParseError` -32700, `InvalidRequest` -32600,
  `MethodNotFound` -32601, `InvalidParams` -32602 naming the field), or logged for notifications;
* responses never carry a traceback: unexpected exceptions are logged with theirs and answered with a short
  `InternalError` message.

Custom requests (`mlir/...`, `mlirbc/...`) have their params checked against `CUSTOM_PARAMS` and reach
their handlers as plain dicts holding only the known fields.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
import traceback
from collections.abc import Awaitable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlsplit

from cattrs.errors import BaseValidationError
from lsprotocol import types as lsp
from pygls.exceptions import (
    FeatureNotificationError,
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcParseError,
    JsonRpcRequestCancelled,
    JsonRpcServerNotInitialized,
)
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, LanguageServerProtocol

from .deepjson import scan, valid_id
from .framing import frame
from .shapes import params_problem

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2 << 30
"""Bodies larger than this are skipped unread and answered with an error (the largest view a 1 GiB
bytecode file prints fits)."""
READ_CHUNK = 1 << 24
SCAN_LIMIT = 1 << 24
"""Bodies up to this size that are nested too deeply to decode are scanned for their id."""

JSON_VERSION = "2.0"
_INT32 = (1 << 31) - 1

# What the custom requests accept: field -> (accepted JSON types, required).
_STR = (str,)
_TOKEN = (int, str)
_BOOL = (bool,)
CUSTOM_PARAMS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "mlir/convertFromBytecode": {"uri": (_STR, True), "workDoneToken": (_TOKEN, False)},
    "mlir/convertToBytecode": {"uri": (_STR, True), "workDoneToken": (_TOKEN, False)},
    "mlirbc/info": {"uri": (_STR, True), "workDoneToken": (_TOKEN, False)},
    "mlirbc/save": {"uri": (_STR, True), "path": (_STR, False), "overwriteReadOnly": (_BOOL, False),
                    "unverified": (_BOOL, False), "workDoneToken": (_TOKEN, False)},
}


_BEFORE_INITIALIZE = frozenset({lsp.INITIALIZE, lsp.EXIT, lsp.CANCEL_REQUEST, lsp.SHUTDOWN})


class _Refusal(Exception):
    """A message that cannot be dispatched: the error to answer with (if it is a request)."""

    def __init__(self, error: JsonRpcException, msg_id: int | str | None) -> None:
        super().__init__(error.message)
        self.error = error
        self.msg_id = msg_id


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def validation_problems(exc: BaseException, path: str) -> list[str]:
    """`path: message` for every leaf of a cattrs validation error, the path naming the field."""
    if isinstance(exc, BaseValidationError):
        out: list[str] = []
        for sub in exc.exceptions:
            sub_path = path
            for note in getattr(sub, "__notes__", []):
                name = getattr(note, "name", None)
                index = getattr(note, "index", None)
                if isinstance(name, str):
                    sub_path = f"{path}.{_camel(name)}"
                elif isinstance(index, int):
                    sub_path = f"{path}[{index}]"
            out.extend(validation_problems(sub, sub_path))
        return out
    if isinstance(exc, KeyError):
        return [f"{path}: required field missing"]
    msg = str(exc) or type(exc).__name__
    return [f"{path}: {msg}"]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def shallow_id(text: str) -> tuple[int | str | None, str | None]:
    """The `id` of a message too deep to decode (None unless it is JSON with a valid id) and the top-level
    key whose value nests deepest (`deepjson.scan`)."""
    found = scan(text)
    return found.msg_id, found.deepest_key


def _closed(writer: Any) -> bool:
    """Whether the protocol's output has been closed (stdio after `exit`, a TCP stream that ended)."""
    if isinstance(writer, asyncio.StreamWriter):
        return writer.is_closing()
    stream = getattr(writer, "_stdout", None)
    return bool(getattr(stream, "closed", False))


class MlirbcProtocol(LanguageServerProtocol):
    """pygls' LSP protocol with a validating front (`receive`) and responses without tracebacks."""

    _output_closed = False

    # -- receiving ------------------------------------------------------------------------------------
    def receive(self, body: bytes) -> None:
        """Decode, check and dispatch one message body; answers every refused request, never raises."""
        msg_id: int | str | None = None
        is_request = True
        try:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _Refusal(JsonRpcParseError(f"the message is not UTF-8: {exc.reason} at byte "
                                                 f"{exc.start}"), None) from None
            try:
                raw = json.loads(text)
            except RecursionError:
                # (a huge body is not scanned for its id: the answer then goes to id null)
                checked = scan(text) if len(text) <= SCAN_LIMIT else None
                if checked is not None and checked.problem is not None:
                    raise _Refusal(JsonRpcParseError(f"the message is not JSON: {checked.problem}"),
                                   None) from None
                found, where = (checked.msg_id, checked.deepest_key) if checked is not None else (None, None)
                error: JsonRpcException
                if where == "params":
                    error = JsonRpcInvalidParams("params: nested too deeply to decode")
                else:
                    error = JsonRpcInvalidRequest("the message is nested too deeply to decode"
                                                  + (f" (in '{where}')" if where else ""))
                raise _Refusal(error, found) from None
            except ValueError as exc:
                raise _Refusal(JsonRpcParseError(f"the message is not JSON: {exc}"), None) from None
            if not isinstance(raw, dict):
                what = "a batch (array)" if isinstance(raw, list) else f"a {_json_type(raw)}"
                raise _Refusal(JsonRpcInvalidRequest(f"a message must be a JSON object, not {what}"),
                               None)
            has_id = "id" in raw
            if has_id and not valid_id(raw["id"]):
                raise _Refusal(JsonRpcInvalidRequest(
                    f"id must be an integer or a string, not {_json_type(raw['id'])}"), None)
            msg_id = raw.get("id")
            method = raw.get("method")
            is_request = has_id and ("method" in raw or not ("result" in raw or "error" in raw))
            if raw.get("jsonrpc") != JSON_VERSION:
                raise _Refusal(JsonRpcInvalidRequest(
                    f'jsonrpc must be "{JSON_VERSION}", not {json.dumps(raw.get("jsonrpc"))[:40]}'),
                    msg_id)
            if "method" in raw and not isinstance(method, str):
                raise _Refusal(JsonRpcInvalidRequest(
                    f"method must be a string, not {_json_type(method)}"), msg_id)
            if "method" not in raw:
                if not has_id or not ("result" in raw or "error" in raw):
                    raise _Refusal(JsonRpcInvalidRequest("a message needs a method (or, as a response, "
                                                         "an id and a result or an error)"), msg_id)
                self._dispatch(self.structure_message(raw), msg_id, False)  # the client answers us
                return
            assert isinstance(method, str)
            if self._shutdown and method != lsp.EXIT:
                raise _Refusal(JsonRpcInvalidRequest("the server is shutting down"), msg_id)
            if self._workspace is None and method not in _BEFORE_INITIALIZE:
                # LSP: before `initialize`, requests fail with ServerNotInitialized and notifications
                # are dropped.
                raise _Refusal(JsonRpcServerNotInitialized("the server is not initialized yet"), msg_id)
            if has_id and _is_notification(method):
                raise _Refusal(JsonRpcInvalidRequest(
                    f"'{method}' is a notification: it is sent without an id"), msg_id)
            message = self._structure(raw, method, msg_id)
            if message is None:
                return
            self._check_document(method, message, msg_id)
            self._dispatch(message, msg_id, is_request)
        except _Refusal as refusal:
            if is_request:  # an id that could not be read is answered as null (JSON-RPC 2.0, 5.)
                self._answer_error(refusal.msg_id, refusal.error)
            else:
                logger.warning("refused notification: %s", refusal.error.message)
        except Exception:  # never let a message take the reading loop down
            logger.exception("internal error while receiving a message")
            if is_request:
                self._answer_error(msg_id, JsonRpcInternalError("internal error while receiving the "
                                                                "message (see the server log)"))

    def _structure(self, raw: dict[str, Any], method: str, msg_id: int | str | None) -> Any:
        """The typed message for `raw`, or None when it was answered (or, as a notification, dropped)."""
        has_handler = method in self.fm.builtin_features or method in self.fm.features
        is_request = "id" in raw
        params = raw.get("params")
        if "params" in raw and params is not None and not isinstance(params, dict | list):
            raise _Refusal(JsonRpcInvalidParams(
                f"params must be an object or an array, not {_json_type(params)}"), msg_id)
        if method in CUSTOM_PARAMS:
            clean = _check_custom(method, params, msg_id)
            if is_request and msg_id is not None:
                return JsonRPCRequestMessage(id=msg_id, method=method, jsonrpc=JSON_VERSION, params=clean)
            return JsonRPCNotification(method=method, jsonrpc=JSON_VERSION, params=clean)
        typed = self.get_message_type(method)
        if typed is None and not has_handler and method != lsp.CANCEL_REQUEST:
            if is_request:
                raise _Refusal(JsonRpcMethodNotFound(f"method not found: {method[:200]}"), msg_id)
            if not method.startswith("$/"):
                logger.info("ignoring notification for unknown method %r", method[:200])
            return None
        if typed is None:
            # A handler without an lsprotocol type: pygls turns the params into namedtuples (and needs
            # the field, which JSON-RPC lets a client leave out).
            try:
                return super().structure_message({**raw, "params": raw.get("params")})
            except JsonRpcException as exc:
                raise _Refusal(JsonRpcInvalidParams(f"invalid params for {method}: {exc.message}"),
                               msg_id) from None
        # Before cattrs, which takes a string or an object where an array belongs for a sequence and
        # fails on every character or key of it (seconds for a long one).
        problem = params_problem(typed, params)
        if problem is not None:
            raise _Refusal(JsonRpcInvalidParams(f"invalid params for {method}: {problem}"), msg_id)
        try:
            return self._converter.structure(raw, typed)
        except RecursionError:
            raise _Refusal(JsonRpcInvalidParams("params: nested too deeply"), msg_id) from None
        except BaseValidationError as exc:
            problems = [p.removeprefix("$.") for p in validation_problems(exc, "$")]
            problems = [p for p in problems if not p.startswith(("jsonrpc", "method", "id"))] or problems
            text = "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5
                                              else "")
            raise _Refusal(JsonRpcInvalidParams(f"invalid params for {method}: {text}"), msg_id) from None
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise _Refusal(JsonRpcInvalidParams(f"invalid params for {method}: {exc}"), msg_id) from None

    def _check_document(self, method: str, message: Any, msg_id: int | str | None) -> None:
        """The `textDocument.uri` of typed params must be a URI; a change to or the closing of a document
        that is not open is a client's mistake to log, not the server's failure."""
        doc = getattr(getattr(message, "params", None), "text_document", None)
        uri = getattr(doc, "uri", None)
        if not isinstance(uri, str):
            return
        try:
            urlsplit(uri)
        except ValueError as exc:
            raise _Refusal(JsonRpcInvalidParams(f"params.textDocument.uri: not a URI ({exc})"),
                           msg_id) from None
        if method in (lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.TEXT_DOCUMENT_DID_CLOSE) and \
                not self.is_open(uri):
            raise _Refusal(JsonRpcInvalidParams(f"{uri[:200]} is not open"), msg_id)

    def is_open(self, uri: str) -> bool:
        """Whether the client opened the document `uri` (a server that keeps documents itself says so
        by overriding this)."""
        return unquote(uri) in self.workspace.text_documents

    def _dispatch(self, message: Any, msg_id: int | str | None, is_request: bool) -> None:
        try:
            self.handle_message(message)
        except Exception:
            logger.exception("internal error while dispatching %r", getattr(message, "method", None))
            if is_request and msg_id is not None:
                self._answer_error(msg_id, JsonRpcInternalError("internal error (see the server log)"))

    # -- answering --------------------------------------------------------------------------------------
    def _answer_error(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        if msg_id is None:  # pygls' message types drop a None id; JSON-RPC wants `"id": null`
            err: dict[str, Any] = {"code": error.code, "message": error.message}
            self._send_data({"jsonrpc": JSON_VERSION, "id": None, "error": err})
            return
        self._send_response(msg_id, None, error.to_response_error())

    def _send_data(self, data: Any) -> None:
        """Write one message in pieces (`framing`) to a writer that takes bytes in order (stdio, a TCP
        stream); pygls' own holds a message four times over and logs it whole at INFO."""
        if not data or not self._include_headers or \
                not isinstance(self.writer, StdoutWriter | asyncio.StreamWriter):
            super()._send_data(data)
            return
        if self._output_closed:
            return  # after `exit` the jobs still winding down have nobody to tell
        try:
            message = self._serialize_message(data) if hasattr(data, "__attrs_attrs__") else data
            if logger.isEnabledFor(logging.INFO):  # never the whole message: a view is megabytes
                logger.info("sending %s", message.get("method") or f"the answer to {message.get('id')!r}")
            for piece in frame(message, self._serialize_message,
                               f"{self.CONTENT_TYPE}; charset={self.CHARSET}"):
                self.writer.write(piece)
        except BrokenPipeError:
            logger.exception("the client closed its end while a message was being sent")
            raise
        except ValueError as error:
            if not _closed(self.writer):
                logger.exception("error while sending a message")
                self._server._report_server_error(error, JsonRpcInternalError)
                return
            # Reporting this to the client would be one more message to the closed output, and so on
            # without end (a CI run's log filled with 1.3 million of them after `exit`).
            self._output_closed = True
            logger.info("the output is closed: the messages still being sent are dropped")
        except Exception as error:
            logger.exception("error while sending a message")
            self._server._report_server_error(error, JsonRpcInternalError)

    def _send_response(self, msg_id: Any, result: Any | None = None,
                       error: lsp.ResponseError | None = None) -> None:
        if error is not None:
            error = _without_traceback(error)
        super()._send_response(msg_id, result, error)

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        """Answer a request from its handler's future: the result; a refusal (a JsonRpcException) as it
        is, logged in one line (pygls logs each with a traceback); anything else as a one-line
        InternalError, its traceback logged."""
        self._request_futures.pop(msg_id, None)
        if future.cancelled():
            self._answer_error(msg_id, JsonRpcRequestCancelled(f"request {msg_id!r} was cancelled"))
            return
        exc = future.exception()
        if exc is None:
            self._send_response(msg_id, result=future.result())
        elif isinstance(exc, JsonRpcException):
            logger.info("request %r refused: %s", msg_id, exc.message)
            self._send_response(msg_id, None, exc.to_response_error())
        else:
            logger.error("internal error answering request %r:\n%s", msg_id,
                         "".join(traceback.format_exception(exc)))
            self._answer_error(msg_id, JsonRpcInternalError(
                f"internal error: {type(exc).__name__}: {str(exc)[:300]} (see the server log)"))

    def _check_handler_result(self, future: Future[Any]) -> None:
        if not future.cancelled() and (exc := future.exception()) is not None:
            if isinstance(exc, JsonRpcException):  # a refusal, with nobody to answer: log it
                logger.warning("notification refused: %s", exc.message)
                return
            logger.error("internal error handling a notification:\n%s",
                         "".join(traceback.format_exception(exc)))
            self._server._report_server_error(JsonRpcInternalError(
                f"{type(exc).__name__}: {str(exc)[:300]}"), FeatureNotificationError)


def _is_notification(method: str) -> bool:
    types = lsp.METHOD_TO_TYPES.get(method)
    return types is not None and types[1] is None


def _without_traceback(error: lsp.ResponseError) -> lsp.ResponseError:
    data = error.data
    if isinstance(data, dict) and "traceback" in data:
        rest = {k: v for k, v in data.items() if k != "traceback"}
        return lsp.ResponseError(code=error.code, message=error.message, data=rest or None)
    return error


def _check_custom(method: str, params: Any, msg_id: int | str | None) -> dict[str, Any]:
    schema = CUSTOM_PARAMS[method]
    if not isinstance(params, dict):
        required = [k for k, (_, req) in schema.items() if req]
        raise _Refusal(JsonRpcInvalidParams(
            f"{method} expects params {{{', '.join(required)}}}, got {_json_type(params)}"), msg_id)
    clean: dict[str, Any] = {}
    for name, (accepted, needed) in schema.items():
        if name not in params or params[name] is None:
            if needed:
                raise _Refusal(JsonRpcInvalidParams(f"params.{name}: required field missing"), msg_id)
            continue
        v = params[name]
        # (a JSON boolean is a Python int: accepted only where a boolean is)
        if not isinstance(v, accepted) or (isinstance(v, bool) and bool not in accepted) or v == "":
            want = " or ".join({str: "a non-empty string", bool: "a boolean"}.get(t, "an integer")
                               for t in accepted)
            got = "an empty string" if v == "" else _json_type(v)
            raise _Refusal(JsonRpcInvalidParams(f"params.{name}: expected {want}, got {got}"), msg_id)
        if isinstance(v, int) and not -_INT32 - 1 <= v <= _INT32:
            raise _Refusal(JsonRpcInvalidParams(f"params.{name}: {v} is out of the 32-bit range"), msg_id)
        clean[name] = v
    return clean


# -- transport -----------------------------------------------------------------------------------------
class _Reader(Protocol):
    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


_CONTENT_LENGTH = re.compile(rb"^\s*content-length\s*:\s*(\d{1,19})\s*$", re.I)


async def serve(stop_event: threading.Event, reader: _Reader, protocol: MlirbcProtocol) -> None:
    """Read framed messages until EOF (or `stop_event`) and hand each body to `protocol.receive`."""
    while not stop_event.is_set():
        length: int | None = None
        started = False
        while True:
            line = await reader.readline()
            if not line:
                return
            if not line.strip():
                if started:
                    break
                continue  # blank lines between messages
            started = True
            m = _CONTENT_LENGTH.match(line)
            if m is not None:
                length = int(m.group(1))
        if length is None:
            logger.warning("a message without a Content-Length header was skipped")
            continue
        if length > MAX_MESSAGE_BYTES:
            logger.warning("skipping a message of %d bytes (limit %d)", length, MAX_MESSAGE_BYTES)
            left = length
            while left:
                chunk = await reader.readexactly(min(READ_CHUNK, left))
                if not chunk:
                    return
                left -= len(chunk)
            protocol._answer_error(None, JsonRpcInvalidRequest(
                f"a message of {length} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes"))
            continue
        parts: list[bytes] = []
        left = length
        while left:
            chunk = await reader.readexactly(min(READ_CHUNK, left))
            if not chunk:
                return
            parts.append(chunk)
            left -= len(chunk)
        protocol.receive(b"".join(parts))


class _ChunkedStdin(StdinAsyncReader):
    """pygls' stdin reader, but `readexactly` returns exactly n bytes (or b"" at EOF) as the name says."""

    def readexactly(self, n: int) -> Awaitable[bytes]:
        def read() -> bytes:
            first = self.stdin.read(n)
            if not first or len(first) == n:
                return bytes(first)  # the usual case: one read, no copy (a view is 14 MB at times)
            out = bytearray(first)
            while len(out) < n:
                chunk = self.stdin.read(n - len(out))
                if not chunk:
                    return b""
                out += chunk
            return bytes(out)

        result: Awaitable[bytes] = self.loop.run_in_executor(self.executor, read)
        return result


class GuardedTransport:
    """Server mixin: stdio and TCP transports that read through `serve` instead of pygls' loop."""

    protocol: Any
    thread_pool: Any
    _stop_event: threading.Event | None
    _server: Any

    if TYPE_CHECKING:  # pygls' JsonRPCServer.shutdown (a real method here would shadow it)
        def shutdown(self) -> None: ...

    def _start_io_async(self, stdin: Any = None, stdout: Any = None) -> None:
        self._stop_event = stop = threading.Event()
        reader = _ChunkedStdin(stdin or sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(serve(stop, reader, self.protocol))
        except BrokenPipeError:
            logger.error("the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def start_tcp(self, host: str, port: int) -> None:
        self._stop_event = stop = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            await serve(stop, reader, self.protocol)
            self.shutdown()

        async def listen() -> None:
            self._server = await asyncio.start_server(connection, host, port, limit=1 << 20)
            async with self._server:
                await self._server.serve_forever()

        try:
            asyncio.run(listen())
        except asyncio.CancelledError:
            pass

