"""Server settings: read from `initializationOptions` and from `workspace/configuration` section `mlirbc`.

Both arrive as the same JSON object (see vscode-extension/src/settings.ts); unknown keys are ignored and
wrong types fall back to the defaults, so a bad setting never stops the server.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from ..models.registry import Registry, build_registry


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
    max_file_mb: float = 1024.0
    """Files larger than this are refused before decoding (a size guard against hostile input)."""
    decode_timeout_s: float = 300.0
    """Decoding, printing or encoding one file is abandoned after this long."""
    debounce_ms: float = 300.0
    max_fallback_diagnostics: int = 2000
    fallback_diagnostics: bool = True
    inlay_hints: bool = True

    def registry_key(self) -> tuple[tuple[str, ...], ...]:
        return (self.models_disabled, self.models_ods_json, self.models_plugins)


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
        max_file_mb=_num(_get(obj, "limits.maxFileMB"), d.max_file_mb, 1e-6, 1 << 20),
        decode_timeout_s=_num(_get(obj, "limits.decodeTimeoutSeconds"), d.decode_timeout_s, 0.1,
                              86400),
        debounce_ms=_num(_get(obj, "diagnostics.debounceMs"), d.debounce_ms, 0, 10000),
        max_fallback_diagnostics=int(_num(_get(obj, "diagnostics.maxFallbacks"),
                                          d.max_fallback_diagnostics, 0, 1 << 24)),
        fallback_diagnostics=_get(obj, "diagnostics.fallbacks") is not False,
        inlay_hints=_get(obj, "inlayHints.enabled") is not False,
    )


@dataclass
class RegistryBuild:
    registry: Registry
    problems: list[str] = field(default_factory=list)


def _disable_spec(spec: str) -> str:
    # the extension documents `op:arith.constant` and `dialect:arith` as well as bare names
    for prefix in ("op:", "dialect:"):
        if spec.startswith(prefix):
            return spec[len(prefix):]
    return spec


def _ods_loader() -> Any:
    for name in ("mlirbc.models.ods", "mlirbc.models.ods_json"):
        try:
            fn = getattr(importlib.import_module(name), "load_ods_json", None)
        except Exception:
            continue
        if callable(fn):
            return fn
    return None


def build_model_registry(s: Settings) -> RegistryBuild:
    """A registry for these settings; every model source that fails is reported, never fatal."""
    reg = build_registry()
    problems: list[str] = []
    loader = _ods_loader()
    for path in s.models_ods_json:
        if loader is None:
            problems.append(f"models.odsJson: ODS JSON models are not available in this build; "
                            f"ignored {path}")
            continue
        try:
            loader(reg, path)
        except Exception as exc:  # a bad file must not stop the server
            problems.append(f"models.odsJson: cannot load {path}: {exc}")
    for name in s.models_plugins:
        try:
            mod = importlib.import_module(name)
            register = getattr(mod, "register", None)
            if not callable(register):
                problems.append(f"models.plugins: module {name} has no register(registry, origin)")
                continue
            register(reg, f"plugin module {name}")
        except Exception as exc:
            problems.append(f"models.plugins: cannot load {name}: {exc}")
    for spec in s.models_disabled:
        reg.disable(_disable_spec(spec))
    return RegistryBuild(reg, problems)
