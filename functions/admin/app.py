"""The operators' HTTP API (docs/interfaces.md): create and announce tournaments; terminate, restart or cancel
them; deposits; stack and balance adjustments, disqualifications, mutes, and the audit of every act
(docs/rules.md, rule 19).

Every route is for the operators group only: a middleware refuses anyone else
with 403 before a route runs. Creation and deposits honour ``Idempotency-Key``
(a deposit's key is also its ledger key, so a replay never credits twice).
The management acts take a key (the body's, else ``Idempotency-Key``, else
the request's id) from which their audit record's id is made: a replay of the
act finds its record and changes nothing.
"""

from __future__ import annotations

# First: Powertools' event handler then loads only the modules this function uses, not every resolver.
import tourney.entrypoints.lazy_packages  # noqa: F401

# isort: split
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.params import Header, Query
from aws_lambda_powertools.event_handler.openapi.params import Path as PathParam
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.auth import Caller, http_caller
from tourney.entrypoints.chat import Chat, ChatLogBody
from tourney.entrypoints.creation import CreateTournamentRequest
from tourney.entrypoints.dependencies import Accounts, Admin, CurrentCaller
from tourney.entrypoints.idempotency import once
from tourney.entrypoints.management import (
    AdjustmentRequest,
    Audit,
    AuditBody,
    DisqualifyRequest,
    Management,
    MuteRequest,
    Recovery,
    RecoveryBody,
    StackRequest,
    UnmuteRequest,
)
from tourney.entrypoints.models import (
    PLAYER_ID_PATTERN,
    CancelRequest,
    DepositRequest,
    RestartRequest,
    TerminateRequest,
)
from tourney.entrypoints.observability import correlate, logger, observed
from tourney.entrypoints.resolver import error_responses, http_resolver
from tourney.services.views import Cancelled, Created, DepositView, Restarted, Terminated

app = http_resolver(gate=lambda event: http_caller(event).require_operator())  # 403 before a body is even read

TournamentId = Annotated[str, PathParam(min_length=1, max_length=64, description="tournament id")]
PlayerName = Annotated[
    str,
    PathParam(
        pattern=PLAYER_ID_PATTERN,
        description="the player's id: a letter or digit, then up to 63 letters, digits, _, . or - (else 422)",
    ),
]
IdempotencyKey = Annotated[
    str | None,
    Header(alias="Idempotency-Key", min_length=1, max_length=128, description="replays answer the first answer"),
]


def operators_only(app: APIGatewayHttpResolver, next_middleware: NextMiddleware) -> Response[Any]:
    """Refuse every caller outside the operators group (403) before any route runs."""
    http_caller(app.current_event.raw_event).require_operator()
    return next_middleware(app)


app.use(middlewares=[operators_only])


def log_act(what: str, caller: Caller, tournament_id: str | None = None, **facts: Any) -> None:
    """Log an operator's act (asked, or done), correlated with the tournament it is about."""
    if tournament_id is not None:
        correlate(tournament_id=tournament_id)
    logger.info(what, extra={"operator": caller.player_id, **facts})


@app.post(
    "/admin/tournaments",
    status_code=201,
    responses=error_responses(403, 409, success=201, description="created and announced"),
)
def create_tournament(
    body: CreateTournamentRequest, caller: CurrentCaller, admin: Admin, idempotency_key: IdempotencyKey = None
) -> Created:
    from tourney.services.commands import CreateTournament  # the create route's alone: not at every cold start

    command = CreateTournament(**body.model_dump(exclude_none=True), operator=caller.player_id)
    answer = once(
        scope=f"create:{caller.player_id}",
        key=idempotency_key,
        payload=body.model_dump(mode="json"),
        call=lambda: admin.create_tournament(command),
        answer_type=Created,
        lambda_context=app.lambda_context,
    )
    log_act("tournament created", caller, answer.id)
    return answer


@app.post("/admin/tournaments/<id>/terminate", responses=error_responses(403, 404, 409))
def terminate(id: TournamentId, body: TerminateRequest, caller: CurrentCaller, admin: Admin) -> Terminated:
    """Terminate a running tournament, starting its recovery (docs/rules.md, rule 17); a reason is required (422)."""
    log_act("termination asked", caller, id, reason=body.reason)
    return admin.terminate(id, caller.player_id, body.reason)


@app.post("/admin/tournaments/<id>/cancel", responses=error_responses(403, 404, 409))
def cancel(id: TournamentId, body: CancelRequest, caller: CurrentCaller, admin: Admin) -> Cancelled:
    """Cancel before the first hand, refunding everyone in full (docs/rules.md, rules 17.6, 19); 409 once one was dealt.

    A reason is required (422)."""
    log_act("cancel asked", caller, id, reason=body.reason)
    return admin.cancel(id, caller.player_id, body.reason)


@app.post("/admin/tournaments/<id>/restart", responses=error_responses(403, 404, 409))
def restart(id: TournamentId, caller: CurrentCaller, admin: Admin, body: RestartRequest | None = None) -> Restarted:
    """Restart a terminated tournament within 20 minutes of its termination (docs/rules.md, rule 17); else 409."""
    reason = body.reason if body is not None else RestartRequest().reason
    log_act("restart asked", caller, id, reason=reason)
    return admin.restart(id, caller.player_id, reason)


@app.get("/admin/tournaments/<id>/recovery", responses=error_responses(403, 404, 409))
def recovery(id: TournamentId, recovery: Recovery) -> RecoveryBody:
    """A terminated tournament's recovery: the restart window left and the outcome (pending, restarted or
    compensated), rule 17.3's outcome and the amounts paid (docs/rules.md, rule 17); 409 when never terminated."""
    correlate(tournament_id=id)
    return RecoveryBody.model_validate(recovery.report(id).to_dict())


@app.post("/admin/accounts/<player>/deposits", status_code=201, responses=error_responses(403, 404, 409, success=201))
def deposit(
    player: PlayerName,
    body: DepositRequest,
    caller: CurrentCaller,
    management: Management,
    accounts: Accounts,
    idempotency_key: IdempotencyKey = None,
) -> DepositView:
    """Credit the player's account, which exists once they signed in (404 otherwise: docs/rules.md, rule 19)."""
    accounts.require_account(player)
    # Every deposit has a ledger key: the client's, else this request's id (a retry of it is then a new deposit).
    key = body.key or idempotency_key or f"deposit:{app.current_event.request_context.request_id}"
    log_act("deposit", caller, player=player, amount=body.amount)
    answer = once(
        scope=f"deposit:{player}",
        key=idempotency_key,
        payload=body.model_dump(mode="json"),
        call=lambda: management.deposit(player, body.amount, caller.player_id, key),
        answer_type=DepositView,
        lambda_context=app.lambda_context,
    )
    return answer


def keyed_act(
    what: str, caller: Caller, body_key: str | None, header: str | None, tournament_id: str | None = None, **facts: Any
) -> str:
    """Log a management act and answer its key: the body's, else the Idempotency-Key header, else this request's
    id (a retry is then a new act)."""
    log_act(what, caller, tournament_id, **facts)
    return body_key or header or f"request:{app.current_event.request_context.request_id}"


@app.post(
    "/admin/tournaments/<id>/players/<player>/stack",
    responses=error_responses(403, 404, 409, description="adjusted (or pending until the player's hand ends)"),
)
def adjust_stack(
    id: TournamentId,
    player: PlayerName,
    body: StackRequest,
    caller: CurrentCaller,
    management: Management,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Add or remove chips between hands at the player's table (docs/rules.md, rule 19); 409 while it cannot apply."""
    key = keyed_act("stack adjustment", caller, body.key, idempotency_key, id, player=player, delta=body.delta)
    return management.adjust_stack(id, player, body.delta, caller.player_id, body.reason, key).to_dict()


@app.post("/admin/tournaments/<id>/players/<player>/disqualify", responses=error_responses(403, 404, 409))
def disqualify(
    id: TournamentId, player: PlayerName, body: DisqualifyRequest, caller: CurrentCaller, management: Management
) -> dict[str, Any]:
    """Disqualify: the hand in progress folded at once, the chips out of play when it ends, no place (rule 19).

    A reason is required (422)."""
    log_act("disqualification", caller, id, player=player)
    return management.disqualify(id, player, caller.player_id, body.reason).to_dict()


@app.post("/admin/players/<player>/mute", responses=error_responses(403, 409))
def mute(
    player: PlayerName,
    body: MuteRequest,
    caller: CurrentCaller,
    management: Management,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Mute the player in every table chat, for ``minutes`` or until unmuted (docs/rules.md, rules 18, 19)."""
    key = keyed_act("mute", caller, body.key, idempotency_key, player=player, minutes=body.minutes)
    return management.mute(player, caller.player_id, body.reason, body.minutes, key).to_dict()


@app.delete("/admin/players/<player>/mute", responses=error_responses(403, 409))
def unmute(
    player: PlayerName,
    caller: CurrentCaller,
    management: Management,
    body: UnmuteRequest | None = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Lift the player's mute; 409 when they are not muted."""
    request = body if body is not None else UnmuteRequest()
    key = keyed_act("unmute", caller, request.key, idempotency_key, player=player)
    return management.unmute(player, caller.player_id, request.reason, key).to_dict()


@app.post(
    "/admin/accounts/<player>/adjustments", status_code=201, responses=error_responses(403, 404, 409, success=201)
)
def adjust_balance(
    player: PlayerName,
    body: AdjustmentRequest,
    caller: CurrentCaller,
    management: Management,
    accounts: Accounts,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """A double-entry adjustment with the house's adjustments account (rule 19); 422 if the balance would go below 0;
    404 when the player has no account."""
    accounts.require_account(player)
    key = keyed_act("balance adjustment", caller, body.key, idempotency_key, player=player, amount=body.amount)
    return management.adjust_balance(player, body.amount, caller.player_id, body.reason, key).to_dict()


@app.get("/admin/audit", responses=error_responses(403, 409))
def audit(
    audit: Audit,
    tournament: Annotated[str | None, Query(min_length=1, max_length=64, description="a tournament's acts")] = None,
    player: Annotated[str | None, Query(min_length=1, max_length=128, description="a player's acts")] = None,
) -> AuditBody:
    """Every operator act about one tournament or one player, oldest first (``?tournament=ID`` or ``?player=NAME``);
    with neither, the latest 100 acts, newest first."""
    return AuditBody.model_validate(audit.listing(tournament=tournament, player=player).to_dict())


@app.get("/admin/tournaments/<id>/tables/<table>/chat", responses=error_responses(403, 404))
def table_chat(
    id: TournamentId,
    table: Annotated[str, PathParam(min_length=1, max_length=64, description="table id")],
    chat: Chat,
) -> ChatLogBody:
    """Every line said at the table, with the hand it was said in; refused ones with their reason (rule 18)."""
    return ChatLogBody.model_validate(chat.lines(id, table).to_dict())


@observed(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
