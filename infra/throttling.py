"""Throttling and reserved concurrency (docs/architecture.md, 'Hardening'): a flood of API calls cannot starve the rest.

Both API stages throttle every route (a steady rate per second and a burst);
over them API Gateway answers 429 before any function runs. Behind them, every
function has reserved concurrency, a floor and a ceiling. The figures are a
``Sizing`` of ``infra/sizing.py``, chosen by the CDK context ``sizing``;
``infra/stack.py`` applies it with :class:`Throttling` and
``tests/infra/test_throttling.py`` checks the template.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.sizing import Sizing


class Throttling(Construct):
    """Applies a sizing: the two stages' default route throttling, every function's reservation."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        sizing: Sizing,
        functions: Mapping[str, lambda_.Function],
        http_stage: apigw.CfnStage,
        websocket_stage: apigw.CfnStage,
    ) -> None:
        super().__init__(scope, construct_id)
        missing = set(functions) ^ set(sizing.reserved)
        if missing:
            raise ValueError(f"reserved concurrency must name every function exactly: {sorted(missing)}")
        for name, function in functions.items():
            resource = function.node.default_child
            resource.reserved_concurrent_executions = sizing.reserved[name]  # type: ignore[union-attr]
        for stage, throttle in ((http_stage, sizing.http), (websocket_stage, sizing.websocket)):
            stage.default_route_settings = apigw.CfnStage.RouteSettingsProperty(
                throttling_rate_limit=throttle.rate_per_second, throttling_burst_limit=throttle.burst
            )
