"""`mlirbc` subcommands: decode, info, encode, roundtrip, check, graph (in graph_cmd.py).

Exit status: 0 on success, 1 when the input cannot be decoded (the message names the byte offset),
2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import NoReturn

from ..api.context import Context
from ..api.module import ir_of, open_file
from ..bytecode.template import template_of
from ..bytecode.writer import encode_bytecode_chunks
from ..errors import MlirbcError
from ..files.access import FileRefused, atomic_write, read_regular
from ..files.chunks import Chunks, FileRange
from ..ir.gcpause import building
from ..ir.module import Module
from ..models.build import models
from ..models.registry import Registry
from ..models.views import ViewError
from ..summary import module_info
from ..syntax.aliases import AliasRules
from ..syntax.textlines import TextLines
from ..verifier import bound, verify_module
from ..verifier.explain import explain
from ..view.aliasing import alias_rules
from ..view.edits import unchanged_ops
from ..view.forms import AUTO, FormError, Shown, print_form, shown, to_stored, view_error_diagnostic
from ..view.parser import ParseResult, TextDiagnostic, parse_module
from ..view.printer import ALIASES_BY_DEFAULT, AUTO_FORM, print_module, stream_module
from .graph_cmd import GraphUsageError, cmd_graph
from .graph_cmd import add_parser as add_graph_parser
from .progress import Progress


def _registry(args: argparse.Namespace) -> Registry:
    reg = models(disabled=args.disable_model or (), ods_json=args.ods_json or (), model_set=args.models)
    named = [p for p in reg.problems if p.source.startswith(("ods-json", "disable", "models"))]
    if named:  # a model source the user named on the command line: refuse rather than half-work
        raise _UsageError("cannot load models: " + "; ".join(str(p) for p in named))
    for p in reg.problems:  # an installed plugin that fails only costs its own models
        print(f"mlirbc: warning: model plugin skipped: {p}", file=sys.stderr)
    return reg


def _read(path: str) -> bytes:
    try:
        return read_regular(path)[0]
    except FileRefused as exc:
        raise _UsageError(f"cannot read {exc}") from None
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


class _UsageError(Exception):
    pass


def _decode(path: str, reg: Registry, progress: Progress) -> tuple[Module, int]:
    """Decode `path` from a read-only memory map (large values stay views of the file), as the Python
    API's `load` does (a partly decoded module is kept, its `error` set)."""
    progress.phase(f"decoding {path}")
    try:
        module = ir_of(open_file(path, Context._with_registry(reg)))
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    src = template_of(module)
    return module, len(src.data) if src is not None else 0


def _aliases(args: argparse.Namespace, module: Module, reg: Registry) -> AliasRules | None:
    """The alias rules to print `module` with, or None for local scope (`--aliases`/`--local-scope`)."""
    return alias_rules(module, reg) if args.aliases else None


def _shown(module: Module, reg: Registry, form: str, progress: Progress) -> Shown:
    """What `--form` shows of a decoded module (a dialect-level view, or the module as stored)."""
    if form != "generic":
        progress.phase(f"converting to the {form} view" if form != AUTO else "converting")
    try:
        return shown(module, reg, form)
    except FormError as exc:
        raise _UsageError(str(exc)) from None


def cmd_decode(args: argparse.Namespace) -> int:
    reg = _registry(args)
    with building(collect=False), Progress("decoding") as progress:
        decoded, _ = _decode(args.file, reg, progress)
        if decoded.error is not None:
            print(f"{args.file}: error: {decoded.error}", file=sys.stderr)
        # Ops a view keeps in their stored form show as such in the text; `check` says why (decode stays
        # quiet on stderr: it is git's textconv driver).
        view = _shown(decoded, reg, args.form, progress)
        module = view.module
        progress.phase("printing")
        # The view goes out piece by piece: a large file's text is never held whole, nor encoded whole.
        form = print_form(args.form, view)
        if not args.output:
            stream_module(module, sys.stdout.write, elide_larger_than=args.elide_larger_than, form=form,
                          registry=reg, aliases=_aliases(args, module, reg))
            return 1 if module.error is not None else 0
        if module.error is not None:
            print(f"{args.file}: not writing {args.output}: the file did not decode completely",
                  file=sys.stderr)
            return 1
        pieces: list[bytes] = []
        stream_module(module, lambda s: pieces.append(s.encode("utf-8")),
                      elide_larger_than=args.elide_larger_than, form=form, registry=reg,
                      aliases=_aliases(args, module, reg))
    atomic_write(args.output, pieces)
    return 0


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
    ms = info.get("model_set")
    if isinstance(ms, dict) and ms.get("name"):
        out(f"models    {ms['name']} ({ms['why']})\n")
    view = info.get("view")
    if isinstance(view, dict):
        out(f"view      {view['name']} (shows its {view['stored_dialect']} ops; --form auto) "
            f"[{view['model']}]\n")
    out("sections\n")
    for s in info["sections"]:  # type: ignore[attr-defined]
        out(f"  {s['name']:<16} offset {s['offset']:>9}  size {s['size']:>9}\n")
    out("dialects\n")
    for d in info["dialects"]:  # type: ignore[attr-defined]
        v = f"  version {d['version']}" if d["version"] else ""
        out(f"  {d['name']}{v}\n")
    out(f"ops ({info['op_count']})\n")
    if info.get("implicit_module"):
        out("  (the top-level op is not a module: MLIR reads it, and the view shows it, in an implicit "
            "one)\n")
    models: dict[str, str] = info["models"]  # type: ignore[assignment]
    syntax: dict[str, str] = info.get("syntax") or {}  # type: ignore[assignment]
    for name, n in info["ops"].items():  # type: ignore[attr-defined]
        by = f"  [{models[name]}]" if name in models else ""
        form = f"  syntax: {syntax[name]}" if name in syntax else ""
        out(f"  {n:>8}  {name}{by}{form}\n")
    entry_models = info.get("entry_models") or []
    if entry_models:
        out("attributes and types decoded by models\n")
        for e in entry_models:  # type: ignore[attr-defined]
            out(f"  {e['count']:>8}  {e['dialect']} {e['kind']}s  [{e['origin']}]\n")
    fb = info["fallbacks"]
    out(f"fallbacks: {fb['op']} ops, {fb['attribute']} attributes, {fb['type']} types\n")  # type: ignore[index]
    for r in info["fallback_reasons"]:  # type: ignore[attr-defined]
        out(f"  {r['count']:>8}  {r['kind']} {r['name']}: {r['reason']}\n")
    hooks = [h for h in info.get("hooks") or [] if h["runs"]]  # type: ignore[attr-defined]
    if hooks:
        out("hooks that ran\n")
        for h in hooks:
            failed = f", {h['failures']} failed" if h["failures"] else ""
            out(f"  {h['runs']:>8}  {h['hook']}  [{h['origin']}]{failed}\n")
    res = info["resources"]
    if res:
        out("resources\n")
        for e in res:  # type: ignore[attr-defined]
            size = f" {e['size']} bytes" if e["size"] is not None else ""
            out(f"  {e['group']}/{e['key']} ({e['kind']}){size}\n")


def _print_diagnostics(path: str, diags: list[TextDiagnostic]) -> None:
    for d in diags:
        print(f"{path}:{d.span.start_line + 1}:{d.span.start_col + 1}: {d.severity}: {d.message}",
              file=sys.stderr)


def _parse_text(path: str, reg: Registry, template: Module | None, with_map: bool = False,
                verify: bool = True) -> tuple[Module | None, ParseResult]:
    """The module (None when the text has parse errors) and the parse result (`errors` also holds what
    does not verify).  Every diagnostic is printed."""
    text = _read(path).decode("utf-8", "surrogateescape")
    # (Named as `mlir-opt PATH` names it, for the implicit module of a text that is not one module.)
    result = parse_module(text, template=template, registry=reg, with_map=with_map, verify=verify,
                          source_name=path)
    _print_diagnostics(path, result.diagnostics)
    return (None if result.parse_errors else result.module), result


def _template_for(text_path: str, like: Module | None, reg: Registry) -> tuple[Module | None, Shown | None]:
    """The module a text view is parsed against: the original's, or its dialect-level view's IR when the
    text is that view (its header says so)."""
    if like is None:
        return None, None
    head = _read(text_path)[:4096].decode("utf-8", "replace").split("\n", 1)[0]
    try:
        facts = json.loads(head[len("// mlirbc: "):]) if head.startswith("// mlirbc: ") else {}
    except ValueError:
        facts = {}
    form = facts.get("view") if isinstance(facts, dict) else None
    if not isinstance(form, str):
        return like, None
    try:
        printed = shown(like, reg, form)
    except FormError as exc:
        raise _UsageError(f"{text_path}: {exc}") from None
    return printed.module, printed


def _stored(path: str, module: Module, reg: Registry, printed: Shown | None, target: str | None,
            result: ParseResult) -> Module | None:
    """The module to write for a parsed view (its dialect-level view converted back), or None after
    reporting why not (located at the op to blame)."""
    try:
        return to_stored(module, reg, printed, target)
    except ViewError as exc:
        lines = TextLines(_read(path).decode("utf-8", "surrogateescape"))
        d = view_error_diagnostic(exc, result.map, lines)
        where = f"{d.span.start_line + 1}:{d.span.start_col + 1}:" if exc.op is not None else ""
        print(f"{path}:{where} error: {exc}", file=sys.stderr)
        return None


def cmd_encode(args: argparse.Namespace) -> int:
    reg = _registry(args)
    with building(collect=False), Progress("encoding") as progress:
        original = None
        if args.like:
            original, _ = _decode(args.like, reg, progress)
            if original.error is not None:
                print(f"{args.like}: error: {original.error}", file=sys.stderr)
                return 1
        template, printed = _template_for(args.text, original, reg)
        progress.phase(f"parsing {args.text}")
        module, result = _parse_text(args.text, reg, template, with_map=True, verify=not args.no_verify)
        if module is None:
            print(f"{args.text}: not written: the text has errors", file=sys.stderr)
            return 1
        if result.errors:
            print(f"{args.text}: not written: the text does not verify (--no-verify writes it anyway)",
                  file=sys.stderr)
            return 1
        if module.view is not None or args.target is not None:
            progress.phase(f"converting the {module.view or 'module'} view back" if args.target is None
                           else f"converting for StableHLO {args.target}")
            stored = _stored(args.text, module, reg, printed, args.target, result)
            if stored is None:
                print(f"{args.text}: not written", file=sys.stderr)
                return 1
            module = stored
        template = original if args.target is None else None
        progress.phase("encoding")
        # Chunks: the values elided in the view are copied from the template's map as it is written.
        data = encode_bytecode_chunks(module, version=args.version, producer=args.producer,
                                      template=template, registry=reg,
                                      unchanged=unchanged_ops(module, template))
        progress.phase(f"writing {args.output}")
        atomic_write(args.output, data)
    return 0


def cmd_roundtrip(args: argparse.Namespace) -> int:
    reg = _registry(args)
    with Progress("round trip") as progress:
        module, _ = _decode(args.file, reg, progress)
        if module.error is not None:
            print(f"{args.file}: error: {module.error}", file=sys.stderr)
            return 1
        src = template_of(module)
        original = src.data if src is not None else memoryview(b"")
        view = _shown(module, reg, args.form, progress)
        progress.phase("printing")
        text = print_module(view.module, elide_larger_than=args.elide_larger_than, with_map=False,
                            form=print_form(args.form, view), registry=reg,
                            aliases=_aliases(args, view.module, reg)).text
        progress.phase("parsing")
        result = parse_module(text, template=view.module, registry=reg, with_map=view.conversion is not None)
        if result.module is None:
            _print_diagnostics(f"{args.file} (view)", result.diagnostics)
            return 1
        back = result.module
        if view.conversion is not None:
            progress.phase("converting back")
            try:
                back = to_stored(result.module, reg, view)
            except ViewError as exc:
                print(f"{args.file} (view): error: {exc}", file=sys.stderr)
                return 1
        progress.phase("encoding")
        chunks = encode_bytecode_chunks(back, template=module, registry=reg)
        progress.phase("comparing")
        n = _first_difference(chunks, original)
    if n is None:
        print("identical")
        return 0
    where = src.section_at(n) if src is not None else "header"
    print(f"differs at byte {n} (0x{n:x}) in the {where} section "
          f"({len(chunks)} bytes written, {len(original)} original)")
    return 1


def _first_difference(chunks: Chunks, original: memoryview) -> int | None:
    """The first byte offset where `chunks` and `original` differ (None: identical), compared piece by
    piece without joining either."""
    at = 0
    for piece in chunks.buffers():
        view = memoryview(piece.view if isinstance(piece, FileRange) else piece)
        n = len(view)
        theirs = original[at:at + n]
        if view != theirs:
            for i in range(0, n, 1 << 16):
                a, b = bytes(view[i:i + (1 << 16)]), bytes(theirs[i:i + (1 << 16)])
                if a != b:
                    j = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                             min(len(a), len(b)))
                    return at + i + j
        at += n
    return None if at == len(original) else min(at, len(original))


def cmd_check(args: argparse.Namespace) -> int:
    reg = _registry(args)
    try:
        with open(args.file, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        raise _UsageError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    if magic == b"ML\xefR":
        with Progress("checking") as progress:
            module, _ = _decode(args.file, reg, progress)
            view = _shown(module, reg, args.form, progress) if module.error is None else None
            src = template_of(module)
            for note in src.fallbacks if src is not None else []:
                print(f"{args.file}: byte {note.offset}: note: {note.kind} {note.name} kept verbatim: "
                      f"{note.reason}", file=sys.stderr)
            if view is not None and view.conversion is not None:
                for op, why in view.conversion.notes():
                    stored = view.conversion.stored_op(op)
                    at = stored.offset if stored is not None and stored.offset >= 0 else op.offset
                    where = f" byte {at}:" if at >= 0 else ""
                    print(f"{args.file}:{where} note: {op.name} shown as stored in the "
                          f"{view.module.view} view: {why}", file=sys.stderr)
            if module.error is not None:
                print(f"{args.file}: error: {module.error}", file=sys.stderr)
                return 1
            progress.phase("verifying")
            faults = [] if args.no_verify else verify_module(module, reg)
            for fault in faults:
                where = f"byte {fault.op.offset}: " if fault.op.offset >= 0 else ""
                print(f"{args.file}: {where}{fault.severity}: {fault.message}", file=sys.stderr)
            if args.explain and module.root is not None:
                _print_explain(module, reg)
        return 1 if any(fault.severity == "error" for fault in faults) else 0
    original = None
    if args.like:
        with Progress("checking") as progress:
            original, _ = _decode(args.like, reg, progress)
    template, printed = _template_for(args.file, original, reg)
    parsed, result = _parse_text(args.file, reg, template, with_map=True, verify=not args.no_verify)
    if parsed is None:
        return 1
    if args.explain:
        _print_explain(parsed, reg)
    if parsed.view is not None and _stored(args.file, parsed, reg, printed, None, result) is None:
        return 1  # a view's text must also convert back to what it is saved as
    return 1 if result.errors else 0


def _print_explain(module: Module, reg: Registry) -> None:
    """Per op kind: what the verifier checked and what it could not (on stdout)."""
    if module.root is None:
        return
    for report in explain(module.root, bound(reg, module)):
        print(report.line())


def _byte_count(text: str) -> int:
    try:
        n = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of bytes, not {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("a number of bytes cannot be negative")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mlirbc", description="Read, inspect and write MLIR bytecode.")
    sub = p.add_subparsers(dest="command", required=True)

    def alias_opts(sp: argparse.ArgumentParser) -> None:
        g = sp.add_mutually_exclusive_group()
        g.add_argument("--aliases", dest="aliases", action="store_true", default=ALIASES_BY_DEFAULT,
                       help="print aliases (#map, #loc3, ...) as mlir-opt does without "
                            f"--mlir-print-local-scope{' (default)' if ALIASES_BY_DEFAULT else ''}")
        g.add_argument("--local-scope", dest="aliases", action="store_false",
                       help="print every attribute, type and location inline, as mlir-opt's "
                            f"--mlir-print-local-scope{'' if ALIASES_BY_DEFAULT else ' (default)'}")

    def model_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--disable-model", action="append", metavar="DIALECT[.OP]",
                        help="decode this dialect's (or op's) ops as fallbacks")
        sp.add_argument("--ods-json", action="append", metavar="FILE",
                        help="extra op models from `llvm-tblgen --dump-json` output")
        sp.add_argument("--models", metavar="SET",
                        help="use this model set (mlir21 to mlir24) instead of the one the file's "
                             "producer chooses")

    def form_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--form", default=AUTO, metavar="FORM",
                        help="the view's form: every op in its custom assembly form where mlirbc knows it "
                             "(pretty), MLIR's generic form (generic), a dialect-level view by its name "
                             "(stablehlo: a portable artifact as StableHLO, in custom forms), or auto (the "
                             "default: a dialect-level view when one applies, else "
                             f"{AUTO_FORM})")

    d = sub.add_parser("decode", help="print the text view of a .mlirbc file")
    d.add_argument("file")
    form_opts(d)
    d.add_argument("-o", "--output", help="write the text here (atomically) instead of stdout")
    d.add_argument("--elide-larger-than", type=_byte_count, default=0, metavar="N",
                   help="print values with a payload over N bytes as elided placeholders that "
                        "`encode --like` turns back into the original bytes (default 0: never)")
    alias_opts(d)
    model_opts(d)
    d.set_defaults(func=cmd_decode)

    i = sub.add_parser("info", help="header, sections, dialects, op counts, fallbacks, resources")
    i.add_argument("file")
    i.add_argument("--json", action="store_true")
    model_opts(i)
    i.set_defaults(func=cmd_info)

    e = sub.add_parser("encode", help="encode a text view as bytecode (written atomically)")
    e.add_argument("text")
    e.add_argument("-o", "--output", required=True)
    e.add_argument("--version", type=int, choices=range(0, 7), metavar="N",
                   help="bytecode version 0-6 (default: the template's, else the header's, else 6)")
    e.add_argument("--producer", help="producer string (default: the template's or the header's)")
    e.add_argument("--like", metavar="ORIGINAL.mlirbc",
                   help="the file the view came from: keeps its tables so fallback parts stay valid")
    e.add_argument("--no-verify", action="store_true",
                   help="write the text even when it does not verify (a parse error is never written)")
    e.add_argument("--target", metavar="X.Y.Z",
                   help="write a fresh StableHLO portable artifact for this target (a StableHLO or VHLO "
                        "view; default: the file's own target)")
    model_opts(e)
    e.set_defaults(func=cmd_encode)

    r = sub.add_parser("roundtrip", help="decode, print, parse and encode; report identity")
    r.add_argument("file")
    form_opts(r)
    r.add_argument("--elide-larger-than", type=_byte_count, default=0, metavar="N",
                   help="print the view with elided placeholders (see decode)")
    alias_opts(r)
    model_opts(r)
    r.set_defaults(func=cmd_roundtrip)

    c = sub.add_parser("check", help="report every problem in a .mlirbc or a text view")
    c.add_argument("file")
    c.add_argument("--like", metavar="ORIGINAL.mlirbc", help="the file a text view came from")
    c.add_argument("--no-verify", action="store_true", help="report parse and structure problems only")
    c.add_argument("--explain", action="store_true",
                   help="list per op kind what the verifier checked and what it could not")
    form_opts(c)
    model_opts(c)
    c.set_defaults(func=cmd_check)

    add_graph_parser(sub, model_opts).set_defaults(func=lambda a: cmd_graph(a, _registry(a)))
    return p


def run() -> NoReturn:
    """The `mlirbc` command: `main`, then exit without tearing down the IR object by object (a large
    module takes a second to free, and the process is about to end anyway)."""
    rc = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    sys.stderr.flush()
    os._exit(rc)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        rc: int = args.func(args)
        return rc
    except (_UsageError, GraphUsageError) as exc:
        print(f"mlirbc: {exc}", file=sys.stderr)
        return 2
    except MlirbcError as exc:
        print(f"{getattr(args, 'file', 'mlirbc')}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except FileRefused as exc:
        print(f"mlirbc: cannot write {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # writing the output: nothing was replaced
        print(f"mlirbc: cannot write {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 1
