"""`mlirbc graph FILE`: the data-flow graph of a function as DOT, SVG or the server's JSON.

FILE is a bytecode file or a text view (`.mlir`, e.g. an edited view saved by an editor).  Which op is
shown: `--function NAME` (a symbol, or `#N` for the N-th function in text order), else `--at LINE[:COL]`
(the function around that position of the text view, or with `--scope region` the innermost op with
regions), else the whole module.  SVG is laid out by Graphviz's `dot` when it is on PATH, else by the
project's own layout (`--layout` chooses).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..bytecode.reader import read_bytecode_file
from ..files.access import atomic_write
from ..graph.builder import DEFAULT_LIMIT, build_graph
from ..graph.dot import to_dot
from ..graph.scope import enclosing_function, enclosing_region_owner, find_function, functions
from ..graph.source import SourceMap, TextRange, ViewSourceMap, elided_probe
from ..graph.svg import LAYOUT_AUTO, LAYOUT_BUILTIN, LAYOUT_GRAPHVIZ, GraphvizError, to_svg
from ..ir.operation import Operation
from ..models.registry import Registry
from ..view.aliasing import alias_rules
from ..view.forms import AUTO, FormError, print_form, shown
from ..view.parser import parse_module
from ..view.printer import ALIASES_BY_DEFAULT, print_module
from .progress import Progress

FORMATS = ("dot", "svg", "json")
CLI_LIMIT = 5000
"""Default page size for DOT and SVG (Graphviz gets slow on more); JSON uses the server's default."""


class GraphUsageError(Exception):
    pass


def _load(path: str, registry: Registry, progress: Progress,
          elide: int, form: str = AUTO, aliases: bool = ALIASES_BY_DEFAULT
          ) -> tuple[Operation, SourceMap, str]:
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        raise GraphUsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if magic == b"ML\xefR":
        progress.phase(f"decoding {path}")
        try:
            module = read_bytecode_file(path, registry)
        except OSError as exc:
            raise GraphUsageError(f"cannot read {path}: {exc.strerror or exc}") from None
        if module.error is not None:
            print(f"{path}: error: {module.error} (showing what decoded)", file=sys.stderr)
        try:  # what `mlirbc decode` shows (the StableHLO view of a portable artifact): its ranges
            view = shown(module, registry, form)
        except FormError as exc:
            raise GraphUsageError(f"{path}: {exc}") from None
        progress.phase("printing")
        printed = print_module(view.module, elide_larger_than=elide, form=print_form(form, view),
                               registry=registry,
                               aliases=alias_rules(view.module, registry) if aliases else None)
        if view.module.root is None:
            raise GraphUsageError(f"{path}: no operations decoded")
        return view.module.root, ViewSourceMap(printed.map, printed.text), printed.text
    progress.phase(f"parsing {path}")
    try:
        text = Path(path).read_bytes().decode("utf-8", "surrogateescape")
    except OSError as exc:
        raise GraphUsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    result = parse_module(text, None, registry, source_name=path)
    for d in result.errors[:20]:
        print(f"{path}:{d.span.start_line + 1}:{d.span.start_col + 1}: {d.severity}: {d.message}",
              file=sys.stderr)
    if result.module is None or result.module.root is None or result.map is None:
        raise GraphUsageError(f"{path}: the text has errors; no graph")
    return result.module.root, ViewSourceMap(result.map, text), text


def _at(root: Operation, source: SourceMap, line: int, col: int) -> Operation | None:
    """The innermost op whose text range contains (line, col) (0-based)."""
    best: Operation | None = None
    best_range: TextRange | None = None
    for op in root.walk():
        r = source.op_range(op)
        if r is None:
            continue
        if (r.start_line, r.start_char) <= (line, col) <= (r.end_line, r.end_char):
            if best_range is None or (r.start_line, r.start_char) >= (best_range.start_line,
                                                                      best_range.start_char):
                best, best_range = op, r
    return best


def _parse_at(spec: str) -> tuple[int, int]:
    line, _, col = spec.partition(":")
    try:
        return max(int(line) - 1, 0), max(int(col) - 1, 0) if col else 0
    except ValueError:
        raise GraphUsageError(f"--at wants LINE or LINE:COL (1-based), not {spec!r}") from None


def cmd_graph(args: argparse.Namespace, registry: Registry) -> int:
    fmt = args.format or (Path(args.output).suffix[1:] if args.output and
                          Path(args.output).suffix[1:] in FORMATS else "dot")
    with Progress("graph") as progress:
        root, source, text = _load(args.file, registry, progress, args.elide_larger_than, args.form,
                                   args.aliases)
        if args.list:
            for i, f in enumerate(functions(root)):
                r = source.op_range(f.op)
                where = f"line {r.start_line + 1}" if r is not None else "?"
                print(f"#{i}\t{'@' + f.symbol if f.symbol else '-'}\t{f.op.name}\t"
                      f"{sum(1 for _ in f.op.walk())} ops\t{where}")
            return 0
        shown = root
        if args.function:
            found = find_function(root, args.function)
            if found is None:
                names = [("@" + f.symbol) if f.symbol else f"#{i}" for i, f in
                         enumerate(functions(root, 50))]
                raise GraphUsageError(f"no function {args.function!r}; there are: "
                                      + (", ".join(names) or "none") + " (see --list)")
            shown = found
        elif args.at:
            line, col = _parse_at(args.at)
            op = _at(root, source, line, col)
            if op is None:
                raise GraphUsageError(f"no op at line {line + 1}, column {col + 1}")
            shown = enclosing_region_owner(op) if args.scope == "region" else enclosing_function(op)
        limit = args.limit or (DEFAULT_LIMIT if fmt == "json" else CLI_LIMIT)
        progress.phase("building the graph")
        graph = build_graph(shown, source, limit=limit, offset=args.offset,
                            elided=elided_probe(text, source, source.lines
                                                if isinstance(source, ViewSourceMap) else None))
        if graph["truncated"]:
            nxt = graph["page"]["next"]
            more = f"; --offset {nxt} for the next page" if nxt is not None else ""
            print(f"{args.file}: {graph['truncated']}{more}", file=sys.stderr)
        if fmt == "json":
            out = json.dumps(graph, indent=1) + "\n"
        elif fmt == "dot":
            out = to_dot(graph)
        else:
            progress.phase("laying out")
            try:
                out, how = to_svg(graph, args.layout)
            except GraphvizError as exc:
                raise GraphUsageError(str(exc)) from None
            if args.verbose:
                print(f"laid out by {'Graphviz dot' if how == LAYOUT_GRAPHVIZ else 'mlirbc'}",
                      file=sys.stderr)
    if args.output:
        atomic_write(args.output, out)
    else:
        sys.stdout.write(out)
    return 0


def add_parser(sub: Any, model_opts: Any) -> argparse.ArgumentParser:
    g: argparse.ArgumentParser = sub.add_parser(
        "graph", help="the data-flow graph of a function as DOT, SVG or JSON",
        description="Write the data-flow graph of a function (ops, SSA uses, control flow, nested "
                    "regions) of a bytecode file or a text view.")
    g.add_argument("file", help="a .mlirbc file or a text view (.mlir)")
    g.add_argument("--function", metavar="NAME",
                   help="the function to show: its symbol (`main` or `@main`) or `#N` (see --list)")
    g.add_argument("--at", metavar="LINE[:COL]",
                   help="show the function around this position of the text view (1-based)")
    g.add_argument("--scope", choices=("function", "region"), default="function",
                   help="with --at: the enclosing function (default) or the innermost op with regions")
    g.add_argument("--format", choices=FORMATS,
                   help="dot (default), svg or json (the server's mlirbc/graph answer); "
                        "default from -o's extension")
    g.add_argument("-o", "--output", help="write here (atomically) instead of stdout")
    g.add_argument("--layout", choices=(LAYOUT_AUTO, LAYOUT_GRAPHVIZ, LAYOUT_BUILTIN),
                   default=LAYOUT_AUTO,
                   help="for svg: Graphviz's dot when installed (auto), or mlirbc's own layout")
    g.add_argument("--limit", type=int, metavar="N",
                   help=f"at most N ops (default {CLI_LIMIT} for dot/svg, {DEFAULT_LIMIT} for json)")
    g.add_argument("--offset", type=int, default=0, metavar="K",
                   help="start at the K-th op (text order; for the pages of a large function)")
    g.add_argument("--list", action="store_true", help="list the functions and exit")
    g.add_argument("--elide-larger-than", type=int, default=0, metavar="N",
                   help="read the view with values over N bytes elided, as the editor shows them (ops "
                        "holding one are marked `elided`; default: nothing elided)")
    g.add_argument("--form", default=AUTO, metavar="FORM",
                   help="for a bytecode file: the view whose ops and ranges the graph shows, as `decode "
                        "--form` (default auto: a portable artifact as StableHLO)")
    scope = g.add_mutually_exclusive_group()
    scope.add_argument("--aliases", dest="aliases", action="store_true", default=ALIASES_BY_DEFAULT,
                       help="ranges in the view printed with aliases (as `decode --aliases`)")
    scope.add_argument("--local-scope", dest="aliases", action="store_false",
                       help="ranges in the view printed without aliases (as `decode --local-scope`)")
    g.add_argument("-v", "--verbose", action="store_true", help="say which layout made the SVG")
    model_opts(g)
    return g

