"""The e2e tests' local stack: the real template, from the infra tests' synth (one per test run, shared by the xdist
workers, not the repository's cdk.out), started once per module. A module that runs a template of its own (a
fixture's) defines ``stack`` itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import local_stack
from tests.infra import conftest as infra_conftest

shared_synth = infra_conftest.synthesized  # the `synthesized` fixture, shared with the infra tests


@pytest.fixture(scope="module")
def stack(shared_synth: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRuntime]:
    with local_stack(shared_synth, tmp_path_factory) as runtime:
        yield runtime
