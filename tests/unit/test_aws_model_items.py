"""DynamoDB item sizes and request units (``simulation/aws/items.py``), against AWS's documented examples."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tourney.simulation.aws.items import (
    MAX_ITEM_BYTES,
    Consistency,
    ItemTooLarge,
    batch_read_units,
    batch_write_units,
    check_item_size,
    item_size,
    query_read_units,
    read_units,
    typed_item_size,
    update_write_units,
    write_units,
)


def test_an_items_size_is_its_attribute_names_and_values_by_type() -> None:
    # Given an item with one attribute of each type
    item = {
        "name": "Zoë",  # 4 + 4 UTF-8 bytes
        "chips": 123_456,  # 5 + 3 (six significant digits) + 1
        "blob": b"\x00\x01\x02",  # 4 + 3 raw bytes
        "open": True,  # 4 + 1
        "gone": None,  # 4 + 1
        "seats": ["a", 1],  # 5 + 3 + (1 + 1) + (2 + 1)
        "stack": {"p1": 10},  # 5 + 3 + (2 + 2 + 1)
        "ids": {"x", "yy"},  # 3 + 1 + 2
    }

    # When its size is computed
    # Then each attribute counts as AWS's rules say
    assert item_size(item) == 8 + 9 + 7 + 5 + 5 + 13 + 13 + 6


def test_a_numbers_size_trims_leading_and_trailing_zeros() -> None:
    # Given numbers with the same significant digits
    # When sized
    # Then zeros around them cost nothing
    assert item_size({"n": 12_000_000}) == item_size({"n": 12}) == item_size({"n": Decimal("0.0012")}) == 1 + 2


def test_the_wire_form_and_plain_python_give_the_same_size() -> None:
    # Given one item in both forms
    plain = {"pk": "T#1", "hand": 42, "seats": [{"p": "a", "s": 1}], "tags": {"x"}}
    wire = {
        "pk": {"S": "T#1"},
        "hand": {"N": "42"},
        "seats": {"L": [{"M": {"p": {"S": "a"}, "s": {"N": "1"}}}]},
        "tags": {"SS": ["x"]},
    }

    # When both are sized
    # Then they agree
    assert typed_item_size(wire) == item_size(plain)


def test_an_item_over_400_kb_is_refused() -> None:
    # Given an item of exactly 400 KB and one a byte over
    exactly = item_size({"blob": b"\x00" * (MAX_ITEM_BYTES - 4)})
    over = item_size({"blob": b"\x00" * (MAX_ITEM_BYTES - 3)})

    # When DynamoDB is asked to store them
    # Then the first is stored and the second refused
    assert check_item_size(exactly) == 400 * 1024
    with pytest.raises(ItemTooLarge, match="maximum allowed size"):
        check_item_size(over)


def test_read_units_follow_the_documented_examples() -> None:
    # Given AWS's examples ('DynamoDB read and write operations', on-demand pricing page)
    # When the read units are computed
    # Then: a 3,500-byte item costs as a 4 KB one; an 8 KB item 2 strongly consistent, 1 eventually consistent,
    # 4 transactional; a 10 KB item is rounded to 12 KB; BatchGetItem of 1.5 KB and 6.5 KB is 4 KB + 8 KB
    assert read_units(3_500) == read_units(4_096) == 1
    assert (read_units(8_192), read_units(8_192, Consistency.EVENTUAL)) == (2, 1)
    assert read_units(8_192, Consistency.TRANSACTIONAL) == 4
    assert read_units(10 * 1024) == 3
    assert batch_read_units([1_536, 6_656]) == 3
    assert query_read_units([1_536, 6_656]) == 2
    assert read_units(0) == 1  # a read of a missing item still costs the minimum


def test_write_units_follow_the_documented_examples() -> None:
    # Given writes of 500 bytes, 1 KB, 1.5 KB and 2 KB, an update from 3 KB down to 1 KB, and a batch
    # When their write units are computed
    # Then 1 KB is 1 unit, each started KB another, a transaction twice, an update by its larger side
    assert [write_units(s) for s in (500, 1_024, 1_536, 2_048)] == [1, 1, 2, 2]
    assert write_units(1_536, transactional=True) == 4
    assert update_write_units(3_072, 1_024) == 3
    assert batch_write_units([500, 1_536, 2_049]) == 1 + 2 + 3
