"""The operators' management routes at the edge (rule 19; docs/interfaces.md, ``/admin/*``): bodies and services.

Request bodies for stack adjustments, disqualifications, mutes and balance
adjustments (strict integers, bounded; a reason for every act), the answers'
models, and the ``Depends`` aliases that hand the routes the management and
audit services (built on first use, as ``dependencies.py`` does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final

from aws_lambda_powertools.event_handler import Depends
from pydantic import Field, StringConstraints, field_validator

from tourney.entrypoints.dependencies import ServicesDep
from tourney.entrypoints.models import MAX_CENTS, Answer, Request

if TYPE_CHECKING:
    from tourney.services.audit import AuditService
    from tourney.services.management import ManagementService
    from tourney.services.recovery_report import RecoveryReportService
else:  # resolved by Powertools when the routes are declared; the classes load with the services
    AuditService = ManagementService = RecoveryReportService = Any

MAX_STACK_DELTA: Final = 1_000_000_000
"""The largest stack adjustment either way, in chips (``services.management.MAX_STACK_ADJUSTMENT``)."""
MAX_MUTE_MINUTES: Final = 525_600
"""A year (``services.management.MAX_MUTE_MINUTES``)."""

Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
Key = Annotated[str, StringConstraints(min_length=1, max_length=128)]


def _not_zero(value: int) -> int:
    if value == 0:
        raise ValueError("zero changes nothing")
    return value


class StackRequest(Request):
    """Chips added (positive) or removed (negative) at the player's table, between hands."""

    delta: Annotated[int, Field(strict=True, ge=-MAX_STACK_DELTA, le=MAX_STACK_DELTA, description="chips, not 0")]
    reason: Reason
    key: Key | None = Field(default=None, description="idempotency key of the act (default: Idempotency-Key)")

    _delta = field_validator("delta")(_not_zero)


class DisqualifyRequest(Request):
    reason: Reason


class MuteRequest(Request):
    reason: Reason
    minutes: Annotated[int, Field(strict=True, ge=1, le=MAX_MUTE_MINUTES)] | None = Field(
        default=None, description="how long (default: until unmuted)"
    )
    key: Key | None = None


class UnmuteRequest(Request):
    reason: Reason = "unmuted by an operator"
    key: Key | None = None


class AdjustmentRequest(Request):
    """Cents to the player's account (negative: taken), against the house's adjustments account."""

    amount: Annotated[int, Field(strict=True, ge=-MAX_CENTS, le=MAX_CENTS, description="integer cents, not 0")]
    reason: Reason
    key: Key | None = Field(default=None, description="idempotency key of the entry (default: Idempotency-Key)")

    _amount = field_validator("amount")(_not_zero)


class AuditRecordBody(Answer):
    """One operator act (docs/interfaces.md ``GET /admin/audit``)."""

    id: str
    at: str
    operator: str
    act: str
    reason: str
    tournament: str | None = None
    player: str | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None


class AuditBody(Answer):
    records: list[AuditRecordBody]


class PaymentBody(Answer):
    player: str
    name: str = Field(description="the player's display name (their id when they chose none)")
    amount: int = Field(description="cents paid to the player by the compensation (fees back and pool money)")


class RecoveryBody(Answer):
    """A terminated tournament's recovery (docs/interfaces.md ``GET /admin/tournaments/{id}/recovery``)."""

    tournament_id: str
    status: str
    outcome: str = Field(description="pending, restarted or compensated")
    terminated_at: str
    terminated_by: str
    reason: str
    restart_deadline: str = Field(description="termination + 20:00.000: no restart from then on")
    window_seconds_left: int = Field(description="whole seconds left to restart, rounded up; 0 once closed")
    restarted_at: str | None = None
    rule: str | None = Field(
        default=None, description="rule 17.3: rollback, payout or refund_share (the plan's once plan_fixed)"
    )
    plan_fixed: bool = False
    compensated_at: str | None = None
    paid_total: int | None = Field(default=None, description="cents paid to the players in all, once the plan is fixed")
    players_paid: int | None = None
    overlay: int | None = Field(default=None, description="cents the house added to the pool for the compensation")
    payments: list[PaymentBody] = Field(default_factory=list, description="the largest 100 payments, largest first")


def recovery_report_service(svc: ServicesDep) -> RecoveryReportService:
    return svc.recovery_report


def management_service(svc: ServicesDep) -> ManagementService:
    return svc.management


def audit_service(svc: ServicesDep) -> AuditService:
    return svc.audit


Management = Annotated[ManagementService, Depends(management_service)]
Audit = Annotated[AuditService, Depends(audit_service)]
Recovery = Annotated[RecoveryReportService, Depends(recovery_report_service)]

__all__ = [
    "AdjustmentRequest",
    "Audit",
    "AuditBody",
    "DisqualifyRequest",
    "Management",
    "MuteRequest",
    "Recovery",
    "RecoveryBody",
    "StackRequest",
    "UnmuteRequest",
]
