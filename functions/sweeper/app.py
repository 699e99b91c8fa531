"""Every 15 minutes (EventBridge Scheduler): refund tournaments that should have started and did not (rule 17.6).

That is a tournament still registering past its start time, and one whose
start closed registration but never dealt a hand an hour after its start time
(its start keeps failing). The schedule's input carries nothing the sweep
needs (the time is the service's clock). Refunds are idempotent by their
ledger keys, so an overlap of two sweeps pays nobody twice. A tournament
whose sweep raises is logged as an error; the others are swept all the same.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import MetricUnit, logger, metrics, observed, tournament_failed
from tourney.entrypoints.wiring import services


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    report = services().recovery.sweep(on_error=tournament_failed("sweep failed"))
    metrics.add_metric(name="TournamentsRefunded", unit=MetricUnit.Count, value=len(report.refunded))
    logger.info("sweep done", extra={"refunded": list(report.refunded), "failed": list(report.failed)})
    return report.to_dict()
