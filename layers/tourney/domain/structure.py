"""Formats, blind structures and a tournament's configuration (docs/rules.md, 'Defaults' and 'Rebuys and add-ons').

Money is integer cents and chips are integers; nothing here is a float.

The default blind structure follows docs/rules.md, 'Defaults': small blinds 25, 50,
75, then 100, 150, 200, 300, 400, 500, 600, 800 and the same eight steps in
every following power of ten (1,000, 1,500, 2,000, 3,000, ...), which keeps
each level 20-50 % above the one before with round numbers. The big blind is
twice the small blind. From the fourth level a big-blind ante equal to the big
blind is posted (one ante per hand, by the big blind). Levels last 10 minutes
(a Sit&Go: 5). The default structure has ``DEFAULT_LEVEL_COUNT`` levels; past
the last level of any structure the last level simply continues
(``tourney.domain.clock``).

>>> [(lv.small_blind, lv.big_blind) for lv in default_levels()[:4]]
[(25, 50), (50, 100), (75, 150), (100, 200)]
>>> lv = default_levels()[11]
>>> (lv.number, lv.small_blind, lv.big_blind, lv.ante, lv.big_blind_ante, lv.minutes)
(12, 1000, 2000, 2000, True, 10)
>>> TournamentConfig.for_format(TournamentFormat.SNG, buy_in=1000, entry_fee=100).level_minutes
5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from tourney.domain.errors import InvalidConfiguration
from tourney.domain.formats import MAX_STRUCTURE_LEVELS, TournamentFormat
from tourney.domain.prizes import fixed_payout

MIN_SEATS: Final = 2
MAX_SEATS: Final = 10
DEFAULT_SEATS: Final = 9
DEFAULT_STARTING_STACK: Final = 10_000
DEFAULT_LEVEL_MINUTES: Final = 10
SIT_AND_GO_LEVEL_MINUTES: Final = 5
DEFAULT_LEVEL_COUNT: Final = 60
BIG_BLIND_ANTE_FROM_LEVEL: Final = 4
DEFAULT_MIN_PLAYERS: Final = 2
DEFAULT_MAX_PLAYERS: Final = 250_000
WAITING_LIST_SIZE: Final = 10
"""Up to 10 players beyond ``max_players`` wait (docs/rules.md, rule 3); a Sit&Go has no waiting list."""
DEFAULT_DECISION_SECONDS: Final = 15
DEFAULT_AWAY_DECISION_SECONDS: Final = 5
DEFAULT_TIME_BANK_SECONDS: Final = 30
DEFAULT_REBUY_LEVELS: Final = 6
"""A rebuy tournament's default rebuy period: the first hour at 10-minute levels."""
SIT_AND_GO_PAYOUT_PERCENT: Final[tuple[int, ...]] = (50, 30, 20)
"""A Sit&Go pays three places 50/30/20 (docs/rules.md, 'Defaults')."""

_FIRST_SMALL_BLINDS: Final = (25, 50, 75)
_DECADE_STEPS: Final = (10, 15, 20, 30, 40, 50, 60, 80)
"""Small blinds from level 4 on are these steps times 10, 100, 1,000, ..."""


def _require_int(name: str, value: object, minimum: int) -> None:
    # bool is an int subclass and a float is never acceptable for chips or cents.
    if type(value) is not int:
        raise InvalidConfiguration(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise InvalidConfiguration(f"{name} must be at least {minimum}, got {value}")


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One blind level (docs/rules.md, 'Defaults').

    ``ante`` is posted by every active player, or, when ``big_blind_ante`` is
    set, once per hand by the big blind alone (the big-blind ante).
    """

    number: int
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    minutes: int = DEFAULT_LEVEL_MINUTES

    def __post_init__(self) -> None:
        _require_int("level number", self.number, 1)
        _require_int("small blind", self.small_blind, 1)
        _require_int("big blind", self.big_blind, self.small_blind)
        _require_int("ante", self.ante, 0)
        _require_int("level minutes", self.minutes, 1)
        if self.big_blind_ante and self.ante == 0:
            raise InvalidConfiguration(f"level {self.number}: a big-blind ante needs an ante amount")

    @property
    def seconds(self) -> int:
        return self.minutes * 60

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> BlindLevel:
        return cls(
            number=int(raw["number"]),
            small_blind=int(raw["small_blind"]),
            big_blind=int(raw["big_blind"]),
            ante=int(raw.get("ante", 0)),
            big_blind_ante=bool(raw.get("big_blind_ante", False)),
            minutes=int(raw.get("minutes", DEFAULT_LEVEL_MINUTES)),
        )


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """One level of a blind structure as an operator gives it: its place numbers it; ``minutes`` None: the
    tournament's level length (docs/interfaces.md, ``POST /admin/tournaments``, ``levels``)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    minutes: int | None = None


def _spec_problem(number: int, spec: LevelSpec) -> str | None:
    """What is wrong with one level on its own, in words naming it, or None."""
    named = (("small blind", spec.small_blind, 1), ("big blind", spec.big_blind, 1), ("ante", spec.ante, 0))
    for name, value, least in (*named, ("level's minutes", spec.minutes, 1)):
        if value is None and name == "level's minutes":
            continue
        if type(value) is not int:
            return f"level {number}: the {name} must be a whole number of chips, got {value!r}"
        if value < least:
            return f"level {number}: the {name} must be at least {least}, got {value}"
    if spec.big_blind < spec.small_blind:
        return f"level {number}: the big blind ({spec.big_blind}) is below the small blind ({spec.small_blind})"
    if type(spec.big_blind_ante) is not bool:
        return f"level {number}: big_blind_ante is true or false, not {spec.big_blind_ante!r}"
    if spec.big_blind_ante and spec.ante == 0:
        return f"level {number}: a big-blind ante needs an ante above 0 (the amount the big blind posts)"
    return None


def blind_structure(specs: Sequence[LevelSpec], minutes: int) -> tuple[BlindLevel, ...]:
    """An operator's blind structure, numbered 1, 2, ...; levels without minutes last ``minutes``.

    Every level has a small blind of at least 1, a big blind not below it and an ante of at least 0 (a big-blind
    ante needs one above 0); the blinds never go down from one level to the next (a level may repeat the one
    before). A broken structure raises ``InvalidConfiguration`` naming the first level at fault and the rule.

    >>> levels = blind_structure([LevelSpec(5, 10), LevelSpec(10, 20, minutes=8)], 6)
    >>> [(lv.number, lv.big_blind, lv.minutes) for lv in levels]
    [(1, 10, 6), (2, 20, 8)]
    """
    _require_int("level minutes", minutes, 1)
    if not specs:
        raise InvalidConfiguration("a blind structure needs at least one level")
    if len(specs) > MAX_STRUCTURE_LEVELS:
        raise InvalidConfiguration(f"a blind structure has at most {MAX_STRUCTURE_LEVELS} levels, got {len(specs)}")
    levels: list[BlindLevel] = []
    for number, spec in enumerate(specs, start=1):
        problem = _spec_problem(number, spec)
        if problem is None and levels:
            before = levels[-1]
            if spec.small_blind < before.small_blind or spec.big_blind < before.big_blind:
                problem = (
                    f"level {number}: the blinds go down ({spec.small_blind}/{spec.big_blind} after "
                    f"{before.small_blind}/{before.big_blind}): a structure only rises"
                )
        if problem is not None:
            raise InvalidConfiguration(problem)
        level_minutes = minutes if spec.minutes is None else spec.minutes
        levels.append(
            BlindLevel(number, spec.small_blind, spec.big_blind, spec.ante, spec.big_blind_ante, level_minutes)
        )
    return tuple(levels)


def format_level_minutes(format: TournamentFormat | str) -> int:
    """The format's default level length: 10 minutes, a Sit&Go's 5 (docs/rules.md, 'Defaults')."""
    return SIT_AND_GO_LEVEL_MINUTES if TournamentFormat(format) is TournamentFormat.SNG else DEFAULT_LEVEL_MINUTES


def default_small_blind(number: int) -> int:
    """The default structure's small blind at level ``number`` (1-based), for any level (docs/rules.md, 'Defaults').

    >>> [default_small_blind(n) for n in range(1, 14)]
    [25, 50, 75, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1500]
    """
    _require_int("level number", number, 1)
    if number <= len(_FIRST_SMALL_BLINDS):
        return _FIRST_SMALL_BLINDS[number - 1]
    decade, step = divmod(number - len(_FIRST_SMALL_BLINDS) - 1, len(_DECADE_STEPS))
    small: int = _DECADE_STEPS[step] * 10 ** (decade + 1)
    return small


def default_level(number: int, minutes: int = DEFAULT_LEVEL_MINUTES) -> BlindLevel:
    """Level ``number`` of the default structure: big blind twice the small, big-blind ante from level 4."""
    small = default_small_blind(number)
    big = 2 * small
    with_ante = number >= BIG_BLIND_ANTE_FROM_LEVEL
    return BlindLevel(
        number=number,
        small_blind=small,
        big_blind=big,
        ante=big if with_ante else 0,
        big_blind_ante=with_ante,
        minutes=minutes,
    )


def default_levels(minutes: int = DEFAULT_LEVEL_MINUTES, count: int = DEFAULT_LEVEL_COUNT) -> tuple[BlindLevel, ...]:
    """The docs/rules.md default blind structure, ``count`` levels of ``minutes`` each (docs/rules.md, 'Defaults')."""
    _require_int("level count", count, 1)
    return tuple(default_level(n, minutes) for n in range(1, count + 1))


@dataclass(frozen=True, slots=True)
class RebuyPeriod:
    """Rebuys are open from the start of ``first_level`` to the end of ``last_level`` (docs/rules.md, 'Rebuys')."""

    first_level: int
    last_level: int

    def __post_init__(self) -> None:
        _require_int("rebuy period first level", self.first_level, 1)
        _require_int("rebuy period last level", self.last_level, self.first_level)

    def covers(self, level_number: int) -> bool:
        return self.first_level <= level_number <= self.last_level


def rebuy_period_for_minutes(minutes: int, level_minutes: int) -> RebuyPeriod:
    """The rebuy period that opens at the start and covers at least ``minutes`` of play (whole levels).

    >>> rebuy_period_for_minutes(45, 10)
    RebuyPeriod(first_level=1, last_level=5)
    """
    _require_int("rebuy minutes", minutes, 1)
    _require_int("level minutes", level_minutes, 1)
    return RebuyPeriod(1, -(-minutes // level_minutes))


@dataclass(frozen=True, slots=True)
class AddOn:
    """The optional add-on, offered at the end of the last rebuy period, giving ``chips`` (docs/rules.md, 'Rebuys')."""

    chips: int

    def __post_init__(self) -> None:
        _require_int("add-on chips", self.chips, 1)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything an operator sets for one tournament, validated on construction (docs/rules.md, 'Defaults').

    ``buy_in``, ``entry_fee`` and ``guarantee`` are cents (``guarantee`` 0: no
    guarantee). Chips are integers. An empty ``levels`` means the default
    structure at ``level_minutes``. ``rebuy_chips`` 0 means the starting stack
    (docs/rules.md: a rebuy buys "the starting stack again"). Use ``for_format`` to
    get the per-format defaults (a Sit&Go's 5-minute levels and 9 players, a
    rebuy tournament's first-hour rebuy period).
    """

    format: TournamentFormat
    buy_in: int
    entry_fee: int
    guarantee: int = 0
    starting_stack: int = DEFAULT_STARTING_STACK
    seats_per_table: int = DEFAULT_SEATS
    min_players: int = DEFAULT_MIN_PLAYERS
    max_players: int = DEFAULT_MAX_PLAYERS
    decision_seconds: int = DEFAULT_DECISION_SECONDS
    away_decision_seconds: int = DEFAULT_AWAY_DECISION_SECONDS
    time_bank_seconds: int = DEFAULT_TIME_BANK_SECONDS
    level_minutes: int = DEFAULT_LEVEL_MINUTES
    levels: tuple[BlindLevel, ...] = ()
    rebuy_periods: tuple[RebuyPeriod, ...] = ()
    rebuy_chips: int = 0
    add_on: AddOn | None = None
    payout_percent: tuple[int, ...] = field(default=())
    """Optional fixed payout (percent per place); empty: the payout table by entrants (``prizes``)."""
    hand_for_hand: bool | None = None
    """Hand-for-hand at the bubble (docs/rules.md, rules 9, 10); None: on when the field can fill two tables."""

    def __post_init__(self) -> None:
        try:
            fmt = TournamentFormat(self.format)
        except ValueError:
            raise InvalidConfiguration(f"unknown format {self.format!r}") from None
        object.__setattr__(self, "format", fmt)
        for name in ("buy_in", "entry_fee", "guarantee"):
            _require_int(name, getattr(self, name), 0)
        _require_int("starting stack", self.starting_stack, 1)
        _require_int("seats per table", self.seats_per_table, MIN_SEATS)
        if self.seats_per_table > MAX_SEATS:
            raise InvalidConfiguration(f"seats per table must be at most {MAX_SEATS}, got {self.seats_per_table}")
        _require_int("min players", self.min_players, 2)
        _require_int("max players", self.max_players, self.min_players)
        _require_int("decision seconds", self.decision_seconds, 1)
        _require_int("away decision seconds", self.away_decision_seconds, 1)
        _require_int("time bank seconds", self.time_bank_seconds, 0)
        _require_int("level minutes", self.level_minutes, 1)
        _require_int("rebuy chips", self.rebuy_chips, 0)
        if self.hand_for_hand is not None and type(self.hand_for_hand) is not bool:
            raise InvalidConfiguration(f"hand_for_hand is true or false, not {self.hand_for_hand!r}")
        if not self.levels:
            object.__setattr__(self, "levels", default_levels(self.level_minutes))
        object.__setattr__(self, "levels", tuple(self.levels))
        object.__setattr__(self, "rebuy_periods", tuple(self.rebuy_periods))
        object.__setattr__(self, "payout_percent", tuple(self.payout_percent))
        self._check_levels()
        self._check_rebuys()
        self._check_payout()

    def _check_levels(self) -> None:
        for expected, level in enumerate(self.levels, start=1):
            if not isinstance(level, BlindLevel):
                raise InvalidConfiguration(f"level {expected} is not a BlindLevel: {level!r}")
            if level.number != expected:
                raise InvalidConfiguration(f"levels must be numbered 1, 2, ...: found {level.number} at {expected}")

    def _check_payout(self) -> None:
        """A fixed payout obeys the payout rule (``prizes.Payout``), wherever the structure is made or read."""
        percent = self.payout_percent
        if not percent:
            return
        if any(type(p) is not int or p <= 0 for p in percent) or sum(percent) != 100:
            raise InvalidConfiguration(f"payout percentages must be positive integers adding to 100: {percent}")
        try:
            fixed_payout(percent)
        except ValueError as broken:
            raise InvalidConfiguration(f"payout {list(percent)}: {broken}") from None

    def _check_places_paid(self) -> None:
        """A new structure pays no more fixed places than its field can hold (checked by ``for_format``).

        Not on every read: a stored structure of a Sit&Go of two, made when its default 50/30/20 was kept, must
        still load (a field smaller than the places is paid by the table by entrants, ``prizes.payout_for``).
        """
        if len(self.payout_percent) > self.max_players:
            raise InvalidConfiguration(
                f"payout {list(self.payout_percent)} pays {len(self.payout_percent)} places, more than the "
                f"{self.max_players} players the tournament can hold"
            )

    def _check_rebuys(self) -> None:
        if self.format is not TournamentFormat.REBUY:
            if self.rebuy_periods or self.add_on is not None:
                raise InvalidConfiguration(f"a {self.format} has neither rebuys nor an add-on")
            return
        if not self.rebuy_periods:
            raise InvalidConfiguration("a rebuy tournament needs at least one rebuy period")
        previous_last = 0
        for period in self.rebuy_periods:
            if period.first_level <= previous_last:
                raise InvalidConfiguration(f"rebuy periods must be in order and not overlap: {self.rebuy_periods}")
            previous_last = period.last_level

    @classmethod
    def for_format(
        cls, format: TournamentFormat | str, *, buy_in: int, entry_fee: int, **overrides: Any
    ) -> TournamentConfig:
        """A configuration with the defaults of ``format``, then ``overrides`` (docs/rules.md, 'Defaults').

        Sit&Go: 5-minute levels, 9 seats, 9 players, paying 50/30/20 (two players: the winner takes all). Rebuy: one
        rebuy period over the first ``DEFAULT_REBUY_LEVELS`` levels, no add-on
        unless given.
        """
        fmt = TournamentFormat(format)
        defaults: dict[str, Any] = {}
        if fmt is TournamentFormat.SNG:
            seats = overrides.get("seats_per_table", DEFAULT_SEATS)
            defaults = {
                "level_minutes": SIT_AND_GO_LEVEL_MINUTES,
                "seats_per_table": seats,
                "max_players": seats,
                "payout_percent": SIT_AND_GO_PAYOUT_PERCENT,
            }
        elif fmt is TournamentFormat.REBUY:
            defaults = {"rebuy_periods": (RebuyPeriod(1, DEFAULT_REBUY_LEVELS),)}
        defaults.update(overrides)
        if (
            fmt is TournamentFormat.SNG
            and "payout_percent" not in overrides
            and defaults["max_players"] < len(SIT_AND_GO_PAYOUT_PERCENT)
        ):
            defaults["payout_percent"] = ()  # heads-up: the table by entrants (2-4 entrants: winner takes all)
        config = cls(format=fmt, buy_in=buy_in, entry_fee=entry_fee, **defaults)
        config._check_places_paid()
        return config

    @property
    def entry_cost(self) -> int:
        """Cents debited to register, and for each rebuy or add-on: buy-in plus entry fee (docs/rules.md, Money)."""
        return self.buy_in + self.entry_fee

    @property
    def waiting_list_size(self) -> int:
        """How many may wait beyond ``max_players`` (docs/rules.md, rule 3); a Sit&Go has no waiting list."""
        return 0 if self.format is TournamentFormat.SNG else WAITING_LIST_SIZE

    @property
    def plays_hand_for_hand(self) -> bool:
        """Whether the bubble is played hand-for-hand: as set, else when the field can fill more than one table."""
        if self.hand_for_hand is not None:
            return self.hand_for_hand
        return self.max_players > self.seats_per_table

    @property
    def chips_per_rebuy(self) -> int:
        return self.rebuy_chips or self.starting_stack

    def level(self, number: int) -> BlindLevel:
        """Level ``number`` (1-based); past the structure's end the last level continues."""
        _require_int("level number", number, 1)
        return self.levels[min(number, len(self.levels)) - 1]

    def rebuys_open(self, level_number: int) -> bool:
        """Whether a rebuy may be bought during level ``level_number`` (docs/rules.md, 'Rebuys and add-ons')."""
        return any(period.covers(level_number) for period in self.rebuy_periods)

    @property
    def last_rebuy_level(self) -> int | None:
        """The level whose end closes the last rebuy period (and offers the add-on), or None."""
        return self.rebuy_periods[-1].last_level if self.rebuy_periods else None

    def with_changes(self, **changes: Any) -> TournamentConfig:
        """A copy with ``changes``, validated again."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (ints, strings, lists) for storage and the lobby."""
        return {
            "format": str(self.format),
            "buy_in": self.buy_in,
            "entry_fee": self.entry_fee,
            "guarantee": self.guarantee,
            "starting_stack": self.starting_stack,
            "seats_per_table": self.seats_per_table,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "decision_seconds": self.decision_seconds,
            "away_decision_seconds": self.away_decision_seconds,
            "time_bank_seconds": self.time_bank_seconds,
            "level_minutes": self.level_minutes,
            "levels": [level.to_dict() for level in self.levels],
            "rebuy_periods": [[p.first_level, p.last_level] for p in self.rebuy_periods],
            "rebuy_chips": self.rebuy_chips,
            "add_on": None if self.add_on is None else {"chips": self.add_on.chips},
            "payout_percent": list(self.payout_percent),
            "hand_for_hand": self.hand_for_hand,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TournamentConfig:
        add_on = raw.get("add_on")
        ints = (
            "guarantee",
            "starting_stack",
            "seats_per_table",
            "min_players",
            "max_players",
            "decision_seconds",
            "away_decision_seconds",
            "time_bank_seconds",
            "level_minutes",
            "rebuy_chips",
        )
        return cls(
            format=TournamentFormat(raw["format"]),
            buy_in=int(raw["buy_in"]),
            entry_fee=int(raw["entry_fee"]),
            levels=tuple(BlindLevel.from_dict(level) for level in raw.get("levels", ())),
            rebuy_periods=tuple(RebuyPeriod(int(a), int(b)) for a, b in raw.get("rebuy_periods", ())),
            add_on=None if add_on is None else AddOn(int(add_on["chips"])),
            payout_percent=tuple(int(p) for p in raw.get("payout_percent", ())),
            hand_for_hand=None if raw.get("hand_for_hand") is None else bool(raw["hand_for_hand"]),
            **{name: int(raw[name]) for name in ints if name in raw},
        )


def levels_with_minutes(levels: Sequence[BlindLevel], minutes: int) -> tuple[BlindLevel, ...]:
    """The same structure with every level lasting ``minutes`` (e.g. ``--level-minutes``)."""
    return tuple(replace(level, minutes=minutes) for level in levels)
