"""The SQS event-source mappings (``AWS::Lambda::EventSourceMapping``), run as pollers.

Each mapping from a queue to a function gets a thread that long-polls the queue
in moto and invokes the function with the SQS event Lambda would build (FIFO
attributes included). A batch that succeeds is deleted; with
``ReportBatchItemFailures``, only the records not named in
``batchItemFailures`` are; a failed record becomes visible again after the
queue's visibility timeout divided by the time factor, and moto's redrive
policy moves it to the dead-letter queue after ``maxReceiveCount`` deliveries.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from infra.local.lambdas import FunctionRegistry, LocalFunction
from infra.local.template import REGION, Resolver, Template

log = logging.getLogger("infra.local")


@dataclass(frozen=True)
class QueueMapping:
    queue_url: str
    queue_arn: str
    function: LocalFunction
    batch_size: int = 10
    report_failures: bool = False


def read_queue_mappings(template: Template, resolver: Resolver, functions: FunctionRegistry) -> list[QueueMapping]:
    """The enabled SQS mappings of the template (mappings of other sources are logged and skipped)."""
    queues_by_arn = {
        resolver.get_att(logical_id, "Arn"): resolver.queue_url(logical_id)
        for logical_id, _ in template.of_type("AWS::SQS::Queue")
    }
    mappings = []
    for logical_id, raw in template.of_type("AWS::Lambda::EventSourceMapping"):
        props = resolver.resolve(raw)
        if str(props.get("Enabled", True)).lower() == "false":
            continue
        source = str(props.get("EventSourceArn", ""))
        function = functions.lookup(str(props.get("FunctionName", "")))
        if source not in queues_by_arn or function is None:
            log.warning("event source mapping %s (%s) is not run locally", logical_id, source or "no source")
            continue
        mappings.append(
            QueueMapping(
                queue_url=queues_by_arn[source],
                queue_arn=source,
                function=function,
                batch_size=max(1, min(10, int(props.get("BatchSize", 10)))),
                report_failures="ReportBatchItemFailures" in (props.get("FunctionResponseTypes") or ()),
            )
        )
    return mappings


_sequence = itertools.count(1)


def sqs_event(messages: list[dict[str, Any]], queue_arn: str) -> dict[str, Any]:
    """The event Lambda builds from received SQS messages.

    A FIFO record always has a ``SequenceNumber``; moto gives one only with an explicit deduplication id,
    so the others get one here, increasing in delivery order.
    """
    records = []
    for message in messages:
        attributes = {
            k: v
            for k, v in (message.get("Attributes") or {}).items()
            if k
            in (
                "ApproximateReceiveCount",
                "SentTimestamp",
                "SenderId",
                "ApproximateFirstReceiveTimestamp",
                "SequenceNumber",
                "MessageGroupId",
                "MessageDeduplicationId",
                "AWSTraceHeader",
                "DeadLetterQueueSourceArn",
            )
        }
        if "MessageGroupId" in attributes and "SequenceNumber" not in attributes:
            attributes["SequenceNumber"] = f"{next(_sequence):020d}"
        message_attributes = {
            name: {
                "stringValue": value.get("StringValue"),
                "binaryValue": value.get("BinaryValue"),
                "stringListValues": value.get("StringListValues", []),
                "binaryListValues": value.get("BinaryListValues", []),
                "dataType": value.get("DataType"),
            }
            for name, value in (message.get("MessageAttributes") or {}).items()
        }
        for value in message_attributes.values():
            for key in ("stringValue", "binaryValue"):
                if value[key] is None:
                    del value[key]
        records.append(
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message.get("Body", ""),
                "attributes": attributes,
                "messageAttributes": message_attributes,
                "md5OfBody": message.get("MD5OfBody", ""),
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": REGION,
            }
        )
    return {"Records": records}


class QueuePoller:
    """One mapping's polling thread."""

    def __init__(
        self, mapping: QueueMapping, client: Callable[[], Any], time_factor: float, stopping: threading.Event
    ) -> None:
        self.mapping = mapping
        self._client = client
        self.time_factor = time_factor
        self._stopping = stopping
        self._thread = threading.Thread(target=self._run, name=f"local-sqs-{mapping.function.name}", daemon=True)
        self._retry_after = 30

    def start(self) -> None:
        self._thread.start()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        sqs = self._client()
        mapping = self.mapping
        try:
            attributes = sqs.get_queue_attributes(QueueUrl=mapping.queue_url, AttributeNames=["VisibilityTimeout"])
            self._retry_after = int(attributes["Attributes"].get("VisibilityTimeout", 30))
        except Exception:
            log.exception("cannot read queue %s", mapping.queue_url)
        while not self._stopping.is_set():
            try:
                answer = sqs.receive_message(
                    QueueUrl=mapping.queue_url,
                    MaxNumberOfMessages=mapping.batch_size,
                    WaitTimeSeconds=1,
                    MessageSystemAttributeNames=["All"],
                    MessageAttributeNames=["All"],
                )
            except Exception:
                if self._stopping.is_set():
                    return
                log.exception("receiving from %s failed", mapping.queue_url)
                self._stopping.wait(1)
                continue
            messages = answer.get("Messages") or []
            if messages:
                self.deliver(sqs, messages)

    def deliver(self, sqs: Any, messages: list[dict[str, Any]]) -> None:
        mapping = self.mapping
        started = time.monotonic()
        failed: set[str] = set()
        try:
            result = mapping.function.invoke(sqs_event(messages, mapping.queue_arn))
            if mapping.report_failures and isinstance(result, dict):
                failures = result.get("batchItemFailures") or []
                failed = {str(f.get("itemIdentifier")) for f in failures if isinstance(f, dict)}
                known = {m["MessageId"] for m in messages}
                if failed - known or any(not f.get("itemIdentifier") for f in failures if isinstance(f, dict)):
                    failed = known  # Lambda treats an unknown or empty identifier as the whole batch failing
            status = "ok" if not failed else f"{len(failed)} failed"
        except Exception as error:
            log.warning(
                "%s failed on a batch of %d: %s: %s", mapping.function.name, len(messages), type(error).__name__, error
            )
            failed = {m["MessageId"] for m in messages}
            status = "error"
        done = [m for m in messages if m["MessageId"] not in failed]
        if done:
            sqs.delete_message_batch(
                QueueUrl=mapping.queue_url,
                Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(done)],
            )
        retry = [m for m in messages if m["MessageId"] in failed]
        if retry:
            seconds = int(self._retry_after / self.time_factor)
            sqs.change_message_visibility_batch(
                QueueUrl=mapping.queue_url,
                Entries=[
                    {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": seconds}
                    for i, m in enumerate(retry)
                ],
            )
        elapsed = (time.monotonic() - started) * 1000
        log.info(
            "SQS %s %d message(s) %s %.1f ms -> %s",
            mapping.queue_url.rsplit("/", 1)[-1],
            len(messages),
            status,
            elapsed,
            mapping.function.name,
        )
