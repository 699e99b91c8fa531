"""A tournament's start time came (EventBridge Scheduler, one schedule per tournament) or a Sit&Go filled.

The schedule's input is ``{"tournament_id": ...}``; the service starts the
start workflow (at most once per tournament: its execution name). A start
asked for twice, or for a tournament already started or cancelled, is logged
and ignored.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.observability import correlate, observed
from tourney.entrypoints.triggers import unless_stale
from tourney.entrypoints.wiring import services
from tourney.services.messages import StartTournament


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    message = StartTournament.model_validate(event)
    correlate(tournament_id=message.tournament_id)
    started = unless_stale(message.kind, lambda: services().start.start_due(message.tournament_id))
    return started.to_dict() if started is not None else {"tournament_id": message.tournament_id, "started": False}
