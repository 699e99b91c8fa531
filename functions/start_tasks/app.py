"""The start workflow's tasks (Step Functions, Map over batches of tables): docs/rules.md, rules 2, 3, 5, 6.

Input ``{"step": ..., "tournament_id": ..., "batch"?: n}`` (infra/workflows.py):

- ``close_registration``: close registration, refund the waiting list (or
  cancel below the minimum); answers the plan, whose ``batches`` the Map
  states iterate;
- ``seat_batch``: write one batch's tables and draw their buttons;
- ``deal_first_hands``: deal the first hand at one batch's tables.

Each step is idempotent (a retried task finds what it wrote). Errors are not
swallowed: the workflow's retry policy retries the task.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import TypeAdapter
from tourney.entrypoints.models import (
    CloseRegistrationTask,
    DealFirstHandsTask,
    SeatBatchTask,
    StartTask,
)
from tourney.entrypoints.observability import correlate, observed
from tourney.entrypoints.wiring import services

_TASK: TypeAdapter[CloseRegistrationTask | SeatBatchTask | DealFirstHandsTask] = TypeAdapter(StartTask)


def close_registration(task: CloseRegistrationTask) -> dict[str, Any]:
    return services().start.close_registration(task.tournament_id).to_dict()


def seat_batch(task: SeatBatchTask) -> dict[str, Any]:
    return services().start.seat_batch(task.tournament_id, task.batch).to_dict()


def deal_first_hands(task: DealFirstHandsTask) -> dict[str, Any]:
    start = services().start
    # The Map passes the batch: its tables are what seat_batch wrote (seat_batch is idempotent: it finds them).
    tables = task.tables if task.tables is not None else start.seat_batch(task.tournament_id, task.batch or 0).tables
    return start.deal_first_hands(task.tournament_id, tables).to_dict()


STEPS = {
    "close_registration": close_registration,
    "seat_batch": seat_batch,
    "deal_first_hands": deal_first_hands,
}


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    task = _TASK.validate_python(event)
    correlate(tournament_id=task.tournament_id)
    answer: dict[str, Any] = STEPS[task.step](task)  # type: ignore[operator]
    return answer
