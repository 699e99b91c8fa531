"""Domain aggregates stored as one compressed JSON attribute (``body``).

A table mid-hand is about 1.7 KB of JSON and 0.5 KB compressed (measured in
docs/data-model.md): compressed, every write of the play path stays within one
write request unit (1 KB) instead of two or three.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from pynamodb.attributes import Attribute
from pynamodb.constants import BINARY


def pack(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, separators=(",", ":"), sort_keys=True).encode(), 6)


def unpack(raw: bytes) -> Any:
    return json.loads(zlib.decompress(raw))


class BodyAttribute(Attribute[Any]):
    """zlib-compressed JSON of plain data (dicts, lists, strings, ints, bools, None), stored as binary."""

    attr_type = BINARY

    def serialize(self, value: Any) -> bytes:
        return pack(value)

    def deserialize(self, value: Any) -> Any:
        return unpack(value)
