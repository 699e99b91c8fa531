"""Bytecode in the bundle (for the cold start): compiled for the runtime's Python when the build runs it.

Lambda's code is read-only, so a module without a ``.pyc`` of the runtime's
version is compiled from source at every cold start
(``bench/bundle_cold_start.py``, docs/performance.md). ``infra.layers``
compiles the layers' modules when the synthesizing interpreter is the
runtime's version, and cannot when it is not (a ``.pyc`` is specific to its
version): these tests pin both halves.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from infra.layers import PYTHON_VERSION, compile_bytecode
from tests.infra.template import Synthesized

HERE = f"{sys.version_info.major}.{sys.version_info.minor}"


def package(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("VALUE = 42\n")
    return tmp_path


def test_the_runtimes_python_compiles_every_module_with_unchecked_hashes(tmp_path: Path) -> None:
    root = package(tmp_path)
    assert compile_bytecode(root, target=HERE)
    cached = Path(importlib.util.cache_from_source(str(root / "pkg" / "__init__.py")))
    flags = int.from_bytes(cached.read_bytes()[4:8], "little")
    assert flags == 0b01, "an unchecked-hash pyc: valid whatever time the staged file gets"
    # and an interpreter that may write nothing (read-only code) imports it from that bytecode
    (root / "pkg" / "__init__.py").touch()
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-c", "import pkg; print(pkg.__spec__.cached)"],
        cwd=root, env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(root)}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    assert done.stdout.strip() == str(cached)


def test_another_python_ships_no_bytecode_it_would_have_to_ignore(tmp_path: Path) -> None:
    root = package(tmp_path)
    assert not compile_bytecode(root, target="2.7")
    assert not list(root.rglob("*.pyc"))


def test_the_shared_layer_carries_bytecode_exactly_when_built_by_the_runtimes_python(
    synthesized: Synthesized,
) -> None:
    (layer,) = [
        r for r in synthesized.of_type("AWS::Lambda::LayerVersion").values()
        if r["Metadata"].get("tourney:layer") == "shared"
    ]  # fmt: skip
    folder = synthesized.outdir / layer["Metadata"]["aws:asset:path"]
    compiled = list(folder.rglob(f"*.cpython-{PYTHON_VERSION.replace('.', '')}.pyc"))
    assert bool(compiled) == (HERE == PYTHON_VERSION)
    assert not [p for p in folder.rglob("*.pyc") if p not in compiled], "no bytecode of another version"
