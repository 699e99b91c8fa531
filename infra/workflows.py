"""The Step Functions workflows (STANDARD, JSONPath, logged at level ALL, traced).

Each state machine is built by walking its description in ``infra/workflow_states.py`` (the one
place that names a workflow's states, steps, retries, catches and waits; the simulated cloud and
the test drivers run the same description). Every Lambda task invokes the workflow's task function
directly (``Resource`` is the function's ARN, ``Parameters`` the payload) with ``"step"`` naming the
service method and ``"tournament_id"``.

Each compensation step pays a bounded part of the plan and answers ``more`` until the plan is
paid and the tournament ended (``services/compensation.py``). Every step is safe to run again, so
a failed one is retried with backoff like every task, then caught and, after ``$.wait_seconds``,
retried again the same way, for as long as the execution lives (a day, ``wiring.WORKFLOWS``). If
the execution still ends without compensating (timed out, aborted, never started), the watchdog
requests the workflow again for a tournament that is terminated and not ended once its recovery has
gone quiet (``RecoveryService.watch``); the new execution's steps carry on from what is posted.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Duration
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from constructs import Construct

from infra import wiring
from infra import workflow_states as states
from infra.naming import logical_id


def _paths(fields: states.Fields) -> dict[str, str]:
    return {key: sfn.JsonPath.string_at(path) for key, path in fields}


def _task(scope: Construct, state: states.Task, function: lambda_.IFunction) -> tasks.LambdaInvoke:
    """A Lambda task whose payload is ``{"step": step, "<field>.$": "<path>", ...}``."""
    selector = {key: sfn.JsonPath.string_at(f"$.{key}") for key in state.result_selector}
    task = tasks.LambdaInvoke(
        scope,
        state.name,
        lambda_function=function,
        payload=sfn.TaskInput.from_object({"step": state.step, **_paths(state.fields)}),
        payload_response_only=True,  # Resource = the function ARN, the result = what the handler returns
        result_path=state.result_path or sfn.JsonPath.DISCARD,
        result_selector=selector or None,
        retry_on_service_exceptions=True,
    )
    task.add_retry(
        errors=[sfn.Errors.ALL],
        interval=Duration.seconds(state.retry.interval_seconds),
        backoff_rate=state.retry.backoff_rate,
        max_attempts=state.retry.max_attempts,
    )
    return task


def _condition(rule: states.When) -> sfn.Condition:
    if rule.test == "is_present":
        return sfn.Condition.is_present(rule.variable)
    if rule.test == "boolean_equals":
        return sfn.Condition.boolean_equals(rule.variable, bool(rule.value))
    return sfn.Condition.string_equals(rule.variable, str(rule.value))


def _construct(scope: Construct, state: states.State, function: lambda_.IFunction) -> sfn.State:
    """The state's construct, not linked to the next yet."""
    if isinstance(state, states.Task):
        return _task(scope, state, function)
    if isinstance(state, states.Map):
        return sfn.Map(
            scope,
            state.name,
            items_path=state.items_path,
            item_selector=_paths(state.item_fields),
            max_concurrency=state.concurrency,
            result_path=sfn.JsonPath.DISCARD,
        ).item_processor(_task(scope, state.task, function))
    if isinstance(state, states.Choice):
        return sfn.Choice(scope, state.name)
    if isinstance(state, states.Wait):
        return sfn.Wait(scope, state.name, time=sfn.WaitTime.seconds_path(state.seconds_path))
    if isinstance(state, states.Pass):
        return sfn.Pass(scope, state.name, result=sfn.Result.from_number(state.result), result_path=state.result_path)
    return sfn.Succeed(scope, state.name)


def build(scope: Construct, definition: states.Definition, function: lambda_.IFunction) -> sfn.IChainable:
    """The state machine's states as ``definition`` describes them; the first one."""
    built = {state.name: _construct(scope, state, function) for state in definition.states}
    for state in definition.states:
        construct = built[state.name]
        if isinstance(state, states.Choice):
            assert isinstance(construct, sfn.Choice)
            for rule in state.rules:
                construct.when(_condition(rule), built[rule.next])
            construct.otherwise(built[state.otherwise])
            continue
        if isinstance(state, states.Task) and state.catch is not None:
            assert isinstance(construct, tasks.LambdaInvoke)
            construct.add_catch(built[state.catch.next], errors=[sfn.Errors.ALL], result_path=state.catch.result_path)
        following = getattr(state, "next", None)
        if following is not None:
            construct.next(built[following])  # type: ignore[attr-defined]
    return built[definition.start_at]


class Workflows(Construct):
    """``by_name["start"]`` and ``by_name["recovery"]``."""

    def __init__(self, scope: Construct, construct_id: str, *, functions: Mapping[str, lambda_.IFunction]) -> None:
        super().__init__(scope, construct_id)
        self.by_name: dict[str, sfn.StateMachine] = {}
        for spec in wiring.WORKFLOWS:
            name = logical_id(spec.name)
            body = build(Construct(self, f"{name}States"), spec.definition, functions[spec.task_function])
            log_group = logs.LogGroup(self, f"{name}Logs", retention=logs.RetentionDays.ONE_MONTH)
            machine = sfn.StateMachine(
                self,
                name,
                comment=f"tourney {spec.name} workflow: tasks call {spec.task_function} with a step",
                definition_body=sfn.DefinitionBody.from_chainable(body),
                state_machine_type=sfn.StateMachineType.STANDARD,
                timeout=Duration.minutes(spec.timeout_minutes),
                tracing_enabled=True,
                logs=sfn.LogOptions(destination=log_group, level=sfn.LogLevel.ALL, include_execution_data=True),
            )
            resource = machine.node.default_child
            resource.override_logical_id(f"Workflow{name}")  # type: ignore[union-attr]
            resource.add_metadata("tourney:workflow", spec.name)  # type: ignore[union-attr]
            resource.add_metadata("tourney:task-function", spec.task_function)  # type: ignore[union-attr]
            self.by_name[spec.name] = machine
