"""The workflows' task functions' steps: a task's payload in, the answer the workflow's states read out.

``functions/start_tasks`` and ``functions/recovery_tasks`` answer Step Functions with these; the
simulated cloud and the test drivers call the same ones when they run a workflow's description
(``infra/workflow_states.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from tourney.entrypoints.models import (
    CancelHandsTask,
    CloseRegistrationTask,
    CompensateTask,
    DealFirstHandsTask,
    RecoveryTask,
    SeatBatchTask,
    StartTask,
    TryRestartTask,
)

if TYPE_CHECKING:
    from tourney.bootstrap import Services

AnyTask = CloseRegistrationTask | SeatBatchTask | DealFirstHandsTask | CancelHandsTask | TryRestartTask | CompensateTask

DONE = frozenset({"restarted", "nothing"})
"""Outcomes that end the recovery as a success: restarted, or nothing left to recover (not terminated any more)."""
WINDOW_CLOSED = "compensate"
"""The 20 minutes are over: compensate."""


def close_registration(services: Services, task: CloseRegistrationTask) -> dict[str, Any]:
    return services.start.close_registration(task.tournament_id).to_dict()


def seat_batch(services: Services, task: SeatBatchTask) -> dict[str, Any]:
    return services.start.seat_batch(task.tournament_id, task.batch).to_dict()


def deal_first_hands(services: Services, task: DealFirstHandsTask) -> dict[str, Any]:
    start = services.start
    # The Map passes the batch: its tables are what seat_batch wrote (seat_batch is idempotent: it finds them).
    return start.deal_first_hands(task.tournament_id, start.seat_batch(task.tournament_id, task.batch).tables).to_dict()


def cancel_hands(services: Services, task: CancelHandsTask) -> dict[str, Any]:
    return services.recovery.cancel_hands(task.tournament_id).to_dict()


def try_restart(services: Services, task: TryRestartTask) -> dict[str, Any]:
    step = services.recovery.try_restart(task.tournament_id)
    # Shape the service's outcome into the two flags the workflow's Choice state reads.
    return {**step.to_dict(), "restarted": step.outcome in DONE, "window_closed": step.outcome == WINDOW_CLOSED}


def compensate(services: Services, task: CompensateTask) -> dict[str, Any]:
    answer = services.recovery.compensate(task.tournament_id).to_dict()
    # Shaped for the workflow's Choice: call again while "more" (one step pays a bounded part of a large field).
    return {**answer, "more": bool(answer.get("more", False)), "remaining": int(answer.get("remaining", 0))}


STEPS: dict[str, Callable[[Services, Any], dict[str, Any]]] = {
    "close_registration": close_registration,
    "seat_batch": seat_batch,
    "deal_first_hands": deal_first_hands,
    "cancel_hands": cancel_hands,
    "try_restart": try_restart,
    "compensate": compensate,
}

_TASKS: dict[str, TypeAdapter[Any]] = {"start": TypeAdapter(StartTask), "recovery": TypeAdapter(RecoveryTask)}


def parse(workflow: str, payload: Mapping[str, Any]) -> AnyTask:
    """The task of ``workflow`` that ``payload`` asks for (``pydantic.ValidationError`` when malformed)."""
    task: AnyTask = _TASKS[workflow].validate_python(payload)
    return task


def answer(services: Services, task: AnyTask) -> dict[str, Any]:
    """Runs the task's step; what the workflow's states read."""
    return STEPS[task.step](services, task)
