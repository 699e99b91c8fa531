"""The operators' dashboard and the alarms."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from infra import monitoring, wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized, render

ROOT = Path(__file__).resolve().parents[2]


def test_dashboard_shows_play_errors_queues_and_workflows(synthesized: Synthesized) -> None:
    (dashboard,) = synthesized.of_type("AWS::CloudWatch::Dashboard").values()
    assert dashboard["Properties"]["DashboardName"] == "Tourney-Operators"
    body = json.loads(render(dashboard["Properties"]["DashboardBody"]))
    titles = {w["properties"].get("title") for w in body["widgets"]}
    assert {
        "Active tournaments",
        "Active tables",
        "Hands per minute",
        "Function errors",
        "Queue age of oldest message (s)",
        "Dead-letter queue depth",
        "Workflow failures",
    } <= titles
    metrics = [m for w in body["widgets"] for m in w["properties"].get("metrics", [])]
    custom = {m[1] for m in metrics if m[0] == wiring.METRICS_NAMESPACE}
    assert {"ActiveTournaments", "ActiveTables", "HandsPlayed"} <= custom
    assert custom <= {m.name for m in wiring.METRICS}
    errors = [m for m in metrics if m[:2] == ["AWS/Lambda", "Errors"]]
    assert len(errors) == len(wiring.FUNCTIONS)
    assert any(m[:2] == ["AWS/States", "ExecutionsFailed"] for m in metrics)


def test_an_error_alarm_per_function_and_a_failure_alarm_per_workflow(synthesized: Synthesized) -> None:
    alarms = synthesized.of_type("AWS::CloudWatch::Alarm")
    for spec in wiring.FUNCTIONS:
        alarm = alarms[f"Alarm{logical_id(spec.name)}Errors"]["Properties"]
        assert alarm["MetricName"] == "Errors"
        assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": f"Function{logical_id(spec.name)}"}}]
    for workflow in wiring.WORKFLOWS:
        alarm = alarms[f"Alarm{logical_id(workflow.name)}WorkflowFailures"]["Properties"]
        names = {m.get("MetricStat", {}).get("Metric", {}).get("MetricName") for m in alarm["Metrics"]}
        assert {"ExecutionsFailed", "ExecutionsTimedOut", "ExecutionsAborted"} <= names


def test_every_alarm_notifies_the_topic_and_links_to_its_runbook_section(synthesized: Synthesized) -> None:
    # Given the runbook's sections, When every alarm of the stack is read
    runbook = (ROOT / "docs" / "operations.md").read_text()
    headings = {line.lstrip("#").strip() for line in runbook.splitlines() if line.startswith("#### ")}
    for name, alarm in synthesized.of_type("AWS::CloudWatch::Alarm").items():
        properties = alarm["Properties"]
        # Then it notifies the topic, treats silence as OK unless silence is the failure (the heartbeat)
        assert properties["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
        expected = "breaching" if name == "AlarmWatchdogHeartbeat" else "notBreaching"
        assert properties["TreatMissingData"] == expected, name
        # And its description links to a section of docs/operations.md by URL
        (anchor,) = re.findall(re.escape(monitoring.RUNBOOK_URL) + r"#([a-z0-9-]+)", properties["AlarmDescription"])
        assert monitoring.RUNBOOK_URL.startswith("https://"), name
        assert anchor in headings, f"{name}: docs/operations.md has no section {anchor}"


def test_a_throttles_alarm_per_function_as_the_runbook_names_it(synthesized: Synthesized) -> None:
    # Given the stack, When its alarms are read
    alarms = synthesized.of_type("AWS::CloudWatch::Alarm")
    # Then each function has a <Function>Throttles alarm on Lambda's Throttles metric
    for spec in wiring.FUNCTIONS:
        alarm = alarms[f"Alarm{logical_id(spec.name)}Throttles"]["Properties"]
        assert (alarm["Namespace"], alarm["MetricName"]) == ("AWS/Lambda", "Throttles")
        assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": f"Function{logical_id(spec.name)}"}}]
        assert "operations.md#throttles" in alarm["AlarmDescription"]


def _metric_names(alarm: dict[str, Any]) -> set[str]:
    return {m["MetricStat"]["Metric"]["MetricName"] for m in alarm["Metrics"] if "MetricStat" in m}


def test_dynamodb_throttles_and_system_errors_alarm_per_table(synthesized: Synthesized) -> None:
    # Given the stack, When its alarms are read
    alarms = synthesized.of_type("AWS::CloudWatch::Alarm")
    tables = synthesized.of_type("AWS::DynamoDB::Table")
    # Then every table has a throttles alarm (reads and writes) and a system errors alarm, on that table
    for table in tables:
        name = table.removeprefix("Table")
        throttles = alarms[f"AlarmTable{name}Throttles"]["Properties"]
        assert _metric_names(throttles) == {"ReadThrottleEvents", "WriteThrottleEvents"}
        errors = alarms[f"AlarmTable{name}SystemErrors"]["Properties"]
        assert _metric_names(errors) == {"SystemErrors"}
        for alarm in (throttles, errors):
            dimensions = [m["MetricStat"]["Metric"]["Dimensions"] for m in alarm["Metrics"] if "MetricStat" in m]
            assert all({"Name": "TableName", "Value": {"Ref": table}} in d for d in dimensions)
            assert len(alarm["Metrics"]) <= 10  # CloudWatch's limit for an alarm's metric math


def test_http_api_p99_latency_alarm(synthesized: Synthesized) -> None:
    # Given the stack, When its alarms are read
    alarm = synthesized.of_type("AWS::CloudWatch::Alarm")["AlarmHttpApiLatencyP99"]["Properties"]
    # Then the HTTP API's p99 latency is watched
    assert (alarm["Namespace"], alarm["MetricName"], alarm["ExtendedStatistic"]) == ("AWS/ApiGateway", "Latency", "p99")
    assert alarm["Dimensions"] == [{"Name": "ApiId", "Value": {"Ref": "HttpApi"}}]
    assert "operations.md#http-api-latency" in alarm["AlarmDescription"]


def test_websocket_errors_alarm(synthesized: Synthesized) -> None:
    # Given the stack, When its alarms are read
    alarm = synthesized.of_type("AWS::CloudWatch::Alarm")["AlarmWebSocketErrors"]["Properties"]
    # Then the WebSocket API's integration and execution errors of the live stage are watched
    assert _metric_names(alarm) == {"IntegrationError", "ExecutionError"}
    for query in alarm["Metrics"]:
        if "MetricStat" in query:
            assert query["MetricStat"]["Metric"]["Dimensions"] == [
                {"Name": "ApiId", "Value": {"Ref": "WebSocketApi"}},
                {"Name": "Stage", "Value": wiring.WEBSOCKET_STAGE},
            ]
    assert "operations.md#websocket-errors" in alarm["AlarmDescription"]


def test_watchdog_heartbeat_alarm_breaches_when_the_watchdog_is_silent(synthesized: Synthesized) -> None:
    # Given the stack, When its alarms are read
    alarm = synthesized.of_type("AWS::CloudWatch::Alarm")["AlarmWatchdogHeartbeat"]["Properties"]
    # Then the heartbeat every watchdog run emits is watched, and no data at all is an alarm
    assert (alarm["Namespace"], alarm["MetricName"]) == (wiring.METRICS_NAMESPACE, "WatchdogHeartbeat")
    assert "WatchdogHeartbeat" in {m.name for m in wiring.METRICS}
    assert alarm["ComparisonOperator"] == "LessThanThreshold"
    assert alarm["TreatMissingData"] == "breaching"
    assert "operations.md#watchdog-heartbeat" in alarm["AlarmDescription"]
