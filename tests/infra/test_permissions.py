"""Least privilege: each function's own role reaches only what ``infra/wiring.py`` declares."""

from __future__ import annotations

from typing import Any

import pytest

from infra import wiring
from infra.functions import table_actions
from infra.naming import logical_id
from tests.infra.template import Synthesized, as_list, render

SPECS = wiring.FUNCTIONS


def role_statements(synthesized: Synthesized, role: str) -> list[dict[str, Any]]:
    """Every statement of every policy attached to ``role`` (a logical id), intrinsics rendered."""
    statements: list[dict[str, Any]] = []
    for policy in synthesized.of_type("AWS::IAM::Policy").values():
        if {"Ref": role} in policy["Properties"]["Roles"]:
            statements.extend(render(policy["Properties"]["PolicyDocument"]["Statement"]))
    return statements


def function_role(synthesized: Synthesized, function: str) -> str:
    _, resource = synthesized.with_metadata("tourney:function", function)
    role: str = resource["Properties"]["Role"]["Fn::GetAtt"][0]
    return role


def resources_with(statements: list[dict[str, Any]], action_prefix: str) -> dict[str, set[str]]:
    """resource -> the actions (with that prefix) allowed on it."""
    granted: dict[str, set[str]] = {}
    for statement in statements:
        assert statement["Effect"] == "Allow"
        actions = {a for a in as_list(statement["Action"]) if a.startswith(action_prefix)}
        if actions:
            for resource in as_list(statement["Resource"]):
                granted.setdefault(resource, set()).update(actions)
    return granted


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_function_reaches_only_its_tables(synthesized: Synthesized, spec: wiring.FunctionSpec) -> None:
    statements = role_statements(synthesized, function_role(synthesized, spec.name))
    granted = resources_with(statements, "dynamodb:")
    expected: dict[str, set[str]] = {}
    for table_name, access in spec.tables.items():
        table = wiring.TABLES_BY_NAME[table_name]
        actions = set(table_actions(access))
        arn = f"<Table{logical_id(table_name)}.Arn>"
        expected[arn] = actions
        for index in table.indexes:
            expected[f"{arn}/index/{index.name}"] = actions
    assert granted == expected


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_function_sends_receives_starts_and_pushes_only_as_declared(
    synthesized: Synthesized, spec: wiring.FunctionSpec
) -> None:
    statements = role_statements(synthesized, function_role(synthesized, spec.name))
    sqs = resources_with(statements, "sqs:")
    sends = {r for r, actions in sqs.items() if "sqs:SendMessage" in actions}
    receives = {r for r, actions in sqs.items() if "sqs:ReceiveMessage" in actions}
    assert sends == {f"<Queue{logical_id(q)}.Arn>" for q in spec.sends_to}
    assert receives == {f"<Queue{logical_id(q.name)}.Arn>" for q in wiring.QUEUES if q.consumer == spec.name}

    starts = resources_with(statements, "states:")
    assert set(starts) == {f"<Workflow{logical_id(w)}>" for w in spec.starts}
    assert all(actions == {"states:StartExecution"} for actions in starts.values())

    pushes = resources_with(statements, "execute-api:")
    if spec.pushes:
        assert pushes == {
            f"arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<WebSocketApi>/"
            f"{wiring.WEBSOCKET_STAGE}/*/@connections/*": {"execute-api:ManageConnections"}
        }
    else:
        assert pushes == {}

    schedules = resources_with(statements, "scheduler:")
    passes = resources_with(statements, "iam:")
    if spec.schedules_starts:
        assert set(schedules) == {
            "arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<ScheduleGroupStarts>/*"
        }
        assert set(passes) == {"<SchedulerStartRole.Arn>"}
        assert all(actions == {"iam:PassRole"} for actions in passes.values())
    elif spec.cancels_starts:
        assert schedules == {
            "arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<ScheduleGroupStarts>/*": {
                "scheduler:DeleteSchedule"
            }
        }
        assert passes == {}
    else:
        assert schedules == {} and passes == {}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_no_other_service_and_wildcards_only_for_xray(synthesized: Synthesized, spec: wiring.FunctionSpec) -> None:
    statements = role_statements(synthesized, function_role(synthesized, spec.name))
    services = {action.split(":")[0] for s in statements for action in as_list(s["Action"])}
    assert services <= {"dynamodb", "sqs", "states", "execute-api", "scheduler", "iam", "logs", "xray"}
    for statement in statements:
        if "*" in as_list(statement["Resource"]):
            assert all(action.startswith("xray:") for action in as_list(statement["Action"])), statement
        for action in as_list(statement["Action"]):
            assert not action.endswith("*"), action  # no action wildcards


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_logs_only_to_its_own_log_group(synthesized: Synthesized, spec: wiring.FunctionSpec) -> None:
    _, function = synthesized.with_metadata("tourney:function", spec.name)
    log_group = function["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
    statements = role_statements(synthesized, function_role(synthesized, spec.name))
    assert set(resources_with(statements, "logs:")) == {f"<{log_group}.Arn>"}


def test_roles_have_no_managed_policies(synthesized: Synthesized) -> None:
    for name, role in synthesized.of_type("AWS::IAM::Role").items():
        assert "ManagedPolicyArns" not in role["Properties"], name


def test_workflow_roles_invoke_only_their_task_function(synthesized: Synthesized) -> None:
    for spec in wiring.WORKFLOWS:
        machine = synthesized.resources[f"Workflow{logical_id(spec.name)}"]
        role = machine["Properties"]["RoleArn"]["Fn::GetAtt"][0]
        invokes = resources_with(role_statements(synthesized, role), "lambda:")
        function = f"<Function{logical_id(spec.task_function)}.Arn>"
        assert set(invokes) == {function, f"{function}:*"}
