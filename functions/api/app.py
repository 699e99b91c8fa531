"""The players' HTTP API (docs/interfaces.md, 'HTTP API'): lobby, registration, accounts, tables, actions, histories.

Thin: each route reads the caller from the JWT authorizer's claims, calls one
service and answers its view; ``tourney.entrypoints.resolver`` maps errors to
HTTP. The caller's id is passed to every service that must check a seat or
hide hole cards: a player acts only at their own seat and sees only their own
cards (the services build each view per viewer).

Also serves ``GET /openapi.json``, ``GET /asyncapi.json`` (the WebSocket API) and ``GET /swagger`` (no token
needed).
"""

from __future__ import annotations

# First: Powertools' event handler then loads only the modules this function uses, not every resolver.
import tourney.entrypoints.lazy_packages  # noqa: F401

# isort: split
import json
from pathlib import Path
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Header
from aws_lambda_powertools.event_handler.openapi.params import Path as PathParam
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from tourney.entrypoints.apidocs import describe
from tourney.entrypoints.dependencies import Accounts, CurrentCaller, Lobby, Play, Registration
from tourney.entrypoints.models import MAX_HAND, ActionRequest, ProfileRequest
from tourney.entrypoints.observability import MetricUnit, correlate, metrics, observed
from tourney.entrypoints.resolver import OPENAPI_INFO, error_responses, http_resolver
from tourney.services.views import (
    AccountView,
    ActionOutcome,
    HandHistoryView,
    LedgerView,
    MyRegistration,
    PresenceView,
    ProfileView,
    PurchaseView,
    RegistrationView,
    Standings,
    TableView,
    TournamentDetails,
    TournamentSummary,
    UnregistrationView,
)

app = http_resolver()

TournamentId = Annotated[str, PathParam(min_length=1, max_length=64, description="tournament id")]
TableId = Annotated[str, PathParam(min_length=1, max_length=64, description="table id")]
IdempotencyKey = Annotated[
    str | None,
    Header(alias="Idempotency-Key", min_length=1, max_length=128, description="replays answer the first answer"),
]

# -- lobby -------------------------------------------------------------------------------------------------------------


@app.get("/tournaments", responses=error_responses())
def list_tournaments(caller: CurrentCaller, lobby: Lobby) -> list[TournamentSummary]:
    return list(lobby.list_tournaments())


@app.get("/tournaments/<id>", responses=error_responses(404))
def get_tournament(id: TournamentId, caller: CurrentCaller, lobby: Lobby) -> TournamentDetails:
    correlate(tournament_id=id)
    return lobby.tournament(id)


@app.get("/tournaments/<id>/registrations/me", responses=error_responses(404))
def my_registration(id: TournamentId, caller: CurrentCaller, lobby: Lobby) -> MyRegistration:
    correlate(tournament_id=id)
    return lobby.my_registration(id, caller.player_id)


@app.get("/tournaments/<id>/standings", responses=error_responses(404))
def standings(id: TournamentId, caller: CurrentCaller, lobby: Lobby) -> Standings:
    correlate(tournament_id=id)
    return lobby.standings(id)


# -- registration ------------------------------------------------------------------------------------------------------


@app.post(
    "/tournaments/<id>/registrations",
    status_code=201,
    responses=error_responses(404, 409, success=201, description="registered, or on the waiting list (position)"),
)
def register(
    id: TournamentId,
    caller: CurrentCaller,
    registration: Registration,
    idempotency_key: IdempotencyKey = None,
) -> RegistrationView:
    correlate(tournament_id=id)
    # The registration keeps its key: a replay answers it as it stands now, a key whose registration was withdrawn
    # is a 409 (a stored answer replayed at the edge would say "registered" of a player who is not).
    answer = registration.register(id, caller.player_id, idempotency_key or "")
    metrics.add_metric(name="Registrations", unit=MetricUnit.Count, value=1)
    return answer


@app.delete("/tournaments/<id>/registrations/me", responses=error_responses(404, 409))
def unregister(id: TournamentId, caller: CurrentCaller, registration: Registration) -> UnregistrationView:
    correlate(tournament_id=id)
    return registration.unregister(id, caller.player_id)


# -- accounts ----------------------------------------------------------------------------------------------------------


@app.get("/me/account", responses=error_responses())
def my_account(caller: CurrentCaller, accounts: Accounts) -> AccountView:
    """The caller's balance; the first call (a client's sign-in) opens their account, which operators may credit."""
    return accounts.sign_in(caller.player_id)


@app.get("/me/ledger", responses=error_responses())
def my_ledger(caller: CurrentCaller, accounts: Accounts) -> LedgerView:
    return accounts.ledger(caller.player_id)


@app.get("/me/profile", responses=error_responses())
def my_profile(caller: CurrentCaller, accounts: Accounts) -> ProfileView:
    return accounts.profile(caller.player_id)


@app.put("/me/profile", responses=error_responses(409, 422))
def set_my_profile(body: ProfileRequest, caller: CurrentCaller, accounts: Accounts) -> ProfileView:
    """Choose a display name: 3-20 characters, unique regardless of case (409 when another player holds it)."""
    return accounts.set_profile(caller.player_id, body.display_name)


# -- tables and play ---------------------------------------------------------------------------------------------------


@app.get("/tournaments/<id>/tables/<table>", responses=error_responses(404))
def table_view(id: TournamentId, table: TableId, caller: CurrentCaller, lobby: Lobby) -> TableView:
    correlate(tournament_id=id, table_id=table)
    return lobby.table_view(id, table, caller.player_id)


@app.post("/tournaments/<id>/tables/<table>/actions", responses=error_responses(403, 404, 409))
def post_action(
    id: TournamentId, table: TableId, body: ActionRequest, caller: CurrentCaller, play: Play
) -> ActionOutcome:
    correlate(tournament_id=id, table_id=table, hand=body.hand)
    outcome = play.act(id, table, caller.player_id, body.hand, body.seq, body.action, body.amount)
    metrics.add_metric(name="Actions", unit=MetricUnit.Count, value=1)
    return outcome


@app.get("/tournaments/<id>/tables/<table>/hands/<hand>", responses=error_responses(404))
def hand_history(
    id: TournamentId,
    table: TableId,
    hand: Annotated[int, PathParam(ge=1, le=MAX_HAND, description="the hand's number at the table")],
    caller: CurrentCaller,
    lobby: Lobby,
) -> HandHistoryView:
    correlate(tournament_id=id, table_id=table, hand=hand)
    return lobby.hand_history(id, table, hand, caller.player_id)


@app.post("/tournaments/<id>/rebuys", responses=error_responses(404, 409))
def rebuy(id: TournamentId, caller: CurrentCaller, play: Play) -> PurchaseView:
    correlate(tournament_id=id)
    return play.rebuy(id, caller.player_id)


@app.post("/tournaments/<id>/addons", responses=error_responses(404, 409))
def add_on(id: TournamentId, caller: CurrentCaller, play: Play) -> PurchaseView:
    correlate(tournament_id=id)
    return play.add_on(id, caller.player_id)


@app.post("/tournaments/<id>/away", responses=error_responses(404, 409))
def away(id: TournamentId, caller: CurrentCaller, play: Play) -> PresenceView:
    correlate(tournament_id=id)
    return play.away(id, caller.player_id)


@app.post("/tournaments/<id>/back", responses=error_responses(404, 409))
def back(id: TournamentId, caller: CurrentCaller, play: Play) -> PresenceView:
    correlate(tournament_id=id)
    return play.back(id, caller.player_id)


# -- the spec ---------------------------------------------------------------------------------------------------

_ADMIN_APP = Path(__file__).resolve().parent.parent / "admin" / "app.py"


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document of every route: this function's, and the operators' when their module is beside it.

    In a Lambda code asset only ``functions/api`` is present, so the deployed
    spec lists the player routes; from the repository (docs/openapi.json, the
    local stack) it lists them all.
    """
    from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge
    from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer

    merge = OpenAPIMerge(
        **OPENAPI_INFO,
        security_schemes={
            "jwt": HTTPBearer(bearerFormat="JWT", description="a Cognito token (the HTTP API's JWT authorizer)")
        },
        security=[{"jwt": []}],
        on_conflict="error",
    )
    merge.add_schema(json.loads(app.get_openapi_json_schema(**OPENAPI_INFO)))
    if _ADMIN_APP.exists():
        merge.add_file(_ADMIN_APP, resolver_name="app")
    document: dict[str, Any] = json.loads(merge.get_openapi_json_schema())
    return describe(document)


def _document(document: dict[str, Any]) -> Response[str]:
    """An API description as served: indented JSON, its keys in the order written."""
    body = json.dumps(document, indent=2, sort_keys=False)
    return Response(status_code=200, content_type=content_types.APPLICATION_JSON, body=body)


@app.get("/openapi.json", include_in_schema=False)
def openapi_json() -> Response[str]:
    return _document(openapi_document())


@app.get("/asyncapi.json", include_in_schema=False)
def asyncapi_json() -> Response[str]:
    """The WebSocket API's messages (AsyncAPI 3.0), beside the HTTP API's document."""
    from tourney.entrypoints.asyncapi import asyncapi_document

    return _document(asyncapi_document())


@app.get("/swagger", include_in_schema=False)
def swagger_ui() -> Response[str]:
    """Swagger UI over the same document, its script and style inlined (no CDN: works offline)."""
    from aws_lambda_powertools.event_handler.openapi.swagger_ui.html import generate_swagger_html

    assets = Path(generate_swagger_html.__code__.co_filename).parent
    spec = json.dumps(openapi_document()).replace("</", "<\\/")
    page = generate_swagger_html(
        spec,
        (assets / "swagger-ui-bundle.min.js").read_text(encoding="utf-8"),
        (assets / "swagger-ui.min.css").read_text(encoding="utf-8"),
        swagger_base_url="",
        oauth2_config=None,
    )
    return Response(status_code=200, content_type="text/html", body=page)


@observed(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
