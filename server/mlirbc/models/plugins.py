"""Discovers model plugins installed as packages (entry-point group `mlirbc.models`)."""

from __future__ import annotations

from importlib.metadata import entry_points

from .registry import Registry

ENTRY_POINT_GROUP = "mlirbc.models"


def load_entry_point_plugins(reg: Registry) -> list[str]:
    """Call every plugin's `register(registry, origin)`; return the ones that failed, with why."""
    problems: list[str] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist.name if ep.dist is not None else "?"
        origin = f"plugin {dist}:{ep.name}"
        try:
            register = ep.load()
            register(reg, origin)
        except Exception as exc:  # a broken plugin must never break reading files
            problems.append(f"{origin}: {exc}")
    return problems
