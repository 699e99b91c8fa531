"""The ten Lambda functions of ``infra.wiring.FUNCTIONS``, each with its own role.

python3.12 on arm64, X-Ray tracing, a log group of its own, the two layers (dependencies and
the shared ``tourney`` package), code from ``functions/<name>`` and handler ``app.handler``.

A role starts with nothing but writing to its own log group (no managed policy);
``Functions.grant`` then adds exactly what the wiring declares: tables (read or read/write),
queues (send), workflows (start), WebSocket pushes, start schedules. Each function resource
is ``Function<Name>`` in the template and carries the metadata ``tourney:function`` (its
name) and ``tourney:code`` (its folder, relative to the repository root).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra import wiring
from infra.layers import ARCHITECTURE, RUNTIME, Layers, function_code
from infra.naming import logical_id

#: Item and query actions only: no table management, no streams (no stream consumer exists).
READ_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:Scan",
    "dynamodb:ConditionCheckItem",
    "dynamodb:DescribeTable",
)
WRITE_ACTIONS = ("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem")
APPEND_ACTIONS = ("dynamodb:PutItem",)
"""Put new items (conditional on ``attribute_not_exists``: the code's rule, IAM cannot require a condition)."""
CHANGE_ACTIONS = (
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
    "dynamodb:PartiQLUpdate",
    "dynamodb:PartiQLDelete",
    "dynamodb:PartiQLInsert",
)
"""The item actions that may change or remove a stored item: never allowed on the append-only audit (docs/rules.md,
rule 19). Table actions (``DeleteTable``, restores) are left to the account's administrators: the table is
retained when the stack goes, and has point-in-time recovery."""


def table_actions(access: wiring.Access) -> tuple[str, ...]:
    """The item actions a function is allowed on a table it reaches with ``access``."""
    if access is wiring.Access.READ_WRITE:
        return READ_ACTIONS + WRITE_ACTIONS
    if access is wiring.Access.APPEND:
        return READ_ACTIONS + APPEND_ACTIONS
    return READ_ACTIONS


def table_statement(table: dynamodb.Table, spec: wiring.TableSpec, access: wiring.Access) -> iam.PolicyStatement:
    """Read (read/write, or read and append) the table and its declared indexes by name: no ``index/*`` wildcard."""
    actions = table_actions(access)
    indexes = [f"{table.table_arn}/index/{index.name}" for index in spec.indexes]
    return iam.PolicyStatement(actions=list(actions), resources=[table.table_arn, *indexes])


class MissingFunctionCode(FileNotFoundError):
    """A declared function has no ``functions/<name>/app.py`` yet."""


def require_function_code(root: Path) -> None:
    """Raise ``MissingFunctionCode`` naming every declared function without ``functions/<name>/app.py``."""
    missing = [spec.code_path for spec in wiring.FUNCTIONS if not (root / spec.code_path / "app.py").is_file()]
    if missing:
        raise MissingFunctionCode(
            f"no app.py in {', '.join(missing)} (under {root}): every function declared in "
            "infra/wiring.py needs functions/<name>/app.py with `handler` before the stack can synthesize"
        )


class Functions(Construct):
    """``self.by_name[name]`` is the ``lambda_.Function``; ``self.roles[name]`` its role."""

    def __init__(self, scope: Construct, construct_id: str, *, root: Path, layers: Layers) -> None:
        super().__init__(scope, construct_id)
        require_function_code(root)
        self.by_name: dict[str, lambda_.Function] = {}
        self.roles: dict[str, iam.Role] = {}
        for spec in wiring.FUNCTIONS:
            name = logical_id(spec.name)
            log_group = logs.LogGroup(self, f"{name}Logs", retention=logs.RetentionDays.ONE_MONTH)
            role = iam.Role(
                self,
                f"{name}Role",
                assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
                description=f"tourney {spec.name}: its log group and what infra/wiring.py declares",
            )
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                    resources=[log_group.log_group_arn],
                )
            )
            function = lambda_.Function(
                self,
                name,
                description=spec.description,
                runtime=RUNTIME,
                architecture=ARCHITECTURE,
                handler=spec.handler,
                code=function_code(root / spec.code_path),
                layers=layers.all,
                role=role,
                log_group=log_group,
                timeout=Duration.seconds(spec.timeout_seconds),
                memory_size=spec.memory_mb,
                tracing=lambda_.Tracing.ACTIVE,
                environment=dict(wiring.COMMON_ENVIRONMENT),
            )
            resource = function.node.default_child
            resource.override_logical_id(f"Function{name}")  # type: ignore[union-attr]
            resource.add_metadata("tourney:function", spec.name)  # type: ignore[union-attr]
            resource.add_metadata("tourney:code", spec.code_path)  # type: ignore[union-attr]
            self.by_name[spec.name] = function
            self.roles[spec.name] = role

    def grant(
        self,
        *,
        tables: Mapping[str, dynamodb.Table],
        queues: Mapping[str, sqs.Queue],
        workflows: Mapping[str, sfn.StateMachine],
        connections_endpoint: str,
        connections_arn: str,
        schedule_group_name: str,
        schedules_arn: str,
        scheduler_role: iam.Role,
        jwt_issuer: str,
        jwt_audience: str,
    ) -> None:
        """Environment and permissions, exactly as ``infra.wiring.FUNCTIONS`` declares them."""
        start_function = self.by_name[wiring.SCHEDULED_START_FUNCTION]
        for spec in wiring.FUNCTIONS:
            function, role = self.by_name[spec.name], self.roles[spec.name]
            for table_name, access in spec.tables.items():
                table = tables[table_name]
                function.add_environment(wiring.TABLES_BY_NAME[table_name].env_var, table.table_name)
                role.add_to_policy(table_statement(table, wiring.TABLES_BY_NAME[table_name], access))
            for queue_name in spec.sends_to:
                queue = queues[queue_name]
                function.add_environment(wiring.QUEUES_BY_NAME[queue_name].env, queue.queue_url)
                queue.grant_send_messages(role)
            for workflow_name in spec.starts:
                workflow = workflows[workflow_name]
                function.add_environment(wiring.WORKFLOWS_BY_NAME[workflow_name].env, workflow.state_machine_arn)
                workflow.grant_start_execution(role)
            if spec.pushes:
                function.add_environment(wiring.CONNECTIONS_ENDPOINT_ENV, connections_endpoint)
                role.add_to_policy(
                    iam.PolicyStatement(actions=["execute-api:ManageConnections"], resources=[connections_arn])
                )
            if spec.schedules_starts:
                function.add_environment(wiring.SCHEDULE_GROUP_ENV, schedule_group_name)
                function.add_environment(wiring.SCHEDULER_ROLE_ARN_ENV, scheduler_role.role_arn)
                function.add_environment(wiring.START_FUNCTION_ARN_ENV, start_function.function_arn)
                role.add_to_policy(
                    iam.PolicyStatement(
                        actions=[
                            "scheduler:CreateSchedule",
                            "scheduler:UpdateSchedule",
                            "scheduler:GetSchedule",
                            "scheduler:DeleteSchedule",
                        ],
                        resources=[schedules_arn],
                    )
                )
                scheduler_role.grant_pass_role(role)
            elif spec.cancels_starts:
                function.add_environment(wiring.SCHEDULE_GROUP_ENV, schedule_group_name)
                role.add_to_policy(iam.PolicyStatement(actions=["scheduler:DeleteSchedule"], resources=[schedules_arn]))
            if spec.validates_tokens:
                function.add_environment(wiring.JWT_ISSUER_ENV, jwt_issuer)
                function.add_environment(wiring.JWT_AUDIENCE_ENV, jwt_audience)
            if spec.operators_only:
                function.add_environment(wiring.OPERATORS_GROUP_ENV, wiring.OPERATORS_GROUP)
