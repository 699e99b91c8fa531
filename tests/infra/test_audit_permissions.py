"""Rule 19: the operators' audit can never be changed: no role in the template may update or delete its items.

Every IAM policy of the synthesized stack is read (functions, workflows, the
scheduler, anything CDK added): none allows an action that changes or removes
an item (``UpdateItem``, ``DeleteItem``, ``BatchWriteItem``, PartiQL writes)
on the audit table, its index, or every resource, nor an action
wildcard. Only the admin function may write it, with ``PutItem`` alone (the
code puts each record once, conditional on ``attribute_not_exists``). The
table's own resource policy denies those actions to every principal, so a
role granted more later still could not.
"""

from __future__ import annotations

from infra import wiring
from infra.functions import CHANGE_ACTIONS
from infra.naming import logical_id
from tests.infra.template import Synthesized, as_list, every_statement, granted_on, render
from tests.infra.test_permissions import function_role

AUDIT_ARN = f"<Table{logical_id('audit')}.Arn>"


def reaches_audit(resource: str) -> bool:
    return resource == "*" or resource.startswith(AUDIT_ARN) or "audit" in resource.lower()


def test_rule_19_no_role_may_update_or_delete_an_audit_record(synthesized: Synthesized) -> None:
    for roles, statement in every_statement(synthesized):
        if statement.get("Effect") != "Allow":
            continue
        resources = [str(r) for r in as_list(statement.get("Resource", []))]
        if not any(reaches_audit(r) for r in resources):
            continue
        actions = set(as_list(statement["Action"]))
        assert not actions & set(CHANGE_ACTIONS), (roles, statement)
        assert not any(a in ("*", "dynamodb:*") or a.endswith("*") for a in actions), (roles, statement)


def test_rule_19_only_the_admin_function_writes_the_audit_and_only_by_putting_new_items(
    synthesized: Synthesized,
) -> None:
    reads = {"dynamodb:GetItem", "dynamodb:Query"}
    writers = {role: actions - reads for role, actions in granted_on(synthesized, AUDIT_ARN).items()}
    admin_role = f"<{function_role(synthesized, 'admin')}>"
    putting = {role for role, actions in writers.items() if "dynamodb:PutItem" in actions}
    assert putting == {admin_role}
    assert writers[admin_role] & {"dynamodb:PutItem", *CHANGE_ACTIONS} == {"dynamodb:PutItem"}
    assert [f.name for f in wiring.FUNCTIONS if "audit" in f.tables] == ["admin"]
    assert wiring.FUNCTIONS_BY_NAME["admin"].tables["audit"] is wiring.Access.APPEND


def test_rule_19_the_audit_tables_own_policy_denies_every_change_to_everyone(synthesized: Synthesized) -> None:
    table = synthesized.resources[f"Table{logical_id('audit')}"]
    statements = render(table["Properties"]["ResourcePolicy"]["PolicyDocument"]["Statement"])
    denied = [s for s in statements if s["Effect"] == "Deny" and s["Principal"] in ("*", {"AWS": "*"})]
    assert denied, statements
    assert set(CHANGE_ACTIONS) <= {a for s in denied for a in as_list(s["Action"])}
    assert not [s for s in statements if s["Effect"] == "Allow"]
