"""A terminated tournament in the console, at a phone's and a desktop's size (docs/rules.md, rule 17): who
terminated it and why, the restart window left, the outcome ahead and, once the players are compensated, what each
was paid, as ``GET /admin/tournaments/{id}/recovery`` tells them; a restart within the window; a link to watch each
table."""

from __future__ import annotations

import json
import re
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import call, fund, seed_running

OPERATOR = "otto"


def compensated(page: Any, tid: str, players: tuple[str, ...]) -> Any:
    """The recovery as the API answers it once the players are compensated by a rollback: 11.00 to each of two."""

    def answer(route: Any) -> None:
        response = route.fetch()
        real = response.json()
        body = {
            **real,
            "outcome": "compensated",
            "window_seconds_left": 0,
            "plan_fixed": True,
            "compensated_at": real["restart_deadline"],
            "paid_total": 2_200,
            "players_paid": 2,
            "overlay": 0,
            "payments": [{"player": p, "name": f"{p} (screen)", "amount": 1_100} for p in players],
        }
        route.fulfill(response=response, body=json.dumps(body))

    pattern = re.compile(rf".*/admin/tournaments/{tid}/recovery$")
    page.route(pattern, answer)
    return pattern


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
    # Then its recovery shows who terminated it and why, and the restart window left, counting down from 20 minutes
    recovery = page.get_by_role("region", name="Recovery")
    recovery.get_by_text(re.compile(rf"^Terminated .* by {OPERATOR}: a power cut\.$")).wait_for()
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
    # When the players have been compensated (the recovery the API answers says so, with the amounts)
    faked = compensated(page, tid, players)
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    # Then the console says so, with the outcome and what each player was paid, and offers no restart
    recovery.get_by_text("Compensated").wait_for()
    recovery.get_by_text(
        re.compile(r"Outcome: a rollback: every entrant gets back every fee and buy-in paid")
    ).wait_for()
    recovery.get_by_text("Paid: $22.00 to 2 players.").wait_for()
    paid = recovery.get_by_role("table", name="Compensation paid")
    assert paid.get_by_role("row").filter(has_text=f"{players[0]} (screen)").filter(has_text="$11.00").count() == 1
    assert page.get_by_role("button", name="Restart").is_disabled()
    # When, the compensation not yet begun in truth, the operator restarts it within the window
    page.unroute(faked)
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    page.get_by_role("button", name="Restart").click()
    # Then the recovery says it restarted
    recovery.get_by_text(re.compile(r"^Restarted .*within its 20 minutes")).wait_for()
    assert page.get_by_role("button", name="Terminate").is_enabled()
