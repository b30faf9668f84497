"""Encode benchmark: text view -> bytecode with our parser and writer, next to mlir-opt.

    python benchmarks/encode_bench.py

For each large corpus file: decode and print it once (not timed), then time parsing the text view and
encoding it (template mode, and fresh mode), and `mlir-opt --emit-bytecode` on the same text when the
oracle is installed.  Each of our measurements runs in a fresh process; peak RSS is reported.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, REPO, mlir_opt  # noqa: E402

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[2])
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
data = open(sys.argv[1], "rb").read()
m = decode_bytecode(data)
text = print_module(m).text
open(sys.argv[3], "w", encoding="utf-8", errors="surrogateescape").write(text)
t0 = time.perf_counter(); r = parse_module(text, template=m); t1 = time.perf_counter()
out = encode_bytecode(r.module, template=m); t2 = time.perf_counter()
fresh = encode_bytecode(r.module, template=None); t3 = time.perf_counter()
print(json.dumps({"parse": t1 - t0, "template": t2 - t1, "fresh": t3 - t2, "identical": out == data,
                  "chars": len(text), "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def main() -> int:
    files = sorted((CORPUS / "large").glob("*.mlirbc"))
    oracle = mlir_opt()
    header = f"{'file':<32} {'text MB':>7} {'parse s':>8} {'encode s':>9} {'fresh s':>8} " \
             f"{'identical':>9} {'peak RSS':>9} {'mlir-opt s':>10} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            txt = Path(tmp) / (f.stem + ".mlir")
            out = subprocess.run([sys.executable, "-c", _CHILD, str(f), str(REPO / "server"), str(txt)],
                                 check=True, capture_output=True, text=True).stdout
            r = json.loads(out)
            theirs = None
            if oracle is not None:
                exe, env = oracle
                version = {"v0": "0", "v5": "5"}.get(f.stem.rsplit(".", 1)[-1], "6")
                t0 = time.perf_counter()
                subprocess.run([exe, "--allow-unregistered-dialect", "--emit-bytecode",
                                f"--emit-bytecode-version={version}", str(txt), "-o", "/dev/null"],
                               check=True, env=env, capture_output=True)
                theirs = time.perf_counter() - t0
            ours = r["parse"] + r["template"]
            ratio = f"{ours / theirs:.1f}x" if theirs else "-"
            their = f"{theirs:.2f}" if theirs is not None else "n/a"
            print(f"{f.name:<32} {r['chars'] / 1e6:>7.1f} {r['parse']:>8.2f} {r['template']:>9.2f} "
                  f"{r['fresh']:>8.2f} {str(r['identical']):>9} {int(r['rss']) // 1024:>6} MB "
                  f"{their:>10} {ratio:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
