"""The table item's body is compressed with a preset dictionary (docs/data-model.md, 'tables and hands')."""

from __future__ import annotations

import zlib

import pytest
from tourney.adapters.dynamo.models.body import pack, unpack
from tourney.adapters.dynamo.models.tables import TABLE_BODY_DICTIONARY, TableBodyAttribute

BODY = {"table": {"version": 2, "number": 7, "seat_count": 9, "seats": [[1, "ann", 10_000, 30, 1, 0]]}}


def test_a_body_reads_back_and_is_smaller_with_the_dictionary() -> None:
    attribute = TableBodyAttribute()
    stored = attribute.serialize(BODY)
    assert attribute.deserialize(stored) == BODY
    assert len(stored) < len(pack(BODY)) - 40


def test_a_body_packed_without_a_dictionary_still_reads() -> None:
    assert TableBodyAttribute().deserialize(pack(BODY)) == BODY


def test_a_body_packed_with_another_dictionary_is_refused_not_misread() -> None:
    with pytest.raises(zlib.error):
        unpack(pack(BODY, b'{"table":{"other":1}}'), TABLE_BODY_DICTIONARY)


def test_the_dictionary_stays_the_one_stored_bodies_name() -> None:
    # A stored body names its dictionary by Adler-32: another dictionary would leave every stored table unread
    assert zlib.adler32(TABLE_BODY_DICTIONARY) == 2153434201
