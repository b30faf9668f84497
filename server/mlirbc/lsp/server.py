"""The server object: state (files, views, settings, models, diagnostics per source) and shared helpers.

Features live in `features/`, one module each, and register themselves on the server (esbonio style).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Callable, Generator
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..bytecode.reader import read_bytecode_file
from ..bytecode.template import template_of
from ..bytecode.writer import prepare
from ..errors import DecodeError
from ..files.access import FileRefused, stat_regular
from ..files.mapped import FileTooLarge
from ..models.registry import Registry
from ..syntax.textlines import TextLines
from ..view.aliasing import alias_rules
from ..view.edits import printed_state
from ..view.forms import FormError, print_form, shown
from ..view.printer import FORM_GENERIC, print_module
from ..yielding import Gate, in_background
from .documents import Decoded, View
from .guard import WorkTimeout, run_bounded
from .positions import encoding_name
from .protocol import GuardedTransport, MlirbcProtocol
from .settings import Settings, build_models
from .uris import uri_key

T = TypeVar("T")

# Diagnostic sources, kept apart so that one never wipes another.
SOURCE_DECODE = "decode"
SOURCE_FALLBACK = "fallback"
SOURCE_TEXT = "text"
SOURCE_SAVE = "save"
SOURCES = (SOURCE_DECODE, SOURCE_FALLBACK, SOURCE_TEXT, SOURCE_SAVE)

PROGRESS_AFTER_S = 0.3
"""Work that takes longer than this gets a work-done progress in the client."""


class RequestFailed(JsonRpcException):
    """A request that cannot be served; the message says why (shown to the user by most clients)."""

    CODE = -32803  # LSP RequestFailed


class ViewProtocol(MlirbcProtocol):
    """pygls' protocol, minus its copy of every open document: the server keeps each view's text itself
    (`View`) and applies incremental changes to it in place, so a keystroke in a 14 MB view neither
    splits the text into lines nor holds it twice."""

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams
                                    ) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams
                                      ) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams
                                     ) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    def is_open(self, uri: str) -> bool:
        server = self._server
        return isinstance(server, MlirbcServer) and uri in server.views


class MlirbcServer(GuardedTransport, LanguageServer):
    def __init__(self) -> None:
        super().__init__("mlirbc-lsp", __version__, protocol_cls=ViewProtocol,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self._models: Registry | None = None
        self._models_key: tuple[tuple[str, ...], ...] | None = None
        self.files: dict[str, Decoded] = {}
        self.views: dict[str, View] = {}
        self.diagnostics: dict[str, dict[str, list[lsp.Diagnostic]]] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self._loading: dict[str, asyncio.Future[Decoded]] = {}
        self.gate = Gate()
        """Held by foreground work (checks while typing, requests' jobs); background work yields."""
        self._preparing: dict[str, asyncio.Future[None]] = {}

    @property
    def position_encoding(self) -> str:
        """The position encoding agreed with the client at initialization (UTF-16 by default)."""
        try:
            return encoding_name(self.workspace.position_encoding)
        except RuntimeError:  # not initialized yet
            return encoding_name(None)

    # -- settings and models ---------------------------------------------------------------------
    def apply_settings(self, s: Settings) -> None:
        self.settings = s
        if s.registry_key() != self._models_key:
            self._models = None  # rebuilt on next use; views already open keep their decode

    def registry(self) -> Registry:
        if self._models is None or self._models_key != self.settings.registry_key():
            self._models = build_models(self.settings)
            self._models_key = self.settings.registry_key()
            for problem in self._models.problems:
                self.warn(str(problem))
        return self._models

    # -- messages --------------------------------------------------------------------------------
    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Log) -> None:
        try:
            self.window_log_message(lsp.LogMessageParams(type=kind, message=message))
        except Exception:
            pass  # no client connected yet

    def warn(self, message: str) -> None:
        self.log(message, lsp.MessageType.Warning)
        try:
            self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning,
                                                           message=f"mlirbc: {message}"))
        except Exception:
            pass

    # -- diagnostics -----------------------------------------------------------------------------
    def set_diagnostics(self, uri: str, source: str, diags: list[lsp.Diagnostic]) -> None:
        """Replace one source's diagnostics for `uri` and publish the union of all sources (also when
        a view is first analysed and has none: the client then knows the check ran)."""
        fresh = uri not in self.diagnostics
        per = self.diagnostics.setdefault(uri, {})
        if not diags and source not in per and not fresh:
            return
        per[source] = diags
        union = [d for src in SOURCES for d in per.get(src, [])]
        view = self.views.get(uri)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=union, version=view.version if view is not None else None))

    def clear_diagnostics(self, uri: str) -> None:
        if self.diagnostics.pop(uri, None):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri,
                                                                                diagnostics=[]))

    # -- views -----------------------------------------------------------------------------------
    def views_of(self, key: str) -> list[View]:
        return [v for v in self.views.values() if v.key == key]

    def view(self, uri: str) -> View | None:
        return self.views.get(uri)

    def decoded_for(self, view: View) -> Decoded | None:
        return self.files.get(view.key) if view.key is not None else None

    # -- heavy work --------------------------------------------------------------------------------
    async def run_job(self, fn: Callable[[], T], what: str, title: str,
                      token: lsp.ProgressToken | None = None) -> T:
        """Run `fn` off the event loop, bounded by the decode timeout; show progress when slow.

        Cancelling the calling request cancels the job (see guard.run_bounded).
        """
        task = asyncio.ensure_future(run_bounded(fn, what, self.settings.decode_timeout_s))
        progress: lsp.ProgressToken | None = None
        self.gate.enter()
        try:
            done, _ = await asyncio.wait({task}, timeout=PROGRESS_AFTER_S)
            if not done:
                progress = await self._begin_progress(title, what, token)
            return await task
        except BaseException:
            task.cancel()
            raise
        finally:
            self.gate.leave()
            if progress is not None:
                try:
                    self.work_done_progress.end(progress, lsp.WorkDoneProgressEnd())
                except Exception:
                    pass

    async def prepared(self, key: str) -> None:
        """Wait for the background preparation of `key`'s first save, if it is still running (a save
        then finishes it instead of doing the same work beside it)."""
        job = self._preparing.get(key)
        if job is not None and not job.done():
            with self.gate.awaited():  # it no longer steps aside for edits coming meanwhile
                try:
                    await asyncio.shield(job)
                except Exception:
                    pass  # the save does the work itself

    async def _begin_progress(self, title: str, message: str,
                              token: lsp.ProgressToken | None) -> lsp.ProgressToken | None:
        caps = self.client_capabilities.window
        if token is None:
            if caps is None or not caps.work_done_progress:
                return None
            token = f"mlirbc-{uuid.uuid4()}"
            try:
                await asyncio.wait_for(self.work_done_progress.create_async(token), 5)
            except Exception:
                return None
        try:
            self.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(
                title=title, message=message, cancellable=False))
        except Exception:
            return None
        return token

    async def load_file(self, key: str, token: lsp.ProgressToken | None = None) -> Decoded:
        """Read, decode and print the bytecode file at `key` (one job per file at a time)."""
        running = self._loading.get(key)
        if running is not None:
            return await asyncio.shield(running)
        fut: asyncio.Future[Decoded] = asyncio.get_running_loop().create_future()
        self._loading[key] = fut
        try:
            decoded = await self._load_file(key, token)
            fut.set_result(decoded)
            return decoded
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # mark retrieved: waiters get it through their own await
            raise
        finally:
            self._loading.pop(key, None)

    async def _load_file(self, key: str, token: lsp.ProgressToken | None) -> Decoded:
        limit = int(self.settings.max_file_mb * 1024 * 1024)
        try:  # refused from `stat` alone: special files and oversized files are never opened
            st = stat_regular(key, limit)
        except FileRefused as exc:
            more = " (setting mlirbc.limits.maxFileMB)" if "limit" in exc.reason else ""
            raise RequestFailed(f"cannot read {exc}{more}") from None
        except OSError as exc:
            raise RequestFailed(f"cannot read {key}: {exc.strerror or exc}") from None
        registry = self.registry()
        elide = self.settings.elide_larger_than
        form_setting, aliased = self.settings.view_form, self.settings.view_aliases

        def work() -> Decoded:
            # The file is mapped, not read: its large values stay views of the map (files.mapped).
            # Mapping checks again that it is the regular file `stat` saw.
            try:
                module = read_bytecode_file(key, registry, max_size=limit)
            except FileTooLarge:
                raise RequestFailed(f"{key} grew over the size limit while being opened") from None
            except FileRefused as exc:
                raise RequestFailed(f"cannot read {exc}") from None
            except OSError as exc:
                raise RequestFailed(f"cannot read {key}: {exc.strerror or exc}") from None
            try:
                view = shown(module, registry, form_setting)
            except FormError:  # a view that does not apply to this file (or no such view): as stored
                view = shown(module, registry, FORM_GENERIC)
            form = print_form(form_setting, view)
            rules = alias_rules(view.module, registry) if aliased else None
            printed = print_module(view.module, elide_larger_than=elide, form=form, registry=registry,
                                   aliases=rules)
            state = printed_state(view.module, printed,
                                  view.conversion.notes() if view.conversion is not None else ())
            src = template_of(module)
            data = src.data if src is not None else b""
            return Decoded(key, data, view.module, state, registry, TextLines(state.text),
                           mtime_ns=st.st_mtime_ns, elide_larger_than=elide, shown=view)

        name = os.path.basename(key)
        try:
            decoded = await self.run_job(work, f"decoding {name}", "mlirbc: opening bytecode",
                                         token)
        except DecodeError as exc:
            raise RequestFailed(f"cannot decode {name}: {exc}",
                                data={"offset": exc.offset, "section": exc.section}) from None
        except WorkTimeout as exc:
            raise RequestFailed(f"{name}: {exc}") from None
        except (RequestFailed, asyncio.CancelledError):
            raise
        except OSError as exc:
            raise RequestFailed(f"cannot read {key}: {exc.strerror or exc}") from None
        except Exception as exc:  # a reader bug on a hostile file must not take the server down
            raise RequestFailed(f"cannot decode {name}: internal error "
                                f"{type(exc).__name__}: {exc}") from None
        self.files[key] = decoded
        # Ready the first save of this file while the user reads it (see bytecode.writer.prepare), as
        # background work: it steps aside while the user types (see yielding).
        gate = self.gate
        job = asyncio.ensure_future(run_bounded(
            lambda: in_background(gate, lambda: prepare(decoded.file_module, registry)),
            f"preparing {name} for saving", None))
        self._preparing[key] = job

        def done(j: asyncio.Future[None]) -> None:
            if self._preparing.get(key) is j:
                self._preparing.pop(key, None)
            if not j.cancelled():
                j.exception()  # retrieved: a failure here only means the save does the work

        job.add_done_callback(done)
        return decoded


def key_of(uri: str) -> str | None:
    return uri_key(uri)


def param(params: Any, name: str, default: Any = None) -> Any:
    """A field of a custom request's params (a namedtuple, an object or a dict)."""
    if isinstance(params, dict):
        return params.get(name, default)
    return getattr(params, name, default)


FEATURES = (
    "sync", "conversion", "hover", "navigation", "symbols", "folding", "semantic_tokens",
    "inlay_hints", "completion", "configuration", "elided", "graph",
)


def create_server() -> MlirbcServer:
    import importlib

    server = MlirbcServer()
    for name in FEATURES:
        importlib.import_module(f"{__package__}.features.{name}").register(server)
    return server
