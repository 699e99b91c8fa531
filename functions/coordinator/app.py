"""The tournament's coordinator (SQS FIFO, message group = tournament): its hand ends in order, a batch at a time.

Each record is a ``HandEnded`` (or a ``RebuyClosed``); the service places and
pays the eliminated players, balances and breaks tables, forms the final table
and deals the next hands, settling the batch's hand ends together in as few
units of work as fit. A duplicate (a hand already coordinated) is a no-op.
When the batch fails, its records are taken again one at a time: a record
that fails then stops its own group only (``SqsFifoPartialProcessor`` with
``skip_group_on_error``): the rest of that tournament's records come back
later in order, other tournaments go on, and what the batch committed before
it failed is found a duplicate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import MetricUnit, correlate, logger, metrics, observed
from tourney.entrypoints.triggers import process_sqs, unless_stale
from tourney.entrypoints.wiring import services
from tourney.services.messages import HandEnded, RebuyClosed, parse_coordination

if TYPE_CHECKING:
    from tourney.services.views import Coordinated


def on_record(record: Any) -> None:
    message = parse_coordination(record.body)
    correlate(tournament_id=message.tournament_id, table_id=message.table, hand=message.hand)
    done = unless_stale(message.kind, lambda: services().coordinator.on_hand_ended(message))
    if isinstance(message, HandEnded) and done is not None and not done.duplicate:
        metrics.add_metric(name="HandsPlayed", unit=MetricUnit.Count, value=1)  # once per hand: the dashboard


def _hands_played(messages: list[HandEnded | RebuyClosed], answers: list[Coordinated]) -> int:
    return sum(isinstance(m, HandEnded) and not done.duplicate for m, done in zip(messages, answers, strict=True))


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> Any:
    try:
        messages = [parse_coordination(record["body"]) for record in event["Records"]]
        correlate(tournament_id=messages[0].tournament_id)
        answers = services().coordinator.on_hand_ends(messages)
    except Exception:  # taken again one record at a time, each failure reported on its own
        logger.warning("the batch failed: its records one at a time", exc_info=True)
        return process_sqs(event, context, on_record, fifo=True)
    metrics.add_metric(name="HandsPlayed", unit=MetricUnit.Count, value=_hands_played(messages, answers))
    return {"batchItemFailures": []}
