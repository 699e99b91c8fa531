"""The recovery workflow's tasks (Step Functions): docs/rules.md, rule 17.

Input ``{"step": ..., "tournament_id": ..., "terminated_at"?: ...}`` (infra/workflows.py):

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
from pydantic import TypeAdapter
from tourney.entrypoints.models import CancelHandsTask, CompensateTask, RecoveryTask, TryRestartTask
from tourney.entrypoints.observability import correlate, observed
from tourney.entrypoints.wiring import services

_TASK: TypeAdapter[CancelHandsTask | TryRestartTask | CompensateTask] = TypeAdapter(RecoveryTask)

DONE = frozenset({"restarted", "nothing"})
"""Outcomes that end the workflow as a success: restarted, or nothing left to recover (not terminated any more)."""
WINDOW_CLOSED = "compensate"
"""The 20 minutes are over: compensate."""


def cancel_hands(task: CancelHandsTask) -> dict[str, Any]:
    return services().recovery.cancel_hands(task.tournament_id).to_dict()


def try_restart(task: TryRestartTask) -> dict[str, Any]:
    step = services().recovery.try_restart(task.tournament_id)
    # Shape the service's outcome into the two flags the workflow's Choice state reads.
    return {
        **step.to_dict(),
        "restarted": step.outcome in DONE,
        "window_closed": step.outcome == WINDOW_CLOSED,
    }


def compensate(task: CompensateTask) -> dict[str, Any]:
    answer = services().recovery.compensate(task.tournament_id).to_dict()
    # Shaped for the workflow's Choice: call again while "more" (one step pays a bounded part of a large field).
    return {**answer, "more": bool(answer.get("more", False)), "remaining": int(answer.get("remaining", 0))}


STEPS = {"cancel_hands": cancel_hands, "try_restart": try_restart, "compensate": compensate}


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    task = _TASK.validate_python(event)
    correlate(tournament_id=task.tournament_id)
    answer: dict[str, Any] = STEPS[task.step](task)  # type: ignore[operator]
    return answer
