"""The eight DynamoDB tables, declared once (docs/architecture.md, "The serverless shape"; docs/data-model.md).

One declaration read by everyone who makes or names a table:

* the PynamoDB models (``Meta.table_name`` comes from :meth:`TableSchema.name`),
* the test fixtures and the local runtime (:func:`create_tables` makes them in
  moto exactly as the stack does),
* the CDK construct (it reads :data:`ALL_TABLES`: logical name, key schema,
  GSIs, TTL attribute, and the environment variable that carries the name).

Every key attribute is a string. The base tables use ``pk`` and ``sk``; the
Powertools idempotency table keeps Powertools' default layout (``id``, TTL
``expiration``). Indexes are sparse: only items that carry the index's key
attributes appear in them.

>>> TOURNAMENTS.name({})
'tourney-tournaments'
>>> TOURNAMENTS.name({"TOURNAMENTS_TABLE": "prod-tournaments"})
'prod-tournaments'
>>> [index.name for index in TOURNAMENTS.indexes], TABLES.indexes
(['lobby'], ())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final


class Projection(StrEnum):
    ALL = "ALL"
    KEYS_ONLY = "KEYS_ONLY"
    INCLUDE = "INCLUDE"


@dataclass(frozen=True)
class Index:
    """A global secondary index: its key attributes (strings) and what it projects."""

    name: str
    partition_key: str
    sort_key: str | None = None
    projection: Projection = Projection.KEYS_ONLY
    included: tuple[str, ...] = ()
    purpose: str = ""

    def key_attributes(self) -> tuple[str, ...]:
        return (self.partition_key,) if self.sort_key is None else (self.partition_key, self.sort_key)

    def to_request(self) -> dict[str, Any]:
        """The ``GlobalSecondaryIndexes`` element of a DynamoDB ``CreateTable`` request (on demand)."""
        projection: dict[str, Any] = {"ProjectionType": self.projection.value}
        if self.projection is Projection.INCLUDE:
            projection["NonKeyAttributes"] = list(self.included)
        return {
            "IndexName": self.name,
            "KeySchema": _key_schema(self.partition_key, self.sort_key),
            "Projection": projection,
        }


@dataclass(frozen=True)
class TableSchema:
    """One DynamoDB table: logical name, keys, indexes, TTL, and where its physical name comes from."""

    logical_name: str
    """The CDK construct id's stem and the name used in docs (``tournaments``)."""
    env_var: str
    """The environment variable CDK sets to the physical table name (``TOURNAMENTS_TABLE``)."""
    partition_key: str = "pk"
    sort_key: str | None = "sk"
    indexes: tuple[Index, ...] = ()
    ttl_attribute: str | None = None
    point_in_time_recovery: bool = True
    purpose: str = ""

    @property
    def default_name(self) -> str:
        """The physical name used when the environment names none (tests, the local runtime's default)."""
        return f"tourney-{self.logical_name}"

    def name(self, environ: Mapping[str, str] | None = None) -> str:
        """The physical table name: ``environ[env_var]``, or :attr:`default_name`."""
        return (environ or {}).get(self.env_var) or self.default_name

    def key_attributes(self) -> tuple[str, ...]:
        own = (self.partition_key,) if self.sort_key is None else (self.partition_key, self.sort_key)
        names = list(own)
        for index in self.indexes:
            names.extend(name for name in index.key_attributes() if name not in names)
        return tuple(names)

    def create_table_request(self, table_name: str | None = None) -> dict[str, Any]:
        """Keyword arguments of a boto3 ``create_table`` call making this table, on demand."""
        request: dict[str, Any] = {
            "TableName": table_name or self.name(),
            "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": _key_schema(self.partition_key, self.sort_key),
            "AttributeDefinitions": [{"AttributeName": name, "AttributeType": "S"} for name in self.key_attributes()],
        }
        if self.indexes:
            request["GlobalSecondaryIndexes"] = [index.to_request() for index in self.indexes]
        return request


def _key_schema(partition_key: str, sort_key: str | None) -> list[dict[str, str]]:
    schema = [{"AttributeName": partition_key, "KeyType": "HASH"}]
    if sort_key is not None:
        schema.append({"AttributeName": sort_key, "KeyType": "RANGE"})
    return schema


# -- the six tables ---------------------------------------------------------------------------------------------------

LOBBY_INDEX: Final = Index(
    name="lobby",
    partition_key="lobby_pk",
    sort_key="lobby_sk",
    projection=Projection.ALL,
    purpose=(
        "the lobby: tournament items by status (lobby_pk = 'lobby#<status>'), "
        "ordered by start time (lobby_sk = '<start_at ISO>#<tournament id>'); only tournament items carry it"
    ),
)

SUBSCRIPTION_INDEX: Final = Index(
    name="subscribers",
    partition_key="subscription",
    sort_key="pk",
    projection=Projection.INCLUDE,
    included=("connection_id", "player", "sk"),
    purpose="a table's subscribed connections (subscription = '<tournament>#<table>'), for pushes",
)

PLAYER_INDEX: Final = Index(
    name="player_connections",
    partition_key="player",
    sort_key="pk",
    projection=Projection.KEYS_ONLY,
    purpose="a player's open connections (connection items only), for pushes addressed to one player",
)

TOURNAMENTS: Final = TableSchema(
    logical_name="tournaments",
    env_var="TOURNAMENTS_TABLE",
    indexes=(LOBBY_INDEX,),
    purpose=(
        "tournament items, registrations, registration counter shards, the waiting list, "
        "the coordinator's state, places"
    ),
)

# No index: the watchdog lists each running tournament's tables, which costs less than an index rewritten at every
# deal (docs/architecture.md, "The watchdog lists the tables").
TABLES: Final = TableSchema(
    logical_name="tables",
    env_var="TABLES_TABLE",
    purpose="one item per poker table, the hand in progress included, versioned",
)

HANDS: Final = TableSchema(
    logical_name="hands",
    env_var="HANDS_TABLE",
    purpose="finished hand histories",
)

LEDGER: Final = TableSchema(
    logical_name="ledger",
    env_var="LEDGER_TABLE",
    purpose="account balances (sharded for pools and house revenue), entry legs, idempotency keys of money movements",
)

CONNECTIONS: Final = TableSchema(
    logical_name="connections",
    env_var="CONNECTIONS_TABLE",
    indexes=(SUBSCRIPTION_INDEX, PLAYER_INDEX),
    ttl_attribute="expires_at",
    purpose="WebSocket connections and their subscriptions (TTL expires_at)",
)

IDEMPOTENCY: Final = TableSchema(
    logical_name="idempotency",
    env_var="IDEMPOTENCY_TABLE",
    partition_key="id",
    sort_key=None,
    ttl_attribute="expiration",
    point_in_time_recovery=False,
    purpose="Powertools idempotency records (its default layout: id, TTL expiration)",
)

AUDIT_BY_PLAYER_INDEX: Final = Index(
    name="by_player",
    partition_key="player_key",
    sort_key="sk",
    projection=Projection.ALL,
    purpose="a player's audit records in any tournament or none (player_key = 'player#<player>')",
)

AUDIT_LATEST_INDEX: Final = Index(
    name="latest",
    partition_key="feed_key",
    sort_key="feed_sk",
    projection=Projection.ALL,
    purpose=(
        "every audit record by time (feed_key = 'acts', feed_sk = '<at, UTC>#<audit id>'): the latest acts, "
        "newest first, without a filter; one partition, as operators act a few times a minute at most"
    ),
)

AUDIT: Final = TableSchema(
    logical_name="audit",
    env_var="AUDIT_TABLE",
    indexes=(AUDIT_BY_PLAYER_INDEX, AUDIT_LATEST_INDEX),
    purpose=(
        "operators' acts (docs/rules.md, rule 19), append-only: put once (attribute_not_exists), "
        "never updated or deleted by any function's role"
    ),
)

CHAT: Final = TableSchema(
    logical_name="chat",
    env_var="CHAT_TABLE",
    ttl_attribute="expires_at",
    purpose=(
        "table chat (docs/rules.md, rule 18): every line with its hand, refused ones with their reason; "
        "each player's rate window and operators' connections (TTL expires_at)"
    ),
)

ALL_TABLES: Final[tuple[TableSchema, ...]] = (
    TOURNAMENTS, TABLES, HANDS, LEDGER, CONNECTIONS, IDEMPOTENCY, AUDIT, CHAT,
)  # fmt: skip


def by_logical_name(logical_name: str) -> TableSchema:
    for schema in ALL_TABLES:
        if schema.logical_name == logical_name:
            return schema
    raise KeyError(logical_name)


def create_tables(
    client: Any, environ: Mapping[str, str] | None = None, schemas: Iterable[TableSchema] = ALL_TABLES
) -> dict[str, str]:
    """Create the tables (and their TTL) with a boto3 DynamoDB ``client``; return logical -> physical names.

    For moto (tests, the local runtime). Tables that already exist are left as they are.
    """
    names: dict[str, str] = {}
    existing = set(client.list_tables().get("TableNames", []))
    for schema in schemas:
        name = schema.name(environ)
        names[schema.logical_name] = name
        if name in existing:
            continue
        client.create_table(**schema.create_table_request(name))
        if schema.ttl_attribute is not None:
            client.update_time_to_live(
                TableName=name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": schema.ttl_attribute},
            )
    return names


def endpoint_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The DynamoDB endpoint to use instead of AWS's: ``AWS_ENDPOINT_URL_DYNAMODB``, else ``AWS_ENDPOINT_URL``."""
    env = environ or {}
    return env.get("AWS_ENDPOINT_URL_DYNAMODB") or env.get("AWS_ENDPOINT_URL") or None


def region(environ: Mapping[str, str] | None = None) -> str:
    env = environ or {}
    return env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1"
