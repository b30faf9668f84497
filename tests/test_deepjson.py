"""`lsp.deepjson.scan` against Python's JSON decoder: the same verdict (JSON or not) and the same id on
mutated server messages, and the found bodies that are deep and damaged read as what they are."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from corpus import REPO
from fuzzing.engine import _byte_mutate
from fuzzing.seeds import server_seeds
from fuzzing.text_mutator import JsonMutator
from mlirbc.lsp.deepjson import Scan, scan

HARDENING = REPO / "tests" / "data" / "hardening"


def _decoded_id(v: Any) -> int | str | None:
    if not isinstance(v, dict):
        return None
    i = v.get("id")
    return i if isinstance(i, int | str) and not isinstance(i, bool) else None


def test_scan_agrees_with_json_loads_on_mutated_messages() -> None:
    rng = random.Random(5)
    seeds = server_seeds()
    mutator = JsonMutator()
    verdicts = {True: 0, False: 0}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8000))
    try:
        for _ in range(4000):
            body = rng.choice(seeds)
            for _ in range(rng.choice((1, 1, 2, 3))):
                if rng.random() < 0.5:
                    body = _byte_mutate(body, 1 << 18, rng)
                else:
                    body = mutator.mutate(body, rng)[0]
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                continue
            try:
                decoded: Any = json.loads(text)
                ok = True
            except RecursionError:
                continue
            except ValueError:
                ok = False
            got = scan(text)
            assert (got.problem is None) == ok, (got.problem, text[:300])
            if ok:
                assert got.msg_id == _decoded_id(decoded), text[:300]
            verdicts[ok] += 1
    finally:
        sys.setrecursionlimit(limit)
    assert verdicts[True] > 300 and verdicts[False] > 300, verdicts


def test_deep_messages() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert scan('{"jsonrpc": "2.0", "id": 7, "method": "m", "params": {"uri": ' + deep + "}}") == \
        Scan(None, 7, "params")
    assert scan('{"id": 7, "x": ' + deep).problem is not None  # never closed
    assert scan('{"id": 7, "x": [' + deep + ", }").problem == "unexpected '}' at character 200018"
    for name in ("found_server_deep_and_damaged.json", "found_server_repeated_id_deep.json"):
        got = scan((HARDENING / name).read_text())
        assert got.problem is not None and got.msg_id is None, (name, got)
