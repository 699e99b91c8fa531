"""The synthesized stack, built once per test session (per xdist worker) and shared by the modules.

A synth costs 5-10 s and about 0.5 GB, so every module reads the same cloud assembly: the
template as a dict, the cdk-nag report, the output folder (assets) and the synth time.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator

import pytest

from tests.infra.template import Synthesized

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synthesized]:
    from infra.stack import STACK_NAME, build_app

    outdir = tmp_path_factory.mktemp("cdk.out")
    began = time.perf_counter()
    app, _ = build_app(outdir)
    app.synth()
    seconds = time.perf_counter() - began
    template = json.loads((outdir / f"{STACK_NAME}.template.json").read_text())
    report = json.loads((outdir / "validation-report.json").read_text())
    yield Synthesized(outdir, template, report, seconds)
