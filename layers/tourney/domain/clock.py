"""The tournament clock: the level is a function of play time (docs/architecture.md, 'Time is data'; rule 17).

Nothing is scheduled per level. The clock is the instant play started and the
pauses since (a termination pauses it; a successful restart resumes it), and
every question (which level, how long until the next) is answered from those
and the instant ``now`` passed in. So a restart "resumes the same blind level
with the time that was left" (docs/rules.md, rule 17, 2) without any stored timer.

Instants are timezone-aware ``datetime``s (UTC by convention). Before the
start, play time is zero (level 1 with its whole duration left). Past the last
level of the structure, the last level continues with no end
(``LevelPosition.remaining`` is None).

>>> from datetime import datetime, timedelta, timezone
>>> from tourney.domain.structure import default_levels
>>> t0 = datetime(2025, 1, 1, 20, 0, tzinfo=timezone.utc)
>>> clock = TournamentClock(t0).pause(t0 + timedelta(minutes=25)).resume(t0 + timedelta(minutes=40))
>>> pos = clock.position(default_levels(), t0 + timedelta(minutes=42))
>>> pos.level.number, pos.remaining
(3, datetime.timedelta(seconds=180))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tourney.domain.errors import InvalidClock
from tourney.domain.structure import BlindLevel

_ZERO = timedelta(0)
_MICROSECOND = timedelta(microseconds=1)
_MINUTE_US = 60_000_000


def _level_of(levels: Sequence[BlindLevel], played_us: int) -> tuple[BlindLevel, int, int | None]:
    """(level, its start, its end) at ``played_us`` microseconds of play; the end is None past the structure.

    Whole microseconds: the walk adds ints, not timedeltas (a deal asks for its level every hand).
    """
    level_start = 0
    for level in levels:
        level_end = level_start + level.minutes * _MINUTE_US
        if played_us < level_end:
            return level, level_start, level_end
        level_start = level_end
    last = levels[-1]
    # Past the structure's end the last level continues; its elapsed time counts from its own start.
    return last, level_start - last.minutes * _MINUTE_US, None


def _require_aware(name: str, instant: datetime) -> None:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise InvalidClock(f"{name} must be timezone-aware (UTC), got {instant!r}")


@dataclass(frozen=True, slots=True)
class Pause:
    """Play stopped at ``start`` and went on at ``end`` (None: still stopped)."""

    start: datetime
    end: datetime | None = None

    def overlap(self, until: datetime) -> timedelta:
        """How much of this pause lies before ``until``."""
        stop = until if self.end is None else min(self.end, until)
        return max(_ZERO, stop - self.start)


@dataclass(frozen=True, slots=True)
class LevelPosition:
    """Where the clock stands: the current level, time played in it and time left (docs/rules.md, 'Defaults')."""

    level: BlindLevel
    elapsed: timedelta
    remaining: timedelta | None
    play_time: timedelta
    paused: bool


@dataclass(frozen=True, slots=True)
class TournamentClock:
    """Start instant and pauses of one tournament; everything else is computed (docs/rules.md, rule 17)."""

    started_at: datetime
    pauses: tuple[Pause, ...] = ()

    def __post_init__(self) -> None:
        _require_aware("started_at", self.started_at)
        object.__setattr__(self, "pauses", tuple(self.pauses))
        previous_end = self.started_at
        for index, pause in enumerate(self.pauses):
            _require_aware("pause start", pause.start)
            if pause.start < previous_end:
                raise InvalidClock(f"pause {index} starts at {pause.start}, before {previous_end}")
            if pause.end is None:
                if index != len(self.pauses) - 1:
                    raise InvalidClock("only the last pause may still be open")
                continue
            _require_aware("pause end", pause.end)
            if pause.end < pause.start:
                raise InvalidClock(f"pause {index} ends at {pause.end}, before it starts")
            previous_end = pause.end

    @property
    def is_paused(self) -> bool:
        """Whether the clock is stopped now (its last pause has no end)."""
        return bool(self.pauses) and self.pauses[-1].end is None

    def pause(self, at: datetime) -> TournamentClock:
        """The clock stopped at ``at`` (termination, docs/rules.md, rule 17, 1)."""
        _require_aware("pause instant", at)
        if self.is_paused:
            raise InvalidClock("the clock is already paused")
        return TournamentClock(self.started_at, (*self.pauses, Pause(at)))

    def resume(self, at: datetime) -> TournamentClock:
        """The clock running again from ``at``, same level, same time left (docs/rules.md, rule 17, 2)."""
        _require_aware("resume instant", at)
        if not self.is_paused:
            raise InvalidClock("the clock is not paused")
        return TournamentClock(self.started_at, (*self.pauses[:-1], Pause(self.pauses[-1].start, at)))

    def play_time(self, now: datetime) -> timedelta:
        """Time played between the start and ``now``, pauses excluded; zero before the start."""
        _require_aware("now", now)
        if now <= self.started_at:
            return _ZERO
        if not self.pauses:
            return now - self.started_at
        stopped = sum((pause.overlap(now) for pause in self.pauses), _ZERO)
        return now - self.started_at - stopped

    def position(self, levels: Sequence[BlindLevel], now: datetime) -> LevelPosition:
        """The level in play at ``now`` and the time left in it (docs/rules.md, 'Defaults'; 'Time is data')."""
        if not levels:
            raise InvalidClock("a blind structure needs at least one level")
        played = self.play_time(now)
        paused = self.is_paused and now >= self.pauses[-1].start
        level, start_us, end_us = _level_of(levels, played // _MICROSECOND)
        remaining = timedelta(microseconds=end_us) - played if end_us is not None else None
        return LevelPosition(level, played - timedelta(microseconds=start_us), remaining, played, paused)

    def level_at(self, levels: Sequence[BlindLevel], now: datetime) -> BlindLevel:
        """The blind level in play at ``now``: ``position(levels, now).level``, without the time left (every deal)."""
        if not levels:
            raise InvalidClock("a blind structure needs at least one level")
        return _level_of(levels, self.play_time(now) // _MICROSECOND)[0]

    def next_level_at(self, levels: Sequence[BlindLevel], now: datetime) -> datetime | None:
        """The instant the next level starts if play is not stopped again; None when paused or at the last level."""
        position = self.position(levels, now)
        if position.paused or position.remaining is None:
            return None
        return max(now, self.started_at) + position.remaining

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ISO-8601 instants."""
        return {
            "started_at": self.started_at.isoformat(),
            "pauses": [
                [pause.start.isoformat(), None if pause.end is None else pause.end.isoformat()] for pause in self.pauses
            ],
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TournamentClock:
        return cls(
            started_at=datetime.fromisoformat(raw["started_at"]),
            pauses=tuple(
                Pause(datetime.fromisoformat(start), None if end is None else datetime.fromisoformat(end))
                for start, end in raw.get("pauses", ())
            ),
        )
