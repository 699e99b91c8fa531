"""Request and response models at the edge (docs/interfaces.md, 'HTTP API' and 'WebSocket API').

Money is integer cents and chips are integers: amounts are strict integers (a
JSON string or a float is refused, never coerced) and never negative. Unknown
fields are refused, so a misspelt option is a 422, not silently ignored.
Responses that are not a service view are declared here too, so the OpenAPI
spec names every field.

Every number has a maximum (docs/operations.md, 'Input
limits'), so that no amount a caller sends can overflow a DynamoDB number (38
digits) or a date computed from it: any one amount of money at most
``MAX_CENTS``, chips at most ``MAX_CHIPS``, a field at most ``MAX_PLAYERS``,
times zone-aware (a naive ``start_at`` is a 422) and within ``EARLIEST`` and
``LATEST``. The request body itself is bounded in ``entrypoints/resolver.py``.

>>> DepositRequest(amount=MAX_CENTS).amount
1000000000
>>> from pydantic import ValidationError
>>> try:
...     DepositRequest(amount=10**130)
... except ValidationError as error:
...     print(error.errors()[0]["type"])
less_than_equal
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Final, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

ActionName = Literal["fold", "check", "call", "bet", "raise"]
"""``tourney.domain.hand.actions.ActionKind``'s values, spelt out: importing the hand package loads the
evaluator's tables (about 70 ms), which a handler module must not pay at import (a test keeps them equal)."""

MAX_CENTS: Final = 1_000_000_000
"""The largest amount of money one request may name: 10,000,000.00 (a buy-in, a fee, a guarantee, a deposit)."""
MAX_CHIPS: Final = 1_000_000_000_000
"""The largest number of chips one request may name (a bet, a starting stack, an add-on)."""
MAX_PLAYERS: Final = 250_000
"""The largest field (``tourney.domain.structure.DEFAULT_MAX_PLAYERS``)."""
MAX_HAND: Final = 1_000_000_000
"""The largest hand number at a table, and the largest decision sequence number in a hand."""
MAX_LEVEL: Final = 1_000
"""The largest blind level a request may name (a rebuy period's first or last)."""
EARLIEST: Final = datetime(2000, 1, 1, tzinfo=UTC)
LATEST: Final = datetime(2100, 1, 1, tzinfo=UTC)
"""Times a request may name lie in [EARLIEST, LATEST): dates computed from them never overflow."""


_ISO_DATE_TIME: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _iso_text(value: object) -> object:
    """ISO-8601 text only: a bare number would be read as seconds since 1970, a date alone as its midnight."""
    if isinstance(value, datetime):
        return value  # built in Python, not read from a request
    if not isinstance(value, str) or not _ISO_DATE_TIME.match(value):
        raise ValueError("a time is ISO-8601 text with a date, a time and an offset: 2030-01-05T18:00:00Z")
    return value


def _in_range(moment: datetime) -> datetime:
    if not EARLIEST <= moment < LATEST:
        raise ValueError(f"times lie between {EARLIEST.date()} and {LATEST.date()}")
    return moment


Cents = Annotated[int, Field(strict=True, ge=0, le=MAX_CENTS, description="integer cents")]
PositiveCents = Annotated[int, Field(strict=True, gt=0, le=MAX_CENTS, description="integer cents, above zero")]
Chips = Annotated[int, Field(strict=True, ge=0, le=MAX_CHIPS, description="chips")]
PositiveChips = Annotated[int, Field(strict=True, ge=1, le=MAX_CHIPS, description="chips, above zero")]
Count = Annotated[int, Field(strict=True, ge=0)]
Players = Annotated[int, Field(strict=True, ge=2, le=MAX_PLAYERS)]
Level = Annotated[int, Field(strict=True, ge=1, le=MAX_LEVEL)]
HandNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_HAND, description="the hand's number at the table")]
DecisionSeq = Annotated[
    int, Field(strict=True, ge=0, le=MAX_HAND, description="the decision's sequence number in the hand")
]
Moment = Annotated[AwareDatetime, BeforeValidator(_iso_text), AfterValidator(_in_range)]
"""An ISO-8601 time with its offset (``Z`` or ``+hh:mm``): a naive time is refused, not guessed."""
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
PLAYER_ID_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
"""A player id, as tokens name players (``sub``: a Cognito user's UUID; the local stack's names,
``infra/local/web_client.py``): a letter or digit, then up to 63 letters, digits, ``_``, ``.`` or ``-``."""


class Request(BaseModel):
    # Each model's validator is built when it first validates (a handler module imports every model its routes name,
    # an invocation uses one or two): the same checks, less work at a cold start.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Answer(BaseModel):
    # An answer's body: its serializer is built when a route first answers with it, as a request's validator is.
    model_config = ConfigDict(defer_build=True)


AMOUNT_ACTIONS: Final = frozenset({"bet", "raise"})
"""The decisions that carry an amount (the total the bet or raise goes to); a fold, check or call names none."""


def _amount_only_to_bet_or_raise(kind_field: str) -> Callable[[int | None, ValidationInfo], int | None]:
    """A check of ``amount`` against the decision named by ``kind_field`` (declared before it)."""

    def check(amount: int | None, info: ValidationInfo) -> int | None:
        kind = info.data.get(kind_field)
        if amount is not None and kind is not None and kind not in AMOUNT_ACTIONS:
            raise ValueError(f"a {kind} carries no amount: only a bet or a raise does")
        return amount

    return check


# -- players ---------------------------------------------------------------------


class ProfileRequest(Request):
    """``PUT /me/profile``: the display name chosen (its rule is checked by the service: 422 with the reason)."""

    display_name: Annotated[str, StringConstraints(max_length=100)] = Field(
        description="3 to 20 characters: letters, digits, '_', '-', spaces inside; unique regardless of case"
    )


class ActionRequest(Request):
    """A decision at the caller's seat: ``hand`` and ``seq`` name the decision awaited (a stale one is a 409)."""

    hand: HandNumber
    seq: DecisionSeq
    action: ActionName
    amount: Chips | None = Field(default=None, description="bet or raise: the total the bet or raise goes to")

    _amount = field_validator("amount")(_amount_only_to_bet_or_raise("action"))


class RegistrationStatus(Answer):
    """The caller's registration: ``position`` on the waiting list (1 first) when wait-listed."""

    status: Literal["registered", "waitlisted", "unregistered", "refunded"]
    position: int | None = None


# -- operators -------------------------------------------------------------------


class TournamentCreated(Answer):
    id: str


Reason = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=500),
    Field(description="why, kept in the audit: required, not blank (422 otherwise)"),
]
"""An operator's reason for an act: stripped, at least one character (docs/rules.md, rule 19; docs/openapi.json)."""


class TerminateRequest(Request):
    reason: Reason


class CancelRequest(Request):
    reason: Reason


class RestartRequest(Request):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] = "restarted by an operator"


class DepositRequest(Request):
    amount: PositiveCents
    key: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = Field(
        default=None, description="idempotency key of the deposit (default: the Idempotency-Key header)"
    )


class Accepted(Answer):
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
    hand: HandNumber
    seq: DecisionSeq
    kind: ActionName = Field(description="fold, check, call, bet or raise")
    amount: Chips | None = Field(default=None, description="bet or raise: the total the bet or raise goes to")

    _amount = field_validator("amount")(_amount_only_to_bet_or_raise("kind"))


class ChatMessage(Request):
    """Table chat (docs/rules.md, rule 18): limited length, no chat from players dealt in the hand in progress."""

    action: Literal["chat"]
    tournament_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    table_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]


ClientMessage = Annotated[SubscribeMessage | ActMessage | ChatMessage, Field(discriminator="action")]


# -- Step Functions task inputs (infra/workflow_states.py: {"step": ..., "tournament_id": ..., ...}) ---------------


class Task(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)

    tournament_id: Annotated[str, StringConstraints(min_length=1)]


class CloseRegistrationTask(Task):
    step: Literal["close_registration"]


class SeatBatchTask(Task):
    step: Literal["seat_batch"]
    batch: Annotated[int, Field(ge=0)]


class DealFirstHandsTask(Task):
    """Deal at the tables of one batch (``batch``, as the Map state passes it)."""

    step: Literal["deal_first_hands"]
    batch: Annotated[int, Field(ge=0)]


StartTask = Annotated[CloseRegistrationTask | SeatBatchTask | DealFirstHandsTask, Field(discriminator="step")]


class CancelHandsTask(Task):
    step: Literal["cancel_hands"]


class TryRestartTask(Task):
    step: Literal["try_restart"]
    terminated_at: datetime | None = None


class CompensateTask(Task):
    step: Literal["compensate"]


RecoveryTask = Annotated[CancelHandsTask | TryRestartTask | CompensateTask, Field(discriminator="step")]
