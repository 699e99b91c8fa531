"""Display names (docs/interfaces.md, ``GET``/``PUT /me/profile``): 3 to 20 characters, unique regardless of
case; seats, standings, places and chat lines carry ``name`` (the player id until a name is chosen)."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.api.app import handler as api
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, memory, running  # noqa: F401


def put(context: FakeContext, player: str, name: Any) -> tuple[int, Any]:
    response = api(http_event("PUT", "/me/profile", body={"display_name": name}, player=player), context)
    return response["statusCode"], answer_json(response)


def get(context: FakeContext, player: str) -> Any:
    response = api(http_event("GET", "/me/profile", player=player), context)
    assert response["statusCode"] == 200
    return answer_json(response)


def test_a_player_chooses_a_display_name_and_reads_it_back(memory: Services, context: FakeContext) -> None:
    # Given a player who never chose a name, Then their profile has none
    assert get(context, "ann") == {"player_id": "ann", "display_name": None}
    # When they choose one, Then it is theirs, and choosing it again changes nothing
    assert put(context, "ann", "Ann Marie-2") == (200, {"player_id": "ann", "display_name": "Ann Marie-2"})
    assert put(context, "ann", "Ann Marie-2")[0] == 200
    assert get(context, "ann")["display_name"] == "Ann Marie-2"


def test_a_display_name_is_unique_regardless_of_case(memory: Services, context: FakeContext) -> None:
    # Given ann holds "Lucky Ann"
    assert put(context, "ann", "Lucky Ann")[0] == 200
    # When bob asks for it in other letters' case, Then it is a 409 and bob has no name
    status, body = put(context, "bob", "LUCKY ann")
    assert (status, body["error"]) == (409, "name_taken")
    assert get(context, "bob")["display_name"] is None
    # When ann changes hers, Then the old one is free for bob
    assert put(context, "ann", "Ann2")[0] == 200
    assert put(context, "bob", "lucky ANN") == (200, {"player_id": "bob", "display_name": "lucky ANN"})


@pytest.mark.parametrize("name", ["ab", "a" * 21, " ann", "ann ", "an  n", "ann!", "ann\tx", 42, None], ids=repr)
def test_a_display_name_that_breaks_the_rule_is_a_422_and_changes_nothing(
    memory: Services, context: FakeContext, name: Any
) -> None:
    # When a player asks for a name that breaks the rule, Then it is a 422 saying why, and nothing changed
    status, body = put(context, "ann", name)
    assert status == 422 and body["error"] in {"invalid_display_name", "invalid_request"}, body
    assert body["message"]
    assert get(context, "ann")["display_name"] is None


def test_seats_standings_and_chat_carry_the_display_name(
    memory: Services, context: FakeContext, clock: FrozenClock
) -> None:
    # Given a running tournament of four at one table whose player p1 chose a name
    assert put(context, "p1", "Shark_1")[0] == 200
    tid, table = running(memory, clock)
    # When a seated player reads the table, Then each seat names its player by display name, else by id
    view = memory.lobby.table_view(tid, table, "p1")
    assert {s.player: s.name for s in view.seats} == {"p0": "p0", "p1": "Shark_1", "p2": "p2", "p3": "p3"}
    # And so do the standings
    assert {r.player: r.name for r in memory.lobby.standings(tid).players}["p1"] == "Shark_1"
    # And a chat line carries the speaker's name (p1 is in the hand: an operator speaks, named by their id)
    assert memory.chat.say(tid, table, "olga", "good luck", operator=True)["name"] == "olga"
    assert put(context, "olga", "Floor Olga")[0] == 200
    assert memory.chat.say(tid, table, "olga", "good luck", operator=True)["name"] == "Floor Olga"
