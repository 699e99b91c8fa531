"""One ``TransactWriteItems``, built by the repositories and committed once (docs/architecture.md, 'Where things live').

A :class:`Transaction` collects conditional puts, updates, deletes and
condition checks over PynamoDB models, each with a *tag* that says what the
item is to the caller (a balance, an idempotency key, a version). DynamoDB
applies all or nothing. When it cancels, :meth:`Transaction.commit` raises
:class:`TransactionCancelled` carrying, for each item that failed, its tag, the failure
code and (when asked with ``return_old``) the item as stored, so the caller
turns it into our error (``StaleVersion``, ``InsufficientFunds``...) by type,
never by message text.

A transaction of one item (a table saved after an action) is sent as a
single conditional write instead: the same condition, half the cost.

Limits that DynamoDB enforces and this class checks before sending: at most
:data:`MAX_ITEMS` items, and no item touched twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pynamodb.exceptions import (
    CancellationReason,
    DeleteError,
    PutError,
    PynamoDBConnectionError,
    TransactWriteError,
    UpdateError,
)
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.update import Action
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite

MAX_ITEMS = 100
"""DynamoDB's limit of items in one transaction."""

CONDITION_FAILED = "ConditionalCheckFailed"
RETRYABLE = frozenset({"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"})


@dataclass(frozen=True)
class ItemFailure:
    """One item's reason for a cancelled transaction."""

    tag: Any
    code: str
    old: dict[str, Any] | None = None
    """The item as stored (DynamoDB JSON), when the item was added with ``return_old``."""

    @property
    def condition_failed(self) -> bool:
        return self.code == CONDITION_FAILED


class TransactionCancelled(Exception):
    """DynamoDB cancelled the transaction: nothing was written. ``failures`` says which items failed and why."""

    def __init__(self, failures: Sequence[ItemFailure]) -> None:
        super().__init__(", ".join(f"{f.tag!r}: {f.code}" for f in failures) or "transaction cancelled")
        self.failures = tuple(failures)

    def tagged(self, predicate: Any) -> list[ItemFailure]:
        return [f for f in self.failures if predicate(f.tag)]


@dataclass
class _Operation:
    kind: str  # "check", "delete", "put", "update": PynamoDB sends them in this order
    tag: Any
    table: str
    key: tuple[str, str | None]
    apply: Callable[[TransactWrite], Any]
    alone: Callable[[], Any] | None = None
    """The same write as a single conditional request, when it may be sent without a transaction."""


_ORDER = {"check": 0, "delete": 1, "put": 2, "update": 3}


class Transaction:
    """Items to write atomically; build with :meth:`put`, :meth:`update`, :meth:`delete`, :meth:`check`."""

    def __init__(self, *, retries: int = 3) -> None:
        self._operations: list[_Operation] = []
        self._keys: set[tuple[str, str, str | None]] = set()
        self._retries = retries
        self._connection_of: type[Model] | None = None

    def __len__(self) -> int:
        return len(self._operations)

    def __bool__(self) -> bool:
        return bool(self._operations)

    def touches(self, model: type[Model] | Model, hash_key: str, range_key: str | None = None) -> bool:
        return (model.Meta.table_name, hash_key, range_key) in self._keys

    def _add(self, model: type[Model] | Model, operation: _Operation) -> None:
        key = (operation.table, *operation.key)
        if key in self._keys:
            raise ValueError(f"a transaction may not touch one item twice: {key}")
        if len(self._operations) >= MAX_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_ITEMS} items")
        self._keys.add(key)
        self._operations.append(operation)
        self._connection_of = self._connection_of or (model if isinstance(model, type) else type(model))

    def put(
        self, item: Model, *, condition: Condition | None = None, tag: Any = None, return_old: bool = False
    ) -> None:
        values = "ALL_OLD" if return_old else None
        self._write(
            "put",
            item,
            tag,
            lambda tx: tx.save(item, condition=condition, return_values=values),
            None if return_old else lambda: item.save(condition=condition, add_version_condition=False),
        )

    def update(
        self,
        item: Model,
        actions: Sequence[Action],
        *,
        condition: Condition | None = None,
        tag: Any = None,
        return_old: bool = False,
    ) -> None:
        values, changes = "ALL_OLD" if return_old else None, list(actions)
        self._write(
            "update",
            item,
            tag,
            lambda tx: tx.update(item, changes, condition=condition, return_values=values, add_version_condition=False),
            None if return_old else lambda: item.update(changes, condition=condition, add_version_condition=False),
        )

    def delete(self, item: Model, *, condition: Condition | None = None, tag: Any = None) -> None:
        self._write(
            "delete",
            item,
            tag,
            lambda tx: tx.delete(item, condition=condition, add_version_condition=False),
            lambda: item.delete(condition=condition, add_version_condition=False),
        )

    def _write(
        self,
        kind: str,
        item: Model,
        tag: Any,
        apply: Callable[[TransactWrite], Any],
        alone: Callable[[], Any] | None,
    ) -> None:
        """Add a write of ``item``: ``apply`` in the transaction, ``alone`` when it may go without one."""
        self._add(item, _Operation(kind, tag, item.Meta.table_name, _keys_of(item), apply, alone))

    def check(
        self, model: type[Model], hash_key: str, range_key: str | None, condition: Condition, *, tag: Any = None
    ) -> None:
        self._add(
            model,
            _Operation(
                "check",
                tag,
                model.Meta.table_name,
                (hash_key, range_key),
                lambda tx: tx.condition_check(model, hash_key, range_key, condition=condition),
            ),
        )

    def commit(self) -> None:
        """Write every item or none; raise :class:`TransactionCancelled` with the failures when DynamoDB cancels.

        A cancellation only by conflicts with other transactions (or throttling) is retried a few times
        with a short backoff: nothing was written, so sending it again is safe.
        """
        if not self._operations:
            return
        attempt = 0
        while True:
            try:
                self._send()
                return
            except TransactionCancelled as cancelled:
                attempt += 1
                if attempt > self._retries or not all(f.code in RETRYABLE for f in cancelled.failures):
                    raise
                time.sleep(0.01 * 2**attempt)

    def _send(self) -> None:
        if len(self._operations) == 1 and self._operations[0].alone is not None:
            self._send_alone(self._operations[0])
            return
        ordered = sorted(self._operations, key=lambda op: _ORDER[op.kind])
        assert self._connection_of is not None
        connection = self._connection_of._get_connection().connection  # the model's cached client
        try:
            with TransactWrite(connection=connection) as writer:
                for operation in ordered:
                    operation.apply(writer)
        except TransactWriteError as error:
            reasons = error.cancellation_reasons
            if error.cause_response_code != "TransactionCanceledException" or not reasons:
                raise
            raise TransactionCancelled(_failures(ordered, reasons)) from error

    @staticmethod
    def _send_alone(operation: _Operation) -> None:
        """One item: a single conditional write costs half a transactional one (1 WRU per KB instead of 2)."""
        assert operation.alone is not None
        try:
            operation.alone()
        except (PutError, UpdateError, DeleteError) as error:
            code = _single_write_failure(error)
            if code is None:
                raise
            raise TransactionCancelled([ItemFailure(operation.tag, code)]) from error


def _single_write_failure(error: PynamoDBConnectionError) -> str | None:
    code = error.cause_response_code
    if code == "ConditionalCheckFailedException":
        return CONDITION_FAILED
    if code in ("ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"):
        return "ThrottlingError"
    return None


def _failures(ordered: Sequence[_Operation], reasons: Sequence[CancellationReason | None]) -> list[ItemFailure]:
    failures = []
    for operation, reason in zip(ordered, reasons, strict=False):
        if reason is None or reason.code in ("None", ""):
            continue
        failures.append(ItemFailure(operation.tag, reason.code, reason.raw_item))
    return failures


def _keys_of(item: Model) -> tuple[str, str | None]:
    hash_value: str | None = None
    range_value: str | None = None
    for name, attribute in item.get_attributes().items():
        if attribute.is_hash_key:
            hash_value = str(getattr(item, name))
        elif attribute.is_range_key:
            range_value = str(getattr(item, name))
    if hash_value is None:
        raise ValueError(f"{type(item).__name__} has no partition key value")
    return hash_value, range_value
