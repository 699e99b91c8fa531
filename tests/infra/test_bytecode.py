"""Bytecode in the bundle (for the cold start): every module of every asset compiled for the runtime's Python 3.12.

Lambda's code is read-only, so a module without a ``.pyc`` of the runtime's
version is compiled from source at every cold start
(``bench/bundle_cold_start.py``, docs/performance.md). ``infra.layers``
compiles each asset with an interpreter of the runtime's version, whichever
Python synthesizes.
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

from infra.layers import PYTHON_VERSION, compile_bytecode, runtime_python
from tests.infra.template import Synthesized

TAG = f"cpython-{PYTHON_VERSION.replace('.', '')}"


def _pyc(source: Path) -> Path:
    return source.parent / "__pycache__" / f"{source.stem}.{TAG}.pyc"


def _asset_folders(synthesized: Synthesized) -> dict[str, Path]:
    folders = {}
    for kind, key in (("AWS::Lambda::Function", "tourney:function"), ("AWS::Lambda::LayerVersion", "tourney:layer")):
        for resource in synthesized.of_app(kind).values():
            metadata = resource["Metadata"]
            folders[metadata[key]] = synthesized.outdir / metadata["aws:asset:path"]
    return folders


def test_the_runtimes_python_compiles_every_module_with_unchecked_hashes(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("VALUE = 42\n")
    compile_bytecode(tmp_path)
    cached = _pyc(tmp_path / "pkg" / "__init__.py")
    assert cached.is_file()
    flags = int.from_bytes(cached.read_bytes()[4:8], "little")
    assert flags == 0b01, "an unchecked-hash pyc: valid whatever time the staged file gets"
    # and the runtime's Python, writing nothing (read-only code), imports it from that bytecode
    (tmp_path / "pkg" / "__init__.py").touch()
    done = subprocess.run(
        [runtime_python(), "-S", "-c", "import pkg; print(pkg.__spec__.cached)"],
        cwd=tmp_path, env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(tmp_path)}, capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    assert Path(done.stdout.strip()) == cached
    assert importlib.util.cache_from_source(str(tmp_path / "x.py")) != str(cached), "not this Python's own tag"


def test_every_function_and_the_shared_layer_ship_bytecode_for_each_module(synthesized: Synthesized) -> None:
    folders = _asset_folders(synthesized)
    assert {"api", "admin", "ws", "shared", "dependencies"} <= set(folders)
    for name, folder in folders.items():
        if name == "dependencies":
            continue
        modules = list(folder.rglob("*.py"))
        assert modules, name
        assert [m for m in modules if not _pyc(m).is_file()] == [], f"{name}: modules without bytecode"
        assert [p for p in folder.rglob("*.pyc") if TAG not in p.name] == [], f"{name}: another Python's bytecode"


def test_the_dependency_layer_ships_bytecode_for_every_package_a_handler_imports(synthesized: Synthesized) -> None:
    site = _asset_folders(synthesized)["dependencies"] / "python"
    for package in ("pydantic", "pydantic_core", "aws_lambda_powertools", "pynamodb", "jwt", "typing_extensions.py"):
        modules = [site / package] if package.endswith(".py") else list((site / package).rglob("*.py"))
        assert modules and [m for m in modules if not _pyc(m).is_file()] == [], package


def test_every_function_starts_without_reading_every_packages_metadata(synthesized: Synthesized) -> None:
    # pydantic looks for plugins in every installed package's entry points when it builds its first model (the
    # settings, at every cold start); we ship none, and the variable tells it so before the import.
    functions = synthesized.of_app("AWS::Lambda::Function").values()
    assert {f["Properties"]["Environment"]["Variables"].get("PYDANTIC_DISABLE_PLUGINS") for f in functions} == {
        "__all__"
    }
