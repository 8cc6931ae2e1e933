"""The command line as a whole (twoplustwo/cli/parser.py and __init__.py).

argparse's errors in one line, --help, --version, ``python -m twoplustwo``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import assert_one_error_line, run
from twoplustwo.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "As Kd Qh Jc Xs"], "unknown rank 'X'"),
        (["eval", "As Kd Qh Jc Tx"], "unknown suit 'x'"),
        (["eval", "As Kd Qh Jc As"], "duplicate of card 0"),
        (["eval", "As Kd Qh Jc"], "got 4"),
        (["eval", "As Kd Qh Jc Ts 9s 8s 7s"], "got 8"),
        (["eval", "51", "51", "1", "2", "3"], "duplicate"),
        (["eval", "51", "52", "1", "2", "3"], "out of range"),
        (["eval"], "required"),
        ([], "required"),
        (["shuffle"], "invalid choice"),
        (["eval", "--bogus", "As Kd Qh Jc Ts"], "unrecognized arguments"),
        (["enumerate", "-n", "4"], "invalid choice"),
        (["enumerate", "--dead", "Zz"], "unknown rank"),
        (["enumerate", "--include", "As", "--dead", "As"], "As is in both"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else None,
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    line = assert_one_error_line(*run(args, capsys))
    assert message in line
    assert main(args) == 2


@pytest.mark.parametrize("option", ["--samples", "--stderr", "--threads"])
def test_a_huge_bad_value_is_echoed_short(capsys: pytest.CaptureFixture[str], option: str) -> None:
    value = "1" * 5000 + "x"
    line = assert_one_error_line(*run(["equity", "AsAh", "KdKc", option, value], capsys))
    assert f"'{'1' * 40}...'" in line and len(line) < 200, line


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "eval" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("twoplustwo ")


def _python_m(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-m", "twoplustwo", *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )


def test_python_m_eval() -> None:
    p = _python_m("eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d")
    assert p.returncode == 0, p.stderr
    assert "7462" in p.stdout and "straight_flush" in p.stdout and "Royal flush" in p.stdout


def test_python_m_bad_input() -> None:
    p = _python_m("eval", "As Ks Qs Js Xs")
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.splitlines() == ["twoplustwo: error: card 4 ('Xs'): unknown rank 'X'"]
