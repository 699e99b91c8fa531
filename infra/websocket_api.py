"""The WebSocket API: ``$connect``, ``$disconnect``, ``$default``, ``subscribe``, ``act``, ``chat``.

Routes are selected by the ``action`` field of a client's JSON message and all integrate
the ``ws`` function (``infra.wiring.WEBSOCKET_ROUTES``). API Gateway has no JWT authorizer
for WebSocket APIs, so ``$connect`` carries the token as ``?token=JWT`` and ``ws`` validates
it against the Cognito pool (JWT_ISSUER, JWT_AUDIENCE) before accepting the connection.
The stage ``live`` writes access logs; the functions that push get the ``@connections``
endpoint of that stage and the right to manage its connections, no one else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from aws_cdk import Stack
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra import wiring
from infra.naming import logical_id

ACCESS_LOG_FORMAT = json.dumps(
    {
        "requestId": "$context.requestId",
        "ip": "$context.identity.sourceIp",
        "time": "$context.requestTime",
        "routeKey": "$context.routeKey",
        "eventType": "$context.eventType",
        "connectionId": "$context.connectionId",
        "status": "$context.status",
        "error": "$context.error.message",
    }
)


class WebSocketApi(Construct):
    """``api``, ``stage``, ``routes[route_key]``, ``connections_endpoint`` (https, for pushes)."""

    def __init__(self, scope: Construct, construct_id: str, *, functions: Mapping[str, lambda_.IFunction]) -> None:
        super().__init__(scope, construct_id)
        integration_of = {
            name: integrations.WebSocketLambdaIntegration(f"{logical_id(name)}Integration", functions[name])
            for name in sorted(set(wiring.WEBSOCKET_ROUTES.values()))
        }

        def options(route_key: str) -> apigw.WebSocketRouteOptions:
            return apigw.WebSocketRouteOptions(integration=integration_of[wiring.WEBSOCKET_ROUTES[route_key]])

        self.api = apigw.WebSocketApi(
            self,
            "Api",
            description="tourney: table and tournament events; actions and chat",
            route_selection_expression=wiring.WEBSOCKET_ROUTE_SELECTION,
            connect_route_options=options("$connect"),
            disconnect_route_options=options("$disconnect"),
            default_route_options=options("$default"),
        )
        self.api.node.default_child.override_logical_id("WebSocketApi")  # type: ignore[union-attr]
        for route_key in wiring.WEBSOCKET_ROUTES:
            if not route_key.startswith("$"):
                self.api.add_route(route_key, integration=integration_of[wiring.WEBSOCKET_ROUTES[route_key]])

        log_group = logs.LogGroup(self, "AccessLogs", retention=logs.RetentionDays.ONE_MONTH)
        self.stage = apigw.WebSocketStage(
            self, "Stage", web_socket_api=self.api, stage_name=wiring.WEBSOCKET_STAGE, auto_deploy=True
        )
        cfn_stage = self.stage.node.default_child
        cfn_stage.access_log_settings = apigw.CfnStage.AccessLogSettingsProperty(  # type: ignore[union-attr]
            destination_arn=log_group.log_group_arn, format=ACCESS_LOG_FORMAT
        )
        stack = Stack.of(self)
        self.connections_endpoint = (
            f"https://{self.api.api_id}.execute-api.{stack.region}.{stack.url_suffix}/{wiring.WEBSOCKET_STAGE}"
        )
        self.connections_arn = stack.format_arn(
            service="execute-api",
            resource=self.api.api_id,
            resource_name=f"{wiring.WEBSOCKET_STAGE}/*/@connections/*",
        )
