"""A local function runs several invocations at a time, each in a warm instance of its own (Lambda scaling out)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from infra.local.lambdas import LocalFunction

HANDLER = """
import time

calls = []


def handler(event, context):
    calls.append(event)  # module state: one instance's own
    time.sleep(0.3)
    return {"instance": id(calls), "calls": len(calls), "env": __import__("os").environ["ONLY_HERE"]}
"""


def function(tmp_path: Path, concurrency: int) -> LocalFunction:
    (tmp_path / "app.py").write_text(HANDLER)
    return LocalFunction(
        logical_id="Fn",
        name=f"fn-{concurrency}",
        handler="app.handler",
        runtime="python3.12",
        code_dir=tmp_path,
        environment={"ONLY_HERE": "yes"},
        timeout_seconds=5,
        concurrency=concurrency,
    )


def run(fn: LocalFunction, n: int) -> tuple[float, list[dict[str, Any]]]:
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=n) as pool:
        answers = list(pool.map(fn.invoke, range(n)))
    return time.monotonic() - started, answers


def test_concurrent_invocations_run_at_once_in_separate_instances(tmp_path: Path) -> None:
    # Given a function allowed 4 concurrent invocations
    fn = function(tmp_path, concurrency=4)
    # When 4 invocations arrive together
    elapsed, answers = run(fn, 4)
    # Then they ran at the same time, each in an instance of its own, with the function's environment
    assert elapsed < 0.9
    assert len({a["instance"] for a in answers}) == 4
    assert all(a["calls"] == 1 and a["env"] == "yes" for a in answers)
    # And the warm instances are reused afterwards
    _, again = run(fn, 4)
    assert {a["instance"] for a in again} == {a["instance"] for a in answers}


def test_a_function_reserved_to_one_runs_its_invocations_one_at_a_time(tmp_path: Path) -> None:
    fn = function(tmp_path, concurrency=1)
    elapsed, answers = run(fn, 3)
    assert elapsed >= 0.9
    assert len({a["instance"] for a in answers}) == 1
    assert sorted(a["calls"] for a in answers) == [1, 2, 3]
