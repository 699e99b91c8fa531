"""Fault plans: what goes wrong, and when, in one simulated run (``tourney chaos``; docs/interfaces.md).

A plan is seeded, so a run replays exactly from its seed. :data:`NO_FAULTS`
is the plan of ``tourney simulate``: nothing fails. :meth:`FaultPlan.drawn`
draws the rates of one chaos run; each decision then draws from the plan's
own generator, in the order the cloud asks, so the same seed injects the same
faults at the same moments.

Beside these brief faults, a plan may hold :class:`Lasting` ones: a workflow
step or a function that fails every time from one instant to another, hours
later, as a broken deployment does until it is rolled back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime

from infra.workflow_states import DEFINITIONS


@dataclass
class FaultCounts:
    """Faults injected in a run (the chaos report's ``faults``)."""

    crashes: int = 0
    duplicates: int = 0
    late: int = 0
    reordered: int = 0
    task_failures: int = 0
    timeouts: int = 0
    operator_acts: int = 0
    lasting: int = 0
    """Lasting faults that struck (each counted once, however often its step failed)."""

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    def add(self, other: FaultCounts) -> None:
        for name, value in other.to_dict().items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def total(self) -> int:
        return sum(self.to_dict().values())


@dataclass(frozen=True)
class CrashPoint:
    """Where an invocation dies: at its ``commit``-th commit, ``before`` or ``after`` it applies.

    ``past_timeout``: it does all its work and dies before answering (the
    trigger sees a failure and delivers again).
    """

    commit: int
    phase: str
    past_timeout: bool = False


@dataclass(frozen=True)
class Lasting:
    """``target`` (a workflow step, or a function by its name in ``infra/wiring.py``) fails every time it runs
    from ``start`` to ``end``: a task fails, an invocation dies before its first commit."""

    target: str
    start: datetime
    end: datetime

    def covers(self, target: str, now: datetime) -> bool:
        return target == self.target and self.start <= now < self.end


@dataclass
class FaultPlan:
    """The rates of one run's faults, and the generator that draws them."""

    seed: int = 0
    crash: float = 0.0
    """Chance that an invocation dies (at a commit, or past its timeout)."""
    duplicate: float = 0.0
    late: float = 0.0
    task_failure: float = 0.0
    lasting: tuple[Lasting, ...] = ()
    counts: FaultCounts = field(default_factory=FaultCounts)
    log: list[str] = field(default_factory=list)
    clock: Callable[[], datetime] | None = None
    """The cloud's clock, read by the lasting faults (set by the simulation that runs the plan)."""

    def __post_init__(self) -> None:
        self._rng = random.Random(f"faults:{self.seed}")
        self._struck: set[Lasting] = set()

    @classmethod
    def drawn(cls, seed: int, lasting: tuple[Lasting, ...] = ()) -> FaultPlan:
        rng = random.Random(f"plan:{seed}")
        crash = rng.choice((0.0, 0.01, 0.03, 0.08))
        if crash == 0.0 and any(not _is_step(f.target) for f in lasting):
            crash = 0.01  # the cloud asks where an invocation dies only under a plan that kills invocations
        return cls(
            seed=seed,
            crash=crash,
            duplicate=rng.choice((0.0, 0.02, 0.1)),
            late=rng.choice((0.0, 0.02, 0.1)),
            task_failure=rng.choice((0.0, 0.1, 0.3)),
            lasting=lasting,
        )

    @property
    def active(self) -> bool:
        return bool(self.crash or self.duplicate or self.late or self.task_failure or self.lasting)

    def _lasting(self, target: str) -> bool:
        """``target`` is down now (a lasting fault covers it): counted once per fault, logged once."""
        if not self.lasting or self.clock is None:
            return False
        now = self.clock()
        for fault in self.lasting:
            if fault.covers(target, now):
                if fault not in self._struck:
                    self._struck.add(fault)
                    self.counts.lasting += 1
                    self.log.append(f"lasting: {target} fails every time from {fault.start} to {fault.end}")
                return True
        return False

    def rng_for(self, purpose: str) -> random.Random:
        """A generator of its own for ``purpose`` (the services' shuffles, the bots), from the same seed."""
        return random.Random(f"{purpose}:{self.seed}")

    def crash_point(self, function: str) -> CrashPoint | None:
        if self._lasting(function):
            return CrashPoint(1, "before")
        if not self.crash or self._rng.random() >= self.crash:
            return None
        if self._rng.random() < 0.2:
            self.log.append(f"{function}: past its timeout")
            return CrashPoint(0, "none", past_timeout=True)
        point = CrashPoint(self._rng.randint(1, 3), self._rng.choice(("before", "after")))
        self.log.append(f"{function}: dies {point.phase} commit {point.commit}")
        return point

    def delivery(self, queue: str) -> tuple[int, float]:
        """How many copies of a message arrive (1 or 2) and how late the first is (seconds)."""
        if not (self.duplicate or self.late):
            return 1, 0.0
        copies = 1
        if self._rng.random() < self.duplicate:
            copies = 2
            self.counts.duplicates += 1
        late = 0.0
        if self._rng.random() < self.late:
            late = self._rng.choice((0.5, 3.0, 20.0, 90.0))
            self.counts.late += 1
            if queue != "coordinator":
                self.counts.reordered += 1  # a standard queue's late message lands after later ones
        return copies, late

    def duplicate_lag(self) -> float:
        return self._rng.choice((0.0, 0.2, 5.0, 40.0))

    def task_fails(self, step: str) -> bool:
        if self._lasting(step):
            return True
        if self.task_failure and self._rng.random() < self.task_failure:
            self.counts.task_failures += 1
            self.log.append(f"task {step} failed")
            return True
        return False


STEPS = frozenset(step for definition in DEFINITIONS.values() for step in definition.steps)
"""The workflows' task steps (``infra/workflow_states.py``); any other target is a function."""


def _is_step(target: str) -> bool:
    return target in STEPS


NO_FAULTS = FaultPlan()
"""Nothing fails (``tourney simulate``)."""
