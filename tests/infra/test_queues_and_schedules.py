"""SQS queues with their dead-letter queues, event source mappings and alarms; the schedules."""

from __future__ import annotations

import json

import pytest

from infra import wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized, render


@pytest.mark.parametrize("spec", wiring.QUEUES, ids=lambda q: q.name)
def test_queue_has_a_dead_letter_queue(synthesized: Synthesized, spec: wiring.QueueSpec) -> None:
    name = f"Queue{logical_id(spec.name)}"
    queue = synthesized.resources[name]["Properties"]
    dead_letters = synthesized.resources[f"{name}Dlq"]["Properties"]
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": [f"{name}Dlq", "Arn"]},
        "maxReceiveCount": spec.max_receive_count,
    }
    assert queue.get("FifoQueue", False) is spec.fifo
    assert dead_letters.get("FifoQueue", False) is spec.fifo
    for properties in (queue, dead_letters):
        assert properties["SqsManagedSseEnabled"] is True


def test_timeouts_is_standard_and_coordinator_fifo_without_content_deduplication(synthesized: Synthesized) -> None:
    timeouts = synthesized.resources["QueueTimeouts"]["Properties"]
    coordinator = synthesized.resources["QueueCoordinator"]["Properties"]
    assert "FifoQueue" not in timeouts
    assert coordinator["FifoQueue"] is True
    assert coordinator["ContentBasedDeduplication"] is False
    # High-throughput mode: each tournament's group has the FIFO limits to itself
    assert coordinator["DeduplicationScope"] == "messageGroup"
    assert coordinator["FifoThroughputLimit"] == "perMessageGroupId"


@pytest.mark.parametrize("spec", wiring.QUEUES, ids=lambda q: q.name)
def test_consumer_reads_with_partial_batch_responses(synthesized: Synthesized, spec: wiring.QueueSpec) -> None:
    mappings = [
        m["Properties"]
        for m in synthesized.of_type("AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["EventSourceArn"] == {"Fn::GetAtt": [f"Queue{logical_id(spec.name)}", "Arn"]}
    ]
    assert len(mappings) == 1
    (mapping,) = mappings
    assert mapping["FunctionName"] == {"Ref": f"Function{logical_id(spec.consumer)}"}
    assert mapping["BatchSize"] == spec.batch_size
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


def test_only_two_event_source_mappings(synthesized: Synthesized) -> None:
    assert len(synthesized.of_type("AWS::Lambda::EventSourceMapping")) == len(wiring.QUEUES)


@pytest.mark.parametrize("spec", wiring.QUEUES, ids=lambda q: q.name)
def test_alarms_on_dead_letters_and_age(synthesized: Synthesized, spec: wiring.QueueSpec) -> None:
    name = logical_id(spec.name)
    depth = synthesized.resources[f"Alarm{name}DeadLetters"]["Properties"]
    assert depth["MetricName"] == "ApproximateNumberOfMessagesVisible"
    assert depth["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [f"Queue{name}Dlq", "QueueName"]}}]
    assert depth["Threshold"] == 1
    age = synthesized.resources[f"Alarm{name}OldestMessage"]["Properties"]
    assert age["MetricName"] == "ApproximateAgeOfOldestMessage"
    assert age["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [f"Queue{name}", "QueueName"]}}]
    assert age["Threshold"] == spec.oldest_message_alarm_seconds
    for alarm in (depth, age):
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_recurring_schedules(synthesized: Synthesized) -> None:
    schedules = {
        s["Metadata"]["tourney:schedule"]: s["Properties"]
        for s in synthesized.of_type("AWS::Scheduler::Schedule").values()
    }
    assert schedules.keys() == {"sweeper", "watchdog"}
    assert schedules["sweeper"]["ScheduleExpression"] == "rate(15 minutes)"
    assert schedules["watchdog"]["ScheduleExpression"] == "rate(1 minute)"
    for name, schedule in schedules.items():
        assert schedule["Target"]["Arn"] == {"Fn::GetAtt": [f"Function{logical_id(name)}", "Arn"]}
        assert schedule["Target"]["RoleArn"] == {"Fn::GetAtt": ["SchedulerRecurringRole", "Arn"]}
        assert json.loads(schedule["Target"]["Input"]) == {"schedule": name}
        assert "GroupName" not in schedule  # outside the start group, which functions may write to


def test_start_schedules_group_and_role_invoke_only_start(synthesized: Synthesized) -> None:
    assert "ScheduleGroupStarts" in synthesized.of_type("AWS::Scheduler::ScheduleGroup")
    role = synthesized.resources["SchedulerStartRole"]["Properties"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    assert trust["Condition"] == {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}
    statements = [
        s
        for p in synthesized.of_type("AWS::IAM::Policy").values()
        if {"Ref": "SchedulerStartRole"} in p["Properties"]["Roles"]
        for s in render(p["Properties"]["PolicyDocument"]["Statement"])
    ]
    assert statements == [{"Action": "lambda:InvokeFunction", "Effect": "Allow", "Resource": "<FunctionStart.Arn>"}]


def test_scheduling_functions_know_the_group_role_and_target(synthesized: Synthesized) -> None:
    for spec in wiring.FUNCTIONS:
        variables = synthesized.resources[f"Function{logical_id(spec.name)}"]["Properties"]["Environment"]["Variables"]
        if spec.schedules_starts:
            assert variables[wiring.SCHEDULE_GROUP_ENV] == {"Ref": "ScheduleGroupStarts"}
            assert variables[wiring.SCHEDULER_ROLE_ARN_ENV] == {"Fn::GetAtt": ["SchedulerStartRole", "Arn"]}
            assert variables[wiring.START_FUNCTION_ARN_ENV] == {"Fn::GetAtt": ["FunctionStart", "Arn"]}
        elif spec.cancels_starts:
            assert variables[wiring.SCHEDULE_GROUP_ENV] == {"Ref": "ScheduleGroupStarts"}
            assert wiring.SCHEDULER_ROLE_ARN_ENV not in variables
        else:
            assert wiring.SCHEDULE_GROUP_ENV not in variables
