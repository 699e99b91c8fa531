"""Throttling on both API stages and reserved concurrency for every function (docs/architecture.md, 'Hardening').

A flood of API calls is throttled at the stages (429 before any function
runs), and behind them the API functions are capped by their reserved
concurrency, so the coordinator, the time-outs, the workflows' tasks, the
watchdog and the sweeper always have theirs (``infra/throttling.py``). The figures are a sizing
(``infra/sizing.py``): ``standard`` unless the CDK context says ``sizing=large``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from infra import wiring
from infra.naming import logical_id
from infra.sizing import LARGE, SIZINGS, STANDARD, UNRESERVED_MINIMUM, Sizing, sizing_named
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
    assert synthesized.template["Metadata"]["tourney:sizing"] == "standard"
    for api, expected in (("HttpApi", STANDARD.http), ("WebSocketApi", STANDARD.websocket)):
        settings = stage_of(synthesized, api)["DefaultRouteSettings"]
        assert settings["ThrottlingRateLimit"] == expected.rate_per_second
        assert settings["ThrottlingBurstLimit"] == expected.burst
        assert 0 < expected.rate_per_second <= expected.burst


def test_every_function_has_reserved_concurrency(synthesized: Synthesized) -> None:
    for spec in wiring.FUNCTIONS:
        assert function(synthesized, spec.name)["ReservedConcurrentExecutions"] == STANDARD.reserved[spec.name], (
            spec.name
        )


def test_a_flood_of_api_calls_cannot_starve_the_rest(synthesized: Synthesized) -> None:
    # Given every API function at its ceiling (its reserved concurrency caps it)
    reserved = {s.name: function(synthesized, s.name)["ReservedConcurrentExecutions"] for s in wiring.FUNCTIONS}
    # Then what keeps tournaments moving has concurrency of its own, which no API call can take
    assert set(KEEPS_TOURNAMENTS_MOVING) | set(API_FUNCTIONS) == set(reserved)
    assert all(reserved[name] >= 1 for name in KEEPS_TOURNAMENTS_MOVING)
    # and the reservations fit the account's quota with what Lambda keeps unreserved
    assert sum(reserved.values()) <= STANDARD.account_concurrency - UNRESERVED_MINIMUM


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


@pytest.mark.parametrize("sizing", SIZINGS.values(), ids=SIZINGS.keys())
def test_every_sizing_reserves_for_every_function_within_its_quota(sizing: Sizing) -> None:
    assert set(sizing.reserved) == {spec.name for spec in wiring.FUNCTIONS}
    assert all(sizing.reserved[name] >= 1 for name in KEEPS_TOURNAMENTS_MOVING)
    assert sizing.unreserved() >= UNRESERVED_MINIMUM
    assert sizing.reserved["start_tasks"] >= wiring.MAP_CONCURRENCY
    assert {spec.consumer for spec in wiring.QUEUES} == set(sizing.sqs_maximum)
    assert all(2 <= most <= sizing.reserved[name] for name, most in sizing.sqs_maximum.items())
    assert all(0 < stage.rate_per_second <= stage.burst for stage in (sizing.http, sizing.websocket))


def test_the_large_sizing_raises_every_edge_and_worker_the_standard_one_caps() -> None:
    assert LARGE.account_concurrency > STANDARD.account_concurrency
    assert all(LARGE.reserved[name] >= STANDARD.reserved[name] for name in STANDARD.reserved)
    assert LARGE.websocket.rate_per_second > STANDARD.websocket.rate_per_second
    assert LARGE.http.rate_per_second > STANDARD.http.rate_per_second


def test_an_unknown_sizing_is_refused_by_name() -> None:
    assert sizing_named(None) is STANDARD and sizing_named("large") is LARGE
    with pytest.raises(ValueError, match="unknown sizing 'huge': one of standard, large"):
        sizing_named("huge")


def test_app_takes_context_values_as_the_cdk_cli_does() -> None:
    from infra.stack import cli_context

    assert cli_context(["-c", "sizing=large", "--context", "x=a=b", "-v"]) == {"sizing": "large", "x": "a=b"}
    assert cli_context([]) == {}


@pytest.mark.slow
def test_the_sizing_context_sizes_the_synthesized_stack(tmp_path: Path) -> None:
    # Given the app synthesized as `python app.py -c sizing=large` does
    from infra.stack import STACK_NAME, build_app

    app, _ = build_app(tmp_path, nag=False, context={"sizing": "large"})
    app.synth()
    template = json.loads((tmp_path / f"{STACK_NAME}.template.json").read_text())
    large = Synthesized(tmp_path, template, {}, 0.0)

    # Then the template names its sizing, and every figure is the large sizing's
    assert template["Metadata"]["tourney:sizing"] == "large"
    for spec in wiring.FUNCTIONS:
        assert function(large, spec.name)["ReservedConcurrentExecutions"] == LARGE.reserved[spec.name], spec.name
    for api, expected in (("HttpApi", LARGE.http), ("WebSocketApi", LARGE.websocket)):
        assert stage_of(large, api)["DefaultRouteSettings"]["ThrottlingRateLimit"] == expected.rate_per_second
    mappings = large.of_type("AWS::Lambda::EventSourceMapping").values()
    assert sorted(m["Properties"]["ScalingConfig"]["MaximumConcurrency"] for m in mappings) == sorted(
        LARGE.sqs_maximum.values()
    )
