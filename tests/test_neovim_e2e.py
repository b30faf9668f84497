"""Neovim end to end: the plugin in docs/nvim/mlirbc.lua, headless Neovim (0.7+), the real server.

tests/e2e/nvim_e2e.lua opens copies of two corpus files through BufReadCmd, asks for hover and
definitions, waits for diagnostics, saves unedited, edits and saves, makes invalid edits and tries to
save, writing what it saw to a JSON file.  Here we check that JSON and the bytes on disk.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from corpus import CORPUS, REPO
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.template import template_of
from mlirbc.models.build import models
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.printer import print_module

UPSTREAM = "upstream/Bytecode__uselist_orders.p01.mlirbc"
JAX = "jax/mlp2.mlirbc"
TIMEOUT_S = 240

# bytes for the plain-Lua base64 decoder: every byte value, each padding, more than one output chunk
_B64_DATA = [b"", b"\x00", b"\xff\x00", b"abc", b"abcd", bytes(range(256)),
             bytes((i * 37 + 11) % 256 for i in range(10001))]
_B64_INVALID = ["abc", "ab!d", "====", "AB==AAAA", "A==="]


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        reason = ("NEOVIM IS NOT INSTALLED: the Neovim end-to-end test did not run "
                  "(apt-get install -y neovim; .ci/editors.sh does this in CI)")
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return nvim


OPAQUE = models(disabled=["vhlo"])
"""The session runs the server with the StableHLO models off (file B has fallback parts); so do the checks."""


def _view(data: bytes) -> str:
    """The generic view (local scope) of `data`: what the bytes are checked by."""
    return print_module(decode_bytecode(data, OPAQUE)).text


def _default_view(data: bytes) -> str:
    """What the editor shows of `data` by default: the pretty view with aliases."""
    module = decode_bytecode(data, OPAQUE)
    return print_module(module, form="pretty", registry=OPAQUE, aliases=alias_rules(module, OPAQUE)).text


def _fallback_payloads(data: bytes) -> list[tuple[str, bytes]]:
    module = decode_bytecode(data, OPAQUE)
    notes = template_of(module).fallbacks  # type: ignore[union-attr]
    return [(n.name, data[n.offset:n.offset + n.size]) for n in notes if n.kind == "op"]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One headless Neovim session over both files (starting the server once)."""
    nvim = _nvim()
    tmp = tmp_path_factory.mktemp("nvim")
    work = tmp / "files"
    work.mkdir()
    files = {}
    for key, rel in (("a", UPSTREAM), ("b", JAX)):
        dst = work / f"{key}_{Path(rel).name}"
        shutil.copyfile(CORPUS / rel, dst)
        dst.chmod(0o644)
        files[key] = dst
    out = tmp / "observations.json"
    snap = tmp / "snapshots"
    snap.mkdir()
    env = dict(os.environ)
    env.update({
        "MLIRBC_NVIM_PLUGIN": str(REPO / "docs" / "nvim"),
        "MLIRBC_NVIM_CMD": json.dumps([sys.executable, "-m", "mlirbc.lsp"]),
        "MLIRBC_NVIM_A": str(files["a"]),
        "MLIRBC_NVIM_B": str(files["b"]),
        "MLIRBC_NVIM_OUT": str(out),
        "MLIRBC_NVIM_SNAP": str(snap),
        "MLIRBC_NVIM_BASE64": json.dumps([base64.b64encode(d).decode() for d in _B64_DATA]
                                         + _B64_INVALID),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO / "server"), env.get("PYTHONPATH")])),
        # keep Neovim's state, cache and LSP log out of the user's home
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "data"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
    })
    t0 = time.monotonic()
    try:
        proc = subprocess.run([nvim, "--headless", "--clean", "-u",
                               str(REPO / "tests" / "e2e" / "nvim_e2e.lua")],
                              cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        seen = out.read_text() if out.exists() else "(nothing written)"
        pytest.fail(f"Neovim did not finish within {TIMEOUT_S}s: {exc}\nobservations so far: {seen}")
    elapsed = time.monotonic() - t0
    assert out.exists(), (f"the Neovim script wrote no observations (exit {proc.returncode})\n"
                          f"stdout: {proc.stdout.decode(errors='replace')}\n"
                          f"stderr: {proc.stderr.decode(errors='replace')}")
    obs: dict[str, Any] = json.loads(out.read_text())
    obs["elapsed_s"] = elapsed
    obs["files"] = files
    obs["work"] = work
    obs["snap"] = snap
    obs["returncode"] = proc.returncode
    print(f"Neovim {obs.get('nvim')} session: {elapsed:.1f}s")
    return obs


def _step(session: dict[str, Any], name: str) -> dict[str, Any]:
    assert name not in session["errors"], f"step {name} failed in Neovim: {session['errors'][name]}"
    assert name in session["steps"], f"step {name} did not run (observations: {session['steps'].keys()})"
    result: dict[str, Any] = session["steps"][name]
    return result


def _bytes(session: dict[str, Any], step: str) -> bytes:
    """The file's bytes right after `step` (copied by the Neovim script)."""
    return Path(session["snap"], f"{step}.mlirbc").read_bytes()


def _saved(s: dict[str, Any]) -> None:
    assert s["ok"], f"the write failed: {s['error']} {s['messages']}"
    assert not s["modified"], "a successful write leaves the buffer modified"


def _refused(s: dict[str, Any], what: str) -> None:
    assert s["modified"], "a refused write marked the buffer unmodified"
    assert any("not saved" in m and what in m for m in s["messages"]), s["messages"]


def test_session_finished(session: dict[str, Any]) -> None:
    assert not session["errors"], session["errors"]
    assert session["returncode"] == 0
    leftovers = sorted(p.name for p in session["work"].iterdir() if p.name.startswith("."))
    assert leftovers == [], f"temporary files left next to the saved files: {leftovers}"


def test_open_and_attach(session: dict[str, Any]) -> None:
    for name in ("a_open", "b_open"):
        s = _step(session, name)
        assert s["first_line"].startswith("// mlirbc: ")
        assert s["filetype"] == "mlir"
        assert s["attached"]
        assert not s["modified"]
        assert s["uri"].startswith("file:///")
    a_lines = (CORPUS / UPSTREAM).read_bytes()
    assert _step(session, "a_open")["lines"] == _default_view(a_lines).count("\n")


def test_info_command(session: dict[str, Any]) -> None:
    info = _step(session, "a_info")
    assert info["version"] == 6 and info["producer"] == "MLIR22.1.8"
    assert info["size"] == (CORPUS / UPSTREAM).stat().st_size
    assert info["op_count"] > 0


def test_hover_and_definition(session: dict[str, Any]) -> None:
    assert "arith.constant" in (_step(session, "a_hover")["text"] or "")
    hover = _step(session, "b_hover")["text"] or ""
    assert "vhlo.dot_general_v2" in hover and "fallback" in hover.lower(), hover
    d = _step(session, "a_definition")
    assert d["target_line"] == d["expected_line"]


def test_fallback_diagnostics(session: dict[str, Any]) -> None:
    diags = _step(session, "b_open")["diagnostics"]
    ops = [d for d in diags if d["code"] == "fallback-op"]
    jax = template_of(decode_bytecode((CORPUS / JAX).read_bytes(), OPAQUE))
    expected = [n for n in jax.fallbacks if n.kind == "op"]  # type: ignore[union-attr]
    assert len(ops) == len(expected) > 0
    assert {d["severity"] for d in ops} == {3}  # Information
    assert {d["source"] for d in ops} == {"mlirbc"}


def test_unedited_saves_are_identical(session: dict[str, Any]) -> None:
    for name, rel in (("a_save_unedited", UPSTREAM), ("b_save_unedited", JAX)):
        _saved(_step(session, name))
        assert _bytes(session, name) == (CORPUS / rel).read_bytes()


def test_edit_upstream(session: dict[str, Any]) -> None:
    s = _step(session, "a_edit")
    assert s["modified_before"]
    _saved(s)
    original = (CORPUS / UPSTREAM).read_bytes()
    saved = _bytes(session, "a_edit")
    assert saved != original
    view = _view(saved)
    assert "value = 99 : i32" in view and "value = 45 : i32" not in view
    assert view == _view(original).replace("value = 45 : i32", "value = 99 : i32")


def test_edits_are_sent_incrementally(session: dict[str, Any]) -> None:
    views = _step(session, "a_sync")["views"]
    assert views, "mlirbc/info listed no open view"
    assert sum(v["ranged_changes"] for v in views) > 0
    assert sum(v["whole_changes"] for v in views) == 0


def test_reload_after_save(session: dict[str, Any]) -> None:
    s = _step(session, "a_reload")
    _saved(s)
    assert s["text_has_edit"] and s["attached"]
    assert _bytes(session, "a_reload") == _bytes(session, "a_edit")


def test_edit_jax_keeps_fallbacks(session: dict[str, Any]) -> None:
    s = _step(session, "b_edit")
    _saved(s)
    assert s["text_has_edits"]
    original = (CORPUS / JAX).read_bytes()
    saved = _bytes(session, "b_edit")
    view = _view(saved)
    assert 'sym_name = "jit_mlp_nvim"' in view and "mhlo.num_partitions = 4 : i32" in view
    expected = (_view(original).replace('sym_name = "jit_mlp"', 'sym_name = "jit_mlp_nvim"')
                .replace("mhlo.num_partitions = 1 : i32", "mhlo.num_partitions = 4 : i32"))
    assert view == expected
    # untouched fallback ops keep their property bytes
    assert _fallback_payloads(saved) == _fallback_payloads(original)


def test_read_only_targets_need_a_bang(session: dict[str, Any]) -> None:
    """`:w` over a read-only file is refused and leaves it; `:w!` has the server write it (the plugin
    passes `overwriteReadOnly`), keeping the file's mode."""
    r = _step(session, "a_readonly")
    assert not r["plain"]["ok"] or any("read-only" in m for m in r["plain"]["messages"]), r["plain"]
    assert r["plain"]["content_after"] == "old\n", r["plain"]
    assert r["forced"]["ok"], r["forced"]
    assert r["mode"] == 0o444
    assert Path(r["path"]).read_bytes() == _bytes(session, "a_reload")


def test_invalid_edits_leave_files_untouched(session: dict[str, Any]) -> None:
    a = _step(session, "a_invalid")
    _refused(a, "%77")
    assert any(d["code"] == "parse-error" for d in a["diagnostics"]), a["diagnostics"]
    b = _step(session, "b_invalid")
    _refused(b, "cannot encode")
    assert b["still_running"], ":wq quit although the save was refused"
    assert any(d["code"] == "parse-error" for d in b["diagnostics"]), b["diagnostics"]
    # the files hold exactly what the last successful save wrote
    assert _bytes(session, "a_invalid") == _bytes(session, "a_edit")
    assert _bytes(session, "b_invalid") == _bytes(session, "b_edit")
    assert session["files"]["a"].read_bytes() == _bytes(session, "a_edit")
    assert session["files"]["b"].read_bytes() == _bytes(session, "b_edit")


def test_unreadable_file_is_never_written(session: dict[str, Any]) -> None:
    c = _step(session, "c_missing")
    assert not c["attached"]
    assert "cannot open" in (c["last_error"] or "")
    assert c["write"]["modified"]
    assert any("not a bytecode view" in m for m in c["write"]["messages"]), c["write"]["messages"]
    assert not c["created"], "writing a buffer that was never decoded created the file"


def test_lua_base64_decoder(session: dict[str, Any]) -> None:
    cases = _step(session, "base64")["cases"]
    assert len(cases) == len(_B64_DATA) + len(_B64_INVALID)
    for data, case in zip(_B64_DATA, cases, strict=False):
        assert not case.get("error"), case.get("error")
        assert bytes(case["bytes"]) == data
    for text, case in zip(_B64_INVALID, cases[len(_B64_DATA):], strict=True):
        assert case.get("error"), f"{text!r} decoded without an error"
