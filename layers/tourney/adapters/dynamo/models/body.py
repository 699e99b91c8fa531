"""Domain aggregates stored as one compressed JSON attribute (``body``).

A table mid-hand is about 1.9 KB of JSON and 0.65-0.7 KB compressed with its
preset dictionary (measured in docs/data-model.md): compressed, every write of
the play path stays within one write request unit (1 KB) instead of two or three.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from pynamodb.attributes import Attribute
from pynamodb.constants import BINARY


def pack(value: Any, dictionary: bytes = b"") -> bytes:
    """``value`` as compressed JSON; with ``dictionary``, zlib's preset dictionary primes the compression, so
    the keys and shapes of a small body cost a back-reference each rather than their text."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
    if not dictionary:
        return zlib.compress(text, 6)
    packer = zlib.compressobj(9, zdict=dictionary)
    return packer.compress(text) + packer.flush()


_PRESET_DICTIONARY = 0x20
"""zlib's FDICT flag in the header's second byte: the stream names its dictionary by its Adler-32."""


def unpack(raw: bytes, dictionary: bytes = b"") -> Any:
    """Read back ``pack``; a body packed with another dictionary than ``dictionary`` is a ``zlib.error``."""
    if raw[1] & _PRESET_DICTIONARY:
        unpacker = zlib.decompressobj(zdict=dictionary)
        return json.loads(unpacker.decompress(raw) + unpacker.flush())
    return json.loads(zlib.decompress(raw))


class BodyAttribute(Attribute[Any]):
    """zlib-compressed JSON of plain data (dicts, lists, strings, ints, bools, None), stored as binary."""

    attr_type = BINARY
    dictionary: bytes = b""
    """zlib's preset dictionary of this attribute's bodies (empty: none). Never changed once bodies are stored
    with it: a body names its dictionary, and one packed with another is not read."""

    def serialize(self, value: Any) -> bytes:
        return pack(value, self.dictionary)

    def deserialize(self, value: Any) -> Any:
        return unpack(value, self.dictionary)
