"""Throttling and reserved concurrency (docs/architecture.md, 'Hardening'): a flood of API calls cannot starve the rest.

Both API stages throttle every route (``HTTP_THROTTLE``, ``WEBSOCKET_THROTTLE``:
a steady rate per second and a burst); over them API Gateway answers 429
before any function runs. Behind them, every function has reserved
concurrency (``RESERVED_CONCURRENCY``), which is both a floor and a ceiling:
the API functions (``api``, ``ws``, ``admin``) can never use more than theirs,
so the coordinator, the time-outs, the start and recovery workflows, the
watchdog and the sweeper always find theirs free. The queue consumers read
with an SQS maximum concurrency no higher than their reservation, so a busy
queue waits in SQS instead of being throttled (a throttled delivery would
count towards the dead-letter queue).

The figures assume the account's default of 1,000 concurrent executions and
leave ``UNRESERVED_MINIMUM`` of it unreserved, as Lambda requires; an account
with a higher quota may raise them (docs/operations.md, 'Limits').
``infra/stack.py`` applies them with :class:`Throttling`; ``tests/infra/test_throttling.py`` checks the template.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_lambda as lambda_
from constructs import Construct


@dataclass(frozen=True)
class StageThrottle:
    """API Gateway's default route throttling of a stage: requests per second, and the burst above it."""

    rate_per_second: int
    burst: int


HTTP_THROTTLE: Final = StageThrottle(rate_per_second=2_000, burst=4_000)
"""The HTTP API (players and operators): a 250,000-player field registering at 1,000 a second beside the actions of
the tournaments in play (``tourney bench capacity``, docs/performance.md)."""
WEBSOCKET_THROTTLE: Final = StageThrottle(rate_per_second=500, burst=1_000)
"""The WebSocket API's messages (subscribe, act, chat) and connections."""

ACCOUNT_CONCURRENCY: Final = 1_000
"""Lambda's default concurrency quota per account and region."""
UNRESERVED_MINIMUM: Final = 100
"""Lambda keeps at least this much of the quota unreserved."""

RESERVED_CONCURRENCY: Final[Mapping[str, int]] = {
    # The edges: capped, so that a flood of calls throttles them (429 / a refused message) and nothing else.
    "api": 400,
    "ws": 200,
    "admin": 20,
    # What keeps tournaments moving: always free to run.
    "timeouts": 100,
    "coordinator": 50,  # one hand end at a time per tournament (FIFO group): 50 tournaments at once
    "start": 5,
    "start_tasks": 80,  # the start workflow's Maps run 40 batches at once (wiring.MAP_CONCURRENCY): two starts
    "recovery_tasks": 20,
    "watchdog": 2,
    "sweeper": 2,
}

SQS_MAXIMUM_CONCURRENCY: Final[Mapping[str, int]] = {"timeouts": 100, "coordinator": 50}
"""The most concurrent invocations an SQS consumer's event source mapping starts (at most its reservation)."""


class Throttling(Construct):
    """Applies the figures above: the two stages' default route throttling, every function's reservation."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        functions: Mapping[str, lambda_.Function],
        http_stage: apigw.CfnStage,
        websocket_stage: apigw.CfnStage,
    ) -> None:
        super().__init__(scope, construct_id)
        missing = set(functions) ^ set(RESERVED_CONCURRENCY)
        if missing:
            raise ValueError(f"reserved concurrency must name every function exactly: {sorted(missing)}")
        for name, function in functions.items():
            resource = function.node.default_child
            resource.reserved_concurrent_executions = RESERVED_CONCURRENCY[name]  # type: ignore[union-attr]
        for stage, throttle in ((http_stage, HTTP_THROTTLE), (websocket_stage, WEBSOCKET_THROTTLE)):
            stage.default_route_settings = apigw.CfnStage.RouteSettingsProperty(
                throttling_rate_limit=throttle.rate_per_second, throttling_burst_limit=throttle.burst
            )


def unreserved(account: int = ACCOUNT_CONCURRENCY) -> int:
    """What the reservations leave of the account's quota.

    >>> unreserved() >= UNRESERVED_MINIMUM
    True
    """
    return account - sum(RESERVED_CONCURRENCY.values())
