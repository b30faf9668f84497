"""The StableHLO view on JAX exports no test wrote, against jaxlib.

    python benchmarks/stablehlo_heldout.py [--only REGEX] [--targets N] [--keep DIR]

The corpus holds a few JAX exports; real ones use far more of StableHLO.  This run exports `PROGRAMS` (a
zoo of JAX functions: convolutions, gathers and scatters, sorts, loops and conditionals, FFT, linear
algebra, random bits, complex and narrow float types, shape polymorphism, collectives under `shard_map`,
composites, ...) with `jax.export`, and serializes each for the newest target and `--targets` N older ones
(`serialize_portable_artifact`).  For each artifact:

* the StableHLO view (`--form auto`), local scope and with aliases, against jaxlib's
  `deserialize_portable_artifact` printed with debug info, line by line;
* the unchanged view read back and saved: the artifact's own bytes;
* `encode --target T` of the view for the artifact's target: jaxlib's bytes for that target.

Prints the counts and the first difference of each kind; `--keep DIR` keeps each artifact that differs.
Needs the `stablehlo` extra (jax, jaxlib).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.models.registry import Registry  # noqa: E402
from mlirbc.view.aliasing import alias_rules  # noqa: E402
from mlirbc.view.forms import print_form, shown, to_stored  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402


def _programs() -> dict[str, tuple[Callable[..., Any], list[Any]]]:
    """name -> (function, example arguments): what `jax.export` exports."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    f32 = jnp.float32
    x4 = jnp.ones((4,), f32)
    m = jnp.ones((4, 4), f32)
    img = jnp.ones((1, 8, 8, 3), f32)
    ker = jnp.ones((3, 3, 3, 4), f32)

    def conv(a: Any, k: Any) -> Any:
        return lax.conv_general_dilated(a, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def grouped_conv(a: Any, k: Any) -> Any:
        return lax.conv_general_dilated(a, k, (2, 2), ((1, 1), (0, 1)), rhs_dilation=(1, 2),
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=3)

    def pools(a: Any) -> Any:
        mx = lax.reduce_window(a, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        av = lax.reduce_window(a, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME")
        return mx, av

    def gather_scatter(a: Any, i: Any) -> Any:
        return a[i], a.at[i].add(1.0), a.at[i].max(2.0)

    def sorts(a: Any, b: Any) -> Any:
        return jnp.sort(a), jnp.argsort(a), lax.sort((a, b), num_keys=1), lax.top_k(a, 2)

    def loops(n: Any, a: Any) -> Any:
        w = lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2.0), (0, a))
        f = lax.fori_loop(0, 3, lambda i, v: v + i, a)
        s = lax.scan(lambda c, v: (c + v, c * v), 0.0, a)
        return w, f, s

    def branches(p: Any, i: Any, a: Any) -> Any:
        c = lax.cond(p, lambda v: v + 1.0, lambda v: v - 1.0, a)
        s = lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], a)
        return c, s

    def spectral(a: Any) -> Any:
        return jnp.fft.fft(a), jnp.fft.irfft(jnp.fft.rfft(a)), jnp.fft.fft2(a.reshape(2, 2))

    def linalg(a: Any, b: Any) -> Any:
        spd = a @ a.T + 4.0 * jnp.eye(4)
        ch = jnp.linalg.cholesky(spd)
        tri = lax.linalg.triangular_solve(ch, b, left_side=True, lower=True)
        return ch, tri, jnp.linalg.qr(a), jnp.linalg.eigh(spd)

    def randomness(seed: Any) -> Any:
        key = jax.random.PRNGKey(seed)
        bits = lax.rng_bit_generator(jnp.zeros((4,), jnp.uint32), (2, 2))
        return jax.random.normal(key, (3,)), jax.random.uniform(key, (2,)), bits

    def complex_math(a: Any, b: Any) -> Any:
        z = lax.complex(a, b)
        return jnp.abs(z), jnp.angle(z), (z * z).real, jnp.exp(z).imag, jnp.conj(z)

    def narrow_types(a: Any) -> Any:
        h = a.astype(jnp.bfloat16)
        q = a.astype(jnp.float8_e4m3fn)
        i = a.astype(jnp.int8)
        u = a.astype(jnp.uint32)
        return (h * h).astype(jnp.float16), q.astype(f32), i >> 1, u << 2, lax.population_count(u), \
            lax.clz(u), lax.reduce_precision(a, exponent_bits=5, mantissa_bits=10)

    def elementwise(a: Any, b: Any) -> Any:
        return (jnp.arctan2(a, b), jnp.expm1(a), jnp.log1p(b), jnp.isfinite(a), lax.erf(a),
                lax.erf_inv(a / 8), jax.nn.sigmoid(a), jnp.remainder(a, b), jnp.clip(a, 0.0, 1.0),
                jnp.where(a > b, a, b),
                lax.lgamma(b + 1.0), lax.digamma(b + 1.0), jnp.cbrt(a), jnp.round(a), jnp.sign(a))

    def shapes(a: Any, i: Any) -> Any:
        p = jnp.pad(a, ((1, 2), (0, 1)))
        r = jnp.flip(a, 0)
        t = a.T
        c = jnp.concatenate([a, a], 1)
        d = lax.dynamic_slice(a, (i, 0), (2, 4))
        u = lax.dynamic_update_slice(a, jnp.zeros((1, 4)), (i, 0))
        return p, r, t, c, d, u, jnp.broadcast_to(a[0], (3, 4)), lax.bitcast_convert_type(a, jnp.int32), \
            jnp.arange(6).reshape(2, 3), jnp.einsum("ij,jk->ik", a, a)

    def matmuls(a: Any, b: Any) -> Any:
        hi = lax.dot_general(a, b, (((1,), (0,)), ((), ())), precision=lax.Precision.HIGHEST)
        ty = lax.dot_general(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16), (((1,), (0,)), ((), ())),
                             preferred_element_type=f32)
        return hi, ty, jnp.matmul(a[None], b[None])

    def training(w: Any, x: Any) -> Any:
        def loss(w: Any) -> Any:
            return jnp.mean(jax.nn.softmax(x @ w) ** 2)
        return jax.value_and_grad(loss)(w)

    def layer_norm(x: Any) -> Any:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) * lax.rsqrt(var + 1e-5), jnp.max(x, 1), jnp.argmax(x, 1), jnp.cumsum(x, 0)

    def batched(a: Any) -> Any:
        return jax.vmap(lambda r: jnp.outer(r, r).sum())(a)

    def more_reductions(a: Any, i: Any) -> Any:
        return (lax.cumlogsumexp(a, 0), jnp.take_along_axis(a, i[:, None] % 4, 1), jax.nn.one_hot(i, 4),
                jnp.any(a > 1.0), jnp.all(a < 2.0, 1), lax.select_n(i % 2, a[0], a[1]), jnp.linalg.svd(a),
                lax.clamp(0.5, a, 1.5), jnp.power(i, 3), jnp.searchsorted(a[0], 0.5))

    def transposed_conv(a: Any, k: Any) -> Any:
        return lax.conv_transpose(a, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def small_ints(a: Any) -> Any:
        q = a.astype(jnp.int4)
        u = a.astype(jnp.uint4)
        e = a.astype(jnp.float8_e5m2)
        return q.astype(jnp.int32), u.astype(jnp.int32), e.astype(jnp.float32), (a > 0) ^ (a < 2)

    def transformer_step(params: Any, tokens: Any) -> Any:
        """A training step of a small transformer (embedding, scanned layers of attention and MLP, loss
        and gradients): the size and mix of a real export."""
        def layer(h: Any, w: Any) -> Any:
            q, k, v = (h @ w[0], h @ w[1], h @ w[2])
            att = jax.nn.softmax(q @ k.T / 4.0 + jnp.triu(jnp.full((8, 8), -1e9), 1), axis=-1)
            h = h + (att @ v) @ w[3]
            mu = h.mean(-1, keepdims=True)
            h = (h - mu) * lax.rsqrt(((h - mu) ** 2).mean(-1, keepdims=True) + 1e-6)
            return h + jax.nn.gelu(h @ w[4]) @ w[5], None

        def loss(p: Any) -> Any:
            h = p["embed"][tokens]
            h, _ = lax.scan(layer, h, p["layers"])
            logits = h @ p["embed"].T
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), tokens[:, None], 1))

        value, grads = jax.value_and_grad(loss)(params)
        return value, jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)

    def barrier(a: Any) -> Any:
        b, c = lax.optimization_barrier((a + 1.0, a * 2.0))
        return b - c

    programs: dict[str, tuple[Callable[..., Any], list[Any]]] = {
        "conv": (conv, [img, ker]),
        "grouped_conv": (grouped_conv, [jnp.ones((1, 9, 9, 6), f32), jnp.ones((3, 3, 2, 6), f32)]),
        "pools": (pools, [img]),
        "gather_scatter": (gather_scatter, [x4, jnp.array([0, 2, 2], jnp.int32)]),
        "sorts": (sorts, [x4, jnp.arange(4, dtype=jnp.int32)]),
        "loops": (loops, [jnp.int32(3), x4]),
        "branches": (branches, [jnp.bool_(True), jnp.int32(1), x4]),
        "spectral": (spectral, [x4]),
        "linalg": (linalg, [m, m]),
        "randomness": (randomness, [jnp.int32(7)]),
        "complex_math": (complex_math, [x4, x4]),
        "narrow_types": (narrow_types, [x4]),
        "elementwise": (elementwise, [x4, x4 + 1.0]),
        "shapes": (shapes, [m, jnp.int32(1)]),
        "matmuls": (matmuls, [m, m]),
        "training": (training, [m, m]),
        "layer_norm": (layer_norm, [m]),
        "batched": (batched, [m]),
        "barrier": (barrier, [x4]),
        "more_reductions": (more_reductions, [m, jnp.arange(4, dtype=jnp.int32)]),
        "transposed_conv": (transposed_conv, [img, ker]),
        "small_ints": (small_ints, [x4]),
        "transformer_step": (transformer_step, [{"embed": jnp.ones((32, 16), f32),
                                                  "layers": jnp.ones((4, 6, 16, 16), f32)},
                                                 jnp.arange(8, dtype=jnp.int32)]),
    }
    if hasattr(lax, "composite"):
        def gelu(a: Any) -> Any:
            return lax.composite(lambda v: jax.nn.gelu(v), name="my.gelu", version=2)(a)

        programs["composite"] = (gelu, [x4])
    return programs


def _exports(only: str) -> dict[str, str]:
    """name -> the exported module's StableHLO text (and shape-polymorphic and sharded variants)."""
    import jax
    import jax.numpy as jnp
    from jax import export
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    out: dict[str, str] = {}
    for name, (fn, args) in _programs().items():
        if not re.search(only, name):
            continue
        try:
            out[name] = export.export(jax.jit(fn))(*args).mlir_module()
        except Exception as exc:  # a program this jax cannot export is reported, not fatal
            print(f"{name}: jax cannot export it: {type(exc).__name__}: {str(exc)[:120]}", file=sys.stderr)
    if re.search(only, "polymorphic"):
        b = export.symbolic_shape("b, 4")
        spec = jax.ShapeDtypeStruct(b, jnp.float32)
        out["polymorphic"] = export.export(jax.jit(lambda a: jnp.tanh(a @ a.T).sum(0)))(spec).mlir_module()
    if re.search(only, "sharded"):
        mesh = Mesh(jax.devices()[:1], ("x",))
        shard = NamedSharding(mesh, PartitionSpec("x"))

        def body(v: Any) -> Any:
            total = jax.lax.psum(v, "x") + jax.lax.all_gather(v, "x").sum(0)
            moved = jax.lax.ppermute(total, "x", [(0, 0)])
            scattered = jax.lax.psum_scatter(moved, "x", tiled=True)
            swapped = jax.lax.all_to_all(scattered.reshape(1, -1), "x", 0, 0, tiled=True).reshape(-1)
            return swapped + jax.lax.axis_index("x").astype(v.dtype)

        def collective(a: Any) -> Any:
            spec = PartitionSpec("x")
            return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec)(a)

        try:
            out["sharded"] = export.export(jax.jit(collective, in_shardings=shard, out_shardings=shard))(
                jnp.ones((4,), jnp.float32)).mlir_module()
        except Exception as exc:
            print(f"sharded: jax cannot export it: {type(exc).__name__}: {str(exc)[:120]}", file=sys.stderr)
    return out


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.first: dict[str, str] = {}

    def miss(self, kind: str, where: str, detail: str) -> None:
        self.counts[kind] += 1
        self.first.setdefault(kind, f"{where}: {detail}")


def _lines(text: str) -> list[str]:
    return [line for line in text.rstrip("\n").split("\n") if not line.lstrip().startswith("// mlirbc:")]


def check(data: bytes, target: str, reg: Registry, where: str, tally: Tally) -> bool:
    """The view of one artifact against jaxlib; True when every check holds."""
    from stablehlo_oracle import legalized_print, serialize_at

    ok = True
    module = decode_bytecode(data, reg)
    if module.error is not None or module.root is None:
        tally.miss("did not decode", where, str(module.error))
        return False
    v = shown(module, reg, "auto")
    if v.conversion is None or v.module.view != "stablehlo":
        tally.miss("no StableHLO view", where, str(getattr(v, "note", "")))
        return False
    for local in (True, False):
        rules = None if local else alias_rules(v.module, reg)
        printed = print_module(v.module, form=print_form("auto", v), registry=reg, aliases=rules)
        ours = _lines(printed.text)
        theirs = _lines(legalized_print(data, local_scope=local))
        mode = "local" if local else "aliased"
        if ours == theirs:
            tally.counts[f"identical ({mode})"] += 1
        else:
            ok = False
            i = next((k for k, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                     min(len(ours), len(theirs)))
            a = ours[i] if i < len(ours) else "<end>"
            b = theirs[i] if i < len(theirs) else "<end>"
            tally.miss(f"differs ({mode})", where,
                       f"line {i + 1}\n      ours:   {a[:220]}\n      theirs: {b[:220]}")
        back = parse_module(printed.text, template=v.module, registry=reg)
        if back.module is None:
            ok = False
            why = back.errors[0].message if back.errors else ""
            tally.miss(f"view does not read back ({mode})", where, why)
            continue
        saved = encode_bytecode(to_stored(back.module, reg, v), template=module, registry=reg)
        if saved == data:
            tally.counts[f"saved unchanged ({mode})"] += 1
        else:
            ok = False
            tally.miss(f"saved other bytes ({mode})", where, f"{len(saved)} vs {len(data)} bytes")
    theirs_fresh = serialize_at(data, target)
    if isinstance(theirs_fresh, bytes) and v.view is not None:
        try:
            fresh = encode_bytecode(v.view.fresh(v.module, target), registry=reg)
        except Exception as exc:
            ok = False
            tally.miss("encode --target refused", where, f"{type(exc).__name__}: {exc}")
        else:
            if fresh == theirs_fresh:
                tally.counts["encode --target equals jaxlib"] += 1
            else:
                ok = False
                tally.miss("encode --target differs", where, f"{len(fresh)} vs {len(theirs_fresh)} bytes")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="only programs whose name matches this regex")
    ap.add_argument("--targets", type=int, default=3, help="older targets to serialize each program for")
    ap.add_argument("--keep", type=Path, help="keep each artifact that differs here")
    args = ap.parse_args()
    from stablehlo_oracle import available, serialize_text, targets

    if not available():
        print("jax/jaxlib are not installed (the `stablehlo` extra)", file=sys.stderr)
        return 1
    reg = models()
    tally = Tally()
    all_targets = targets()
    # the newest, the oldest and evenly spread ones between
    step = max(1, (len(all_targets) - 1) // max(1, args.targets))
    chosen = sorted({all_targets[-1], *all_targets[::step][:args.targets]}, key=all_targets.index)
    for name, text in _exports(args.only).items():
        for target in chosen:
            data = serialize_text(text, target, other_dialects="sdy." in text)
            where = f"{name} @ {target}"
            if isinstance(data, str):
                tally.counts["jaxlib refuses the target"] += 1
                continue
            tally.counts["artifacts"] += 1
            if not check(data, target, reg, where, tally) and args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"{name}.{target}.mlirbc").write_bytes(data)
        print(f"{name}: {dict(tally.counts)}", file=sys.stderr, flush=True)
    print(f"targets: {', '.join(chosen)}")
    print("| what | count |\n|---|---|")
    for k, n in sorted(tally.counts.items()):
        print(f"| {k} | {n} |")
    for k, detail in sorted(tally.first.items()):
        print(f"\n{k}: {detail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
