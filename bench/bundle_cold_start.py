"""Cold start of each Lambda handler on the bundle as it ships: read-only code, its own bytecode only.

    python -m bench.bundle_cold_start [--cdk-out DIR] [--runs 5]

``bench/cold_start.py`` measures the handlers' imports from the repository,
with bytecode compiled first. Lambda runs something else: the function's code
asset and the two layers' assets as CDK synthesized them, on a read-only file
system (``/var/task``, ``/opt``), so a module without a matching ``.pyc`` is
compiled from source at every cold start and its bytecode is thrown away. This
benchmark imports each handler from the synthesized assets, in a fresh
interpreter with ``-S`` (no site-packages: only the assets, the runtime's
boto3 and the standard library) and ``PYTHONDONTWRITEBYTECODE`` (nothing is
written, as on a read-only file system), twice:

- ``as_shipped``: the assets as they are;
- ``with_bytecode``: the same assets with bytecode compiled into them by this
  interpreter (``compileall``, unchecked hashes: valid whatever the files'
  times), which is what shipping bytecode would buy.

Two departures from Lambda, both in its favour of neither figure: the
dependency layer holds arm64 extension modules, so the packages that have one
are taken from this environment (same versions, the same ``uv.lock``); and the
runtime's boto3 and botocore (not in the layers) come from this environment
with their bytecode compiled, as the Lambda runtime ships them.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import py_compile
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)")
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six.py")
"""What the Lambda Python runtime provides besides the standard library (the dependency layer leaves them out)."""


def synthesize(outdir: Path) -> Path:
    from infra.stack import build_app

    app, _ = build_app(outdir, nag=False)
    app.synth()
    return outdir


def assets(outdir: Path) -> tuple[dict[str, Path], Path, Path]:
    """The synthesized code folders: each function's, the shared layer's and the dependency layer's."""
    template = json.loads((outdir / "Tourney.template.json").read_text())
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


def _site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def prepare(outdir: Path, work: Path) -> tuple[dict[str, Path], list[Path]]:
    """A copy of the assets to measure (arm64 extension packages swapped for this machine's) and the runtime's
    packages, compiled; the function folders and the path every import searches."""
    functions, shared, dependencies = assets(outdir)
    copies = {name: work / "functions" / name for name in functions}
    for name, source in functions.items():
        shutil.copytree(source, copies[name])
    shutil.copytree(shared, work / "shared")
    deps = work / "dependencies"
    shutil.copytree(dependencies, deps)
    site = _site_packages()
    for entry in list((deps / "python").iterdir()):
        native = entry.is_dir() and any(entry.rglob("*.so"))
        if native and (site / entry.name).is_dir():  # the same version (uv.lock), built for this machine
            shutil.rmtree(entry)
            shutil.copytree(site / entry.name, entry, ignore=shutil.ignore_patterns("__pycache__"))
    runtime = work / "runtime"
    runtime.mkdir()
    for name in RUNTIME_PACKAGES:
        source = site / name
        if source.is_dir():
            shutil.copytree(source, runtime / name)
        elif source.is_file():
            shutil.copy2(source, runtime / name)
    compile_tree(runtime)
    return copies, [work / "shared" / "python", deps / "python", runtime]


def compile_tree(folder: Path) -> None:
    compileall.compile_dir(
        str(folder), quiet=2, workers=0, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
    )


def import_ms(function: Path, path: list[Path]) -> float:
    """Cumulative import time of ``app`` (ms) in a fresh interpreter that writes no bytecode."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "AWS_", "POWERTOOLS_"))}
    env.update(PYTHONPATH=os.pathsep.join(str(p) for p in [function, *path]), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-c", "import app"],
        cwd=function, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    for line in done.stderr.splitlines():
        match = LINE.search(line)
        if match and match.group(3) == "app":
            return int(match.group(2)) / 1000
    raise RuntimeError(f"no import time for app in {function}")


def measure(cdk_out: Path | None = None, runs: int = 5) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bundle-cold-start-") as temporary:
        work = Path(temporary)
        outdir = cdk_out or synthesize(work / "cdk.out")
        functions, path = prepare(outdir, work / "copy")
        shipped = {
            name: round(statistics.median(import_ms(folder, path) for _ in range(runs)), 1)
            for name, folder in sorted(functions.items())
        }
        for folder in [*functions.values(), *path[:2]]:
            compile_tree(folder)
        compiled = {
            name: round(statistics.median(import_ms(folder, path) for _ in range(runs)), 1)
            for name, folder in sorted(functions.items())
        }
    return {
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "runs": runs,
        "as_shipped_ms": shipped,
        "with_bytecode_ms": compiled,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cdk-out", type=Path, default=None, help="a synthesized cloud assembly (default: synth)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(measure(args.cdk_out, args.runs), indent=2))


if __name__ == "__main__":
    main()
