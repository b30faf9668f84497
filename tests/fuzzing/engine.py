"""Coverage-guided fuzzing of one target with atheris (libFuzzer), in a process of its own.

    python -m fuzzing.engine TARGET --runs N --seed S --stats STATS.json [--findings DIR]

(with `tests/` on `sys.path`.)  The mlirbc package is imported under atheris' instrumentation, so libFuzzer
keeps the inputs that reach new code; new inputs come from the structure-aware mutators of this package
(`custom_mutator`: half of the bytecode mutations, 85% of the text and JSON ones) and libFuzzer's own byte
mutations (the rest), and crossover splices two corpus inputs.
The seeds are the corpus files of `fuzzing.seeds`.

Every input is classified, never allowed to stop the run: the target's outcome (`rejected`, `decoded`, ...),
`finding` (a broken invariant, `targets.Finding`), `unexpected` (any other exception), plus `slow` for
inputs taking more than `--slow` seconds of CPU time (the process's, worker threads included: on a shared
machine wall time also counts everyone else's work; a real hang still ends the run at libFuzzer's 60 s
`-timeout`, which is wall time).  Findings, unexpected exceptions and the slowest input are saved
to `--findings`.  The statistics (counts per class, slowest input, peak RSS) go to `--stats` as JSON every few
hundred inputs and after the last one, because libFuzzer ends the process without running Python's exit
handlers.  `RLIMIT_AS` bounds memory so that a runaway allocation is a `MemoryError` (counted as unexpected),
never a machine-wide out-of-memory.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGETS = ("reader", "text", "edit", "cycle", "server")
SLOW_SECONDS = 2.0
MAX_LEN = {"reader": 4096, "cycle": 2048, "text": 8192, "edit": 8192, "server": 1 << 18}
"""Input size bounds (libFuzzer's -max_len): small inputs run fast, and the structure-aware mutators
reach deep into them.  The text targets' bound is chosen from their corpus: real views of the seed files
are at most 1.5 KB (the largest seed, a regression input, 5 KB), and every hostile shape the text mutator
makes fits in 8 KB (520 levels of nesting, a 4,400-digit literal; longer literals and strings are cut,
still past the limits they test), while the inputs of 8 to 32 KB a longer bound let the corpus grow to
cost 15 to 25 times a small one (docs/fuzzing.md, "Throughput").  The server keeps room for its 100 KB
strings and 100,000-deep nesting."""
MEMORY_LIMIT = 6 << 30


class Stats:
    def __init__(self, target: str, path: Path, findings: Path, runs: int, slow: float) -> None:
        self.target = target
        self.path = path
        self.findings = findings
        self.runs = runs
        self.slow_limit = slow
        self.inputs = 0
        self.outcomes: Counter[str] = Counter()
        self.mutations: Counter[str] = Counter()
        self.messages: dict[str, str] = {}
        self.slow = 0
        self.slowest = 0.0
        self.slowest_input = ""
        self.started = time.monotonic()
        self.cpu_started = time.process_time()
        self.target_cpu = 0.0
        self.profile: Any = None
        self.profile_path: Path | None = None

    def save_input(self, data: bytes, kind: str) -> str:
        self.findings.mkdir(parents=True, exist_ok=True)
        name = f"{self.target}-{kind}-{hashlib.sha1(data).hexdigest()[:16]}"
        (self.findings / name).write_bytes(data)
        return name

    def record(self, data: bytes, outcome: str, seconds: float, message: str = "") -> None:
        self.inputs += 1
        self.outcomes[outcome] += 1
        self.target_cpu += seconds
        if message:
            key = message.splitlines()[0][:160] if message else ""
            if key not in self.messages:
                self.messages[key] = self.save_input(data, outcome)
        if seconds > self.slow_limit:
            self.slow += 1
            self.save_input(data, "slow")
        if seconds > self.slowest:
            self.slowest = seconds
            self.slowest_input = f"{len(data)} bytes, sha1 {hashlib.sha1(data).hexdigest()[:12]}"
            if seconds > 0.25:
                self.save_input(data, "slowest")
        if self.inputs % 500 == 0 or self.inputs >= self.runs:
            self.write()

    def write(self) -> None:
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        data = {
            "target": self.target, "inputs": self.inputs, "outcomes": dict(self.outcomes),
            "mutations": dict(self.mutations), "messages": self.messages, "slow": self.slow,
            "slowest_seconds": round(self.slowest, 4), "slowest_input": self.slowest_input,
            "peak_rss_mb": round(peak_kb / 1024, 1), "seconds": round(time.monotonic() - self.started, 1),
            # CPU time of the whole process since the first input (libFuzzer, mutators, target) and of the
            # target calls alone: on a shared machine these, not wall time, say what an input costs
            "cpu_seconds": round(time.process_time() - self.cpu_started, 2),
            "target_cpu_seconds": round(self.target_cpu, 2),
        }
        if self.profile is not None and self.profile_path is not None and self.inputs >= self.runs:
            self.profile.disable()
            self.profile.dump_stats(str(self.profile_path))
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1))
        os.replace(tmp, self.path)


def _seed_inputs(target: str) -> list[bytes]:
    from . import seeds
    from .text_mutator import encode_text

    if target in ("reader", "cycle"):
        return [p.read_bytes() for p in seeds.bytecode_seeds()]
    if target in ("text", "edit"):
        return [encode_text(t) for t in seeds.text_seeds()]
    return seeds.server_seeds()


def _byte_mutate(data: bytes, max_size: int, rng: random.Random) -> bytes:
    """libFuzzer's kind of byte-level mutation, for runs outside libFuzzer (`--no-instrument`): a bit
    flipped, a byte set to a boundary value, bytes inserted, erased or repeated."""
    b = bytearray(data)
    kind = rng.randrange(5)
    if not b or kind == 2:
        at = rng.randrange(len(b) + 1)
        b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    elif kind == 0:
        at = rng.randrange(len(b))
        b[at] ^= 1 << rng.randrange(8)
    elif kind == 1:
        b[rng.randrange(len(b))] = rng.choice((0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)))
    elif kind == 3:
        at = rng.randrange(len(b))
        del b[at:at + rng.randint(1, 16)]
    else:
        at = rng.randrange(len(b))
        piece = b[at:at + rng.randint(1, 32)]
        to = rng.randrange(len(b) + 1)
        b[to:to] = piece
    return bytes(b[:max_size])


def _mutators(target: str, seeds: list[bytes], stats: Stats, plain: bool = False) -> tuple[Any, Any]:
    """The target's mutation and crossover functions (libFuzzer's custom-mutator signatures).  With
    `plain` (no libFuzzer), the byte-level share uses `_byte_mutate` instead of libFuzzer's."""
    import atheris

    def byte_level(data: bytes, max_size: int, rng: random.Random) -> bytes:
        stats.mutations["libfuzzer" if not plain else "bytes"] += 1
        return _byte_mutate(data, max_size, rng) if plain else bytes(atheris.Mutate(data, max_size))

    from .bytecode_mutator import Mutator
    from .text_mutator import JsonMutator, TextMutator, decode_text, encode_text

    if target in ("reader", "cycle"):
        bc = Mutator(seeds)

        def mutate(data: bytes, max_size: int, seed: int) -> bytes:
            rng = random.Random(seed)
            if rng.random() < 0.5:  # (half: byte-level mutation reaches as far here, see docs/fuzzing.md)
                return byte_level(data, max_size, rng)
            out, kind = bc.mutate(data, rng)
            stats.mutations[kind] += 1
            return out[:max_size]

        def cross(a: bytes, b: bytes, max_size: int, seed: int) -> bytes:
            rng = random.Random(seed)
            donor = Mutator([b])
            out, _ = donor.mutate(a, rng, kind=rng.choice(("section", "splice")))
            return out[:max_size]

        return mutate, cross
    if target in ("text", "edit"):
        tm = TextMutator([decode_text(s) for s in seeds])

        def mutate_text(data: bytes, max_size: int, seed: int) -> bytes:
            rng = random.Random(seed)
            if rng.random() < 0.15:
                return byte_level(data, max_size, rng)
            out, kind = tm.mutate(decode_text(data), rng)
            stats.mutations[kind] += 1
            return encode_text(out)[:max_size]

        def cross_text(a: bytes, b: bytes, max_size: int, seed: int) -> bytes:
            rng = random.Random(seed)
            out, _ = TextMutator([decode_text(b)]).mutate(decode_text(a), rng, kind="splice")
            return encode_text(out)[:max_size]

        return mutate_text, cross_text
    jm = JsonMutator()

    def mutate_json(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.15:
            return byte_level(data, max_size, rng)
        out, kind = jm.mutate(data, rng)
        stats.mutations[kind] += 1
        return out[:max_size]

    def cross_json(a: bytes, b: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        cut_a, cut_b = rng.randrange(len(a) + 1), rng.randrange(len(b) + 1)
        return (a[:cut_a] + b[cut_b:])[:max_size]

    return mutate_json, cross_json


def _target_function(target: str) -> Callable[[bytes], str]:
    from . import targets

    if target == "server":
        harness = targets.ServerHarness()
        return harness.feed
    fn: Callable[[bytes], str] = getattr(targets, target)
    return fn


def _import_target_modules(target: str) -> None:
    """Import (under instrumentation, when the caller asks for it) the mlirbc modules `target` runs.  Only
    the server target imports the server: lsprotocol's classes and converters are 40,000 objects that
    every full collection of the cyclic collector walks (60 ms more per collection, 10% of the cycle
    target's time, measured in docs/fuzzing.md, "Throughput"), and a third of the process's memory."""
    import importlib

    modules = ["mlirbc.bytecode.reader", "mlirbc.bytecode.writer", "mlirbc.view.printer",
               "mlirbc.view.parser", "mlirbc.view.edits", "mlirbc.view.lexindex", "mlirbc.models.build",
               "mlirbc.models.sets", "mlirbc.files.access"]
    if target == "server":
        modules.append("mlirbc.lsp.server")
    for name in modules:
        importlib.import_module(name)


def _warm_up() -> None:
    """Load every dialect's models now: each is read lazily the first time a file uses the dialect, which
    would make that input look slow."""
    from mlirbc.models.build import default_registry

    reg = default_registry()
    for name in sorted(reg.op_names()):
        reg.op(name)


HANG_SECONDS = 60
"""A plain run's input taking this long (wall time) ends the run, as libFuzzer's `-timeout` does."""


def plain_loop(one_input: Callable[[bytes], None], mutate: Any, cross: Any, pool: list[bytes], stats: Stats,
               runs: int, seed: int, max_len: int, max_seconds: int = 0) -> None:
    """Mutation without coverage feedback: each input is one to four stacked mutations (after a
    crossover one time in ten) of an input drawn from `pool`, which does not grow.

    libFuzzer cannot do this: with no coverage to keep inputs by, it keeps a single one-byte input and
    mutates only that.  From the corpus a coverage-guided run kept, this reaches what that run reached,
    at the speed of the uninstrumented code (a text input 5 ms instead of 20: docs/fuzzing.md)."""
    import signal

    rng = random.Random(seed)
    current = b""

    def hang(signum: int, frame: Any) -> None:
        name = stats.save_input(current, "timeout")
        stats.write()
        print(f"an input ran over {HANG_SECONDS} s: {name}", file=sys.stderr, flush=True)
        os._exit(70)

    signal.signal(signal.SIGALRM, hang)
    started = time.monotonic()
    stats.cpu_started = time.process_time()
    for _ in range(runs):
        data = rng.choice(pool)
        if cross is not None and rng.random() < 0.1:
            data = cross(data, rng.choice(pool), max_len, rng.getrandbits(32))
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
            data = mutate(data, max_len, rng.getrandbits(32))
        current = data
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
        one_input(data)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if max_seconds and time.monotonic() - started > max_seconds:
            break
    stats.write()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="fuzzing.engine")
    p.add_argument("target", choices=TARGETS)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stats", type=Path, required=True)
    p.add_argument("--findings", type=Path, default=None)
    p.add_argument("--slow", type=float, default=SLOW_SECONDS)
    p.add_argument("--max-len", type=int, default=None)
    p.add_argument("--max-seconds", type=int, default=0,
                   help="stop after this much wall time even before --runs inputs (long runs on a shared "
                        "machine: libFuzzer's -max_total_time)")
    p.add_argument("--warm-up", action="store_true",
                   help="load every dialect's models first (long runs: the first use of a dialect would "
                        "count as a slow input)")
    p.add_argument("--corpus", type=Path, action="append", default=[],
                   help="also start from the inputs in this folder (a corpus an earlier run kept: "
                        "continue it, or measure at its input sizes); repeatable")
    p.add_argument("--corpus-dir", type=Path, default=None,
                   help="the corpus folder to use and add to (made with the seeds when missing), shared by "
                        "several workers of one campaign: each reloads it to pick up the others' inputs")
    p.add_argument("--no-instrument", action="store_true",
                   help="no coverage feedback: the structure-aware mutators alone, in this module's own loop "
                        "over the seeds and --corpus inputs (`plain_loop`), at the speed of the plain code")
    p.add_argument("--profile", type=Path, default=None,
                   help="write a cProfile of the fuzzing loop (mutators and target) to this file after "
                        "--runs inputs (where an input's time goes)")
    p.add_argument("--mutator", choices=("structure", "libfuzzer"), default="structure",
                   help="libfuzzer: byte-level mutations only (for comparisons)")
    args = p.parse_args(argv)

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 8000))
    import atheris

    if args.no_instrument:
        _import_target_modules(args.target)
    else:
        with atheris.instrument_imports(include=["mlirbc"]):
            _import_target_modules(args.target)
    from .targets import Finding

    if args.warm_up:
        _warm_up()
    findings = args.findings or args.stats.parent / f"findings-{args.target}"
    stats = Stats(args.target, args.stats, findings, args.runs, args.slow)
    seeds = _seed_inputs(args.target)
    fn = _target_function(args.target)
    mutate, cross = _mutators(args.target, seeds, stats, plain=args.no_instrument)
    if args.mutator == "libfuzzer":
        def mutate(data: bytes, max_size: int, seed: int) -> bytes:  # noqa: F811
            stats.mutations["libfuzzer"] += 1
            return bytes(atheris.Mutate(data, max_size))

        cross = None
    for s in seeds:  # first calls load lazily built tables: not what a slow input means
        try:
            fn(s)
        except Exception:  # noqa: BLE001 - counted when libFuzzer runs the seed
            pass

    def one_input(data: bytes) -> None:
        # CPU time, not wall time: on a shared machine the wall clock also counts other people's work.
        start = time.process_time()
        message = ""
        try:
            outcome = fn(data)
        except Finding as exc:
            outcome, message = "finding", str(exc)
        except Exception as exc:  # noqa: BLE001 - every other exception is what fuzzing looks for
            outcome = "unexpected"
            tb = traceback.extract_tb(exc.__traceback__)
            where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno} {tb[-1].name}" if tb else ""
            message = f"{type(exc).__name__}: {str(exc)[:120]} @ {where}"
        stats.record(data, outcome, time.process_time() - start, message)

    max_len = args.max_len or MAX_LEN[args.target]
    findings.mkdir(parents=True, exist_ok=True)
    args.stats.parent.mkdir(parents=True, exist_ok=True)
    if args.no_instrument:
        pool = list(seeds)
        for folder in args.corpus:
            pool += [q.read_bytes()[:max_len] for q in sorted(folder.iterdir()) if q.is_file()]
        plain_loop(one_input, mutate, cross, pool, stats, args.runs, args.seed, max_len, args.max_seconds)
        return
    # (libFuzzer adds the inputs it keeps to this folder: it lives with the run's statistics, not in /tmp)
    if args.corpus_dir is not None:
        corpus = args.corpus_dir
        corpus.mkdir(parents=True, exist_ok=True)
    else:
        corpus = Path(tempfile.mkdtemp(prefix=f"corpus-{args.target}-", dir=args.stats.parent))
    if not any(corpus.iterdir()):
        for i, s in enumerate(seeds):
            (corpus / f"seed{i:04d}").write_bytes(s)
    # libFuzzer's own artifacts (a crash, a timeout) go with the findings, never into the working folder;
    # slow inputs are counted here (CPU time), not reported by libFuzzer (wall time on a shared machine).
    flags = [f"-runs={args.runs}", f"-seed={args.seed}", f"-max_len={max_len}", "-timeout=60",
             "-rss_limit_mb=0", "-print_final_stats=1", f"-reload={1 if args.corpus_dir else 0}",
             "-close_fd_mask=1",
             f"-artifact_prefix={findings}/", "-report_slow_units=1000000"]
    if args.max_seconds:
        flags.append(f"-max_total_time={args.max_seconds}")
    extra: dict[str, Any] = {"custom_mutator": mutate}
    if cross is not None:
        extra["custom_crossover"] = cross
    atheris.Setup([sys.argv[0], *flags, str(corpus), *map(str, args.corpus)], one_input, **extra)
    stats.cpu_started = time.process_time()
    if args.profile is not None:
        import cProfile

        stats.profile, stats.profile_path = cProfile.Profile(), args.profile
        stats.profile.enable()
    atheris.Fuzz()


if __name__ == "__main__":
    main()
