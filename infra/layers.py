"""The two Lambda layers: the shared code (``layers/tourney``) and the dependencies.

Both are bundled locally, without Docker (CDK's ``ILocalBundling``):

- ``Shared``: ``layers/tourney`` copied to ``python/tourney`` (``/opt/python`` on Lambda).
- ``Dependencies``: ``pip install --platform manylinux*_aarch64 --only-binary=:all:`` of the
  run-time packages at the versions pinned in ``uv.lock`` (pynamodb, Powertools with its
  ``all`` extra, pydantic, PyJWT with crypto, py3langid and its numpy for the chat),
  boto3/botocore/s3transfer left out (the runtime has them). The result is cached under
  ``cdk.out/.cache/`` keyed by the hash of ``uv.lock`` and of the package list, so only the
  first synth on a machine pays for it (about 6 s from the package index).

Every asset, the functions' code too (:func:`function_code`), ships bytecode for the runtime's
Python 3.12 (:func:`compile_bytecode`): Lambda's code is read-only, and a module without it is
compiled from source at every cold start.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import jsii
from aws_cdk import AssetHashType, BundlingOptions, DockerImage, ILocalBundling
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

PYTHON_VERSION = "3.12"
RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64
#: Lambda's python3.12 runs on Amazon Linux 2023 (glibc 2.34): these wheels all load there.
PLATFORMS = ("manylinux2014_aarch64", "manylinux_2_28_aarch64", "manylinux_2_34_aarch64")
REQUIREMENTS = ("pynamodb", "aws-lambda-powertools[all]", "pydantic", "pyjwt[crypto]", "py3langid")
#: In the runtime already; leaving them out saves about 25 MB.
LEFT_OUT = ("boto3", "botocore", "s3transfer")
CACHE_DIR = Path("cdk.out") / ".cache"
#: The interpreter that compiles the bundle's bytecode, when it is not found by itself (:func:`runtime_python`).
RUNTIME_PYTHON_VARIABLE = "TOURNEY_RUNTIME_PYTHON"
#: What the bundles' bytecode is: part of every asset's hash, so that a change of it stages the assets anew.
BYTECODE = f"cpython-{PYTHON_VERSION.replace('.', '')} unchecked-hash"

# CDK never runs these images: local bundling always succeeds or raises.
_NO_DOCKER = DockerImage.from_registry("docker-is-not-used")


def _lock_pins(lock_file: Path) -> list[str]:
    """``name==version`` for every registry package in ``uv.lock``: the constraints for pip."""
    lock = tomllib.loads(lock_file.read_text())
    return sorted(
        f"{p['name']}=={p['version']}" for p in lock["package"] if "version" in p and "registry" in p.get("source", {})
    )


def dependencies_key(root: Path, platforms: tuple[str, ...] = PLATFORMS) -> str:
    """The cache key: ``uv.lock``, the package list, the platforms, the Python version and the bytecode."""
    digest = hashlib.sha256((root / "uv.lock").read_bytes())
    digest.update(repr((REQUIREMENTS, LEFT_OUT, platforms, PYTHON_VERSION, BYTECODE)).encode())
    return digest.hexdigest()[:20]


def build_dependencies(root: Path, platforms: tuple[str, ...] = PLATFORMS) -> Path:
    """Build (or find in the cache) the dependency layer's tree; returns the folder holding ``python/``.

    ``platforms``: Lambda's by default; ``bench/bundle_cold_start.py`` builds this machine's to load them here."""
    key = dependencies_key(root, platforms)
    cache = root / CACHE_DIR / f"dependencies-{key}"
    if (cache / "python").is_dir():
        return cache
    cache.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"dependencies-{key}-", dir=cache.parent))
    try:
        constraints = work / "constraints.txt"
        constraints.write_text("\n".join(_lock_pins(root / "uv.lock")) + "\n")
        command = [
            sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--no-compile", "--target", str(work / "python"),
            "--implementation", "cp", "--python-version", PYTHON_VERSION, "--only-binary=:all:",
            *(arg for platform in platforms for arg in ("--platform", platform)),
            "--constraint", str(constraints), *REQUIREMENTS,
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(
                "building the dependency layer failed (pip needs the package index once; "
                f"the result is then cached in {cache.parent}):\n{result.stderr[-4000:]}"
            )
        site = work / "python"
        for entry in list(site.iterdir()):
            top = entry.name.split("-")[0].lower()
            if top in LEFT_OUT or entry.name == "bin":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        constraints.unlink()
        compile_bytecode(site)
        try:
            work.rename(cache)  # atomic: a parallel synth either wins or finds it built
        except OSError:
            if not (cache / "python").is_dir():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return cache


def _copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
    compile_bytecode(target)


def _version_of(python: str) -> str | None:
    try:
        done = subprocess.run(
            [python, "-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True, text=True, check=False, timeout=30,
        )  # fmt: skip
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def runtime_python(target: str = PYTHON_VERSION) -> str:
    """An interpreter of the runtime's version: ``$TOURNEY_RUNTIME_PYTHON``, this one, ``python3.12`` on the path,
    or pyenv's newest 3.12 (the pyenv shim answers only for the selected version, hence the look in its folder)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [
        os.environ.get(RUNTIME_PYTHON_VARIABLE),
        sys.executable,
        shutil.which(f"python{target}"),
        *(str(p) for p in sorted(pyenv.glob(f"{target}.*/bin/python{target}"), reverse=True)),
    ]
    for candidate in candidates:
        if candidate and _version_of(candidate) == target:
            return candidate
    raise RuntimeError(
        f"no Python {target} to compile the bundle's bytecode for the Lambda runtime: install it "
        f"(pyenv install {target}) or name it in {RUNTIME_PYTHON_VARIABLE}"
    )


def compile_bytecode(folder: Path, target: str = PYTHON_VERSION) -> None:
    """Compile every module under ``folder`` with the runtime's Python (``target``), whatever Python synthesizes.

    Lambda's code is read-only: a module without a ``.pyc`` of the runtime's version is compiled from source at
    every cold start (``bench/bundle_cold_start.py``). A ``.pyc`` is specific to the Python that wrote it, hence
    :func:`runtime_python`. Unchecked hashes: the bytecode stays valid whatever times the files get when the asset
    is staged and deployed. ``-I``: no ``PYTHONPYCACHEPREFIX`` or ``PYTHONDONTWRITEBYTECODE`` of this shell applies.
    A file that is not Python (the packages' examples and templates) is left without; ``compileall`` says which.
    """
    command = [runtime_python(target), "-I", "-m", "compileall", "-q", "-q", "-j", "0"]
    command += ["--invalidation-mode", "unchecked-hash", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 1: some file did not compile
        raise RuntimeError(f"compiling {folder} failed:\n{done.stderr[-4000:]}")


@jsii.implements(ILocalBundling)
class _CopyBundling:
    """Local bundling: ``source`` copied to ``<output>/<into>`` and compiled."""

    def __init__(self, source: Path, into: str) -> None:
        self._source = source
        self._into = into

    def try_bundle(self, output_dir: str, *_: Any, **__: Any) -> bool:
        _copy_tree(self._source, Path(output_dir) / self._into)
        return True


def _bundling(local: ILocalBundling) -> BundlingOptions:
    return BundlingOptions(image=_NO_DOCKER, local=local, environment={"BYTECODE": BYTECODE})


def function_code(folder: Path) -> lambda_.Code:
    """A function's code asset: ``folder`` (``functions/<name>``) with its bytecode for the runtime."""
    return lambda_.Code.from_asset(
        str(folder), exclude=["__pycache__", "*.pyc"], bundling=_bundling(_CopyBundling(folder, "."))
    )


@jsii.implements(ILocalBundling)
class _DependenciesBundling:
    """Local bundling: the cached dependency tree copied to ``<output>``."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def try_bundle(self, output_dir: str, *_: Any, **__: Any) -> bool:
        shutil.copytree(build_dependencies(self._root), Path(output_dir), dirs_exist_ok=True)  # compiled in the cache
        return True


class Layers(Construct):
    """``shared`` (the ``tourney`` package) and ``dependencies`` (third-party packages)."""

    def __init__(self, scope: Construct, construct_id: str, *, root: Path) -> None:
        super().__init__(scope, construct_id)
        package = root / "layers" / "tourney"
        if not (package / "__init__.py").is_file():
            raise FileNotFoundError(f"the shared code is missing: {package}/__init__.py")
        self.shared = lambda_.LayerVersion(
            self,
            "Shared",
            description="tourney: domain, services, adapters, entrypoints (layers/tourney)",
            code=lambda_.Code.from_asset(
                str(package),
                exclude=["__pycache__", "*.pyc"],
                bundling=_bundling(_CopyBundling(package, f"python/{package.name}")),
            ),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
        )
        key = dependencies_key(root)
        self.dependencies = lambda_.LayerVersion(
            self,
            "Dependencies",
            description="pynamodb, powertools[all], pydantic, pyjwt[crypto], py3langid (uv.lock), arm64, cp312",
            code=lambda_.Code.from_asset(
                str(root / "layers"),
                asset_hash_type=AssetHashType.CUSTOM,
                asset_hash=key,
                bundling=_bundling(_DependenciesBundling(root)),
            ),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
        )
        for layer, name in ((self.shared, "shared"), (self.dependencies, "dependencies")):
            layer.node.default_child.add_metadata("tourney:layer", name)  # type: ignore[union-attr]
        self.all = [self.dependencies, self.shared]
