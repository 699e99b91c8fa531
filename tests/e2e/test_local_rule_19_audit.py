"""Rule 19 on the local stack (the real template, handlers and moto tables): operator acts over HTTP, audited.

An operator deposits, adjusts a balance, mutes and unmutes a player through
the HTTP API; each act is then listed by ``GET /admin/audit``, read from the
``audit`` table the template declares; a player may not read it, and an
item of that table is stored once per act.
"""

from __future__ import annotations

import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.test_local_stack_smoke import REPO_ROOT, call

pytestmark = pytest.mark.skipif(not (REPO_ROOT / "app.py").exists(), reason="no CDK app to synthesize")


def test_rule_19_operator_acts_over_http_are_audited_on_the_local_stack(stack: LocalRuntime) -> None:
    olga = stack.token("olga", operator=True)
    # When an operator deposits for zoe (signed in once), credits and takes back part of it, mutes and unmutes her
    assert call(stack, "GET", "/me/account", stack.token("zoe"))[0] == 200
    assert call(stack, "POST", "/admin/accounts/zoe/deposits", olga, {"amount": 5_000, "key": "e2e-d1"})[0] == 201
    status, adjusted = call(
        stack, "POST", "/admin/accounts/zoe/adjustments", olga, {"amount": -1_200, "reason": "chargeback", "key": "a1"}
    )
    assert (status, adjusted["balance"]) == (201, 3_800)
    assert call(stack, "POST", "/admin/players/zoe/mute", olga, {"reason": "abuse", "minutes": 10})[0] == 200
    assert call(stack, "DELETE", "/admin/players/zoe/mute", olga, {"reason": "apologised"})[0] == 200
    # And sends the adjustment again with its key (a retry after a lost answer)
    again = call(
        stack, "POST", "/admin/accounts/zoe/adjustments", olga, {"amount": -1_200, "reason": "chargeback", "key": "a1"}
    )
    assert again == (201, adjusted)
    # Then the audit lists the four acts, oldest first, with who and why
    status, body = call(stack, "GET", "/admin/audit?player=zoe", olga)
    assert status == 200
    records = body["records"]
    assert [r["act"] for r in records] == ["deposit", "balance_adjustment", "mute", "unmute"]
    assert {r["operator"] for r in records} == {"olga"}
    assert records[1]["reason"] == "chargeback" and records[1]["before"] == {"balance": 5_000}
    # And zoe's balance moved once, and she may not read the audit
    assert call(stack, "GET", "/me/account", stack.token("zoe"))[1]["balance"] == 3_800
    assert call(stack, "GET", "/admin/audit?player=zoe", stack.token("zoe"))[0] == 403
    # And the audit table holds one item per act
    dynamodb = stack.client("dynamodb")
    audit_table = next(name for name in dynamodb.list_tables()["TableNames"] if "audit" in name.lower())
    items = dynamodb.scan(TableName=audit_table)["Items"]
    assert sorted(item["act"]["S"] for item in items if item.get("player_id", {}).get("S") == "zoe") == [
        "balance_adjustment",
        "deposit",
        "mute",
        "unmute",
    ]
