"""cdk-nag (AwsSolutions) acknowledgements: each finding we accept, where, and why.

Every acknowledgement is attached to the narrowest construct it concerns (one function, one
role, one route), and every IAM5 finding by its own id (``AwsSolutions-IAM5[Resource::...]``),
so a new wildcard anywhere else still fails the synth.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aws_cdk import Acknowledgment, Validations
from constructs import IConstruct

from infra import wiring
from infra.naming import logical_id

if TYPE_CHECKING:
    from infra.stack import TourneyStack

PACK = "AwsSolutions::"


def _ack(scope: IConstruct, rule: str, reason: str) -> None:
    Validations.of(scope).acknowledge(Acknowledgment(id=f"{PACK}{rule}", reason=reason))


def _iam5(resource: str) -> str:
    return f"AwsSolutions-IAM5[Resource::{resource}]"


XRAY = (
    "X-Ray tracing (Tracing.ACTIVE / tracingEnabled): xray:PutTraceSegments, xray:PutTelemetryRecords and the "
    "sampling reads support no resource-level permission, AWS requires Resource '*'"
)


def acknowledge(stack: TourneyStack) -> None:
    """Acknowledge, with its reason, every finding the stack is designed to have."""
    websocket_arn = (
        "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:"
        f"<WebSocketApi>/{wiring.WEBSOCKET_STAGE}/*/@connections/*"
    )
    schedules_arn = "arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<ScheduleGroupStarts>/*"
    for spec in wiring.FUNCTIONS:
        function = stack.functions.by_name[spec.name]
        role = stack.functions.roles[spec.name]
        _ack(
            function,
            "AwsSolutions-L1",
            "python3.12 is the runtime the design fixes: the dependency layer is built for cp312/arm64 and the "
            "shared code is tested on it; move every function and the layer together when upgrading",
        )
        _ack(role, _iam5("*"), XRAY)
        if spec.pushes:
            _ack(
                role,
                _iam5(websocket_arn),
                "@connections: connection ids are created at run time; the resource is this API's one stage only "
                "(ManageConnections: push, inspect, close)",
            )
        if spec.schedules_starts or spec.cancels_starts:
            _ack(
                role,
                _iam5(schedules_arn),
                "one start schedule per tournament, named at run time; the resource is the start schedule group "
                "only (the recurring schedules live outside it)",
            )

    for workflow in wiring.WORKFLOWS:
        machine_role = stack.workflows.by_name[workflow.name].role
        _ack(
            machine_role,
            _iam5(f"<Function{logical_id(workflow.task_function)}.Arn>:*"),
            f"versions and aliases of {workflow.task_function} only: CDK's LambdaInvoke grants the function ARN "
            "and its qualified ARNs",
        )
        _ack(
            machine_role,
            _iam5("*"),
            "Step Functions logging to CloudWatch Logs (logs:CreateLogDelivery, GetLogDelivery, ..., "
            "DescribeLogGroups) and X-Ray tracing require Resource '*' (AWS documentation)",
        )

    for table in wiring.TABLES:
        if not table.point_in_time_recovery:
            _ack(
                stack.tables.by_name[table.logical_name],
                "AwsSolutions-DDB3",
                f"{table.logical_name} holds only records that expire within hours ({table.purpose}); a restore "
                "would bring back nothing worth keeping (its declaration in tourney.adapters.dynamo.schema)",
            )

    pool = stack.auth.user_pool
    _ack(
        pool,
        "AwsSolutions-COG2",
        "MFA is optional (TOTP offered): players sign in from phones and play for hours; operators are "
        "required to enable it by policy, and money moves need a verified account",
    )
    _ack(
        pool,
        "AwsSolutions-COG8",
        "the Plus feature plan (threat protection) is priced per active user; the Essentials plan with "
        "strong passwords and optional MFA is the chosen trade-off, revisit with the room's security team",
    )

    for route in wiring.HTTP_ROUTES:
        if not route.authorized:
            _ack(
                stack.http_api.routes[route.route_key],
                "AwsSolutions-APIG4",
                f"{route.route_key} is the public API description (docs/interfaces.md): no data, no action",
            )
    for child in stack.websocket_api.api.node.children:
        if type(child).__name__ == "WebSocketRoute":
            _ack(
                child,
                "AwsSolutions-APIG4",
                "WebSocket APIs have no JWT authorizer: $connect carries ?token=JWT, which the ws function "
                "validates against the Cognito pool (issuer, audience, signature, expiry) before accepting; "
                "the other routes are only reachable on a connection accepted that way",
            )

    _acknowledge_web(stack)


def _acknowledge_web(stack: TourneyStack) -> None:
    """The web client's distribution and CDK's deployment function (``infra.web_hosting``)."""
    distribution = stack.web.distribution
    _ack(
        distribution,
        "AwsSolutions-CFR1",
        "no geo restriction: the distribution serves only the app's static files (no data); where a player may "
        "play is decided by the room's account checks behind the APIs, not by blocking a page's download",
    )
    _ack(
        distribution,
        "AwsSolutions-CFR2",
        "no WAF web ACL: the distribution serves static files only (GET/HEAD, no query string, cookie or body "
        "reaches the origin, which is private behind OAC); the APIs are throttled per stage. A web ACL costs per "
        "month and per request for no data to protect here; attach one (web_acl_id) when the room requires it",
    )
    _ack(
        distribution,
        "AwsSolutions-CFR4",
        "the stack has no custom domain, so viewers use CloudFront's default *.cloudfront.net certificate, whose "
        "security policy CloudFront fixes (TLSv1) and no setting can raise; browsers negotiate TLS 1.2+ and HSTS "
        "keeps them on HTTPS. With a custom domain, set certificate + minimum_protocol_version TLS_V1_2_2021",
    )
    _ack(
        stack.web.deployment_function,
        "AwsSolutions-L1",
        "the runtime of CDK's BucketDeployment function is chosen by aws-cdk-lib (no property sets it); it runs "
        "only at deploy time, from CloudFormation, and moves with aws-cdk-lib upgrades",
    )
    role = stack.web.deployment_role
    assets = "arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*"
    _ack(
        role,
        _iam5(assets),
        "BucketDeployment reads the zipped web/ and config.json from the CDK bootstrap assets bucket, whose object "
        "keys (content hashes) are set at synth per deployment; read only (CDK's grantRead on that bucket)",
    )
    _ack(
        role,
        _iam5("<WebBucket.Arn>/*"),
        "BucketDeployment syncs web/ into the web bucket (put new files, delete removed ones: prune), so it writes "
        "every object key of this one bucket; no other bucket",
    )
    for action, why in (
        ("s3:GetObject*", "reads the source zips and the objects it replaces (GetObject, GetObjectVersion...)"),
        ("s3:GetBucket*", "reads the two buckets' location and settings as `aws s3 sync` does"),
        ("s3:List*", "lists the source and the web bucket to sync them (ListBucket, multipart listings)"),
        ("s3:DeleteObject*", "prunes the web bucket's files that web/ no longer has"),
        ("s3:Abort*", "aborts its own failed multipart uploads into the web bucket"),
    ):
        _ack(
            role,
            f"AwsSolutions-IAM5[Action::{action}]",
            f"CDK's BucketDeployment grants (grantRead/grantReadWrite) on the assets and web buckets only: {why}",
        )
