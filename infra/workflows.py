"""The Step Functions workflows (STANDARD, JSONPath, logged at level ALL, traced).

Every Lambda task invokes the workflow's task function directly (``Resource`` is the
function's ARN, ``Parameters`` the payload) with ``"step"`` naming the service method and
``"tournament_id"``; ``infra.wiring.WORKFLOWS`` documents the inputs and results.

Start (``WorkflowStart``)::

    CloseRegistration -> Cancelled? --status "cancelled"--> Cancelled
                                    --otherwise--> SeatBatches (Map over $.registration.batches: SeatBatch)
                                                   -> DealFirstHands (Map over the same batches: DealBatch)
                                                   -> Started

Recovery (``WorkflowRecovery``)::

    WaitGiven? --no--> DefaultWait ($.wait_seconds = 60) --+
               --yes-----------------------------------------+--> CancelHands
    CancelHands -> TryRestart -> Restarted? --$.restart.restarted--> Restarted
                      ^                      --$.restart.window_closed (20 minutes over)--> Compensate (below)
                      |                      --otherwise--> WaitBeforeRetry --+
                      +------------- (SecondsPath $.wait_seconds) ------------+

    Compensate -> Compensated? --$.compensation.more--> Compensate (the next step of a large field)
        |                      --$.compensation.outcome == "retry"--> WaitForWindow ($.compensation.seconds_left)
        |                                                              -> Compensate
        |                      --otherwise--> Compensated
        +-- failed, its retries spent (Catch) --> WaitBeforeCompensating ($.wait_seconds) -> Compensate

Each compensation step pays a bounded part of the plan and answers ``more`` until the plan is
paid and the tournament ended (``services/compensation.py``). Every step is safe to run again, so
a failed one is retried with backoff like every task (``wiring.TASK_RETRY_*``), then caught and,
after ``$.wait_seconds``, retried again the same way, for as long as the execution lives (a day,
``wiring.WORKFLOWS``). If the execution still ends without compensating (timed out, aborted, never
started), the watchdog requests the workflow again for a tournament that is terminated and not ended
once its recovery has gone quiet (``RecoveryService.watch``); the new execution's steps carry on
from what is posted.
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
from infra.naming import logical_id


def _task(
    scope: Construct,
    state_name: str,
    function: lambda_.IFunction,
    step: str,
    fields: Mapping[str, str],
    result_path: str,
    result_selector: Mapping[str, str] | None = None,
) -> tasks.LambdaInvoke:
    """A Lambda task whose payload is ``{"step": step, "<field>.$": "<path>", ...}``."""
    payload = {"step": step, **{key: sfn.JsonPath.string_at(path) for key, path in fields.items()}}
    task = tasks.LambdaInvoke(
        scope,
        state_name,
        lambda_function=function,
        payload=sfn.TaskInput.from_object(payload),
        payload_response_only=True,  # Resource = the function ARN, the result = what the handler returns
        result_path=result_path,
        result_selector={key: sfn.JsonPath.string_at(path) for key, path in (result_selector or {}).items()} or None,
        retry_on_service_exceptions=True,
    )
    task.add_retry(
        errors=[sfn.Errors.ALL],
        interval=Duration.seconds(wiring.TASK_RETRY_SECONDS),
        backoff_rate=wiring.TASK_RETRY_BACKOFF,
        max_attempts=wiring.TASK_RETRY_ATTEMPTS,
    )
    return task


class Workflows(Construct):
    """``by_name["start"]`` and ``by_name["recovery"]``."""

    def __init__(self, scope: Construct, construct_id: str, *, functions: Mapping[str, lambda_.IFunction]) -> None:
        super().__init__(scope, construct_id)
        self.by_name: dict[str, sfn.StateMachine] = {}
        definitions = {"start": self._start, "recovery": self._recovery}
        for spec in wiring.WORKFLOWS:
            name = logical_id(spec.name)
            body = definitions[spec.name](functions[spec.task_function])
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

    def _start(self, function: lambda_.IFunction) -> sfn.IChainable:
        scope = Construct(self, "StartStates")
        tournament = {"tournament_id": "$.tournament_id"}
        batch = {**tournament, "batch": "$.batch"}
        close = _task(scope, "CloseRegistration", function, "close_registration", tournament, "$.registration")

        def over_batches(state_name: str, task: tasks.LambdaInvoke) -> sfn.Map:
            # Items are the batch numbers only, and results are dropped: the state stays a few KB even for
            # 250,000 players (28,000 tables), far below Step Functions' 256 KB.
            return sfn.Map(
                scope,
                state_name,
                items_path="$.registration.batches",
                item_selector={
                    "tournament_id": sfn.JsonPath.string_at("$.tournament_id"),
                    "batch": sfn.JsonPath.number_at("$$.Map.Item.Value"),
                },
                max_concurrency=wiring.MAP_CONCURRENCY,
                result_path=sfn.JsonPath.DISCARD,
            ).item_processor(task)

        seat = over_batches(
            "SeatBatches", _task(scope, "SeatBatch", function, "seat_batch", batch, sfn.JsonPath.DISCARD)
        )
        deal = over_batches(
            "DealFirstHands", _task(scope, "DealBatch", function, "deal_first_hands", batch, sfn.JsonPath.DISCARD)
        )
        return close.next(
            sfn.Choice(scope, "Cancelled?")
            .when(sfn.Condition.string_equals("$.registration.status", "cancelled"), sfn.Succeed(scope, "Cancelled"))
            .otherwise(seat.next(deal).next(sfn.Succeed(scope, "Started")))
        )

    def _recovery(self, function: lambda_.IFunction) -> sfn.IChainable:
        scope = Construct(self, "RecoveryStates")
        tournament = {"tournament_id": "$.tournament_id"}
        cancel = _task(scope, "CancelHands", function, "cancel_hands", tournament, "$.cancelled")
        try_restart = _task(scope, "TryRestart", function, "try_restart", tournament, "$.restart")
        # Only what the Choice reads is kept: one step's payments stay out of the state.
        compensate = _task(
            scope,
            "Compensate",
            function,
            "compensate",
            tournament,
            "$.compensation",
            result_selector={
                "outcome": "$.outcome",
                "more": "$.more",
                "remaining": "$.remaining",
                "seconds_left": "$.seconds_left",
            },
        )
        compensate.add_catch(
            sfn.Wait(scope, "WaitBeforeCompensating", time=sfn.WaitTime.seconds_path("$.wait_seconds")).next(
                compensate
            ),
            errors=[sfn.Errors.ALL],
            result_path="$.compensation_error",
        )
        compensated = (
            sfn.Choice(scope, "Compensated?")
            .when(sfn.Condition.boolean_equals("$.compensation.more", True), compensate)
            .when(
                sfn.Condition.string_equals("$.compensation.outcome", "retry"),
                sfn.Wait(scope, "WaitForWindow", time=sfn.WaitTime.seconds_path("$.compensation.seconds_left")).next(
                    compensate
                ),
            )
            .otherwise(sfn.Succeed(scope, "Compensated"))
        )
        compensate.next(compensated)
        wait = sfn.Wait(scope, "WaitBeforeRetry", time=sfn.WaitTime.seconds_path("$.wait_seconds"))
        decide = (
            sfn.Choice(scope, "Restarted?")
            .when(sfn.Condition.boolean_equals("$.restart.restarted", True), sfn.Succeed(scope, "Restarted"))
            .when(sfn.Condition.boolean_equals("$.restart.window_closed", True), compensate)
            .otherwise(wait.next(try_restart))
        )
        cancel.next(try_restart).next(decide)
        # The starters send {"tournament_id"}; tests and the local runtime add a short "wait_seconds".
        default_wait = sfn.Pass(
            scope,
            "DefaultWait",
            result=sfn.Result.from_number(wiring.RECOVERY_RETRY_SECONDS),
            result_path="$.wait_seconds",
        ).next(cancel)
        return (
            sfn.Choice(scope, "WaitGiven?")
            .when(sfn.Condition.is_present("$.wait_seconds"), cancel)
            .otherwise(default_wait)
        )
