"""Which module a text view shows, and what a view's text is saved as.

A decoded module is shown as stored (`generic`), or in a dialect-level view (`models.views`): `stablehlo`
shows a StableHLO portable artifact as StableHLO.  `auto` (the default of the CLI and the server) picks the
first registered view that applies to the module, else the module as stored in the pretty form
(`printer.AUTO_FORM`); the CLI and the server print either with aliases unless told `--local-scope`.

The text of a dialect-level view says so in its header (`"view": "stablehlo"`); saving converts it back
(`to_stored`): with the conversion it was printed from, unchanged parts are the decoded module's own ops
and the file keeps its target; without it (text alone), or for another target, the conversion is fresh.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import TextSpan
from ..ir.gcpause import building
from ..ir.module import Module
from ..models.registry import Registry
from ..models.views import DialectView, ViewConversion, ViewError
from ..syntax.textlines import TextLines
from .parser import TextDiagnostic
from .printer import FORM_GENERIC, FORM_PRETTY, resolve_form
from .sourcemap import SourceMap

STORED_FORMS = (FORM_GENERIC, FORM_PRETTY)
"""Forms that show the module as stored (its own dialects), in MLIR's generic form or in custom forms."""
AUTO = "auto"
VIEW_FORM = FORM_PRETTY
"""How a dialect-level view is printed: its ops in their custom assembly forms."""


@dataclass
class Shown:
    """What a form shows for a decoded module."""

    module: Module
    """The module the text is printed from: the decoded one, or a dialect-level view's IR."""
    source: Module
    """The decoded module."""
    conversion: ViewConversion | None = None
    view: DialectView | None = None
    origin: str = ""
    """Where the view model came from (for `mlirbc info` and hover)."""


class FormError(Exception):
    """A form that does not exist or does not apply to the module."""


def form_names(registry: Registry) -> list[str]:
    """Every form the registry offers: `auto`, the stored forms, then each dialect-level view's name."""
    views = [r.name for r in registry.registrations() if r.kind.value == "view"]
    return [AUTO, *STORED_FORMS, *sorted(set(views))]


def shown(module: Module, registry: Registry, form: str = AUTO) -> Shown:
    """The module `form` shows for the decoded `module`.  `auto` falls back to the stored form when no view
    applies or when the view cannot show the module (a partial decode); naming a view that does not apply
    raises FormError."""
    if form in STORED_FORMS:
        return Shown(module, module)
    if form == AUTO:
        if module.error is not None:
            return Shown(module, module)
        hit = registry.view_for(module)
        if hit is None:
            return Shown(module, module)
    else:
        hit = registry.view(form)
        if hit is None:
            raise FormError(f"no form '{form}' (forms: {', '.join(form_names(registry))})")
        if not hit[0].applies(module):
            raise FormError(f"the {form} view does not apply to this file")
    view, origin = hit
    try:
        with building():  # a conversion builds a whole IR, like the reader
            conversion = view.convert(module)
    except ViewError as exc:
        if form == AUTO:
            return Shown(module, module)
        raise FormError(f"the {form} view cannot show this file: {exc}") from None
    return Shown(conversion.module, module, conversion, view, origin)


def print_form(form: str, view: Shown) -> str:
    """The print form (`generic` or `pretty`) of what `form` shows: a dialect-level view's custom forms,
    the stored forms as named, and for `auto` without a view the printer's default."""
    if form in STORED_FORMS:
        return form
    if view.conversion is not None:
        return VIEW_FORM
    return resolve_form(AUTO, view.module)


def to_stored(module: Module, registry: Registry, printed: Shown | None = None,
              target: str | None = None) -> Module:
    """What to write for `module` (parsed from a view's text): itself when it is in its stored dialects,
    else its view's conversion back.  `printed`: what the text was printed from (its conversion keeps the
    original ops and target); `target`: write a fresh artifact for that target instead.  Raises ViewError
    (with the op, when one is to blame)."""
    if module.view is None:
        if target is None:
            return module
        hit = registry.view_for(module)
        if hit is None:
            raise ViewError("this file has no dialect-level view that writes other targets")
        conversion = hit[0].convert(module)
        return hit[0].fresh(conversion.module, target)
    hit = registry.view(module.view)
    if hit is None:
        raise ViewError(f"the text is the {module.view} view, and no {module.view} view model is available "
                        "(a disabled model?)")
    view = hit[0]
    same_view = printed is not None and printed.view is not None and printed.view.name == module.view
    if target is None and same_view and printed is not None and printed.conversion is not None:
        return printed.conversion.back(module)
    return view.fresh(module, target)


def view_error_diagnostic(exc: ViewError, smap: SourceMap | None, lines: TextLines) -> TextDiagnostic:
    """A refusal to convert a view back, located at the op's name in the text (the op's whole text when
    its name has no span; the start of the text when the error names no op)."""
    span = None
    if exc.op is not None and smap is not None:
        span = smap.op_name_span(exc.op) or smap.op_span(exc.op)
    where: TextSpan = lines.span(span.start, span.end) if span is not None else lines.span(0, 0)
    return TextDiagnostic(str(exc), where)
