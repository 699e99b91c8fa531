"""The console's create form, at a phone's and a desktop's size: every field the API defaults says what it gets
when left empty (docs/rules.md, 'Defaults'), the blind structure at the level length chosen, hand-for-hand on by
default when the field can fill more than one table, and a fixed payout."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import call

OPERATOR = "otto"


def test_defaults_the_create_form_shows_them_the_blind_structure_and_hand_for_hand(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    page = pages.signed_in(OPERATOR, operator=True, viewport=viewport)
    page.get_by_role("link", name="Operator").click()
    form = page.get_by_role("region", name="New tournament")
    hand_for_hand = form.get_by_role("checkbox", name="Hand-for-hand at the bubble")
    # Given a freezeout: each empty field says the API's default
    for text in (
        "Empty: 2.",
        "Empty: 250,000.",
        "Empty: 9.",
        "Empty: 10,000.",
        "Empty: 10.",
        "Empty: 15 (and a 30 s time bank).",
    ):
        form.get_by_text(text, exact=True).wait_for()
    form.get_by_text("Empty: the table by entrants (about 15 % paid). Or one whole percent per place").wait_for()
    assert hand_for_hand.is_checked(), "a field of 250,000 fills more than one table"
    # When the format is a Sit & Go: its own defaults, and hand-for-hand off (its field is one table)
    form.get_by_label("Format").select_option(label="Sit & Go")
    form.get_by_text("Empty: the seats of its table (9).", exact=True).wait_for()
    form.get_by_text("Empty: 5.", exact=True).wait_for()
    form.get_by_text("Empty: 50, 30, 20. Or one whole percent per place", exact=False).wait_for()
    assert not hand_for_hand.is_checked()
    # And a freezeout of 9 players at 9 seats plays no hand-for-hand; of 18, it does
    form.get_by_label("Format").select_option(label="Freezeout")
    form.get_by_label("Most players").fill("9")
    assert not hand_for_hand.is_checked()
    form.get_by_label("Most players").fill("18")
    assert hand_for_hand.is_checked()
    # When the operator opens the blind structure and sets 7-minute levels
    form.get_by_text("Blind structure:").click()
    form.get_by_label("Level minutes").fill("7")
    structure = form.get_by_role("table").filter(has_text="Starts at")
    structure.get_by_text("7 minutes each").wait_for()
    assert structure.get_by_role("row").filter(has_text="1,000/2,000").filter(has_text="01:17:00").count() == 1
    assert structure.get_by_role("row").filter(has_text="100/200").filter(has_text="200 BB ante").count() == 1
    # And creates it with hand-for-hand turned off and a payout of 60/40
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST" else None)
    tid = f"defaults-{viewport['width']}"
    form.get_by_label("Tournament name").fill("Defaults cup")
    form.get_by_label("Tournament id").fill(tid)
    form.get_by_label("Start", exact=True).fill((datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S"))
    hand_for_hand.uncheck()
    form.get_by_label("Payout percents").fill("60, 40")
    form.get_by_role("button", name="Create tournament").click()
    form.get_by_text(f"({tid})").wait_for()
    # Then the API got what the form showed
    assert sent[-1]["hand_for_hand"] is False
    assert (sent[-1]["max_players"], sent[-1]["level_minutes"]) == (18, 7)
    _, details = call(stack, "GET", f"/tournaments/{tid}", stack.token(OPERATOR))
    assert [float(p) for p in details["payout_percent"]] == [60, 40]
    assert {level["minutes"] for level in details["levels"]} == {7}
