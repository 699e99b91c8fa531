"""Each workflow is described once: ``infra/workflow_states.py``.

The synthesized state machines are that description (every state, its kind, payload, retry, catch,
wait and transitions), and no other module of the product, the simulated cloud or the test drivers
names a state or strings a workflow's steps together: they run the description.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from infra import wiring
from infra import workflow_states as states
from tests.infra.template import Synthesized

ROOT = Path(__file__).resolve().parents[2]
THE_DESCRIPTION = ROOT / "infra" / "workflow_states.py"
SCANNED = ("infra", "layers/tourney", "functions", "tests/support", "bench")
STEPS_IMPLEMENTED = ("layers/tourney/services", "layers/tourney/entrypoints/workflow_tasks.py")
"""The steps' own code: the services, and the table from a task's payload to its service method."""


def _asl(synthesized: Synthesized, spec: wiring.WorkflowSpec) -> dict[str, Any]:
    _, resource = synthesized.with_metadata("tourney:workflow", spec.name)
    parts = resource["Properties"]["DefinitionString"]["Fn::Join"][1]
    text = "".join(part if isinstance(part, str) else f"arn:{part['Fn::GetAtt'][0]}" for part in parts)
    definition: dict[str, Any] = json.loads(text)
    return definition


def _task_asl(task: states.Task) -> dict[str, Any]:
    expected: dict[str, Any] = {
        "Type": "Task",
        "Parameters": {"step": task.step, **{f"{key}.$": path for key, path in task.fields}},
        "ResultPath": task.result_path,
        "Retry": [
            {
                "ErrorEquals": ["States.ALL"],
                "IntervalSeconds": task.retry.interval_seconds,
                "MaxAttempts": task.retry.max_attempts,
                "BackoffRate": task.retry.backoff_rate,
            }
        ],
    }
    if task.result_selector:
        expected["ResultSelector"] = {f"{key}.$": f"$.{key}" for key in task.result_selector}
    if task.catch is not None:
        expected["Catch"] = [
            {"ErrorEquals": ["States.ALL"], "ResultPath": task.catch.result_path, "Next": task.catch.next}
        ]
    expected.update({"Next": task.next} if task.next else {"End": True})
    return expected


def _rule_asl(rule: states.When) -> dict[str, Any]:
    test = {"is_present": "IsPresent", "boolean_equals": "BooleanEquals", "string_equals": "StringEquals"}[rule.test]
    return {"Variable": rule.variable, test: True if rule.value is None else rule.value, "Next": rule.next}


def _state_asl(state: states.State) -> dict[str, Any]:
    """What the synthesized state must say, read from the description (the function ARN and CDK's defaults aside)."""
    if isinstance(state, states.Task):
        return _task_asl(state)
    if isinstance(state, states.Map):
        return {
            "Type": "Map",
            "ItemsPath": state.items_path,
            "ItemSelector": {f"{key}.$": path for key, path in state.item_fields},
            "MaxConcurrency": state.concurrency,
            "ResultPath": None,
            "Next": state.next,
            "ItemProcessor": {"StartAt": state.task.name, "States": {state.task.name: _task_asl(state.task)}},
        }
    if isinstance(state, states.Choice):
        return {"Type": "Choice", "Choices": [_rule_asl(r) for r in state.rules], "Default": state.otherwise}
    if isinstance(state, states.Wait):
        return {"Type": "Wait", "SecondsPath": state.seconds_path, "Next": state.next}
    if isinstance(state, states.Pass):
        return {"Type": "Pass", "Result": state.result, "ResultPath": state.result_path, "Next": state.next}
    return {"Type": "Succeed"}


BEHAVIOUR = {
    *("Type", "Next", "End", "Parameters", "InputPath", "OutputPath", "ResultPath", "ResultSelector", "Retry"),
    *("Catch", "Choices", "Default", "Seconds", "SecondsPath", "Timestamp", "TimestampPath", "Result"),
    *("ItemsPath", "ItemSelector", "MaxConcurrency", "ItemProcessor"),
}
"""The keys of a state that change what it does: each one the description does not give must be absent."""


def _described_part(actual: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """``actual`` cut to the keys ``expected`` describes (nested for the Map's item processor and retries)."""
    cut: dict[str, Any] = {}
    for key in [*expected, *sorted((set(actual) & BEHAVIOUR) - set(expected))]:
        value, found = expected.get(key, "<absent>"), actual.get(key, "<absent>")
        if key == "ItemProcessor":
            found = {
                "StartAt": found["StartAt"],
                "States": {n: _described_part(s, value["States"].get(n, {})) for n, s in found["States"].items()},
            }
        elif key == "Retry":
            found = [{k: r.get(k) for k in value[0]} for r in found if r["ErrorEquals"] == ["States.ALL"]]
        cut[key] = found
    return cut


@pytest.mark.parametrize("spec", wiring.WORKFLOWS, ids=lambda s: s.name)
def test_the_synthesized_state_machine_is_its_description(synthesized: Synthesized, spec: wiring.WorkflowSpec) -> None:
    asl = _asl(synthesized, spec)
    assert asl["StartAt"] == spec.definition.start_at
    assert set(asl["States"]) == {state.name for state in spec.definition.states}
    for state in spec.definition.states:
        expected = _state_asl(state)
        assert _described_part(asl["States"][state.name], expected) == expected, state.name


# -- nowhere else -----------------------------------------------------------------------------------------------------


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if path == THE_DESCRIPTION or "__pycache__" in relative or relative.startswith(STEPS_IMPLEMENTED):
                continue
            yield relative, ast.parse(path.read_text(), relative)


def _names(node: ast.AST) -> set[str]:
    """The string constants, attribute names and function names ``node`` uses."""
    found: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            found.add(inner.value)
        elif isinstance(inner, ast.Attribute):
            found.add(inner.attr)
    return found


def elsewhere(sources: Iterator[tuple[str, ast.Module]]) -> list[str]:
    """Where a state of a workflow is named, or a function strings two of a workflow's steps together."""
    state_names = {
        state.name: name
        for name, definition in states.DEFINITIONS.items()
        for state in definition.states + tuple(s.task for s in definition.states if isinstance(s, states.Map))
    }
    found: list[str] = []
    for path, module in sources:
        for text in sorted(_names(module) & set(state_names)):
            found.append(f"{path} names the {state_names[text]} workflow's state {text!r}")
        for function in ast.walk(module):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            used = _names(function)
            for name, definition in states.DEFINITIONS.items():
                steps = sorted(used & set(definition.steps))
                if len(steps) > 1:
                    found.append(f"{path}:{function.lineno} {function.name}() runs the {name} workflow's steps {steps}")
    return found


def test_no_module_but_the_description_defines_a_workflows_states() -> None:
    assert elsewhere(_sources()) == []


def test_a_driver_that_strings_the_steps_together_itself_is_found() -> None:
    driver = ast.parse(
        "def run(services, tid):\n"
        "    plan = services.start.close_registration(tid)\n"
        "    for batch in plan.batches:\n"
        "        services.start.seat_batch(tid, batch)\n"
    )
    builder = ast.parse("def build(scope):\n    return Wait(scope, 'WaitBeforeRetry')\n")
    assert elsewhere(iter([("driver.py", driver), ("builder.py", builder)])) == [
        "driver.py:1 run() runs the start workflow's steps ['close_registration', 'seat_batch']",
        "builder.py names the recovery workflow's state 'WaitBeforeRetry'",
    ]
