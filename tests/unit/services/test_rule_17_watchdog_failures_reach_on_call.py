"""Rule 17: a tournament whose watch raises is seen by on-call, and the watchdog still checks the others.

The watchdog function logs each failed tournament as an error record
(``watch failed``, with its ``tournament_id`` and the exception) and counts
them in the ``WatchFailures`` metric, which an alarm watches.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

import json
import logging
from collections.abc import Sequence

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.entrypoints.observability import logger, metrics
from tourney.services.records import TableRecord

from functions.watchdog.app import handler as watchdog
from tests.support.functions import clock, context, memory, running  # noqa: F401


def test_rule_17_the_watchdog_logs_and_counts_a_tournament_whose_check_raised(
    memory: Services, clock: FrozenClock, context, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # Given a running tournament whose tables cannot be read
    tid, _ = running(memory, clock)
    store = memory.adapters.store

    def broken(tournament_id: str) -> Sequence[TableRecord]:
        raise RuntimeError("a table item that does not read")

    monkeypatch.setattr(store.tables, "list", broken)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger.addHandler(handler)
    capfd.readouterr()
    metrics.clear_metrics()  # another test's watchdog call in this process may have left its values unflushed
    # When the watchdog's schedule fires
    try:
        report = watchdog({}, context)
    finally:
        logger.removeHandler(handler)
    # Then it answers, listing the tournament as failed
    assert report["failed"] == [tid]
    # And it logged an error record with the tournament and the exception
    (error,) = [r for r in records if r.levelno == logging.ERROR]
    assert error.getMessage() == "watch failed" and error.__dict__["tournament_id"] == tid
    assert error.exc_info is not None and "a table item that does not read" in str(error.exc_info[1])
    # And counted it in the WatchFailures metric (printed as EMF)
    captured = capfd.readouterr()
    lines = [json.loads(line) for line in (captured.out + captured.err).splitlines() if line.startswith("{")]
    assert [line["WatchFailures"] for line in lines if "WatchFailures" in line] == [[1.0]]
