"""Files a new producer writes: PyTorch programs through torch-mlir's FX importer, against iree-opt.

    python benchmarks/torch_heldout.py [--keep DIR]

Needs `torch` (a CPU wheel) and the `iree` extra in the same environment: IREE's compiler wheel carries
torch-mlir's FX importer (`iree.compiler.extras.fx_importer`) and an iree-opt that registers torch-mlir's
dialects (`torch`, `torch_c`, `tm_tensor`).  Each program of `PROGRAMS` is exported (`torch.export`),
imported with its parameters frozen into `torch.vtensor.literal` ops and, a second time, as
`torch.global`-style parameters, and written as bytecode by the importer's MLIR 24 bindings.  mlirbc models
torch-mlir's `torch` dialect (the `torch` plugin, generated from torch-mlir's ODS); an op of another
dialect the importer writes would decode as a fallback op (counted by name).  What must hold
(`pretty_heldout.compare`): every module read back from its view encodes to the importer's bytes, and
decoding then writing gives them too; the view equals `iree-opt --mlir-print-debuginfo
[--mlir-print-local-scope]` line for line.  Prints the counts, the fallback ops by name and the ops at each
first differing line.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from common import REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from pretty_heldout import Tally, compare  # noqa: E402

from iree_support import iree_compile_path, run_iree  # noqa: E402
from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.ir.operation import PROPS_FALLBACK, Operation  # noqa: E402
from mlirbc.models.build import models  # noqa: E402


def programs() -> dict[str, tuple[Any, tuple[Any, ...]]]:
    """Small PyTorch programs covering the importer's op kinds: linear layers, convolution with batch
    norm and pooling, attention with layer norm, a recurrent layer, and indexing, selection, scans and
    dtype casts; the MLP once more with a dynamic batch size (`torch.symbolic_int`,
    `torch.bind_symbolic_shape`)."""
    import torch
    from torch import nn

    class MLP(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.l1, self.l2 = nn.Linear(16, 32), nn.Linear(32, 4)

        def forward(self, x: Any) -> Any:
            return torch.softmax(self.l2(torch.relu(self.l1(x))), dim=-1)

    class Conv(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c, self.bn = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)

        def forward(self, x: Any) -> Any:
            return nn.functional.max_pool2d(torch.relu(self.bn(self.c(x))), 2).flatten(1)

    class Attention(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a, self.ln = nn.MultiheadAttention(16, 2, batch_first=True), nn.LayerNorm(16)

        def forward(self, x: Any) -> Any:
            y, _ = self.a(x, x, x)
            return self.ln(x + y)

    class GRU(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.g = nn.GRU(8, 12, batch_first=True)

        def forward(self, x: Any) -> Any:
            return self.g(x)[0].mean(dim=1)

    class Misc(nn.Module):
        def forward(self, x: Any, i: Any) -> Any:
            y = torch.where(x > 0, x, x * 0.5).cumsum(0)
            return torch.gather(y, 1, i), y.topk(2, dim=1).values, torch.cat([y, y.flip(0)]).to(torch.float16)

    torch.manual_seed(0)
    return {"mlp": (MLP(), (torch.randn(2, 16),)), "mlp_dynamic": (MLP(), (torch.randn(4, 16),)),
            "conv": (Conv().eval(), (torch.randn(1, 3, 8, 8),)),
            "attention": (Attention().eval(), (torch.randn(2, 5, 16),)),
            "gru": (GRU(), (torch.randn(2, 3, 8),)),
            "misc": (Misc(), (torch.randn(4, 6), torch.randint(0, 6, (4, 3))))}


DYNAMIC = {"mlp_dynamic": lambda torch: ({0: torch.export.Dim("batch", min=2, max=64)},)}
"""Programs exported with dynamic dimensions (their `dynamic_shapes`, made from the torch module)."""


def exported(name: str, model: Any, args: tuple[Any, ...], frozen: bool) -> bytes:
    """The bytecode the FX importer's bindings write for one program."""
    import torch
    from iree.compiler import ir
    from iree.compiler.extras.fx_importer import FxImporter

    dynamic = DYNAMIC.get(name)
    program = torch.export.export(model, args, dynamic_shapes=dynamic(torch) if dynamic else None)
    importer = FxImporter(context=ir.Context())
    # a dynamic program's shapes as the importer can write them: symbolic ints bound to its tensors
    options = {"import_symbolic_shape_expressions": True} if dynamic else {}
    (importer.import_frozen_program if frozen else importer.import_program)(program, **options)
    out = io.BytesIO()
    importer.module.operation.write_bytecode(out)
    return out.getvalue()


def fallback_ops(op: Operation, found: Counter[str]) -> None:
    props = op.properties
    if props is not None and props.kind == PROPS_FALLBACK:
        found[op.op_name.full] += 1
    for region in op.regions:
        for block in region.blocks:
            for nested in block.operations:
                fallback_ops(nested, found)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep", type=Path, help="keep each module's bytecode here")
    args = ap.parse_args()
    try:
        import torch  # noqa: F401
        from iree.compiler.extras import fx_importer  # noqa: F401
    except ImportError as exc:
        print(f"needs torch and the iree extra in this environment: {exc}", file=sys.stderr)
        return 1
    if iree_compile_path() is None:
        print("iree-base-compiler is not installed", file=sys.stderr)
        return 1
    reg = models()
    tally = Tally()
    fallbacks: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlirbc"
        for name, (model, inputs) in programs().items():
            for frozen in (True, False):
                where = f"{name} ({'frozen' if frozen else 'parameters'})"
                try:
                    data = exported(name, model, inputs, frozen)
                except Exception as exc:  # the importer's own limits (a GRU's parameter list, frozen)
                    tally.counts["the importer refuses"] += 1
                    print(f"{where}: the importer refuses: {type(exc).__name__}: {str(exc)[:120]}",
                          file=sys.stderr)
                    continue
                out.write_bytes(data)
                module = decode_bytecode(data, reg)
                if module.error is not None or module.root is None:
                    tally.counts["mlirbc refuses"] += 1
                    continue
                fallback_ops(module.root, fallbacks)
                if encode_bytecode(module, template=module, registry=reg) != data:
                    tally.counts["decode + write not exact"] += 1
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{name}{'' if frozen else '_params'}.mlirbc").write_bytes(data)

                def printed(flags: list[str]) -> str | None:
                    proc = run_iree("iree-opt", [*flags, str(out)])
                    return proc.stdout.decode() if proc.returncode == 0 else None

                compare(data, reg, printed, "iree-opt", where, tally)
                print(f"{where}: {dict(tally.counts)}", file=sys.stderr, flush=True)
    tally.report()
    print("\n| fallback op | count |\n|---|---|")
    for op, n in fallbacks.most_common():
        print(f"| `{op}` | {n} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
