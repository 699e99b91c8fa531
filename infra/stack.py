"""The tourney stack: one construct per concern, composed from ``infra.wiring``.

``build_app(outdir)`` is what ``app.py`` and the infra tests call: it builds the app with
cdk-nag's AwsSolutions checks attached (a finding fails the synth) and returns it unsynthesized.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from pathlib import Path

from aws_cdk import App, CfnOutput, Fn, Stack, Validations
from cdk_nag import AwsSolutionsChecks
from constructs import Construct

from infra import wiring
from infra.acknowledgements import acknowledge
from infra.auth import Auth
from infra.functions import Functions, require_function_code
from infra.http_api import HttpApi
from infra.layers import Layers
from infra.monitoring import Monitoring
from infra.queues import Queues
from infra.schedules import Schedules
from infra.sizing import sizing_named
from infra.tables import Tables
from infra.throttling import Throttling
from infra.web_hosting import WebHosting
from infra.websocket_api import WebSocketApi
from infra.workflows import Workflows

ROOT = Path(__file__).resolve().parent.parent
STACK_NAME = "Tourney"


class TourneyStack(Stack):
    """Tables, auth, queues, layers, functions, the two APIs, the web client, schedules, workflows, monitoring."""

    def __init__(self, scope: Construct, construct_id: str, *, root: Path = ROOT, **kwargs: object) -> None:
        super().__init__(scope, construct_id, description="tourney: online poker tournaments (serverless)", **kwargs)  # type: ignore[arg-type]
        wiring.check()
        sizing = sizing_named(self.node.try_get_context("sizing"))
        self.template_options.metadata = {"tourney:sizing": sizing.name}
        require_function_code(root)  # before anything is built: a clear message, not a CDK trace
        self.tables = Tables(self, "Tables")
        self.auth = Auth(self, "Auth")
        self.queues = Queues(self, "Queues")
        self.layers = Layers(self, "Layers", root=root)
        self.functions = Functions(self, "Functions", root=root, layers=self.layers)
        functions = self.functions.by_name
        # The web client: its distribution first (it names only the bucket and the Cognito domain), then what
        # names the distribution (the web app client's callback URL, the HTTP API's CORS origin), then config.json.
        self.web = WebHosting(self, "Web", auth_domain_url=self.auth.domain_url, web_root=root / "web")
        web_client = self.auth.add_web_client(self.web.app_url)
        self.http_api = HttpApi(self, "Http", functions=functions, auth=self.auth, cors_origins=[self.web.origin])
        self.websocket_api = WebSocketApi(self, "WebSocket", functions=functions)
        self.web.deploy(
            api_url=self.http_api.url,
            websocket_url=self.websocket_api.stage.url,
            auth_domain_url=self.auth.domain_url,
            client_id=web_client.user_pool_client_id,
        )
        self.workflows = Workflows(self, "Workflows", functions=functions)
        self.schedules = Schedules(self, "Schedules", functions=functions)
        self.functions.grant(
            tables=self.tables.by_name,
            queues=self.queues.by_name,
            workflows=self.workflows.by_name,
            connections_endpoint=self.websocket_api.connections_endpoint,
            connections_arn=self.websocket_api.connections_arn,
            schedule_group_name=self.schedules.group_name,
            schedules_arn=self.schedules.schedules_arn,
            scheduler_role=self.schedules.start_role,
            jwt_issuer=self.auth.issuer,
            jwt_audience=Fn.join(",", self.auth.audiences),  # the ws function accepts either client's tokens
        )
        self.queues.subscribe(functions, sizing)
        self.throttling = Throttling(
            self,
            "Throttling",
            sizing=sizing,
            functions=functions,
            http_stage=self.http_api.api.default_stage.node.default_child,  # type: ignore[union-attr,arg-type]
            websocket_stage=self.websocket_api.stage.node.default_child,  # type: ignore[arg-type]
        )
        self.monitoring = Monitoring(
            self,
            "Monitoring",
            functions=functions,
            queues=self.queues.by_name,
            dead_letters=self.queues.dead_letters,
            workflows=self.workflows.by_name,
            http_api=self.http_api.api,
            tables=self.tables.by_name,
            websocket_api=self.websocket_api.api,
        )
        CfnOutput(self, "HttpUrl", value=self.http_api.url, description="HTTP API base URL")
        CfnOutput(self, "WebSocketUrl", value=self.websocket_api.stage.url, description="WebSocket URL (?token=JWT)")
        CfnOutput(self, "UserPoolId", value=self.auth.user_pool.user_pool_id)
        CfnOutput(self, "UserPoolClientId", value=self.auth.client.user_pool_client_id)
        CfnOutput(self, "WebClientId", value=web_client.user_pool_client_id, description="the web app's client")
        CfnOutput(self, "AppUrl", value=self.web.app_url, description="the web client (players and operators)")
        CfnOutput(self, "AlarmTopicArn", value=self.monitoring.topic.topic_arn, description="subscribe the on-call")
        acknowledge(self)


def cli_context(argv: Sequence[str]) -> dict[str, str]:
    """The ``-c key=value`` pairs (``--context`` too) of a command line, as the CDK CLI takes them."""
    pairs = (pair.partition("=") for flag, pair in pairwise(argv) if flag in ("-c", "--context"))
    return {key: value for key, _, value in pairs}


def build_app(
    outdir: str | Path = "cdk.out", *, root: Path = ROOT, nag: bool = True, context: Mapping[str, str] | None = None
) -> tuple[App, TourneyStack]:
    """The CDK app with the tourney stack (and cdk-nag's AwsSolutions checks when ``nag``).

    ``context``: CDK context values, as ``cdk -c key=value`` gives them (``sizing``: ``infra/sizing.py``).
    """
    app = App(
        outdir=str(outdir),
        # Asset folders (``aws:asset:path``) and construct paths (``aws:cdk:path``) in each resource's
        # Metadata, as the CDK CLI would set them: the local runtime finds the layers' code by them.
        context={"aws:cdk:enable-asset-metadata": True, "aws:cdk:enable-path-metadata": True, **(context or {})},
    )
    stack = TourneyStack(app, STACK_NAME, root=root)
    if nag:
        Validations.of(app).add_plugins(AwsSolutionsChecks(verbose=True))
    return app, stack
