"""The places list of a tournament's page names players by their screen names, at a phone's and a desktop's size
(docs/interfaces.md: the standings' ``places[].name``; the web client). Two players with screen names play a
heads-up all in over HTTP until one busts, each watching the table
(a refused chat line stays in the input; at the finish, the winner by name, the place of the one out, no level
clock running on); the tournament's page is then read."""

from __future__ import annotations

import time
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import PATIENCE, act, call, check_or_call, fund, seed_running

OPERATOR = "nora"


def play_until_someone_busts(stack: LocalRuntime, tid: str, players: tuple[str, str]) -> list[dict[str, Any]]:
    """All in at every decision (else call or check) until the standings give the places; the places."""
    deadline = time.monotonic() + 2 * PATIENCE
    while time.monotonic() < deadline:
        _, standings = call(stack, "GET", f"/tournaments/{tid}/standings", stack.token(players[0]))
        if standings.get("status") == "finished":
            places: list[dict[str, Any]] = standings["places"]
            return places
        _, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(players[0]))
        to_act = view.get("to_act")
        if view.get("hand_in_progress") and to_act and to_act["max_raise_to"] is not None:  # all in: one hand or two
            kind = "bet" if all(not seat["bet"] for seat in view["seats"]) else "raise"
            act(stack, tid, view, kind, to_act["max_raise_to"])
        elif view.get("hand_in_progress") and to_act:
            act(stack, tid, view, check_or_call(view))
        else:
            time.sleep(0.3)
    raise AssertionError(f"nobody busted at {tid}")


def test_the_places_list_names_each_player_by_their_screen_name(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given two players who chose screen names
    players = (f"pia-{size}", f"quin-{size}")
    names = {players[0]: f"Pocket Pia {size}", players[1]: f"Quads Quin {size}"}
    fund(stack, OPERATOR, *players, amount=50_000)
    for player in players:
        status, answer = call(stack, "PUT", "/me/profile", stack.token(player), {"display_name": names[player]})
        assert status == 200, answer
    # And a heads-up of theirs (one level of their own), played all in until one busts
    level = {"small_blind": 250, "big_blind": 500}
    tid, _ = seed_running(stack, OPERATOR, f"places-{size}", players, starting_stack=2_000, levels=[level])
    tables = {player: pages.at_table(player, tid, viewport) for player in players}
    # When a player dealt in the hand says a line, it is refused and stays in the input, to be sent later
    tables[players[0]].get_by_label("Chat message").fill("nice hand")
    tables[players[0]].get_by_role("button", name="Send").click()
    tables[players[0]].locator(".chat-status", has_text="cannot chat until it ends").wait_for()
    assert tables[players[0]].get_by_label("Chat message").input_value() == "nice hand"
    places = play_until_someone_busts(stack, tid, players)
    assert sorted(p["place"] for p in places) == [1, 2]
    by_place = {p["place"]: p["player"] for p in places}
    # Then at the table the winner is named by the screen name, the one out is told their place, and the level
    # clock stops at the finish
    for table in tables.values():
        table.locator(".winner-banner", has_text=f"{names[by_place[1]]} won the tournament").wait_for()
        table.wait_for_function("() => !document.querySelector('#level-clock')")
    tables[by_place[2]].get_by_text("You finished 2nd").first.wait_for()
    # When one of them opens the tournament's page
    page = pages.signed_in(players[0], viewport=viewport)
    page.goto(f"{stack.urls['app']}#/t/{tid}")
    listed = page.locator(".places li")
    listed.first.wait_for()
    # Then each place names its player by the screen name, never the account id
    texts = [listed.nth(i).inner_text() for i in range(listed.count())]
    assert len(texts) == 2, texts
    assert texts[0].startswith(f"1st {names[by_place[1]]}"), texts
    assert texts[1].startswith(f"2nd {names[by_place[2]]}"), texts
    assert not any(player in text for player in players for text in texts), texts
