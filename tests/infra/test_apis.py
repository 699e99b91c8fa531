"""The HTTP API (every route of docs/interfaces.md, behind the Cognito JWT authorizer) and the WebSocket API."""

from __future__ import annotations

import re
from typing import Any

import pytest

from infra import wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized, render

#: docs/interfaces.md, "HTTP API": every route, and who serves it.
CONTRACT_ROUTES = {
    "GET /tournaments": "api",
    "GET /tournaments/{id}": "api",
    "GET /tournaments/{id}/registrations/me": "api",
    "GET /tournaments/{id}/standings": "api",
    "POST /tournaments/{id}/registrations": "api",
    "DELETE /tournaments/{id}/registrations/me": "api",
    "GET /me/account": "api",
    "GET /me/profile": "api",
    "PUT /me/profile": "api",
    "GET /me/ledger": "api",
    "GET /tournaments/{id}/tables/{table}": "api",
    "POST /tournaments/{id}/tables/{table}/actions": "api",
    "POST /tournaments/{id}/rebuys": "api",
    "POST /tournaments/{id}/addons": "api",
    "POST /tournaments/{id}/away": "api",
    "POST /tournaments/{id}/back": "api",
    "GET /tournaments/{id}/tables/{table}/hands/{hand}": "api",
    "POST /admin/tournaments": "admin",
    "POST /admin/tournaments/{id}/terminate": "admin",
    "POST /admin/tournaments/{id}/restart": "admin",
    "POST /admin/tournaments/{id}/cancel": "admin",
    "POST /admin/accounts/{player}/deposits": "admin",
    "POST /admin/tournaments/{id}/players/{player}/stack": "admin",
    "POST /admin/tournaments/{id}/players/{player}/disqualify": "admin",
    "POST /admin/players/{player}/mute": "admin",
    "DELETE /admin/players/{player}/mute": "admin",
    "POST /admin/accounts/{player}/adjustments": "admin",
    "GET /admin/audit": "admin",
    "GET /admin/tournaments/{id}/tables/{table}/chat": "admin",
    "GET /admin/tournaments/{id}/recovery": "admin",
    "GET /openapi.json": "api",
    "GET /asyncapi.json": "api",
    "GET /swagger": "api",
}
PUBLIC = {"GET /openapi.json", "GET /asyncapi.json", "GET /swagger"}


def routes_of(synthesized: Synthesized, api: str) -> dict[str, dict[str, Any]]:
    return {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in synthesized.of_type("AWS::ApiGatewayV2::Route").values()
        if r["Properties"]["ApiId"] == {"Ref": api}
    }


def integrated_function(synthesized: Synthesized, route: dict[str, Any]) -> str:
    """The wiring name of the function a route's integration invokes."""
    integration_id = render(route["Target"]).removeprefix("integrations/<").removesuffix(">")
    integration = synthesized.resources[integration_id]["Properties"]
    # HTTP: {"Fn::GetAtt": [function, "Arn"]}; WebSocket: arn:...:lambda:path/.../functions/<arn>/invocations
    (function_id,) = re.findall(r"<(\w+)\.Arn>", str(render(integration["IntegrationUri"])))
    name: str = synthesized.resources[function_id]["Metadata"]["tourney:function"]
    return name


def test_every_contract_route_and_no_other(synthesized: Synthesized) -> None:
    assert set(routes_of(synthesized, "HttpApi")) == set(CONTRACT_ROUTES)
    assert {r.route_key: r.function for r in wiring.HTTP_ROUTES} == CONTRACT_ROUTES


@pytest.mark.parametrize("route_key", sorted(CONTRACT_ROUTES))
def test_route_integration_and_authorizer(synthesized: Synthesized, route_key: str) -> None:
    route = routes_of(synthesized, "HttpApi")[route_key]
    assert integrated_function(synthesized, route) == CONTRACT_ROUTES[route_key]
    if route_key in PUBLIC:
        assert route["AuthorizationType"] == "NONE"
        assert "AuthorizerId" not in route
    else:
        assert route["AuthorizationType"] == "JWT"
        (authorizer,) = synthesized.of_type("AWS::ApiGatewayV2::Authorizer")
        assert route["AuthorizerId"] == {"Ref": authorizer}


def test_jwt_authorizer_trusts_the_cognito_pool_and_client(synthesized: Synthesized) -> None:
    (authorizer,) = synthesized.of_type("AWS::ApiGatewayV2::Authorizer").values()
    properties = render(authorizer["Properties"])
    assert properties["AuthorizerType"] == "JWT"
    assert properties["IdentitySource"] == ["$request.header.Authorization"]
    assert properties["JwtConfiguration"] == {
        "Audience": ["<UserPoolClient>", "<UserPoolWebClient>"],  # the mobile apps' client, the web client's
        "Issuer": "https://cognito-idp.<AWS::Region>.<AWS::URLSuffix>/<UserPool>",
    }


def test_web_clients_may_call_with_a_bearer_token(synthesized: Synthesized) -> None:
    cors = synthesized.resources["HttpApi"]["Properties"]["CorsConfiguration"]
    assert {"Authorization", "Idempotency-Key"} <= set(cors["AllowHeaders"])
    assert "AllowCredentials" not in cors  # tokens, not cookies


def test_integrations_use_payload_v2(synthesized: Synthesized) -> None:
    for integration in synthesized.of_type("AWS::ApiGatewayV2::Integration").values():
        properties = integration["Properties"]
        assert properties["IntegrationType"] == "AWS_PROXY"
        if properties["ApiId"] == {"Ref": "HttpApi"}:
            assert properties["PayloadFormatVersion"] == "2.0"


def test_operators_group_exists(synthesized: Synthesized) -> None:
    group = synthesized.resources["UserPoolOperators"]["Properties"]
    assert group["GroupName"] == wiring.OPERATORS_GROUP
    assert group["UserPoolId"] == {"Ref": "UserPool"}
    admin_routes = [r for r in wiring.HTTP_ROUTES if r.path.startswith("/admin/")]
    assert admin_routes and all(r.operators_only and r.function == "admin" for r in admin_routes)
    assert wiring.FUNCTIONS_BY_NAME["admin"].operators_only


def test_websocket_routes_select_on_action_and_reach_ws(synthesized: Synthesized) -> None:
    api = synthesized.resources["WebSocketApi"]["Properties"]
    assert api["ProtocolType"] == "WEBSOCKET"
    assert api["RouteSelectionExpression"] == "$request.body.action"
    routes = routes_of(synthesized, "WebSocketApi")
    assert set(routes) == {"$connect", "$disconnect", "$default", "subscribe", "act", "chat"}
    for route in routes.values():
        assert integrated_function(synthesized, route) == "ws"


def test_stages_deploy_and_log_access(synthesized: Synthesized) -> None:
    stages = {
        render(s["Properties"]["ApiId"]): s["Properties"]
        for s in synthesized.of_type("AWS::ApiGatewayV2::Stage").values()
    }
    assert stages["<HttpApi>"]["StageName"] == "$default"
    assert stages["<WebSocketApi>"]["StageName"] == wiring.WEBSOCKET_STAGE
    for stage in stages.values():
        assert stage["AutoDeploy"] is True
        assert "DestinationArn" in stage["AccessLogSettings"]


def test_pushers_get_the_connections_endpoint(synthesized: Synthesized) -> None:
    for spec in wiring.FUNCTIONS:
        variables = synthesized.resources[f"Function{logical_id(spec.name)}"]["Properties"]["Environment"]["Variables"]
        if spec.pushes:
            assert render(variables[wiring.CONNECTIONS_ENDPOINT_ENV]) == (
                f"https://<WebSocketApi>.execute-api.<AWS::Region>.<AWS::URLSuffix>/{wiring.WEBSOCKET_STAGE}"
            )
        else:
            assert wiring.CONNECTIONS_ENDPOINT_ENV not in variables


def test_ws_validates_tokens_of_the_pool(synthesized: Synthesized) -> None:
    variables = render(synthesized.resources["FunctionWs"]["Properties"]["Environment"]["Variables"])
    assert variables[wiring.JWT_ISSUER_ENV] == "https://cognito-idp.<AWS::Region>.<AWS::URLSuffix>/<UserPool>"
    assert variables[wiring.JWT_AUDIENCE_ENV] == "<UserPoolClient>,<UserPoolWebClient>"  # either client's tokens
