"""The local runtime patches moto's internals (``infra/local/moto_server.PATCHED_MOTO``): the moto installed, the
one ``pyproject.toml`` pins and the one ``uv.lock`` holds are exactly the release the patches were written for."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from infra.local.moto_server import PATCHED_MOTO

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_moto_is_the_release_the_patches_were_written_for() -> None:
    assert importlib.metadata.version("moto") == PATCHED_MOTO


def test_pyproject_pins_that_release_exactly_and_the_lock_holds_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = [r for r in project["dependency-groups"]["dev"] if re.match(r"moto\b", r)]
    assert pins == [f"moto[server]=={PATCHED_MOTO}"]
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    assert [p["version"] for p in lock["package"] if p["name"] == "moto"] == [PATCHED_MOTO]
