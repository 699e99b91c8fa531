"""The synthesized state machines run in moto's executor, task functions faked, waits from the input.

Not the local runtime (infra/local/ runs the real handlers): this checks our definitions
themselves (Map item selectors, result selectors, the Choice on the task results, the
SecondsPath wait) on the executor the local runtime uses.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

from tests.infra.template import Synthesized

REGION = "us-east-1"


def _definition(synthesized: Synthesized, workflow: str, arns: dict[str, str]) -> str:
    """The definition string with each ``Fn::GetAtt [function, Arn]`` replaced by the moto function's ARN."""
    parts = synthesized.resources[workflow]["Properties"]["DefinitionString"]["Fn::Join"][1]
    return "".join(part if isinstance(part, str) else arns[part["Fn::GetAtt"][0]] for part in parts)


class FakeTasks:
    """Answers each step the way start_tasks and recovery_tasks shape their results."""

    def __init__(self, restart_attempts: int) -> None:
        self.calls: list[dict[str, Any]] = []
        self.restart_attempts = restart_attempts
        self.compensate_steps = 1
        """How many compensation steps it takes (each answers more but the last)."""
        self.compensate_failures: list[int] = []
        """Which calls of compensate (1, 2, ...) fail."""

    def fails(self, event: dict[str, Any]) -> bool:
        """Whether this call (not answered yet) fails."""
        call = 1 + sum(1 for c in self.calls if c["step"] == "compensate")
        return event["step"] == "compensate" and call in self.compensate_failures

    def answer(self, event: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(event)
        tid = event["tournament_id"]
        step = event["step"]
        if step == "close_registration":
            return {"tournament_id": tid, "status": "running", "batches": [0, 1, 2], "tables": 6}
        if step == "seat_batch":
            return {
                "tournament_id": tid,
                "batch": event["batch"],
                "tables": [f"{event['batch']}a", f"{event['batch']}b"],
            }
        if step == "deal_first_hands":
            return {"tournament_id": tid, "tables": [f"{event['batch']}a", f"{event['batch']}b"], "started_at": None}
        if step == "try_restart":
            attempts = sum(1 for c in self.calls if c["step"] == "try_restart")
            return {"outcome": "retry", "restarted": False, "window_closed": attempts >= self.restart_attempts}
        if step == "compensate":
            calls = sum(1 for c in self.calls if c["step"] == "compensate")
            done = calls - sum(1 for f in self.compensate_failures if f <= calls)
            left = max(0, self.compensate_steps - done)
            return {
                "tournament_id": tid,
                "outcome": "rollback",
                "more": left > 0,
                "remaining": left,
                "seconds_left": 0,
                "paid": [["p1", 100]],
            }
        return {"tournament_id": tid, "outcome": step}

    def steps(self) -> list[str]:
        return [c["step"] for c in self.calls]


@pytest.fixture(scope="module")
def moto_sfn(synthesized: Synthesized) -> Iterator[tuple[Any, dict[str, str], FakeTasks]]:
    import boto3
    from moto import mock_aws
    from moto.awslambda.models import LambdaFunction

    fake = FakeTasks(restart_attempts=3)

    def invoke(self: Any, event: str | dict[str, Any] | None = None) -> tuple[str, bool, str]:
        payload = json.loads(event) if isinstance(event, str | bytes) else dict(event or {})
        failed = fake.fails(payload)
        answer = fake.answer(payload)
        if failed:
            return json.dumps({"errorType": "Crash", "errorMessage": "the task died"}), True, ""
        return json.dumps(answer), False, ""

    from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

    with (
        mock_aws(config={"stepfunctions": {"execute_state_machine": True}}),
        mock.patch.object(LambdaFunction, "_invoke_lambda", invoke),
        mock.patch.object(retrier_decl, "time", mock.Mock()),  # a Retry's backoff does not really sleep
    ):
        role = boto3.client("iam", region_name=REGION).create_role(RoleName="tasks", AssumeRolePolicyDocument="{}")
        code = io.BytesIO()
        with zipfile.ZipFile(code, "w") as archive:
            archive.writestr("app.py", "def handler(event, context):\n    return event\n")
        lambdas = boto3.client("lambda", region_name=REGION)
        arns = {
            name: lambdas.create_function(
                FunctionName=name,
                Runtime="python3.12",
                Role=role["Role"]["Arn"],
                Handler="app.handler",
                Code={"ZipFile": code.getvalue()},
            )["FunctionArn"]
            for name in ("FunctionStartTasks", "FunctionRecoveryTasks")
        }
        machines = {
            workflow: boto3.client("stepfunctions", region_name=REGION).create_state_machine(
                name=workflow, definition=_definition(synthesized, workflow, arns), roleArn=role["Role"]["Arn"]
            )["stateMachineArn"]
            for workflow in ("WorkflowStart", "WorkflowRecovery")
        }
        yield boto3.client("stepfunctions", region_name=REGION), machines, fake


def _run(client: Any, machine: str, payload: dict[str, Any], name: str) -> dict[str, Any]:
    execution = client.start_execution(stateMachineArn=machine, name=name, input=json.dumps(payload))["executionArn"]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        described: dict[str, Any] = client.describe_execution(executionArn=execution)
        if described["status"] != "RUNNING":
            return described
        time.sleep(0.05)
    raise AssertionError("the execution did not finish")


def test_start_seats_every_batch_then_deals_every_seated_table(moto_sfn: tuple[Any, dict[str, str], FakeTasks]) -> None:
    client, machines, fake = moto_sfn
    fake.calls.clear()
    # When the start workflow runs for a tournament of three batches
    result = _run(client, machines["WorkflowStart"], {"tournament_id": "T1"}, "start-T1")
    # Then registration closes, every batch is seated, and only then every batch is dealt
    assert result["status"] == "SUCCEEDED"
    assert fake.steps() == ["close_registration"] + ["seat_batch"] * 3 + ["deal_first_hands"] * 3
    assert sorted(c["batch"] for c in fake.calls if c["step"] == "seat_batch") == [0, 1, 2]
    assert sorted(c["batch"] for c in fake.calls if c["step"] == "deal_first_hands") == [0, 1, 2]
    assert json.loads(result["output"]).keys() == {"tournament_id", "registration"}


def test_recovery_retries_restart_then_compensates(moto_sfn: tuple[Any, dict[str, str], FakeTasks]) -> None:
    client, machines, fake = moto_sfn
    fake.calls.clear()
    # When restart keeps failing until the window closes (third attempt), waits shortened through the input
    result = _run(client, machines["WorkflowRecovery"], {"tournament_id": "T2", "wait_seconds": 0}, "recover-T2")
    # Then hands are cancelled, restart is tried three times, and the tournament is compensated
    assert result["status"] == "SUCCEEDED"
    assert fake.steps() == ["cancel_hands", "try_restart", "try_restart", "try_restart", "compensate"]
    assert json.loads(result["output"])["compensation"] == {
        "outcome": "rollback",
        "more": False,
        "remaining": 0,
        "seconds_left": 0,
    }


def test_recovery_waits_a_minute_between_attempts_when_the_input_says_nothing(
    moto_sfn: tuple[Any, dict[str, str], FakeTasks],
) -> None:
    client, machines, fake = moto_sfn
    fake.calls.clear()
    fake.restart_attempts = 1  # the window is closed at the first attempt: no wait happens
    try:
        result = _run(client, machines["WorkflowRecovery"], {"tournament_id": "T3"}, "recover-T3")
    finally:
        fake.restart_attempts = 3
    assert result["status"] == "SUCCEEDED"
    assert json.loads(result["output"])["wait_seconds"] == 60
    assert fake.steps() == ["cancel_hands", "try_restart", "compensate"]


def test_rule_17_recovery_calls_compensate_until_done_and_again_after_failures(
    moto_sfn: tuple[Any, dict[str, str], FakeTasks],
) -> None:
    client, machines, fake = moto_sfn
    fake.calls.clear()
    fake.restart_attempts, fake.compensate_steps = 1, 3
    # The 2nd call fails once (retried), the 4th to the 9th fail six times in a row (retries spent: caught)
    fake.compensate_failures = [2, 4, 5, 6, 7, 8, 9]
    try:
        # When a large field is compensated in three steps, and steps fail on the way
        result = _run(client, machines["WorkflowRecovery"], {"tournament_id": "T4", "wait_seconds": 0}, "recover-T4")
    finally:
        fake.restart_attempts, fake.compensate_steps, fake.compensate_failures = 3, 1, []
    # Then compensate is called until it answers that it is done, through the failures, and the workflow succeeds
    assert result["status"] == "SUCCEEDED"
    assert fake.steps() == ["cancel_hands", "try_restart"] + ["compensate"] * 10
    output = json.loads(result["output"])
    assert output["compensation"]["more"] is False
    assert "Crash" in json.dumps(output.get("compensation_error"))
