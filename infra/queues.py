"""The SQS queues of ``infra.wiring.QUEUES``, each with a dead-letter queue, and their consumers.

SQS-managed encryption, TLS enforced. The consumer reads through an event source mapping
with ``ReportBatchItemFailures`` (Powertools' batch processor answers partial failures).
Logical IDs: ``Queue<Name>`` and ``Queue<Name>Dlq``; metadata ``tourney:queue``.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Duration
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra import wiring
from infra.naming import logical_id
from infra.sizing import Sizing


class Queues(Construct):
    """``self.by_name[name]`` and ``self.dead_letters[name]``."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.by_name: dict[str, sqs.Queue] = {}
        self.dead_letters: dict[str, sqs.Queue] = {}
        for spec in wiring.QUEUES:
            name = logical_id(spec.name)
            fifo = True if spec.fifo else None
            dead_letters = sqs.Queue(
                self,
                f"{name}Dlq",
                fifo=fifo,
                encryption=sqs.QueueEncryption.SQS_MANAGED,
                enforce_ssl=True,
                retention_period=Duration.days(spec.dlq_retention_days),
            )
            queue = sqs.Queue(
                self,
                name,
                fifo=fifo,
                content_based_deduplication=spec.content_based_deduplication if spec.fifo else None,
                # High-throughput FIFO: the limits are per message group (one tournament), not per queue.
                deduplication_scope=sqs.DeduplicationScope.MESSAGE_GROUP if spec.fifo else None,
                fifo_throughput_limit=sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID if spec.fifo else None,
                encryption=sqs.QueueEncryption.SQS_MANAGED,
                enforce_ssl=True,
                visibility_timeout=Duration.seconds(spec.visibility_timeout_seconds),
                retention_period=Duration.days(spec.retention_days),
                dead_letter_queue=sqs.DeadLetterQueue(queue=dead_letters, max_receive_count=spec.max_receive_count),
            )
            for q, suffix, role in ((queue, "", "queue"), (dead_letters, "Dlq", "dead-letter queue")):
                resource = q.node.default_child
                resource.override_logical_id(f"Queue{name}{suffix}")  # type: ignore[union-attr]
                resource.add_metadata("tourney:queue", spec.name)  # type: ignore[union-attr]
                resource.add_metadata("tourney:role", role)  # type: ignore[union-attr]
            self.by_name[spec.name] = queue
            self.dead_letters[spec.name] = dead_letters

    def subscribe(self, functions: Mapping[str, lambda_.Function], sizing: Sizing) -> None:
        """Each queue's consumer reads it (and only its consumer), no faster than ``sizing`` reserves for it."""
        for spec in wiring.QUEUES:
            functions[spec.consumer].add_event_source(
                sources.SqsEventSource(
                    self.by_name[spec.name],
                    batch_size=spec.batch_size,
                    report_batch_item_failures=True,
                    max_concurrency=sizing.sqs_maximum[spec.consumer],
                )
            )
