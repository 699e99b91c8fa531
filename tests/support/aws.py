"""AWS in tests: moto in-process, the six tables made from the one declaration, and a recorder of AWS calls.

Use it from a test module (or a conftest) with::

    from tests.support.aws import aws, dynamodb, recorder  # noqa: F401  (pytest fixtures)

* ``aws``: fake credentials and region, ``mock_aws`` around the test, and fresh
  boto3/PynamoDB clients (so nothing from another test or a real account leaks in).
* ``dynamodb``: ``aws`` plus the six tables of
  ``tourney.adapters.dynamo.schema`` created exactly as the stack declares them;
  yields the physical names by logical name.
* ``recorder``: an :class:`AwsCallRecorder` counting every AWS call made through
  botocore while the test runs (a botocore ``before-parameter-build`` event hook, so it sees
  boto3 and PynamoDB alike): ``recorder.calls``, ``recorder.count("GetItem")``,
  ``recorder.reads()``, ``recorder.writes()``.

Threads: moto answers requests in the calling thread without any lock, so two
threads can interleave inside one moto request (a condition checked by one
thread, the item written by the other in between), which DynamoDB never does.
:func:`serialized_moto` makes moto answer one request at a time, as DynamoDB
serializes the writes of one item; tests that race threads use it (fixture
``serial_aws``).
"""

from __future__ import annotations

import os
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest
from botocore.handlers import BUILTIN_HANDLERS
from moto import mock_aws
from moto.core.botocore_stubber import BotocoreStubber
from tourney.adapters.dynamo.schema import ALL_TABLES, create_tables

REGION = "us-east-1"

READ_OPERATIONS = frozenset({"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"})
WRITE_OPERATIONS = frozenset(
    {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems", "ExecuteStatement"}
)


@dataclass(frozen=True)
class AwsCall:
    """One AWS API call as botocore was about to send it."""

    service: str
    operation: str
    params: dict[str, Any]

    @property
    def table(self) -> str | None:
        return self.params.get("TableName")

    @property
    def consistent(self) -> bool:
        """A strongly consistent read (GetItem/Query/Scan with ``ConsistentRead``; TransactGetItems always)."""
        if self.operation == "TransactGetItems":
            return True
        if self.operation == "BatchGetItem":
            requests = self.params.get("RequestItems", {}).values()
            return bool(requests) and all(r.get("ConsistentRead") for r in requests)
        return bool(self.params.get("ConsistentRead"))

    @property
    def conditional(self) -> bool:
        """A write with a condition (on the item, or on every item of a transaction)."""
        if self.operation == "TransactWriteItems":
            items = self.params.get("TransactItems", [])
            return bool(items) and all(
                next(iter(item.values())).get("ConditionExpression") is not None for item in items
            )
        return self.params.get("ConditionExpression") is not None

    @property
    def items_written(self) -> int:
        """Items a write touches (a transaction's items, a batch's requests)."""
        if self.operation == "TransactWriteItems":
            return len(self.params.get("TransactItems", []))
        if self.operation == "BatchWriteItem":
            return sum(len(requests) for requests in self.params.get("RequestItems", {}).values())
        return 1 if self.operation in WRITE_OPERATIONS else 0


@dataclass
class AwsCallRecorder:
    """Every AWS call made through botocore while recording, in order."""

    calls: list[AwsCall] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, call: AwsCall) -> None:
        with self._lock:
            self.calls.append(call)

    def clear(self) -> None:
        with self._lock:
            self.calls.clear()

    def of(self, service: str = "dynamodb") -> list[AwsCall]:
        return [call for call in self.calls if call.service == service]

    def count(self, operation: str, service: str = "dynamodb") -> int:
        return sum(1 for call in self.of(service) if call.operation == operation)

    def operations(self, service: str = "dynamodb") -> list[str]:
        return [call.operation for call in self.of(service)]

    def reads(self) -> list[AwsCall]:
        return [call for call in self.of("dynamodb") if call.operation in READ_OPERATIONS]

    def writes(self) -> list[AwsCall]:
        return [call for call in self.of("dynamodb") if call.operation in WRITE_OPERATIONS]

    def summary(self) -> Counter[str]:
        return Counter(f"{call.service}.{call.operation}" for call in self.calls)

    @contextmanager
    def recording(self) -> Iterator[AwsCallRecorder]:
        _ACTIVE.append(self)
        try:
            yield self
        finally:
            _ACTIVE.remove(self)


_ACTIVE: list[AwsCallRecorder] = []


def _on_parameter_build(params: dict[str, Any], model: Any, **_: Any) -> None:
    """botocore's ``before-parameter-build`` event: once per API call, with the call's parameters."""
    if not _ACTIVE:
        return
    call = AwsCall(model.service_model.service_name, model.name, dict(params))
    for recorder in list(_ACTIVE):
        recorder.record(call)


# Registered once, before the clients of the tests exist (the fixtures below also build fresh clients): every
# botocore session created from now on, boto3's and PynamoDB's alike, calls it for every API call.
if ("before-parameter-build", _on_parameter_build) not in BUILTIN_HANDLERS:
    BUILTIN_HANDLERS.append(("before-parameter-build", _on_parameter_build))


# -- item sizes, as DynamoDB bills them -----------------------------------------------------------------------------


def item_size(item: dict[str, Any]) -> int:
    """Bytes of an item in DynamoDB JSON (a low-level ``GetItem``'s ``Item``): names plus values.

    Strings count their UTF-8 bytes, binaries their bytes, numbers about one byte per two digits plus one,
    booleans and nulls one byte, lists and maps three bytes plus their elements (AWS's documented rules).
    """
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "B":
        return len(inner)
    if kind == "N":
        digits = len(inner.lstrip("-").replace(".", "").lstrip("0")) or 1
        return (digits + 1) // 2 + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(_value_size(v) + 1 for v in inner)
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(v) + 1 for k, v in inner.items())
    if kind in ("SS", "NS", "BS"):
        return sum(len(str(v)) for v in inner)
    raise ValueError(f"unknown DynamoDB type {kind}")


def raw_item(table_name: str, pk: str, sk: str | None = None, *, hash_name: str = "pk") -> dict[str, Any] | None:
    """An item as stored, in DynamoDB JSON (a strongly consistent low-level ``GetItem``)."""
    key = {hash_name: {"S": pk}}
    if sk is not None:
        key["sk"] = {"S": sk}
    found = boto3.client("dynamodb", region_name=REGION).get_item(TableName=table_name, Key=key, ConsistentRead=True)
    item: dict[str, Any] | None = found.get("Item")
    return item


# -- moto, one request at a time --------------------------------------------------------------------------------------

_MOTO_LOCK = threading.RLock()


@contextmanager
def serialized_moto() -> Iterator[None]:
    """Make moto answer one request at a time (DynamoDB never interleaves two writes of one item)."""
    original = BotocoreStubber.process_request

    def process_request(self: BotocoreStubber, request: Any) -> Any:
        with _MOTO_LOCK:
            return original(self, request)

    BotocoreStubber.process_request = process_request  # type: ignore[method-assign]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)  # hand the lock over quickly: threads wait on it, not on the GIL's 5 ms turns
    try:
        yield
    finally:
        sys.setswitchinterval(interval)
        BotocoreStubber.process_request = original  # type: ignore[method-assign]


# -- fixtures ---------------------------------------------------------------------------------------------------------


def _fresh_clients() -> None:
    """Forget cached clients, so that the ones made next are made inside this test's mock."""
    boto3.DEFAULT_SESSION = None
    from tourney.adapters.dynamo import models

    models.reset_connections()


@contextmanager
def mocked_aws() -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in _FAKE_ENV}
    os.environ.update(_FAKE_ENV)
    for key in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_PROFILE"):
        saved.setdefault(key, os.environ.get(key))
        os.environ.pop(key, None)
    try:
        with mock_aws():
            _fresh_clients()
            yield
    finally:
        _fresh_clients()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


_FAKE_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SECURITY_TOKEN": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
}


def make_tables() -> dict[str, str]:
    """Create the six tables in the current mock, as the stack declares them; logical -> physical names."""
    return create_tables(boto3.client("dynamodb", region_name=REGION), schemas=ALL_TABLES)


@pytest.fixture
def aws() -> Iterator[None]:
    with mocked_aws():
        yield


@pytest.fixture
def dynamodb(aws: None) -> dict[str, str]:
    return make_tables()


@pytest.fixture
def serial_aws() -> Iterator[None]:
    with serialized_moto():
        yield


@pytest.fixture
def recorder() -> Iterator[AwsCallRecorder]:
    calls = AwsCallRecorder()
    with calls.recording():
        yield calls
