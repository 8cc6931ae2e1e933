"""Every test here runs once on each backend (``kernel_backend``, tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="module")
def _on_each_backend(kernel_backend: str) -> None:
    pass
