"""Idempotency at the edge (docs/architecture.md, 'Configuration and dependencies'): Powertools, ``idempotency`` table.

:func:`once` runs a service call at most once per ``(scope, key)`` while the
record lives (``IDEMPOTENCY_TTL_SECONDS``): a replay with the same key and the
same payload gets the stored answer without calling the service again; the
same key with another payload, or while the first call is still running, is
refused (``RequestInProgress``, 409). When the call raises, Powertools
forgets the key, so the client may retry. No key: the call simply runs (the
services are idempotent by themselves where they can be).

The table keeps Powertools' default layout (partition key ``id``, TTL
``expiration``; ``tourney.adapters.dynamo.schema.IDEMPOTENCY``). Powertools and
boto3 are imported on first use, not when a handler module is imported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from tourney.entrypoints.errors import RequestInProgress
from tourney.entrypoints.settings import Settings, settings

__all__ = ["once"]

Answer = dict[str, Any]


class Stored(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


V = TypeVar("V", bound=Stored)


@functools.lru_cache(maxsize=16)
def _runner(settings: Settings) -> tuple[Callable[..., Answer], Any]:
    """The guarded call for these settings: one per process on Lambda. Keyed on the whole settings, not the
    table's name alone: the persistence layer's DynamoDB client keeps the endpoint it was made for, and the
    local runtime gives each stack of a process (one per test module) settings of its own."""
    from aws_lambda_powertools.utilities.idempotency import (
        DynamoDBPersistenceLayer,
        IdempotencyConfig,
        idempotent_function,
    )

    persistence = DynamoDBPersistenceLayer(table_name=settings.idempotency_table)
    config = IdempotencyConfig(
        event_key_jmespath="[scope, key]",
        payload_validation_jmespath="payload",
        raise_on_no_idempotency_key=True,
        expires_after_seconds=settings.idempotency_ttl_seconds,
    )

    def run(*, request: Mapping[str, Any], call: Callable[[], Answer]) -> Answer:
        return call()

    guarded: Callable[..., Answer] = idempotent_function(
        run, data_keyword_argument="request", persistence_store=persistence, config=config
    )
    return guarded, config


def once(
    scope: str,
    key: str | None,
    payload: Mapping[str, Any],
    call: Callable[[], V],
    answer_type: type[V],
    lambda_context: Any = None,
) -> V:
    """``call()`` once per ``(scope, key)``; replays answer what the first call answered (as ``answer_type``).

    ``scope`` says who and what (``"register:<tournament>:<player>"``), so one
    player's key never replays another's answer; ``payload`` is what must be
    the same on a replay. The answer is stored as JSON (``to_dict``) and read
    back into ``answer_type``.
    """
    if not key:
        return call()
    from aws_lambda_powertools.utilities.idempotency.exceptions import (
        IdempotencyAlreadyInProgressError,
        IdempotencyValidationError,
    )

    run, idempotency_config = _runner(settings())
    if lambda_context is not None:
        idempotency_config.register_lambda_context(lambda_context)
    try:
        stored = run(request={"scope": scope, "key": key, "payload": dict(payload)}, call=lambda: call().to_dict())
    except IdempotencyAlreadyInProgressError as error:
        raise RequestInProgress("a request with this Idempotency-Key is still in progress") from error
    except IdempotencyValidationError as error:
        raise RequestInProgress("this Idempotency-Key was used with another request") from error
    answer: V = _adapter(answer_type).validate_python(stored)
    return answer


@functools.lru_cache(maxsize=16)
def _adapter(answer_type: type[V]) -> TypeAdapter[V]:
    return TypeAdapter(answer_type)
