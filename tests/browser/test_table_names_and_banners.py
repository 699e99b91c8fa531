"""Screen names where other players meet the player, and the hand-for-hand banner at the table, at a phone's size
and a desktop's (docs/interfaces.md, the web client; docs/rules.md, rule 10, for hand-for-hand).

A player chooses a screen name on the account page; another player sees it at the table's seat, in the standings and
in a chat line, never the account id. The other seat is driven over HTTP; nobody waits for a clock but the start.
"""

from __future__ import annotations

import re
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import fund, seed_running, terminate_voiding_the_hand

OPERATOR = "nora"


def test_a_chosen_screen_name_shows_at_the_seat_in_the_standings_and_in_chat(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    chooser, other = f"kit-{size}", f"lou-{size}"
    screen_name = f"River Rat {size}"
    fund(stack, OPERATOR, chooser, other, amount=50_000)
    # Given a player who chose a screen name on the account page
    page = pages.signed_in(chooser, viewport=viewport)
    page.get_by_role("link", name="Choose a screen name").click()
    page.get_by_role("textbox", name="Screen name").fill(screen_name)
    page.get_by_role("button", name="Save screen name").click()
    page.get_by_role("status").filter(has_text="Saved").wait_for()
    # And that player and another seated at a running tournament's table
    tid, _ = seed_running(stack, OPERATOR, f"names-{size}", (chooser, other))
    watcher = pages.at_table(other, tid, viewport)

    # Then the other player sees the screen name at the seat, not the account id
    seat = watcher.get_by_role("group", name=re.compile(rf"^Seat \d+: {screen_name}, "))
    seat.wait_for()
    assert watcher.get_by_role("group", name=re.compile(rf"^Seat \d+: {chooser}, ")).count() == 0
    assert seat.locator(".name").inner_text() == screen_name

    # And in the standings of the tournament's page
    standings = pages.signed_in(other, viewport=viewport)
    standings.goto(f"{stack.urls['app']}#/t/{tid}")
    standings.get_by_role("cell", name=screen_name, exact=True).wait_for()
    assert standings.get_by_role("cell", name=chooser, exact=True).count() == 0

    # When the hand is void (the tournament terminated: nobody in a hand may chat) and the player says a line
    terminate_voiding_the_hand(stack, OPERATOR, tid, "names test", other)
    speaker = pages.at_table(chooser, tid, viewport)
    speaker.get_by_label("Chat message").fill("good luck all")
    speaker.get_by_role("button", name="Send").click()
    # Then the other player's chat names the speaker by the screen name
    line = watcher.get_by_role("list", name="Chat").get_by_role("listitem").filter(has_text="good luck all")
    line.wait_for()
    assert line.inner_text() == f"{screen_name} good luck all"


def test_rule_10_the_table_shows_a_banner_while_hand_for_hand_holds_it(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    """Reaching a real bubble in a browser is too slow: the table view's HTTP answer is intercepted
    (Playwright's ``page.route``) and ``hand_for_hand`` set in it, as the server sets it while hand-for-hand holds
    the table (the same view comes in the ``hand_for_hand`` push). The banner must say what hand-for-hand means for
    the player: this table plays one hand, then waits for the other tables."""
    ann, bob = f"hfh-ann-{size}", f"hfh-bob-{size}"
    fund(stack, OPERATOR, ann, bob, amount=50_000)
    tid, _ = seed_running(stack, OPERATOR, f"hfh-{size}", (ann, bob))
    holding = {"on": False}

    def table_view(route: Any) -> None:
        response = route.fetch()
        view = response.json()
        if route.request.method == "GET" and isinstance(view, dict):
            view["hand_for_hand"] = holding["on"]
        route.fulfill(response=response, json=view)

    page = pages.open(viewport)
    page.route(re.compile(rf"/tournaments/{re.escape(tid)}/tables/1(\?.*)?$"), table_view)
    page.get_by_label("Name").fill(ann)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Lobby").wait_for()
    page.goto(f"{stack.urls['app']}#/t/{tid}/table/1")
    page.locator(f".seat[data-player='{ann}']").wait_for()
    banner = page.get_by_role("status").filter(has_text="Hand-for-hand")
    # Given a table that hand-for-hand does not hold: no banner
    assert banner.count() == 0

    # When the table view says hand-for-hand holds the table
    holding["on"] = True
    # Then a banner says so, and what it means for the player: one hand, then the table waits for the others
    banner.wait_for()
    text = banner.inner_text()
    assert re.search(r"one hand", text) and re.search(r"waits for (every|all the|the) other tables?", text), text
    assert banner.is_visible()

    # When hand-for-hand is over, the banner goes
    holding["on"] = False
    banner.wait_for(state="detached")
