"""Handlers of queues, schedules and workflow steps: what is ignored, what is retried (docs/architecture.md, 'Errors').

Outside HTTP there is nobody to answer a 4xx to. The services answer a stale
or duplicate message themselves, as a no-op (a hand end already coordinated,
a time-out for a decision already taken, a start for a tournament no longer
registering); the only refusals :func:`unless_stale` logs and ignores (it returns
None) are those that say nothing but 'stale or duplicate'
(``errors.IGNORED_BY_TRIGGERS``: a stale action, a start already made). Every
other error is raised again, a refusal too (a ``Conflict`` such as a hand end
that cannot be settled): the trigger fails, SQS redelivers, then moves the
message to its dead-letter queue, whose alarm calls an operator; Step
Functions retries the task. Nothing is dropped without a record.

The SQS processors are built on first use: Powertools' batch package loads its
pydantic event models (about 150 ms), which a handler module does not pay at
import.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from tourney.domain import errors
from tourney.entrypoints.observability import MetricUnit, logger, metrics

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.batch import BatchProcessor, SqsFifoPartialProcessor

__all__ = ["IGNORED", "fifo_processor", "process_sqs", "sqs_processor", "unless_stale"]

T = TypeVar("T")

IGNORED: tuple[type[errors.TourneyError], ...] = errors.IGNORED_BY_TRIGGERS
"""Domain refusals that mean 'stale or duplicate': logged, counted, ignored."""


def unless_stale(what: str, call: Callable[[], T]) -> T | None:
    """Run one message's service call; a stale or duplicate message is logged and ignored (None)."""
    try:
        return call()
    except IGNORED as refusal:
        logger.info("message ignored: stale or duplicate", extra={"message_kind": what, "error": refusal.code})
        metrics.add_metric(name="MessagesIgnored", unit=MetricUnit.Count, value=1)
        return None


@functools.lru_cache(maxsize=1)
def sqs_processor() -> BatchProcessor:
    """Partial batch responses for a standard queue: one failing record does not fail the others."""
    from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType

    return BatchProcessor(event_type=EventType.SQS)


@functools.lru_cache(maxsize=1)
def fifo_processor() -> SqsFifoPartialProcessor:
    """Partial batch responses for a FIFO queue: a failing record fails the rest of its group only.

    The records after it in the same message group (tournament) are returned
    unprocessed, so the group keeps its order; other groups go on.
    """
    from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor

    return SqsFifoPartialProcessor(skip_group_on_error=True)


def process_sqs(event: dict[str, Any], context: Any, record_handler: Callable[[Any], Any], *, fifo: bool) -> Any:
    """Run ``record_handler`` over every record; answer ``{"batchItemFailures": [...]}`` for SQS to retry."""
    from aws_lambda_powertools.utilities.batch import process_partial_response

    processor = fifo_processor() if fifo else sqs_processor()
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
