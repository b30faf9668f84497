#!/usr/bin/env python3
"""Choose the core corpus (this folder) from the full shared corpus and copy it here, reproducibly.

    python tests/corpus/select.py [--shared DIR] [--check]

`--shared` is the shared tree (default `<repo>/../shared`, with `corpus/`, `docs/bytecode-examples/` and
`ods/`).  Without `--check` the folders below are rewritten; with it nothing is written and the exit
status says whether this folder is exactly what the selection gives (file list and bytes).

The rules (each chosen upstream piece's reasons are written to `SELECTION.tsv`):

* upstream, every bytecode version (a piece's default file and its `.v0`-`.v5` files, with the generic
  print): the pieces the tests and the editor end-to-end runs name; every piece whose
  `mlir-opt` round trip is special in the manifest (`roundtrip_ok` or `generic_roundtrip` not `yes`);
  every piece of `mlir/test/Bytecode`; for each dialect of the manifest's `dialects` column and each test
  folder (`Dialect__X`, `IR`, `Target`, ...) not yet present, its smallest piece;
* upstream, default version only (with the generic print): every piece of `mlir/test/Dialect/Quant`; more
  pieces chosen greedily for op kinds not yet present, most new op kinds per byte first, until
  `OP_BUDGET` bytes;
* `jax/`: every export; the generic prints of those below 100 kB;
* `vhlo/`: every artifact below 1 MB (all but `const_12mb`), with its own manifest;
* `iree/`: every phase; a phase's files but those whose phase another model already has and whose print is
  above 300 kB (unless a test names them); `PHASES.tsv` and `IREE_VERSION.txt`;
* `invalid/`: every damage kind of two seeds (an upstream file, a JAX export), four kinds of each other
  seed, and every damaged file `mlir-opt` accepts;
* `examples/`: the bytecode examples of the shared docs (`*.mlirbc`, `handcrafted/*.mlirbc`);
* `ods/`: the ODS JSON files the tests read.

The large file is not here: tests generate it (`tests/large_module.py`).
"""

from __future__ import annotations

import argparse
import csv
import filecmp
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

NAMED = {
    # piece: who names it
    "Bytecode__uselist_orders.p00": "tests (LSP settings and features, disabled models), benchmarks",
    "Bytecode__uselist_orders.p01": "tests (CLI, LSP, edits, hardening, registry, model sets, Neovim)",
    "Bytecode__resources": "tests (weights, malformed text, reader fuzz)",
    "Dialect__Arith__ops": "tests (edits, LSP sync), benchmarks",
    "Dialect__Async__ops": "tests/test_edits.py",
    "Dialect__GPU__ops": "tests (edits, malformed text)",
    "Dialect__GPU__canonicalize.p02": "tests/test_malformed_text.py",
    "Dialect__SCF__ops.f00": "vscode-extension/scripts/e2e_code_server.sh (graph steps)",
    "Dialect__SCF__ops.f08": "tests (hardening, malformed text, reader fuzz)",
    "Dialect__SCF__canonicalize.p00": "tests/data/malformed (a source of the malformed views)",
    "Dialect__MemRef__canonicalize.p09": "tests/data/malformed (a source of the malformed views)",
    "Dialect__ControlFlow__canonicalize.p03": "tests (graph, CLI graph, LSP graph)",
    "Dialect__ControlFlow__ops.f01": "tests/test_malformed_text.py",
    "Dialect__Affine__ops.p04": "tests/test_hardening.py (v3)",
    "Dialect__Affine__ops.p06": "tests/test_weights.py",
    "Rewrite__pdl-bytecode.p01": "tests/test_lsp_features.py",
    "Dialect__Quant__parse-uniform.p14": "tests/test_writer_corpus.py (a known fresh-mode difference)",
    "Dialect__PDL__ops.p01": "benchmarks/hostile_requests.py",
    "Dialect__OpenACC__canonicalize.p14": "tests/test_examples.py (examples/fold_add_zero.py)",
}
OP_BUDGET = 800_000
"""Bytes (counted in 4 kB blocks, as `du` does) for the default-version pieces chosen for op kinds."""

UPSTREAM_PRINTS = (".generic.txt",)
JAX_PRINTS = (".generic.txt",)
"""The prints the tests read (the full corpus also has `.pretty.txt`, `.mlir`, `.stablehlo.txt`)."""
V6_GROUPS = {"Quant": "quant types (tests/test_models_corpus.py compares each with mlir-opt's print)"}
"""Upstream test folders whose every piece is here at the default version."""
JAX_PRINT_LIMIT = 100_000
VHLO_LIMIT = 1_000_000
IREE_PRINT_LIMIT = 300_000
IREE_NAMED = {"transformer_block.vm": "tests/test_iree_edits.py"}
INVALID_FULL_SEEDS = ("Bytecode__uselist_orders.p00.v4.mlirbc", "mlp2.mlirbc")
INVALID_SOME_KINDS = ("truncated_50pct", "section_length_huge", "ir_byte_flip_0", "attrtype_byte_flip_0")
ODS_FILES = (
    "sdy_bytecode.json",  # tests/test_dsl.py: Shardy's bytecode DSL given as a user's --ods-json
    "vhlo_ods.json",  # server/tools/gen_ods_models.py --check (tests/test_models_generator.py)
    "sdy_ods.json",  # the same
    "newer/iree-89ece87b-approx/Dialect_Util_IR_UtilOps.json",  # tests/test_model_sets.py
)
GENERATED = ("MANIFEST.tsv", "SELECTION.tsv", "upstream", "jax", "iree", "vhlo", "invalid", "examples", "ods")
"""What this script writes here (README.md and the script itself are written by hand)."""

OP_NAME = re.compile(r'^\s*(?:%[^"=]* = )?"([A-Za-z_][\w$.]*)"\(', re.M)
VERSIONED = re.compile(r"\.v\d$")


def blocks(size: int) -> int:
    return max(1, -(-size // 4096)) * 4096


def read_tsv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t")
        rows = list(reader)
        return list(reader.fieldnames or []), rows


def write_tsv(path: Path, fields: list[str], rows: Iterable[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def piece_of(path: str) -> str:
    return VERSIONED.sub("", Path(path).name.removesuffix(".mlirbc"))


def group_of(piece: str) -> str:
    parts = piece.split("__")
    return parts[1] if parts[0] == "Dialect" else parts[0]


class Selection:
    """The chosen files (relative path in the shared tree -> relative path here) and the reasons."""

    def __init__(self, shared: Path) -> None:
        self.shared = shared
        self.corpus = shared / "corpus"
        self.files: dict[str, str] = {}
        self.reasons: dict[str, list[str]] = {}
        self.fields, rows = read_tsv(self.corpus / "MANIFEST.tsv")
        self.rows: list[dict[str, str]] = []
        self._all_rows = rows

    def take(self, src: str, dst: str | None = None) -> None:
        if not (self.shared / src).is_file():
            raise SystemExit(f"missing in the shared tree: {src}")
        self.files[src] = dst if dst is not None else src.removeprefix("corpus/")

    def why(self, key: str, reason: str) -> None:
        self.reasons.setdefault(key, [])
        if reason not in self.reasons[key]:
            self.reasons[key].append(reason)

    # -- upstream ------------------------------------------------------------------------------------
    def upstream(self) -> None:
        pieces: dict[str, list[dict[str, str]]] = {}
        for row in self._all_rows:
            if row["path"].startswith("upstream/"):
                pieces.setdefault(piece_of(row["path"]), []).append(row)
        up = self.corpus / "upstream"

        def size(piece: str, full: bool) -> int:
            rows = pieces[piece] if full else [r for r in pieces[piece] if r["bytecode_version"] == "6"]
            return sum(blocks(int(r["size"])) for r in rows) + sum(
                blocks((up / f"{piece}{s}").stat().st_size) for s in UPSTREAM_PRINTS
                if (up / f"{piece}{s}").exists())

        chosen: dict[str, list[str]] = {}
        for piece, who in NAMED.items():
            if piece not in pieces:
                raise SystemExit(f"named piece {piece} is not in the shared manifest")
            chosen.setdefault(piece, []).append(f"named by {who}")
        for piece, rows in sorted(pieces.items()):
            special = sorted({f"{k}={r[k]}" for r in rows for k in ("roundtrip_ok", "generic_roundtrip")
                              if r[k] != "yes"})
            if special:
                chosen.setdefault(piece, []).append("mlir-opt: " + ", ".join(special))
            if group_of(piece) == "Bytecode":
                chosen.setdefault(piece, []).append("mlir/test/Bytecode")
        for dialect in sorted({d for rows in pieces.values() for d in rows[0]["dialects"].split(",")}):
            if not any(dialect in pieces[p][0]["dialects"].split(",") for p in chosen):
                best = min((p for p, rows in pieces.items() if dialect in rows[0]["dialects"].split(",")),
                           key=lambda p: (size(p, True), p))
                chosen.setdefault(best, []).append(f"dialect {dialect}")
        for group in sorted({group_of(p) for p in pieces}):
            if not any(group_of(p) == group for p in chosen):
                best = min((p for p in pieces if group_of(p) == group), key=lambda p: (size(p, True), p))
                chosen.setdefault(best, []).append(f"test folder {group}")
        for piece, reasons in chosen.items():
            for row in sorted(pieces[piece], key=lambda r: r["path"]):
                self.take(f"corpus/{row['path']}")
                self.rows.append(row)
            for suffix in UPSTREAM_PRINTS:
                if (up / f"{piece}{suffix}").exists():
                    self.take(f"corpus/upstream/{piece}{suffix}")
            for reason in reasons:
                self.why(f"upstream/{piece} (v0-v6)", reason)

        def take_v6(piece: str, reason: str) -> None:
            chosen[piece] = []
            row = next(r for r in pieces[piece] if r["bytecode_version"] == "6")
            self.take(f"corpus/{row['path']}")
            for suffix in UPSTREAM_PRINTS:
                self.take(f"corpus/upstream/{piece}{suffix}")
            self.rows.append(row)
            self.why(f"upstream/{piece} (v6)", reason)

        for piece in sorted(pieces):
            if group_of(piece) in V6_GROUPS and piece not in chosen:
                take_v6(piece, V6_GROUPS[group_of(piece)])
        ops = {p: set(OP_NAME.findall((up / f"{p}.generic.txt").read_text(errors="replace")))
               for p in pieces if (up / f"{p}.generic.txt").exists()}
        have = set().union(*(ops.get(p, set()) for p in chosen))
        spent = 0
        while True:
            rest = [p for p in ops if p not in chosen and ops[p] - have]
            if not rest:
                break
            best = max(rest, key=lambda p: (len(ops[p] - have) / size(p, False), p))
            cost = size(best, False)
            if spent + cost > OP_BUDGET:
                break
            spent += cost
            new = sorted(ops[best] - have)
            have |= ops[best]
            shown = ", ".join(new[:6]) + (f" (+{len(new) - 6})" if len(new) > 6 else "")
            take_v6(best, f"{len(new)} new op kinds: {shown}")

    # -- the other folders ---------------------------------------------------------------------------
    def jax(self) -> None:
        for row in self._all_rows:
            if row["path"].startswith("jax/"):
                self.take(f"corpus/{row['path']}")
                self.rows.append(row)
                stem = row["path"].removesuffix(".mlirbc")
                for suffix in JAX_PRINTS:
                    p = self.corpus / f"{stem}{suffix}"
                    if p.exists() and p.stat().st_size <= JAX_PRINT_LIMIT:
                        self.take(f"corpus/{stem}{suffix}")
                self.why(row["path"], "every JAX export")

    def vhlo(self) -> None:
        fields, rows = read_tsv(self.corpus / "vhlo" / "MANIFEST.tsv")
        kept = [r for r in rows if int(r["size"]) <= VHLO_LIMIT]
        for row in kept:
            self.take(f"corpus/vhlo/{row['path']}")
        self.why("vhlo/", f"{len(kept)} of {len(rows)} artifacts (those below 1 MB)")
        self.vhlo_manifest = (fields, kept)

    def iree(self) -> None:
        fields, rows = read_tsv(self.corpus / "iree" / "PHASES.tsv")
        iree = self.corpus / "iree"

        def print_size(name: str) -> int:
            return (iree / f"{VERSIONED.sub('', name)}.generic.txt").stat().st_size

        kept = []
        for row in rows:
            others = [r for r in rows if r["phase"] == row["phase"]
                      and r["name"].split(".")[0] != row["name"].split(".")[0]]
            if print_size(row["name"]) > IREE_PRINT_LIMIT and others and row["name"] not in IREE_NAMED:
                continue
            kept.append(row)
            self.take(f"corpus/iree/{row['name']}.mlirbc")
            generic = f"corpus/iree/{VERSIONED.sub('', row['name'])}.generic.txt"
            self.take(generic)
        names = {f"iree/{r['name']}.mlirbc" for r in kept}
        self.rows.extend(r for r in self._all_rows if r["path"] in names)
        self.take("corpus/iree/IREE_VERSION.txt")
        phases = sorted({r["phase"] for r in kept})
        self.why("iree/", f"{len(kept)} of {len(rows)} files, every phase ({', '.join(phases)})")
        self.iree_phases = (fields, kept)

    def invalid(self) -> None:
        fields, rows = read_tsv(self.corpus / "invalid" / "INVALID.tsv")
        kept = [r for r in rows if r["seed"] in INVALID_FULL_SEEDS or r["damage"] in INVALID_SOME_KINDS
                or r["mlir_opt"] == "accepted"
                or r["path"] == "Dialect__LLVMIR__roundtrip.v1__ir_byte_flip_2.mlirbc"]
        for row in kept:
            self.take(f"corpus/invalid/{row['path']}")
        self.why("invalid/", f"{len(kept)} of {len(rows)} damaged files, {len({r['damage'] for r in kept})} "
                             "damage kinds")
        self.invalid_rows = (fields, kept)

    def examples(self) -> None:
        ex = self.shared / "docs" / "bytecode-examples"
        files = sorted(ex.glob("*.mlirbc")) + sorted((ex / "handcrafted").glob("*.mlirbc"))
        for p in files:
            rel = p.relative_to(ex).as_posix()
            self.take(f"docs/bytecode-examples/{rel}", f"examples/{rel}")
        self.why("examples/", f"every bytecode example of the shared docs ({len(files)} files)")

    def ods(self) -> None:
        for rel in ODS_FILES:
            self.take(f"ods/{rel}", f"ods/{rel}")
            self.why(f"ods/{rel}", "read by the tests")

    def run(self) -> None:
        self.upstream()
        self.jax()
        self.iree()
        self.vhlo()
        self.invalid()
        self.examples()
        self.ods()


def write(sel: Selection, out: Path) -> None:
    for name in GENERATED:
        p = out / name
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    for src, dst in sel.files.items():
        target = out / dst
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sel.shared / src, target)
    write_tsv(out / "MANIFEST.tsv", sel.fields, sorted(sel.rows, key=lambda r: r["path"]))
    write_tsv(out / "vhlo" / "MANIFEST.tsv", *sel.vhlo_manifest)
    write_tsv(out / "iree" / "PHASES.tsv", *sel.iree_phases)
    write_tsv(out / "invalid" / "INVALID.tsv", *sel.invalid_rows)
    write_tsv(out / "SELECTION.tsv", ["what", "why"],
              ({"what": k, "why": "; ".join(v)} for k, v in sel.reasons.items()))


def check(sel: Selection, out: Path) -> list[str]:
    """Differences between this folder and the selection (empty: identical)."""
    with_tables = {dst for dst in sel.files.values()} | {
        "MANIFEST.tsv", "SELECTION.tsv", "vhlo/MANIFEST.tsv", "iree/PHASES.tsv", "invalid/INVALID.tsv"}
    here = {p.relative_to(out).as_posix() for name in GENERATED for p in
            ([out / name] if (out / name).is_file() else (out / name).rglob("*")) if p.is_file()}
    problems = [f"not selected: {p}" for p in sorted(here - with_tables)]
    problems += [f"missing: {p}" for p in sorted(with_tables - here)]
    for src, dst in sorted(sel.files.items()):
        if dst in here and not filecmp.cmp(sel.shared / src, out / dst, shallow=False):
            problems.append(f"differs from the shared tree: {dst}")
    if not problems:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp)
            for name in GENERATED:
                (t / name).mkdir()
            write(sel, t)
            for rel in ("MANIFEST.tsv", "SELECTION.tsv", "vhlo/MANIFEST.tsv", "iree/PHASES.tsv",
                        "invalid/INVALID.tsv"):
                if not filecmp.cmp(t / rel, out / rel, shallow=False):
                    problems.append(f"differs from the selection: {rel}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--check", action="store_true", help="compare, write nothing")
    args = ap.parse_args(argv)
    sel = Selection(args.shared)
    sel.run()
    if args.check:
        problems = check(sel, args.out)
        for p in problems[:50]:
            print(p)
        print(f"{len(problems)} differences" if problems else f"identical: {len(sel.files)} files")
        return 1 if problems else 0
    write(sel, args.out)
    total = sum(blocks((args.out / d).stat().st_size) for d in sel.files.values())
    print(f"{len(sel.files)} files, {total / 1e6:.1f} MB in 4 kB blocks; {len(sel.rows)} manifest rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
