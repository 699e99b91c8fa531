"""The start and recovery state machines: their definitions parsed, state by state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from infra import wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized, render


def definition(synthesized: Synthesized, workflow: str) -> dict[str, Any]:
    machine = synthesized.resources[f"Workflow{logical_id(workflow)}"]["Properties"]
    parsed: dict[str, Any] = json.loads(render(machine["DefinitionString"]))
    return parsed


def flatten(states: dict[str, Any]) -> dict[str, Any]:
    """Every state, Map item processors included."""
    found = dict(states)
    for state in states.values():
        if state["Type"] == "Map":
            found.update(flatten(state["ItemProcessor"]["States"]))
    return found


@pytest.mark.parametrize("spec", wiring.WORKFLOWS, ids=lambda w: w.name)
def test_standard_logged_traced(synthesized: Synthesized, spec: wiring.WorkflowSpec) -> None:
    machine = synthesized.resources[f"Workflow{logical_id(spec.name)}"]["Properties"]
    assert machine["StateMachineType"] == "STANDARD"
    assert machine["LoggingConfiguration"]["Level"] == "ALL"
    assert machine["TracingConfiguration"] == {"Enabled": True}


@pytest.mark.parametrize("spec", wiring.WORKFLOWS, ids=lambda w: w.name)
def test_every_task_invokes_the_task_function_with_a_step(synthesized: Synthesized, spec: wiring.WorkflowSpec) -> None:
    states = flatten(definition(synthesized, spec.name)["States"])
    tasks = {name: s for name, s in states.items() if s["Type"] == "Task"}
    assert tasks
    steps = set()
    for task in tasks.values():
        assert task["Resource"] == f"<Function{logical_id(spec.task_function)}.Arn>"
        assert task["Parameters"]["tournament_id.$"] == "$.tournament_id"
        steps.add(task["Parameters"]["step"])
        assert any("Lambda.ServiceException" in r["ErrorEquals"] for r in task["Retry"])
    assert steps == set(spec.steps)


def test_start_closes_registration_then_seats_in_a_map_then_deals(synthesized: Synthesized) -> None:
    machine = definition(synthesized, "start")
    states = machine["States"]
    assert machine["StartAt"] == "CloseRegistration"
    close = states["CloseRegistration"]
    assert close["Parameters"] == {"step": "close_registration", "tournament_id.$": "$.tournament_id"}
    assert close["ResultPath"] == "$.registration"
    cancelled = states[close["Next"]]
    assert cancelled["Type"] == "Choice"
    assert cancelled["Choices"] == [
        {"Variable": "$.registration.status", "StringEquals": "cancelled", "Next": "Cancelled"}
    ]
    seat = states[cancelled["Default"]]
    assert seat["Type"] == "Map"
    assert seat["ItemsPath"] == "$.registration.batches"
    assert seat["ItemSelector"] == {"tournament_id.$": "$.tournament_id", "batch.$": "$$.Map.Item.Value"}
    seat_task = seat["ItemProcessor"]["States"][seat["ItemProcessor"]["StartAt"]]
    assert seat_task["Parameters"] == {"step": "seat_batch", "tournament_id.$": "$.tournament_id", "batch.$": "$.batch"}
    deal = states[seat["Next"]]
    # dealing starts once every batch is seated, batch by batch again
    assert deal["Type"] == "Map"
    assert deal["ItemsPath"] == "$.registration.batches"
    assert deal["ItemSelector"] == seat["ItemSelector"]
    deal_task = deal["ItemProcessor"]["States"][deal["ItemProcessor"]["StartAt"]]
    assert deal_task["Parameters"] == {
        "step": "deal_first_hands",
        "tournament_id.$": "$.tournament_id",
        "batch.$": "$.batch",
    }
    # results are dropped: the state stays small whatever the field size
    assert seat["ResultPath"] is None and deal["ResultPath"] is None
    assert states[deal["Next"]]["Type"] == "Succeed"


def test_recovery_cancels_then_retries_restart_until_the_window_closes(synthesized: Synthesized) -> None:
    machine = definition(synthesized, "recovery")
    states = machine["States"]
    # the wait between restart attempts comes from the input, 60 s when it gives none
    given = states[machine["StartAt"]]
    assert given["Choices"] == [{"Variable": "$.wait_seconds", "IsPresent": True, "Next": "CancelHands"}]
    assert states[given["Default"]] == {
        "Type": "Pass",
        "Result": wiring.RECOVERY_RETRY_SECONDS,
        "ResultPath": "$.wait_seconds",
        "Next": "CancelHands",
    }
    assert states["CancelHands"]["Parameters"]["step"] == "cancel_hands"
    assert states["CancelHands"]["Next"] == "TryRestart"
    assert states["TryRestart"]["Parameters"]["step"] == "try_restart"
    assert states["TryRestart"]["ResultPath"] == "$.restart"
    choice = states[states["TryRestart"]["Next"]]
    assert choice["Type"] == "Choice"
    by_variable = {c["Variable"]: c["Next"] for c in choice["Choices"]}
    assert states[by_variable["$.restart.restarted"]]["Type"] == "Succeed"
    compensate = states[by_variable["$.restart.window_closed"]]
    assert compensate["Parameters"]["step"] == "compensate"
    wait = states[choice["Default"]]
    # the wait comes from the input (tests and the local runtime shorten it), then the loop closes
    assert wait == {"Type": "Wait", "SecondsPath": "$.wait_seconds", "Next": "TryRestart"}


def test_rule_17_recovery_calls_compensate_again_while_it_answers_more_and_after_it_fails(
    synthesized: Synthesized,
) -> None:
    machine = definition(synthesized, "recovery")
    states = machine["States"]
    compensate = states["Compensate"]
    # Only what the choice reads is kept from a step's answer (its payments stay out of the state)
    assert compensate["ResultPath"] == "$.compensation"
    assert compensate["ResultSelector"] == {
        "outcome.$": "$.outcome",
        "more.$": "$.more",
        "remaining.$": "$.remaining",
        "seconds_left.$": "$.seconds_left",
    }
    # A step that answers more is followed by another; one that is done ends the workflow
    choice = states[compensate["Next"]]
    assert choice["Type"] == "Choice"
    assert {"Variable": "$.compensation.more", "BooleanEquals": True, "Next": "Compensate"} in choice["Choices"]
    assert states[choice["Default"]]["Type"] == "Succeed"
    # Called while the window is still open (clocks apart), it waits the seconds left and tries again
    early = next(c for c in choice["Choices"] if c["Variable"] == "$.compensation.outcome")
    assert early["StringEquals"] == "retry"
    assert states[early["Next"]] == {"Type": "Wait", "SecondsPath": "$.compensation.seconds_left", "Next": "Compensate"}
    # A step that failed is retried with backoff (the tasks' policy), then caught: wait, and compensate again
    assert compensate["Retry"][-1]["ErrorEquals"] == ["States.ALL"]
    assert compensate["Retry"][-1]["BackoffRate"] > 1
    (catch,) = compensate["Catch"]
    assert catch["ErrorEquals"] == ["States.ALL"]
    assert catch["ResultPath"] not in ("$", "$.compensation", "$.tournament_id", "$.wait_seconds")
    assert states[catch["Next"]] == {"Type": "Wait", "SecondsPath": "$.wait_seconds", "Next": "Compensate"}
    # and the execution lives long enough for a large field and its retries (a day)
    properties = synthesized.resources["WorkflowRecovery"]["Properties"]
    assert machine.get("TimeoutSeconds", 0) >= 24 * 3600 or properties.get("TimeoutSeconds", 0) >= 24 * 3600


def test_starters_get_the_workflow_arn(synthesized: Synthesized) -> None:
    for spec in wiring.FUNCTIONS:
        variables = synthesized.resources[f"Function{logical_id(spec.name)}"]["Properties"]["Environment"]["Variables"]
        for workflow in wiring.WORKFLOWS:
            if workflow.name in spec.starts:
                assert variables[workflow.env] == {"Ref": f"Workflow{logical_id(workflow.name)}"}
            else:
                assert workflow.env not in variables
    assert wiring.FUNCTIONS_BY_NAME["start"].starts == ("start",)
    assert set(wiring.FUNCTIONS_BY_NAME["watchdog"].starts) == {"start", "recovery"}  # a failed start, a lost recovery


@pytest.mark.parametrize("spec", wiring.WORKFLOWS, ids=lambda s: s.name)
def test_every_task_is_retried_on_any_error_as_the_simulated_cloud_retries_it(
    synthesized: Synthesized, spec: wiring.WorkflowSpec
) -> None:
    # Given every Lambda task of the workflow
    from tourney.simulation.cloud import TASK_RETRY

    tasks = {n: st for n, st in flatten(definition(synthesized, spec.name)["States"]).items() if st["Type"] == "Task"}
    assert tasks
    for name, state in tasks.items():
        # Then its last retrier catches every error with the wiring's policy, the one the simulator applies
        last = state["Retry"][-1]
        assert last["ErrorEquals"] == ["States.ALL"], name
        assert (last["IntervalSeconds"], last["BackoffRate"], last["MaxAttempts"] + 1) == TASK_RETRY, name
