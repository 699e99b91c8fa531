"""Rule 18: table chat over the memory store (docs/rules.md, 'Conduct and management').

At most 200 characters a line and 5 lines in any 10 seconds per player (the
window shared by every process through the chat log); seated players not in
the hand in progress may chat, players in it may not, observers read only,
operators may always write; muted players are silenced; a line in another
language than English is refused, a short one the detector cannot place is
accepted; every line, refused ones too, is kept with its table and hand.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain import chat as rules
from tourney.domain.errors import StaleVersion
from tourney.services.chat import ChatService

from tests.unit.services.conftest import started
from tests.unit.services.test_rule_17_termination_defects import fold_to_the_end_of_the_hand


@pytest.fixture
def between_hands(services: Services, create: Callable[..., str], clock: FrozenClock) -> str:
    """A running tournament (p0..p5 at table 1) whose first hand just ended: nobody is in a hand."""
    tid = started(services, create, clock)
    fold_to_the_end_of_the_hand(services, tid)
    return tid


def chat_events(services: Services) -> list[dict[str, object]]:
    return [
        dict(everyone) for _, _, everyone, _ in services.adapters.pushes.table_pushes if everyone.get("type") == "chat"
    ]


def reasons(services: Services, tid: str, table: str = "1") -> list[str | None]:
    return [line.reason for line in services.chat.lines(tid, table).lines]


def test_rule_18_seated_player_not_in_the_hand_may_chat_and_the_table_hears_it(
    services: Services, between_hands: str
) -> None:
    # Given a seated player between hands
    tid = between_hands
    hand = services.adapters.store.tables.get(tid, "1").table.hand_number
    # When p0 says a line
    said = services.chat.say(tid, "1", "p0", "  nice hand  ")
    # Then the table's subscribers hear it as docs/interfaces.md's chat event, trimmed, with the hand and the
    # speaker's name (their id: p0 chose no display name)
    expected = {
        "type": "chat", "tournament_id": tid, "table": "1", "hand": hand, "player": "p0", "name": "p0",
        "text": "nice hand",
    }  # fmt: skip
    assert said == expected
    assert chat_events(services) == [expected]


def test_rule_18_player_in_the_hand_in_progress_cannot_chat_until_it_ends(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a hand in progress that p0 is dealt in
    tid = started(services, create, clock)
    assert services.adapters.store.tables.get(tid, "1").table.in_hand("p0")
    # When p0 chats, then it is refused as in_hand and nobody hears it
    with pytest.raises(rules.InHand) as refused:
        services.chat.say(tid, "1", "p0", "I have aces lol")
    assert refused.value.code == "in_hand"
    assert chat_events(services) == []
    # When the hand ends, then p0 may chat
    fold_to_the_end_of_the_hand(services, tid)
    services.chat.say(tid, "1", "p0", "good luck everyone")
    assert reasons(services, tid) == ["in_hand", None]


def test_rule_18_observers_read_only(services: Services, between_hands: str) -> None:
    # Given someone not seated at table 1
    tid = between_hands
    # When they chat, then it is refused as observer
    with pytest.raises(rules.Observer):
        services.chat.say(tid, "1", "watcher", "hello from Canada")
    # And a seated player's line still reaches every subscriber, observers included
    pushes = services.adapters.pushes
    pushes.connect("c-watcher", "watcher")
    pushes.subscribe("c-watcher", tid, "1")
    services.chat.say(tid, "1", "p1", "see you at the next table")
    assert [m.get("text") for m in pushes.received("c-watcher")] == ["see you at the next table"]


def test_rule_18_operators_may_always_write(services: Services, create: Callable[..., str], clock: FrozenClock) -> None:
    # Given a hand in progress
    tid = started(services, create, clock)
    # When an operator, not seated there, writes during it, then the table hears it
    said = services.chat.say(tid, "1", "olga", "please keep the chat friendly", operator=True)
    assert said["player"] == "olga"
    assert services.chat.lines(tid, "1").lines[0].speaker == "operator"


def test_rule_18_a_line_is_at_most_200_characters(services: Services, between_hands: str) -> None:
    tid = between_hands
    # When a line has 200 characters, then it is accepted; with 201, refused as too_long
    services.chat.say(tid, "1", "p0", "a" * 200)
    with pytest.raises(rules.TooLong):
        services.chat.say(tid, "1", "p0", "b" * 201)
    assert reasons(services, tid) == [None, "too_long"]


def test_rule_18_at_most_5_lines_in_any_10_seconds_per_player(
    services: Services, between_hands: str, clock: FrozenClock
) -> None:
    tid = between_hands
    # Given p0's 5 lines, one a second
    for i in range(5):
        services.chat.say(tid, "1", "p0", f"gg {i}")
        clock.advance(1)
    # When p0 says a sixth 9 seconds after the first, then it is refused; p1 is not limited by p0
    clock.advance(4.9)
    with pytest.raises(rules.RateLimited):
        services.chat.say(tid, "1", "p0", "gg again")
    services.chat.say(tid, "1", "p1", "ty")
    # When 10 seconds have passed since the first, then one more fits (a sliding window), not two
    clock.advance(0.1)
    services.chat.say(tid, "1", "p0", "ok")
    with pytest.raises(rules.RateLimited):
        services.chat.say(tid, "1", "p0", "ok ok")
    assert reasons(services, tid).count("rate_limited") == 2


def test_rule_18_the_rate_window_is_shared_by_every_process(
    services: Services, between_hands: str, clock: FrozenClock
) -> None:
    # Given two chat services over one chat log (two Lambda invocations, one table of windows)
    tid = between_hands
    d = services.deps
    other = ChatService(
        store=d.store, pushes=d.pushes, clock=d.clock, log=services.chat.log, language_of=lambda t: None
    )
    # When p0 says 3 lines through one and 2 through the other
    for i in range(3):
        services.chat.say(tid, "1", "p0", f"gg {i}")
    for i in range(2):
        other.say(tid, "1", "p0", f"nh {i}")
    # Then a sixth is refused by either
    with pytest.raises(rules.RateLimited):
        other.say(tid, "1", "p0", "wp")
    with pytest.raises(rules.RateLimited):
        services.chat.say(tid, "1", "p0", "wp")


def test_rule_18_a_window_written_meanwhile_is_read_again(services: Services, between_hands: str) -> None:
    # Given another process that counted a line of p0 after this one read the window
    log = services.chat.log
    stale = log.window("p0")
    log.save_window("p0", stale.admit(0.0))
    # When this one writes from the window it read, then the write is refused
    with pytest.raises(StaleVersion):
        log.save_window("p0", stale.admit(0.0))


def test_rule_18_a_muted_player_is_silenced(services: Services, between_hands: str) -> None:
    tid = between_hands
    # Given an operator who muted p2
    services.management.mute("p2", "olga", "abuse", 30, key="m1")
    # When p2 chats, then it is refused as muted
    with pytest.raises(rules.Muted):
        services.chat.say(tid, "1", "p2", "sorry")
    # When the operator unmutes p2, then p2 may chat
    services.management.unmute("p2", "olga", "apologised", key="u1")
    services.chat.say(tid, "1", "p2", "sorry everyone")
    assert reasons(services, tid) == ["muted", None]


def test_rule_18_a_line_in_another_language_is_refused_and_short_chat_is_accepted(
    services: Services, between_hands: str, clock: FrozenClock
) -> None:
    tid = between_hands
    # When players say short lines the detector cannot place, then they are accepted
    for player, line in (("p0", "gg"), ("p1", "nh"), ("p2", "wow what a river")):
        services.chat.say(tid, "1", player, line)
    # When a player writes Spanish, French or Russian, then it is refused as not_english
    for player, line in (("p3", "buena suerte a todos"), ("p4", "bonne chance à tous"), ("p5", "хорошая игра")):
        with pytest.raises(rules.NotEnglish):
            services.chat.say(tid, "1", player, line)
    assert reasons(services, tid) == [None, None, None, "not_english", "not_english", "not_english"]


def test_rule_18_every_line_refused_ones_too_is_kept_with_its_table_and_hand(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a line refused during hand 1 and one accepted after it
    tid = started(services, create, clock)
    with pytest.raises(rules.InHand):
        services.chat.say(tid, "1", "p0", "fold please")
    hand = fold_to_the_end_of_the_hand(services, tid)
    services.chat.say(tid, "1", "p0", "unlucky, you played it well")
    # Then the operators' listing has both, oldest first, with the hand and the reason
    view = services.chat.lines(tid, "1").to_dict()
    assert view["tournament_id"] == tid and view["table"] == "1"
    kept = [(line["hand"], line["player"], line["text"], line["accepted"], line["reason"]) for line in view["lines"]]
    assert kept == [
        (hand, "p0", "fold please", False, "in_hand"),
        (hand, "p0", "unlucky, you played it well", True, None),
    ]
