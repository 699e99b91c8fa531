"""The recovery workflow's tasks (Step Functions): docs/rules.md, rule 17.

Input ``{"step": ..., "tournament_id": ..., "terminated_at"?: ...}`` (infra/workflow_states.py); the steps
are ``tourney.entrypoints.workflow_tasks``'s:

- ``cancel_hands``: every hand in progress cancelled, stacks back to the start of the hand;
- ``try_restart``: answers ``{"restarted": bool, "window_closed": bool, ...}``
  for the workflow's choice (restarted, or nothing to recover: done; the 20
  minutes over: compensate; else wait and try again);
- ``compensate``: one step of paying rule 17.3 (rollback, prize-pool payout or refund and
  share): ``{"outcome": ..., "more": bool, "remaining": int, "paid": [...], ...}``; the workflow
  calls it again while ``more`` (``services/compensation.py``).

Each step is idempotent; errors go to the workflow's retry policy.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints import workflow_tasks
from tourney.entrypoints.observability import correlate, observed
from tourney.entrypoints.wiring import services


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    task = workflow_tasks.parse("recovery", event)
    correlate(tournament_id=task.tournament_id)
    return workflow_tasks.answer(services(), task)
