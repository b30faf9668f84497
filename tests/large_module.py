"""The large file of the corpus, made at test time: a synthetic module written as bytecode by the oracle.

The text is deterministic (a seeded choice of `arith`, `math`, `scf`, `cf`, `memref` and `func` ops, about
350 ops a function, few distinct attribute values so that many ops share a properties payload); upstream
`mlir-opt --emit-bytecode` writes it, so the bytes are real MLIR 22.1.8 output, not mlirbc's.  The file is
made once into `<repo>/.cache/tests/` under a name that covers the generator and the oracle's version,
written to a temporary name and renamed (test workers running at the same time each see a whole file).

    python tests/large_module.py [--funcs N]     # prints the path (made if needed) and the op count
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "tests"
FUNCS = 320
"""About 112,000 ops, 2.2 MB of bytecode: a decode takes seconds (the server's timeout and cancellation
tests need one that does), mlir-opt writes it in a few."""


@dataclass(frozen=True)
class LargeModule:
    path: Path
    ops: int
    """Every op of the module, `builtin.module` included (counted while writing the text)."""
    funcs: int


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ops = 0

    def op(self, line: str) -> None:
        self.lines.append(line)
        self.ops += 1

    def raw(self, line: str) -> None:
        self.lines.append(line)


_INT_BINARY = ("addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minui")
_FLOAT_BINARY = ("addf", "subf", "mulf", "maximumf", "minimumf")
_FASTMATH = ("", " fastmath<fast>", " fastmath<nnan,ninf>")
_UNARY = ("sin", "cos", "exp", "tanh", "sqrt")
_PREDICATES = ("slt", "eq", "ugt", "sge")


def _function(w: _Writer, rnd: random.Random, index: int, funcs: int) -> None:
    w.op(f"  func.func @f{index}(%a: i32, %b: f32, %n: index, %m: memref<?xf32>) -> (i32, f32) {{")
    w.op("    %c0 = arith.constant 0 : index")
    w.op("    %c1 = arith.constant 1 : index")
    w.op(f"    %k = arith.constant {rnd.randint(-1000, 1000)} : i32")
    w.op(f"    %h = arith.constant {rnd.uniform(-10, 10):.6e} : f32")
    ints, floats = ["%a", "%k"], ["%b", "%h"]
    for part in range(6):
        for j in range(40):
            kind = rnd.random()
            name = f"%v{part}_{j}"
            if kind < 0.35:
                op, lhs, rhs = rnd.choice(_INT_BINARY), rnd.choice(ints), rnd.choice(ints)
                w.op(f"    {name} = arith.{op} {lhs}, {rhs} : i32")
                ints.append(name)
            elif kind < 0.7:
                op, lhs, rhs = rnd.choice(_FLOAT_BINARY), rnd.choice(floats), rnd.choice(floats)
                w.op(f"    {name} = arith.{op} {lhs}, {rhs}{rnd.choice(_FASTMATH)} : f32")
                floats.append(name)
            elif kind < 0.8:
                w.op(f"    {name} = math.{rnd.choice(_UNARY)} {rnd.choice(floats)} : f32")
                floats.append(name)
            elif kind < 0.9:
                w.op(f"    {name}c = arith.cmpi {rnd.choice(_PREDICATES)}, {rnd.choice(ints)}, "
                     f"{rnd.choice(ints)} : i32")
                w.op(f"    {name} = arith.select {name}c, {rnd.choice(ints)}, {rnd.choice(ints)} : i32")
                ints.append(name)
            else:
                w.op(f"    {name} = arith.sitofp {rnd.choice(ints)} : i32 to f32")
                floats.append(name)
        loop = f"%loop{part}"
        w.op(f"    {loop}:2 = scf.for %i{part} = %c0 to %n step %c1 iter_args(%x = {rnd.choice(ints)}, "
             f"%y = {rnd.choice(floats)}) -> (i32, f32) {{")
        w.op(f"      %e = memref.load %m[%i{part}] : memref<?xf32>")
        w.op("      %s = arith.addf %y, %e : f32")
        w.op("      %p = arith.muli %x, %x : i32")
        w.op("      %q = arith.cmpi sgt, %p, %x : i32")
        w.op("      %r = scf.if %q -> (i32) {")
        w.op("        %t = arith.addi %p, %x : i32")
        w.op("        scf.yield %t : i32")
        w.raw("      } else {")
        w.op("        %t = arith.subi %p, %x : i32")
        w.op("        scf.yield %t : i32")
        w.raw("      }")
        w.op(f"      memref.store %s, %m[%i{part}] : memref<?xf32>")
        w.op("      scf.yield %r, %s : i32, f32")
        w.raw("    }")
        ints.append(f"{loop}#0")
        floats.append(f"{loop}#1")
        w.op(f"    %call{part} = func.call @ext{rnd.randrange(funcs)}({ints[-1]}, {floats[-1]}) "
             ": (i32, f32) -> i32")
        ints.append(f"%call{part}")
    w.op(f"    cf.br ^bb1({ints[-1]} : i32)")
    w.raw("  ^bb1(%z: i32):")
    w.op(f"    func.return %z, {floats[-1]} : i32, f32")
    w.raw("  }")


def module_text(funcs: int = FUNCS, seed: int = 1234) -> tuple[str, int]:
    """The module's text and its number of ops."""
    rnd = random.Random(seed)
    w = _Writer()
    w.op('module attributes {test.synthetic = "large"} {')
    for i in range(funcs):
        w.op(f"  func.func private @ext{i}(i32, f32) -> i32")
    for i in range(funcs):
        _function(w, rnd, i, funcs)
    w.raw("}")
    return "\n".join(w.lines) + "\n", w.ops


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: no lock; the rename below still gives every reader a whole file
        yield
        return
    with open(path, "a+b") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def large_module(funcs: int = FUNCS, cache: Path = CACHE) -> LargeModule:
    """The large module of `funcs` functions as bytecode (made if not cached); RuntimeError(SKIP_REASON)
    without the oracle."""
    if mlir_opt_path() is None:
        raise RuntimeError(SKIP_REASON)
    text, ops = module_text(funcs)
    version = run_mlir_opt(["--version"], b"").stdout
    key = hashlib.sha256(Path(__file__).read_bytes() + version).hexdigest()[:16]
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"synthetic_{funcs}_funcs.{key}.mlirbc"
    with _locked(cache / "large_module.lock"):
        if not path.exists():
            proc = run_mlir_opt(["--emit-bytecode", "-", "-o", "-"], text.encode(), timeout=600)
            if proc.returncode != 0:
                raise RuntimeError(f"mlir-opt refused the generated module: {proc.stderr.decode()[:2000]}")
            fd, tmp = tempfile.mkstemp(dir=cache, suffix=".part")
            with os.fdopen(fd, "wb") as f:
                f.write(proc.stdout)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
    return LargeModule(path, ops, funcs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--funcs", type=int, default=FUNCS)
    args = ap.parse_args()
    m = large_module(args.funcs)
    print(f"{m.path}\t{m.ops} ops\t{m.path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
