"""A round of pushes on AWS (``WebSocketPushes.many``, on moto): the Queries of the recipients, then the posts, at once.

The coordinator settles a FIFO batch of hand ends and pushes every table it changed and every player it moved or
placed in one round (docs/rules.md, rules 11-13): each connection still gets what its own player may see, and one
failed push neither stops the others nor goes unreported.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from tourney.adapters.aws import WebSocketPushes
from tourney.services.ports import PlayerPush, Push, TablePush

from tests.support.aws import aws, dynamodb  # noqa: F401

pytestmark = pytest.mark.usefixtures("dynamodb")

TID = "t1"
TABLES = ("1", "2", "3", "4")
SLOW = 0.05
"""Seconds each Query and post takes here: long enough that calls made one after another never overlap."""


class InFlight:
    """Calls that take ``SLOW`` each: how many were in flight at once, at most."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._now = 0
        self.peak = 0

    def around(self, call: Callable[[], Any]) -> Any:
        with self._lock:
            self._now += 1
            self.peak = max(self.peak, self._now)
        try:
            time.sleep(SLOW)
            return call()
        finally:
            with self._lock:
                self._now -= 1


class GoneException(Exception):
    pass


class SlowConnectionsApi:
    """API Gateway's ``@connections``, each post slow: what every connection received."""

    class exceptions:
        GoneException = GoneException

    def __init__(self, gone: tuple[str, ...] = (), failing: tuple[str, ...] = ()) -> None:
        self.posts = InFlight()
        self.received: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._gone, self._failing = gone, failing

    def post_to_connection(self, ConnectionId: str, Data: bytes) -> None:
        self.posts.around(lambda: self._post(ConnectionId, Data))

    def _post(self, connection: str, data: bytes) -> None:
        if connection in self._gone:
            raise GoneException(connection)
        if connection in self._failing:
            raise RuntimeError(f"post to {connection} failed")
        self.received[connection].append(json.loads(data))


def _pushes(api: SlowConnectionsApi, monkeypatch: pytest.MonkeyPatch) -> tuple[WebSocketPushes, InFlight]:
    """Two players at each table and an observer of all four; the Queries of the connections slow, and counted."""
    pushes = WebSocketPushes("https://example.execute-api.us-east-1.amazonaws.com/live")
    pushes.__dict__["_api"] = api
    pushes.connect("c-obs")
    for table in TABLES:
        for player in (f"p{table}a", f"p{table}b"):
            pushes.connect(f"c-{player}", player)
            pushes.subscribe(f"c-{player}", TID, table)
        pushes.subscribe("c-obs", TID, table)
    queries = InFlight()
    subscribers, of_player = pushes.subscribers, pushes.of_player
    monkeypatch.setattr(pushes, "subscribers", lambda tid, table: queries.around(lambda: subscribers(tid, table)))
    monkeypatch.setattr(pushes, "of_player", lambda player: queries.around(lambda: of_player(player)))
    return pushes, queries


def _view(table: str) -> Callable[[str | None], Mapping[str, Any]]:
    """The table as ``player`` sees it: here, only whose hole cards it shows (None: an observer's, none)."""
    return lambda player: {"event": "table_changed", "table": table, "cards_of": player}


def _round() -> list[Push]:
    moved = {"event": "moved", "table": "2"}
    return [*(TablePush(TID, table, _view(table)) for table in TABLES), PlayerPush("p1a", moved)]


def test_rule_11_a_rounds_queries_and_posts_go_out_at_once_and_each_connection_gets_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given four tables with two players and an observer each, every Query and post slow
    api = SlowConnectionsApi()
    pushes, queries = _pushes(api, monkeypatch)
    # When the four tables and a moved player are pushed in one round
    pushes.many(_round())
    # Then the Queries went out at once, and so did the posts: all 13 of them, more than the Queries' 10 threads
    assert queries.peak == 5
    assert api.posts.peak == 13
    # And every connection got exactly its own: a player their table with their own cards (and p1a the move), the
    # observer each table with nobody's
    for table in TABLES:
        assert api.received[f"c-p{table}b"] == [{"event": "table_changed", "table": table, "cards_of": f"p{table}b"}]
    assert api.received["c-p1a"] == [
        {"event": "table_changed", "table": "1", "cards_of": "p1a"},
        {"event": "moved", "table": "2"},
    ]
    assert sorted(m["table"] for m in api.received["c-obs"]) == list(TABLES)
    assert all(m["cards_of"] is None for m in api.received["c-obs"])
    assert sum(map(len, api.received.values())) == 4 * 3 + 1


def test_rule_11_a_failed_post_is_raised_after_the_rounds_other_posts_and_a_gone_connection_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a connection whose post fails and one API Gateway reports gone
    api = SlowConnectionsApi(gone=("c-p3a",), failing=("c-p2a",))
    pushes, _ = _pushes(api, monkeypatch)
    # When a round pushes the four tables: the failure is raised
    with pytest.raises(RuntimeError, match="c-p2a"):
        pushes.many(_round())
    # Then every other connection got its messages all the same, and the gone one is forgotten
    assert sum(map(len, api.received.values())) == 4 * 3 + 1 - 2
    assert len(api.received["c-obs"]) == 4
    assert "c-p3a" not in {connection for connection, _ in pushes.subscribers(TID, "3")}


def test_rule_11_a_failed_query_is_raised_after_the_rounds_other_pushes_went_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given the Query of one table's subscribers failing
    api = SlowConnectionsApi()
    pushes, _ = _pushes(api, monkeypatch)
    subscribers = pushes.subscribers

    def failing(tid: str, table: str) -> Any:
        if table == "2":
            raise RuntimeError("Query of table 2 failed")
        return subscribers(tid, table)

    monkeypatch.setattr(pushes, "subscribers", failing)
    # When a round pushes the four tables: the failure is raised
    with pytest.raises(RuntimeError, match="table 2"):
        pushes.many(_round())
    # Then the three other tables and the moved player got theirs
    assert sorted(m["table"] for m in api.received["c-obs"]) == ["1", "3", "4"]
    assert sum(map(len, api.received.values())) == 3 * 3 + 1
