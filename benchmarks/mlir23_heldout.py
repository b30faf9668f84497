"""Files of a producer the corpus has none of: MLIR 23 (jaxlib's own MLIR), against jaxlib.

    python benchmarks/mlir23_heldout.py [--inputs REGEX] [--keep DIR]

jaxlib 0.10.2 carries MLIR 23 (`MLIR23.0.0git` in the files it writes) with the dialects JAX uses (func,
arith, tensor, math, scf, cf, shape, memref, vector, gpu, llvm, nvvm, stablehlo, chlo, sdy, mhlo).  Every
upstream input of the corpus (`upstream/*.mlir`) that jaxlib reads is written as bytecode by jaxlib, and each
such file is:

* decoded, its pretty view (local scope and with aliases) compared line for line with jaxlib's print of the
  same bytes (`enable_debug_info=True`), and its generic view with jaxlib's generic print;
* read back from its pretty view and written: the file's own bytes;
* round-tripped (`mlirbc roundtrip`): the file's own bytes.

Prints the counts and, by op, the first line that differs; `--keep DIR` keeps each differing file.  Needs the
`stablehlo` extra (jax, jaxlib).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from common import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.models.registry import Registry  # noqa: E402
from mlirbc.view.aliasing import alias_rules  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402

_SPLIT = re.compile(r"^// -----.*$", re.M)
_OP = re.compile(r'^\s*(?:%[^=]+= )?"?([a-z_][\w.]*)')


def _jaxlib_bytes(text: str, ctx: Any) -> bytes | None:
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    try:
        module = ir.Module.parse(text)
        if not module.operation.verify():
            return None
    except Exception:
        return None
    out = io.BytesIO()
    module.operation.write_bytecode(out)
    return out.getvalue()


def _jaxlib_print(data: bytes, generic: bool, local_scope: bool) -> str:
    """jaxlib's print of the file, read in a context of its own (a context that read other files renames
    the resource keys they declared: `resource_1`)."""
    from jax._src.interpreters import mlir as jmlir  # type: ignore[import-not-found,unused-ignore]
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    with jmlir.make_ir_context():
        module = ir.Module.parse(data)
        text: str = module.operation.get_asm(print_generic_op_form=generic, enable_debug_info=True,
                                             use_local_scope=local_scope)
    return text


def _lines(text: str) -> list[str]:
    """The view's lines without its own `// mlirbc:` lines and its resource trailer (jaxlib's `get_asm`
    prints no `{-# dialect_resources #-}`; the view keeps it)."""
    text = text.split("\n{-#\n", 1)[0]
    return [line for line in text.rstrip("\n").split("\n") if not line.lstrip().startswith("// mlirbc:")]


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.by_op: dict[tuple[str, str], tuple[int, str]] = {}

    def miss(self, kind: str, op: str, detail: str) -> None:
        n, first = self.by_op.get((kind, op), (0, detail))
        self.by_op[(kind, op)] = (n + 1, first)


def check(data: bytes, reg: Registry, where: str, tally: Tally) -> bool:
    ok = True
    module = decode_bytecode(data, reg)
    if module.error is not None or module.root is None:
        tally.miss("did not decode", "?", f"{where}: {module.error}")
        return False
    if module.fallbacks:
        tally.counts["files with fallbacks"] += 1
    for form, local in (("generic", True), ("pretty", True), ("pretty", False)):
        mode = f"{form}, {'local' if local else 'aliased'}"
        rules = None if local else alias_rules(module, reg)
        printed = print_module(module, form=form, registry=reg, aliases=rules)
        ours = _lines(printed.text)
        theirs = _lines(_jaxlib_print(data, form == "generic", local))
        if ours == theirs:
            tally.counts[f"identical ({mode})"] += 1
        else:
            ok = False
            i = next((k for k, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                     min(len(ours), len(theirs)))
            a = ours[i] if i < len(ours) else "<end>"
            b = theirs[i] if i < len(theirs) else "<end>"
            m = _OP.match(b)
            tally.miss(f"differs ({mode})", m.group(1) if m else "?",
                       f"{where} line {i + 1}\n      ours:   {a[:200]}\n      theirs: {b[:200]}")
        if form == "pretty":
            back = parse_module(printed.text, template=module, registry=reg)
            if back.module is None:
                ok = False
                tally.miss(f"does not read back ({mode})", "?",
                           f"{where}: {back.errors[0].message if back.errors else ''}")
            elif encode_bytecode(back.module, template=module, registry=reg) != data:
                ok = False
                tally.miss(f"read back to other bytes ({mode})", "?", where)
    if encode_bytecode(module, template=module, registry=reg) == data:
        tally.counts["roundtrip identical"] += 1
    else:
        ok = False
        tally.miss("roundtrip differs", "?", where)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", default="", help="only inputs whose name matches this regex")
    ap.add_argument("--keep", type=Path, help="keep each differing file here")
    args = ap.parse_args()
    from stablehlo_oracle import available, context

    if not available():
        print("jax/jaxlib are not installed (the `stablehlo` extra)", file=sys.stderr)
        return 1
    reg = models(model_set=os.environ.get("MLIRBC_HELDOUT_SET") or None)
    tally = Tally()
    seen: set[bytes] = set()
    with context() as ctx:
        for src in sorted((CORPUS / "upstream").glob("*.mlir")):
            if not re.search(args.inputs, src.name):
                continue
            for i, text in enumerate(p for p in _SPLIT.split(src.read_text("utf-8", "replace")) if p.strip()):
                data = _jaxlib_bytes(text, ctx)
                if data is None:
                    tally.counts["jaxlib does not read it"] += 1
                    continue
                if data in seen:
                    continue
                seen.add(data)
                tally.counts["files"] += 1
                if not check(data, reg, f"{src.name} #{i}", tally) and args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{src.stem}.{i}.mlirbc").write_bytes(data)
    print("| what | count |\n|---|---|")
    for k, n in sorted(tally.counts.items()):
        print(f"| {k} | {n} |")
    print("\n| what | op | files | first example |\n|---|---|---|---|")
    for (kind, op), (n, first) in sorted(tally.by_op.items(), key=lambda kv: -kv[1][0]):
        print(f"| {kind} | `{op}` | {n} | {first.splitlines()[0]} |")
    for (kind, op), (_, first) in sorted(tally.by_op.items(), key=lambda kv: -kv[1][0])[:25]:
        print(f"\n{kind} {op}: {first}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
