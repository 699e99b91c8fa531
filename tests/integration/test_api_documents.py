"""The OpenAPI document groups its operations by tag with real summaries and says how to get a token; the AsyncAPI
document names every message the WebSocket API accepts and sends (read from the code, so a new one fails here).

Regenerate docs/asyncapi.json after changing a message::

    PYTHONPATH=. .venv/bin/python tests/integration/test_api_documents.py --write
"""

from __future__ import annotations

import ast
import json
import typing
from pathlib import Path
from typing import Any

import pytest
from tourney.domain.fees import Purchase
from tourney.entrypoints.asyncapi import asyncapi_document
from tourney.entrypoints.models import ClientMessage

from tests.integration.test_openapi_drift import generated


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return generated()


def test_every_operation_is_grouped_by_a_declared_tag_with_a_real_summary(openapi: dict[str, Any]) -> None:
    # Given the generated OpenAPI document
    declared = {tag["name"] for tag in openapi.get("tags", [])}
    assert declared, "the document declares no tags"
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            # Then each operation sits in exactly one declared tag
            where = f"{method.upper()} {path}: give it a tag and a summary in tourney/entrypoints/apidocs.py"
            assert len(operation.get("tags", [])) == 1 and operation["tags"][0] in declared, where
            # And its summary says what it does, not only its method and path
            summary = operation.get("summary", "")
            assert summary and summary != f"{method.upper()} {path}" and "/" not in summary, where
    # And every declared tag is used and described
    used = {op["tags"][0] for item in openapi["paths"].values() for op in item.values()}
    assert used == declared
    assert all(tag.get("description") for tag in openapi["tags"])


def test_the_document_says_how_to_get_a_token(openapi: dict[str, Any]) -> None:
    # Given the generated OpenAPI document, When its token scheme is read
    scheme = openapi["components"]["securitySchemes"]["jwt"]["description"]
    # Then it says how a player and an operator get one, on AWS and on the local stack
    for words in ("UserPoolClientId", "USER_SRP_AUTH", "operators", "tourney local token", "Authorization: Bearer"):
        assert words in scheme, words
    assert "How to get a token" in openapi["info"]["description"]


# -- AsyncAPI: the WebSocket API's messages ---------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
PUSH_CALLS = {"to_player": 1, "to_table": 2, "PlayerPush": 1}  # the argument that is the message
TABLE_PUSH_CALLS = {"push_table": 2, "after_write": 2, "after_table_write": 2, "table_push": 2}  # its event
PASSING_ON = {"follow_settlement"}
"""Functions that push messages their callers wrote (the coordinator's, followed from the time-outs queue)."""
DYNAMIC = {
    "str(purchase)": {str(p) for p in Purchase if p is not Purchase.BUY_IN},
    "settled.event(t)": {"hand_dealt", "hand_for_hand", "table_changed"},
}
"""Push names the code computes, by their source text: what each may be (a purchase after the buy-in)."""


def _names(expression: ast.expr, source: str, scope: ast.AST | None = None) -> set[str]:
    """The strings an expression may be: a constant, either branch of a conditional, a variable given constants in
    its function, or a known computed name."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return {expression.value}
    if isinstance(expression, ast.IfExp):
        return _names(expression.body, source, scope) | _names(expression.orelse, source, scope)
    if isinstance(expression, ast.Name) and scope is not None:
        given = [
            n.value
            for n in ast.walk(scope)
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expression.id for t in n.targets)
        ]
        if given:
            return set().union(*(_names(value, source) for value in given))
    text = ast.get_source_segment(source, expression) or ""
    assert text in DYNAMIC, f"a push named by {text!r}: document it in entrypoints/asyncapi.py, say here what it is"
    return DYNAMIC[text]


def _dict_keyed(node: ast.AST | None, key: str) -> ast.expr | None:
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=True):
            if isinstance(k, ast.Constant) and k.value == key:
                return v
    return None


def _message_dict(argument: ast.expr, scope: ast.AST, helpers: dict[str, ast.FunctionDef]) -> ast.Dict:
    """The dict literal a push sends: written in the call, assigned to a name before it, or returned by a helper
    (a function of the files read, by its name)."""
    if isinstance(argument, ast.Dict):
        return argument
    if isinstance(argument, ast.Name):
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == argument.id for t in targets):
                    return node.value
    if isinstance(argument, ast.Call) and isinstance(argument.func, ast.Name) and argument.func.id in helpers:
        helper = helpers[argument.func.id]
        returned = [n.value for n in ast.walk(helper) if isinstance(n, ast.Return) and isinstance(n.value, ast.Dict)]
        if returned:
            return returned[0]
    raise AssertionError(f"a push whose message is {ast.unparse(argument)!r}: write it as a dict the test can read")


def pushes_in_the_code() -> dict[str, set[str]]:
    """Every message the services and the ws function send, by the field that names it (event, type)."""
    found: dict[str, set[str]] = {"action": set(), "type": set(), "event": set(), "table_event": set()}
    files = [*sorted((ROOT / "layers" / "tourney" / "services").glob("*.py")), ROOT / "functions" / "ws" / "app.py"]
    modules = {path: ast.parse(path.read_text(encoding="utf-8")) for path in files}
    helpers = {f.name: f for m in modules.values() for f in m.body if isinstance(f, ast.FunctionDef)}
    for path, module in modules.items():
        source = path.read_text(encoding="utf-8")
        for scope in (n for n in ast.walk(module) if isinstance(n, ast.FunctionDef)):
            for call in (n for n in ast.walk(scope) if isinstance(n, ast.Call)):
                name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
                if name in PUSH_CALLS and len(call.args) > PUSH_CALLS[name]:
                    passing_on = scope.name in PUSH_CALLS or scope.name in PASSING_ON
                    passed_on = passing_on and isinstance(call.args[PUSH_CALLS[name]], ast.Name)
                    if passed_on:
                        continue  # a push handing its message on as a round of one: its callers write it
                    message = _message_dict(call.args[PUSH_CALLS[name]], scope, helpers)
                    for field in ("event", "type"):
                        value = _dict_keyed(message, field)
                        if value is not None:
                            found[field] |= _names(value, source)
                if name in TABLE_PUSH_CALLS and len(call.args) > TABLE_PUSH_CALLS[name]:
                    argument = call.args[TABLE_PUSH_CALLS[name]]
                    if scope.name in TABLE_PUSH_CALLS and isinstance(argument, ast.Name):
                        continue  # one table push passing its event on to the other: its callers name it
                    found["table_event"] |= _names(argument, source, scope)
        if path.name == "app.py":  # the ws function's frames: dicts returned, answered or posted as the body
            for node in ast.walk(module):
                frames: list[ast.expr | None] = []
                if isinstance(node, ast.Return):
                    frames.append(node.value)
                elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "answer" and len(node.args) > 1:
                    frames.append(node.args[1])
                elif isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "body" for t in node.targets):
                    frames.append(node.value)
                for frame in frames:
                    value = _dict_keyed(frame, "type")
                    if value is not None:
                        found["type"] |= _names(value, source)
    return found


def accepted_in_the_code() -> set[str]:
    """The ``action`` of every client message the ws function parses (``models.ClientMessage``)."""
    union = typing.get_args(ClientMessage)[0]
    return {typing.get_args(model.model_fields["action"].annotation)[0] for model in typing.get_args(union)}


def _documented(document: dict[str, Any], action: str) -> dict[str, set[str]]:
    """The messages of the document's operations of one action (receive, send), by the field that names them."""
    messages = document["components"]["messages"]
    named: dict[str, set[str]] = {}
    for operation in document["operations"].values():
        if operation["action"] != action:
            continue
        for reference in operation["messages"]:
            channel_message = reference["$ref"].rsplit("/", 1)[-1]
            payload = messages[channel_message]["payload"]
            for field, schema in payload.get("properties", {}).items():
                if "const" in schema:
                    view = "$ref" in payload["properties"].get("table", {})  # a table push carries the view
                    key = "table_event" if field == "event" and view else field
                    named.setdefault(key, set()).add(schema["const"])
    return named


def test_the_asyncapi_document_names_every_message_the_websocket_api_accepts_and_pushes() -> None:
    # Given the AsyncAPI document generated from the code
    document = asyncapi_document()
    # When the messages the code parses and sends are read from the code itself
    accepted, sent = accepted_in_the_code(), pushes_in_the_code()
    assert {"subscribe", "act", "chat"} <= accepted and {"error", "table", "chat"} <= sent["type"]
    assert {"moved", "placed"} <= sent["event"] and {"hand_dealt", "action"} <= sent["table_event"]
    # Then the API receives every client message the document lists, and sends every push and answer
    received = _documented(document, "receive")
    assert accepted <= received.get("action", set())
    documented = _documented(document, "send")
    for field in ("type", "event", "table_event"):
        missing = sent[field] - documented.get(field, set())
        assert not missing, f"{field} {sorted(missing)}: document them in tourney/entrypoints/asyncapi.py"


def test_the_committed_asyncapi_document_is_the_generated_one() -> None:
    # Given the document as the code generates it, Then docs/asyncapi.json is it (regenerate with --write)
    committed = json.loads((ROOT / "docs" / "asyncapi.json").read_text(encoding="utf-8"))
    assert committed == json.loads(json.dumps(asyncapi_document())), (
        "docs/asyncapi.json drifted: regenerate it (PYTHONPATH=. .venv/bin/python "
        "tests/integration/test_api_documents.py --write)"
    )
    assert committed["asyncapi"].startswith("3.")


if __name__ == "__main__":
    import sys

    if "--write" in sys.argv:
        target = ROOT / "docs" / "asyncapi.json"
        target.write_text(json.dumps(asyncapi_document(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {target}")
