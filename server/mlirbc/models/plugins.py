"""Discovers model plugins installed as packages (entry-point group `mlirbc.models`).

The installed distributions' `entry_points.txt` files are read directly: `importlib.metadata` would do the
same but costs about 80 ms of imports, a third of the CLI's start-up budget.
"""

from __future__ import annotations

import configparser
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .registry import ModelProblem, Registry

ENTRY_POINT_GROUP = "mlirbc.models"


@dataclass(frozen=True)
class PluginEntryPoint:
    dist: str
    name: str
    value: str
    """`module:attribute` of the plugin's `register(registry, origin)` callable."""

    def load(self) -> Callable[[Registry, str], object]:
        module_name, _, attr = self.value.partition(":")
        obj: object = importlib.import_module(module_name.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            obj = getattr(obj, part)
        if not callable(obj):
            raise TypeError(f"{self.value} is not callable")
        return obj


def _dist_name(folder: str) -> str:
    stem = folder.rsplit(".", 1)[0]  # strip .dist-info / .egg-info
    return stem.split("-", 1)[0].replace("_", "-")


def entry_points(group: str = ENTRY_POINT_GROUP) -> Iterator[PluginEntryPoint]:
    """Entry points of `group` in installed distributions, first found on sys.path wins per dist."""
    seen: set[str] = set()
    for base in sys.path:
        try:
            names = os.listdir(base or ".")
        except OSError:
            continue
        for folder in sorted(names):
            if not folder.endswith((".dist-info", ".egg-info")):
                continue
            dist = _dist_name(folder)
            if dist.lower() in seen:
                continue
            seen.add(dist.lower())
            path = os.path.join(base, folder, "entry_points.txt")
            if not os.path.isfile(path):
                continue
            parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
            parser.optionxform = str  # type: ignore[assignment,method-assign]
            try:
                parser.read(path, encoding="utf-8")
            except (configparser.Error, UnicodeDecodeError):
                continue
            if parser.has_section(group):
                for name, value in parser.items(group):
                    yield PluginEntryPoint(dist, name, value)


OWN_DIST = "mlirbc"


def load_entry_point_plugins(reg: Registry) -> list[ModelProblem]:
    """Call every plugin's `register(registry, origin)`; return the ones that failed, with why.

    The project's own plugins (the StableHLO and IREE models) load first, so any other package's
    registration of the same op or dialect comes later and replaces ours.
    """
    problems: list[ModelProblem] = []
    ordered = sorted(entry_points(ENTRY_POINT_GROUP), key=lambda ep: ep.dist.lower() != OWN_DIST)
    for ep in ordered:
        origin = f"plugin {ep.dist}:{ep.name}"
        try:
            register = ep.load()
            register(reg, origin)
        except Exception as exc:  # a broken plugin must never break reading files
            problems.append(ModelProblem(origin, f"{type(exc).__name__}: {exc}"))
    return problems
