"""The HTTP API (API Gateway v2, payload format 2.0): every route of ``infra.wiring.HTTP_ROUTES``.

Every route is behind the Cognito JWT authorizer (tokens of the mobile or the web app client)
except ``GET /openapi.json``, ``GET /asyncapi.json`` and ``GET /swagger``. Player routes integrate ``api``,
``/admin/*`` integrate ``admin`` (which checks the operators group itself: a JWT authorizer only checks
scopes). One integration per function; the default stage ``$default`` writes access logs.
CORS allows the web client's origin (its CloudFront distribution) only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_apigatewayv2_authorizers as authorizers
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra import wiring
from infra.auth import Auth
from infra.naming import logical_id

ACCESS_LOG_FORMAT = json.dumps(
    {
        "requestId": "$context.requestId",
        "ip": "$context.identity.sourceIp",
        "time": "$context.requestTime",
        "routeKey": "$context.routeKey",
        "status": "$context.status",
        "latency": "$context.integrationLatency",
        "error": "$context.error.message",
        "authorizerError": "$context.authorizer.error",
        "sub": "$context.authorizer.claims.sub",
    }
)


class HttpApi(Construct):
    """``api`` (the ``HttpApi``) and ``routes[route_key]``."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        functions: Mapping[str, lambda_.IFunction],
        auth: Auth,
        cors_origins: Sequence[str],
    ) -> None:
        super().__init__(scope, construct_id)
        self.api = apigw.HttpApi(
            self,
            "Api",
            description="tourney: players and operators (docs/interfaces.md)",
            # The web client calls from its own origin (the CloudFront distribution) with a bearer token (no
            # cookies): API Gateway answers the preflight itself, before the authorizer.
            cors_preflight=apigw.CorsPreflightOptions(
                allow_origins=list(cors_origins),
                allow_methods=[
                    apigw.CorsHttpMethod.GET,
                    apigw.CorsHttpMethod.POST,
                    apigw.CorsHttpMethod.PUT,
                    apigw.CorsHttpMethod.DELETE,
                ],
                allow_headers=["Authorization", "Content-Type", "Idempotency-Key"],
                max_age=Duration.hours(1),
            ),
        )
        self.api.node.default_child.override_logical_id("HttpApi")  # type: ignore[union-attr]
        self.authorizer = authorizers.HttpJwtAuthorizer(
            "Cognito",
            auth.issuer,
            jwt_audience=auth.audiences,
            authorizer_name="cognito",
            identity_source=["$request.header.Authorization"],
        )
        integration_of = {
            name: integrations.HttpLambdaIntegration(
                f"{logical_id(name)}Integration",
                functions[name],
                payload_format_version=apigw.PayloadFormatVersion.VERSION_2_0,
            )
            for name in sorted({route.function for route in wiring.HTTP_ROUTES})
        }
        self.routes: dict[str, apigw.HttpRoute] = {}
        for route in wiring.HTTP_ROUTES:
            (added,) = self.api.add_routes(
                path=route.path,
                methods=[apigw.HttpMethod(route.method)],
                integration=integration_of[route.function],
                authorizer=self.authorizer if route.authorized else apigw.HttpNoneAuthorizer(),
            )
            self.routes[route.route_key] = added

        log_group = logs.LogGroup(self, "AccessLogs", retention=logs.RetentionDays.ONE_MONTH)
        stage = self.api.default_stage.node.default_child  # type: ignore[union-attr]
        stage.access_log_settings = apigw.CfnStage.AccessLogSettingsProperty(  # type: ignore[union-attr]
            destination_arn=log_group.log_group_arn, format=ACCESS_LOG_FORMAT
        )

    @property
    def url(self) -> str:
        return self.api.api_endpoint
