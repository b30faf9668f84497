"""Numbering for the writer (format 11): dialects, op names, attributes, types, values, blocks and resources.

The traversal is upstream's: number the root op, then pop regions from a LIFO stack (so later regions are
numbered first); per op: name, results (id, then type), attribute dictionary, properties, location.  An
attribute or type is appended on first encounter, its dialect numbered, then everything its encoding
references, depth first.  Finally each table is sorted by reference count (stable) and regrouped by dialect
within varint byte groups.

In template mode the template's tables are kept at their numbers (entries written from their original bytes)
and only new entries are numbered, after them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from ..binary.stream import encode_varint
from ..errors import EncodeError
from ..files.chunks import FileRange
from ..ir.attributes import (
    Attribute,
    DialectAttr,
    DictionaryAttr,
    FallbackAttr,
    FileLineColLoc,
)
from ..ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    PROPS_FALLBACK,
    Block,
    Operation,
    OpName,
    Region,
    Value,
)
from ..ir.types import DialectType, FallbackType, FloatType, Type
from ..models.api import OpModel, isolated_from_above
from ..models.registry import Registry
from ..syntax import attr_printer
from ..yielding import checkpoint
from . import builtin_codec
from .attrtypes import ATTR, TYPE, TableEntries
from .isolation import analyze
from .op_attrs import merge_properties, split_properties
from .recorder import REF_ATTR, REF_OPT_ATTR, REF_RESOURCE, REF_TYPE, Recorder, Token
from .template import Template

_KIND = ("attribute", "type")

# Byte groups of the dialect regrouping: 2^(7g) - previous size (format 11.4).
_MAX_BYTE_GROUPS = 8

_RESOURCE_IN_TEXT = re.compile(r'dense_resource<\s*("[^"\\]*(?:\\.[^"\\]*)*"|[^>\s]+)\s*>')

PropsPlan = tuple[str, object]
"""("tokens", list[Token]) to render, or ("raw", bytes) kept verbatim from the template."""


class Entry:
    """One attribute, type or op name: its dialect number, reference count, final index, encoding."""

    __slots__ = ("value", "dialect", "refcount", "index", "tokens", "custom", "raw")

    def __init__(self, value: object, dialect: int) -> None:
        self.value = value
        self.dialect = dialect
        self.refcount = 1
        self.index = -1
        self.tokens: list[Token] = []
        self.custom = True
        self.raw: bytes | memoryview | FileRange | None = None
        """The template's original bytes (written verbatim), None for new entries."""


_FILE_LINE_COL = encode_varint(next(c.code for c in builtin_codec.ATTRIBUTE_CODECS
                                    if c.cls is FileLineColLoc))

_SEED = "numbering.seed"


class _Seed:
    """The template's tables as numbering entries, built once per template and shared by every write
    (a save after each edit of a large file must not rebuild 100,000 entries).  Writes only ever
    change what `Numbering._seed` copies, plus the seeded entries' reference counts, which nothing
    reads: seeded entries keep their numbers."""

    def __init__(self, t: Template) -> None:
        self.dialects: dict[str, int] = {}
        self.dialect_names: list[str] = []
        for d in t.dialects:
            self.dialects.setdefault(d.name, len(self.dialect_names))
            self.dialect_names.append(d.name)
        self.op_map: dict[OpName, Entry] = {}
        self.ordered_ops: list[Entry] = []
        for i, name in enumerate(t.op_names):
            e = Entry(name, self.dialects.get(name.dialect, 0))
            e.index = i
            self.op_map.setdefault(name, e)
            self.ordered_ops.append(e)
        self.maps: tuple[dict[object, Entry], dict[object, Entry]] = ({}, {})
        self.ordered: tuple[list[Entry], list[Entry]] = ([], [])
        self.ambiguous: tuple[dict[object, list[int]], dict[object, list[int]]] = ({}, {})
        for kind, entries in ((ATTR, t.attrs), (TYPE, t.types)):
            m = self.maps[kind]
            lst = self.ordered[kind]
            rows = entries.stored() if isinstance(entries, TableEntries) else \
                ((te.value, te.dialect, te.custom, te.offset, te.size) for te in entries)
            for i, (value, dialect, custom, _offset, _size) in enumerate(rows):
                if not i & 1023:
                    checkpoint()  # a server readies this in the background (see yielding)
                e = Entry(value, dialect)
                e.index = i
                e.custom = custom
                # (Its bytes, `raw`, are the template's: the writer takes them from the template when it
                # writes entries one by one, `writer.template_raws`, which a save rarely needs.)
                first = m.setdefault(value, e)
                if first is not e:
                    self.ambiguous[kind].setdefault(value, [first.index]).append(i)
                lst.append(e)


class Numbering:
    """Runs the numbering traversal over `root` and keeps every number the sections need."""

    def __init__(self, version: int, registry: Registry, template: Template | None = None,
                 template_version: int = -1, derive_registered: bool = False) -> None:
        self.version = version
        self.registry = registry
        self.template = template
        self.template_version = template_version
        self.derive_registered = derive_registered
        self.dialects: dict[str, int] = {}
        self.dialect_names: list[str] = []
        self.maps: tuple[dict[object, Entry], dict[object, Entry]] = ({}, {})
        self.ordered: tuple[list[Entry], list[Entry]] = ([], [])
        self.op_map: dict[OpName, Entry] = {}
        self.ordered_ops: list[Entry] = []
        self.seeded = [0, 0]
        self.ambiguous: tuple[dict[object, list[int]], dict[object, list[int]]] = ({}, {})
        """Template values stored in more than one entry (e.g. two location ranges with one encoding):
        value -> the entry numbers holding it."""
        self.seeded_ops = 0
        self.value_ids: dict[Value, int] = {}
        self.block_ids: dict[Block, int] = {}
        self.region_values: dict[Region, int] = {}
        self.isolated: dict[Operation, bool] = {}
        self.use_counts: dict[Value, int] = {}
        self.op_parts: dict[Operation, tuple[DictionaryAttr | None, PropsPlan | None]] = {}
        self.op_entries: dict[Operation, Entry] = {}
        self.resource_keys: dict[str, None] = {}
        """Builtin dialect resources in first-numbered order (an ordered set)."""
        self._next_id = 0
        self._names: dict[OpName, OpName] = {}
        self._trait: dict[OpName, bool] = {}
        self._props_cache: dict[tuple[object, ...], list[Token]] = {}
        self._declared: dict[Region, tuple[int, int]] = {}
        if template is not None:
            self._seed(template)

    # -- template ---------------------------------------------------------------------------------
    def _seed(self, t: Template) -> None:
        self._declared = t.declared_values
        seed = t.cache.get(_SEED)
        if not isinstance(seed, _Seed):
            seed = t.cache[_SEED] = _Seed(t)
        self.dialects = dict(seed.dialects)
        self.dialect_names = list(seed.dialect_names)
        self.op_map = dict(seed.op_map)
        self.ordered_ops = list(seed.ordered_ops)
        self.seeded_ops = len(seed.ordered_ops)
        self.maps = (dict(seed.maps[ATTR]), dict(seed.maps[TYPE]))
        self.ordered = (list(seed.ordered[ATTR]), list(seed.ordered[TYPE]))
        self.ambiguous = ({k: list(v) for k, v in seed.ambiguous[ATTR].items()},
                          {k: list(v) for k, v in seed.ambiguous[TYPE].items()})
        self.seeded = [len(seed.ordered[ATTR]), len(seed.ordered[TYPE])]

    # -- dialects and op names --------------------------------------------------------------------
    def number_dialect(self, name: str) -> int:
        n = self.dialects.get(name)
        if n is None:
            n = len(self.dialect_names)
            self.dialects[name] = n
            self.dialect_names.append(name)
        return n

    def op_name(self, name: OpName) -> OpName:
        """The op name as written: with the registered flag derived from the registry when the IR does
        not know it (read from a file older than version 5)."""
        if not self.derive_registered:
            return name
        hit = self._names.get(name)
        if hit is None:
            hit = OpName(name.dialect, name.name, self.registry.op(name.full).model is not None)
            self._names[name] = hit
        return hit

    def _model(self, name: OpName) -> OpModel | None:
        if not name.registered:
            return None
        return self.registry.op(name.full).model

    def has_isolated_trait(self, op: Operation) -> bool:
        name = self.op_name(op.op_name)
        hit = self._trait.get(name)
        if hit is None:
            hit = self._trait[name] = isolated_from_above(self._model(name))
        return hit

    def _number_op_name(self, op: Operation) -> None:
        name = self.op_name(op.op_name)
        e = self.op_map.get(name)
        if e is not None:
            e.refcount += 1
        else:
            e = Entry(name, self.number_dialect(name.dialect))
            self.op_map[name] = e
            self.ordered_ops.append(e)
        self.op_entries[op] = e

    # -- attributes and types ---------------------------------------------------------------------
    def number_attr(self, a: Attribute) -> None:
        e = self.maps[ATTR].get(a)
        if e is not None:
            e.refcount += 1
        else:
            self._number_new(ATTR, a)

    def number_type(self, t: Type) -> None:
        e = self.maps[TYPE].get(t)
        if e is not None:
            e.refcount += 1
        else:
            self._number_new(TYPE, t)

    def _number_new(self, kind: int, value: object) -> None:
        # Depth first with an explicit stack: JAX/IREE location chains are thousands deep.
        work: list[tuple[int, object]] = [(kind, value)]
        maps = self.maps
        while work:
            k, x = work.pop()
            if k == REF_RESOURCE:
                self._number_resources([x])  # type: ignore[list-item]
                continue
            e = maps[k].get(x)
            if e is not None:
                e.refcount += 1
                continue
            if type(x) is FileLineColLoc and k == ATTR:
                # Most entries of a large file: the tokens a Recorder would give, made directly.
                e = Entry(x, self.number_dialect(x.dialect))
                maps[k][x] = e
                self.ordered[k].append(e)
                e.tokens = [_FILE_LINE_COL, (REF_ATTR, x.filename), encode_varint(x.line) +
                            encode_varint(x.column)]
                work.append((ATTR, x.filename))
                continue
            if not isinstance(x, (Attribute, Type)):
                raise EncodeError(f"expected {'an attribute' if k == ATTR else 'a type'}, found "
                                  f"{type(x).__name__} {x!r:.80}")
            if k == ATTR and not isinstance(x, Attribute):
                raise EncodeError(f"a type ({type(x).__name__}) is used where an attribute is expected")
            if k == TYPE and not isinstance(x, Type):
                raise EncodeError(f"an attribute ({type(x).__name__}) is used where a type is expected")
            e = Entry(x, self.number_dialect(x.dialect))
            maps[k][x] = e
            self.ordered[k].append(e)
            e.tokens, e.custom = self._encode(k, x)
            if e.custom:
                refs: list[tuple[int, object]] = []
                for t in e.tokens:
                    if type(t) is tuple:
                        rk, obj = t
                        if rk == REF_ATTR or rk == REF_OPT_ATTR:
                            refs.append((ATTR, obj))
                        elif rk == REF_TYPE:
                            refs.append((TYPE, obj))
                        elif rk == REF_RESOURCE:
                            refs.append((REF_RESOURCE, obj))
                work.extend(reversed(refs))
            else:
                # A textual entry numbers nothing nested, except the resources its text names.
                keys = _resources_in_text(e.tokens)
                if keys:
                    self._number_resources(keys)

    def _encode(self, kind: int, x: object) -> tuple[list[Token], bool]:
        """The entry's encoding as tokens, and whether it is custom (False: NUL-terminated text)."""
        if isinstance(x, (FallbackAttr, FallbackType)):
            where = ("it is not an entry of the template file" if self.template is not None
                     else "fresh mode has no original file to take them from")
            raise EncodeError(f"cannot encode a fallback {_KIND[kind]} of dialect '{x.dialect_name}' "
                              f"(kept as opaque bytes because no model decodes it): {where}")
        rec = Recorder(self.version)
        try:
            if isinstance(x, (DialectAttr, DialectType)):
                if self._codec_encode(kind, x, rec):
                    return rec.finish(), True
                return [x.text.encode("utf-8", "surrogateescape") + b"\0"], False
            if kind == ATTR:
                assert isinstance(x, Attribute)
                if builtin_codec.encode_attribute(x, rec):
                    return rec.finish(), True
            else:
                assert isinstance(x, Type)
                if builtin_codec.encode_type(x, rec):
                    return rec.finish(), True
            # Another dialect's value, or a builtin one the MLIR 22 codec writes as text: the model set's
            # codec for that dialect may have a binary form (MLIR 24's small float types, ...).
            rec = Recorder(self.version)
            if self._codec_encode(kind, x, rec):
                return rec.finish(), True
        except EncodeError:
            raise
        except Exception as exc:
            raise EncodeError(f"cannot encode {_KIND[kind]} {x!r:.120}: {exc}") from None
        return [_print(kind, x).encode("utf-8", "surrogateescape") + b"\0"], False

    def _codec_encode(self, kind: int, x: object, rec: Recorder) -> bool:
        dialect = getattr(x, "dialect", "builtin")
        if kind == ATTR:
            codec, _ = self.registry.attr_codec(dialect)
            return codec is not None and bool(codec.encode_attribute(x, rec))  # type: ignore[arg-type]
        codec, _ = self.registry.type_codec(dialect)
        return codec is not None and bool(codec.encode_type(x, rec))  # type: ignore[arg-type]

    def _number_resources(self, keys: Iterable[str]) -> None:
        self.number_dialect("builtin")
        for key in keys:
            if key in self.resource_keys:
                break  # upstream stops at the first handle it has seen (a `return` in its loop)
            self.resource_keys[key] = None

    # -- the traversal ----------------------------------------------------------------------------
    def run(self, root: Operation, deferred: Collection[Operation] = ()) -> None:
        """Number everything under `root`, except inside the regions of the ops in `deferred`
        (isolated ops whose regions the writer copies from the template; `number_regions` numbers
        them if it has to encode them after all)."""
        analysis = analyze(root, self.has_isolated_trait, deferred)
        self.isolated = analysis.isolated
        self.use_counts = analysis.use_counts
        self._number_op(root)
        if root.regions:
            self._traverse(root, deferred)

    def _traverse(self, top: Operation, deferred: Collection[Operation]) -> None:
        stack: list[tuple[Region, int]] = []
        isolated = self.isolated

        def push(op: Operation) -> None:
            start = 0 if isolated[op] else self._next_id
            for region in op.regions:
                stack.append((region, start))

        push(top)
        while stack:
            region, self._next_id = stack.pop()
            self._number_region(region)
            for block in region.blocks:
                for op in block.operations:
                    if op.regions and op not in deferred:
                        push(op)

    def number_regions(self, op: Operation) -> None:
        """Number inside an isolated op left out by `run` (after `finalize`: only the template's
        entries may be referenced there, which keep their numbers)."""
        analysis = analyze(op, self.has_isolated_trait, inside=True)
        self.isolated.update(analysis.isolated)
        self.isolated[op] = True
        self.use_counts.update(analysis.use_counts)
        sizes = (len(self.ordered[ATTR]), len(self.ordered[TYPE]), len(self.ordered_ops))
        saved = self._next_id
        self._traverse(op, ())
        self._next_id = saved
        if sizes != (len(self.ordered[ATTR]), len(self.ordered[TYPE]), len(self.ordered_ops)):
            raise EncodeError(f"op '{op.name}' refers to attributes, types or op names its template "
                              "does not have, so it cannot be written after the tables")

    def _number_region(self, region: Region) -> None:
        if not region.blocks:
            return
        first = self._next_id
        value_ids = self.value_ids
        for i, block in enumerate(region.blocks):
            self.block_ids[block] = i
            for arg in block.arguments:
                value_ids[arg] = self._next_id
                self._next_id += 1
                self.number_attr(arg.location)
                self.number_type(arg.type)
            for op in block.operations:
                self._number_op(op)
        count = self._next_id - first
        declared = self._declared.get(region)
        if declared is not None and declared[1] == count:
            # The template's region declared more values than it defines; nested regions were numbered
            # after the declared range, so keep it.
            count = declared[0]
            self._next_id = first + count
        self.region_values[region] = count

    def _number_op(self, op: Operation) -> None:
        # Once per op: the common cases (an attribute or type seen before) are counted inline.
        self._number_op_name(op)
        value_ids = self.value_ids
        types = self.maps[TYPE]
        for res in op.results:
            value_ids[res] = self._next_id
            self._next_id += 1
            e = types.get(res.type)
            if e is not None:
                e.refcount += 1
            else:
                self._number_new(TYPE, res.type)
        attrs, plan = self._op_parts(op)
        self.op_parts[op] = (attrs, plan)
        if attrs is not None:
            self.number_attr(attrs)
        if plan is not None and plan[0] == "tokens":
            for t in plan[1]:  # type: ignore[attr-defined]
                if type(t) is tuple:
                    rk, obj = t
                    if rk == REF_ATTR or rk == REF_OPT_ATTR:
                        self.number_attr(obj)
                    elif rk == REF_TYPE:
                        self.number_type(obj)
                    elif rk == REF_RESOURCE:
                        self._number_resources([obj])
        loc = op.location
        e = self.maps[ATTR].get(loc)
        if e is not None:
            e.refcount += 1
        elif not isinstance(loc, Attribute):
            raise EncodeError(f"op '{op.name}' has a location that is not an attribute")
        else:
            self._number_new(ATTR, loc)

    # -- dictionary and properties of one op ------------------------------------------------------
    def _op_parts(self, op: Operation) -> tuple[DictionaryAttr | None, PropsPlan | None]:
        attrs = op.attributes
        if attrs is not None and not isinstance(attrs, DictionaryAttr):
            raise EncodeError(f"op '{op.name}' has an attribute dictionary that is not a "
                              "DictionaryAttr")
        props = op.properties
        if self.version < 5:
            if props is None or props.kind == PROPS_ATTRIBUTE:
                # Upstream drops an unregistered op's properties below v5 without a diagnostic.
                return _non_empty(attrs), None
            if props.kind == PROPS_DECODED:
                model = self.registry.op(op.name).model
                natives = {f.name for f in getattr(model, "natives", ())}
                # Only inherent *attributes* join the dictionary; native properties are lost below
                # v5, as upstream loses them.
                values = {k: v for k, v in props.values.items() if k not in natives}
                return _non_empty(merge_properties(values, attrs)), None
            raise EncodeError(f"cannot write op '{op.name}' at version {self.version}: its "
                              f"properties could not be decoded ({props.reason or 'no model'}), so "
                              "they cannot be merged into its attribute dictionary")
        if props is None:
            model = self._props_model(op)
            if model is None:
                return _non_empty(attrs), None
            values, rest = split_properties(model, attrs)
            return _non_empty(rest), ("tokens", self._encode_props(op, model, values))
        if self._reuse_raw(props.raw):
            return _non_empty(attrs), ("raw", props.raw)
        if props.kind == PROPS_ATTRIBUTE:
            if props.attribute is None:
                return _non_empty(attrs), None
            return _non_empty(attrs), ("tokens", [(REF_ATTR, props.attribute)])
        if props.kind == PROPS_DECODED:
            model = self.registry.op(op.name).model
            if model is None:
                raise EncodeError(f"cannot encode the properties of op '{op.name}': no model for it "
                                  "in the registry")
            return _non_empty(attrs), ("tokens", self._encode_props(op, model, props.values))
        if props.kind == PROPS_FALLBACK:
            if self.template is None:
                raise EncodeError(f"op '{op.name}' has properties kept as opaque bytes ("
                                  f"{props.reason or 'no model'}); they can only be written with the "
                                  "file they were read from as template")
            raise EncodeError(f"op '{op.name}' has properties kept as opaque bytes; they cannot be "
                              f"written at version {self.version} (the template is version "
                              f"{self.template_version})")
        raise EncodeError(f"op '{op.name}' has properties of unknown kind '{props.kind}'")

    def _reuse_raw(self, raw: bytes | memoryview | None) -> bool:
        return raw is not None and self.template is not None and \
            self.version == self.template_version

    def _props_model(self, op: Operation) -> OpModel | None:
        """The model of a registered op that has properties although the IR holds none (IR from text, or
        from a file older than v5): its inherent attributes are then in the dictionary."""
        model = self._model(self.op_name(op.op_name))
        if model is None:
            return None
        try:
            return model if model.has_properties() else None
        except Exception as exc:
            raise EncodeError(f"the model of '{op.name}' failed: {exc}") from None

    def _encode_props(self, op: Operation, model: OpModel, values: dict[str, Attribute]
                      ) -> list[Token]:
        key = (id(model), *values.items())
        hit = self._props_cache.get(key)
        if hit is not None:
            return hit
        rec = Recorder(self.version)
        try:
            model.encode_properties(values, rec)
        except Exception as exc:
            raise EncodeError(f"cannot encode the properties of op '{op.name}' at version "
                              f"{self.version}: {exc}") from None
        tokens = rec.finish()
        self._props_cache[key] = tokens
        return tokens

    # -- final order ------------------------------------------------------------------------------
    def finalize(self) -> None:
        for kind in (ATTR, TYPE):
            _order(self.ordered[kind], self.seeded[kind])
        _order(self.ordered_ops, self.seeded_ops)

    def attr_index(self, a: object) -> int:
        try:
            return self.maps[ATTR][a].index
        except KeyError:
            raise EncodeError(f"attribute {a!r:.80} was not numbered") from None

    def type_index(self, t: object) -> int:
        try:
            return self.maps[TYPE][t].index
        except KeyError:
            raise EncodeError(f"type {t!r:.80} was not numbered") from None


def _order(entries: list[Entry], seeded: int) -> None:
    """Stable sort by reference count, then regroup by dialect per byte group (format 11.4).

    Seeded (template) entries keep their places; new ones follow, sorted by reference count only.
    """
    if seeded:
        tail = entries[seeded:]
        tail.sort(key=lambda e: -e.refcount)
        entries[seeded:] = tail
    else:
        entries.sort(key=lambda e: -e.refcount)
        _group_by_dialect(entries)
    for i, e in enumerate(entries):
        e.index = i


def _group_by_dialect(entries: list[Entry]) -> None:
    first = 0
    size = 0
    pos = 0
    n = len(entries)
    for g in range(1, _MAX_BYTE_GROUPS + 1):
        if pos >= n:
            break
        size = (1 << (7 * g)) - size
        chunk = entries[pos:pos + size]
        pref = first
        chunk.sort(key=lambda e: (e.dialect != pref, e.dialect))
        entries[pos:pos + len(chunk)] = chunk
        first = chunk[-1].dialect
        pos += len(chunk)


def _non_empty(d: DictionaryAttr | None) -> DictionaryAttr | None:
    return d if d is not None and d.entries else None


def _resources_in_text(tokens: list[Token]) -> list[str]:
    text = tokens[0] if tokens else b""
    if not isinstance(text, bytes) or b"dense_resource<" not in text:
        return []
    keys = []
    for m in _RESOURCE_IN_TEXT.finditer(text.decode("utf-8", "surrogateescape")):
        key = m.group(1)
        if key.startswith('"'):
            key = key[1:-1]
        keys.append(key)
    return keys


def _print(kind: int, x: object) -> str:
    """Text of a builtin attribute/type without a custom encoding (MLIR's textual fallback form)."""
    if isinstance(x, FloatType):
        return x.name
    try:
        if kind == ATTR:
            return str(attr_printer.print_attribute(x))  # type: ignore[arg-type]
        return str(attr_printer.print_type(x))  # type: ignore[arg-type]
    except Exception as exc:
        raise EncodeError(f"cannot print {_KIND[kind]} {x!r:.80} as text: {exc}") from None
