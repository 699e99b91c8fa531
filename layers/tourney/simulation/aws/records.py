"""A service record as DynamoDB stores it: its table, partition key, sort key and size.

The DynamoDB adapter's own mapping (``adapters/dynamo/mapping.py``) turns the record into the PynamoDB item it
would write (stamped with its next version, as a save does), and the item's wire form is sized by AWS's rules
(``items.typed_item_size``). Nothing is sent anywhere: PynamoDB serializes offline.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.adapters.dynamo.mapping import mapper_of
from tourney.services.records import Record
from tourney.simulation.aws.items import typed_item_size


@dataclass(frozen=True)
class StoredItem:
    """Where an item lives and how large it is (0: an item that is not there, as a read of it finds)."""

    table: str
    partition_key: str
    sort_key: str
    size: int = 0

    @property
    def partition(self) -> str:
        """The partition key a partition meter counts: ``table/pk``."""
        return f"{self.table}/{self.partition_key}"

    @property
    def item(self) -> tuple[str, str, str]:
        """The item itself, as a transaction holds it."""
        return (self.table, self.partition_key, self.sort_key)


def stored_item(record: Record) -> StoredItem:
    """``record`` as the DynamoDB adapter would write it; a ``TypeError`` for what it does not store as a record."""
    mapper = mapper_of(record)
    key = mapper.key(record)
    item = mapper.to_item(record, record.version + 1)
    return StoredItem(str(key.model.Meta.table_name), key.pk, key.sk, typed_item_size(item.serialize()))
