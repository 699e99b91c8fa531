"""Rule 17: on-call learns when the watchdog itself stops (nothing would detect a stall then).

Every run of the watchdog that finishes emits ``WatchdogHeartbeat`` = 1; the
``WatchdogHeartbeat`` alarm (infra/monitoring.py) treats a period without it as breaching.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

import json

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.entrypoints.observability import metrics

from functions.watchdog.app import handler as watchdog
from tests.support.functions import clock, context, memory  # noqa: F401


def test_rule_17_every_watchdog_run_emits_a_heartbeat(
    memory: Services, clock: FrozenClock, context, capfd: pytest.CaptureFixture[str]
) -> None:
    # Given a room with nothing to watch
    capfd.readouterr()
    metrics.clear_metrics()
    # When the watchdog's schedule fires
    watchdog({}, context)
    # Then its run emitted one heartbeat (printed as EMF)
    captured = capfd.readouterr()
    lines = [json.loads(line) for line in (captured.out + captured.err).splitlines() if line.startswith("{")]
    assert [line["WatchdogHeartbeat"] for line in lines if "WatchdogHeartbeat" in line] == [[1.0]]
