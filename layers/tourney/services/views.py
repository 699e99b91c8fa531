"""What the services return: frozen dataclasses the handlers answer as JSON (``to_dict``).

Money is integer cents; times are ISO-8601 UTC strings in ``to_dict``
(docs/interfaces.md). Cards are text (``"Ah"``). A view never holds a hole card its
viewer may not see: the services build them per viewer.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from tourney.domain.cards import card_str
from tourney.domain.prizes import Placing

if TYPE_CHECKING:
    from collections.abc import Mapping

    from _typeshed import DataclassInstance

    from tourney.domain.table import Table

EMPTY: Mapping[int, str] = MappingProxyType({})


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, View):
        return value.to_dict()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class View:
    """What every view (a frozen dataclass, but for ``ActionOutcome``) shares: its plain-data form."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        fields = dataclasses.fields(cast("DataclassInstance", self))  # every view is a dataclass
        return {f.name: _plain(getattr(self, f.name)) for f in fields}


# -- lobby ----------------------------------------------------------------------


@dataclass(frozen=True)
class LevelView(View):
    level: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    minutes: int


@dataclass(frozen=True)
class TournamentSummary(View):
    """One line of the lobby (docs/interfaces.md ``GET /tournaments``)."""

    id: str
    name: str
    format: str
    status: str
    buy_in: int
    entry_fee: int
    guarantee: int
    max_players: int
    start_at: datetime | None
    registered: int
    waitlisted: int


@dataclass(frozen=True)
class TournamentDetails(View):
    """``GET /tournaments/{id}``: structure, payouts, status and counts."""

    id: str
    name: str
    format: str
    status: str
    buy_in: int
    entry_fee: int
    guarantee: int
    min_players: int
    max_players: int
    seats_per_table: int
    starting_stack: int
    decision_seconds: int
    announce_at: datetime
    start_at: datetime | None
    started_at: datetime | None
    ended_at: datetime | None
    registered: int
    waitlisted: int
    levels: tuple[LevelView, ...]
    payout_percent: tuple[str, ...]
    """Percent of the pool per place for the current field (or the fixed payout), as decimal text."""
    rebuy_levels: tuple[tuple[int, int], ...] = ()
    add_on_chips: int | None = None


@dataclass(frozen=True)
class MyRegistration(View):
    """``GET /tournaments/{id}/registrations/me``: ``position`` on the waiting list only."""

    tournament_id: str
    player: str
    status: str
    position: int | None = None


@dataclass(frozen=True)
class StandingRow(View):
    player: str
    chips: int
    table: str
    name: str = ""
    """The player's display name (their id when they chose none)."""


@dataclass(frozen=True)
class Standings(View):
    """``GET /tournaments/{id}/standings``: players left and their chips, largest first."""

    tournament_id: str
    status: str
    players_left: int
    average_stack: int
    level: int
    small_blind: int
    big_blind: int
    ante: int
    seconds_to_next_level: int | None
    players: tuple[StandingRow, ...]
    places: tuple[PlaceView, ...] = ()
    prize_pool: int = 0
    """Cents: the pool paid out once fixed; before that what the entrants have paid in (rebuys and add-ons
    included), or the guarantee when it is more."""


@dataclass(frozen=True)
class PlaceView(View):
    player: str
    place: int
    prize: int
    name: str = ""
    """The player's display name (their id when they chose none)."""


@dataclass(frozen=True)
class LastActionView(View):
    """A seat's last action of the street (``seats[].last_action``): fold, check, call, bet or raise.

    ``amount``: for a call, a bet or a raise, the seat's whole bet of the street after it (``seats[].bet``);
    None for a fold or a check. ``all_in``: it put the seat all in.
    """

    kind: str
    amount: int | None = None
    all_in: bool = False


@dataclass(frozen=True)
class SeatView(View):
    seat: int
    player: str
    stack: int
    bet: int = 0
    status: str = "waiting"
    """``in``, ``folded``, ``all_in`` in a hand; ``waiting`` when not dealt in."""
    away: bool = False
    cards: tuple[str, ...] = ()
    """Hole cards: the viewer's own, or shown ones; empty otherwise."""
    time_bank: int = 0
    """Seconds left in the player's time bank (docs/rules.md, 'Defaults')."""
    last_action: LastActionView | None = None
    """The seat's last action of the current street of the hand in progress; None before it acts on it."""
    name: str = ""
    """The player's display name (their id when they chose none)."""


@dataclass(frozen=True)
class ToAct(View):
    seat: int
    player: str
    seq: int
    seconds: int
    to_call: int = 0
    can_check: bool = False
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    time_bank: int = 0
    """The actor's time bank, spent when ``seconds`` run out (0 when away: never spent then)."""
    on_time_bank: bool = False
    """The decision's own time ran out: ``seconds`` is the time bank running now."""
    deadline: datetime | None = None
    """When the decision's own time runs out (ISO-8601 UTC), whenever the view is read: a client's clock
    survives a reload. Once the time bank runs, when it ran out."""
    bank_deadline: datetime | None = None
    """Once the time bank runs (``on_time_bank``): when the bank runs out, and the time-out applies."""


@dataclass(frozen=True)
class PotView(View):
    """One pot in the middle: its chips and the seats that may still win it."""

    amount: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class DrawnCardView(View):
    """One player's card in a table's draw for the button (docs/rules.md, rule 6; the final table's redraw, rule 12)."""

    seat: int
    player: str | None
    card: str


def shown_draw(table: Table, players: Mapping[int, str] = EMPTY) -> tuple[DrawnCardView, ...] | None:
    """The table's button draw, if its current hand is its first after the draw (docs/openapi.json, ``button_draw``).

    Before that hand is dealt, while it is played and once it is over, until the next hand is dealt; None
    for any other hand. ``players``: who sat in each seat for that hand (the hand's own players); the table's
    seats name the others, and a seat left since the draw is a ``None`` player.
    """
    draw = table.button_draw
    if draw is None or (draw.hand != table.hand_number and table.last_positions is not None):
        return None
    sitting = {seat: sp.player for seat, sp in table.seats.items()}
    return tuple(
        DrawnCardView(d.seat, players.get(d.seat) or sitting.get(d.seat), card_str(d.card)) for d in draw.cards
    )


@dataclass(frozen=True)
class TableView(View):
    """``GET /tournaments/{id}/tables/{table}``: the viewer's view (own hole cards only)."""

    tournament_id: str
    table: str
    hand: int
    hand_in_progress: bool
    seq: int
    street: str
    board: tuple[str, ...]
    pot: int
    button: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    seats: tuple[SeatView, ...]
    level: int
    to_act: ToAct | None = None
    your_seat: int | None = None
    closed: bool = False
    commitment: str | None = None
    """The commitment to the deck of the hand dealt (docs/interfaces.md, 'Provably fair deals')."""
    pots: tuple[PotView, ...] = ()
    """The main pot, then the side pots, as the dealer has gathered them: the chips of the streets before
    this one (antes and dead chips included), each pot with the seats still holding cards that may win it.
    The bets of the current street stay in front of the seats (``seats[].bet``) until the street ends, so
    ``sum(p.amount for p in pots) + sum(s.bet for s in seats) == pot`` at every point of a hand; empty
    between hands (``pot`` is 0 then) and before the first street's bets are gathered, when no ante was
    posted. The same for every viewer."""
    button_draw: tuple[DrawnCardView, ...] | None = None
    """Each player's card in the draw for the button, in the view of the table's first hand after a draw
    (its first hand, and the final table's first after its redraw); None for every other hand."""
    hand_for_hand: bool = False
    """Hand-for-hand holds the table: it plays the bubble one hand at a time with every other table."""


@dataclass(frozen=True)
class HandHistoryView(View):
    """``GET /tournaments/{id}/tables/{table}/hands/{hand}``: PHH and PokerStars text for this viewer.

    ``fairness``: the deck's commitment with the cards this viewer saw (the board, hands shown, their own)
    and their salts, and only the leaves of the rest (``tourney.domain.fairness.Reveal.to_dict``).
    """

    tournament_id: str
    table: str
    hand: int
    phh: str
    pokerstars: str
    fairness: dict[str, Any] | None = None
    button_draw: tuple[DrawnCardView, ...] | None = None
    """Each player's card in the table's draw for the button, when this hand was the first dealt from it."""


# -- accounts -------------------------------------------------------------------


@dataclass(frozen=True)
class ProfileView(View):
    """``GET`` and ``PUT /me/profile``: the caller's display name (None: not chosen, their id is shown)."""

    player_id: str
    display_name: str | None


@dataclass(frozen=True)
class AccountView(View):
    player: str
    balance: int


@dataclass(frozen=True)
class LedgerLine(View):
    key: str
    kind: str
    tournament_id: str | None
    amount: int
    """What the entry added to the player's balance (negative: a debit)."""
    at: datetime


@dataclass(frozen=True)
class LedgerView(View):
    player: str
    balance: int
    entries: tuple[LedgerLine, ...]


@dataclass(frozen=True)
class DepositView(View):
    player: str
    amount: int
    balance: int
    key: str


# -- registration ---------------------------------------------------------------


@dataclass(frozen=True)
class RegistrationView(View):
    """``POST /tournaments/{id}/registrations``: 201 ``{status, position?}``."""

    tournament_id: str
    player: str
    status: str
    position: int | None
    paid: int


@dataclass(frozen=True)
class UnregistrationView(View):
    tournament_id: str
    player: str
    refunded: int
    promoted: str | None = None


# -- admin ----------------------------------------------------------------------


@dataclass(frozen=True)
class Created(View):
    """``POST /admin/tournaments``: 201 ``{id}``."""

    id: str
    status: str
    start_at: datetime | None = None


@dataclass(frozen=True)
class Terminated(View):
    tournament_id: str
    status: str
    terminated_at: datetime | None
    cancelled_hands: int = 0


@dataclass(frozen=True)
class Cancelled(View):
    """``POST /admin/tournaments/{id}/cancel``: cancelled before the start, everyone refunded in full."""

    tournament_id: str
    status: str
    refunded: int
    """Registrations refunded by this request (0 when a previous cancel had refunded them)."""
    cancelled_at: datetime | None


@dataclass(frozen=True)
class Restarted(View):
    """``POST /admin/tournaments/{id}/restart``: running again, at the level it stopped in (rule 17.2)."""

    tournament_id: str
    status: str
    terminated_at: datetime | None
    restarted_at: datetime | None
    level: int


@dataclass(frozen=True)
class PaymentLine(View):
    """What compensation pays one player: ``amount`` in all (fees back and money from the pool)."""

    player: str
    name: str
    amount: int


@dataclass(frozen=True)
class RecoveryReport(View):
    """``GET /admin/tournaments/{id}/recovery``: a terminated tournament's recovery as it stands (rule 17).

    ``outcome``: ``pending`` (the restart window is open, or compensation is being paid), ``restarted`` or
    ``compensated``. ``rule``: rule 17.3's outcome (``rollback``, ``payout``, ``refund_share``): the plan's once
    fixed (``plan_fixed``), before that what the facts give now; null once restarted. Amounts in cents, once the plan
    is fixed: ``paid_total`` to ``players_paid`` players, ``overlay`` what the house added to the pool, ``payments``
    the largest ``PAYMENTS_SHOWN``.
    """

    tournament_id: str
    status: str
    outcome: str
    terminated_at: datetime
    terminated_by: str
    reason: str
    restart_deadline: datetime
    window_seconds_left: int
    restarted_at: datetime | None = None
    rule: str | None = None
    plan_fixed: bool = False
    compensated_at: datetime | None = None
    paid_total: int | None = None
    players_paid: int | None = None
    overlay: int | None = None
    payments: tuple[PaymentLine, ...] = ()


# -- play -----------------------------------------------------------------------


@dataclass(slots=True)  # not frozen, unlike the other views: one is built per action, a frozen one costs twice as much
class ActionOutcome(View):
    """An action (or a time-out) applied: the decision awaited next, or the hand over."""

    tournament_id: str
    table: str
    hand: int
    seq: int
    action: str
    amount: int | None
    hand_over: bool
    next_to_act: int | None = None


@dataclass(frozen=True)
class PurchaseView(View):
    """A rebuy or add-on bought: ``chips`` added now, or when the buyer's hand ends (``pending``)."""

    tournament_id: str
    player: str
    kind: str
    paid: int
    chips: int
    pending: bool = False


@dataclass(frozen=True)
class PresenceView(View):
    tournament_id: str
    player: str
    table: str
    away: bool


# -- start, coordination, recovery -------------------------------------------------


@dataclass(frozen=True)
class StartDue(View):
    tournament_id: str
    started: bool
    reason: str = ""


@dataclass(frozen=True)
class BatchSeated(View):
    tournament_id: str
    batch: int
    tables: tuple[str, ...]


@dataclass(frozen=True)
class HandsDealt(View):
    tournament_id: str
    tables: tuple[str, ...]
    started_at: datetime | None


@dataclass(frozen=True)
class Coordinated(View):
    """What the coordinator did with one message (``duplicate``: nothing)."""

    tournament_id: str
    table: str
    hand: int
    duplicate: bool = False
    placed: tuple[PlaceView, ...] = ()
    moves: int = 0
    dealt: tuple[str, ...] = ()
    finished: bool = False
    waiting_for_rebuys: tuple[str, ...] = ()
    held: bool = False
    """Hand-for-hand holds the table until the round's other tables finish their hands."""
    hand_for_hand_round: dict[str, Any] | None = None
    """The hand-for-hand round this hand's end completed (``RoundPlayed.to_report``)."""


@dataclass(frozen=True)
class RecoveryStep(View):
    """One step of the recovery workflow: ``outcome`` tells the workflow what comes next."""

    tournament_id: str
    outcome: str
    """``cancelled``, ``restarted``, ``retry``, ``rollback``, ``payout``, ``refund_share``, ``nothing``."""
    cancelled_hands: int = 0
    seconds_left: int = 0
    paid: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class SweepReport(View):
    refunded: tuple[str, ...] = ()
    players_refunded: int = 0
    started: tuple[str, ...] = ()
    """Full Sit&Gos whose start workflow was requested (again)."""
    failed: tuple[str, ...] = ()
    """Tournaments whose sweep raised (logged as errors, counted; the others were swept all the same)."""


@dataclass(frozen=True)
class WatchReport(View):
    terminated: tuple[str, ...] = ()
    resent: tuple[str, ...] = ()
    rearmed: tuple[str, ...] = ()
    running_tournaments: int = 0
    """Tournaments running at this watch (the dashboard's active tournaments)."""
    open_tables: int = 0
    """Their tables still in play (the dashboard's active tables)."""
    recovering: tuple[str, ...] = ()
    """Terminated tournaments whose recovery workflow was requested again (lost, or failed: rule 17)."""
    starting: tuple[str, ...] = ()
    """Running tournaments whose start workflow failed before every table dealt, started again."""
    resumed: tuple[str, ...] = ()
    """Tables a restart left halted (its invocation died before it resumed them), resumed now (rule 17.2)."""
    failed: tuple[str, ...] = ()
    """Tournaments whose check raised (logged as errors, counted; the others were checked all the same)."""


def placed_push(tournament_id: str, placing: Placing) -> dict[str, Any]:
    """The ``placed`` push to a player whose place is decided (docs/interfaces.md): place, last place, prize."""
    return {"event": "placed", "tournament_id": tournament_id, **dataclasses.asdict(placing)}
