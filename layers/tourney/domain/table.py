"""One tournament table: seats, stacks, away players and the hand being played (rules 6-8, 13, 14, 16, 17).

``Table`` is the aggregate stored as one item per table: everything about a
table that changes during play, written back on its version after each action.
It is pure and plain: ``to_dict``/``from_dict`` give and take ints, strings,
bools, lists and string-keyed dicts only, the hand in progress included.

How a table plays:

* Seats are numbered 1 to ``seat_count`` clockwise. A seat holds a player id,
  a stack and an away flag. "Active" means seated with chips.
* Before its first hand the table draws for the button by cards
  (``draw_button``, rule 6); the final table draws again (rule 12).
* ``start_hand`` sets the positions with ``tourney.domain.blinds`` (the big
  blind moves forward) and deals every active player in, newcomers included
  (rule 8) and away players too (rule 16), with the deck the caller shuffled.
  While the hand is played, the seats keep their start-of-hand stacks; the
  hand keeps the live ones. When the hand ends, the finishing stacks are
  written back, the busted players (zero chips) are listed and their seats
  vacated (``HandOver``).
* Players arrive at any time (balancing and breaking send them when the
  *sending* table is between hands): a player seated during a hand sits out
  that hand and is dealt in from the next one, whatever the position.
  Nobody is taken out of a hand in progress: removing, or adding chips to, a
  player dealt in the current hand raises ``HandInProgress`` (rules 11-13).
* An action comes from a player and is applied at their own seat only
  (``NotYourSeat``); it names the hand and the decision (``seq``) it answers,
  so a late or repeated message raises ``StaleAction`` and changes nothing.
* Time-outs (rule 16): when a decision's time runs out, the player checks if
  nothing is to call and folds otherwise (the hand decides which), and is
  marked away. An away player keeps posting and being dealt in, and is given
  the away decision time (docs/rules.md, 'Defaults': 5 s instead of 15 s). They come
  back with ``come_back`` or simply by acting: from their next decision on
  they act themselves. A time-out armed with the away time is stale once the
  player has come back (``armed_for_away``), so the service arms a full-length
  one instead.
* The time bank (docs/rules.md, 'Defaults'): each player's ``TimeBank`` sits with
  them (it moves with a moved player). When a decision's own time runs out
  and the player is not away, ``timeout`` starts the bank instead
  (``BankStarted``); the next time-out, armed for the bank, applies and empties
  it. Acting on the bank spends the whole seconds used. Each level reached adds
  10 seconds, at most 60, counted when a hand is dealt.
* ``cancel_hand`` (rule 17) voids the cards and restores every stack to its
  start-of-hand value; the cancelled hand does not move the button or the
  blinds: the next hand is set from the last hand played out.

Readings fixed here:

1. A busted player's seat is vacated when the hand ends, unless the hand was
   dealt with ``hold_busted_seats`` (a rebuy period: the player may still buy
   chips, docs/rules.md 'Rebuys and add-ons'); then the player stays seated with no
   chips, is not dealt in, and is removed (eliminated) or given chips
   (``add_chips``) by the caller.
2. The "button of the table's last hand" that an arriving player sits next
   to (rule 13) is the button of the hand in progress or last played; before
   the first hand it is the drawn button.
3. The player who drew the button may leave before the table's first hand
   is played out (disqualified during it, the hand cancelled by rule 17):
   the first hand is then dealt from the empty drawn seat, the button moving
   by rule 7 (``blinds.drawn_button_positions``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Final

from tourney.domain.balancing import TableSeats
from tourney.domain.blinds import Occupant, Positions, drawn_button_positions, next_positions, upcoming_big_blind
from tourney.domain.button_draw import ButtonDraw, draw_for_button
from tourney.domain.cards import Card
from tourney.domain.errors import (
    ButtonNotDrawn,
    HandInProgress,
    LastPlayerInPlay,
    NoHandInProgress,
    NotEnoughPlayers,
    NotSeated,
    NotYourSeat,
    NotYourTurn,
    SeatTaken,
    StaleAction,
)
from tourney.domain.hand import ActionKind, Checked, Decision, Folded, Hand, SeatStatus
from tourney.domain.structure import (
    DEFAULT_AWAY_DECISION_SECONDS,
    DEFAULT_DECISION_SECONDS,
    DEFAULT_TIME_BANK_SECONDS,
    MAX_SEATS,
    MIN_SEATS,
    BlindLevel,
)

FORMAT_VERSION = 2
INITIAL_TIME_BANK = DEFAULT_TIME_BANK_SECONDS
TIME_BANK_PER_LEVEL = 10
MAX_TIME_BANK = 60


@dataclass(frozen=True, slots=True)
class TimeBank:
    """A player's time bank (docs/rules.md, 'Defaults'): seconds left, and the last level that credited it (0: none).

    >>> TimeBank().at_level(1), TimeBank().at_level(1).at_level(3).seconds, TimeBank(55, 2).at_level(3).seconds
    (TimeBank(seconds=30, level=1), 50, 60)
    >>> TimeBank(30, 1).spent(12.2).seconds, TimeBank(5, 1).spent(9).seconds
    (17, 0)
    """

    seconds: int = INITIAL_TIME_BANK
    level: int = 0

    def at_level(self, level: int) -> TimeBank:
        """Credited for each level reached since the last one: 10 s a level, at most 60 s in all."""
        if level <= self.level:
            return self
        if self.level == 0:
            return TimeBank(self.seconds, level)  # the first level counted: the bank as it started
        grown = min(MAX_TIME_BANK, self.seconds + TIME_BANK_PER_LEVEL * (level - self.level))
        return TimeBank(max(grown, self.seconds), level)

    def spent(self, seconds: float) -> TimeBank:
        """Less the whole seconds (rounded up) used of it."""
        used = -int(-seconds // 1)
        return TimeBank(max(0, self.seconds - max(0, used)), self.level)


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """Who sits in a seat: the player, their chips (at the start of the hand in progress), away, their time bank."""

    player: str
    stack: int
    away: bool = False
    bank: TimeBank = TimeBank()

    def to_row(self, seat: int) -> list[Any]:
        """``[seat, player, stack, bank seconds, bank level, away (0 or 1)]``: a row of the stored table."""
        return [seat, self.player, self.stack, self.bank.seconds, self.bank.level, int(self.away)]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> tuple[int, SeatedPlayer]:
        seat, player, stack, seconds, level, away = row
        return int(seat), cls(str(player), int(stack), bool(away), TimeBank(int(seconds), int(level)))


@dataclass(frozen=True, slots=True)
class BankRunning:
    """A decision whose own time ran out: the player's time bank runs for it since ``started_at``."""

    hand: int
    seq: int
    seat: int
    started_at: datetime
    seconds: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "seq": self.seq,
            "seat": self.seat,
            "started_at": self.started_at.isoformat(),
            "seconds": self.seconds,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> BankRunning:
        return cls(
            int(raw["hand"]),
            int(raw["seq"]),
            int(raw["seat"]),
            datetime.fromisoformat(str(raw["started_at"])),
            int(raw["seconds"]),
        )


@dataclass(frozen=True, slots=True)
class BankStarted:
    """A time-out did not apply: the player's time bank runs now, for ``seconds`` more."""

    seat: int
    seconds: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A hand was dealt: its number at the table, its positions and the seats dealt in (clockwise from seat 1)."""

    hand: int
    positions: Positions
    seats: tuple[int, ...]


@dataclass(slots=True)
class Awaiting:
    """The decision the table waits for: what a time-out message must name, and how long it may take.

    A fresh value per call, never kept by the table (not frozen: one is built for every action, and a
    frozen dataclass costs twice as much to build).

    ``time_bank``: the seconds of the player's bank (0 for an away player, who never spends it);
    ``on_time_bank``: the decision's own time ran out and ``seconds`` is what is left of the bank.
    """

    hand: int
    seq: int
    seat: int
    player: str
    away: bool
    seconds: int
    time_bank: int = 0
    on_time_bank: bool = False


@dataclass(frozen=True, slots=True)
class HandOver:
    """A hand played out (docs/rules.md, rules 9 and 10): the stacks before and after, who busted, which seats emptied.

    ``players``, ``starting_stacks`` and ``finishing_stacks`` are keyed by the
    seats dealt in. ``busted`` lists the players left with no chips, clockwise
    from the first seat after the button (the order rule 10's odd cents use);
    ``vacated`` the seats emptied by the busts (none when the seats were held
    for a rebuy).
    """

    hand: int
    players: dict[int, str]
    starting_stacks: dict[int, int]
    finishing_stacks: dict[int, int]
    busted: tuple[Occupant, ...]
    vacated: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "players": {str(s): p for s, p in self.players.items()},
            "starting_stacks": {str(s): c for s, c in self.starting_stacks.items()},
            "finishing_stacks": {str(s): c for s, c in self.finishing_stacks.items()},
            "busted": [o.to_dict() for o in self.busted],
            "vacated": list(self.vacated),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> HandOver:
        return cls(
            hand=int(raw["hand"]),
            players={int(s): str(p) for s, p in raw["players"].items()},
            starting_stacks={int(s): int(c) for s, c in raw["starting_stacks"].items()},
            finishing_stacks={int(s): int(c) for s, c in raw["finishing_stacks"].items()},
            busted=tuple(Occupant.from_dict(o) for o in raw["busted"]),
            vacated=tuple(int(s) for s in raw["vacated"]),
        )


def decision_seconds(
    away: bool, *, normal: int = DEFAULT_DECISION_SECONDS, when_away: int = DEFAULT_AWAY_DECISION_SECONDS
) -> int:
    """The time a player gets for a decision: shorter when away (docs/rules.md, 'Defaults'; rule 16).

    >>> decision_seconds(False), decision_seconds(True)
    (15, 5)
    """
    return when_away if away else normal


@dataclass(frozen=True, slots=True)
class DecisionDeadlines:
    """When the awaited decision's own time runs out, and once its time bank runs, when the bank does (rule 16)."""

    deadline: datetime
    bank_deadline: datetime | None = None


@dataclass(frozen=True, slots=True)
class DecisionClock:
    """When decision ``seq`` of hand ``hand`` began to be awaited."""

    hand: int
    seq: int
    started_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "seq": self.seq, "started_at": self.started_at.isoformat()}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> DecisionClock:
        return cls(int(raw["hand"]), int(raw["seq"]), datetime.fromisoformat(str(raw["started_at"])))


_WAGERS: Final = frozenset({ActionKind.CALL, ActionKind.BET, ActionKind.RAISE})


@dataclass(frozen=True, slots=True)
class LastAction:
    """A seat's last decision of the current street (docs/openapi.json, ``seats[].last_action``).

    ``amount``: for a call, a bet or a raise, the seat's whole bet of the street after it (what ``seats[].bet``
    shows: "raise 300", "call 300"); none for a fold or a check. ``all_in``: the wager put the seat all in.
    """

    kind: str
    amount: int | None = None
    all_in: bool = False

    def to_dict(self) -> dict[str, Any]:
        if self.amount is None:
            return {"kind": self.kind}
        return {"kind": self.kind, "amount": self.amount, "all_in": self.all_in}


class Table:
    """One table of a tournament (docs/rules.md, rules 6-8, 13, 14, 16, 17); see the module docstring.

    Mutable like ``Hand``: a command changes the table and returns the record
    of what it did. Query properties return copies or frozen values.
    """

    __slots__ = (
        "_bank_running",
        "_decision_clock",
        "_draw",
        "_ended",
        "_hand",
        "_hand_number",
        "_hold_busted",
        "_last_positions",
        "_number",
        "_positions",
        "_seat_count",
        "_seats",
    )

    def __init__(self, number: int, seat_count: int) -> None:
        if not MIN_SEATS <= seat_count <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {seat_count}")
        self._number = number
        self._seat_count = seat_count
        self._seats: dict[int, SeatedPlayer] = {}
        self._draw: ButtonDraw | None = None
        self._last_positions: Positions | None = None  # the last hand played out
        self._positions: Positions | None = None  # the hand in progress
        self._hand_number = 0
        self._hand: Hand | None = None  # the hand in progress, or the last one dealt
        self._hold_busted = False
        self._ended: HandOver | None = None
        self._bank_running: BankRunning | None = None
        self._decision_clock: DecisionClock | None = None

    # ------------------------------------------------------------- queries

    @property
    def number(self) -> int:
        return self._number

    @property
    def seat_count(self) -> int:
        return self._seat_count

    @property
    def seated(self) -> int:
        """How many seats are taken."""
        return len(self._seats)

    @property
    def seats(self) -> dict[int, SeatedPlayer]:
        """Every occupied seat, in seat order (stacks as at the start of the hand in progress)."""
        return dict(sorted(self._seats.items()))

    @property
    def players(self) -> dict[int, str]:
        """Seat -> player for every occupied seat."""
        return {seat: sp.player for seat, sp in sorted(self._seats.items())}

    @property
    def active(self) -> dict[int, str]:
        """Seat -> player for the seats with chips: who is dealt in next (docs/rules.md, rules 8 and 16)."""
        return {seat: sp.player for seat, sp in sorted(self._seats.items()) if sp.stack > 0}

    def seat_of(self, player: str) -> int:
        for seat, sp in self._seats.items():
            if sp.player == player:
                return seat
        raise NotSeated(f"{player} does not sit at table {self._number}")

    def player_at(self, seat: int) -> str | None:
        """Who sits in ``seat``, if anyone."""
        sp = self._seats.get(seat)
        return sp.player if sp is not None else None

    def stack(self, seat: int) -> int:
        """The seat's chips behind now: live during a hand it is dealt in (bets in front excluded)."""
        if seat not in self._seats:
            raise NotSeated(f"seat {seat} is empty")
        hand = self._hand
        if hand is not None and not hand.is_over and seat in hand.seats:
            return hand.stack(seat)
        return self._seats[seat].stack

    @property
    def hand(self) -> Hand | None:
        """The hand in progress, or the last one dealt (over, or cancelled)."""
        return self._hand

    @property
    def hand_number(self) -> int:
        """How many hands this table has dealt (the number of the current or last hand)."""
        return self._hand_number

    @property
    def hand_in_progress(self) -> bool:
        return self._hand is not None and not self._hand.is_over

    def in_hand(self, player: str) -> bool:
        """Whether the player is dealt in the hand in progress (and so, for example, may not chat: rule 18)."""
        hand = self._hand
        if hand is None or hand.is_over:
            return False
        return any(self._seats[seat].player == player for seat in hand.seats if seat in self._seats)

    def chips_owned(self, player: str, pending: int = 0) -> int:
        """The chips a player owns: what a rebuy is judged by (docs/rules.md, 'Rebuys and add-ons').

        During a hand they are dealt in, the stack they started it with (chips in the pot stay theirs
        until it ends: going all in does not lower it); otherwise their stack. ``pending``: chips
        already bought in the hand, waiting for its end.
        """
        return self._seats[self.seat_of(player)].stack + pending

    def still_in_hand(self, player: str) -> bool:
        """Whether the player is dealt in the hand in progress and has not folded (all in counts as in it).

        Rule 18 keeps quiet only the players still in the hand: one who folded may chat.
        """
        hand = self._hand
        if hand is None or hand.is_over:
            return False
        return any(
            self._seats[seat].player == player and hand.status(seat) is not SeatStatus.FOLDED
            for seat in hand.seats
            if seat in self._seats
        )

    @property
    def button_draw(self) -> ButtonDraw | None:
        return self._draw

    @property
    def positions(self) -> Positions | None:
        """Positions of the hand in progress, else of the last hand played out."""
        return self._positions or self._last_positions

    @property
    def last_positions(self) -> Positions | None:
        """Positions of the last hand played out: what the next hand's are set from (docs/rules.md, rule 7)."""
        return self._last_positions

    @property
    def button_seat(self) -> int | None:
        """The button of the table's last hand (in progress or played); before the first hand, the drawn one."""
        positions = self.positions
        if positions is not None:
            return positions.button.seat
        return self._draw.button if self._draw is not None else None

    @property
    def last_hand_ended(self) -> HandOver | None:
        """The outcome of the last hand played out, until the next one is dealt."""
        return self._ended

    def upcoming_big_blind(self) -> Occupant | None:
        """The player who would post the BB in the next hand: the one balancing moves (docs/rules.md, rule 13).

        ``None`` when fewer than two players are active, or before the button is drawn.
        """
        active = self.active
        if len(active) < 2:
            return None
        positions = self.positions
        if positions is not None:
            return upcoming_big_blind(positions, active)
        if self._draw is not None:
            return drawn_button_positions(self._draw.button, active).big_blind
        return None

    def table_seats(self) -> TableSeats:
        """What balancing needs to move players off and onto this table (docs/rules.md, rule 13)."""
        upcoming = self.upcoming_big_blind()
        return TableSeats(
            seats=self.players,
            button_seat=self.button_seat,
            next_big_blind_seat=upcoming.seat if upcoming is not None else None,
        )

    def awaiting(
        self, *, normal: int = DEFAULT_DECISION_SECONDS, when_away: int = DEFAULT_AWAY_DECISION_SECONDS
    ) -> Awaiting | None:
        """The decision awaited now, with its time limit (docs/rules.md, rule 16; 'Defaults'), or ``None``."""
        hand = self._hand
        awaited = hand.awaited() if hand is not None else None
        if awaited is None:
            return None
        seq, seat = awaited
        sp = self._seats[seat]
        away = sp.away
        running = self._running_bank(seq, seat)
        seconds = running.seconds if running else decision_seconds(away, normal=normal, when_away=when_away)
        # Positional, in the fields' order: one is built per decision, and keywords cost it half again.
        return Awaiting(self._hand_number, seq, seat, sp.player, away, seconds, 0 if away else sp.bank.seconds,
                        running is not None)  # fmt: skip

    def awaiting_left(
        self,
        since: datetime,
        now: datetime,
        *,
        normal: int = DEFAULT_DECISION_SECONDS,
        when_away: int = DEFAULT_AWAY_DECISION_SECONDS,
    ) -> Awaiting | None:
        """The decision awaited with only what is left of its time at ``now`` (rule 16), whole seconds rounded up.

        Its own time counts from ``since`` (the table's last change: the
        decision was awaited from then at the latest), its time bank from when
        the bank started; 0 once it ran out. A lost time-out armed again for
        this applies when the lost one would have, never later: within the
        table's own deadline (``longest_wait`` from ``since``).
        """
        awaiting = self.awaiting(normal=normal, when_away=when_away)
        if awaiting is None:
            return None
        running = self._running_bank(awaiting.seq, awaiting.seat)
        left = timedelta(seconds=awaiting.seconds) - (now - (running.started_at if running else since))
        whole, rest = divmod(left, timedelta(seconds=1))
        return replace(awaiting, seconds=max(0, whole + (1 if rest else 0)))

    def longest_wait(
        self, *, normal: int = DEFAULT_DECISION_SECONDS, when_away: int = DEFAULT_AWAY_DECISION_SECONDS
    ) -> int:
        """The longest the awaited decision may rightly take, in seconds (docs/rules.md, rule 16; 'Defaults').

        Its own time, plus the time bank its player may still start (none for
        an away player, nor for one already on it): a table that waits longer
        lost its time-out. 0 when no decision is awaited.
        """
        awaiting = self.awaiting(normal=normal, when_away=when_away)
        if awaiting is None:
            return 0
        return awaiting.seconds + (0 if awaiting.on_time_bank else awaiting.time_bank)

    def awaits(self, hand: int, seq: int, seat: int) -> bool:
        """Whether the table waits for exactly this decision: a time-out armed for any other is stale."""
        current = self._hand
        return current is not None and self._hand_number == hand and current.awaited() == (seq, seat)

    def _running_bank(self, seq: int, seat: int) -> BankRunning | None:
        """The time bank running for decision ``seq`` of the hand in progress at ``seat``, if any."""
        running = self._bank_running
        if running is None or running.hand != self._hand_number or running.seq != seq or running.seat != seat:
            return None
        return running

    def decision_deadlines(
        self,
        since: datetime,
        *,
        normal: int = DEFAULT_DECISION_SECONDS,
        when_away: int = DEFAULT_AWAY_DECISION_SECONDS,
    ) -> DecisionDeadlines | None:
        """When the awaited decision's own time runs out and, once the time bank runs, when the bank does.

        Its own time counts from when the decision began (noted by the command that made it awaited, given its
        ``now``); a decision whose start was not noted counts from ``since``, the table's last write, as the
        watchdog does (``awaiting_left``). On the bank, ``deadline`` is when its own time ran out. None when no
        decision is awaited.
        """
        awaiting = self.awaiting(normal=normal, when_away=when_away)
        if awaiting is None:
            return None
        running = self._running_bank(awaiting.seq, awaiting.seat)
        if running is not None:
            return DecisionDeadlines(running.started_at, running.started_at + timedelta(seconds=running.seconds))
        clock = self._decision_clock
        noted = clock is not None and (clock.hand, clock.seq) == (self._hand_number, awaiting.seq)
        began = clock.started_at if noted and clock is not None else since
        return DecisionDeadlines(began + timedelta(seconds=awaiting.seconds))

    def _note_decision(self, now: datetime | None) -> None:
        """Note that the decision awaited now began at ``now``, unless it is the one already noted."""
        hand = self._hand
        awaited = hand.awaited() if hand is not None else None
        if now is None or awaited is None:
            return
        clock = self._decision_clock
        if clock is None or (clock.hand, clock.seq) != (self._hand_number, awaited[0]):
            self._decision_clock = DecisionClock(self._hand_number, awaited[0], now)

    def last_actions(self) -> dict[int, LastAction]:
        """Each seat's last action of the current street of the hand in progress, by seat (none yet: absent)."""
        hand = self._hand
        if hand is None or hand.is_over:
            return {}
        last: dict[int, LastAction] = {}
        for seat, decision in hand.street_decisions().items():
            kind = decision.kind
            if kind in _WAGERS:
                last[seat] = LastAction(str(kind), hand.current_bet(seat), bool(getattr(decision, "all_in", False)))
            else:
                last[seat] = LastAction(str(kind))
        return last

    # ------------------------------------------------------- seats (between hands)

    def _dealt_in(self, seat: int) -> bool:
        hand = self._hand
        return hand is not None and not hand.is_over and seat in hand.seats

    def seat_player(
        self, player: str, seat: int, stack: int, *, away: bool = False, bank: TimeBank | None = None
    ) -> None:
        """Seat an arriving player (balancing, breaking, the start draw): dealt in from the next hand (rule 8).

        Raises ``SeatTaken`` if the seat is occupied or the player already
        sits here. A seat outside ``1..seat_count`` or a stack that is not a
        positive int is a programming error (``ValueError``).
        """
        if not 1 <= seat <= self._seat_count:
            raise ValueError(f"table {self._number} has seats 1 to {self._seat_count}, not {seat}")
        if type(stack) is not int or stack <= 0:
            raise ValueError(f"a seated player brings a positive int stack, not {stack!r}")
        if seat in self._seats:
            raise SeatTaken(f"seat {seat} at table {self._number} is taken by {self._seats[seat].player}")
        if any(sp.player == player for sp in self._seats.values()):
            raise SeatTaken(f"{player} already sits at table {self._number}")
        self._seats[seat] = SeatedPlayer(player, stack, away, bank if bank is not None else TimeBank())

    def remove_player(self, player: str) -> SeatedPlayer:
        """Take a player off the table (moved, eliminated, disqualified); never out of a hand in progress.

        Returns what the seat held (the stack moves with a moved player).
        """
        seat = self.seat_of(player)
        if self._dealt_in(seat):
            raise HandInProgress(f"{player} is in the hand in progress at table {self._number}")
        return self._seats.pop(seat)

    def add_chips(self, player: str, chips: int) -> None:
        """Add bought chips (a rebuy or an add-on) to a player's stack, outside any hand they are in."""
        if type(chips) is not int or chips <= 0:
            raise ValueError(f"chips are a positive int, not {chips!r}")
        seat = self.seat_of(player)
        if self._dealt_in(seat):
            raise HandInProgress(f"{player} is in the hand in progress: chips are added after it")
        sp = self._seats[seat]
        self._seats[seat] = replace(sp, stack=sp.stack + chips)

    def remove_chips(self, player: str, chips: int) -> None:
        """Take chips out of play from a player's stack (an operator's adjustment), outside any hand they are in.

        At least one chip stays: a player with none is out, which only a hand's end decides.
        """
        if type(chips) is not int or chips <= 0:
            raise ValueError(f"chips are a positive int, not {chips!r}")
        seat = self.seat_of(player)
        if self._dealt_in(seat):
            raise HandInProgress(f"{player} is in the hand in progress: chips are removed after it")
        sp = self._seats[seat]
        if sp.stack - chips < 1:
            raise ValueError(f"{player} has {sp.stack} chips: removing {chips} leaves none")
        self._seats[seat] = replace(sp, stack=sp.stack - chips)

    def set_away(self, player: str) -> None:
        """Mark a player away: they keep posting and being dealt in, and get the away decision time (rule 16)."""
        seat = self.seat_of(player)
        self._seats[seat] = replace(self._seats[seat], away=True)

    def come_back(self, player: str) -> None:
        """A player is back, at any moment of a hand: they act themselves from their next decision (rule 16)."""
        seat = self.seat_of(player)
        self._seats[seat] = replace(self._seats[seat], away=False)

    # --------------------------------------------------------------- dealing

    def draw_button(self, *, deck: Sequence[Card] | None = None, rng: random.Random | None = None) -> ButtonDraw:
        """Draw for the button among the active players (docs/rules.md, rule 6; the final table's redraw, rule 12).

        The next hand is then the table's first: its positions come from the
        draw, not from earlier hands. ``deck`` (top card first) or ``rng``
        (a ``random.Random``; ``secrets.SystemRandom`` when both are None).
        """
        if self.hand_in_progress:
            raise HandInProgress(f"table {self._number} is playing a hand")
        self._draw = draw_for_button(self.active, deck=deck, rng=rng)
        self._last_positions = None
        return self._draw

    def positions_to_deal(self) -> Positions:
        """The positions the next hand is dealt with (docs/rules.md, rules 6, 7, 14): what ``start_hand`` uses.

        From the last hand played out, else from the button draw (its drawn
        seat emptied or not: ``drawn_button_positions``). ``NotEnoughPlayers``
        below two active players, ``ButtonNotDrawn`` before the draw.
        """
        active = self.active
        if len(active) < 2:
            raise NotEnoughPlayers(f"table {self._number} has {len(active)} active player(s): it does not deal")
        if self._last_positions is not None:
            return next_positions(self._last_positions, active)
        if self._draw is None:
            raise ButtonNotDrawn(f"table {self._number} must draw for the button before its first hand")
        return drawn_button_positions(self._draw.button, active)

    def start_hand(
        self,
        level: BlindLevel,
        deck: Sequence[Card],
        *,
        hold_busted_seats: bool = False,
        secret: bytes | None = None,
        now: datetime | None = None,
    ) -> HandDealt:
        """Deal the next hand to every active player (docs/rules.md, rules 7, 8, 14, 16).

        The positions come from the button draw for the table's first hand,
        otherwise from the last hand played out (``tourney.domain.blinds``).
        ``deck``: shuffled by the caller with ``secrets``; ``secret``: what the
        salts of the deck's commitment derive from (``tourney.domain.fairness``).
        ``hold_busted_seats``: see the module docstring, reading 1. ``now``: when
        it was dealt, from when its first decision runs (``decision_deadlines``).
        """
        if self.hand_in_progress:
            raise HandInProgress(f"table {self._number} is already playing hand {self._hand_number}")
        active = self.active
        positions = self.positions_to_deal()
        button, sb, bb = positions.seats()
        hand = Hand.deal(
            {seat: self._seats[seat].stack for seat in active},
            button=button,
            small_blind_seat=sb,
            big_blind_seat=bb,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            big_blind_ante=level.big_blind_ante,
            deck=deck,
            secret=secret,
        )
        for seat in active:  # each level reached adds to the time banks of those dealt in (docs/rules.md, 'Defaults')
            sp = self._seats[seat]
            credited = sp.bank.at_level(level.number)
            if credited is not sp.bank:
                self._seats[seat] = replace(sp, bank=credited)
        self._hand_number += 1
        if self._last_positions is None and self._draw is not None:  # dealt from the draw: shown with it (rule 6)
            self._draw = replace(self._draw, hand=self._hand_number)
        self._hand = hand
        self._bank_running = None
        self._positions = positions
        self._hold_busted = hold_busted_seats
        self._ended = None
        self._settle_if_over()
        self._note_decision(now)
        return HandDealt(hand=self._hand_number, positions=positions, seats=tuple(active))

    # --------------------------------------------------------------- playing

    def _current_hand(self, hand_number: int | None) -> Hand:
        hand = self._hand
        if hand is None or hand.is_over:
            raise NoHandInProgress(f"table {self._number} is between hands")
        if hand_number is not None and hand_number != self._hand_number:
            raise StaleAction(f"hand {hand_number} is over: table {self._number} plays hand {self._hand_number}")
        return hand

    def _own_seat(self, player: str, seat: int | None) -> int:
        hand = self._hand
        actor = hand.actor if hand is not None else None
        if actor is not None and (seat is None or seat == actor):
            sitting = self._seats.get(actor)
            if sitting is not None and sitting.player == player:
                return actor  # who acts is nearly always the player to act: no scan of the seats
        try:
            own = self.seat_of(player)
        except NotSeated:
            raise NotYourSeat(f"{player} has no seat at table {self._number}") from None
        if seat is not None and seat != own:
            raise NotYourSeat(f"{player} sits in seat {own}, not seat {seat}")
        return own

    def act(
        self,
        player: str,
        kind: ActionKind,
        amount: int | None = None,
        *,
        hand: int | None = None,
        seq: int | None = None,
        seat: int | None = None,
        now: datetime | None = None,
    ) -> Decision:
        """Apply a player's decision at their own seat (docs/interfaces.md, actions). Acting brings an away player back.

        ``hand`` and ``seq`` name the decision answered; a stale one raises
        ``StaleAction``. ``seat``, when given, must be the player's own.
        ``now``: when it was made, so that the time bank running for it (if
        any) loses the whole seconds used.
        """
        own = self._own_seat(player, seat)
        current = self._current_hand(hand)
        running = self._running_bank(current.seq, own)
        record = current.act(kind, own, amount, seq=seq)
        if running is not None:
            self._bank_running = None
            used = (now - running.started_at).total_seconds() if now is not None else running.seconds
            self._seats[own] = replace(self._seats[own], bank=self._seats[own].bank.spent(used))
        if self._seats[own].away:
            self._seats[own] = replace(self._seats[own], away=False)
        self._settle_if_over()
        self._note_decision(now)
        return record

    def timeout(
        self,
        seat: int,
        *,
        hand: int | None = None,
        seq: int | None = None,
        armed_for_away: bool = False,
        time_bank: bool = False,
        now: datetime | None = None,
    ) -> Checked | Folded | BankStarted:
        """The decision time ran out: the time bank, else check or fold and mark the player away (rule 16).

        ``armed_for_away``: the time-out was armed with the away decision time;
        it is stale (``StaleAction``) if the player has come back since. When
        the decision's own time runs out (``time_bank`` False) and the player,
        not away, has a time bank, the bank starts instead (``BankStarted``,
        given ``now``); the time-out armed for the bank (``time_bank`` True)
        then applies, and empties it (docs/rules.md, 'Defaults').
        """
        current = self._current_hand(hand)
        if seat not in self._seats:
            raise NotSeated(f"seat {seat} is empty")
        sp = self._seats[seat]
        if armed_for_away and not sp.away:
            raise StaleAction(f"seat {seat} came back: an away player's time-out no longer applies")
        if seq is not None and seq != current.seq:
            raise StaleAction(f"decision {seq} is stale: decision {current.seq} is awaited")
        if current.actor != seat:
            raise NotYourTurn(f"seat {seat} cannot act: it is seat {current.actor}'s turn")
        running = self._running_bank(current.seq, seat)
        if time_bank and running is None:
            raise StaleAction(f"no time bank runs for seat {seat}'s decision {current.seq}")
        if not time_bank and running is not None:
            raise StaleAction(f"seat {seat}'s decision {current.seq} is on its time bank")
        if not time_bank and not sp.away and sp.bank.seconds > 0 and now is not None:
            self._bank_running = BankRunning(self._hand_number, current.seq, seat, now, sp.bank.seconds)
            return BankStarted(seat, sp.bank.seconds)
        record = current.timeout(seat, seq=seq)
        if running is not None:
            self._bank_running = None
            sp = replace(sp, bank=replace(sp.bank, seconds=0))
        self._seats[seat] = replace(sp, away=True)
        self._settle_if_over()
        self._note_decision(now)
        return record

    def verify_may_disqualify(self, player: str, disqualified: Collection[str] = ()) -> None:
        """Refuse to disqualify the last player still in play at this table (docs/rules.md, rule 19).

        In play: seated, not disqualified already (``disqualified``: they leave when the hand ends),
        and holding chips or still in the hand in progress (all in). A player waiting without chips
        for a rebuy window to close is not. The hand's end must leave a player with chips at the table,
        so the tournament always has a winner who was not disqualified; ``LastPlayerInPlay`` otherwise.
        """
        self.seat_of(player)  # NotSeated
        for seat, sp in self._seats.items():
            if sp.player == player or sp.player in disqualified:
                continue
            if self.stack(seat) > 0 or self.still_in_hand(sp.player):
                return
        raise LastPlayerInPlay(
            f"{player} is the last player still in play at table {self._number}: disqualify them once others"
            " are in play there (the tournament always has a winner who was not disqualified)"
        )

    def fold_at_once(self, player: str, now: datetime | None = None) -> Folded | None:
        """Fold a disqualified player's hand in progress now, in turn or not (docs/rules.md, rule 19).

        None when they are not in the hand in progress (or already folded). ``now``: when, from when the
        decision awaited next runs if it was theirs.
        """
        seat = self.seat_of(player)
        if not self._dealt_in(seat):
            return None
        hand = self._hand
        assert hand is not None
        record = hand.fold_at_once(seat)
        self._settle_if_over()
        self._note_decision(now)
        return record

    def cancel_hand(self) -> dict[int, int]:
        """Cancel the hand in progress (docs/rules.md, rule 17): the cards are void, every stack is as it started.

        Returns the restored stacks of the seats dealt in. The blinds and the
        button do not move for a cancelled hand.
        """
        hand = self._current_hand(None)
        restored = hand.cancel()
        self._positions = None
        return restored

    def _settle_if_over(self) -> None:
        hand = self._hand
        positions = self._positions
        if hand is None or positions is None or not hand.is_over or hand.result is None:
            return
        finishing = hand.result.finishing_stacks
        order = hand.seats  # clockwise from the first seat after the button
        players = {seat: self._seats[seat].player for seat in order}
        starting = hand.starting_stacks
        busted = tuple(Occupant(seat, players[seat]) for seat in order if finishing[seat] == 0)
        for seat in order:
            sp = self._seats[seat]
            self._seats[seat] = SeatedPlayer(sp.player, finishing[seat], sp.away, sp.bank)
        vacated: tuple[int, ...] = ()
        if not self._hold_busted:
            vacated = tuple(sorted(o.seat for o in busted))
            for seat in vacated:
                del self._seats[seat]
        self._ended = HandOver(
            hand=self._hand_number,
            players=dict(sorted(players.items())),
            starting_stacks=dict(sorted(starting.items())),
            finishing_stacks=dict(sorted(finishing.items())),
            busted=busted,
            vacated=vacated,
        )
        self._last_positions = positions
        self._positions = None

    def ended_quietly(self) -> bool:
        """The hand just played is over and left every player dealt in with chips, two or more still playing.

        Such a hand end decides nothing above the table (no place, no move it causes):
        the table may deal its next hand itself (``dealing.DealingOrders``).
        """
        hand, ended = self._hand, self._ended
        if hand is None or not hand.is_over or hand.is_cancelled or ended is None or ended.hand != self._hand_number:
            return False
        return not ended.busted and len(self.active) >= 2

    def copy(self) -> Table:
        """A copy that later commands on this table do not change (the hand's end as shown, before the next deal;
        a table as the store had it, before a command that may not be stored).

        Shallow but for what a command changes in place: the seats' map and the hand in progress (every other value
        a command replaces is immutable).
        """
        twin = Table.__new__(Table)
        for name in Table.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._seats = dict(self._seats)
        if self._hand is not None:
            twin._hand = self._hand.copy()
        return twin

    # ----------------------------------------------------------- plain data

    def to_dict(self) -> dict[str, Any]:
        """The whole table as plain data, the hand in progress included.

        Compact, as the table item stores it (docs/data-model.md): the seats as rows
        (``SeatedPlayer.to_row``), and what is absent (no hand, no draw, no bank running) left out.
        """
        raw: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "number": self._number,
            "seat_count": self._seat_count,
            "seats": [sp.to_row(seat) for seat, sp in sorted(self._seats.items())],
            "hand_number": self._hand_number,
        }
        optional = {
            "button_draw": self._draw.to_dict() if self._draw is not None else None,
            "last_positions": self._last_positions.to_dict() if self._last_positions is not None else None,
            "positions": self._positions.to_dict() if self._positions is not None else None,
            "hand": self._hand.to_dict() if self._hand is not None else None,
            "hold_busted_seats": self._hold_busted or None,
            "last_hand_ended": self._ended.to_dict() if self._ended is not None else None,
            "bank_running": self._bank_running.to_dict() if self._bank_running is not None else None,
            "decision_clock": self._decision_clock.to_dict() if self._decision_clock is not None else None,
        }
        return raw | {key: value for key, value in optional.items() if value is not None}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Table:
        if raw.get("version") != FORMAT_VERSION:
            raise ValueError(f"unknown table format {raw.get('version')!r}")
        table = cls(int(raw["number"]), int(raw["seat_count"]))
        table._seats = dict(SeatedPlayer.from_row(row) for row in raw["seats"])
        draw, last, current = raw.get("button_draw"), raw.get("last_positions"), raw.get("positions")
        table._draw = ButtonDraw.from_dict(draw) if draw is not None else None
        table._last_positions = Positions.from_dict(last) if last is not None else None
        table._positions = Positions.from_dict(current) if current is not None else None
        table._hand_number = int(raw["hand_number"])
        hand = raw.get("hand")
        table._hand = Hand.from_dict(hand) if hand is not None else None
        table._hold_busted = bool(raw.get("hold_busted_seats", False))
        ended = raw.get("last_hand_ended")
        table._ended = HandOver.from_dict(ended) if ended is not None else None
        running = raw.get("bank_running")
        table._bank_running = BankRunning.from_dict(running) if running is not None else None
        clock = raw.get("decision_clock")
        table._decision_clock = DecisionClock.from_dict(clock) if clock is not None else None
        return table
