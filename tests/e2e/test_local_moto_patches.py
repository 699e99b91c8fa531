"""The local stack's DynamoDB patches of moto (``infra/local/moto_server.install_dynamodb_patches``) answer what
moto answers: item operations written as JSON directly (checked against moto's own serializer on every call
here), and a cancelled transaction rolled back from the items it named, not from copies of whole tables."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from infra.local.inprocess import SharedModels
from infra.local.moto_server import install_dynamodb_patches


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    with mock_aws():
        undo = install_dynamodb_patches(check=True)
        try:
            client = boto3.client("dynamodb", region_name="us-east-1", aws_access_key_id="t", aws_secret_access_key="t")
            client.create_table(
                TableName="things",
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                AttributeDefinitions=[
                    {"AttributeName": "pk", "AttributeType": "S"},
                    {"AttributeName": "sk", "AttributeType": "S"},
                ],
                BillingMode="PAY_PER_REQUEST",
                StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
            )
            client.create_table(
                TableName="flat",
                KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                BillingMode="PAY_PER_REQUEST",
            )
            yield client
        finally:
            undo()


ITEM = {
    "pk": {"S": "t#1"},
    "sk": {"S": "table#01"},
    "version": {"N": "3"},
    "body": {"B": b"\x00\x01compressed"},
    "seats": {"L": [{"M": {"player": {"S": "ann"}, "stack": {"N": "10000"}}}, {"NULL": True}]},
    "names": {"SS": ["ann", "bob"]},
    "away": {"BOOL": False},
}


def test_item_operations_answer_what_moto_answers(dynamodb: Any) -> None:
    # Given items of every attribute type (the fixture checks every answer against moto's serializer)
    dynamodb.put_item(TableName="things", Item=ITEM)
    dynamodb.put_item(TableName="things", Item={**ITEM, "sk": {"S": "table#02"}})
    # When they are read, queried, scanned, updated and deleted
    got = dynamodb.get_item(TableName="things", Key={"pk": ITEM["pk"], "sk": ITEM["sk"]}, ConsistentRead=True)
    queried = dynamodb.query(
        TableName="things",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues={":pk": {"S": "t#1"}, ":prefix": {"S": "table#"}},
        Limit=1,
    )
    scanned = dynamodb.scan(TableName="things")
    batch = dynamodb.batch_get_item(
        RequestItems={"things": {"Keys": [{"pk": ITEM["pk"], "sk": ITEM["sk"]}, {"pk": {"S": "x"}, "sk": {"S": "y"}}]}}
    )
    updated = dynamodb.update_item(
        TableName="things",
        Key={"pk": ITEM["pk"], "sk": ITEM["sk"]},
        UpdateExpression="SET version = version + :one",
        ConditionExpression="version = :three",
        ExpressionAttributeValues={":one": {"N": "1"}, ":three": {"N": "3"}},
        ReturnValues="ALL_NEW",
    )
    deleted = dynamodb.delete_item(
        TableName="things", Key={"pk": ITEM["pk"], "sk": {"S": "table#02"}}, ReturnValues="ALL_OLD"
    )
    missing = dynamodb.get_item(TableName="things", Key={"pk": {"S": "nobody"}, "sk": {"S": "x"}})
    # Then boto3 reads the same items back, binary included
    assert got["Item"]["body"]["B"] == b"\x00\x01compressed"
    assert got["Item"]["seats"] == ITEM["seats"] and set(got["Item"]["names"]["SS"]) == {"ann", "bob"}
    assert queried["Count"] == 1 and "LastEvaluatedKey" in queried
    assert scanned["Count"] == 2
    assert len(batch["Responses"]["things"]) == 1
    assert updated["Attributes"]["version"] == {"N": "4"}
    assert deleted["Attributes"]["sk"] == {"S": "table#02"}
    assert "Item" not in missing


def test_a_conditional_failure_answers_as_moto_does(dynamodb: Any) -> None:
    dynamodb.put_item(TableName="things", Item=ITEM)
    with pytest.raises(ClientError) as refused:
        dynamodb.put_item(TableName="things", Item=ITEM, ConditionExpression="attribute_not_exists(pk)")
    assert refused.value.response["Error"]["Code"] == "ConditionalCheckFailedException"


def test_a_cancelled_transaction_leaves_every_item_and_stream_as_it_was(dynamodb: Any) -> None:
    # Given two items and a stream of their writes
    dynamodb.put_item(TableName="things", Item=ITEM)
    dynamodb.put_item(TableName="flat", Item={"id": {"S": "balance#ann"}, "cents": {"N": "500"}})
    stream_before = _stream_length(dynamodb)
    key = {"pk": ITEM["pk"], "sk": ITEM["sk"]}
    # When a transaction updates one, puts a new item, deletes the other, and then fails a condition
    with pytest.raises(ClientError) as cancelled:
        dynamodb.transact_write_items(
            TransactItems=[
                _set_version(key, "99"),
                {"Put": {"TableName": "things", "Item": {**ITEM, "sk": {"S": "table#03"}}}},
                {"Put": {"TableName": "flat", "Item": {"id": {"S": "new"}}}},
                {"Delete": {"TableName": "flat", "Key": {"id": {"S": "balance#ann"}}}},
                {
                    "ConditionCheck": {
                        "TableName": "flat",
                        "Key": {"id": {"S": "nobody"}},
                        "ConditionExpression": "attribute_exists(id)",
                    }
                },
            ]
        )
    # Then it was cancelled with moto's reasons, and nothing of it is left
    assert cancelled.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert dynamodb.get_item(TableName="things", Key=key)["Item"]["version"] == {"N": "3"}
    assert "Item" not in dynamodb.get_item(TableName="things", Key={"pk": ITEM["pk"], "sk": {"S": "table#03"}})
    assert "Item" not in dynamodb.get_item(TableName="flat", Key={"id": {"S": "new"}})
    assert dynamodb.get_item(TableName="flat", Key={"id": {"S": "balance#ann"}})["Item"]["cents"] == {"N": "500"}
    assert dynamodb.scan(TableName="flat")["Count"] == 1 and dynamodb.scan(TableName="things")["Count"] == 1
    assert _stream_length(dynamodb) == stream_before
    # And the same transaction without the failing check applies whole
    dynamodb.transact_write_items(
        TransactItems=[
            _set_version(key, "4"),
            {"Put": {"TableName": "flat", "Item": {"id": {"S": "new"}}}},
        ]
    )
    assert dynamodb.get_item(TableName="things", Key=key)["Item"]["version"] == {"N": "4"}
    assert dynamodb.scan(TableName="flat")["Count"] == 2


def _set_version(key: dict[str, Any], version: str) -> dict[str, Any]:
    update = {"TableName": "things", "Key": key, "UpdateExpression": "SET version = :v"}
    return {"Update": {**update, "ExpressionAttributeValues": {":v": {"N": version}}}}


def _stream_length(dynamodb: Any) -> int:
    from moto.dynamodb.models import dynamodb_backends

    table = dynamodb_backends["123456789012"]["us-east-1"].tables["things"]
    return len(table.stream_shard.items)


def test_botocore_sessions_share_the_models_they_read() -> None:
    # Given the shared models installed
    import botocore.session

    shared = SharedModels()
    shared.install()
    try:
        # When two sessions build clients of one service
        first = botocore.session.get_session().get_component("data_loader")
        second = botocore.session.get_session().get_component("data_loader")
        # Then the second reads nothing again: the very same model
        assert first is not second
        assert first.load_service_model("dynamodb", "service-2") is second.load_service_model("dynamodb", "service-2")
    finally:
        shared.remove()
    # And once removed, each loader reads for itself again
    third = botocore.session.get_session().get_component("data_loader")
    assert third.load_data("endpoints") is not first.load_data("endpoints")
