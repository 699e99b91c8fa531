"""Rule 18: a seated player who has folded may chat (docs/rules.md, 'Conduct and management').

"Nothing about the hand in progress from players still in it": the room keeps
quiet only the players still in the hand. A player who folded is out of it and
talks like a player never dealt in; one still in it (all in included) waits
for its end.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain import chat as rules

from tests.unit.services.conftest import started
from tests.unit.services.test_service_play import awaiting


def test_rule_18_a_player_who_folded_may_chat_while_the_hand_goes_on(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a hand in progress where the first player to act folds and the hand goes on
    tid = started(services, create, clock)
    first = awaiting(services, tid)
    services.play.act(tid, "1", first.player, first.hand, first.seq, "fold")
    table = services.adapters.store.tables.get(tid, "1").table
    assert table.hand_in_progress
    # When the player who folded says a line
    said = services.chat.say(tid, "1", first.player, "good luck all")
    # Then the table hears it
    assert said["player"] == first.player and said["text"] == "good luck all"
    # And the next player to act, still in the hand, is still refused
    still_in = awaiting(services, tid).player
    with pytest.raises(rules.InHand):
        services.chat.say(tid, "1", still_in, "I have aces")
    assert [line.reason for line in services.chat.lines(tid, "1").lines] == [None, "in_hand"]
