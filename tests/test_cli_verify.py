"""The verifier in the CLI: `mlirbc check` reports what does not verify (located, exit 1) and explains per
op kind what it checked (`--explain`); `mlirbc encode` refuses a text that does not verify, writing nothing,
unless `--no-verify` asks for it; a parse error is never written."""

from __future__ import annotations

from pathlib import Path

from corpus import path
from test_cli import run

BAD = """\
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    %0 = "arith.addf"(%a, %a) : (i32, i32) -> i32
    "func.call"() <{callee = @nowhere}> : () -> ()
    "func.return"(%0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"""


def test_check_reports_located_faults(tmp_path: Path) -> None:
    src = tmp_path / "bad.mlir"
    src.write_text(BAD)
    proc = run("check", str(src))
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    addf = "'arith.addf' op operand #0 must be floating-point-like, but got 'i32'"
    assert f"{src}:4:23: error: {addf}" in lines
    assert f"{src}:5:21: error: 'func.call' op 'nowhere' does not reference a valid function" in lines
    assert run("check", str(src), "--no-verify").returncode == 0


def test_check_explains_what_it_verified(tmp_path: Path) -> None:
    src = tmp_path / "bad.mlir"
    src.write_text(BAD)
    out = run("check", str(src), "--explain").stdout.splitlines()
    addf = next(line for line in out if line.startswith("arith.addf (1 op): "))
    assert "operand types (lhs, rhs)" in addf and "trait SameOperandsAndResultType" in addf
    assert any(line.startswith("func.call (1 op): verified; ") for line in out)


def test_check_verifies_bytecode_files() -> None:
    proc = run("check", str(path("upstream/Dialect__Arith__ops.mlirbc")), "--explain")
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("arith.addi (") for line in proc.stdout.splitlines())


def test_encode_refuses_unless_no_verify(tmp_path: Path) -> None:
    src = tmp_path / "bad.mlir"
    src.write_text(BAD)
    out = tmp_path / "bad.mlirbc"
    proc = run("encode", str(src), "-o", str(out))
    assert proc.returncode == 1 and not out.exists()
    assert "does not verify (--no-verify writes it anyway)" in proc.stderr
    proc = run("encode", str(src), "-o", str(out), "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:4] == b"ML\xefR"
    broken = tmp_path / "broken.mlir"
    broken.write_text(BAD.replace("(%a, %a)", "(%a, %nope)"))
    proc = run("encode", str(broken), "-o", str(tmp_path / "broken.mlirbc"), "--no-verify")
    assert proc.returncode == 1 and not (tmp_path / "broken.mlirbc").exists()
