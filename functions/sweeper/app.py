"""Every 15 minutes (EventBridge Scheduler): refund tournaments that should have started and did not (rule 17.6).

The schedule's input carries nothing the sweep needs (the time is the
service's clock). Refunds are idempotent by their ledger keys, so an overlap
of two sweeps pays nobody twice.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import MetricUnit, logger, metrics, observed
from tourney.entrypoints.wiring import services


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    report = services().recovery.sweep()
    metrics.add_metric(name="TournamentsRefunded", unit=MetricUnit.Count, value=len(report.refunded))
    logger.info("sweep done", extra={"refunded": list(report.refunded)})
    return report.to_dict()
