"""What the simulated cloud does differently with AWS modeled: FIFO batches and the pushes' requests.

:class:`FifoBatches` delivers a tournament's FIFO message group as SQS and Lambda's event source do: one batch of
at most the event source's ``BatchSize`` (10) in one invocation, its messages processed in order, the first failure
stopping the batch (``SqsFifoPartialProcessor``: what it did not finish goes back to the head, in order), the group
busy until the invocation ends (never two batches in flight), polled again ``sqs_to_lambda`` after it. A delivery
throttled at the function's reservation is tried again when a slot frees, without counting a receive (the event
source's maximum concurrency equals the reservation, so SQS keeps the message).

:func:`charge_pushes` charges a round of pushes as ``adapters/aws.py`` makes it: the Queries of the connections'
indexes (eventually consistent) at once, ``QUERY_WORKERS`` at a time, then every post at once, ``POST_WORKERS`` at a
time.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tourney.adapters.aws import POST_WORKERS, QUERY_WORKERS
from tourney.domain.errors import NotFound
from tourney.services.ports import PlayerPush, Push
from tourney.simulation.aws.items import Consistency
from tourney.simulation.aws.model import QUERY_PAGE_BYTES

if TYPE_CHECKING:
    from tourney.adapters.memory import MemoryStore
    from tourney.services.messages import HandEnded, RebuyClosed
    from tourney.simulation.aws.model import Invocation
    from tourney.simulation.cloud import Cloud, _Fifo

    Message = HandEnded | RebuyClosed

CONNECTION_ITEM_BYTES = 160
"""A connection's item as the connections table stores it (connection id, player, table, expiry)."""
CONNECTIONS_TABLE = "tourney-connections"
DEFAULT_BATCH_SIZE = 10


def _key(message: Any) -> tuple[str, str, int, str]:
    return (message.tournament_id, message.table, message.hand, message.kind)


class FifoBatches:
    """The coordinator's FIFO groups, a batch at a time (``_Fifo`` keeps the groups and the deduplication)."""

    def __init__(self, cloud: Cloud) -> None:
        self.cloud = cloud
        aws = cloud.aws
        assert aws is not None
        self.batch_size = aws.function("coordinator").batch_size or DEFAULT_BATCH_SIZE
        self._sent_at: dict[tuple[str, str, int, str], float] = {}
        self.on_settled: Callable[[Message, float, float], None] | None = None
        """Called with each message processed, when it was sent and when its batch's invocation ended."""
        self.batches = 0
        self.largest_batch = 0
        self.busy_seconds = 0.0
        self.failed = 0
        """Batches whose invocation failed (what it did not finish went back to the head of the group)."""
        self.sent_by: Counter[str] = Counter()
        """Messages enqueued, by the function that sent them."""
        """The coordinator's invocations' durations summed (a group is busy while one runs)."""

    def sent(self, message: Message) -> None:
        self.sent_by[self.cloud._function or "harness"] += 1
        self._sent_at.setdefault(_key(message), self.cloud.model_now())

    def deliver(self, fifo: _Fifo, group_id: str) -> None:
        from tourney.simulation.cloud import QUEUES, CoordinatorRun

        cloud = self.cloud
        aws = cloud.aws
        assert aws is not None
        group = fifo._groups[group_id]
        batch = list(itertools.islice(group, self.batch_size))
        settle = CoordinatorRun(cloud.services.coordinator, [message for message, _ in batch])
        ok, _ = cloud.invoke("coordinator", settle)
        done = settle.done
        now = cloud.model_now()
        run = cloud.last_run
        if run is None:  # throttled at the reservation: the group stays busy until a slot frees
            free = aws.next_free("coordinator")
            cloud.after(max(0.0, (free or now) - now), lambda: self.deliver(fifo, group_id), "coordinator")
            return
        end = cloud.last_end
        self.busy_seconds += end - run.start
        self.batches += 1
        self.failed += not ok
        self.largest_batch = max(self.largest_batch, len(batch))
        for _ in range(done):
            message, _ = group.popleft()
            sent = self._sent_at.pop(_key(message), end)
            if self.on_settled is not None:
                self.on_settled(message, sent, end)
        wait = max(0.0, end - now)  # the group stays busy until the batch's invocation ends
        if not ok and group and done < len(batch):
            spec = QUEUES["coordinator"]
            message, receives = group[0]
            if receives >= spec.max_receive_count:
                group.popleft()
                self._sent_at.pop(_key(message), None)
                cloud.dead_letters.append(message)
            else:  # back to the head, seen again after the visibility timeout
                group[0] = (message, receives + 1)
                wait = max(wait, spec.visibility_timeout_seconds - cloud.delivery_seconds)
        cloud.after(wait, lambda: self._free(fifo, group_id), "coordinator")

    def _free(self, fifo: _Fifo, group_id: str) -> None:
        fifo._busy.discard(group_id)
        fifo._poll(group_id, self.cloud.delivery_seconds)


def _recipients(store: MemoryStore, push: Push) -> tuple[str, int]:
    """The connections' partition a push's Query reads, and the connections it finds: a table's seated players, a
    player's one connection."""
    if isinstance(push, PlayerPush):
        return f"{CONNECTIONS_TABLE}/player#{push.player_id}", 1
    try:
        seated = store.stored_table(push.tournament_id, push.table_id).table.seated
    except NotFound:
        seated = 0
    return f"{CONNECTIONS_TABLE}/table#{push.tournament_id}#{push.table_id}", seated


def _query(run: Invocation, partition: str, found: int) -> None:
    size = CONNECTION_ITEM_BYTES * found
    if size <= QUERY_PAGE_BYTES:  # one page (a table's few connections): ``run.query``'s single call, without its list
        run.single_query(partition, size, Consistency.EVENTUAL)
        return
    run.query(partition, [CONNECTION_ITEM_BYTES] * found, Consistency.EVENTUAL)


def charge_pushes(store: MemoryStore, run: Invocation, pushes: Sequence[Push]) -> None:
    """Pushes as ``adapters/aws.py`` makes them: the Queries of their recipients at once (``QUERY_WORKERS`` at a time),
    then every post at once (``POST_WORKERS``). The invocation waits for the slowest Query, then for the posts'
    rounds."""
    lookups = [_recipients(store, push) for push in pushes]
    if len(lookups) == 1:  # the play path's one push: no group to build
        _query(run, *lookups[0])
    else:
        with run.watch.parallel(QUERY_WORKERS) as group:
            for partition, found in lookups:
                with run.branch(group):
                    _query(run, partition, found)
    posts = sum(found for _, found in lookups)
    if posts:
        run.post(posts, workers=POST_WORKERS)
