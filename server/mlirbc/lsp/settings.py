"""Server settings: read from `initializationOptions` and from `workspace/configuration` section `mlirbc`.

Both arrive as the same JSON object (see vscode-extension/src/settings.ts); unknown keys are ignored and
wrong types fall back to the defaults, so a bad setting never stops the server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..models.build import models
from ..models.registry import Registry
from ..models.sets import SETS
from ..view.printer import ALIASES_BY_DEFAULT


def _get(obj: dict[str, Any], path: str) -> Any:
    if path in obj:  # a flat dotted key ("output.version": 5)
        return obj[path]
    node: Any = obj
    for part in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def _str_list(v: Any) -> list[str]:
    return [s for s in v if isinstance(s, str) and s] if isinstance(v, list) else []


def _num(v: Any, default: float, lo: float, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return default
    return min(max(float(v), lo), hi)


@dataclass(frozen=True)
class Settings:
    output_version: int | None = None
    """Bytecode version written on save/convert; None keeps the original file's."""
    output_producer: str | None = None
    models_disabled: tuple[str, ...] = ()
    models_ods_json: tuple[str, ...] = ()
    models_plugins: tuple[str, ...] = ()
    models_set: str | None = None
    """A model set forced for every file (`mlir22`, `mlir24`); None: each file's producer chooses."""
    max_file_mb: float = float(1 << 20)
    """Files larger than this are refused before decoding.  Files are memory-mapped and their large
    values elided, so the default is 1 TiB: a guard against absurd input, not a working limit."""
    decode_timeout_s: float = 300.0
    """Decoding, printing or encoding one file is abandoned after this long."""
    debounce_ms: float = 300.0
    max_fallback_diagnostics: int = 2000
    fallback_diagnostics: bool = True
    inlay_hints: bool = True
    verify: bool = True
    """Whether views are verified (op definitions, traits, symbol uses) as they are checked and before a
    save; a save refused for the verifier's errors alone can be forced (`mlirbc/save` `unverified`)."""
    elide_larger_than: int = 1024
    """Values with a payload over this many bytes print as elided placeholders (0: never)."""
    view_form: str = "auto"
    """`auto`, `pretty`, `generic` or a dialect-level view's name (`stablehlo`): what a view shows and how
    (see `view.forms`)."""
    view_aliases: bool = ALIASES_BY_DEFAULT
    """`view.aliases`: the view (any form) prints aliases (`#map`, `#loc3`) as mlir-opt does without
    local scope; false prints everything inline."""

    def registry_key(self) -> tuple[tuple[str, ...], ...]:
        return (self.models_disabled, self.models_ods_json, self.models_plugins,
                (self.models_set,) if self.models_set else ())


def parse_settings(obj: Any) -> Settings:
    if not isinstance(obj, dict):
        return Settings()
    if isinstance(obj.get("mlirbc"), dict):  # a client that sends {"mlirbc": {...}}
        obj = obj["mlirbc"]
    version = _get(obj, "output.version")
    producer = _get(obj, "output.producer")
    d = Settings()
    return Settings(
        output_version=version if isinstance(version, int) and not isinstance(version, bool)
        and version >= 0 else None,
        output_producer=producer if isinstance(producer, str) and producer else None,
        models_disabled=tuple(_str_list(_get(obj, "models.disabled"))),
        models_ods_json=tuple(_str_list(_get(obj, "models.odsJson"))),
        models_plugins=tuple(_str_list(_get(obj, "models.plugins"))),
        models_set=_model_set(_get(obj, "models.set")),
        max_file_mb=_num(_get(obj, "limits.maxFileMB"), d.max_file_mb, 1e-6, 1 << 30),
        decode_timeout_s=_num(_get(obj, "limits.decodeTimeoutSeconds"), d.decode_timeout_s, 0.1,
                              86400),
        debounce_ms=_num(_get(obj, "diagnostics.debounceMs"), d.debounce_ms, 0, 10000),
        max_fallback_diagnostics=int(_num(_get(obj, "diagnostics.maxFallbacks"),
                                          d.max_fallback_diagnostics, 0, 1 << 24)),
        fallback_diagnostics=_get(obj, "diagnostics.fallbacks") is not False,
        inlay_hints=_get(obj, "inlayHints.enabled") is not False,
        verify=_get(obj, "diagnostics.verify") is not False,
        elide_larger_than=int(_num(_get(obj, "view.elideLargerThan"), d.elide_larger_than, 0,
                                   1 << 62)),
        view_form=_form(_get(obj, "view.form")),
        view_aliases=_bool(_get(obj, "view.aliases"), d.view_aliases),
    )


def _bool(v: Any, default: bool) -> bool:
    return v if isinstance(v, bool) else default


def _form(v: Any) -> str:
    """`view.form`: auto, pretty, generic or a dialect-level view's name such as `stablehlo` (a name no
    view has, or one that does not apply to a file, shows the file as `auto` would; anything that is not
    a name: auto)."""
    if isinstance(v, str) and re.fullmatch(r"[a-z][a-z0-9_]{0,40}", v.strip().lower()):
        return v.strip().lower()
    return "auto"


def _model_set(v: Any) -> str | None:
    """`models.set`: a set name, or "auto"/empty/anything unknown for the producer's choice."""
    if isinstance(v, str) and v.strip().lower() in SETS:
        return v.strip().lower()
    return None


def build_models(s: Settings) -> Registry:
    """The registry these settings ask for (the same builder as the CLI's)."""
    return models(disabled=s.models_disabled, ods_json=s.models_ods_json, plugin_modules=s.models_plugins,
                  model_set=s.models_set)
