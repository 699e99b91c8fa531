"""Cold start of each Lambda handler on the bundle as it ships: read-only code, its own bytecode only.

    python -m bench.bundle_cold_start [--cdk-out DIR] [--runs 5] [--instructions]

``bench/cold_start.py`` measures the handlers' imports from the repository,
with bytecode compiled first. Lambda runs something else: the function's code
asset and the two layers' assets as CDK synthesized them, on a read-only file
system (``/var/task``, ``/opt``), under Python 3.12. This benchmark imports
each handler from the synthesized assets, with the runtime's Python
(``infra.layers.runtime_python``: 3.12, whatever runs this script), in a fresh
interpreter with ``-S`` (no site-packages: only the assets, the runtime's
boto3 and the standard library), the environment variables the template gives
the function, and ``PYTHONDONTWRITEBYTECODE`` (nothing is written, as on a
read-only file system), twice:

- ``as_shipped``: the assets as they are, with the bytecode the bundling
  compiled into them;
- ``without_bytecode``: the same assets with their bytecode removed, each
  module compiled from source at every cold start.

Handlers are taken in turn and each gets its median and best time. With
``--instructions`` it also counts, with callgrind, the instructions each import
runs as shipped: a figure the load of a shared machine does not move.

Two departures from Lambda, both in favour of neither figure: the dependency
layer holds arm64 extension modules, so the packages that have one are taken
from the same build for this machine (``infra.layers.build_dependencies``:
same versions, the same ``uv.lock``, cached); and the runtime's boto3 and
botocore (not in the layers) come from this environment with their bytecode
compiled, as the Lambda runtime ships them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from infra.layers import build_dependencies, compile_bytecode, runtime_python

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)")
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six.py")
"""What the Lambda Python runtime provides besides the standard library (the dependency layer leaves them out)."""
HOST_PLATFORMS = tuple(f"{tag}_{platform.machine()}" for tag in ("manylinux2014", "manylinux_2_28", "manylinux_2_34"))


def synthesize(outdir: Path) -> Path:
    from infra.stack import build_app

    app, _ = build_app(outdir, nag=False)
    app.synth()
    return outdir


def _template(outdir: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((outdir / "Tourney.template.json").read_text())
    return loaded


def variables(outdir: Path) -> dict[str, dict[str, str]]:
    """Each function's environment variables with a literal value, as Lambda sets them before the import."""
    found: dict[str, dict[str, str]] = {}
    for resource in _template(outdir)["Resources"].values():
        name = resource.get("Metadata", {}).get("tourney:function")
        if resource["Type"] == "AWS::Lambda::Function" and name is not None:
            environment = resource["Properties"].get("Environment", {}).get("Variables", {})
            found[name] = {key: value for key, value in environment.items() if isinstance(value, str)}
    return found


def assets(outdir: Path) -> tuple[dict[str, Path], Path, Path]:
    """The synthesized code folders: each function's, the shared layer's and the dependency layer's."""
    template = _template(outdir)
    functions: dict[str, Path] = {}
    layers: dict[str, Path] = {}
    for resource in template["Resources"].values():
        metadata = resource.get("Metadata", {})
        path = metadata.get("aws:asset:path")
        if path is None:
            continue
        if resource["Type"] == "AWS::Lambda::Function" and "tourney:function" in metadata:
            functions[metadata["tourney:function"]] = outdir / path
        elif resource["Type"] == "AWS::Lambda::LayerVersion" and "tourney:layer" in metadata:
            layers[metadata["tourney:layer"]] = outdir / path
    return functions, layers["shared"], layers["dependencies"]


def _native(entry: Path) -> bool:
    return entry.suffix == ".so" or (entry.is_dir() and any(entry.rglob("*.so*")))


def prepare(outdir: Path, work: Path) -> tuple[dict[str, Path], list[Path]]:
    """A copy of the assets to measure (arm64 extension packages swapped for this machine's) and the runtime's
    packages, compiled; the function folders and the path every import searches."""
    functions, shared, dependencies = assets(outdir)
    copies = {name: work / "functions" / name for name in functions}
    for name, source in functions.items():
        shutil.copytree(source, copies[name])
    shutil.copytree(shared, work / "shared")
    deps = work / "dependencies" / "python"
    shutil.copytree(dependencies, deps.parent)
    here = build_dependencies(ROOT, HOST_PLATFORMS) / "python"  # the same versions, built (and compiled) for here
    for entry in [e for e in deps.iterdir() if _native(e)]:
        shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    for entry in here.iterdir():
        if _native(entry) and not (deps / entry.name).exists():
            (shutil.copytree if entry.is_dir() else shutil.copy2)(entry, deps / entry.name)
    runtime = work / "runtime"
    runtime.mkdir()
    site = Path(sysconfig.get_paths()["purelib"])
    for name in RUNTIME_PACKAGES:
        source = site / name
        if source.is_dir():
            shutil.copytree(source, runtime / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():
            shutil.copy2(source, runtime / name)
    compile_bytecode(runtime)
    return copies, [work / "shared" / "python", deps, runtime]


def strip_bytecode(folder: Path) -> None:
    for cache in list(folder.rglob("__pycache__")):
        shutil.rmtree(cache)


def _environment(function: Path, path: list[Path], variables: Mapping[str, str]) -> dict[str, str]:
    """This machine's environment without Python's, AWS's or Powertools' settings, then the function's own."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "AWS_", "POWERTOOLS_"))}
    env.update(variables)
    env.update(PYTHONPATH=os.pathsep.join(str(p) for p in [function, *path]), PYTHONDONTWRITEBYTECODE="1")
    return env


def import_ms(function: Path, path: list[Path], variables: Mapping[str, str]) -> float:
    """Cumulative import time of ``app`` (ms) in a fresh interpreter that writes no bytecode."""
    done = subprocess.run(
        [runtime_python(), "-S", "-X", "importtime", "-c", "import app"],
        cwd=function, env=_environment(function, path, variables), capture_output=True, text=True, check=True,
    )  # fmt: skip
    for line in done.stderr.splitlines():
        match = LINE.search(line)
        if match and match.group(3) == "app":
            return int(match.group(2)) / 1000
    raise RuntimeError(f"no import time for app in {function}")


def instructions(function: Path, path: list[Path], variables: Mapping[str, str], code: str = "import app") -> int:
    """Instructions the interpreter runs for ``code`` (callgrind): what load on the machine does not change."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", runtime_python(), "-S", "-c", code],
        cwd=function, env=_environment(function, path, variables), capture_output=True, text=True, check=True,
    )  # fmt: skip
    match = re.search(r"Collected : (\d+)", done.stderr)
    if match is None:
        raise RuntimeError(f"callgrind counted nothing in {function}")
    return int(match.group(1))


def import_instructions(
    functions: dict[str, Path], path: list[Path], variables: dict[str, dict[str, str]]
) -> dict[str, int]:
    """Millions of instructions each handler's import costs, the interpreter's own start subtracted."""
    start = instructions(next(iter(functions.values())), path, {}, "pass")
    return {
        name: round((instructions(folder, path, variables[name]) - start) / 1e6)
        for name, folder in sorted(functions.items())
    }


def timings(
    functions: dict[str, Path], path: list[Path], variables: dict[str, dict[str, str]], runs: int
) -> dict[str, dict[str, float]]:
    """Each handler's median and best import (ms) over ``runs``, the handlers taken in turn so that a burst of load
    on this shared machine falls on all of them."""
    times: dict[str, list[float]] = {name: [] for name in sorted(functions)}
    for _ in range(runs):
        for name, folder in sorted(functions.items()):
            times[name].append(import_ms(folder, path, variables[name]))
    return {name: {"median": round(statistics.median(t), 1), "best": round(min(t), 1)} for name, t in times.items()}


def measure(cdk_out: Path | None = None, runs: int = 5, count: bool = False) -> dict[str, Any]:
    python = subprocess.run([runtime_python(), "-V"], capture_output=True, text=True, check=True).stdout.split()[1]
    result: dict[str, Any] = {"python": python, "runs": runs}
    with tempfile.TemporaryDirectory(prefix="bundle-cold-start-") as temporary:
        work = Path(temporary)
        outdir = cdk_out or synthesize(work / "cdk.out")
        functions, path = prepare(outdir, work / "copy")
        env = variables(outdir)
        result["as_shipped_ms"] = timings(functions, path, env, runs)
        if count:
            result["as_shipped_million_instructions"] = import_instructions(functions, path, env)
        for folder in [*functions.values(), *path[:2]]:
            strip_bytecode(folder)
        result["without_bytecode_ms"] = timings(functions, path, env, runs)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cdk-out", type=Path, default=None, help="a synthesized cloud assembly (default: synth)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="also count each import's instructions (valgrind)")
    args = parser.parse_args()
    print(json.dumps(measure(args.cdk_out, args.runs, args.instructions), indent=2))


if __name__ == "__main__":
    main()
