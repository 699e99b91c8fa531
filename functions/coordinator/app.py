"""The tournament's coordinator (SQS FIFO, message group = tournament): one hand end at a time, in order.

Each record is a ``HandEnded`` (or a ``RebuyClosed``); the service places and
pays the eliminated players, balances and breaks tables, forms the final table
and deals the next hands. A duplicate (a hand already coordinated) is a no-op.
A record that fails stops its own group only (``SqsFifoPartialProcessor``
with ``skip_group_on_error``): the rest of that tournament's records come back
later in order, other tournaments go on.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import MetricUnit, correlate, metrics, observed
from tourney.entrypoints.triggers import process_sqs, unless_stale
from tourney.entrypoints.wiring import services
from tourney.services.messages import HandEnded, parse_coordination


def on_record(record: Any) -> None:
    message = parse_coordination(record.body)
    correlate(tournament_id=message.tournament_id, table_id=message.table, hand=message.hand)
    done = unless_stale(message.kind, lambda: services().coordinator.on_hand_ended(message))
    if isinstance(message, HandEnded) and done is not None and not done.duplicate:
        metrics.add_metric(name="HandsPlayed", unit=MetricUnit.Count, value=1)  # once per hand: the dashboard


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> Any:
    return process_sqs(event, context, on_record, fifo=True)
