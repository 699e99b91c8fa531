"""The operators' dashboard and the alarms."""

from __future__ import annotations

import json
import re
from pathlib import Path

from infra import wiring
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


def test_every_alarm_notifies_the_topic_and_points_to_its_runbook(synthesized: Synthesized) -> None:
    runbook = (ROOT / "docs" / "operations.md").read_text()
    headings = {line.lstrip("#").strip() for line in runbook.splitlines() if line.startswith("#### ")}
    for name, alarm in synthesized.of_type("AWS::CloudWatch::Alarm").items():
        properties = alarm["Properties"]
        assert properties["AlarmActions"] == [{"Ref": "AlarmTopic"}], name
        assert properties["TreatMissingData"] == "notBreaching", name
        (anchor,) = re.findall(r"docs/operations\.md#([a-z0-9-]+)", properties["AlarmDescription"])
        assert anchor in headings, f"{name}: docs/operations.md has no section {anchor}"
