"""Rule 18 on DynamoDB (moto): the rate window shared by every process, every line kept with its hand."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.dynamo.chat import DynamoChatLog
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain import chat as rules
from tourney.domain.errors import StaleVersion
from tourney.services.chat import ChatService
from tourney.services.commands import CreateTournament

from tests.support.aws import aws, dynamodb  # noqa: F401
from tests.support.driver import Driver
from tests.support.hand_ends import hold_for_the_coordination

pytestmark = pytest.mark.usefixtures("dynamodb")


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def services(clock: FrozenClock) -> Services:
    """The play over the memory store; the chat over the DynamoDB chat table (the ``ws`` function's log)."""
    wired = bootstrap_memory(clock=clock, rng=random.Random(18))
    return dataclasses.replace(wired, chat=chat_on_dynamodb(wired))


def chat_on_dynamodb(services: Services) -> ChatService:
    """A chat service over the chat table (another process's, when ``services`` has one already)."""
    d = services.deps
    return ChatService(store=d.store, pushes=d.pushes, clock=d.clock, log=DynamoChatLog(), language_of=lambda _: None)


def between_hands(services: Services, clock: FrozenClock) -> str:
    command = CreateTournament(
        name="Chat", format="freezeout", buy_in=1_000, entry_fee=100, start_at=clock.now() + timedelta(hours=1),
        tournament_id="t18", seats_per_table=6,
    )  # fmt: skip
    tid = services.admin.create_tournament(command).id
    for i in range(6):
        services.accounts.deposit(f"p{i}", 10_000, key=f"fund-p{i}")
        services.registration.register(tid, f"p{i}")
    clock.advance(3_600)
    services.start.start_due(tid)
    Driver(services).run_workflows()
    store = services.adapters.store
    hold_for_the_coordination(store, tid, "1")  # its hand end waits for the coordination: nobody is in a hand
    hand = store.tables.get(tid, "1").table.hand_number
    while (w := store.tables.get(tid, "1").table.awaiting()) is not None and w.hand == hand:
        services.play.act(tid, "1", w.player, w.hand, w.seq, "fold")
    return tid


def test_rule_18_five_lines_in_any_10_seconds_counted_across_processes_on_dynamodb(
    services: Services, clock: FrozenClock
) -> None:
    # Given two chat services (two Lambdas) over the chat table
    tid = between_hands(services, clock)
    other: Callable[..., object] = chat_on_dynamodb(services).say
    # When p0 says 3 lines through one and 2 through the other, then a sixth is refused by either
    for i in range(3):
        services.chat.say(tid, "1", "p0", f"gg {i}")
    for i in range(2):
        other(tid, "1", "p0", f"nh {i}")
    with pytest.raises(rules.RateLimited):
        other(tid, "1", "p0", "wp")
    # When 10 seconds have passed since the first, then p0 may chat again
    clock.advance(10)
    services.chat.say(tid, "1", "p0", "ok")


def test_rule_18_a_rate_window_is_put_only_over_the_version_read(services: Services, clock: FrozenClock) -> None:
    # Given a window another process wrote after this one read it
    log = DynamoChatLog()
    stale = log.window("p0")
    log.save_window("p0", stale.admit(100.0))
    # When this one writes from what it read, then the put is refused (conditional write), and the first kept
    with pytest.raises(StaleVersion):
        log.save_window("p0", stale.admit(101.0))
    assert log.window("p0") == rules.RateWindow((100.0,), 1)


def test_rule_18_every_line_refused_ones_too_is_kept_on_dynamodb(services: Services, clock: FrozenClock) -> None:
    # Given an observer refused and a player accepted at table 1
    tid = between_hands(services, clock)
    with pytest.raises(rules.Observer):
        services.chat.say(tid, "1", "watcher", "hello all")
    clock.advance(1)
    services.chat.say(tid, "1", "p1", "good luck everyone")
    # Then the operators' listing reads both from the chat table, oldest first, with hand and reason
    hand = services.adapters.store.tables.get(tid, "1").table.hand_number
    lines = [(x.player, x.hand, x.speaker, x.accepted, x.reason) for x in services.chat.lines(tid, "1").lines]
    assert lines == [("watcher", hand, "observer", False, "observer"), ("p1", hand, "player", True, None)]


def test_rule_18_an_operators_connection_is_remembered(services: Services) -> None:
    log = DynamoChatLog()
    log.mark_operator("c-op")
    assert log.is_operator("c-op") and not log.is_operator("c-someone")
