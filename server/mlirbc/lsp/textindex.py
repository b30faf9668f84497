"""A light, error-tolerant index of a generic-form text view: ops, regions, names and where they are.

It tokenizes only what navigation needs (strings, comments, `%values`, `^blocks`, `@symbols`, brackets,
`sym_name = "..."`, opaque fallback parts) and never fails: malformed text yields structural problems and
a best-effort index.  Names are scoped by region: a use resolves to the definition in the innermost
enclosing region that has one, so hand-written text with repeated names still navigates sensibly.

Ops are numbered in text order, which is the pre-order of `Operation.walk()`; features pair the two to
reach the IR behind a position (see `document.Snapshot`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from .positions import LineIndex

_STR = r'"(?:[^"\\\n]|\\.)*"'
_ID = r"(?:[0-9]+|[A-Za-z_$.\-][\w$.\-]*)"
_SYM = rf"@(?:[A-Za-z_$.\-][\w$.\-]*|{_STR})"

# The lookahead lets the regex engine skip uninteresting text at C speed (6x faster on big views).
_TOKEN = re.compile(
    rf"""(?=[/"#!%^@({{}}<])(?:(?P<comment>//[^\n]*)
    |(?P<fallback>[#!]mlirbc\.fallback<{_STR}\s*,\s*"0x[0-9A-Fa-f]*">)
    |(?P<string>{_STR})
    |(?P<props><\{{(?:[^{{}}"@#!\n]|[#!](?!mlirbc\.fallback<)|{_STR})*\}}>)
    |(?P<badstring>"[^\n]*)
    |(?P<ropen>\{{-\#)
    |(?P<rclose>\#-\}})
    |(?P<value>%{_ID}(?:\#[0-9]+)?)
    |(?P<block>\^{_ID})
    |(?P<symbol>{_SYM}(?:::{_SYM})*)
    |(?P<rlist>\([ \t]*\{{)
    |(?P<rnext>\}}[ \t]*,[ \t\n]*\{{)
    |(?P<rend>\}}[ \t]*\))
    |(?P<brace>[{{}}]))""",
    re.VERBOSE,
)
# `%0 = "op"(` / `%a, %b = "op"(` / `%0:2 = "op"(` / `"op"(` at the start of a line.
_OP_HEAD = re.compile(rf'^[ \t]*(?:(?P<res>%[^="\n]*?)=[ \t]*)?(?P<name>{_STR})\(', re.M)
_LABEL = re.compile(rf"^[ \t]*\^{_ID}[^\n]*", re.M)
_RESULT = re.compile(rf"%{_ID}(?:[ \t]*:[ \t]*([0-9]+))?")
_VALUE_IN_LINE = re.compile(rf"%{_ID}")
_STRING_AT = re.compile(_STR)
_FALLBACK_PART = re.compile(rf'[#!]mlirbc\.fallback<({_STR})\s*,\s*"0x([0-9A-Fa-f]*)">')
# Found in separate passes, then recognized by the start of their string token.
_SYM_NAME = re.compile(rf"\bsym_name\s*=\s*({_STR})")
_FALLBACK_PROPS = re.compile(r'\bmlirbc\.properties\s*=\s*("0x[0-9A-Fa-f]*")')

VALUE = "value"
BLOCK = "block"
SYMBOL = "symbol"


@dataclass(slots=True)
class Occurrence:
    """One `%value`, `^block` or `@symbol` in the text."""

    kind: str
    name: str
    """`%0` (without `#N`), `^bb1`, `@a::@b`."""
    start: int
    end: int
    region: int
    is_def: bool = False
    result: int = -1
    """For values: `#N` of a use, or the first result number a definition names."""
    count: int = 1
    """For value definitions: how many results the name covers (`%0:2`)."""
    op: int = -1
    """For result definitions: the defining op; for block-argument definitions: -1."""
    block: tuple[int, int] = (-1, -1)
    """For block labels and block-argument definitions: (region id, block number in the region)."""
    arg: int = -1


@dataclass(slots=True)
class OpEntry:
    index: int
    name: str
    name_start: int
    name_end: int
    start: int
    region: int
    end: int = -1
    regions: list[int] = field(default_factory=list)
    fallback_props: tuple[int, int] | None = None
    sym_name: str | None = None
    sym_span: tuple[int, int] | None = None
    results: list[int] = field(default_factory=list)
    """Indices (into `occurrences`) of the result definitions."""


@dataclass(slots=True)
class RegionEntry:
    id: int
    parent: int
    owner: int
    """Op index owning the region, -1 for the top level."""
    ordinal: int
    start: int
    end: int = -1
    last_op: int = -1
    labels: list[int] = field(default_factory=list)
    """Occurrence indices of the block labels defined in this region."""
    has_entry_ops: bool = False
    """Ops appear before the first label: the entry block is unlabeled."""


@dataclass(slots=True)
class Opaque:
    kind: str  # "attribute" or "type"
    start: int
    end: int
    dialect: str
    data: bytes


@dataclass(slots=True)
class Fold:
    start: int
    end: int
    kind: str  # "region", "dict", "resources", "list"


@dataclass(slots=True)
class Problem:
    start: int
    end: int
    message: str


def _unquote(s: str) -> str:
    body = s[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in '"\\':
                out.append(n)
                i += 2
                continue
            if n == "n":
                out.append("\n")
                i += 2
                continue
            if n == "t":
                out.append("\t")
                i += 2
                continue
            hx = body[i + 1:i + 3]
            if len(hx) == 2 and all(h in "0123456789abcdefABCDEF" for h in hx):
                out.append(chr(int(hx, 16)))
                i += 3
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _symbol_parts(name: str) -> list[str]:
    parts = []
    for m in re.finditer(_SYM, name):
        body = m.group(0)[1:]
        parts.append(_unquote(body) if body.startswith('"') else body)
    return parts


class TextIndex:
    """Everything navigation needs about one version of a view's text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineIndex(text)
        self.ops: list[OpEntry] = []
        self.regions: list[RegionEntry] = [RegionEntry(0, -1, -1, 0, 0, len(text))]
        self.occurrences: list[Occurrence] = []
        self.opaque: list[Opaque] = []
        self.folds: list[Fold] = []
        self.problems: list[Problem] = []
        self.comments: list[tuple[int, int]] = []
        self.resource_block: tuple[int, int] | None = None
        self._defs: dict[tuple[str, int, str], list[int]] = {}
        self._by_name: dict[tuple[str, str], list[int]] = {}
        self._symtab: dict[tuple[int, str], int] = {}
        self._scan()
        self._occ_starts = [o.start for o in self.occurrences]
        self._op_name_starts = [o.name_start for o in self.ops]
        self._opaque_starts = [o.start for o in self.opaque]
        self._op_starts = [o.start for o in self.ops]

    # -- scanning --------------------------------------------------------------------------------
    def _scan(self) -> None:
        text = self.text
        # Line-level facts first, with C-speed regex passes; the token loop then only looks them up.
        head_names: dict[int, int] = {}  # offset of an op-name string -> its statement's start
        result_defs: dict[int, int] = {}  # offset of a result name -> how many results it covers
        for m in _OP_HEAD.finditer(text):
            head_names[m.start("name")] = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
            if m.group("res"):
                base = m.start("res")
                for r in _RESULT.finditer(m.group("res")):
                    result_defs[base + r.start()] = int(r.group(1)) if r.group(1) else 1
        label_defs: set[int] = set()  # `^label` offsets that define a block
        arg_defs: set[int] = set()  # `%arg` offsets defined by a block label line
        for m in _LABEL.finditer(text):
            label_defs.add(m.start() + len(m.group(0)) - len(m.group(0).lstrip()))
            base = m.start()
            for v in _VALUE_IN_LINE.finditer(m.group(0)):
                arg_defs.add(base + v.start())
        # (offset of the name string, kind, offset of the whole `key = "..."`)
        named = sorted([(m.start(1), 0, m.start()) for m in _SYM_NAME.finditer(text)]
                       + [(m.start(1), 1, m.start()) for m in _FALLBACK_PROPS.finditer(text)])
        ni, nnamed = 0, len(named)
        stack: list[tuple[int, int]] = []  # open braces: (offset, region id or -1)
        cur = 0
        pending: list[int] = []
        in_resources = -1
        arg_no = 0
        occ = self.occurrences
        regions = self.regions
        ops = self.ops
        problems = self.problems
        folds = self.folds
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            s = m.start()
            e = m.end()
            if ni < nnamed and named[ni][0] < e:
                # `sym_name = "..."` / `mlirbc.properties = "0x..."` belong to the op last started
                # in the current region (its properties come before its regions, its attribute
                # dictionary after them)
                while ni < nnamed and named[ni][0] < e:
                    pos, what, whole = named[ni]
                    ni += 1
                    owner = regions[cur].last_op
                    if owner < 0 or pos < ops[owner].name_end:
                        continue
                    op = ops[owner]
                    if what == 0 and op.sym_name is None:
                        end = _STRING_AT.match(text, pos)
                        if end is not None:
                            op.sym_name = _unquote(end.group(0))
                            op.sym_span = (pos, end.end())
                            self._symtab.setdefault((regions[op.region].owner, op.sym_name), owner)
                    elif what == 1:
                        end = _STRING_AT.match(text, pos)
                        op.fallback_props = (whole, end.end() if end is not None else pos)
            if kind == "value":
                name, _, num = m.group(0).partition("#")
                if s in result_defs:
                    o = Occurrence(VALUE, name, s, e, cur, True, 0, result_defs[s])
                    pending.append(len(occ))
                elif s in arg_defs:
                    o = Occurrence(VALUE, name, s, e, cur, True)
                    lab = regions[cur].labels
                    if lab:
                        o.block = occ[lab[-1]].block
                        o.arg = arg_no
                        arg_no += 1
                else:
                    o = Occurrence(VALUE, name, s, e, cur, False, int(num) if num else -1)
                occ.append(o)
            elif kind == "string":
                if s in head_names:
                    self._new_op(m.group(0), s, e, head_names[s], cur, pending)
                    pending = []
            elif kind == "props":
                pass
            elif kind == "brace":
                if text[s] == "{":
                    stack.append((s, -1))
                    continue
                if not stack:
                    problems.append(Problem(s, s + 1, "unmatched '}'"))
                    continue
                bs, rid = stack.pop()
                if rid >= 0:
                    regions[rid].end = s + 1
                    cur = regions[rid].parent
                if text.count("\n", bs, s):
                    folds.append(Fold(bs, s + 1, "region" if rid >= 0 else "dict"))
            elif kind == "rlist" or kind == "rnext" or kind == "rend":
                if kind != "rlist":
                    # `}, {` or `})`: close the innermost brace first
                    if not stack:
                        problems.append(Problem(s, s + 1, "unmatched '}'"))
                        continue
                    bs, rid = stack.pop()
                    if rid >= 0:
                        regions[rid].end = s + 1
                        cur = regions[rid].parent
                    if text.count("\n", bs, s):
                        folds.append(Fold(bs, s + 1, "region" if rid >= 0 else "dict"))
                    if kind == "rend":
                        continue
                    if rid < 0:  # `}, {` between two dictionaries
                        stack.append((e - 1, -1))
                        continue
                # `({` or `}, {`: a region of the op last started in the current region
                owner = regions[cur].last_op
                rid = len(regions)
                ordinal = len(ops[owner].regions) if owner >= 0 else 0
                regions.append(RegionEntry(rid, cur, owner, ordinal, e - 1))
                if owner >= 0:
                    ops[owner].regions.append(rid)
                cur = rid
                stack.append((e - 1, rid))
            elif kind == "block":
                o = Occurrence(BLOCK, m.group(0), s, e, cur)
                if s in label_defs:
                    o.is_def = True
                    reg = regions[cur]
                    o.block = (cur, len(reg.labels) + (1 if reg.has_entry_ops else 0))
                    reg.labels.append(len(occ))
                    arg_no = 0
                occ.append(o)
            elif kind == "symbol":
                occ.append(Occurrence(SYMBOL, m.group(0), s, e, cur))
            elif kind == "fallback":
                tok = m.group(0)
                fm = _FALLBACK_PART.match(tok)
                if fm is not None and len(fm.group(2)) % 2 == 0:
                    self.opaque.append(Opaque("attribute" if tok[0] == "#" else "type", s, e,
                                              _unquote(fm.group(1)), bytes.fromhex(fm.group(2))))
            elif kind == "comment":
                self.comments.append((s, e))
            elif kind == "badstring":
                problems.append(Problem(s, e, "unterminated string"))
            elif kind == "ropen":
                in_resources = s
            elif kind == "rclose":
                if in_resources >= 0:
                    folds.append(Fold(in_resources, e, "resources"))
                    self.resource_block = (in_resources, e)
                    in_resources = -1
                    stack = [x for x in stack if x[0] < self.resource_block[0]]
        for bs, _rid in stack:
            if in_resources < 0 or bs < in_resources:
                problems.append(Problem(bs, bs + 1, "'{' is never closed"))
        self._finish()

    def _new_op(self, quoted: str, s: int, e: int, first: int, cur: int,
                pending: list[int]) -> None:
        op = OpEntry(len(self.ops), _unquote(quoted), s, e, first, cur)
        base = 0
        for i in pending:
            o = self.occurrences[i]
            o.op = op.index
            o.result = base
            base += o.count
            op.results.append(i)
        r = self.regions[cur]
        if not r.labels:
            r.has_entry_ops = True
        r.last_op = op.index
        self.ops.append(op)

    def _finish(self) -> None:
        text = self.text
        # An op ends where the next op of its region starts, or where its region closes.
        last_in_region: dict[int, int] = {}
        for op in self.ops:
            prev = last_in_region.get(op.region)
            if prev is not None:
                self.ops[prev].end = self._trim_back(op.start)
            last_in_region[op.region] = op.index
        for rid, idx in last_in_region.items():
            r = self.regions[rid]
            limit = r.end - 1 if rid > 0 and r.end > 0 else (
                self.resource_block[0] if self.resource_block else len(text))
            self.ops[idx].end = self._trim_back(limit)
        for i, o in enumerate(self.occurrences):
            if o.is_def:
                self._defs.setdefault((o.kind, o.region, o.name), []).append(i)
            self._by_name.setdefault((o.kind, o.name), []).append(i)

    def _trim_back(self, limit: int) -> int:
        """End of the last line before the line of `limit` that holds code (not blank, a comment
        or a block label)."""
        text = self.text
        end = text.rfind("\n", 0, limit)
        while end > 0:
            ls = text.rfind("\n", 0, end) + 1
            line = text[ls:end].strip()
            if line and not line.startswith(("//", "^")):
                return end
            end = ls - 1
        return max(end, 0)

    # -- queries ---------------------------------------------------------------------------------
    def occurrence_at(self, offset: int) -> Occurrence | None:
        i = bisect_right(self._occ_starts, offset) - 1
        if i >= 0:
            o = self.occurrences[i]
            if o.start <= offset <= o.end:
                return o
        return None

    def op_name_at(self, offset: int) -> OpEntry | None:
        i = bisect_right(self._op_name_starts, offset) - 1
        if i >= 0:
            op = self.ops[i]
            if op.name_start <= offset <= op.name_end:
                return op
        return None

    def opaque_at(self, offset: int) -> Opaque | None:
        i = bisect_right(self._opaque_starts, offset) - 1
        if i >= 0 and self.opaque[i].start <= offset <= self.opaque[i].end:
            return self.opaque[i]
        return None

    def op_at(self, offset: int) -> OpEntry | None:
        """The innermost op whose text contains `offset`."""
        i = bisect_right(self._op_starts, offset) - 1
        # ops containing `offset` are nested, so the innermost is the last op starting before
        # `offset` or one of its ancestors
        while i >= 0:
            op = self.ops[i]
            if op.start <= offset <= op.end:
                return op
            i = self.regions[op.region].owner
        return None

    def region_chain(self, region: int) -> list[int]:
        chain = []
        while region >= 0:
            chain.append(region)
            region = self.regions[region].parent
        return chain

    def region_at(self, offset: int) -> int:
        """The innermost region containing `offset` (0 for the top level)."""
        best = 0
        for r in self.regions[1:]:
            if r.start <= offset and (r.end < 0 or offset < r.end):
                best = r.id  # regions are in start order; a later match is nested deeper
        return best

    def definition_of(self, o: Occurrence) -> Occurrence | None:
        if o.kind == SYMBOL:
            op = self.symbol_op(o)
            if op is None or op.sym_span is None:
                return None
            s, e = op.sym_span
            return Occurrence(SYMBOL, o.name, s, e, op.region, is_def=True, op=op.index)
        if o.is_def:
            return o
        for rid in self.region_chain(o.region):
            defs = self._defs.get((o.kind, rid, o.name))
            if defs:
                before = [d for d in defs if self.occurrences[d].start <= o.start]
                return self.occurrences[before[-1] if before else defs[0]]
        return None

    def symbol_op(self, o: Occurrence, upto: int | None = None) -> OpEntry | None:
        """The op a symbol reference names (`upto`: how many of its `::` parts to follow)."""
        parts = _symbol_parts(o.name)
        if upto is not None:
            parts = parts[:upto]
        if not parts:
            return None
        found: int | None = None
        for rid in self.region_chain(o.region):
            found = self._symtab.get((self.regions[rid].owner, parts[0]))
            if found is not None:
                break
        if found is None:
            return None
        for p in parts[1:]:
            nxt = self._symtab.get((found, p))
            if nxt is None:
                return None
            found = nxt
        return self.ops[found]

    def references_of(self, o: Occurrence) -> list[Occurrence]:
        """Every occurrence (definition included) that resolves to the same thing as `o`."""
        if o.kind == SYMBOL:
            target = self.symbol_op(o)
            if target is None:
                return []
            out = []
            for cand in self.occurrences:
                if cand.kind != SYMBOL:
                    continue
                n = len(_symbol_parts(cand.name))
                for k in range(1, n + 1):
                    if self.symbol_op(cand, k) is target:
                        out.append(cand)
                        break
            return out
        d = self.definition_of(o)
        if d is None:
            return [o]
        return [c for c in (self.occurrences[i] for i in self._by_name.get((o.kind, o.name), []))
                if self.definition_of(c) is d]

    def visible_values(self, offset: int) -> list[Occurrence]:
        """Value definitions visible at `offset` (innermost first, one per name)."""
        chain = self.region_chain(self.region_at(offset))
        seen: set[str] = set()
        out: list[Occurrence] = []
        for rid in chain:
            for (kind, r, name), defs in self._defs.items():
                if kind == VALUE and r == rid and name not in seen:
                    seen.add(name)
                    out.append(self.occurrences[defs[0]])
        return out

    def undefined_uses(self, limit: int = 200) -> list[Occurrence]:
        out = []
        for o in self.occurrences:
            if o.kind in (VALUE, BLOCK) and not o.is_def and self.definition_of(o) is None:
                out.append(o)
                if len(out) >= limit:
                    break
        return out
