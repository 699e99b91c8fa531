"""WebSocket connections at the edge: who is behind a connection, and the ``@connections`` API.

``Connections`` is the port the ``ws`` function reaches the connections
through (``Services.connections``: the composition root wires the pushes
adapter over the ``connections`` table): record a connection with its player
at ``$connect``, forget it at ``$disconnect`` (or when API Gateway says it is
gone), subscribe it to a table, and tell whose it is.

:class:`ConnectionsApi` posts to one connection through API Gateway's
management API (``apigatewaymanagementapi.post_to_connection``); a
``GoneException`` (the client went away without ``$disconnect``) removes the
stale connection and is not an error.

Chat (rule 18) is ``tourney.services.chat``: its limits hold across every
process, so no part of it lives here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tourney.entrypoints.observability import logger

__all__ = ["Connections", "ConnectionsApi"]


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
