"""A decision's time-out (SQS standard queue, per-message delay): check or fold (docs/rules.md, rule 16).

Each record is a ``TimeoutDue`` (or a ``RebuyDue``: a rebuy window closed; or a
``TablesSettled``: the pushes and time-outs that follow a coordination batch).
A stale time-out (the decision was taken, or the hand is over) is a no-op;
one bad record does not fail the batch (Powertools batch processing, partial
responses); an infrastructure error is raised so SQS delivers the record again.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import correlate, observed
from tourney.entrypoints.triggers import process_sqs, unless_stale
from tourney.entrypoints.wiring import services
from tourney.services.messages import TablesSettled, parse_timer


def on_record(record: Any) -> None:
    message = parse_timer(record.body)
    if isinstance(message, TablesSettled):
        correlate(tournament_id=message.tournament_id)
        services().timeouts.on_tables_settled(message)
        return
    correlate(tournament_id=message.tournament_id, table_id=message.table, hand=message.hand)
    unless_stale(message.kind, lambda: services().timeouts.on_timeout(message))


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> Any:
    return process_sqs(event, context, on_record, fifo=False)
