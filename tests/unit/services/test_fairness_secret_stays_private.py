"""A hand's secret never reaches a player; the salts a history reveals are those it gives.

The secret gives every salt of the deck's commitment, hence a way to check a guess of a card not shown
(docs/interfaces.md, 'Provably fair deals'): no table view, push or hand history carries it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain import fairness

from tests.support.driver import Driver
from tests.unit.services.conftest import started

PLAYERS = [f"p{i}" for i in range(6)]


def _forms(secret: bytes) -> set[str]:
    """The ways a secret could be written into a JSON document."""
    return {
        secret.hex(),
        secret.hex().upper(),
        base64.b64encode(secret).decode().rstrip("="),
        base64.urlsafe_b64encode(secret).decode().rstrip("="),
    }


def _text(value: Any) -> str:
    return json.dumps(value, default=str)


def test_no_view_push_or_history_carries_a_hands_secret_and_histories_reveal_its_salts(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a table of six, every player and an observer connected to it, and several hands played
    tid = started(services, create, clock)
    pushes, store = services.adapters.pushes, services.adapters.store
    for player in [*PLAYERS, None]:
        connection = f"c-{player}"
        pushes.connect(connection, player)
        pushes.subscribe(connection, tid, "1")
    driver = Driver(services)
    secrets: dict[int, bytes] = {}
    seen: list[str] = []
    while store.tables.get(tid, "1").table.hand_number < 6:
        hand = store.tables.get(tid, "1").table.hand
        if hand is not None and hand.secret is not None:
            secrets[store.tables.get(tid, "1").table.hand_number] = hand.secret
        seen.extend(_text(services.lobby.table_view(tid, "1", p).to_dict()) for p in [*PLAYERS, None])
        assert driver.step(tid)

    # When every push, every table view and every player's history of every hand is read
    seen.extend(_text(d.message) for d in pushes.deliveries)
    seen.extend(_text(push) for push in pushes.table_pushes)
    seen.append(_text(services.lobby.standings(tid)))
    histories = {
        (number, player): services.lobby.hand_history(tid, "1", number, player).to_dict()
        for number in range(1, 6)
        for player in [*PLAYERS, None]
    }
    seen.extend(_text(history) for history in histories.values())

    # Then every hand dealt had a secret, and none of them is in anything a player or an observer got
    assert sorted(secrets) == [1, 2, 3, 4, 5]
    assert len(pushes.deliveries) > 100
    for secret in secrets.values():
        assert not any(form in text for form in _forms(secret) for text in seen)
    # And each history reveals, for the cards it shows, exactly the salts the hand's secret gives by the recipe
    # (a player sees at least their own two cards; nobody sees the whole deck)
    for (number, player), history in histories.items():
        salts = fairness.salts_of(secrets[number])
        revealed = history["fairness"]["cards"]
        assert (player is None or len(revealed) >= 2) and len(revealed) < 52
        assert all(card["salt"] == salts[card["i"]] for card in revealed)
