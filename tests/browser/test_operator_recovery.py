"""A terminated tournament in the console, at a phone's and a desktop's size (docs/rules.md, rule 17): the
restart window left (20 minutes from the termination the audit records), the outcome rule 17.3 gives once the
players are compensated, and a link to watch each table."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import DESKTOP, PHONE, Pages
from tests.e2e.seeding import call, fund, seed_running

OPERATOR = "otto"
SIZES = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def compensated(page: Any, tid: str, ended_at: str) -> None:
    """The tournament as the API answers it once compensated: terminated, with its ``ended_at``."""

    def answer(route: Any) -> None:
        response = route.fetch()
        body = {**response.json(), "ended_at": ended_at}
        route.fulfill(response=response, body=json.dumps(body))

    page.route(re.compile(rf".*/tournaments/{tid}$"), answer)


@SIZES
def test_rule_17_a_terminated_tournament_shows_its_restart_window_its_tables_and_its_outcome(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    # Given a running freezeout terminated by an operator in its first minutes
    size = viewport["width"]
    players = (f"rex-{size}", f"sue-{size}")
    fund(stack, OPERATOR, *players)
    tid, _ = seed_running(stack, OPERATOR, f"recover-{size}", players)
    status, answer = call(
        stack, "POST", f"/admin/tournaments/{tid}/terminate", stack.token(OPERATOR, True), {"reason": "a power cut"}
    )
    assert status == 200, answer
    page = pages.signed_in(OPERATOR, operator=True, viewport=viewport)
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    # Then its recovery shows the restart window left, counting down from 20 minutes
    recovery = page.get_by_role("region", name="Recovery")
    window = recovery.get_by_text(re.compile(r"Restart window: (20:00|1\d:\d\d) left"))
    window.wait_for()
    first = window.inner_text()
    page.wait_for_function(
        "(first) => !document.querySelector('.recovery .countdown').textContent.includes(first)",
        arg=first.split(": ")[1].split(" ")[0],
    )
    # And what happens unless it restarts: terminated within 30 minutes of its start, a rollback (rule 17.3b)
    recovery.get_by_text(re.compile(r"compensated: a rollback")).wait_for()
    assert page.get_by_role("button", name="Restart").is_enabled()
    # And a link to watch each table, which opens the table
    watch = page.get_by_role("region", name="Watch the tables")
    watch.get_by_role("link", name="Watch table 1").click()
    page.wait_for_url(re.compile(rf"#/t/{tid}/table/1$"))
    # When the players have been compensated (the API gives the tournament its ended_at)
    compensated(page, tid, answer["terminated_at"].replace("Z", "") + "Z")
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    # Then the console says so, with the outcome, and offers no restart
    recovery.get_by_text("Compensated").wait_for()
    recovery.get_by_text(
        re.compile(r"Outcome: a rollback: every entrant gets back every fee and buy-in paid")
    ).wait_for()
    assert page.get_by_role("button", name="Restart").is_disabled()
