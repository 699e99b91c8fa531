# ruff: noqa: F811  (pytest fixtures imported from tests.support.aws)
"""The six tables are made from one declaration, and every PynamoDB model agrees with it."""

from __future__ import annotations

import boto3
import tourney.adapters.dynamo.connections
import tourney.adapters.dynamo.store  # noqa: F401  (registers the other models)
from tourney.adapters.dynamo.models import registered_models
from tourney.adapters.dynamo.schema import ALL_TABLES, by_logical_name

from tests.support.aws import REGION, aws, dynamodb  # noqa: F401


def test_the_fixture_makes_the_six_tables_with_their_keys_indexes_and_ttl(dynamodb: dict[str, str]) -> None:
    # Given the tables the fixture made from schema.py
    client = boto3.client("dynamodb", region_name=REGION)
    assert sorted(dynamodb) == sorted(s.logical_name for s in ALL_TABLES)
    for schema in ALL_TABLES:
        # When each is described
        table = client.describe_table(TableName=dynamodb[schema.logical_name])["Table"]
        ttl = client.describe_time_to_live(TableName=dynamodb[schema.logical_name])["TimeToLiveDescription"]
        # Then its keys, indexes and TTL are the declared ones, on demand
        assert [k["AttributeName"] for k in table["KeySchema"]] == [
            n for n in (schema.partition_key, schema.sort_key) if n
        ]
        assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        indexes = {
            i["IndexName"]: [k["AttributeName"] for k in i["KeySchema"]]
            for i in table.get("GlobalSecondaryIndexes", [])
        }
        assert indexes == {i.name: list(i.key_attributes()) for i in schema.indexes}
        assert ttl.get("AttributeName") == schema.ttl_attribute


def test_every_model_uses_its_tables_keys_and_declared_indexes() -> None:
    # Given every PynamoDB model of the adapters
    for model, schema in registered_models():
        declared = by_logical_name(schema.logical_name)
        # Then its table name and key attributes are the schema's, and its indexes are declared there
        assert model.Meta.table_name == declared.name()
        keys = sorted(model._get_schema()["key_schema"], key=lambda k: k["KeyType"])  # HASH before RANGE
        assert [k["AttributeName"] for k in keys] == [n for n in (declared.partition_key, declared.sort_key) if n]
        declared_indexes = {i.name: list(i.key_attributes()) for i in declared.indexes}
        for index in model._indexes.values():
            index_keys = sorted(index._get_schema()["key_schema"], key=lambda k: k["KeyType"])
            key_names = [k["AttributeName"] for k in index_keys]
            assert declared_indexes[index.Meta.index_name] == key_names
