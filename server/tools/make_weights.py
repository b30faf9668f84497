#!/usr/bin/env python3
"""Generate model-sized bytecode files for tests and benchmarks, streamed, without upstream tools.

    python server/tools/make_weights.py dense-resource OUT.mlirbc --bytes N [--seed S]
    python server/tools/make_weights.py dense-elements OUT.mlirbc --bytes N [--seed S]
    python server/tools/make_weights.py small-constants OUT.mlirbc --count N [--elements E]

* `dense-resource`: `func.func @get` returning `arith.constant dense_resource<big_blob> :
  tensor<Nxi8>`, the blob N deterministic pseudo-random bytes (what `make_large.py` in the shared corpus
  builds through mlir-opt, without a 2N-byte hex text on the way);
* `dense-elements`: the same with a `dense<...> : tensor<Kxf32>` constant of N bytes (N/4 floats drawn
  from a normal distribution: inside the attribute table, as torch-mlir and IREE write weights);
* `small-constants`: N `arith.constant dense<...> : tensor<Exf32>` (E floats each, default 16) summed
  in a chain (elision must not cost on many small values).

The IR skeleton is parsed from generic text, the payload is written to a temporary file and mapped, and
the module is encoded in fresh mode (upstream's numbering) with `encode_bytecode_chunks`, which keeps the
mapped payload by reference: memory stays small whatever N is.  Written atomically.
"""

from __future__ import annotations

import argparse
import mmap
import random
import struct
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "server"))

from mlirbc.bytecode.writer import encode_bytecode_chunks  # noqa: E402
from mlirbc.files.access import atomic_write  # noqa: E402
from mlirbc.ir.attributes import DenseElementsAttr  # noqa: E402
from mlirbc.ir.module import Module  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402

CHUNK = 1 << 22


def _parse(text: str) -> Module:
    result = parse_module(text)
    if result.module is None:
        raise SystemExit(f"generator text does not parse: {result.errors[:3]}")
    return result.module


def _mapped_random(n: int, seed: int, floats: bool) -> memoryview:
    """N pseudo-random bytes (normal f32 values when `floats`) in a mapped temporary file."""
    rnd = random.Random(seed)
    f = tempfile.TemporaryFile(prefix="mlirbc-weights-")
    left = n
    while left > 0:
        k = min(CHUNK, left)
        if floats:
            count = k // 4
            f.write(struct.pack(f"<{count}f", *(rnd.gauss(0.0, 0.02) for _ in range(count))))
            f.write(rnd.randbytes(k - 4 * count))
        else:
            f.write(rnd.randbytes(k))
        left -= k
    f.flush()
    if n == 0:
        return memoryview(b"")
    view = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
    f.close()  # the map keeps the (unlinked) file alive
    return view


def dense_resource(out: str, n: int, seed: int = 42) -> None:
    t = f"tensor<{n}xi8>"
    module = _parse(f'''"builtin.module"() ({{
  "func.func"() <{{function_type = () -> {t}, sym_name = "get"}}> ({{
    %0 = "arith.constant"() <{{value = dense_resource<big_blob> : {t}}}> : () -> {t}
    "func.return"(%0) : ({t}) -> ()
  }}) : () -> ()
}}) : () -> ()
{{-#
  dialect_resources: {{
    builtin: {{
      big_blob: "0x0100000000"
    }}
  }}
#-}}
''')
    entry = module.resources[0].entries[0]
    entry.blob = _mapped_random(n, seed, floats=False)
    atomic_write(out, encode_bytecode_chunks(module, template=None))


def dense_elements(out: str, n: int, seed: int = 42) -> None:
    count = n // 4
    t = f"tensor<{count}xf32>"
    module = _parse(f'''"builtin.module"() ({{
  "func.func"() <{{function_type = () -> {t}, sym_name = "get"}}> ({{
    %0 = "arith.constant"() <{{value = dense<0.0> : {t}}}> : () -> {t}
    "func.return"(%0) : ({t}) -> ()
  }}) : () -> ()
}}) : () -> ()
''')
    assert module.root is not None
    const = next(op for op in module.root.walk() if op.name == "arith.constant")
    assert const.properties is not None
    old = const.properties.values["value"]
    assert isinstance(old, DenseElementsAttr)
    const.properties.values["value"] = DenseElementsAttr.get(old.type, _mapped_random(4 * count, seed, True))
    atomic_write(out, encode_bytecode_chunks(module, template=None))


def small_constants(out: str, count: int, elements: int = 16, seed: int = 7) -> None:
    rnd = random.Random(seed)
    t = f"tensor<{elements}xf32>"
    lines = ['"builtin.module"() ({',
             f'  "func.func"() <{{function_type = () -> {t}, sym_name = "sum"}}> ({{']
    for i in range(count):
        values = ", ".join(f"{rnd.uniform(-1, 1):.6e}" for _ in range(elements))
        lines.append(f'    %c{i} = "arith.constant"() <{{value = dense<[{values}]> : {t}}}> : () -> {t}')
        if i:
            prev = f"%s{i - 1}" if i > 1 else "%c0"
            lines.append(f'    %s{i} = "arith.addf"({prev}, %c{i}) <{{fastmath = #arith.fastmath<none>}}> '
                         f': ({t}, {t}) -> {t}')
    last = f"%s{count - 1}" if count > 1 else "%c0"
    lines += [f'    "func.return"({last}) : ({t}) -> ()', "  }) : () -> ()", "}) : () -> ()", ""]
    atomic_write(out, encode_bytecode_chunks(_parse("\n".join(lines)), template=None))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="kind", required=True)
    for kind in ("dense-resource", "dense-elements"):
        p = sub.add_parser(kind)
        p.add_argument("out")
        p.add_argument("--bytes", type=int, required=True)
        p.add_argument("--seed", type=int, default=42)
    p = sub.add_parser("small-constants")
    p.add_argument("out")
    p.add_argument("--count", type=int, default=10000)
    p.add_argument("--elements", type=int, default=16)
    a = ap.parse_args(argv)
    if a.kind == "dense-resource":
        dense_resource(a.out, a.bytes, a.seed)
    elif a.kind == "dense-elements":
        dense_elements(a.out, a.bytes, a.seed)
    else:
        small_constants(a.out, a.count, a.elements)
    print(a.out, Path(a.out).stat().st_size, "bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
