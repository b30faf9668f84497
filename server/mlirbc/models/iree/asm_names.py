"""Result names IREE's ops give themselves (ports of IREE's `getAsmResultNames`): `%buffer_cst`,
`%c42`, `%zero`, `%__device_0`, `%workgroup_id_x`, ...

`SIMPLE` lists the ops whose method names results by fixed strings (result by ODS name -> name); the
functions below port the ones that read the op (a constant's value, a global's symbol, a dimension).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...ir.attributes import FlatSymbolRefAttr, IntegerAttr, StringAttr, SymbolRefAttr
from ...ir.operation import Operation
from ...ir.types import VectorType
from ..asm.adaptor import OpView
from ..asm.names import BlockNamesFn, NamesFn, group_heads, int_value, type_suffix

SIMPLE: dict[str, list[tuple[str, str]]] = {
    "flow.channel.count": [('result', 'channel_count')],
    "flow.channel.default": [('result', 'default_channel')],
    "flow.channel.rank": [('result', 'channel_rank')],
    "flow.channel.split": [('result', 'channel')],
    "hal.allocator.allocate": [('result', 'buffer')],
    "hal.allocator.import": [('did_import', 'did_import'), ('result', 'mapped')],
    "hal.allocator.select": [('selected_device', 'device'), ('selected_queue_affinity', 'queue_affinity')],
    "hal.buffer.allocation.discard": [('result', 'was_terminal')],
    "hal.buffer.allocation.is_terminal": [('result', 'is_terminal')],
    "hal.buffer.length": [('result', 'length')],
    "hal.buffer.subspan": [('result', 'buffer')],
    "hal.buffer_usage": [('result', 'buffer_usage')],
    "hal.buffer_view.buffer": [('result', 'buffer')],
    "hal.buffer_view.create": [('result', 'view')],
    "hal.channel.create": [('result', 'channel')],
    "hal.channel.rank_and_count": [('rank', 'ccl_rank'), ('count', 'ccl_count')],
    "hal.channel.split": [('result', 'channel')],
    "hal.command_buffer.create": [('result', 'cmd')],
    "hal.device.allocator": [('result', 'allocator')],
    "hal.device.queue.alloca": [('result', 'transient_buffer')],
    "hal.devices.count": [('result', 'device_count')],
    "hal.ex.file.from_memory": [('result', 'memory_file')],
    "hal.executable.export.ordinal": [('result', 'ordinal')],
    "hal.executable.lookup": [('result', 'exe')],
    "hal.executable.lookup.function": [('result', 'function_id')],
    "hal.fence.await": [('status', 'status')],
    "hal.fence.create": [('result', 'fence')],
    "hal.fence.join": [('result', 'fence')],
    "hal.memory_type": [('result', 'memory_type')],
    "hal_inline.buffer.allocate": [('result', 'buffer'), ('storage', 'storage')],
    "hal_inline.buffer.allocate.initialized": [('result', 'buffer'), ('storage', 'storage')],
    "hal_inline.buffer.length": [('result', 'length')],
    "hal_inline.buffer.storage": [('result', 'storage')],
    "hal_inline.buffer.subspan": [('result', 'buffer')],
    "hal_inline.buffer.wrap": [('result', 'mapped')],
    "hal_inline.buffer_view.buffer": [('result', 'buffer')],
    "hal_inline.buffer_view.create": [('result', 'view')],
    "hal_loader.executable.export.ordinal": [('result', 'ordinal')],
    "hal_loader.executable.load": [('result', 'exe')],
    "hal_loader.executable.lookup": [('result', 'exe')],
    "hal_loader.executable.lookup.function": [('result', 'function_id')],
    "stream.async.constant": [('result', 'cst')],
    "stream.channel.count": [('result', 'ccl_count')],
    "stream.channel.create": [('result', 'channel')],
    "stream.channel.rank": [('result', 'ccl_rank')],
    "stream.channel.split": [('result', 'channel')],
    "stream.file.constant": [('result', 'file')],
    "stream.resource.is_terminal": [('result', 'is_terminal')],
    "stream.resource.release": [('result', 'is_terminal')],
    "stream.tensor.constant": [('result', 'cst')],
    "stream.tensor.empty": [('result', 'empty')],
    "util.buffer.alloc": [('result', 'buffer')],
    "util.buffer.size": [('result', 'buffer_size')],
    "util.buffer.slice": [('result', 'buffer')],
    "util.buffer.storage": [('result', 'buffer_storage'), ('offset', 'buffer_offset')],
    "util.buffer.subspan": [('result', 'buffer_span')],
    "util.string.itoa": [('result', 'itoa')],
}


def _named(pairs: list[tuple[str, str]]) -> NamesFn:
    def fn(v: OpView) -> list[tuple[int, str]]:
        out = []
        for result, name in pairs:
            group = v.result_groups().get(result)
            if group is None and result == "result" and len(v.op.results) == 1:
                group = list(v.op.results)  # OneResult's getResult(), whatever ODS calls the result
            if group:
                out.append((group[0].index, name))
        return out
    return fn


def _first(name: Callable[[OpView], str | None]) -> NamesFn:
    def fn(v: OpView) -> list[tuple[int, str]]:
        if not v.op.results:
            return []
        text = name(v)
        return [(0, text)] if text else []
    return fn


def _vm(name: Callable[[OpView], str | None]) -> NamesFn:
    """VM's setResultName: a `v` before the name of a vector result."""
    def text(v: OpView) -> str | None:
        base = name(v)
        if base is None:
            return None
        return ("v" if isinstance(v.op.results[0].type, VectorType) else "") + base
    return _first(text)


def _symbol(v: OpView, attr: str) -> str | None:
    a = v.attr(attr)
    if isinstance(a, FlatSymbolRefAttr):
        return a.root.value.decode("utf-8", "surrogateescape")
    if isinstance(a, SymbolRefAttr):
        return a.root.value.decode("utf-8", "surrogateescape")
    return None


def _vm_integer(v: OpView) -> str:
    value = v.attr("value")
    if not isinstance(value, IntegerAttr):
        return "c"
    n = int_value(value)
    return "zero" if n == 0 else f"c{n}"


def _dimension(prefix: str, letters: bool) -> NamesFn:
    def name(v: OpView) -> str | None:
        dim = v.attr("dimension")
        if not isinstance(dim, IntegerAttr):
            return None
        n = dim.bits
        if letters:
            return prefix + "xyz"[n] if n < 3 else None
        return f"{prefix}{n}"
    return _first(name)


def _devices_get(v: OpView) -> str:
    """`device_N` when the index is a constant (`m_ConstantInt`), else `device_n`."""
    operand = v.op.operands[0] if v.op.operands else None
    owner = getattr(operand, "owner", None)
    if isinstance(owner, Operation) and owner.op_name.full == "arith.constant":
        value = OpView(owner, {}).attr("value")
        if isinstance(value, IntegerAttr):
            return f"device_{value.bits}"
    return "device_n"


def _encoding_type(v: OpView) -> str | None:
    return None if v.attr("encoding") is not None else "dense_row_major"


def _global_address(v: OpView) -> str | None:
    name = _symbol(v, "global")
    return None if name is None else "ptr_" + name


def _memory_properties(v: OpView) -> list[tuple[int, str]]:
    return [(0, "memory_types"), (1, "buffer_usage")][:len(v.op.results)]


def _import_resolved(v: OpView) -> str | None:
    name = _symbol(v, "import")
    return None if name is None else re.sub(r"[^A-Za-z0-9_]", "_", "has_" + name)


def _buffer_constant(v: OpView) -> str:
    name = v.attr("name")
    return name.value.decode("utf-8", "surrogateescape") if isinstance(name, StringAttr) else "buffer_cst"


def _string_format(v: OpView) -> str:
    """StringFormatOp::getAsmResultNames: the format string with `N` for each `{...}` placeholder, `_` for
    `.`, `-` and `/`, other characters but letters, digits and `_` left out (escaped braces too), up to 32
    characters; `formatted` when nothing is left."""
    fmt = v.attr("format")
    text = fmt.value if isinstance(fmt, StringAttr) else b""
    out: list[str] = []
    i = 0
    while i < len(text) and len(out) < 32:
        c = chr(text[i])
        if c in "{}" and text[i + 1:i + 2] == c.encode():
            i += 2
        elif c == "{":
            close = text.find(b"}", i + 1)
            if close < 0:
                break
            out.append("N")
            i = close + 1
        elif c in ".-/":
            out.append("_")
            i += 1
        else:
            if c == "_" or (c.isascii() and c.isalnum()):
                out.append(c)
            i += 1
    return "".join(out) or "formatted"


def _element_type(v: OpView) -> str | None:
    t = v.attr("type")
    inner = getattr(t, "type", None)
    return None if inner is None else "element_type_" + type_suffix(inner)





def _fixed_vm(name: str) -> NamesFn:
    return _vm(lambda v: name)


def _vm_names() -> dict[str, NamesFn]:
    out: dict[str, NamesFn] = {}
    for t in ("i32", "i64"):
        for cmp in ("eq", "ne", "nz"):
            out[f"vm.cmp.{cmp}.{t}"] = _fixed_vm(cmp)
        for cmp in ("lt", "lte", "gt", "gte"):
            for sign in ("s", "u"):
                out[f"vm.cmp.{cmp}.{t}.{sign}"] = _fixed_vm(sign + cmp)
        out[f"vm.const.{t}"] = _vm(_vm_integer)
        out[f"vm.const.{t}.zero"] = _vm(lambda v: "zero")
    for t in ("f32", "f64"):
        out[f"vm.const.{t}.zero"] = _vm(lambda v: "zero")
    for cmp, name in (("eq", "req"), ("ne", "rne"), ("nz", "rnz")):
        out[f"vm.cmp.{cmp}.ref"] = _fixed_vm(name)
    out["vm.const.ref.zero"] = _vm(lambda v: "null")
    out["vm.const.ref.rodata"] = _vm(lambda v: _symbol(v, "rodata"))
    for t in ("i32", "i64", "f32", "f64", "ref"):
        out[f"vm.global.load.{t}"] = _vm(lambda v: _symbol(v, "global"))
    out["vm.import.resolved"] = _vm(_import_resolved)
    return out


def _vm_dialect(v: OpView) -> list[tuple[int, str]]:
    """The VM dialect's OpAsmDialectInterface names the first result of its other ops by type: `%ref`,
    `%buffer`, `%list` for references, a `v` before a vector's (numbered otherwise)."""
    if not v.op.results:
        return []
    decl = v.data.get("results", [])
    if len(decl) >= 2 and any(n for n, _, _ in decl) and "asm_interface" not in v.data:
        return []  # mlir-tblgen gives it an OpAsmOpInterface naming its results (the ODS names) instead
    t = v.op.results[0].type
    name = "v" if isinstance(t, VectorType) else ""
    text = type_suffix(t)
    if text.startswith(("!vm.buffer", "!vm.list")):
        # a reference to a buffer or a list, in its short spelling (`!vm.buffer` is `!vm.ref<!vm.buffer>`)
        name += "buffer" if text.startswith("!vm.buffer") else "list"
    elif text.startswith("!vm.ref<"):
        inner = text[len("!vm.ref<"):]
        name += "buffer" if inner.startswith("!vm.buffer") else \
            "list" if inner.startswith("!vm.list") else "ref"
    return [(0, name)] if name else []


class _Names(dict[str, NamesFn]):
    """IREE's result names; the VM dialect's ops without a method of their own get its dialect's."""

    def get(self, key: str, default: NamesFn | None = None) -> NamesFn | None:  # type: ignore[override]
        found = super().get(key)
        if found is None and key.startswith("vm."):
            return _vm_dialect
        return found if found is not None else default


RESULT_NAMES: dict[str, NamesFn] = _Names({
    **{op: _named(pairs) for op, pairs in SIMPLE.items()},
    **_vm_names(),
    **{f"{d}.dispatch.workgroup.{k}": _dimension(f"workgroup_{k}_", False)
       for d in ("flow", "stream") for k in ("id", "count", "size")},
    **{f"hal.interface.workgroup.{k}": _dimension(f"workgroup_{k}_", True) for k in ("id", "count", "size")},
    "hal.devices.get": _first(_devices_get),
    "hal.element_type": _first(_element_type),
    "hal.encoding_type": _first(_encoding_type),
    "hal.executable.create": _first(lambda v: "executable"),
    "hal.allocator.resolve_memory_properties": _memory_properties,
    "util.buffer.constant": _first(_buffer_constant),
    "util.string.format": _first(_string_format),
    "util.global.load": _first(lambda v: _symbol(v, "global")),
    "util.global.address": _first(_global_address),
    "iree_codegen.extract_strided_metadata": group_heads,
})


def _pcf_body(generic: bool) -> BlockNamesFn:
    """pcf.generic's / pcf.loop's getAsmBlockArgumentNames: `%id` and (generic) `%count` for the trailing
    index arguments, `%ref` for the result references (the initializer region has none)."""
    def fn(v: OpView, region: int) -> list[tuple[int, str]]:
        op = v.op
        if region != len(op.regions) - 1 or not op.regions[region].blocks:
            return []
        n = len(op.regions[region].blocks[0].arguments)
        results = len(op.results)
        out: list[tuple[int, str]] = []
        if generic:
            index = v.attr("num_index_args")
            leading = v.attr("num_leading_args")
            n_index = index.bits if isinstance(index, IntegerAttr) else 0
            n_lead = leading.bits if isinstance(leading, IntegerAttr) else 0
            iterators = n_index // 2
            out += [(i, "id") for i in range(n - n_index, n - n_index + iterators)]
            out += [(i, "count") for i in range(n - iterators, n)]
            out += [(i, "ref") for i in range(n_lead, n_lead + results)]
        else:
            ids = len(v.operand_groups().get("count", []))
            out += [(i, "id") for i in range(n - ids, n)]
            out += [(i, "ref") for i in range(results)]
        return out
    return fn


BLOCK_NAMES: dict[str, BlockNamesFn] = {"pcf.generic": _pcf_body(True), "pcf.loop": _pcf_body(False)}
"""IREE's block argument names of ops with declarative formats."""
