"""A stage's throttling, as API Gateway applies it: a token bucket per stage (``DefaultRouteSettings``).

The template's stage gives a steady rate (``ThrottlingRateLimit``, requests per
second) and a burst (``ThrottlingBurstLimit``, the bucket's size); a request
that finds the bucket empty is answered 429 ``{"message": "Too Many
Requests"}`` before any authorizer or function runs (a WebSocket message: an
error frame). The bucket is used from the gateway's event loop only.

>>> clock = iter([0.0, 0.0, 0.0, 0.5]).__next__
>>> bucket = TokenBucket(rate=2, burst=2, clock=clock)
>>> bucket.take(), bucket.take(), bucket.take(), bucket.take()
(True, True, False, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

TOO_MANY_REQUESTS = "Too Many Requests"


class TokenBucket:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = float(rate)
        self.burst = int(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._at: float | None = None

    def take(self) -> bool:
        """One request's token, if the bucket has one (it refills at ``rate`` a second, up to ``burst``)."""
        now = self._clock()
        if self._at is not None:
            self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


def stage_throttle(stage: Mapping[str, Any]) -> TokenBucket | None:
    """The bucket of a resolved ``AWS::ApiGatewayV2::Stage``'s ``DefaultRouteSettings`` (None: no throttling)."""
    settings = stage.get("DefaultRouteSettings") or {}
    rate, burst = settings.get("ThrottlingRateLimit"), settings.get("ThrottlingBurstLimit")
    if rate is None or burst is None:
        return None
    return TokenBucket(float(rate), int(burst))
