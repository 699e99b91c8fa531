"""The operators' HTTP API (CONTRACT.md): create and announce tournaments; terminate, restart or cancel them; deposits.

Every route is for the operators group only: a middleware refuses anyone else
with 403 before a route runs. Creation and deposits honour ``Idempotency-Key``
(a deposit's key is also its ledger key, so a replay never credits twice).
"""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.params import Header
from aws_lambda_powertools.event_handler.openapi.params import Path as PathParam
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.auth import http_caller
from tourney.entrypoints.dependencies import Accounts, Admin, CurrentCaller
from tourney.entrypoints.idempotency import once
from tourney.entrypoints.models import (
    CancelRequest,
    CreateTournamentRequest,
    DepositRequest,
    RestartRequest,
    TerminateRequest,
)
from tourney.entrypoints.observability import correlate, logger, observed
from tourney.entrypoints.resolver import error_responses, http_resolver
from tourney.services.commands import CreateTournament
from tourney.services.views import Cancelled, Created, DepositView, Restarted, Terminated

app = http_resolver()

TournamentId = Annotated[str, PathParam(min_length=1, max_length=64, description="tournament id")]
IdempotencyKey = Annotated[
    str | None,
    Header(alias="Idempotency-Key", min_length=1, max_length=128, description="replays answer the first answer"),
]


def operators_only(app: APIGatewayHttpResolver, next_middleware: NextMiddleware) -> Response[Any]:
    """Refuse every caller outside the operators group (403) before any route runs."""
    http_caller(app.current_event.raw_event).require_operator()
    return next_middleware(app)


app.use(middlewares=[operators_only])


@app.post(
    "/admin/tournaments",
    status_code=201,
    responses=error_responses(403, 409, success=201, description="created and announced"),
)
def create_tournament(
    body: CreateTournamentRequest, caller: CurrentCaller, admin: Admin, idempotency_key: IdempotencyKey = None
) -> Created:
    command = CreateTournament(**body.model_dump(exclude_none=True), operator=caller.player_id)
    answer = once(
        scope=f"create:{caller.player_id}",
        key=idempotency_key,
        payload=body.model_dump(mode="json"),
        call=lambda: admin.create_tournament(command),
        answer_type=Created,
        lambda_context=app.lambda_context,
    )
    correlate(tournament_id=answer.id)
    logger.info("tournament created", extra={"operator": caller.player_id})
    return answer


@app.post("/admin/tournaments/<id>/terminate", responses=error_responses(403, 404, 409))
def terminate(
    id: TournamentId, caller: CurrentCaller, admin: Admin, body: TerminateRequest | None = None
) -> Terminated:
    correlate(tournament_id=id)
    reason = body.reason if body is not None else TerminateRequest().reason
    logger.info("termination asked", extra={"operator": caller.player_id, "reason": reason})
    return admin.terminate(id, caller.player_id, reason)


@app.post("/admin/tournaments/<id>/cancel", responses=error_responses(403, 404, 409))
def cancel(id: TournamentId, caller: CurrentCaller, admin: Admin, body: CancelRequest | None = None) -> Cancelled:
    """Cancel before the start, refunding everyone in full (RULES.md, rules 17.6, 19); 409 once it runs."""
    correlate(tournament_id=id)
    reason = body.reason if body is not None else CancelRequest().reason
    logger.info("cancel asked", extra={"operator": caller.player_id, "reason": reason})
    return admin.cancel(id, caller.player_id, reason)


@app.post("/admin/tournaments/<id>/restart", responses=error_responses(403, 404, 409))
def restart(id: TournamentId, caller: CurrentCaller, admin: Admin, body: RestartRequest | None = None) -> Restarted:
    """Restart a terminated tournament within 20 minutes of its termination (RULES.md, rule 17); else 409."""
    correlate(tournament_id=id)
    reason = body.reason if body is not None else RestartRequest().reason
    logger.info("restart asked", extra={"operator": caller.player_id, "reason": reason})
    return admin.restart(id, caller.player_id, reason)


@app.post("/admin/accounts/<player>/deposits", status_code=201, responses=error_responses(403, 409, success=201))
def deposit(
    player: Annotated[str, PathParam(min_length=1, max_length=128, description="the player credited")],
    body: DepositRequest,
    caller: CurrentCaller,
    accounts: Accounts,
    idempotency_key: IdempotencyKey = None,
) -> DepositView:
    # Every deposit has a ledger key: the client's, else this request's id (a retry of it is then a new deposit).
    key = body.key or idempotency_key or f"deposit:{app.current_event.request_context.request_id}"
    logger.info("deposit", extra={"operator": caller.player_id, "player": player, "amount": body.amount})
    answer = once(
        scope=f"deposit:{player}",
        key=idempotency_key,
        payload=body.model_dump(mode="json"),
        call=lambda: accounts.deposit(player, body.amount, key),
        answer_type=DepositView,
        lambda_context=app.lambda_context,
    )
    return answer


@observed(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
