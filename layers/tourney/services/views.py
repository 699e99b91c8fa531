"""What the services return: frozen dataclasses the handlers answer as JSON (``to_dict``).

Money is integer cents; times are ISO-8601 UTC strings in ``to_dict``
(docs/interfaces.md). Cards are text (``"Ah"``). A view never holds a hole card its
viewer may not see: the services build them per viewer.
"""

from __future__ import annotations

import dataclasses
import reprlib
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, dataclass_transform

from tourney.domain.cards import card_str

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from _typeshed import DataclassInstance

    from tourney.domain.prizes import Placing
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


class FrozenView(View):
    """The methods :func:`view` shares between its classes: those a frozen dataclass would compile for each one."""

    __slots__ = ()
    _names: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._names)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names)
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _initializer(names: tuple[str, ...], defaults: Mapping[str, Any]) -> Callable[..., None]:
    """The ``__init__`` of a frozen dataclass with these fields (positional or keyword), without compiling one:
    as fast as the compiled one, and refusing what it refuses with a ``TypeError``."""
    arity, known = len(names), frozenset(names)

    def __init__(self: FrozenView, *args: Any, **kwargs: Any) -> None:
        values = dict(defaults)
        if args:
            values.update(zip(names, args, strict=False))
        values.update(kwargs)
        if len(args) > arity or values.keys() != known or (args and not kwargs.keys().isdisjoint(names[: len(args)])):
            raise TypeError(_refusal(type(self).__name__, names, values, args, kwargs))
        self.__dict__.update(values)

    return __init__


def _refusal(view: str, names: tuple[str, ...], values: Mapping[str, Any], args: tuple[Any, ...], kwargs: Any) -> str:
    if len(args) > len(names):
        return f"{view}() takes {len(names)} arguments but {len(args)} were given"
    twice = [name for name in names[: len(args)] if name in kwargs]
    if twice:
        return f"{view}() got multiple values for argument {twice[0]!r}"
    unknown = [name for name in kwargs if name not in names]
    if unknown:
        return f"{view}() got an unexpected keyword argument {unknown[0]!r}"
    return f"{view}() missing arguments: {', '.join(name for name in names if name not in values)}"


_View = TypeVar("_View", bound=FrozenView)


@dataclass_transform(frozen_default=True)
def view(cls: type[_View]) -> type[_View]:
    """A frozen dataclass, its fields and behaviour those of ``@dataclass(frozen=True)``, whose methods are shared
    (:class:`FrozenView`) rather than compiled for each class: Python 3.12 compiles six functions for each frozen
    dataclass, which made this module most of a handler's import (docs/performance.md)."""
    if cls.__doc__ is None:  # what ``dataclass`` would write, without the inspect.signature that is most of its cost
        cls.__doc__ = f"{cls.__name__}({', '.join(cls.__annotations__)})"
    dataclass(init=False, repr=False, eq=False)(cls)  # the fields (what pydantic and ``dataclasses`` read), no code
    cls.__dataclass_params__.frozen = True  # type: ignore[attr-defined]  # so that frozen dataclasses may extend it
    fields = dataclasses.fields(cast("DataclassInstance", cls))
    cls._names = tuple(f.name for f in fields)
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    cls.__init__ = _initializer(cls._names, defaults)  # type: ignore[method-assign]
    return cls


# -- lobby ----------------------------------------------------------------------


@view
class LevelView(FrozenView):
    level: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    minutes: int


@view
class TournamentSummary(FrozenView):
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


@view
class TournamentDetails(FrozenView):
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


@view
class MyRegistration(FrozenView):
    """``GET /tournaments/{id}/registrations/me``: ``position`` on the waiting list only."""

    tournament_id: str
    player: str
    status: str
    position: int | None = None


@view
class StandingRow(FrozenView):
    player: str
    chips: int
    table: str
    name: str = ""
    """The player's display name (their id when they chose none)."""


@view
class Standings(FrozenView):
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


@view
class PlaceView(FrozenView):
    player: str
    place: int
    prize: int
    name: str = ""
    """The player's display name (their id when they chose none)."""


@view
class LastActionView(FrozenView):
    """A seat's last action of the street (``seats[].last_action``): fold, check, call, bet or raise.

    ``amount``: for a call, a bet or a raise, the seat's whole bet of the street after it (``seats[].bet``);
    None for a fold or a check. ``all_in``: it put the seat all in.
    """

    kind: str
    amount: int | None = None
    all_in: bool = False


@view
class SeatView(FrozenView):
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


@view
class ToAct(FrozenView):
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


@view
class PotView(FrozenView):
    """One pot in the middle: its chips and the seats that may still win it."""

    amount: int
    seats: tuple[int, ...]


@view
class DrawnCardView(FrozenView):
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


@view
class TableView(FrozenView):
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


@view
class HandHistoryView(FrozenView):
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


@view
class ProfileView(FrozenView):
    """``GET`` and ``PUT /me/profile``: the caller's display name (None: not chosen, their id is shown)."""

    player_id: str
    display_name: str | None


@view
class AccountView(FrozenView):
    player: str
    balance: int


@view
class LedgerLine(FrozenView):
    key: str
    kind: str
    tournament_id: str | None
    amount: int
    """What the entry added to the player's balance (negative: a debit)."""
    at: datetime


@view
class LedgerView(FrozenView):
    player: str
    balance: int
    entries: tuple[LedgerLine, ...]


@view
class DepositView(FrozenView):
    player: str
    amount: int
    balance: int
    key: str


# -- registration ---------------------------------------------------------------


@view
class RegistrationView(FrozenView):
    """``POST /tournaments/{id}/registrations``: 201 ``{status, position?}``."""

    tournament_id: str
    player: str
    status: str
    position: int | None
    paid: int


@view
class UnregistrationView(FrozenView):
    tournament_id: str
    player: str
    refunded: int
    promoted: str | None = None


# -- admin ----------------------------------------------------------------------


@view
class Created(FrozenView):
    """``POST /admin/tournaments``: 201 ``{id}``."""

    id: str
    status: str
    start_at: datetime | None = None


@view
class Terminated(FrozenView):
    tournament_id: str
    status: str
    terminated_at: datetime | None
    cancelled_hands: int = 0


@view
class Cancelled(FrozenView):
    """``POST /admin/tournaments/{id}/cancel``: cancelled before the start, everyone refunded in full."""

    tournament_id: str
    status: str
    refunded: int
    """Registrations refunded by this request (0 when a previous cancel had refunded them)."""
    cancelled_at: datetime | None


@view
class Restarted(FrozenView):
    """``POST /admin/tournaments/{id}/restart``: running again, at the level it stopped in (rule 17.2)."""

    tournament_id: str
    status: str
    terminated_at: datetime | None
    restarted_at: datetime | None
    level: int


@view
class PaymentLine(FrozenView):
    """What compensation pays one player: ``amount`` in all (fees back and money from the pool)."""

    player: str
    name: str
    amount: int


@view
class RecoveryReport(FrozenView):
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


@view
class PurchaseView(FrozenView):
    """A rebuy or add-on bought: ``chips`` added now, or when the buyer's hand ends (``pending``)."""

    tournament_id: str
    player: str
    kind: str
    paid: int
    chips: int
    pending: bool = False


@view
class PresenceView(FrozenView):
    tournament_id: str
    player: str
    table: str
    away: bool


# -- start, coordination, recovery -------------------------------------------------


@view
class StartDue(FrozenView):
    tournament_id: str
    started: bool
    reason: str = ""


@view
class BatchSeated(FrozenView):
    tournament_id: str
    batch: int
    tables: tuple[str, ...]


@view
class HandsDealt(FrozenView):
    tournament_id: str
    tables: tuple[str, ...]
    started_at: datetime | None


@view
class Coordinated(FrozenView):
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


@view
class RecoveryStep(FrozenView):
    """One step of the recovery workflow: ``outcome`` tells the workflow what comes next."""

    tournament_id: str
    outcome: str
    """``cancelled``, ``restarted``, ``retry``, ``rollback``, ``payout``, ``refund_share``, ``nothing``."""
    cancelled_hands: int = 0
    seconds_left: int = 0
    paid: tuple[tuple[str, int], ...] = ()


@view
class SweepReport(FrozenView):
    refunded: tuple[str, ...] = ()
    players_refunded: int = 0
    started: tuple[str, ...] = ()
    """Full Sit&Gos whose start workflow was requested (again)."""
    failed: tuple[str, ...] = ()
    """Tournaments whose sweep raised (logged as errors, counted; the others were swept all the same)."""


@view
class WatchReport(FrozenView):
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
