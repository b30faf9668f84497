"""`mlirbc` subcommands: decode, info (and encode, roundtrip, check once the writer lands).

Exit status: 0 on success, 1 when the input cannot be decoded (the message names the byte offset),
2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..bytecode.reader import read_bytecode
from ..errors import MlirbcError
from ..fileio import atomic_write
from ..ir.module import Module
from ..models.registry import Registry, build_registry
from ..summary import module_info
from .progress import Progress


def _registry(args: argparse.Namespace) -> Registry:
    reg = build_registry(disabled=list(args.disable_model or []))
    for path in args.ods_json or []:
        from ..models import ods_json

        ods_json.load_ods_json(reg, path)
    return reg


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


class _UsageError(Exception):
    pass


def _decode(path: str, reg: Registry, progress: Progress) -> tuple[Module, int]:
    data = _read(path)
    progress.phase(f"decoding {path}")
    return read_bytecode(data, reg), len(data)


def cmd_decode(args: argparse.Namespace) -> int:
    reg = _registry(args)
    with Progress("decoding") as progress:
        module, _ = _decode(args.file, reg, progress)
        from ..text.printer import print_module

        progress.phase("printing")
        text = print_module(module).text
    if module.error is not None:
        print(f"{args.file}: error: {module.error}", file=sys.stderr)
    if args.output:
        if module.error is not None:
            print(f"{args.file}: not writing {args.output}: the file did not decode completely",
                  file=sys.stderr)
            return 1
        atomic_write(args.output, text)
    else:
        sys.stdout.write(text)
    return 1 if module.error is not None else 0


def cmd_info(args: argparse.Namespace) -> int:
    reg = _registry(args)
    with Progress("decoding") as progress:
        module, size = _decode(args.file, reg, progress)
    info = module_info(module, size, reg)
    if args.json:
        json.dump(info, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        _print_info(info)
    if module.error is not None:
        print(f"{args.file}: error: {module.error}", file=sys.stderr)
        return 1
    return 0


def _print_info(info: dict[str, object]) -> None:
    out = sys.stdout.write
    out(f"version   {info['version']}\nproducer  {info['producer']}\nsize      {info['size']} bytes\n")
    out("sections\n")
    for s in info["sections"]:  # type: ignore[attr-defined]
        out(f"  {s['name']:<16} offset {s['offset']:>9}  size {s['size']:>9}\n")
    out("dialects\n")
    for d in info["dialects"]:  # type: ignore[attr-defined]
        v = f"  version {d['version']}" if d["version"] else ""
        out(f"  {d['name']}{v}\n")
    out(f"ops ({info['op_count']})\n")
    for name, n in info["ops"].items():  # type: ignore[attr-defined]
        out(f"  {n:>8}  {name}\n")
    fb = info["fallbacks"]
    out(f"fallbacks: {fb['op']} ops, {fb['attribute']} attributes, {fb['type']} types\n")  # type: ignore[index]
    for r in info["fallback_reasons"]:  # type: ignore[attr-defined]
        out(f"  {r['count']:>8}  {r['kind']} {r['name']}: {r['reason']}\n")
    res = info["resources"]
    if res:
        out("resources\n")
        for e in res:  # type: ignore[attr-defined]
            size = f" {e['size']} bytes" if e["size"] is not None else ""
            out(f"  {e['group']}/{e['key']} ({e['kind']}){size}\n")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mlirbc", description="Read, inspect and write MLIR bytecode.")
    sub = p.add_subparsers(dest="command", required=True)

    def model_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--disable-model", action="append", metavar="DIALECT[.OP]",
                        help="decode this dialect's (or op's) ops as fallbacks")
        sp.add_argument("--ods-json", action="append", metavar="FILE",
                        help="extra op models from `llvm-tblgen --dump-json` output")

    d = sub.add_parser("decode", help="print the text view of a .mlirbc file")
    d.add_argument("file")
    d.add_argument("-o", "--output", help="write the text here (atomically) instead of stdout")
    model_opts(d)
    d.set_defaults(func=cmd_decode)

    i = sub.add_parser("info", help="header, sections, dialects, op counts, fallbacks, resources")
    i.add_argument("file")
    i.add_argument("--json", action="store_true")
    model_opts(i)
    i.set_defaults(func=cmd_info)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        rc: int = args.func(args)
        return rc
    except _UsageError as exc:
        print(f"mlirbc: {exc}", file=sys.stderr)
        return 2
    except MlirbcError as exc:
        print(f"{getattr(args, 'file', 'mlirbc')}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
