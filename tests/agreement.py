"""The verifier's agreement with the oracles on mutants of corpus files (tests and benchmarks only).

`judge_ours(text)` is what mlirbc says of a view (rejected: a parse error or a verifier error);
`judge_mlir_opt(texts)` / `judge_iree_opt(texts)` run the oracle once per batch (`--split-input-file`: each
mutant is a chunk, and a chunk whose output is empty was refused); `judge_jaxlib(texts)` parses and verifies
each text in jaxlib's MLIR context.  `Table` counts per mutation class.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mlirbc.bytecode.reader import read_bytecode_file
from mlirbc.ir.module import Module
from mlirbc.models.registry import Registry
from mlirbc.verifier import verify_module
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

MARKER = "// -----"
OUT_MARKER = "//mlirbc-agreement-split"
BATCH = 150


@dataclass
class Verdict:
    rejected: bool
    message: str = ""


def judge_ours(text: str, registry: Registry) -> Verdict:
    result = parse_module(text, registry=registry, with_map=False)
    if result.errors or result.module is None:
        first = result.errors[0].message if result.errors else "no module"
        return Verdict(True, f"parse: {first}")
    found = [f for f in verify_module(result.module, registry) if f.severity == "error"]
    return Verdict(bool(found), found[0].message if found else "")


def _split_run(tool: Callable[[list[str], bytes], subprocess.CompletedProcess[bytes]], args: list[str],
               texts: Sequence[str]) -> list[Verdict]:
    out: list[Verdict] = []
    for start in range(0, len(texts), BATCH):
        out.extend(_run_batch(tool, args, list(texts[start:start + BATCH])))
    return out


def _run_batch(tool: Callable[[list[str], bytes], subprocess.CompletedProcess[bytes]], args: list[str],
               batch: list[str]) -> list[Verdict]:
    data = f"\n{MARKER}\n".join(t.rstrip("\n") for t in batch).encode("utf-8")
    proc = tool([*args, "--split-input-file", f"--output-split-marker={OUT_MARKER}",
                 "--mlir-disable-diagnostic-notes", "-"], data)
    slots = proc.stdout.decode("utf-8", "replace").split(OUT_MARKER)
    errors = [m.group(1) for m in re.finditer(r"error: (.*)", proc.stderr.decode("utf-8", "replace"))]
    if len(slots) == len(batch):
        _ALL_MESSAGES.extend(errors)  # the batch's messages, for wording comparisons (not tied to chunks)
        return [Verdict(not slot.strip()) for slot in slots]
    if len(batch) == 1:
        # the oracle crashed on this one (an assertion upstream): it does not accept it
        return [Verdict(True, f"oracle crashed (exit {proc.returncode})")]
    half = len(batch) // 2
    return _run_batch(tool, args, batch[:half]) + _run_batch(tool, args, batch[half:])


_ALL_MESSAGES: list[str] = []


def oracle_messages() -> list[str]:
    """Every error message the oracles printed so far (for wording comparisons)."""
    return _ALL_MESSAGES


def judge_mlir_opt(texts: Sequence[str]) -> list[Verdict]:
    from oracle import run_mlir_opt

    return _split_run(lambda args, data: run_mlir_opt(args, data, timeout=600),
                      ["--allow-unregistered-dialect"], texts)


def judge_iree_opt(texts: Sequence[str]) -> list[Verdict]:
    from iree_support import run_iree

    return _split_run(lambda args, data: run_iree("iree-opt", args, data, timeout=600),
                      ["--allow-unregistered-dialect"], texts)


def judge_jaxlib(texts: Sequence[str]) -> list[Verdict]:
    """jaxlib as StableHLO's oracle: the VHLO text parsed and verified, then written as bytecode and read
    back as a portable artifact (`deserialize_portable_artifact`: legalized to StableHLO, whose verifiers
    and type inference run).  In a subprocess (`stablehlo_judge.py`), restarted after a text that aborts
    it (such a text counts as refused)."""
    import json
    import os
    import sys

    here = Path(__file__).resolve().parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")]))
    out: list[Verdict] = []
    while len(out) < len(texts):
        rest = texts[len(out):]
        proc = subprocess.run([sys.executable, str(here / "stablehlo_judge.py")],
                              input="".join(json.dumps(t) + "\n" for t in rest), capture_output=True,
                              text=True,
                              env=env, timeout=1800)
        answers = proc.stdout.splitlines()
        for a in answers[:len(rest)]:
            rejected = a != "ok"
            out.append(Verdict(rejected, a.removeprefix("rejected ") if rejected else ""))
            if rejected:
                _ALL_MESSAGES.append(a.removeprefix("rejected "))
        if len(answers) < len(rest):
            out.append(Verdict(True, f"jaxlib aborted (exit {proc.returncode})"))
    return out


@dataclass
class Row:
    mutants: int = 0
    oracle_rejects: int = 0
    we_reject: int = 0
    caught: int = 0
    """Mutants both refuse."""
    false_rejections: int = 0
    """Mutants the oracle accepts and we refuse."""
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.caught / self.oracle_rejects if self.oracle_rejects else 1.0


class Table:
    def __init__(self) -> None:
        self.rows: dict[str, Row] = {}

    def add(self, cls: str, what: str, oracle: Verdict, ours: Verdict) -> None:
        row = self.rows.setdefault(cls, Row())
        row.mutants += 1
        row.oracle_rejects += oracle.rejected
        row.we_reject += ours.rejected
        if oracle.rejected and ours.rejected:
            row.caught += 1
        elif oracle.rejected:
            row.misses.append(what)
        elif ours.rejected:
            row.false_rejections += 1
            row.false.append(f"{what}: {ours.message}")

    def total(self) -> Row:
        t = Row()
        for r in self.rows.values():
            t.mutants += r.mutants
            t.oracle_rejects += r.oracle_rejects
            t.we_reject += r.we_reject
            t.caught += r.caught
            t.false_rejections += r.false_rejections
        return t

    def markdown(self, title: str = "mutation class") -> str:
        lines = [f"| {title} | mutants | oracle rejects | we reject | caught | caught % | false rejections |",
                 "|---|---|---|---|---|---|---|"]
        for cls in sorted(self.rows):
            r = self.rows[cls]
            lines.append(f"| {cls} | {r.mutants} | {r.oracle_rejects} | {r.we_reject} | {r.caught} | "
                         f"{100 * r.rate:.0f}% | {r.false_rejections} |")
        t = self.total()
        lines.append(f"| **all** | {t.mutants} | {t.oracle_rejects} | {t.we_reject} | {t.caught} | "
                     f"{100 * t.rate:.0f}% | {t.false_rejections} |")
        return "\n".join(lines)


def view_of(path: Path, registry: Registry) -> tuple[Module, str] | None:
    """A corpus file's view, parsed back by mlirbc (objects of their own, free to mutate); None when the
    file does not decode or its view does not parse."""
    decoded = read_bytecode_file(str(path), registry)
    if decoded.error is not None:
        return None
    text = print_module(decoded, with_map=False).text
    parsed = parse_module(text, template=None, registry=registry, with_map=False)
    if parsed.module is None:
        return None
    return parsed.module, text


def batched(items: Iterable[str]) -> list[str]:
    return list(items)
