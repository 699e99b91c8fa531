"""Payloads of queues, schedules and workflow steps, each with a contract test.

Every message is idempotent by its content: a duplicate delivery changes
nothing (``TimeoutDue`` names the decision ``hand``/``seq`` it times out;
``HandEnded`` the hand whose end the coordinator processes once).
``kind`` tells the messages of one queue apart: the time-outs queue carries
``TimeoutDue``, ``RebuyDue`` and ``TablesSettled`` (:func:`parse_timer`), the coordinator's FIFO
queue ``HandEnded`` and ``RebuyClosed`` (:func:`parse_coordination`).

The queue messages are frozen slotted dataclasses, validated by pydantic
where they come off a queue (``parse_timer``, ``parse_coordination``: the same
constraints, unknown fields refused): a ``TimeoutDue`` is built for every
decision, and a pydantic model costs twice as much to build. The schedules'
and workflows' payloads, built a few times per tournament, are pydantic models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

NonEmpty = Annotated[str, Field(min_length=1)]
HandNumber = Annotated[int, Field(ge=1)]


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> str:
        return self.model_dump_json()

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class QueueMessage:
    """What the queue messages share: their wire form, as pydantic writes it."""

    __slots__ = ()
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")

    def to_json(self) -> str:
        return _adapter(type(self)).dump_json(self).decode()

    def to_dict(self) -> dict[str, Any]:
        dumped: dict[str, Any] = _adapter(type(self)).dump_python(self, mode="json")
        return dumped


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(kind: type) -> TypeAdapter[Any]:
    found = _ADAPTERS.get(kind)
    if found is None:
        found = _ADAPTERS[kind] = TypeAdapter(kind)
    return found


@dataclass(frozen=True, slots=True)
class TimeoutDue(QueueMessage):
    """A decision's time ran out (docs/rules.md, rule 16): check or fold, unless it is stale."""

    tournament_id: NonEmpty
    table: NonEmpty
    hand: HandNumber
    seq: Annotated[int, Field(ge=0)]
    seat: Annotated[int, Field(ge=1, le=10)]
    armed_for_away: bool = False
    time_bank: bool = False
    """Armed for the player's time bank, which started when the decision's own time ran out."""
    kind: Literal["timeout_due"] = "timeout_due"


@dataclass(frozen=True, slots=True)
class _AfterHand(QueueMessage):
    """What the messages about one hand's end at one table name."""

    tournament_id: NonEmpty
    table: NonEmpty
    hand: HandNumber


@dataclass(frozen=True, slots=True)
class RebuyDue(_AfterHand):
    """The rebuy window of the players who busted in ``hand`` at ``table`` has closed (docs/rules.md, Rebuys)."""

    kind: Literal["rebuy_due"] = "rebuy_due"


@dataclass(frozen=True, slots=True)
class HandEnded(_AfterHand):
    """A hand was played out at ``table``: the coordinator places, pays, balances and deals the next."""

    kind: Literal["hand_ended"] = "hand_ended"


@dataclass(frozen=True, slots=True)
class RebuyClosed(_AfterHand):
    """To the coordinator: the rebuy window after ``hand`` at ``table`` is over (time, or every bust-out rebought)."""

    kind: Literal["rebuy_closed"] = "rebuy_closed"


@dataclass(frozen=True, slots=True)
class TablesSettled(QueueMessage):
    """To the time-outs queue: what a batch of the coordinator's stream committed, followed outside that stream.

    Each table in ``tables`` is read again (its latest state) and pushed: ``hand_dealt`` if in ``dealt`` (its
    time-out armed too), ``hand_for_hand`` if in ``held`` (it waits for the round's other tables), else
    ``table_changed``; each player in ``players`` is sent their message (a move, a place). A duplicate pushes again
    and arms a time-out the table's own check finds stale: nothing changes.
    """

    tournament_id: NonEmpty
    tables: tuple[NonEmpty, ...]
    dealt: tuple[NonEmpty, ...] = ()
    held: tuple[NonEmpty, ...] = ()
    players: tuple[tuple[NonEmpty, dict[str, Any]], ...] = ()
    kind: Literal["tables_settled"] = "tables_settled"

    def event(self, table: str) -> str:
        """The event ``table`` is pushed with."""
        if table in self.dealt:
            return "hand_dealt"
        return "hand_for_hand" if table in self.held else "table_changed"


class StartTournament(Message):
    """The start schedule fired, or a Sit&Go filled: start the start workflow."""

    kind: Literal["start_tournament"] = "start_tournament"
    tournament_id: str = Field(min_length=1)


class StartPlan(Message):
    """The start workflow after ``close_registration``: ``batches`` of tables to seat (a Map state), or cancelled."""

    kind: Literal["start_plan"] = "start_plan"
    tournament_id: str = Field(min_length=1)
    status: Literal["running", "cancelled"]
    batches: list[int] = Field(default_factory=list)
    tables: int = 0
    players: int = 0
    refunded: int = 0


TimerMessage = Annotated[TimeoutDue | RebuyDue | TablesSettled, Field(discriminator="kind")]
CoordinationMessage = Annotated[HandEnded | RebuyClosed, Field(discriminator="kind")]

_TIMER: TypeAdapter[TimeoutDue | RebuyDue | TablesSettled] = TypeAdapter(TimerMessage)
_COORDINATION: TypeAdapter[HandEnded | RebuyClosed] = TypeAdapter(CoordinationMessage)


def parse_timer(raw: str | bytes | dict[str, Any]) -> TimeoutDue | RebuyDue | TablesSettled:
    """A message of the time-outs queue (``pydantic.ValidationError`` when malformed)."""
    if isinstance(raw, dict):
        return _TIMER.validate_python(raw)
    return _TIMER.validate_json(raw)


DEDUPLICATION_WINDOW_SECONDS = 300
"""SQS FIFO drops a message sent with the deduplication id of one sent in the last five minutes."""


def deduplication_id(message: HandEnded | RebuyClosed) -> str:
    """The coordinator queue's deduplication id: the event itself (kind, tournament, table, hand).

    A hand end sent again (by the watchdog, or by a retried action) within
    ``DEDUPLICATION_WINDOW_SECONDS`` of the first is dropped by the queue.
    """
    kind = "hand" if isinstance(message, HandEnded) else "rebuy"
    return f"{kind}#{message.tournament_id}#{message.table}#{message.hand}"[:128]  # SQS allows 128 characters


def parse_coordination(raw: str | bytes | dict[str, Any]) -> HandEnded | RebuyClosed:
    """A message of the coordinator's FIFO queue (``pydantic.ValidationError`` when malformed)."""
    if isinstance(raw, dict):
        return _COORDINATION.validate_python(raw)
    return _COORDINATION.validate_json(raw)


__all__ = [
    "DEDUPLICATION_WINDOW_SECONDS",
    "CoordinationMessage",
    "HandEnded",
    "Message",
    "QueueMessage",
    "RebuyClosed",
    "RebuyDue",
    "StartPlan",
    "StartTournament",
    "TablesSettled",
    "TimeoutDue",
    "TimerMessage",
    "deduplication_id",
    "parse_coordination",
    "parse_timer",
]
