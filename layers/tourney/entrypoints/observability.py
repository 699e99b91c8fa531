"""Logger, Tracer and Metrics in one place (docs/architecture.md, 'Where things live'; the cookbook's observability.py).

Every function decorates its ``handler`` with :func:`observed`, which stacks
the Powertools decorators once: the logger injects the Lambda context (and a
correlation id when the trigger has one) and forgets the previous
invocation's keys, the tracer captures the handler, metrics are flushed as EMF.

Correlation ids: :func:`correlate` appends ``tournament_id``, ``table_id`` and
``hand`` to every log line of the invocation and annotates the trace.

Tracing records no answer and no body (``TRACE_CAPTURE``): a trace holds timings,
the cold start, the correlation ids and the AWS calls, never what a player was
told (hole cards, balances, ledgers).

The X-Ray SDK costs about 100-400 ms to import (it loads botocore to patch
it), so the :class:`~aws_lambda_powertools.Tracer` is built on the first
invocation, not when the handler module is imported: importing a handler stays
cheap, which is what ``python -X importtime`` measures (docs: cold start).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import Metrics, MetricUnit

from tourney.entrypoints.settings import settings

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

__all__ = ["MetricUnit", "correlate", "logger", "metrics", "observed", "tournament_failed", "tracer"]

# An invocation that counted nothing (a read, a stale message) is normal here, not worth a warning per call.
warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)

logger = Logger(service=settings().service_name)
metrics = Metrics(namespace=settings().metrics_namespace, service=settings().service_name)

Handler = TypeVar("Handler", bound=Callable[..., Any])

TRACE_CAPTURE: dict[str, bool] = {"capture_response": False, "capture_error": False}
"""What the tracer records of a handler: neither its answer nor its error as metadata. Answers carry hole cards,
balances and ledgers, and errors may quote a request; the logs (which redact nothing of ours either, but stay in
the account's log groups with their retention) keep what an operator needs, and the trace keeps timings,
annotations (the ids of ``correlate``) and AWS calls (``tests/integration/test_tracing.py``)."""


@functools.lru_cache(maxsize=1)
def tracer() -> Tracer:
    """The process's tracer, built on first use (Powertools disables it outside Lambda)."""
    from aws_lambda_powertools import Tracer

    return Tracer(service=settings().service_name)


def correlate(*, tournament_id: str | None = None, table_id: str | None = None, hand: int | None = None) -> None:
    """Add the ids an operator searches by to every log line of this invocation, and to the trace."""
    keys = {
        name: value
        for name, value in (("tournament_id", tournament_id), ("table_id", table_id), ("hand", hand))
        if value is not None
    }
    if not keys:
        return
    logger.append_keys(**keys)
    for name, value in keys.items():
        tracer().put_annotation(key=name, value=str(value))


def tournament_failed(message: str) -> Callable[[str, Exception], None]:
    """The ``on_error`` of a pass over the tournaments: logs ``message`` as an error naming the tournament that
    raised, with its trace (the pass goes on with the others)."""

    def log(tournament_id: str, error: Exception) -> None:
        logger.error(message, extra={"tournament_id": tournament_id}, exc_info=error)

    return log


def observed(correlation_id_path: str | None = None) -> Callable[[Handler], Handler]:
    """Decorate a Lambda handler with logging (context, correlation id), tracing and metrics.

    >>> @observed()
    ... def handler(event, context):
    ...     return {"ok": True}
    >>> handler.__name__
    'handler'
    """

    def decorate(handler: Handler) -> Handler:
        logged = logger.inject_lambda_context(correlation_id_path=correlation_id_path, clear_state=True)(handler)
        traced: list[Callable[..., Any]] = []

        @functools.wraps(handler)
        def run(event: Any, context: Any) -> Any:
            if not traced:
                traced.append(tracer().capture_lambda_handler(logged, **TRACE_CAPTURE))
            return traced[0](event, context)

        return metrics.log_metrics(run, capture_cold_start_metric=True, raise_on_empty_metrics=False)  # type: ignore[return-value]

    return decorate
