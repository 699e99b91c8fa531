"""EventBridge Scheduler: the group of per-tournament start schedules, and the recurring ones.

- ``group`` holds the one-time ``at(...)`` schedules that the functions with
  ``schedules_starts`` create at run time, one per tournament, input
  ``{"tournament_id": ...}``. They run as ``start_role``, which may invoke ``start`` and
  nothing else.
- ``sweeper`` (every 15 minutes) and ``watchdog`` (every minute) are recurring schedules in
  the default group (outside the start group, so no function may change them), run as
  ``recurring_role``, which may invoke those two functions only.
Logical IDs: ``ScheduleGroupStarts``, ``Schedule<Name>``, ``SchedulerStartRole``, ``SchedulerRecurringRole``;
metadata ``tourney:schedule``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from aws_cdk import Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_scheduler as scheduler
from constructs import Construct

from infra import wiring
from infra.naming import logical_id


def _scheduler_role(scope: Construct, construct_id: str, description: str) -> iam.Role:
    account = Stack.of(scope).account
    return iam.Role(
        scope,
        construct_id,
        assumed_by=iam.ServicePrincipal(
            "scheduler.amazonaws.com", conditions={"StringEquals": {"aws:SourceAccount": account}}
        ),
        description=description,
    )


class Schedules(Construct):
    """``group``, ``group_name``, ``schedules_arn`` (the group's schedules), ``start_role``, ``recurring``."""

    def __init__(self, scope: Construct, construct_id: str, *, functions: Mapping[str, lambda_.IFunction]) -> None:
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        self.group = scheduler.CfnScheduleGroup(self, "Starts")
        self.group.override_logical_id("ScheduleGroupStarts")
        self.group.add_metadata("tourney:schedule-group", "starts")
        self.group_name: str = self.group.ref
        self.schedules_arn = stack.format_arn(
            service="scheduler", resource="schedule", resource_name=f"{self.group_name}/*"
        )

        start = functions[wiring.SCHEDULED_START_FUNCTION]
        self.start_role = _scheduler_role(self, "StartRole", "Per-tournament start schedules: invoke `start` only")
        self.start_role.node.default_child.override_logical_id("SchedulerStartRole")  # type: ignore[union-attr]
        self.start_role.add_to_policy(
            iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[start.function_arn])
        )

        self.recurring_role = _scheduler_role(self, "RecurringRole", "Recurring schedules: sweeper and watchdog only")
        self.recurring_role.node.default_child.override_logical_id("SchedulerRecurringRole")  # type: ignore[union-attr]
        self.recurring: dict[str, scheduler.CfnSchedule] = {}
        for spec in wiring.SCHEDULES:
            target = functions[spec.function]
            self.recurring_role.add_to_policy(
                iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[target.function_arn])
            )
            schedule = scheduler.CfnSchedule(
                self,
                logical_id(spec.name),
                description=f"{spec.function}, {spec.expression}",
                schedule_expression=spec.expression,
                flexible_time_window=scheduler.CfnSchedule.FlexibleTimeWindowProperty(mode="OFF"),
                target=scheduler.CfnSchedule.TargetProperty(
                    arn=target.function_arn,
                    role_arn=self.recurring_role.role_arn,
                    input=json.dumps({"schedule": spec.name}),
                    retry_policy=scheduler.CfnSchedule.RetryPolicyProperty(
                        maximum_event_age_in_seconds=300, maximum_retry_attempts=2
                    ),
                ),
            )
            schedule.node.add_dependency(self.recurring_role)  # its policy exists before the first run
            schedule.override_logical_id(f"Schedule{logical_id(spec.name)}")
            schedule.add_metadata("tourney:schedule", spec.name)
            schedule.add_metadata("tourney:target", spec.function)
            self.recurring[spec.name] = schedule
