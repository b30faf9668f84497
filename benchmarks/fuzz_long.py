"""The long fuzzing run: every target coverage-guided (atheris) for many inputs, then a table.

    .venv/bin/python benchmarks/fuzz_long.py [--runs 1000000] [--targets reader,text,edit,cycle,server]
                                              [--seed 1] [--out DIR] [--parallel 2] [--report-only]
                                              [--minutes-per-target M] [--nice 19]
                                              [--corpus-from EARLIER_OUT] [--workers N] [--plain]

Each target runs in its own process (`tests/fuzzing/engine.py`), niced, with its statistics written to
`OUT/TARGET.json` while it runs (so a run can be watched, and `--report-only` prints the table of runs made
earlier).  `--minutes-per-target` stops each target after that much wall time even before `--runs`
inputs (a shared machine: the table then says how many inputs fit).  `--corpus-from` starts each target
from the inputs an earlier run kept (its `corpus-TARGET-*` folders) as well as the seeds, so a run cut
short goes on from the coverage it reached (its counts start again at 0).  `--workers N` runs each target as
one campaign of N processes (libFuzzer's parallel mode: different seeds, one shared corpus folder that
each reloads every second, `--runs` split between them; statistics in `OUT/TARGET.json` and
`OUT/TARGET.wK.json`, summed in the table): a million inputs of a slow target on every core.
`--plain` runs the targets uninstrumented, mutating the seeds and the inputs a coverage-guided run kept
(`--corpus-from`) without feedback (`fuzzing.engine.plain_loop`): a text input costs 5 ms of CPU instead of
17 to 23 under atheris, so a million of them fit in an evening of two cores.  It explores nothing new past
that corpus; it is the way to put a million inputs through the slow targets at the depth a coverage-guided
run reached.
Findings, unexpected exceptions, slow inputs and the slowest input are saved to `OUT/findings-TARGET/`:
a finding becomes a regression input under `tests/data/hardening/`.

The table: inputs, outcomes per class, findings (broken invariants), unexpected exceptions, inputs slower
than 2 s, the slowest input, peak RSS, wall time and inputs per second, and the CPU time per input (the
process's, libFuzzer and the mutators included: the number that does not depend on what else the machine
is doing).  Timings are under atheris'
instrumentation (several times slower than plain runs) and on whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TARGETS = ("reader", "text", "edit", "cycle", "server")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "server"), str(REPO / "tests"),
                                         env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONHASHSEED"] = "0"  # deterministic coverage feedback for a given seed
    return env


def _worker_name(target: str, worker: int) -> str:
    return target if worker == 0 else f"{target}.w{worker}"


def start(target: str, runs: int, seed: int, out: Path, minutes: float = 0.0,
          niceness: int = 10, corpus_from: Path | None = None, worker: int = 0,
          shared: bool = False, plain: bool = False) -> subprocess.Popen[bytes]:
    """One engine process; with `shared`, worker `worker` of a campaign whose workers share one corpus
    folder (libFuzzer's parallel mode: each reloads the folder and adds to it)."""
    name = _worker_name(target, worker)
    log = open(out / f"{name}.log", "wb")  # noqa: SIM115 - closed when the process ends
    cmd = ["nice", "-n", str(niceness), sys.executable, "-m", "fuzzing.engine", target, "--runs", str(runs),
           "--seed", str(seed + worker), "--stats", str(out / f"{name}.json"), "--warm-up",
           "--findings", str(out / f"findings-{target}")]
    if plain:
        cmd.append("--no-instrument")
    elif shared:
        cmd += ["--corpus-dir", str(out / f"corpus-{target}-shared")]
    if minutes:
        cmd += ["--max-seconds", str(max(1, round(minutes * 60)))]
    if corpus_from is not None:
        for folder in sorted(corpus_from.glob(f"corpus-{target}-*")):
            cmd += ["--corpus", str(folder)]
    return subprocess.Popen(cmd, cwd=REPO / "tests", env=_env(), stdout=log, stderr=subprocess.STDOUT)


def table(out: Path, targets: list[str]) -> str:
    rows = []
    for t in targets:
        parts = [out / f"{t}.json", *sorted(out.glob(f"{t}.w*.json"))]
        if not parts[0].exists():
            rows.append(f"| {t} | (no statistics) | | | | | | | |")
            continue
        s = _combined([json.loads(q.read_text()) for q in parts if q.exists()])
        if len(parts) > 1:
            t = f"{t} ({len(parts)} workers)"
        outcomes = dict(s["outcomes"])
        findings = outcomes.pop("finding", 0)
        unexpected = outcomes.pop("unexpected", 0)
        classes = ", ".join(f"{k} {v:,}" for k, v in sorted(outcomes.items(), key=lambda kv: -kv[1]))
        rate = s["inputs"] / s["seconds"] if s["seconds"] else 0.0
        cpu = f", {s['cpu_seconds'] / s['inputs'] * 1000:.1f} ms CPU/input" \
            if s.get("cpu_seconds") and s["inputs"] else ""
        rows.append(f"| {t} | {s['inputs']:,} | {classes} | {findings} | {unexpected} | {s['slow']} | "
                    f"{s['slowest_seconds']:.2f} s ({s['slowest_input']}) | {s['peak_rss_mb']:.0f} MB | "
                    f"{s['seconds'] / 60:.0f} min, {rate:.0f}/s{cpu} |")
        for message in s.get("messages", {}):
            rows.append(f"|   | | {message} | | | | | | |")
    head = ("| target | inputs | outcomes | findings | unexpected | > 2 s | slowest input | peak RSS | "
            "time |\n|---|---:|---|---:|---:|---:|---|---:|---|")
    return head + "\n" + "\n".join(rows)


def _combined(stats: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a campaign's workers as one run: counts summed, the slowest input and the peak
    memory of the worst worker, the wall time of the longest."""
    out = dict(stats[0])
    outcomes: dict[str, int] = {}
    messages: dict[str, str] = {}
    for s in stats:
        for k, v in s["outcomes"].items():
            outcomes[k] = outcomes.get(k, 0) + v
        messages.update(s.get("messages", {}))
    slowest = max(stats, key=lambda s: s["slowest_seconds"])
    out.update(inputs=sum(s["inputs"] for s in stats), outcomes=outcomes, messages=messages,
               slow=sum(s["slow"] for s in stats), slowest_seconds=slowest["slowest_seconds"],
               slowest_input=slowest["slowest_input"], peak_rss_mb=max(s["peak_rss_mb"] for s in stats),
               seconds=max(s["seconds"] for s in stats),
               cpu_seconds=sum(s.get("cpu_seconds") or 0.0 for s in stats))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=1_000_000)
    p.add_argument("--targets", default=",".join(TARGETS))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "fuzz-out")
    p.add_argument("--parallel", type=int, default=1, help="targets run at once")
    p.add_argument("--workers", type=int, default=1,
                   help="processes per target, one campaign: they share a corpus folder and split --runs")
    p.add_argument("--report-only", action="store_true")
    p.add_argument("--minutes-per-target", type=float, default=0.0,
                   help="wall-time budget per target (0: until --runs inputs)")
    p.add_argument("--nice", type=int, default=10, help="niceness of the fuzzing processes")
    p.add_argument("--corpus-from", type=Path, default=None,
                   help="an earlier run's --out: start from the inputs it kept as well as the seeds")
    p.add_argument("--plain", action="store_true",
                   help="no instrumentation: mutate the seeds and the --corpus-from inputs without coverage "
                        "feedback, at the plain code's speed (see the module docstring)")
    args = p.parse_args()
    targets = [t for t in args.targets.split(",") if t]
    for t in targets:
        if t not in TARGETS:
            p.error(f"unknown target {t!r} (choose from {', '.join(TARGETS)})")
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        pending = list(targets)
        running: dict[str, subprocess.Popen[bytes]] = {}
        failed = []
        while pending or running:
            while pending and len(running) < args.parallel * args.workers:
                t = pending.pop(0)
                share = -(-args.runs // args.workers)
                for w in range(args.workers):
                    running[_worker_name(t, w)] = start(
                        t, share, args.seed, args.out, args.minutes_per_target, args.nice, args.corpus_from,
                        worker=w, shared=args.workers > 1, plain=args.plain)
            time.sleep(5)
            for t, proc in list(running.items()):
                if proc.poll() is not None:
                    del running[t]
                    if proc.returncode != 0:
                        failed.append(f"{t} (exit {proc.returncode}; see {args.out / (t + '.log')})")
        if failed:
            print("libFuzzer stopped early (a crash, a timeout of 60 s or an out-of-memory): "
                  + ", ".join(failed))
    print(table(args.out, targets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
