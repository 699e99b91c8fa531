"""The start workflow's tasks (Step Functions, Map over batches of tables): docs/rules.md, rules 2, 3, 5, 6.

Input ``{"step": ..., "tournament_id": ..., "batch"?: n}`` (infra/workflow_states.py); the steps are
``tourney.entrypoints.workflow_tasks``'s:

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
from tourney.entrypoints import workflow_tasks
from tourney.entrypoints.observability import correlate, observed
from tourney.entrypoints.wiring import services


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    task = workflow_tasks.parse("start", event)
    correlate(tournament_id=task.tournament_id)
    return workflow_tasks.answer(services(), task)
