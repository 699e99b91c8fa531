"""Cold start of each Lambda handler: ``python -X importtime`` of its module (target < 300 ms each).

    python -m bench.cold_start [--runs 7]

Each function's module is imported in a fresh interpreter with ``-X
importtime``; the figure is the cumulative microseconds of the handler module
itself (everything it imports at module level), median of the runs, with the
environment every function is given (``infra.wiring.COMMON_ENVIRONMENT``). Bytecode
is compiled first (as the Lambda packaging should), so the figure is the
import, not the compilation: this environment sets PYTHONDONTWRITEBYTECODE,
which would otherwise make every run compile from source.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from infra.wiring import COMMON_ENVIRONMENT

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)")


def functions() -> list[str]:
    return sorted(p.name for p in (ROOT / "functions").iterdir() if (p / "app.py").exists())


def import_ms(name: str, env: dict[str, str]) -> float:
    module = f"functions.{name}.app"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    for line in done.stderr.splitlines():
        match = LINE.search(line)
        if match and match.group(3) == module:
            return int(match.group(2)) / 1000
    raise RuntimeError(f"no import time for {module}")


def measure(runs: int = 7) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | COMMON_ENVIRONMENT
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "layers")])
    for folder in ("functions", "layers"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)
    compileall.compile_path(quiet=1, skip_curdir=True)
    return {name: round(statistics.median(import_ms(name, env) for _ in range(runs)), 1) for name in functions()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    print(json.dumps(measure(parser.parse_args().runs)))


if __name__ == "__main__":
    main()
