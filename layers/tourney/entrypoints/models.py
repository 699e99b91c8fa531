"""Request and response models at the edge (CONTRACT.md, 'HTTP API' and 'WebSocket API').

Money is integer cents and chips are integers: amounts are strict integers (a
JSON string or a float is refused, never coerced) and never negative. Unknown
fields are refused, so a misspelt option is a 422, not silently ignored.
Responses that are not a service view are declared here too, so the OpenAPI
spec names every field.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from tourney.domain.structure import TournamentFormat

ActionName = Literal["fold", "check", "call", "bet", "raise"]
"""``tourney.domain.hand.actions.ActionKind``'s values, spelt out: importing the hand package loads the
evaluator's tables (about 70 ms), which a handler module must not pay at import (a test keeps them equal)."""

Cents = Annotated[int, Field(strict=True, ge=0, description="integer cents")]
PositiveCents = Annotated[int, Field(strict=True, gt=0, description="integer cents, above zero")]
Chips = Annotated[int, Field(strict=True, ge=0, description="chips")]
Count = Annotated[int, Field(strict=True, ge=0)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- players ---------------------------------------------------------------------


class ActionRequest(Request):
    """A decision at the caller's seat: ``hand`` and ``seq`` name the decision awaited (a stale one is a 409)."""

    hand: Annotated[int, Field(strict=True, ge=1, description="the hand's number at the table")]
    seq: Annotated[int, Field(strict=True, ge=0, description="the decision's sequence number in the hand")]
    action: ActionName
    amount: Chips | None = Field(default=None, description="bet or raise: the total the bet or raise goes to")


class RegistrationStatus(BaseModel):
    """The caller's registration: ``position`` on the waiting list (1 first) when wait-listed."""

    status: Literal["registered", "waitlisted", "unregistered", "refunded"]
    position: int | None = None


# -- operators -------------------------------------------------------------------


class CreateTournamentRequest(Request):
    """Create and announce a tournament (no ``start_at`` for a Sit&Go, which starts when full)."""

    name: Name
    format: TournamentFormat
    buy_in: Cents
    entry_fee: Cents
    guarantee: Cents = 0
    max_players: Annotated[int, Field(strict=True, ge=2)] | None = None
    min_players: Annotated[int, Field(strict=True, ge=2)] | None = None
    seats_per_table: Annotated[int, Field(strict=True, ge=2, le=10)] | None = None
    start_at: datetime | None = Field(default=None, description="ISO-8601 UTC; required unless format is sng")
    announce_at: datetime | None = Field(default=None, description="registration opens (default: now)")
    starting_stack: Annotated[int, Field(strict=True, ge=1)] | None = None
    level_minutes: Annotated[int, Field(strict=True, ge=1, le=120)] | None = None
    rebuy_levels: tuple[Annotated[int, Field(strict=True, ge=1)], Annotated[int, Field(strict=True, ge=1)]] | None = (
        Field(default=None, description="rebuy format: the first and last blind level of the rebuy period")
    )
    add_on_chips: Annotated[int, Field(strict=True, ge=1)] | None = None
    payout_percent: tuple[Annotated[int, Field(strict=True, gt=0)], ...] = Field(
        default=(), description="a fixed payout, percent per place adding to 100 (default: the table by entrants)"
    )
    decision_seconds: Annotated[int, Field(strict=True, ge=1, le=300)] | None = None
    tournament_id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")] | None = Field(
        default=None, description="chosen by the operator (creation is then idempotent), else generated"
    )


class TournamentCreated(BaseModel):
    id: str


class TerminateRequest(Request):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] = "terminated by an operator"


class CancelRequest(Request):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] = "cancelled by an operator"


class RestartRequest(Request):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] = "restarted by an operator"


class DepositRequest(Request):
    amount: PositiveCents
    key: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = Field(
        default=None, description="idempotency key of the deposit (default: the Idempotency-Key header)"
    )


class Accepted(BaseModel):
    """A request accepted for processing (a workflow started)."""

    status: Literal["accepted"] = "accepted"


# -- WebSocket client messages ---------------------------------------------------------


class SubscribeMessage(Request):
    """Watch a table: a seated player gets their own hole cards, anyone else observes."""

    action: Literal["subscribe"]
    tournament_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    table_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class ActMessage(Request):
    """A decision sent over the WebSocket: the same fields as ``POST .../actions``."""

    action: Literal["act"]
    tournament_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    table_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    hand: Annotated[int, Field(strict=True, ge=1)]
    seq: Annotated[int, Field(strict=True, ge=0)]
    kind: ActionName = Field(description="fold, check, call, bet or raise")
    amount: Chips | None = None


class ChatMessage(Request):
    """Table chat (RULES.md, rule 18): limited length, no chat from players dealt in the hand in progress."""

    action: Literal["chat"]
    tournament_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    table_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]


ClientMessage = Annotated[SubscribeMessage | ActMessage | ChatMessage, Field(discriminator="action")]


# -- Step Functions task inputs (infra/workflows.py: {"step": ..., "tournament_id": ..., ...}) ---------------------


class Task(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    tournament_id: Annotated[str, StringConstraints(min_length=1)]


class CloseRegistrationTask(Task):
    step: Literal["close_registration"]


class SeatBatchTask(Task):
    step: Literal["seat_batch"]
    batch: Annotated[int, Field(ge=0)]


class DealFirstHandsTask(Task):
    """Deal at the tables of one batch (``batch``, as the Map state passes it) or at the tables named."""

    step: Literal["deal_first_hands"]
    batch: Annotated[int, Field(ge=0)] | None = None
    tables: list[str] | None = None


StartTask = Annotated[CloseRegistrationTask | SeatBatchTask | DealFirstHandsTask, Field(discriminator="step")]


class CancelHandsTask(Task):
    step: Literal["cancel_hands"]


class TryRestartTask(Task):
    step: Literal["try_restart"]
    terminated_at: datetime | None = None


class CompensateTask(Task):
    step: Literal["compensate"]


RecoveryTask = Annotated[CancelHandsTask | TryRestartTask | CompensateTask, Field(discriminator="step")]
