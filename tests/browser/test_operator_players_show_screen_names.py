"""The console's "Players at the tables" names each seated player by their screen name, at a phone's and a
desktop's size (the standings' ``name``, docs/interfaces.md): the Player list and the disqualification's
confirmation read the name, and the act still goes to the player's account."""

from __future__ import annotations

import time

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import PATIENCE, call, fund, seed_running

OPERATOR = "orla"


def seated(stack: LocalRuntime, tid: str) -> list[str]:
    status, standings = call(stack, "GET", f"/tournaments/{tid}/standings", stack.token(OPERATOR, True))
    assert status == 200, standings
    return [p["player"] for p in standings["players"]]


def test_the_players_at_the_tables_are_listed_by_their_screen_names(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    # Given a running tournament of two players with screen names
    size = viewport["width"]
    ned, ola = f"ned-{size}", f"ola-{size}"
    names = {ned: f"River Rat {size}", ola: f"Snap Call {size}"}
    fund(stack, OPERATOR, ned, ola, amount=50_000)
    for player, name in names.items():
        status, answer = call(stack, "PUT", "/me/profile", stack.token(player), {"display_name": name})
        assert status == 200, answer
    tid, _ = seed_running(stack, OPERATOR, f"console-names-{size}", (ned, ola))
    # When the operator opens its console
    page = pages.signed_in(OPERATOR, operator=True, viewport=viewport)
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    region = page.get_by_role("region", name="Players at the tables")
    pick = region.get_by_role("combobox", name="Player")
    pick.locator(f"option[value='{ola}']").wait_for(state="attached")
    # Then each seated player is listed by their screen name, never by their account id
    listed = pick.locator("option").all_inner_texts()
    assert sorted(text.split(" (")[0] for text in listed) == sorted(names.values()), listed
    assert not any(player in text for text in listed for player in names), listed
    # And the disqualification asks about the player by name, and disqualifies that account
    pick.select_option(ola)
    region.get_by_role("textbox", name="Reason for the player act").fill("collusion")
    region.get_by_role("button", name="Disqualify").click()
    dialog = page.get_by_role("dialog", name=f"Disqualify {names[ola]}?")
    dialog.get_by_role("button", name="Yes, disqualify").click()
    region.get_by_text("Disqualified", exact=True).wait_for()
    deadline = time.monotonic() + PATIENCE
    while ola in seated(stack, tid):  # out of play once the coordinator settles the hand the disqualification folded
        assert time.monotonic() < deadline, "the disqualified player is still in play"
        time.sleep(0.3)
