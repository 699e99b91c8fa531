"""WebSocket connections at the edge: who is behind a connection, the ``@connections`` API, the chat gate.

``Connections`` is what the ``ws`` function needs from the adapter that keeps
the connections (the pushes adapter over the ``connections`` table): record a
connection with its player at ``$connect``, forget it at ``$disconnect`` (or
when API Gateway says it is gone), subscribe it to a table, and tell whose
it is.

:class:`ConnectionsApi` posts to one connection through API Gateway's
management API (``apigatewaymanagementapi.post_to_connection``); a
``GoneException`` (the client went away without ``$disconnect``) removes the
stale connection and is not an error.

:class:`ChatGate` enforces what the system can of rule 18 (RULES.md, 'Conduct'):
a length limit, a rate limit per player, and no chat from a player dealt in
the hand in progress at that table.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tourney.entrypoints.errors import ChatRefused
from tourney.entrypoints.observability import logger

__all__ = ["ChatGate", "Connections", "ConnectionsApi", "dealt_in"]


class Connections(Protocol):
    def connect(self, connection: str, player: str | None = None) -> None: ...

    def disconnect(self, connection: str) -> None: ...

    def subscribe(self, connection: str, tournament_id: str, table_id: str) -> None: ...

    def player_of(self, connection: str) -> str | None: ...


class ConnectionsApi:
    """Posts to WebSocket connections; forgets the ones API Gateway says are gone."""

    def __init__(self, endpoint: str, forget: Callable[[str], None], client: Any = None) -> None:
        self._endpoint = endpoint
        self._forget = forget
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("apigatewaymanagementapi", endpoint_url=self._endpoint)
        return self._client

    def post(self, connection: str, message: Mapping[str, Any]) -> bool:
        """Send ``message`` as JSON; False (and the connection forgotten) when it is gone."""
        try:
            self.client.post_to_connection(ConnectionId=connection, Data=json.dumps(message).encode())
        except self.client.exceptions.GoneException:
            logger.info("connection gone, removed", extra={"connection_id": connection})
            self._forget(connection)
            return False
        return True


def dealt_in(table_view: Any) -> bool:
    """Whether the viewer of ``table_view`` (a ``TableView``) is dealt in the hand in progress (folded or not)."""
    if not table_view.hand_in_progress or table_view.your_seat is None:
        return False
    return any(seat.seat == table_view.your_seat and seat.status != "waiting" for seat in table_view.seats)


class ChatGate:
    """Rule 18's checks the system can make: length, rate, and silence of the players in the hand."""

    def __init__(self, max_length: int, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_length = max_length
        self.per_minute = per_minute
        self._clock = clock
        self._sent: dict[str, deque[float]] = {}

    def admit(self, player: str, text: str, table_view: Any) -> str:
        """The text to broadcast, or ``ChatRefused``. The rate is counted per process (best effort)."""
        line = text.strip()
        if len(line) > self.max_length:
            raise ChatRefused(f"chat lines are at most {self.max_length} characters")
        if dealt_in(table_view):
            raise ChatRefused("players in the hand in progress cannot chat until it ends")
        now = self._clock()
        sent = self._sent.setdefault(player, deque())
        while sent and now - sent[0] >= 60.0:
            sent.popleft()
        if len(sent) >= self.per_minute:
            raise ChatRefused(f"at most {self.per_minute} chat lines a minute")
        sent.append(now)
        return line
