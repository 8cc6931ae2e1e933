"""``twoplustwo info`` and ``verify`` on sets with part of a street's strength tables, and where tables cannot be made.

A street's strength is read from the roles ``optional.STRENGTH_STREETS``
gives it, all of them (spec/README.md, section 14): ``strength()`` refuses
a set listing only some (``tests/tables/test_strength_roles.py``), and the
commands say the same, in the same words.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tests.cli.conftest import UseTables
from tests.cli.helpers import run
from tests.tables.test_strength_roles import set_on_disk
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import ENV_VAR
from twoplustwo.tables.optional import STRENGTH_ROLES, strength_gap


def strength_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("strength ")]
    return line


PARTIAL = ["strength/preflop/sum", "strength/preflop/histogram"]  # no strength/preflop/sum2


def set_with(tmp_path: Path, roles: list[str]) -> Path:
    """The default set on disk with a file of zeros for each of these strength roles."""
    return set_on_disk(tmp_path, {role: np.zeros(STRENGTH_ROLES[role], dtype=np.uint32) for role in roles})


def test_info_names_the_role_a_street_lacks(
    tmp_path: Path, use_tables: UseTables, capsys: pytest.CaptureFixture[str]
) -> None:
    use_tables(set_with(tmp_path, PARTIAL))
    code, out, err = run(["info"], capsys)
    # The set loads and serves hold'em: info describes it, the refused street included.
    assert (code, err) == (0, "")
    gap = strength_gap(set(PARTIAL), "preflop")
    assert gap is not None and "but not strength/preflop/sum2" in gap
    assert strength_line(out) == f"strength        preflop (0 MiB; refused: {gap})"


def test_verify_refuses_a_street_that_lacks_a_role(
    tmp_path: Path, use_tables: UseTables, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = set_with(tmp_path, PARTIAL)
    use_tables(tables)
    code, out, err = run(["verify", "--sizes", "5"], capsys)
    assert (code, out) == (1, "")
    assert err == f"twoplustwo: error: {tables / MANIFEST}: {strength_gap(set(PARTIAL), 'preflop')}\n"


def test_info_and_verify_on_a_street_with_all_it_needs(
    tmp_path: Path, use_tables: UseTables, capsys: pytest.CaptureFixture[str]
) -> None:
    use_tables(set_with(tmp_path, ["strength/preflop/sum", "strength/preflop/sum2"]))
    code, out, err = run(["info"], capsys)
    assert (code, err) == (0, "")
    assert strength_line(out) == "strength        preflop (0 MiB)"
    code, out, err = run(["verify", "--sizes", "5"], capsys)
    assert (code, err) == (0, "")
    assert "strength tables of the preflop whole" in out


# ------------------------------------------------------------- where the default tables cannot be made


@pytest.mark.parametrize("how", ["a file in the way", "a symlink loop"])
def test_info_reports_a_default_directory_that_cannot_be_made_as_it_reports_missing_tables(
    tmp_path: Path, use_tables: UseTables, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    how: str,
) -> None:  # fmt: skip
    from tests.tables.test_bundle import END, set_members, write_zst
    from tests.tinysets import tiny_files
    from twoplustwo.cli import EXIT_TABLES
    from twoplustwo.tables import default

    bundle = write_zst(tmp_path / "bundle.tar.zst", [*set_members(*tiny_files(2)), END])
    monkeypatch.setattr(default, "BUNDLED", str(bundle))
    if how == "a file in the way":
        (tmp_path / "file").write_text("mine")
        target = tmp_path / "file" / "tables"
    else:
        os.symlink(tmp_path / "loop", tmp_path / "loop")
        target = tmp_path / "loop" / "tables"
    use_tables(target)
    code, out, err = run(["info"], capsys)
    assert (code, out) == (EXIT_TABLES, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"twoplustwo: error: no tables at {target}, and the package's bundle cannot be installed")
    assert err.endswith(f"; set ${ENV_VAR} to a directory that can hold them\n")
    # The exit code of missing tables, where a bundle could have been installed but none is.
    monkeypatch.setattr(default, "BUNDLED", str(tmp_path / "none.tar.zst"))
    use_tables(tmp_path / "empty")
    assert run(["info"], capsys)[0] == EXIT_TABLES
