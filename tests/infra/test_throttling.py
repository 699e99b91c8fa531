"""Throttling on both API stages and reserved concurrency for every function (docs/architecture.md, 'Hardening').

A flood of API calls is throttled at the stages (429 before any function
runs), and behind them the API functions are capped by their reserved
concurrency, so the coordinator, the time-outs, the workflows' tasks, the
watchdog and the sweeper always have theirs (``infra/throttling.py``).
"""

from __future__ import annotations

from typing import Any

from infra import throttling, wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized, render

#: What a flood of API calls must never starve.
KEEPS_TOURNAMENTS_MOVING = ("coordinator", "timeouts", "start", "start_tasks", "recovery_tasks", "watchdog", "sweeper")
API_FUNCTIONS = ("api", "ws", "admin")


def function(synthesized: Synthesized, name: str) -> dict[str, Any]:
    return synthesized.resources[f"Function{logical_id(name)}"]["Properties"]


def stage_of(synthesized: Synthesized, api_logical_id: str) -> dict[str, Any]:
    (stage,) = [
        r["Properties"]
        for r in synthesized.of_type("AWS::ApiGatewayV2::Stage").values()
        if render(r["Properties"]["ApiId"]) == f"<{api_logical_id}>"
    ]
    return stage


def test_both_api_stages_throttle_every_route(synthesized: Synthesized) -> None:
    for api, expected in (("HttpApi", throttling.HTTP_THROTTLE), ("WebSocketApi", throttling.WEBSOCKET_THROTTLE)):
        settings = stage_of(synthesized, api)["DefaultRouteSettings"]
        assert settings["ThrottlingRateLimit"] == expected.rate_per_second
        assert settings["ThrottlingBurstLimit"] == expected.burst
        assert 0 < expected.rate_per_second <= expected.burst


def test_every_function_has_reserved_concurrency(synthesized: Synthesized) -> None:
    for spec in wiring.FUNCTIONS:
        assert (
            function(synthesized, spec.name)["ReservedConcurrentExecutions"]
            == throttling.RESERVED_CONCURRENCY[spec.name]
        ), spec.name


def test_a_flood_of_api_calls_cannot_starve_the_rest(synthesized: Synthesized) -> None:
    # Given every API function at its ceiling (its reserved concurrency caps it)
    reserved = {s.name: function(synthesized, s.name)["ReservedConcurrentExecutions"] for s in wiring.FUNCTIONS}
    # Then what keeps tournaments moving has concurrency of its own, which no API call can take
    assert set(KEEPS_TOURNAMENTS_MOVING) | set(API_FUNCTIONS) == set(reserved)
    assert all(reserved[name] >= 1 for name in KEEPS_TOURNAMENTS_MOVING)
    # and the reservations fit the account's quota with what Lambda keeps unreserved
    assert sum(reserved.values()) <= throttling.ACCOUNT_CONCURRENCY - throttling.UNRESERVED_MINIMUM


def test_the_start_workflow_map_fits_its_task_functions_reservation(synthesized: Synthesized) -> None:
    from infra.wiring import MAP_CONCURRENCY

    assert function(synthesized, "start_tasks")["ReservedConcurrentExecutions"] >= MAP_CONCURRENCY


def test_queue_consumers_read_no_faster_than_their_reservation(synthesized: Synthesized) -> None:
    # A throttled SQS delivery counts towards the dead-letter queue: the mapping starts no more than fit
    mappings = synthesized.of_type("AWS::Lambda::EventSourceMapping")
    by_function = {render(m["Properties"]["FunctionName"]): m["Properties"] for m in mappings.values()}
    for spec in wiring.QUEUES:
        mapping = by_function[f"<Function{logical_id(spec.consumer)}>"]
        maximum = mapping["ScalingConfig"]["MaximumConcurrency"]
        assert 2 <= maximum <= function(synthesized, spec.consumer)["ReservedConcurrentExecutions"], spec.name
