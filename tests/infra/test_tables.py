"""The DynamoDB tables are exactly their declaration (``tourney.adapters.dynamo.schema``)."""

from __future__ import annotations

import pytest
from tourney.adapters.dynamo import schema

from infra import wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized


def test_every_declared_table_and_no_other(synthesized: Synthesized) -> None:
    tables = synthesized.of_type("AWS::DynamoDB::Table")
    assert set(tables) == {f"Table{logical_id(t.logical_name)}" for t in schema.ALL_TABLES}


@pytest.mark.parametrize("declared", schema.ALL_TABLES, ids=lambda t: t.logical_name)
def test_table_matches_its_declaration(synthesized: Synthesized, declared: schema.TableSchema) -> None:
    _, table = synthesized.with_metadata("tourney:table", declared.logical_name)
    properties = table["Properties"]
    # keys: strings, as declared (pk/sk; id for the idempotency records)
    expected_keys = [{"AttributeName": declared.partition_key, "KeyType": "HASH"}]
    if declared.sort_key:
        expected_keys.append({"AttributeName": declared.sort_key, "KeyType": "RANGE"})
    assert properties["KeySchema"] == expected_keys
    assert {a["AttributeName"]: a["AttributeType"] for a in properties["AttributeDefinitions"]} == {
        name: "S" for name in declared.key_attributes()
    }
    # on demand, point-in-time recovery as declared, no stream (no consumer), retained on stack deletion
    assert properties["BillingMode"] == "PAY_PER_REQUEST"
    assert (
        properties["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is declared.point_in_time_recovery
    )
    assert "StreamSpecification" not in properties
    assert table["DeletionPolicy"] == "Retain"
    # TTL where records expire
    if declared.ttl_attribute:
        assert properties["TimeToLiveSpecification"] == {"AttributeName": declared.ttl_attribute, "Enabled": True}
    else:
        assert "TimeToLiveSpecification" not in properties
    # the indexes, keys and projections as declared
    indexes = {i["IndexName"]: i for i in properties.get("GlobalSecondaryIndexes", [])}
    assert set(indexes) == {i.name for i in declared.indexes}
    for index in declared.indexes:
        rendered, request = indexes[index.name], index.to_request()
        assert rendered["KeySchema"] == request["KeySchema"]
        assert rendered["Projection"]["ProjectionType"] == request["Projection"]["ProjectionType"]
        assert sorted(rendered["Projection"].get("NonKeyAttributes", [])) == sorted(
            request["Projection"].get("NonKeyAttributes", [])
        )


def test_point_in_time_recovery_everywhere_but_the_idempotency_records(synthesized: Synthesized) -> None:
    without = [t.logical_name for t in wiring.TABLES if not t.point_in_time_recovery]
    assert without == ["idempotency"]


def test_lobby_and_subscriber_indexes_exist(synthesized: Synthesized) -> None:
    _, tournaments = synthesized.with_metadata("tourney:table", "tournaments")
    _, connections = synthesized.with_metadata("tourney:table", "connections")
    assert [i["IndexName"] for i in tournaments["Properties"]["GlobalSecondaryIndexes"]] == [schema.LOBBY_INDEX.name]
    assert schema.SUBSCRIPTION_INDEX.name in [
        i["IndexName"] for i in connections["Properties"]["GlobalSecondaryIndexes"]
    ]
