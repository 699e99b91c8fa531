"""The adapters that leave DynamoDB, on moto: SQS time-outs and coordination, the start schedule, workflows, pushes."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import boto3
import pytest
from tourney.adapters.aws import (
    EventBridgeStartScheduler,
    JitteredBackoff,
    SqsCoordination,
    SqsTimeouts,
    StepFunctionsWorkflows,
    SystemClock,
    WebSocketPushes,
)
from tourney.bootstrap import bootstrap_aws
from tourney.entrypoints.settings import Settings
from tourney.services.messages import HandEnded, TablesSettled, TimeoutDue, parse_timer

from tests.support.aws import REGION, aws, dynamodb  # noqa: F401

pytestmark = pytest.mark.usefixtures("dynamodb")


def test_a_time_out_waits_on_the_queue_for_its_delay() -> None:
    # Given the time-outs queue
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="timeouts")["QueueUrl"]
    # When a decision's time-out is armed for 15 seconds
    due = TimeoutDue(tournament_id="t1", table="3", hand=7, seq=2, seat=4, armed_for_away=False)
    SqsTimeouts(url).arm(due, 15)
    # Then it is not delivered before its delay
    assert "Messages" not in sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0)
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessagesDelayed"])
    assert attributes["Attributes"]["ApproximateNumberOfMessagesDelayed"] == "1"


def test_rule_16_time_outs_armed_together_go_ten_to_a_request_each_with_its_own_delay() -> None:
    # Given the time-outs queue, and the requests made to it counted
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="timeouts")["QueueUrl"]
    timeouts = SqsTimeouts(url)
    batches: list[int] = []
    timeouts._sqs.meta.events.register(
        "provide-client-params.sqs.SendMessageBatch", lambda params, **_: batches.append(len(params["Entries"]))
    )
    # When 23 tables' time-outs are armed together: the first at once, the others after 15 seconds
    armed = [
        (TimeoutDue(tournament_id="t1", table=str(i), hand=1, seq=0, seat=1, armed_for_away=False), 15)
        for i in range(23)
    ]
    armed[0] = (armed[0][0], 0)
    timeouts.arm_many(armed)
    # Then three requests carried them, and each kept its delay: one is there now, 22 wait
    assert batches == [10, 10, 3]
    (ready,) = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0)["Messages"]
    assert json.loads(ready["Body"])["table"] == "0"
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessagesDelayed"])
    assert attributes["Attributes"]["ApproximateNumberOfMessagesDelayed"] == "22"


def test_what_the_coordinator_committed_goes_to_the_time_outs_queue_at_once_as_one_message() -> None:
    # Given the time-outs queue
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="timeouts")["QueueUrl"]
    # When the coordinator hands it what a batch committed
    settled = TablesSettled("t1", ("1", "2"), dealt=("1",), players=(("ann", {"event": "placed", "place": 9}),))
    queued = SqsTimeouts(url).follow(settled)
    # Then the queue has it now (no delay), as it was sent: the time-outs function follows it
    (message,) = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0)["Messages"]
    assert queued and parse_timer(message["Body"]) == settled


def test_a_hand_end_sent_twice_reaches_the_coordinator_once_in_its_tournaments_group() -> None:
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName="coordinator.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    queue = SqsCoordination(url)
    # When the same hand end is sent twice (a retried action)
    queue.hand_ended(HandEnded(tournament_id="t1", table="3", hand=7))
    queue.hand_ended(HandEnded(tournament_id="t1", table="3", hand=7))
    # Then one message, grouped by tournament
    messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["All"])["Messages"]
    assert len(messages) == 1
    assert messages[0]["Attributes"]["MessageGroupId"] == "t1"
    assert json.loads(messages[0]["Body"])["hand"] == 7


def test_the_start_schedule_is_one_per_tournament_and_can_be_moved_and_cancelled() -> None:
    scheduler = boto3.client("scheduler", region_name=REGION)
    scheduler.create_schedule_group(Name="tourney")
    starts = EventBridgeStartScheduler(
        "tourney", "arn:aws:iam::123456789012:role/s", "arn:aws:lambda:x:1:function:start"
    )
    # When a tournament is scheduled, then scheduled again later
    starts.schedule("t1", datetime(2026, 12, 1, 20, 0, tzinfo=UTC))
    starts.schedule("t1", datetime(2026, 12, 1, 21, 0, tzinfo=UTC))
    # Then one schedule holds the later time and names the tournament
    schedule = scheduler.get_schedule(Name="start-t1", GroupName="tourney")
    assert schedule["ScheduleExpression"] == "at(2026-12-01T21:00:00)"
    assert json.loads(schedule["Target"]["Input"]) == {"tournament_id": "t1"}
    # And cancelling removes it (twice is harmless)
    starts.cancel("t1")
    starts.cancel("t1")
    assert scheduler.list_schedules(GroupName="tourney")["Schedules"] == []


def test_starting_a_tournaments_workflow_twice_runs_it_once() -> None:
    sfn = boto3.client("stepfunctions", region_name=REGION)
    definition = json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}})
    role = "arn:aws:iam::123456789012:role/sfn"
    arn = sfn.create_state_machine(name="start", definition=definition, roleArn=role)["stateMachineArn"]
    workflows = StepFunctionsWorkflows(arn, arn)
    workflows.start_tournament("t1")
    workflows.start_tournament("t1")
    executions = sfn.list_executions(stateMachineArn=arn)["executions"]
    assert [e["name"] for e in executions] == ["start-t1"]


def test_pushes_reach_each_subscriber_with_what_it_may_see() -> None:
    # Given ann seated at table 3 and an observer, both subscribed
    pushes = WebSocketPushes("https://example.execute-api.us-east-1.amazonaws.com/live")
    pushes.connect("c-ann", "ann")
    pushes.connect("c-obs")
    pushes.subscribe("c-ann", "t1", "3")
    pushes.subscribe("c-obs", "t1", "3")
    # When the table is pushed with ann's own view and the observer's
    pushes.to_table("t1", "3", {"view": "observer"}, {"ann": {"view": "ann"}})
    # Then each connection got its own (what moto's @connections API received)
    from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

    received = apigatewaymanagementapi_backends["123456789012"][REGION].connections
    assert json.loads(received["c-ann"].data) == {"view": "ann"}
    assert json.loads(received["c-obs"].data) == {"view": "observer"}


def test_bootstrap_aws_builds_the_services_from_the_settings() -> None:
    services = bootstrap_aws(Settings.from_environ({"TIMEOUTS_QUEUE_URL": "q", "CONNECTIONS_ENDPOINT": "https://e/s"}))
    assert services.lobby.list_tournaments() == ()
    assert isinstance(services.deps.backoff, JitteredBackoff)  # lost races on DynamoDB wait a jittered while
    assert services.connections is services.deps.pushes  # the ws function's connections: the pushes' table


def test_the_clock_follows_the_local_stacks_virtual_time() -> None:
    # Given the local stack's clock variables (60 virtual seconds to a real one, from epoch 1,000)
    config = Settings.from_environ({"TOURNEY_LOCAL_TIME_FACTOR": "60", "TOURNEY_LOCAL_TIME_ORIGIN": "1000.0"})
    clock = SystemClock(config.local_time_factor, config.local_time_origin)
    # Then one real second later, a minute has passed; and without them the clock is the system's
    assert clock.at(1_001.0).timestamp() == 1_060.0
    assert SystemClock().at(1_001.0).timestamp() == 1_001.0
