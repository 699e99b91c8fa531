"""The functions' configuration, read from the environment once (docs/architecture.md, 'Conventions').

This is the only module that reads ``os.environ``. CDK fills the variables
(``table.table_name``, queue URLs, state machine ARNs); the local runtime gives
the same names from the synthesized template. Every field has a default that
suits tests and the local stack, so a missing variable never breaks an import;
``Settings.from_environ`` validates the types once, at cold start.

Environment variable names are those of ``infra/wiring.py`` (``TOURNAMENTS_TABLE``,
``TIMEOUTS_QUEUE_URL``, ``START_WORKFLOW_ARN``, ``CONNECTIONS_ENDPOINT``, ``JWT_ISSUER``...).

>>> s = Settings.from_environ({"TOURNAMENTS_TABLE": "t-1", "IDEMPOTENCY_TTL_SECONDS": "600"})
>>> (s.tournaments_table, s.idempotency_ttl_seconds, s.tables_table)
('t-1', 600, None)
>>> s.dynamodb_environ()
{'TOURNAMENTS_TABLE': 't-1'}
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import AbstractContextManager
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from tourney.entrypoints.given import Given


class Settings(BaseModel):
    """Names and endpoints a function needs, validated once per process."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    service_name: str = Field(default="tourney", alias="POWERTOOLS_SERVICE_NAME")
    metrics_namespace: str = Field(default="Tourney", alias="POWERTOOLS_METRICS_NAMESPACE")

    # DynamoDB (docs/architecture.md, 'The serverless shape'): the physical names of the tables the function
    # uses (CDK sets only those; an unset one keeps the name the models have), the endpoint (the local stack's)
    # and the region. The composition root configures the models with them (``dynamodb_environ``).
    tournaments_table: str | None = Field(default=None, alias="TOURNAMENTS_TABLE")
    tables_table: str | None = Field(default=None, alias="TABLES_TABLE")
    hands_table: str | None = Field(default=None, alias="HANDS_TABLE")
    ledger_table: str | None = Field(default=None, alias="LEDGER_TABLE")
    connections_table: str | None = Field(default=None, alias="CONNECTIONS_TABLE")
    audit_table: str | None = Field(default=None, alias="AUDIT_TABLE")
    chat_table: str | None = Field(default=None, alias="CHAT_TABLE")
    dynamodb_endpoint: str | None = Field(default=None, alias="AWS_ENDPOINT_URL_DYNAMODB")
    endpoint: str | None = Field(default=None, alias="AWS_ENDPOINT_URL")
    region: str | None = Field(default=None, alias="AWS_REGION")
    default_region: str | None = Field(default=None, alias="AWS_DEFAULT_REGION")
    # The idempotency records' table (Powertools', not a model's).
    idempotency_table: str = Field(default="tourney-idempotency", alias="IDEMPOTENCY_TABLE")

    # Queues and workflows.
    timeouts_queue_url: str = Field(default="", alias="TIMEOUTS_QUEUE_URL")
    coordinator_queue_url: str = Field(default="", alias="COORDINATOR_QUEUE_URL")
    start_workflow_arn: str = Field(default="", alias="START_WORKFLOW_ARN")
    recovery_workflow_arn: str = Field(default="", alias="RECOVERY_WORKFLOW_ARN")

    # EventBridge Scheduler: one schedule per tournament, in this group, assuming this role, targeting `start`.
    schedule_group: str = Field(default="tourney", alias="SCHEDULE_GROUP")
    scheduler_role_arn: str = Field(default="", alias="SCHEDULER_ROLE_ARN")
    start_function_arn: str = Field(default="", alias="START_FUNCTION_ARN")

    # WebSocket: the @connections management endpoint (https://{api}.execute-api.{region}.amazonaws.com/{stage}).
    connections_endpoint: str = Field(default="", alias="CONNECTIONS_ENDPOINT")

    # JWT verification for the WebSocket $connect (the HTTP API has its own authorizer).
    jwt_issuer: str = Field(default="", alias="JWT_ISSUER")
    jwt_audience: str = Field(default="", alias="JWT_AUDIENCE")
    """The accepted app client ids, comma-separated (the mobile apps' and the web client's)."""
    jwt_jwks_url: str = Field(default="", alias="JWT_JWKS_URL")
    """Default: ``{JWT_ISSUER}/.well-known/jwks.json`` (Cognito's); ``file://`` works for the local stack."""
    operators_group: str = Field(default="operators", alias="OPERATORS_GROUP")

    # The local stack's virtual clock (infra/local/clock.py): now = origin + (time - origin) * factor.
    # Unset on AWS, where the clock is the system's.
    local_time_factor: float = Field(default=1.0, gt=0, alias="TOURNEY_LOCAL_TIME_FACTOR")
    local_time_origin: float | None = Field(default=None, alias="TOURNEY_LOCAL_TIME_ORIGIN")

    # Idempotency records live this long (seconds).
    idempotency_ttl_seconds: int = Field(default=3600, ge=60, alias="IDEMPOTENCY_TTL_SECONDS")

    @property
    def jwks_url(self) -> str:
        """Where the token signing keys are: ``JWT_JWKS_URL``, else the issuer's well-known JWKS."""
        if self.jwt_jwks_url:
            return self.jwt_jwks_url
        return f"{self.jwt_issuer.rstrip('/')}/.well-known/jwks.json" if self.jwt_issuer else ""

    def dynamodb_environ(self) -> dict[str, str]:
        """The variables set of those the DynamoDB models are configured from (``adapters/dynamo/models/base.py``)."""
        fields = type(self).model_fields
        return {str(fields[name].alias): value for name in DYNAMODB if (value := getattr(self, name)) is not None}

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Validate the environment (or the mapping given) into settings."""
        source = os.environ if environ is None else environ
        return cls.model_validate(dict(source))


DYNAMODB: tuple[str, ...] = (
    "tournaments_table",
    "tables_table",
    "hands_table",
    "ledger_table",
    "connections_table",
    "audit_table",
    "chat_table",
    "dynamodb_endpoint",
    "endpoint",
    "region",
    "default_region",
)
"""The settings the DynamoDB models read (``Settings.dynamodb_environ``)."""


def settings() -> Settings:
    """The settings of the environment (validated once per distinct environment), or those of :func:`use_settings`.

    On Lambda the environment never changes, so they are validated once, at
    cold start. The local runtime runs every function in one process with
    each invocation's own variables (``infra/local/lambdas.py``): keying the
    cache on the variables read keeps each function's settings its own.
    """
    given = _given.latest()
    if given is not None:
        return given
    return _environ_settings(tuple((name, os.environ.get(name)) for name in _NAMES))


@lru_cache(maxsize=16)
def _environ_settings(variables: tuple[tuple[str, str | None], ...]) -> Settings:
    return Settings.from_environ({name: value for name, value in variables if value is not None})


_NAMES: tuple[str, ...] = tuple(field.alias or name for name, field in Settings.model_fields.items())


_given: Given[Settings] = Given()


def use_settings(given: Settings) -> AbstractContextManager[Settings]:
    """Run with ``given`` as the settings (tests, the local runtime) until the block ends."""
    return _given.during(given)
