"""The local runtime's pure parts: reading the template, schedule expressions, the virtual clock, routes."""

from __future__ import annotations

import doctest
import importlib
from datetime import datetime
from pathlib import Path

import pytest

from infra.local.clock import VirtualClock
from infra.local.schedules import Cron, at_time, rate_seconds
from infra.local.template import LocalEndpoints, Resolver, Template, TemplateError, load_stack

FIXTURE = Path(__file__).parent / "fixtures" / "local_stack"
ENDPOINTS = LocalEndpoints(moto_url="http://127.0.0.1:5001", http_url="http://127.0.0.1:8001")

MODULES = ["template", "clock", "schedules", "http_api", "websocket_api"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"infra.local.{name}")
    failures, _ = doctest.testmod(module)
    assert failures == 0


def test_environment_resolves_to_the_local_equivalents() -> None:
    template = load_stack(FIXTURE)
    resolver = Resolver(template, ENDPOINTS)
    variables = resolver.resolve(template.resources["HttpFunction"]["Properties"]["Environment"]["Variables"])
    assert variables["EVENTS_TABLE"] == "Fixture-EventsTable"
    assert variables["DELAY_QUEUE_URL"] == "http://127.0.0.1:5001/123456789012/Fixture-DelayQueue"
    assert variables["ORDER_QUEUE_URL"].endswith("/Fixture-OrderQueue.fifo")
    assert variables["WORKFLOW_ARN"] == "arn:aws:states:us-east-1:123456789012:stateMachine:Fixture-Workflow"
    assert variables["TARGET_FUNCTION_ARN"] == "arn:aws:lambda:us-east-1:123456789012:function:Fixture-WorkerFunction"
    assert variables["SCHEDULE_GROUP"] == "fixture-starts"  # the Name property wins
    ws = resolver.resolve(template.resources["WsFunction"]["Properties"]["Environment"]["Variables"])
    assert ws["CONNECTIONS_ENDPOINT"] == "http://127.0.0.1:8001/live"  # the execute-api URL made local


def test_names_and_issuer_are_the_same_for_up_and_token() -> None:
    # `tourney local token` resolves without the running stack's ports
    template = load_stack(FIXTURE)
    one = Resolver(template, ENDPOINTS)
    other = Resolver(template, LocalEndpoints())
    issuer = {"Fn::GetAtt": ["UserPool", "ProviderURL"]}
    assert one.resolve(issuer) == other.resolve(issuer)
    assert one.resolve({"Ref": "UserPoolClient"}) == other.resolve({"Ref": "UserPoolClient"})


def test_intrinsic_functions() -> None:
    template = Template(
        "S",
        {"T": {"Type": "AWS::DynamoDB::Table", "Properties": {}}},
        parameters={"Stage": {"Type": "String", "Default": "dev"}},
        conditions={"IsDev": {"Fn::Equals": [{"Ref": "Stage"}, "dev"]}},
        mappings={"M": {"dev": {"size": 3}}},
    )
    r = Resolver(template, ENDPOINTS)
    assert r.resolve({"Fn::Sub": ["${A}-${T}-${!Literal}", {"A": "x"}]}) == "x-S-T-${Literal}"
    assert r.resolve({"Fn::Select": [1, {"Fn::Split": [",", "a,b,c"]}]}) == "b"
    assert r.resolve({"Fn::If": ["IsDev", "yes", "no"]}) == "yes"
    assert r.resolve({"Fn::FindInMap": ["M", {"Ref": "Stage"}, "size"]}) == 3
    assert r.resolve({"a": {"Ref": "AWS::NoValue"}, "b": 1}) == {"b": 1}
    assert r.resolve({"Fn::GetAtt": "T.StreamArn"}).startswith(
        "arn:aws:dynamodb:us-east-1:123456789012:table/S-T/stream/"
    )
    with pytest.raises(TemplateError):
        r.resolve({"Ref": "Missing"})


def test_schedule_expressions() -> None:
    assert rate_seconds("rate(1 minute)") == 60
    assert rate_seconds("rate(2 hours)") == 7200
    assert at_time("at(2030-01-02T03:04:05)").isoformat() == "2030-01-02T03:04:05+00:00"
    assert at_time("at(2030-01-02T03:04:05)", "Europe/Paris").isoformat() == "2030-01-02T02:04:05+00:00"
    every_quarter = Cron.parse("cron(0/15 * * * ? *)")
    assert every_quarter.matches(datetime(2030, 1, 1, 10, 45))
    assert not every_quarter.matches(datetime(2030, 1, 1, 10, 46))
    last_friday = Cron.parse("cron(0 18 ? * 6L *)")
    assert last_friday.matches(datetime(2030, 1, 25, 18, 0))  # the last Friday of January 2030
    assert not last_friday.matches(datetime(2030, 1, 18, 18, 0))
    with pytest.raises(ValueError):
        Cron.parse("cron(* * * *)")


def test_virtual_clock_round_trips() -> None:
    clock = VirtualClock(factor=60, origin=1_000.0)
    assert clock.real(clock.at(1_234.5)) == pytest.approx(1_234.5)
