"""What every PynamoDB model here shares: its table from ``schema.py``, the endpoint, the region.

``Meta.table_name`` is the schema's default name at import; the composition
root (``tourney/bootstrap.py``) calls :func:`configure` with what the settings
read from the environment (``entrypoints/settings.py``, the one reader): the
table names CDK sets (``TOURNAMENTS_TABLE``...) and the endpoint
(``AWS_ENDPOINT_URL_DYNAMODB`` / ``AWS_ENDPOINT_URL``) the local runtime points
at a moto server. :func:`reset_connections` forgets the cached clients (tests,
between mocks).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any

from pynamodb.attributes import UnicodeAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex, IncludeProjection, KeysOnlyProjection, Projection
from pynamodb.models import Model

from tourney.adapters.dynamo.schema import Index, TableSchema, endpoint_url
from tourney.adapters.dynamo.schema import Projection as StoredProjection
from tourney.adapters.dynamo.schema import region as region_of

_MODELS: list[tuple[type[Model], TableSchema]] = []


def meta_for(schema: TableSchema, environ: Mapping[str, str] | None = None) -> Any:
    """A PynamoDB ``Meta`` class for a model stored in ``schema``'s table."""

    class Meta:
        table_name = schema.name(environ)
        host = endpoint_url(environ)
        region = region_of(environ)
        max_retry_attempts = 3

    return Meta


def stored_in(schema: TableSchema) -> Any:
    """Class decorator: register a model as stored in ``schema``'s table (for :func:`configure`)."""

    def register(model: type[Model]) -> type[Model]:
        _MODELS.append((model, schema))
        return model

    return register


class KeyedItem(Model):
    """Every item here is keyed by the partition key ``pk`` and the sort key ``sk``; a model adds its ``Meta``."""

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)


def secondary_index(declared: Index) -> Any:
    """A model's global secondary index as ``schema.py`` declares it: its name, string keys and projection."""
    projection: Projection
    if declared.projection is StoredProjection.INCLUDE:
        projection = IncludeProjection(list(declared.included))
    elif declared.projection is StoredProjection.ALL:
        projection = AllProjection()
    else:
        projection = KeysOnlyProjection()
    meta = type("Meta", (), {"index_name": declared.name, "projection": projection})
    keys = {declared.partition_key: UnicodeAttribute(hash_key=True)}
    if declared.sort_key is not None:
        keys[declared.sort_key] = UnicodeAttribute(range_key=True)
    body = {"__module__": __name__, "Meta": meta, **keys}
    return types.new_class(declared.name, (GlobalSecondaryIndex,), exec_body=lambda ns: ns.update(body))()


def registered_models() -> tuple[tuple[type[Model], TableSchema], ...]:
    return tuple(_MODELS)


def schema_of(model: type[Model]) -> TableSchema:
    """The table ``model`` is stored in."""
    return next(schema for registered, schema in _MODELS if registered is model)


def configure(environ: Mapping[str, str] | None = None) -> None:
    """Resolve every model's table name, endpoint and region again from ``environ`` (the settings' variables).

    A table whose variable is absent keeps the name it has: a function is given
    only its own tables' names, and in the local runtime every function shares
    one process (and these class attributes), so a function without a table
    must not reset the name another function resolved.
    """
    env = environ or {}
    for model, schema in _MODELS:
        if schema.env_var in env or not getattr(model.Meta, "table_name", None):
            model.Meta.table_name = schema.name(env)
        model.Meta.host = endpoint_url(environ)
        model.Meta.region = region_of(environ)
    reset_connections()


def reset_connections() -> None:
    """Forget the cached PynamoDB connections, so the next call builds a client with the current settings."""
    for model, _ in _MODELS:
        model._connection = None
