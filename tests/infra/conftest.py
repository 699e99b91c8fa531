"""The synthesized stack, built once per test run and shared by the modules (and the xdist workers).

A synth costs 5-10 s and about 0.5 GB, so every module reads the same cloud assembly: the
template as a dict, the cdk-nag report, the output folder (assets) and the synth time.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Iterator

import pytest

from tests.infra.template import Synthesized

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synthesized]:
    """One synth per test run: under xdist the first worker synthesizes, the others wait and read it."""
    from infra.stack import STACK_NAME, build_app

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, common to every worker
    outdir = shared / "infra-cdk.out"
    done = shared / "infra-synth.json"
    with (shared / "infra-synth.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            began = time.perf_counter()
            app, _ = build_app(outdir)
            app.synth()
            done.write_text(json.dumps({"seconds": time.perf_counter() - began}))
    seconds = json.loads(done.read_text())["seconds"]
    template = json.loads((outdir / f"{STACK_NAME}.template.json").read_text())
    report = json.loads((outdir / "validation-report.json").read_text())
    yield Synthesized(outdir, template, report, seconds)
