"""The DynamoDB tables, built from their one declaration (``tourney.adapters.dynamo.schema``).

On demand, point-in-time recovery where the declaration asks for it (every table but the
short-lived idempotency records), TTL where records expire, streams only where a consumer
exists (none today), AWS-owned encryption, retained when the stack is deleted. Each table's
logical ID is ``Table<Name>`` and its resource carries the metadata ``tourney:table = <name>``.
"""

from __future__ import annotations

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from constructs import Construct

from infra import wiring
from infra.naming import logical_id

APPEND_ONLY = "audit"
"""The table whose items nobody may change or delete once written (docs/rules.md, rule 19)."""


def append_only_policy() -> iam.PolicyDocument:
    """The audit table's own policy: every principal is denied changing or deleting its items.

    A deny in the resource's policy wins over any allow a role may be given
    later; the functions' roles are also granted only reads and ``PutItem``
    (``infra.functions.table_actions``).
    """
    from infra.functions import CHANGE_ACTIONS

    return iam.PolicyDocument(
        statements=[
            iam.PolicyStatement(
                sid="AuditIsAppendOnly",
                effect=iam.Effect.DENY,
                principals=[iam.AnyPrincipal()],
                actions=list(CHANGE_ACTIONS),
                resources=["*"],
            )
        ]
    )


def _attribute(name: str) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=name, type=dynamodb.AttributeType.STRING)


class Tables(Construct):
    """One ``dynamodb.Table`` per declared table; ``self.by_name[logical name]``."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.by_name: dict[str, dynamodb.Table] = {}
        for spec in wiring.TABLES:
            table = dynamodb.Table(
                self,
                logical_id(spec.logical_name),
                partition_key=_attribute(spec.partition_key),
                sort_key=_attribute(spec.sort_key) if spec.sort_key else None,
                billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
                point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                    point_in_time_recovery_enabled=spec.point_in_time_recovery
                ),
                time_to_live_attribute=spec.ttl_attribute,
                removal_policy=RemovalPolicy.RETAIN,  # money and histories outlive a stack
                resource_policy=append_only_policy() if spec.logical_name == APPEND_ONLY else None,
            )
            for index in spec.indexes:
                table.add_global_secondary_index(
                    index_name=index.name,
                    partition_key=_attribute(index.partition_key),
                    sort_key=_attribute(index.sort_key) if index.sort_key else None,
                    projection_type=dynamodb.ProjectionType[index.projection.value],
                    non_key_attributes=list(index.included) or None,
                )
            resource = table.node.default_child
            resource.override_logical_id(f"Table{logical_id(spec.logical_name)}")  # type: ignore[union-attr]
            resource.add_metadata("tourney:table", spec.logical_name)  # type: ignore[union-attr]
            self.by_name[spec.logical_name] = table
