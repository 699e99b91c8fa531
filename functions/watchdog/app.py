"""Every minute (EventBridge Scheduler): set stalled play going again, or terminate it (docs/rules.md, rule 17).

It sends lost hand ends again (backing off), re-arms lost time-outs, starts a
failed start workflow again, resumes tables a restart left halted, requests a
lost recovery workflow again, and terminates a tournament whose tables made
no progress past their own deadline (termination starts the recovery
workflow). Every one of these is idempotent, so overlapping runs are harmless.
A tournament whose check raises is logged as an error and counted
(``WatchFailures``); the others are checked all the same. Every run that finishes
emits ``WatchdogHeartbeat``, whose alarm breaches when it is missing.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import MetricUnit, logger, metrics, observed, tournament_failed
from tourney.entrypoints.wiring import services


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    report = services().recovery.watch(on_error=tournament_failed("watch failed"))
    metrics.add_metric(name="TournamentsTerminated", unit=MetricUnit.Count, value=len(report.terminated))
    metrics.add_metric(name="ActiveTournaments", unit=MetricUnit.Count, value=report.running_tournaments)
    metrics.add_metric(name="ActiveTables", unit=MetricUnit.Count, value=report.open_tables)
    metrics.add_metric(name="WatchFailures", unit=MetricUnit.Count, value=len(report.failed))
    metrics.add_metric(name="WatchdogHeartbeat", unit=MetricUnit.Count, value=1)
    logger.info("watch done", extra=report.to_dict())
    return report.to_dict()
