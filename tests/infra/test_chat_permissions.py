"""Rule 18: least privilege on the chat table: the ws function reads and puts its items, the admin function reads."""

from __future__ import annotations

from infra import wiring
from infra.functions import CHANGE_ACTIONS
from infra.naming import logical_id
from tests.infra.template import Synthesized, granted_on
from tests.infra.test_permissions import function_role

CHAT_ARN = f"<Table{logical_id('chat')}.Arn>"


def test_rule_18_only_ws_puts_chat_items_admin_reads_them_and_no_role_updates_or_deletes(
    synthesized: Synthesized,
) -> None:
    # Given every allowed statement of the template that names the chat table
    granted = granted_on(synthesized, CHAT_ARN)
    role_of = {name: f"<{function_role(synthesized, name)}>" for name in ("ws", "admin")}
    # Then only ws and admin reach it; ws may put, admin only read; neither may update or delete an item
    assert set(granted) == set(role_of.values())
    assert "dynamodb:PutItem" in granted[role_of["ws"]]
    assert "dynamodb:PutItem" not in granted[role_of["admin"]]
    for actions in granted.values():
        assert not actions & set(CHANGE_ACTIONS), actions
    assert {f.name: f.tables["chat"] for f in wiring.FUNCTIONS if "chat" in f.tables} == {
        "ws": wiring.Access.APPEND,
        "admin": wiring.Access.READ,
    }
