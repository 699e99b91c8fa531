"""The local runtime logs every failure as a JSON error record naming the function, tournament and table of
that request, never another thread's (its functions run concurrent invocations in threads of one process).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from infra.local.lambdas import FAILURES_LOGGER, LocalFunction

HANDLER = """
from tourney.entrypoints.observability import correlate, logger, observed


@observed()
def handler(event, context):
    correlate(tournament_id=event["tournament"], table_id=event["table"])
    event["together"].wait(timeout=30)  # every invocation has correlated before any logs or fails
    logger.error("cannot settle", extra={"who": event["tournament"]})
    raise RuntimeError(f"settling {event['tournament']} failed")
"""


def function(tmp_path: Path) -> LocalFunction:
    code = tmp_path / "code"
    code.mkdir()
    (code / "app.py").write_text(HANDLER)
    return LocalFunction(
        logical_id="FunctionCoordinator",
        name="Tourney-FunctionCoordinator",
        handler="app.handler",
        runtime="python3.12",
        code_dir=code,
        environment={"POWERTOOLS_SERVICE_NAME": "tourney"},
        timeout_seconds=60,
        concurrency=4,
    )


@contextlib.contextmanager
def failure_records() -> Iterator[list[dict[str, Any]]]:
    """The JSON error records the runtime logs meanwhile (read on its own logger, whatever propagates)."""
    records: list[dict[str, Any]] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = lambda record: records.append(json.loads(record.getMessage()))  # type: ignore[method-assign]
    failures = logging.getLogger(FAILURES_LOGGER)
    failures.addHandler(handler)
    try:
        yield records
    finally:
        failures.removeHandler(handler)


@contextlib.contextmanager
def handler_lines() -> Iterator[list[dict[str, Any]]]:
    """The JSON lines the handlers log meanwhile through the layer's Powertools logger.

    That logger is built once per process and writes to the ``sys.stdout`` of the moment the layer was first
    imported (perhaps an earlier test's capture, not this test's), so the block points its handler at a buffer
    of its own, then back.
    """
    from tourney.entrypoints.observability import logger

    handler = logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    lines: list[dict[str, Any]] = []
    try:
        yield lines
    finally:
        handler.setStream(previous)
        lines.extend(json.loads(line) for line in buffer.getvalue().splitlines() if line.startswith("{"))


def invoke_failing(fn: LocalFunction, event: dict[str, Any]) -> str:
    try:
        fn.invoke(event)
    except RuntimeError as error:
        return str(error)
    raise AssertionError("the handler did not fail")


def test_each_failure_is_a_json_error_record_with_its_own_requests_function_tournament_and_table(
    tmp_path: Path,
) -> None:
    # Given a function whose four concurrent invocations each correlate to their own tournament and table
    fn = function(tmp_path)
    together = threading.Barrier(4)
    events = [{"tournament": f"t{k}", "table": f"{k}", "together": together} for k in range(4)]
    # When all four fail at once, each after the others have correlated
    with failure_records() as records, handler_lines() as lines, ThreadPoolExecutor(max_workers=4) as pool:
        failures = list(pool.map(lambda event: invoke_failing(fn, event), events))
    assert failures == [f"settling t{k} failed" for k in range(4)]
    # Then the runtime logged one JSON error record per failure, with that request's function, tournament, table
    assert sorted((r["tournament_id"], r["table_id"]) for r in records) == [(f"t{k}", f"{k}") for k in range(4)]
    for record in records:
        assert record["level"] == "ERROR" and record["function"] == "Tourney-FunctionCoordinator"
        assert record["error_type"] == "RuntimeError"
        assert record["error_message"] == f"settling {record['tournament_id']} failed"
        assert "stack_trace" in record and record["request_id"]
    # And the handlers' own error lines (Powertools' JSON) carry their own request's tournament, not another's
    handled = [line for line in lines if line.get("message") == "cannot settle"]
    assert len(handled) == 4
    for line in handled:
        assert line["tournament_id"] == line["who"], line
        assert line["table_id"] == line["who"].removeprefix("t"), line
        assert line["function_name"] == "Tourney-FunctionCoordinator"


def test_a_failure_before_the_handler_correlates_names_the_request_from_its_event(tmp_path: Path) -> None:
    # Given a function that fails before it says which tournament it handles
    code = tmp_path / "code"
    code.mkdir()
    (code / "app.py").write_text("def handler(event, context):\n    raise ValueError('unreadable body')\n")
    fn = LocalFunction("FunctionApi", "Tourney-FunctionApi", "app.handler", "python3.12", code, {}, 10)
    event = {"routeKey": "GET /tournaments/{id}/tables/{table}", "pathParameters": {"id": "t9", "table": "3"}}
    # When an HTTP request for a table fails
    with failure_records() as records, pytest.raises(ValueError):
        fn.invoke(event)
    # Then its error record names the tournament and the table from the request's path
    (record,) = records
    assert (record["function"], record["tournament_id"], record["table_id"]) == ("Tourney-FunctionApi", "t9", "3")
    assert record["error_type"] == "ValueError"
