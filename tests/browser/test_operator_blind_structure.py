"""The console's blind structure editor, at a phone's and a desktop's size (docs/interfaces.md, ``levels`` of
``POST /admin/tournaments``): the standard levels as the starting rows, their defaults shown, levels removed and
added, a structure that goes down refused before anything is sent, and the levels created as edited."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from tourney.domain.errors import InvalidConfiguration
from tourney.domain.structure import LevelSpec, blind_structure

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.browser.test_client_helpers import module
from tests.e2e.seeding import call

OPERATOR = "otto"


def value(form: Any, label: str) -> str:
    text: str = form.get_by_label(label, exact=True).input_value()
    return text


def test_an_operator_edits_the_blind_levels_and_the_tournament_is_created_with_them(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    page = pages.signed_in(OPERATOR, operator=True, viewport=viewport)
    page.get_by_role("link", name="Operator").click()
    form = page.get_by_role("region", name="New tournament")
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST" else None)
    # Given the operator opens the blind structure and chooses to edit the levels
    form.get_by_text("Blind structure:").click()
    form.get_by_role("button", name="Edit the levels").click()
    levels = form.get_by_role("table", name="Blind levels")
    # Then the standard levels are the starting rows, with the defaults an empty field gets
    assert levels.get_by_role("row").count() == 1 + 12
    assert (value(form, "Level 1 small blind"), value(form, "Level 1 big blind"), value(form, "Level 1 ante")) == (
        "25",
        "50",
        "0",
    )
    assert (value(form, "Level 4 ante"), form.get_by_label("Level 4 big-blind ante").is_checked()) == ("200", True)
    assert form.get_by_label("Level 1 minutes").get_attribute("placeholder") == "10"
    form.get_by_text("Minutes empty: the level length (10)").wait_for()
    form.get_by_text("12 levels of at most 100.").wait_for()
    # When the level length is 8 minutes, the minutes' default follows it
    form.get_by_label("Level minutes").fill("8")
    assert form.get_by_label("Level 1 minutes").get_attribute("placeholder") == "8"
    # When level 2 is removed, the levels after it move up
    form.get_by_role("button", name="Remove level 2").click()
    assert (value(form, "Level 2 small blind"), value(form, "Level 2 big blind")) == ("75", "150")
    for n in range(11, 3, -1):
        form.get_by_role("button", name=f"Remove level {n}").click()
    assert levels.get_by_role("row").count() == 1 + 3
    # And a level is added: the standard level above the last, its big-blind ante kept
    form.get_by_role("button", name="Add level").click()
    assert (value(form, "Level 4 small blind"), value(form, "Level 4 big blind"), value(form, "Level 4 ante")) == (
        "150",
        "300",
        "300",
    )
    assert form.get_by_label("Level 4 big-blind ante").is_checked()
    # When level 3 goes below level 2 and the operator creates the tournament
    tid = f"levels-{viewport['width']}"
    form.get_by_label("Tournament name").fill("Own blinds cup")
    form.get_by_label("Tournament id").fill(tid)
    form.get_by_label("Start", exact=True).fill((datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S"))
    form.get_by_label("Level 3 small blind", exact=True).fill("40")
    form.get_by_label("Level 3 big blind", exact=True).fill("80")
    form.get_by_role("button", name="Create tournament").click()
    # Then the form says which level and why, and nothing is sent
    form.get_by_text("Level 3: the blinds go down (40/80 after 75/150): a structure only rises.").wait_for()
    assert not sent
    # When the operator sets it right, gives level 3 its own 20 minutes and creates it
    form.get_by_label("Level 3 small blind", exact=True).fill("100")
    form.get_by_label("Level 3 big blind", exact=True).fill("200")
    form.get_by_label("Level 3 minutes", exact=True).fill("20")
    form.get_by_role("button", name="Create tournament").click()
    form.get_by_text(f"({tid})").wait_for()
    # Then the tournament has exactly the levels edited
    _, details = call(stack, "GET", f"/tournaments/{tid}", stack.token(OPERATOR))
    assert [
        (lv["small_blind"], lv["big_blind"], lv["ante"], lv["big_blind_ante"], lv["minutes"])
        for lv in details["levels"]
    ] == [(25, 50, 0, False, 8), (75, 150, 0, False, 8), (100, 200, 200, True, 20), (150, 300, 300, True, 8)]
    # And going back to the standard structure sends no levels
    form.get_by_role("button", name="Use the standard structure").click()
    form.get_by_role("table").filter(has_text="Starts at").wait_for()
    assert levels.count() == 0 or not levels.is_visible()


KEYS = ("small_blind", "big_blind", "ante", "big_blind_ante", "minutes")
CASES = [
    [["25", "50", "0", False, ""], ["50", "100", "", False, "12"]],
    [["25", "50", "0", False, ""], ["25", "50", "0", False, ""]],
    [["50", "100", "0", False, ""], ["25", "50", "0", False, ""]],
    [["50", "40", "0", False, ""]],
    [["50", "100", "0", True, ""]],
    [["50", "100", "100", True, ""], ["50", "90", "0", False, ""]],
    [["0", "100", "0", False, ""]],
    [["10", "20", "0", False, "0"]],
    [],
]


def test_the_editors_checks_are_the_domains(pages: Pages) -> None:
    """The form refuses exactly what the domain refuses (so the API's 422 is the exception, not the rule)."""
    page = pages.open()
    for case in CASES:
        rows = [dict(zip(KEYS, r, strict=True)) for r in case]
        answer = module(page, "views/structure-editor.js", "(m, rows) => m.levelsBody(rows)", rows)
        specs = [LevelSpec(int(r[0]), int(r[1]), int(r[2] or 0), bool(r[3]), int(r[4]) if r[4] else None) for r in case]
        try:
            blind_structure(specs, minutes=10)
            refused = False
        except InvalidConfiguration:
            refused = True
        assert ("problem" in answer) == refused, (case, answer)
