"""The local stack's virtual clock: real time since the stack started, multiplied by the time factor.

``tourney local up --time-factor 60`` makes a minute last a second. The runtime
compresses what it controls (schedules, SQS delays, workflow waits) and tells
the functions the same clock through two environment variables, so that code
comparing times (a start time reached, a level over) agrees with it: a
function's now is ``origin + (time.time() - origin) * factor``.

>>> clock = VirtualClock(factor=60, origin=1000.0)
>>> clock.at(1001.0)
1060.0
>>> clock.real(1060.0)
1001.0
>>> clock.environment()["TOURNEY_LOCAL_TIME_FACTOR"]
'60'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

ORIGIN_ENV = "TOURNEY_LOCAL_TIME_ORIGIN"  # epoch seconds when the local stack started
FACTOR_ENV = "TOURNEY_LOCAL_TIME_FACTOR"  # how many virtual seconds pass in a real one


@dataclass(frozen=True)
class VirtualClock:
    factor: float = 1.0
    origin: float = field(default_factory=time.time)

    def at(self, real: float) -> float:
        """The virtual time at real epoch ``real``."""
        return self.origin + (real - self.origin) * self.factor

    def now(self) -> float:
        return self.at(time.time())

    def real(self, virtual: float) -> float:
        """The real epoch at which the virtual clock reads ``virtual``."""
        return self.origin + (virtual - self.origin) / self.factor

    def environment(self) -> dict[str, str]:
        return {ORIGIN_ENV: repr(self.origin), FACTOR_ENV: f"{self.factor:g}"}
