"""A DynamoDB item's size and the request units a request of it consumes, by AWS's documented rules.

Sizes (Amazon DynamoDB Developer Guide, 'DynamoDB item sizes and formats'): an item is the sum of its attribute
names and values; a string is its UTF-8 bytes; a number about 1 byte per two significant digits plus 1 (leading
and trailing zeros trimmed); binary its raw bytes; a boolean or null 1 byte; a list or map 3 bytes plus 1 byte per
element plus its elements (a map's element: its name and its value). A set (string, number or binary) is the sum of
its elements' sizes, with no overhead: AWS does not document sets apart, and this is what the widely used
calculators count.

Units ('DynamoDB read and write operations', and the on-demand pricing page): a write is 1 write unit per 1 KB
(rounded up), a strongly consistent read 1 read unit per 4 KB (rounded up), eventually consistent half that,
transactional twice; an update consumes by the larger of the item before and after; a read of a missing item
or a write whose condition fails still consumes the minimum. A Query rounds the sum of the items it returns
up to 4 KB once; BatchGetItem and BatchWriteItem round each item.

An item over 400 KB is refused (:func:`check_item_size`): ``ValidationException`` on a single write,
``TransactionCanceledException`` in a transaction.

>>> item_size({"pk": "T#1", "sk": "TABLE#0001", "hand": 12, "open": True})
28
>>> write_units(1_500), read_units(1_500), read_units(1_500, Consistency.EVENTUAL)
(2, 1.0, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from decimal import Decimal
from enum import StrEnum
from typing import Any

KB = 1024
MAX_ITEM_BYTES = 400 * KB
"""DynamoDB's item size limit: 400 KB, attribute names and values together."""
WRITE_UNIT_BYTES = 1 * KB
READ_UNIT_BYTES = 4 * KB
_LIST_OR_MAP_OVERHEAD = 3
_ELEMENT_OVERHEAD = 1


class Consistency(StrEnum):
    STRONG = "strong"
    EVENTUAL = "eventual"
    TRANSACTIONAL = "transactional"


_READ_FACTOR = {Consistency.STRONG: 1.0, Consistency.EVENTUAL: 0.5, Consistency.TRANSACTIONAL: 2.0}


class ItemTooLarge(ValueError):
    """DynamoDB refuses the write: 'Item size has exceeded the maximum allowed size' (400 KB)."""

    def __init__(self, size: int) -> None:
        super().__init__(f"Item size has exceeded the maximum allowed size: {size:,} bytes > {MAX_ITEM_BYTES:,}")
        self.size = size


def number_size(value: int | float | Decimal) -> int:
    """1 byte per two significant digits, plus 1.

    >>> number_size(0), number_size(7), number_size(1_000_000), number_size(123.45), number_size(-12345)
    (1, 2, 2, 4, 4)
    """
    digits = Decimal(str(value)).as_tuple().digits
    significant = "".join(map(str, digits)).strip("0")
    return math.ceil(len(significant) / 2) + 1


def value_size(value: Any) -> int:
    """The size of an attribute value, without its name (plain Python: str, bytes, bool, None, numbers, lists,
    tuples, maps and sets)."""
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, int | float | Decimal):
        return number_size(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    if isinstance(value, Mapping):
        return _LIST_OR_MAP_OVERHEAD + sum(
            len(str(name).encode()) + value_size(v) + _ELEMENT_OVERHEAD for name, v in value.items()
        )
    if isinstance(value, list | tuple):
        return _LIST_OR_MAP_OVERHEAD + sum(value_size(v) + _ELEMENT_OVERHEAD for v in value)
    if isinstance(value, set | frozenset):
        return sum(value_size(v) for v in value)
    raise TypeError(f"not a DynamoDB attribute value: {type(value).__name__}")


def item_size(item: Mapping[str, Any]) -> int:
    """An item's size in bytes: each attribute's name and value (plain Python values)."""
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def typed_value_size(value: Mapping[str, Any]) -> int:
    """The size of a value in DynamoDB's wire form (``{"S": "x"}``, ``{"N": "12"}``, ``{"M": {...}}``...), as
    boto3's client and PynamoDB's ``serialize()`` give it.

    >>> typed_value_size({"L": [{"S": "ab"}, {"N": "10"}, {"NULL": True}]})
    11
    """
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(str(inner).encode())
    if kind == "N":
        return number_size(Decimal(str(inner)))
    if kind == "B":
        return len(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return _LIST_OR_MAP_OVERHEAD + sum(
            len(name.encode()) + typed_value_size(v) + _ELEMENT_OVERHEAD for name, v in inner.items()
        )
    if kind == "L":
        return _LIST_OR_MAP_OVERHEAD + sum(typed_value_size(v) + _ELEMENT_OVERHEAD for v in inner)
    if kind == "SS":
        return sum(len(str(v).encode()) for v in inner)
    if kind == "NS":
        return sum(number_size(Decimal(str(v))) for v in inner)
    if kind == "BS":
        return sum(len(v) for v in inner)
    raise TypeError(f"not a DynamoDB type descriptor: {kind!r}")


def typed_item_size(item: Mapping[str, Mapping[str, Any]]) -> int:
    """An item's size in bytes, from its wire form (``{"pk": {"S": "T#1"}, ...}``)."""
    return sum(len(name.encode()) + typed_value_size(value) for name, value in item.items())


def check_item_size(size: int) -> int:
    """``size``, if DynamoDB stores an item that large; else :class:`ItemTooLarge`."""
    if size > MAX_ITEM_BYTES:
        raise ItemTooLarge(size)
    return size


def write_units(size: int, *, transactional: bool = False) -> int:
    """Write units of writing (or deleting) an item of ``size`` bytes: 1 per KB, at least 1; twice in a transaction.

    >>> write_units(0), write_units(1024), write_units(1025), write_units(1025, transactional=True)
    (1, 1, 2, 4)
    """
    units = max(1, math.ceil(size / WRITE_UNIT_BYTES))
    return 2 * units if transactional else units


def update_write_units(before: int, after: int, *, transactional: bool = False) -> int:
    """An update consumes by the larger of the item before and after it."""
    return write_units(max(before, after), transactional=transactional)


def read_units(size: int, consistency: Consistency = Consistency.STRONG) -> float:
    """Read units of reading an item of ``size`` bytes (0: a missing item still costs the minimum).

    >>> read_units(4096), read_units(4097), read_units(8192, Consistency.EVENTUAL), read_units(10, "transactional")
    (1.0, 2.0, 1.0, 2.0)
    """
    factor = _READ_FACTOR.get(consistency)  # a Consistency, or its text (each hashes and compares as the other)
    if factor is None:
        factor = _READ_FACTOR[Consistency(consistency)]  # not a consistency: the ValueError it was
    return max(1, math.ceil(size / READ_UNIT_BYTES)) * factor


def query_read_units(sizes: Iterable[int], consistency: Consistency = Consistency.STRONG) -> float:
    """A Query (or a Scan page): the sum of the items it returns, rounded up to 4 KB once.

    >>> query_read_units([1_500, 1_500, 1_500])
    2.0
    """
    return read_units(sum(sizes), consistency)


def batch_read_units(sizes: Iterable[int], consistency: Consistency = Consistency.STRONG) -> float:
    """BatchGetItem (or TransactGetItems with ``TRANSACTIONAL``): each item rounded up to 4 KB on its own.

    >>> batch_read_units([1_536, 6_656])
    3.0
    """
    return sum(read_units(size, consistency) for size in sizes)


def batch_write_units(sizes: Iterable[int], *, transactional: bool = False) -> int:
    """BatchWriteItem (or TransactWriteItems): each item rounded up to 1 KB on its own."""
    return sum(write_units(size, transactional=transactional) for size in sizes)
