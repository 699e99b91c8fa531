"""A local function runs several invocations at a time, each in a warm instance of its own (Lambda scaling out).

No assertion reads a duration (a busy machine may be slow at anything): the handler leaves a marker file while
it runs, so an invocation sees which others are running with it.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from infra.local.lambdas import LocalFunction

HANDLER = """
import os
import time
from pathlib import Path

calls = []


def handler(event, context):
    calls.append(event)  # module state: one instance's own
    markers = Path(event["markers"])
    (markers / f"arrived-{event['n']}").touch()
    inside = markers / f"inside-{event['n']}"
    inside.touch()
    # Stay until `together` invocations have arrived (a generous deadline), or for a moment when alone
    deadline = time.monotonic() + (30.0 if event["together"] > 1 else 0.2)
    most = 0
    while True:
        most = max(most, len(list(markers.glob("inside-*"))))
        arrived = len(list(markers.glob("arrived-*")))
        if (event["together"] > 1 and arrived >= event["together"]) or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    inside.unlink()
    return {
        "instance": id(calls), "calls": len(calls), "env": os.environ["ONLY_HERE"],
        "arrived": arrived, "most_inside": most,
    }
"""


def function(tmp_path: Path, concurrency: int) -> LocalFunction:
    code = tmp_path / "code"
    code.mkdir()
    (code / "app.py").write_text(HANDLER)
    return LocalFunction(
        logical_id="Fn",
        name=f"fn-{concurrency}",
        handler="app.handler",
        runtime="python3.12",
        code_dir=code,
        environment={"ONLY_HERE": "yes"},
        timeout_seconds=60,
        concurrency=concurrency,
    )


def run(fn: LocalFunction, markers: Path, n: int, together: int) -> list[dict[str, Any]]:
    markers.mkdir()
    events = [{"markers": str(markers), "n": k, "together": together} for k in range(n)]
    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(fn.invoke, events))


def test_concurrent_invocations_run_at_once_in_separate_instances(tmp_path: Path) -> None:
    # Given a function allowed 4 concurrent invocations
    fn = function(tmp_path, concurrency=4)
    # When 4 invocations arrive together, each waiting until all 4 have arrived
    answers = run(fn, tmp_path / "first", 4, together=4)
    # Then each saw the 4 arrive while it was still running: they ran at the same time, each in an instance of
    # its own, with the function's environment
    assert [a["arrived"] for a in answers] == [4, 4, 4, 4]
    assert len({a["instance"] for a in answers}) == 4
    assert all(a["calls"] == 1 and a["env"] == "yes" for a in answers)
    # And the warm instances are reused afterwards
    again = run(fn, tmp_path / "again", 4, together=4)
    assert {a["instance"] for a in again} == {a["instance"] for a in answers}


def test_a_function_reserved_to_one_runs_its_invocations_one_at_a_time(tmp_path: Path) -> None:
    # Given a function reserved to one concurrent invocation
    fn = function(tmp_path, concurrency=1)
    # When 3 invocations arrive together
    answers = run(fn, tmp_path / "markers", 3, together=1)
    # Then each ran alone (no other was running while it ran), one after the other in one warm instance
    assert [a["most_inside"] for a in answers] == [1, 1, 1]
    assert len({a["instance"] for a in answers}) == 1
    assert sorted(a["calls"] for a in answers) == [1, 2, 3]
